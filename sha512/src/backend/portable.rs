//! Portable SHA-512 compression (FIPS 180-4 §6.4.2) in safe Rust.
//!
//! The 80 rounds are fully unrolled; instead of shifting the eight working
//! variables each round, every round names them in rotated order. The
//! message schedule lives in a 16-word ring that is extended in place
//! (`W[t]` for t >= 16 overwrites `W[t-16]`).
#![forbid(unsafe_code)]

use hash_core::Block;
use hash_core::typenum::U128;

use crate::consts::K;

/// Σ0 (FIPS 180-4 §4.1.3, (4.10)).
#[cfg(not(target_arch = "x86"))]
#[inline(always)]
pub(crate) fn big_sigma0(x: u64) -> u64 {
    x.rotate_right(28) ^ x.rotate_right(34) ^ x.rotate_right(39)
}

/// Σ0 (4.10) as ROTR²⁸(x ⊕ ROTR⁶(x ⊕ ROTR⁵(x))): the same three rotations,
/// nested, so that fewer 64-bit temporaries are alive at once. On i686,
/// where every temporary is two of the seven free registers, this and the
/// same form of Σ1 cut the instructions per block by 0.8% (callgrind:
/// 76,159 against 76,739 per 8 blocks) and ran 0.7% faster (interleaved
/// timing, 1 KiB); elsewhere the longer dependency chain is not worth it.
#[cfg(target_arch = "x86")]
#[inline(always)]
pub(crate) fn big_sigma0(x: u64) -> u64 {
    (x ^ (x ^ x.rotate_right(5)).rotate_right(6)).rotate_right(28)
}

/// Σ1 (4.11).
#[cfg(not(target_arch = "x86"))]
#[inline(always)]
pub(crate) fn big_sigma1(x: u64) -> u64 {
    x.rotate_right(14) ^ x.rotate_right(18) ^ x.rotate_right(41)
}

/// Σ1 (4.11) as ROTR¹⁴(x ⊕ ROTR⁴(x ⊕ ROTR²³(x))) (see Σ0 on i686).
#[cfg(target_arch = "x86")]
#[inline(always)]
pub(crate) fn big_sigma1(x: u64) -> u64 {
    (x ^ (x ^ x.rotate_right(23)).rotate_right(4)).rotate_right(14)
}

/// σ0 (4.12).
#[inline(always)]
pub(crate) fn small_sigma0(x: u64) -> u64 {
    x.rotate_right(1) ^ x.rotate_right(8) ^ (x >> 7)
}

/// σ1 (4.13).
#[inline(always)]
pub(crate) fn small_sigma1(x: u64) -> u64 {
    x.rotate_right(19) ^ x.rotate_right(61) ^ (x >> 6)
}

/// Ch(x, y, z) = (x ∧ y) ⊕ (¬x ∧ z) (4.8). The two terms have no bit in
/// common, so the ⊕ is also a `+`, which lets the caller fold both terms
/// into the sum T1 independently.
#[cfg(not(any(target_pointer_width = "32", target_family = "wasm")))]
#[inline(always)]
pub(crate) fn ch(x: u64, y: u64, z: u64) -> u64 {
    (x & y).wrapping_add(!x & z)
}

/// Ch(x, y, z) (4.8) as z ⊕ (x ∧ (y ⊕ z)): on 32-bit targets a 64-bit `+`
/// is an add and an add-with-carry and a NOT two instructions, so the form
/// without either is shorter (i686: 4 instructions fewer per round).
#[cfg(any(target_pointer_width = "32", target_family = "wasm"))]
#[inline(always)]
pub(crate) fn ch(x: u64, y: u64, z: u64) -> u64 {
    z ^ (x & (y ^ z))
}

/// Maj(x, y, z) (4.9), as y ⊕ ((x ⊕ y) ∧ (y ⊕ z)). In the unrolled rounds
/// this round's x ⊕ y is the next round's y ⊕ z, which the compiler reuses.
#[inline(always)]
pub(crate) fn maj(x: u64, y: u64, z: u64) -> u64 {
    y ^ ((x ^ y) & (y ^ z))
}

/// Compress each block in turn.
pub(crate) fn compress(state: &mut [u64; 8], blocks: &[Block<U128>]) {
    for block in blocks {
        compress_block(state, block);
    }
}

