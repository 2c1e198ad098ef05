//! Scalar SHA-512 compression (FIPS 180-4 §6.4.2) arranged for aarch64,
//! for CPUs without the SHA512 instructions.
//!
//! Safe Rust, like the portable backend, but written for what aarch64 has
//! and LLVM does not find on its own (counted in the disassembly of the
//! portable code built for aarch64):
//!
//! * Round constants are loaded from a table, two per `ldp`, and rounds
//!   16 to 79 run as a loop of sixteen rounds (as in OpenSSL's
//!   `sha512-armv8`).
//!   Fully unrolled code with a `const` table, as in the portable backend,
//!   lets LLVM turn every K[t] into an immediate built by a `mov` and three
//!   `movk`s: four instructions per round where one half of an `ldp` does.
//! * Σ1 and Σ0 are written as `ror(e, 14) ^ ror(e ^ ror(e, 23), 18)`
//!   (and `ror(a, 28) ^ ror(a ^ ror(a, 5), 34)`), OpenSSL's form: aarch64's
//!   logical instructions rotate their second operand for free, so each is
//!   three instructions. (OpenSSL's assembly also keeps only two of them on
//!   the path from e; LLVM folds the other rotation and chains all three,
//!   whichever way the source puts the operands. Only assembly would get
//!   that step back.)
//! * T1's terms that do not depend on e (h, K[t], W[t]) are summed first,
//!   so that only Ch(e, f, g) and Σ1(e) wait for the previous round.
//!
//! The message schedule is a 16-word ring of locals, extended in place
//! (`W[t]` for t >= 16 overwrites `W[t-16]`), and the eight working
//! variables are renamed each round rather than moved.
//!
//! Counted in the disassembly (`aarch64-linux-gnu-objdump -d`) of a release
//! build with rustc 1.96: 2340 instructions per block, against 2529 for
//! the portable backend and 2373 for OpenSSL 3.0's `sha512_block_data_order`
//! (scalar aarch64 assembly).
#![forbid(unsafe_code)]

use hash_core::Block;
use hash_core::typenum::U128;

use super::portable::{ch, maj, small_sigma0, small_sigma1};

/// The round constants (FIPS 180-4 §4.2.3) as a `static`, so that they are
/// loaded from memory rather than built as immediates (see the module docs).
static K: [u64; 80] = crate::consts::K;

/// Σ0 (FIPS 180-4 (4.10)): ROTR²⁸ ⊕ ROTR³⁴ ⊕ ROTR³⁹, as
/// ROTR²⁸(x) ⊕ ROTR³⁴(x ⊕ ROTR⁵(x)).
#[inline(always)]
fn big_sigma0(x: u64) -> u64 {
    x.rotate_right(28) ^ (x ^ x.rotate_right(5)).rotate_right(34)
}

/// Σ1 (4.11): ROTR¹⁴ ⊕ ROTR¹⁸ ⊕ ROTR⁴¹, as ROTR¹⁴(x) ⊕ ROTR¹⁸(x ⊕ ROTR²³(x)).
#[inline(always)]
fn big_sigma1(x: u64) -> u64 {
    x.rotate_right(14) ^ (x ^ x.rotate_right(23)).rotate_right(18)
}

/// Compress each block in turn.
pub(super) fn compress(state: &mut [u64; 8], blocks: &[Block<U128>]) {
    for block in blocks {
        compress_block(state, block);
    }
}

#[inline(always)]
fn compress_block(state: &mut [u64; 8], block: &Block<U128>) {
    // Step 1, t = 0..15: W[t] = M[t], big-endian 64-bit words.
    let mut w = [0u64; 16];
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(bytes);
        *word = u64::from_be_bytes(b);
    }

    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    // Step 3: one round t, with the variables named in rotated order so
    // that nothing moves: T1 lands in d (the next e) and h becomes the next
    // a. `$k` is K[t], `$i` is t mod 16.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $k:expr, $i:expr) => {
            let t1 = $h.wrapping_add($k).wrapping_add(w[$i]).wrapping_add(ch($e, $f, $g)).wrapping_add(big_sigma1($e));
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(big_sigma0($a)).wrapping_add(maj($a, $b, $c));
        };
    }

    // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] (§6.4.2 step 1),
    // in the ring slot i = t mod 16.
    macro_rules! schedule {
        ($i:expr) => {
            w[$i] = small_sigma1(w[($i + 14) & 15])
                .wrapping_add(w[($i + 9) & 15])
                .wrapping_add(small_sigma0(w[($i + 1) & 15]))
                .wrapping_add(w[$i]);
        };
    }

    // Sixteen rounds t0..t0 + 15 with constants `k` (K[t0..t0 + 16]),
    // extending the schedule first when `$sched`.
    macro_rules! sixteen {
        ($k:expr, $sched:expr) => {
            let k: &[u64; 16] = $k;
            macro_rules! r {
                ($i:expr, $a2:ident, $b2:ident, $c2:ident, $d2:ident, $e2:ident, $f2:ident, $g2:ident, $h2:ident) => {
                    if $sched {
                        schedule!($i);
                    }
                    round!($a2, $b2, $c2, $d2, $e2, $f2, $g2, $h2, k[$i], $i);
                };
            }
            r!(0, a, b, c, d, e, f, g, h);
            r!(1, h, a, b, c, d, e, f, g);
            r!(2, g, h, a, b, c, d, e, f);
            r!(3, f, g, h, a, b, c, d, e);
            r!(4, e, f, g, h, a, b, c, d);
            r!(5, d, e, f, g, h, a, b, c);
            r!(6, c, d, e, f, g, h, a, b);
            r!(7, b, c, d, e, f, g, h, a);
            r!(8, a, b, c, d, e, f, g, h);
            r!(9, h, a, b, c, d, e, f, g);
            r!(10, g, h, a, b, c, d, e, f);
            r!(11, f, g, h, a, b, c, d, e);
            r!(12, e, f, g, h, a, b, c, d);
            r!(13, d, e, f, g, h, a, b, c);
            r!(14, c, d, e, f, g, h, a, b);
            r!(15, b, c, d, e, f, g, h, a);
        };
    }

    // `black_box` hides the table's contents from the optimiser, which
    // would otherwise fold the constants of the unrolled first sixteen
    // rounds into immediates again (it only affects speed, never results).
    let table: &[u64; 80] = core::hint::black_box(&K);
    let (first, rest) = table.split_first_chunk::<16>().expect("80 constants");
    sixteen!(first, false);
    // Rounds 16..79 as a loop of four, not unrolled: the constants then
    // come from memory (two per `ldp`), and the code stays small.
    for k in rest.as_chunks::<16>().0 {
        sixteen!(k, true);
    }

    // Step 4: the intermediate hash value.
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}
