//! Scalar aarch64 MD5 compression (RFC 1321 §3.4) in inline assembly.
//!
//! Written in assembly for the same reason as the x86-64 backend: the
//! schedule below keeps the chain from one step's result to the next as
//! short as the instructions allow, and LLVM re-associates the sums of the
//! Rust version (it adds the `b`-dependent term first). It also turns every
//! constant T[t] into a `mov` and a `movk`; here they come from a table,
//! two per `ldp`, and the sixteen message words stay in registers (one
//! `ldp` per two words), which leaves 8.5 instructions per step in rounds 1
//! and 2 and 7.5 in rounds 3 and 4.
//!
//! Per step `a = b + ((a + F(b,c,d) + X[k] + T[t]) <<< s)`, everything that
//! does not wait for the previous step's `b` (X[k], T[t], the oldest
//! variable `a`, and whatever part of the round function does not involve
//! `b`) is added while `b` is still being computed. What remains on the
//! chain from `b`:
//!
//! * F = d ⊕ (b ∧ (c ⊕ d)): and, eor, add, ror, add;
//! * G = (b ∧ d) + (c ∧ ¬d), the halves being bitwise disjoint: `bic`
//!   computes c ∧ ¬d, added early, so only and, add, ror, add wait for b;
//! * H = b ⊕ (c ⊕ d): eor, add, ror, add;
//! * I = c ⊕ (b ∨ ¬d): `orn`, eor, add, ror, add.
//!
//! aarch64 rotates only right: `x <<< s` is `ror x, #(32 - s)`.
//!
//! Counted in the disassembly of a release build: 536 instructions per
//! block, against 617 for the portable backend (rustc 1.96) and 627 for
//! OpenSSL 3.0's `md5_block_data_order` (C; OpenSSL 3.0 has no aarch64
//! MD5 assembly).

use core::arch::asm;

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::{T, md5_steps};

/// One step as asm lines. `$early` lists the lines that leave in `t0` the
/// part of the round function that does not depend on `b` (or nothing),
/// `$late` the lines that leave the rest in `t0` (each group is added to
/// `a` after it). `$kr` names the register holding T[t] (`k0` or `k1`).
macro_rules! step {
    ($a:ident, $b:ident, $k:literal, $s:literal, $kr:expr, [$($early:expr),*], [$($late:expr),*]) => {
        concat!(
            "add {", stringify!($a), ":w}, {", stringify!($a), ":w}, {m", $k, ":w}\n",
            "add {", stringify!($a), ":w}, {", stringify!($a), ":w}, {", $kr, ":w}\n",
            $($early, "\n",)*
            $($late, "\n",)*
            "add {", stringify!($a), ":w}, {", stringify!($a), ":w}, {t0:w}\n",
            "ror {", stringify!($a), ":w}, {", stringify!($a), ":w}, #(32 - ", $s, ")\n",
            "add {", stringify!($a), ":w}, {", stringify!($a), ":w}, {", stringify!($b), ":w}\n",
        )
    };
}

/// The T[t] load: at each even t, one `ldp` of T[t] into `k0` and
/// T[t + 1] into `k1`, stepping `tp` on; nothing at odd t.
#[rustfmt::skip]
macro_rules! konst {
    (0) => { ldp_pair!() }; (2) => { ldp_pair!() }; (4) => { ldp_pair!() }; (6) => { ldp_pair!() }; (8) => { ldp_pair!() };
    (10) => { ldp_pair!() }; (12) => { ldp_pair!() }; (14) => { ldp_pair!() }; (16) => { ldp_pair!() }; (18) => { ldp_pair!() };
    (20) => { ldp_pair!() }; (22) => { ldp_pair!() }; (24) => { ldp_pair!() }; (26) => { ldp_pair!() }; (28) => { ldp_pair!() };
    (30) => { ldp_pair!() }; (32) => { ldp_pair!() }; (34) => { ldp_pair!() }; (36) => { ldp_pair!() }; (38) => { ldp_pair!() };
    (40) => { ldp_pair!() }; (42) => { ldp_pair!() }; (44) => { ldp_pair!() }; (46) => { ldp_pair!() }; (48) => { ldp_pair!() };
    (50) => { ldp_pair!() }; (52) => { ldp_pair!() }; (54) => { ldp_pair!() }; (56) => { ldp_pair!() }; (58) => { ldp_pair!() };
    (60) => { ldp_pair!() }; (62) => { ldp_pair!() };
    ($t:literal) => { "" };
}

/// The load of [`konst`] (a macro, so that `concat!` sees a literal).
macro_rules! ldp_pair {
    () => {
        "ldp {k0:w}, {k1:w}, [{tp}], #8\n"
    };
}

/// The register holding T[t]: `k0` at even t, `k1` at odd t.
#[rustfmt::skip]
macro_rules! kreg {
    (0) => { "k0" }; (2) => { "k0" }; (4) => { "k0" }; (6) => { "k0" }; (8) => { "k0" }; (10) => { "k0" }; (12) => { "k0" }; (14) => { "k0" };
    (16) => { "k0" }; (18) => { "k0" }; (20) => { "k0" }; (22) => { "k0" }; (24) => { "k0" }; (26) => { "k0" }; (28) => { "k0" }; (30) => { "k0" };
    (32) => { "k0" }; (34) => { "k0" }; (36) => { "k0" }; (38) => { "k0" }; (40) => { "k0" }; (42) => { "k0" }; (44) => { "k0" }; (46) => { "k0" };
    (48) => { "k0" }; (50) => { "k0" }; (52) => { "k0" }; (54) => { "k0" }; (56) => { "k0" }; (58) => { "k0" }; (60) => { "k0" }; (62) => { "k0" };
    ($t:literal) => { "k1" };
}