/// Step 1, t = 0..15 (§6.4.2): W[t] = M[t], the block's big-endian 64-bit
/// words.
#[inline(always)]
pub(crate) fn message_words(block: &Block<U128>) -> [u64; 16] {
    let mut w = [0u64; 16];
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(bytes);
        *word = u64::from_be_bytes(b);
    }
    w
}

#[inline(always)]
fn compress_block(state: &mut [u64; 8], block: &Block<U128>) {
    // Step 1, t = 0..15; later words overwrite these in a 16-word ring.
    let mut w = message_words(block);

    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    // Step 3: one round, with the variables passed in rotated order so
    // that nothing is moved: T1 lands in d (the next e) and h becomes the
    // next a. T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]; T2 = Σ0(a) + Maj(a, b, c).
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {
            let t1 = $h
                .wrapping_add(K[$t])
                .wrapping_add(w[$t & 15])
                .wrapping_add(ch($e, $f, $g))
                .wrapping_add(big_sigma1($e));
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(maj($a, $b, $c)).wrapping_add(big_sigma0($a));
        };
    }

    // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] (6.4.2 step 1).
    macro_rules! schedule {
        ($t:expr) => {
            w[$t & 15] = small_sigma1(w[($t - 2) & 15])
                .wrapping_add(w[($t - 7) & 15])
                .wrapping_add(small_sigma0(w[($t - 15) & 15]))
                .wrapping_add(w[$t & 15]);
        };
    }

    macro_rules! eight_rounds {
        ($t:expr) => {
            hash_core::sha2_eight_rounds!(round, [a, b, c, d, e, f, g, h], $t);
        };
    }

    #[cfg(any(target_arch = "x86", not(any(target_pointer_width = "32", target_family = "wasm"))))]
    macro_rules! eight_rounds_scheduled {
        ($t:expr) => {
            hash_core::sha2_eight_rounds!(schedule, round, [a, b, c, d, e, f, g, h], $t);
        };
    }

    eight_rounds!(0);
    eight_rounds!(8);
    // 64-bit targets and i686: all 80 rounds unrolled. On i686 (two
    // registers per word, everything else on the stack) the unrolled rounds
    // run 3% fewer instructions than the loop below: K[t] becomes an
    // immediate operand and the loop's index arithmetic goes (callgrind, 1 KiB
    // messages: 86,898 against 89,800 instructions per message). Other 32-bit
    // targets and wasm (a JIT compiling one huge function): rounds 16..80 as
    // a loop of 16 rounds, the same code at a fifth of the size.
    #[cfg(any(target_arch = "x86", not(any(target_pointer_width = "32", target_family = "wasm"))))]
    {
        eight_rounds_scheduled!(16);
        eight_rounds_scheduled!(24);
        eight_rounds_scheduled!(32);
        eight_rounds_scheduled!(40);
        eight_rounds_scheduled!(48);
        eight_rounds_scheduled!(56);
        eight_rounds_scheduled!(64);
        eight_rounds_scheduled!(72);
    }
    #[cfg(all(not(target_arch = "x86"), any(target_pointer_width = "32", target_family = "wasm")))]
    {
        // `$t & 15` is the same in every pass (t0 is a multiple of 16), so
        // the schedule's ring indices stay constants; only K's index moves.
        let mut t0 = 16;
        while t0 < 80 {
            let k = &K[t0..t0 + 16];
            macro_rules! round16 {
                ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {
                    schedule!(16 + $t);
                    let t1 = $h
                        .wrapping_add(k[$t])
                        .wrapping_add(w[$t])
                        .wrapping_add(ch($e, $f, $g))
                        .wrapping_add(big_sigma1($e));
                    $d = $d.wrapping_add(t1);
                    $h = t1.wrapping_add(maj($a, $b, $c)).wrapping_add(big_sigma0($a));
                };
            }
            // Sixteen rounds: two groups of eight, the names back in order
            // after each.
            hash_core::sha2_eight_rounds!(round16, [a, b, c, d, e, f, g, h], 0);
            hash_core::sha2_eight_rounds!(round16, [a, b, c, d, e, f, g, h], 8);
            t0 += 16;
        }
    }

    // Step 4: the intermediate hash value.
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}
