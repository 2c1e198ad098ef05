//! Scalar x86-64 MD5 compression (RFC 1321 §3.4) scheduled for a short
//! critical path, with BMI1 `andn`, in Rust: `Backend::X86` when the cargo
//! feature `asm` is off.
//!
//! LLVM does not keep this schedule: it turns G back into the or-ed form
//! and adds the constant after the round function, so this runs at about
//! the speed of the portable code (785 against 776 MB/s on Zen 5, where
//! the `asm` version of the same schedule, `x86_asm.rs`, does 958).
//!
//! Per step, the new `a` depends on the previous step's result `b`; every
//! other input (the message word, the constant, the oldest variable `a`,
//! and whatever of F/G/H/I does not involve `b`) is combined while `b` is
//! still being computed. What remains on the chain from `b` is:
//!
//! * F = d ⊕ (b ∧ (c ⊕ d)): and, xor, add, rotate, add (5 cycles);
//! * G = (b ∧ d) + (c ∧ ¬d), the two halves being bitwise disjoint: the
//!   c ∧ ¬d half (`andn`) is added to `a` early, so only and, add, rotate,
//!   add wait for `b` (4 cycles, against 5 for the textbook form);
//! * H = b ⊕ (c ⊕ d): xor, add, rotate, add (4 cycles);
//! * I = c ⊕ (b ∨ ¬d), with ¬d computed early: or, xor, add, rotate, add.
#![forbid(unsafe_code)]

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::{T, md5_steps};

/// Compress each block in turn. Needs BMI1 (for `andn`).
#[target_feature(enable = "bmi1")]
pub(crate) fn compress(state: &mut [u32; 4], blocks: &[Block<U64>]) {
    let [mut a, mut b, mut c, mut d] = *state;
    for block in blocks {
        let Ok(block) = <&[u8; 64]>::try_from(&block[..]) else { continue };
        let (aa, bb, cc, dd) = (a, b, c, d);
        // X[k] + T[i] (RFC 1321 §3.4), little-endian words.
        let xt = |k: usize, t: usize| {
            u32::from_le_bytes([block[4 * k], block[4 * k + 1], block[4 * k + 2], block[4 * k + 3]]).wrapping_add(T[t])
        };
        macro_rules! f {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
                $a = $a.wrapping_add(xt($k, $t)).wrapping_add($d ^ ($b & ($c ^ $d))).rotate_left($s).wrapping_add($b);
            };
        }
        macro_rules! g {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
                $a = $a
                    .wrapping_add(xt($k, $t))
                    .wrapping_add($c & !$d)
                    .wrapping_add($b & $d)
                    .rotate_left($s)
                    .wrapping_add($b);
            };
        }
        macro_rules! h {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
                $a = $a.wrapping_add(xt($k, $t)).wrapping_add($b ^ $c ^ $d).rotate_left($s).wrapping_add($b);
            };
        }
        macro_rules! i {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
                $a = $a.wrapping_add(xt($k, $t)).wrapping_add($c ^ ($b | !$d)).rotate_left($s).wrapping_add($b);
            };
        }
        macro_rules! steps {
            ($($fun:ident($($arg:tt)*))*) => { $($fun!($($arg)*);)* };
        }
        md5_steps!(steps!(f, g, h, i, a, b, c, d));
        a = a.wrapping_add(aa);
        b = b.wrapping_add(bb);
        c = c.wrapping_add(cc);
        d = d.wrapping_add(dd);
    }
    *state = [a, b, c, d];
}
