//! Portable MD5 compression (RFC 1321 §3.4) in safe Rust.
//!
//! The 64 steps are fully unrolled ([`md5_steps`]); the four variables
//! rotate through the step positions, so no values move between steps.
//! Message words are read little-endian (RFC 1321 §2, §3.4) straight from
//! the block at each use, with no copy of the block.
#![forbid(unsafe_code)]

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::{T, md5_steps};

/// Compress each block in turn.
pub(crate) fn compress(state: &mut [u32; 4], blocks: &[Block<U64>]) {
    for block in blocks {
        // A `Block<U64>` is 64 bytes, so this conversion cannot fail (and
        // compiles to nothing).
        if let Ok(block) = <&[u8; 64]>::try_from(&block[..]) {
            compress_block(state, block);
        }
    }
}

/// X[k]: the k-th little-endian word of the block (RFC 1321 §3.4, "Copy
/// block i into X").
#[inline(always)]
fn x(block: &[u8; 64], k: usize) -> u32 {
    u32::from_le_bytes([block[4 * k], block[4 * k + 1], block[4 * k + 2], block[4 * k + 3]])
}

#[inline(always)]
fn compress_block(state: &mut [u32; 4], block: &[u8; 64]) {
    let [mut a, mut b, mut c, mut d] = *state;

    // a = b + ((a + F(b,c,d) + X[k] + T[i]) <<< s). X[k] + T[i] is added
    // to `a` first: it does not wait for b, c or d.
    macro_rules! step {
        ($fun:expr, $a:ident, $b:ident, $k:expr, $s:expr, $t:expr) => {
            $a = $a.wrapping_add(x(block, $k).wrapping_add(T[$t])).wrapping_add($fun).rotate_left($s).wrapping_add($b);
        };
    }
    // F(X,Y,Z) = XY v not(X) Z (§3.4), as Z xor (X and (Y xor Z)).
    macro_rules! f {
        ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
            step!($d ^ ($b & ($c ^ $d)), $a, $b, $k, $s, $t)
        };
    }
    // G(X,Y,Z) = XZ v Y not(Z): the two terms have no bits in common, so
    // they may be added rather than or-ed, the Y not(Z) half first (it does
    // not wait for the newest variable X).
    macro_rules! g {
        ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
            $a = $a
                .wrapping_add(x(block, $k).wrapping_add(T[$t]))
                .wrapping_add($c & !$d)
                .wrapping_add($b & $d)
                .rotate_left($s)
                .wrapping_add($b);
        };
    }
    // H(X,Y,Z) = X xor Y xor Z.
    macro_rules! h {
        ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
            step!($b ^ $c ^ $d, $a, $b, $k, $s, $t)
        };
    }
    // I(X,Y,Z) = Y xor (X v not(Z)).
    macro_rules! i {
        ($a:ident, $b:ident, $c:ident, $d:ident, $k:expr, $s:expr, $t:expr) => {
            step!($c ^ ($b | !$d), $a, $b, $k, $s, $t)
        };
    }

    macro_rules! steps {
        ($($fun:ident($($arg:tt)*))*) => { $($fun!($($arg)*);)* };
    }
    md5_steps!(steps!(f, g, h, i, a, b, c, d));

    // "Then perform the following additions" (§3.4).
    for (s, v) in state.iter_mut().zip([a, b, c, d]) {
        *s = s.wrapping_add(v);
    }
}