/// F(b,c,d) = d ⊕ (b ∧ (c ⊕ d)) (RFC 1321 §3.4 round 1).
macro_rules! f {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:tt) => {
        concat!(
            konst!($t),
            step!(
                $a,
                $b,
                $k,
                $s,
                kreg!($t),
                [concat!("eor {t0:w}, {", stringify!($c), ":w}, {", stringify!($d), ":w}")],
                [
                    concat!("and {t0:w}, {t0:w}, {", stringify!($b), ":w}"),
                    concat!("eor {t0:w}, {t0:w}, {", stringify!($d), ":w}")
                ]
            )
        )
    };
}

/// G(b,c,d) = (b ∧ d) ∨ (c ∧ ¬d) (round 2), as two additions: c ∧ ¬d
/// first (it does not wait for b), then b ∧ d.
macro_rules! g {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:tt) => {
        concat!(
            konst!($t),
            step!(
                $a,
                $b,
                $k,
                $s,
                kreg!($t),
                [
                    concat!("bic {t0:w}, {", stringify!($c), ":w}, {", stringify!($d), ":w}"),
                    concat!("add {", stringify!($a), ":w}, {", stringify!($a), ":w}, {t0:w}")
                ],
                [concat!("and {t0:w}, {", stringify!($b), ":w}, {", stringify!($d), ":w}")]
            )
        )
    };
}

/// H(b,c,d) = b ⊕ c ⊕ d (round 3), c ⊕ d first.
macro_rules! h {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:tt) => {
        concat!(
            konst!($t),
            step!(
                $a,
                $b,
                $k,
                $s,
                kreg!($t),
                [concat!("eor {t0:w}, {", stringify!($c), ":w}, {", stringify!($d), ":w}")],
                [concat!("eor {t0:w}, {t0:w}, {", stringify!($b), ":w}")]
            )
        )
    };
}

/// I(b,c,d) = c ⊕ (b ∨ ¬d) (round 4).
macro_rules! i {
    ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:tt) => {
        concat!(
            konst!($t),
            step!(
                $a,
                $b,
                $k,
                $s,
                kreg!($t),
                [],
                [
                    concat!("orn {t0:w}, {", stringify!($b), ":w}, {", stringify!($d), ":w}"),
                    concat!("eor {t0:w}, {t0:w}, {", stringify!($c), ":w}")
                ]
            )
        )
    };
}

/// Compress each block in turn.
#[inline(never)] // a symbol of its own: `cargo xtask mca` models its loop
pub(crate) fn compress(state: &mut [u32; 4], blocks: &[Block<U64>]) {
    for block in blocks {
        let block: &[u8; 64] = block[..].try_into().expect("64-byte block");
        let [mut a, mut b, mut c, mut d] = *state;

        macro_rules! run {
            ($($fun:ident($($arg:tt)*))*) => {
                // SAFETY: the assembly reads the 64 bytes at `block` (a
                // reference to 64 bytes) and the 256 bytes of `T` (the
                // static table, through `tp`), and touches no other memory
                // and no stack; every instruction is baseline aarch64.
                unsafe {
                    asm!(
                        "ldp {m0:w}, {m1:w}, [{p}]",
                        "ldp {m2:w}, {m3:w}, [{p}, #8]",
                        "ldp {m4:w}, {m5:w}, [{p}, #16]",
                        "ldp {m6:w}, {m7:w}, [{p}, #24]",
                        "ldp {m8:w}, {m9:w}, [{p}, #32]",
                        "ldp {m10:w}, {m11:w}, [{p}, #40]",
                        "ldp {m12:w}, {m13:w}, [{p}, #48]",
                        "ldp {m14:w}, {m15:w}, [{p}, #56]",
                        $($fun!($($arg)*),)*
                        a = inout(reg) a,
                        b = inout(reg) b,
                        c = inout(reg) c,
                        d = inout(reg) d,
                        p = in(reg) block.as_ptr(),
                        tp = inout(reg) TABLE.as_ptr() => _,
                        k0 = out(reg) _,
                        k1 = out(reg) _,
                        t0 = out(reg) _,
                        m0 = out(reg) _,
                        m1 = out(reg) _,
                        m2 = out(reg) _,
                        m3 = out(reg) _,
                        m4 = out(reg) _,
                        m5 = out(reg) _,
                        m6 = out(reg) _,
                        m7 = out(reg) _,
                        m8 = out(reg) _,
                        m9 = out(reg) _,
                        m10 = out(reg) _,
                        m11 = out(reg) _,
                        m12 = out(reg) _,
                        m13 = out(reg) _,
                        m14 = out(reg) _,
                        m15 = out(reg) _,
                        options(nostack, readonly, preserves_flags),
                    );
                }
            };
        }
        md5_steps!(run!(f, g, h, i, a, b, c, d));
        // "Then perform the following additions" (§3.4).
        for (s, v) in state.iter_mut().zip([a, b, c, d]) {
            *s = s.wrapping_add(v);
        }
    }
}

/// T (RFC 1321 §3.4) in memory, read in order by the assembly.
static TABLE: [u32; 64] = T;
