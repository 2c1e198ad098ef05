//! Scalar x86-64 MD5 compression (RFC 1321 §3.4) in inline assembly, so
//! that the short-critical-path schedule survives (LLVM folds the G trick
//! below back into the textbook 5-cycle form and delays the constants).
//!
//! Per step, the new `a` depends on the previous step's result `b`; every
//! other input (the message word, the constant, the oldest variable `a`,
//! and whatever of F/G/H/I does not involve `b`) is added while `b` is
//! still being computed. What remains on the chain from `b` is:
//!
//! * F = d ⊕ (b ∧ (c ⊕ d)): and, xor, add, rotate, add (5 cycles);
//! * G = (b ∧ d) + (¬d ∧ c), the two halves being bitwise disjoint: the
//!   ¬d ∧ c half (BMI1 `andn`) is added to `a` early, so only and, add,
//!   rotate, add wait for `b` (4 cycles, against 5 for the or-ed form);
//! * H = b ⊕ (c ⊕ d): xor, add, rotate, add (4 cycles);
//! * I = c ⊕ (b ∨ ¬d), with ¬d computed early: or, xor, add, rotate, add
//!   (5 cycles).
//!
//! That is 18 cycles per four steps, 288 per 64-byte block (4.5 cycles per
//! byte) where the textbook forms take 19 or 20.

use core::arch::asm;

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::{T, md5_steps};

/// One step `a = b + ((a + F(b,c,d) + X[k] + T[t]) <<< s)` as asm lines.
/// `$fun` lists the lines that leave the round function of b, c, d in `t0`
/// (every other line is shared by the four rounds).
macro_rules! step {
    ($a:ident, $b:ident, $k:literal, $s:literal, $t:literal, $($fun:expr),*) => {
        concat!(
            // a += X[k]; a += T[t] (positional operand t is T[t]): these
            // wait only for the old a.
            "add {", stringify!($a), ":e}, dword ptr [{p} + ", $k, " * 4]\n",
            "add {", stringify!($a), ":e}, {", $t, "}\n",
            $($fun, "\n",)*
            "add {", stringify!($a), ":e}, {t0:e}\n",
            "rol {", stringify!($a), ":e}, ", $s, "\n",
            "add {", stringify!($a), ":e}, {", stringify!($b), ":e}\n",
        )
    };
}

/// F(b,c,d) = d ⊕ (b ∧ (c ⊕ d)) (RFC 1321 §3.4 round 1).
macro_rules! f {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
        step!(
            $a,
            $b,
            $k,
            $s,
            $t,
            concat!("mov {t0:e}, {", stringify!($c), ":e}"),
            concat!("xor {t0:e}, {", stringify!($d), ":e}"),
            concat!("and {t0:e}, {", stringify!($b), ":e}"),
            concat!("xor {t0:e}, {", stringify!($d), ":e}")
        )
    };
}

/// G(b,c,d) = (b ∧ d) ∨ (c ∧ ¬d) (round 2), as two additions: ¬d ∧ c
/// first (it does not wait for b), then b ∧ d.
macro_rules! g {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
        step!(
            $a,
            $b,
            $k,
            $s,
            $t,
            concat!("andn {t0:e}, {", stringify!($d), ":e}, {", stringify!($c), ":e}"),
            concat!("add {", stringify!($a), ":e}, {t0:e}"),
            concat!("mov {t0:e}, {", stringify!($d), ":e}"),
            concat!("and {t0:e}, {", stringify!($b), ":e}")
        )
    };
}

/// H(b,c,d) = b ⊕ c ⊕ d (round 3), c ⊕ d first.
macro_rules! h {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
        step!(
            $a,
            $b,
            $k,
            $s,
            $t,
            concat!("mov {t0:e}, {", stringify!($c), ":e}"),
            concat!("xor {t0:e}, {", stringify!($d), ":e}"),
            concat!("xor {t0:e}, {", stringify!($b), ":e}")
        )
    };
}

/// I(b,c,d) = c ⊕ (b ∨ ¬d) (round 4), ¬d first.
macro_rules! i {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
        step!(
            $a,
            $b,
            $k,
            $s,
            $t,
            concat!("mov {t0:e}, {", stringify!($d), ":e}"),
            "not {t0:e}",
            concat!("or {t0:e}, {", stringify!($b), ":e}"),
            concat!("xor {t0:e}, {", stringify!($c), ":e}")
        )
    };
}

/// Compress each block in turn. Needs BMI1 (for `andn`).
#[target_feature(enable = "bmi1")]
pub(crate) fn compress(state: &mut [u32; 4], blocks: &[Block<U64>]) {
    if blocks.is_empty() {
        return;
    }
    let [mut a, mut b, mut c, mut d] = *state;
    let start = blocks.as_ptr().cast::<u8>();
    // One past the last block: `blocks` is one allocation of
    // 64 * blocks.len() bytes.
    let end = start.wrapping_add(64 * blocks.len());

    macro_rules! run {
        ($($fun:ident($($arg:tt)*))*) => {
            // SAFETY: the assembly reads the 64 * blocks.len() bytes from
            // `start` to `end`, which are the caller's `blocks` slice
            // (non-empty, checked above), and touches no other memory and no
            // stack. It uses `andn` (BMI1), which this function's
            // `target_feature` makes its callers guarantee; everything else
            // is baseline x86-64.
            unsafe {
                asm!(
                    "2:",
                    "mov {aa:e}, {a:e}",
                    "mov {bb:e}, {b:e}",
                    "mov {cc:e}, {c:e}",
                    "mov {dd:e}, {d:e}",
                    $($fun!($($arg)*),)*
                    // Add the chaining value in (RFC 1321 §3.4, end of the
                    // block loop).
                    "add {a:e}, {aa:e}",
                    "add {b:e}, {bb:e}",
                    "add {c:e}, {cc:e}",
                    "add {d:e}, {dd:e}",
                    "add {p}, 64",
                    "cmp {p}, {end}",
                    "jne 2b",
                    // T[0..64] as positional operands {0}..{63}: the steps
                    // come in order of t.
                    $(const T[md5_t!($($arg)*)],)*
                    a = inout(reg) a,
                    b = inout(reg) b,
                    c = inout(reg) c,
                    d = inout(reg) d,
                    p = inout(reg) start => _,
                    end = in(reg) end,
                    aa = out(reg) _,
                    bb = out(reg) _,
                    cc = out(reg) _,
                    dd = out(reg) _,
                    t0 = out(reg) _,
                    options(nostack, readonly),
                );
            }
        };
    }
    macro_rules! md5_t {
        ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
            $t
        };
    }
    md5_steps!(run!(f, g, h, i, a, b, c, d));
    *state = [a, b, c, d];
}
