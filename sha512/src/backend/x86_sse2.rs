//! SHA-512 compression (FIPS 180-4 §6.4.2) for 32-bit x86 with SSE2: every
//! 64-bit word in the low half of an `xmm` register.
//!
//! On 32-bit x86 a `u64` is a pair of general registers, and the ISA has
//! seven free ones: a 64-bit add is `add` + `adc`, a rotation four or more
//! instructions, and the eight working variables live on the stack. SSE2
//! (baseline on every i686 target) has 64-bit adds (`paddq`) and shifts
//! (`psrlq`, `psllq`) on its eight `xmm` registers, so each 64-bit operation
//! of a round is one instruction (a rotation two shifts and an OR). This is
//! the technique of OpenSSL's `sha512-586` SSE2 path; the code here is
//! written from the spec, the word held in the low 64-bit lane only.
//!
//! The round functions are the portable module's (the same formulas, on
//! vectors); the block's words are read as the portable code reads them. No
//! `unsafe` here: every function is compiled with SSE2 (`#[target_feature]`,
//! which the target enables anyway), so the intrinsics are safe to call;
//! the dispatch calls `compress` under the row's `cfg`, which requires SSE2.
#![forbid(unsafe_code)]

use core::arch::x86::{
    __m128i, _mm_add_epi64, _mm_and_si128, _mm_cvtsi128_si32, _mm_or_si128, _mm_set_epi32, _mm_slli_epi64,
    _mm_srli_epi64, _mm_xor_si128,
};

use hash_core::Block;
use hash_core::typenum::U128;

use crate::consts::K;

/// A 64-bit word in the low lane.
#[target_feature(enable = "sse2")]
#[inline]
fn word(x: u64) -> __m128i {
    _mm_set_epi32(0, 0, (x >> 32) as i32, x as i32)
}

/// The low lane's word.
#[target_feature(enable = "sse2")]
#[inline]
fn low(x: __m128i) -> u64 {
    let lo = _mm_cvtsi128_si32(x) as u32;
    let hi = _mm_cvtsi128_si32(_mm_srli_epi64::<32>(x)) as u32;
    (u64::from(hi) << 32) | u64::from(lo)
}

#[target_feature(enable = "sse2")]
#[inline]
fn add(a: __m128i, b: __m128i) -> __m128i {
    _mm_add_epi64(a, b)
}

#[target_feature(enable = "sse2")]
#[inline]
fn xor(a: __m128i, b: __m128i) -> __m128i {
    _mm_xor_si128(a, b)
}

/// ROTR^`R` (§3.2), `L` = 64 - `R`.
#[target_feature(enable = "sse2")]
#[inline]
fn rotr<const R: i32, const L: i32>(x: __m128i) -> __m128i {
    _mm_or_si128(_mm_srli_epi64::<R>(x), _mm_slli_epi64::<L>(x))
}

/// Σ0 (§4.1.3, (4.10)).
#[target_feature(enable = "sse2")]
#[inline]
fn big_sigma0(x: __m128i) -> __m128i {
    xor(xor(rotr::<28, 36>(x), rotr::<34, 30>(x)), rotr::<39, 25>(x))
}

/// Σ1 (4.11).
#[target_feature(enable = "sse2")]
#[inline]
fn big_sigma1(x: __m128i) -> __m128i {
    xor(xor(rotr::<14, 50>(x), rotr::<18, 46>(x)), rotr::<41, 23>(x))
}

/// σ0 (4.12).
#[target_feature(enable = "sse2")]
#[inline]
fn small_sigma0(x: __m128i) -> __m128i {
    xor(xor(rotr::<1, 63>(x), rotr::<8, 56>(x)), _mm_srli_epi64::<7>(x))
}

/// σ1 (4.13).
#[target_feature(enable = "sse2")]
#[inline]
fn small_sigma1(x: __m128i) -> __m128i {
    xor(xor(rotr::<19, 45>(x), rotr::<61, 3>(x)), _mm_srli_epi64::<6>(x))
}

/// Ch(x, y, z) (4.8) as z ⊕ (x ∧ (y ⊕ z)).
#[target_feature(enable = "sse2")]
#[inline]
fn ch(x: __m128i, y: __m128i, z: __m128i) -> __m128i {
    xor(z, _mm_and_si128(x, xor(y, z)))
}

/// Maj(x, y, z) (4.9) as y ⊕ ((x ⊕ y) ∧ (y ⊕ z)).
#[target_feature(enable = "sse2")]
#[inline]
fn maj(x: __m128i, y: __m128i, z: __m128i) -> __m128i {
    xor(y, _mm_and_si128(xor(x, y), xor(y, z)))
}

/// Compress each block in turn.
#[target_feature(enable = "sse2")]
pub(crate) fn compress(state: &mut [u64; 8], blocks: &[Block<U128>]) {
    let mut s = [word(0); 8];
    for (v, &x) in s.iter_mut().zip(state.iter()) {
        *v = word(x);
    }
    for block in blocks {
        compress_block(&mut s, block);
    }
    for (x, &v) in state.iter_mut().zip(s.iter()) {
        *x = low(v);
    }
}

#[target_feature(enable = "sse2")]
#[inline]
fn compress_block(state: &mut [__m128i; 8], block: &Block<U128>) {
    // Step 1, t = 0..15, in a 16-word ring extended in place.
    let mut w = [word(0); 16];
    for (slot, &m) in w.iter_mut().zip(super::portable::message_words(block).iter()) {
        *slot = word(m);
    }

    // Step 2.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    // K through an opaque reference, read where each round uses it: with
    // the literal table LLVM hoisted all 80 constants out of the block loop
    // into 16-byte stack slots, stored at every call (a 2.2 KiB frame), and
    // that cost about 200 ns per call on an Intel Xeon (model 207): one-block
    // messages ran at 0.77-0.85x RustCrypto's software SHA-512, now 1.23-1.25x
    // (`cargo xtask bench-target --target i686-unknown-linux-gnu`).
    let k: &[u64; 80] = core::hint::black_box(&K);

    // Step 3, with the variables named in rotated order (nothing moves):
    // T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t] lands in d, the next e;
    // h becomes T1 + Σ0(a) + Maj(a, b, c), the next a.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $t:expr) => {
            let t1 = add(add(add($h, word(k[$t])), w[$t & 15]), add(ch($e, $f, $g), big_sigma1($e)));
            $d = add($d, t1);
            $h = add(t1, add(maj($a, $b, $c), big_sigma0($a)));
        };
    }
    // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] (step 1).
    macro_rules! schedule {
        ($t:expr) => {
            w[$t & 15] = add(
                add(small_sigma1(w[($t - 2) & 15]), w[($t - 7) & 15]),
                add(small_sigma0(w[($t - 15) & 15]), w[$t & 15]),
            );
        };
    }
    macro_rules! eight_rounds {
        ($t:expr) => {
            hash_core::sha2_eight_rounds!(round, [a, b, c, d, e, f, g, h], $t);
        };
    }
    macro_rules! eight_rounds_scheduled {
        ($t:expr) => {
            hash_core::sha2_eight_rounds!(schedule, round, [a, b, c, d, e, f, g, h], $t);
        };
    }
    eight_rounds!(0);
    eight_rounds!(8);
    eight_rounds_scheduled!(16);
    eight_rounds_scheduled!(24);
    eight_rounds_scheduled!(32);
    eight_rounds_scheduled!(40);
    eight_rounds_scheduled!(48);
    eight_rounds_scheduled!(56);
    eight_rounds_scheduled!(64);
    eight_rounds_scheduled!(72);

    // Step 4.
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = add(*s, v);
    }
}
