//! Portable SHA-256 compression (FIPS 180-4 §6.2.2) in safe Rust.
//!
//! The 64 rounds are fully unrolled; instead of shifting the eight working
//! variables each round, every round names them in rotated order. The
//! message schedule lives in a 16-word ring that is extended in place
//! (W[t] for t >= 16 overwrites W[t-16]).
#![forbid(unsafe_code)]

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::K;

/// Σ0 (FIPS 180-4 §4.1.2, (4.4)).
#[cfg(not(any(target_pointer_width = "32", target_family = "wasm")))]
#[inline(always)]
fn big_sigma0(x: u32) -> u32 {
    x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
}

/// Σ1 (4.5).
#[cfg(not(any(target_pointer_width = "32", target_family = "wasm")))]
#[inline(always)]
fn big_sigma1(x: u32) -> u32 {
    x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
}

// 32-bit targets and wasm: Σ0 and Σ1 as ROTR²(ROTR¹¹(ROTR⁹(x) ⊕ x) ⊕ x)
// and ROTR⁶(ROTR⁵(ROTR¹⁴(x) ⊕ x) ⊕ x), the same functions (rotations
// distribute over ⊕) with one value live at a time instead of three: a
// longer chain, but fewer spills where registers are few (32-bit x86 has
// seven; V8 compiles wasm with few to spare). Measured on an Intel Xeon
// (model 207), ours / RustCrypto's software backend, 16 B to 1 MiB: i686
// 0.94-1.08x -> 1.02-1.16x, wasm32 under Node 0.98-1.05x -> 1.05-1.10x
// (`cargo xtask bench-target --target ...`).

/// Σ0 (FIPS 180-4 §4.1.2, (4.4)).
#[cfg(any(target_pointer_width = "32", target_family = "wasm"))]
#[inline(always)]
fn big_sigma0(x: u32) -> u32 {
    ((x.rotate_right(9) ^ x).rotate_right(11) ^ x).rotate_right(2)
}

/// Σ1 (4.5).
#[cfg(any(target_pointer_width = "32", target_family = "wasm"))]
#[inline(always)]
fn big_sigma1(x: u32) -> u32 {
    ((x.rotate_right(14) ^ x).rotate_right(5) ^ x).rotate_right(6)
}

/// σ0 (4.6).
#[inline(always)]
fn small_sigma0(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}

/// σ1 (4.7).
#[inline(always)]
fn small_sigma1(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

/// Ch(x, y, z) = (x ∧ y) ⊕ (¬x ∧ z) (4.2), as z ⊕ (x ∧ (y ⊕ z)).
#[inline(always)]
fn ch(x: u32, y: u32, z: u32) -> u32 {
    z ^ (x & (y ^ z))
}

/// Maj(x, y, z) (4.3), as (x ∧ y) ∨ (z ∧ (x ∨ y)).
#[inline(always)]
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y) | (z & (x | y))
}

/// Compress each block in turn.
pub(crate) fn compress(state: &mut [u32; 8], blocks: &[Block<U64>]) {
    for block in blocks {
        compress_block(state, block);
    }
}

#[inline(always)]
fn compress_block(state: &mut [u32; 8], block: &Block<U64>) {
    // Step 1, t = 0..15: W[t] = M[t], big-endian words.
    let mut w = [0u32; 16];
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }

    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    // Step 3: one round, with the variables passed in rotated order so
    // that nothing is moved: T1 lands in d (the next e) and h becomes the
    // next a.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {
            let t1 = $h
                .wrapping_add(big_sigma1($e))
                .wrapping_add(ch($e, $f, $g))
                .wrapping_add(K[$t])
                .wrapping_add(w[$t & 15]);
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(big_sigma0($a)).wrapping_add(maj($a, $b, $c));
        };
    }

    // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] (6.2.2 step 1).
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

    #[cfg(not(any(target_pointer_width = "32", target_family = "wasm")))]
    macro_rules! eight_rounds_scheduled {
        ($t:expr) => {
            hash_core::sha2_eight_rounds!(schedule, round, [a, b, c, d, e, f, g, h], $t);
        };
    }

    eight_rounds!(0);
    eight_rounds!(8);
    // 64-bit targets: all 64 rounds unrolled. 32-bit targets and wasm (a
    // JIT compiling one huge function): rounds 16..64 as a loop of 16
    // rounds, the same code at a third of the size.
    #[cfg(not(any(target_pointer_width = "32", target_family = "wasm")))]
    {
        eight_rounds_scheduled!(16);
        eight_rounds_scheduled!(24);
        eight_rounds_scheduled!(32);
        eight_rounds_scheduled!(40);
        eight_rounds_scheduled!(48);
        eight_rounds_scheduled!(56);
    }
    #[cfg(any(target_pointer_width = "32", target_family = "wasm"))]
    {
        // `$t & 15` is the same in every pass (t0 is a multiple of 16), so
        // the schedule's ring indices stay constants; only K's index moves.
        let mut t0 = 16;
        while t0 < 64 {
            let k = &K[t0..t0 + 16];
            macro_rules! round16 {
                ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {
                    schedule!(16 + $t);
                    let t1 = $h
                        .wrapping_add(big_sigma1($e))
                        .wrapping_add(ch($e, $f, $g))
                        .wrapping_add(k[$t])
                        .wrapping_add(w[$t]);
                    $d = $d.wrapping_add(t1);
                    $h = t1.wrapping_add(big_sigma0($a)).wrapping_add(maj($a, $b, $c));
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
