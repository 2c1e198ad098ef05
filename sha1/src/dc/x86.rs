//! x86-64 code for collision detection: the SHA-NI compression that also
//! keeps the expanded message and the states the checks need, and the
//! unavoidable-bit-condition filter in AVX2.
//!
//! The filter depends on the message alone, not on the chaining value, so
//! the out-of-order core runs it beside the `sha1rnds4` chain, which on its
//! own leaves the vector ALUs idle.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi32, _mm_extract_epi32, _mm_loadu_si128, _mm_or_si128, _mm_set_epi32, _mm_set_epi64x,
    _mm_sha1msg1_epu32, _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32, _mm_shuffle_epi8,
    _mm_shuffle_epi32, _mm_storeu_si128, _mm_unpackhi_epi64, _mm_xor_si128, _mm256_and_si256, _mm256_castsi256_si128,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_setzero_si256, _mm256_sllv_epi32,
    _mm256_srai_epi32, _mm256_xor_si256,
};

use super::detect::{self, Expanded};
use super::tables::{PACKED, PACKED_W};

/// Eight words into a `ymm` register.
#[inline]
#[target_feature(enable = "avx2")]
fn load8(x: &[u32]) -> __m256i {
    assert!(x.len() >= 8);
    // SAFETY: `x` holds at least 8 readable u32 (checked just above, a
    // check the callers' constant lengths fold away); `loadu` needs no
    // alignment.
    unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
}

/// The filter (see `detect::ubc_mask`) with the conditions packed eight to
/// a `ymm` register (`tables::PACKED`): per vector, two unaligned loads of
/// consecutive W words, two variable shifts that move each lane's two bits
/// to bit 31, the XOR with the wanted value, and the failing lanes' DVs
/// ORed into the result.
#[target_feature(enable = "avx2")]
pub(crate) fn ubc_avx2(w: &[u32; 80]) -> u32 {
    // Every vector reads within W[PACKED_W.0..PACKED_W.1].
    const { assert!(PACKED_W.1 <= 80) };
    let mut fail = _mm256_setzero_si256();
    for p in &PACKED {
        let (s, d) = (usize::from(p.s), usize::from(p.d));
        let (wi, wj) = (load8(&w[s..s + 8]), load8(&w[s + d..s + d + 8]));
        let (sa, sb) = (load8(&p.sa), load8(&p.sb));
        let (value, dvs) = (load8(&p.value), load8(&p.dvs));
        let x = _mm256_xor_si256(_mm256_xor_si256(_mm256_sllv_epi32(wi, sa), _mm256_sllv_epi32(wj, sb)), value);
        // All ones in a lane whose condition fails.
        fail = _mm256_or_si256(fail, _mm256_and_si256(_mm256_srai_epi32::<31>(x), dvs));
    }
    let f = _mm_or_si128(_mm256_castsi256_si128(fail), _mm256_extracti128_si256::<1>(fail));
    let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
    let f = _mm_or_si128(f, _mm_shuffle_epi32::<0b01>(f));
    !(_mm_extract_epi32::<0>(f) as u32)
}

/// One block with the SHA extensions (as the `sha-ni` backend compresses,
/// see `backend::x86_shani`), also storing W[0..80] and the states before
/// steps 58 and 65 into `x`.
///
/// The schedule registers hold W[4g..4g+4] (W[4g] in dword 3) when group g
/// uses them: each is stored, dwords reversed, as it is used. The states
/// come from the `abcd` values after groups 13 and 15 (the states before
/// steps 56 and 64, whose `e` is ROTL³⁰ of the `a` a group earlier) and
/// two and one scalar steps.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[allow(unused_assignments)] // the last groups leave schedule registers unread
pub(crate) fn compress_shani(ihv: [u32; 5], block: &[u8; 64], x: &mut Expanded) -> [u32; 5] {
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    let abcd0 = _mm_set_epi32(ihv[0] as i32, ihv[1] as i32, ihv[2] as i32, ihv[3] as i32);
    let e0 = _mm_set_epi32(ihv[4] as i32, 0, 0, 0);
    let mut m: [__m128i; 4] = [_mm_set_epi32(0, 0, 0, 0); 4];
    for (j, mj) in m.iter_mut().enumerate() {
        let bytes: &[u8] = &block[16 * j..16 * j + 16];
        // SAFETY: `bytes` is 16 readable bytes (sliced from a 64-byte
        // array); `loadu` has no alignment requirement.
        let raw = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
        *mj = _mm_shuffle_epi8(raw, bswap);
    }
    let mut abcd = abcd0;
    let mut prev = abcd;
    let mut e;
    // `a` (dword 3) of the states before steps 52, 56, 60, 64.
    let mut saved = [_mm_set_epi32(0, 0, 0, 0); 4];
    macro_rules! group {
        ($g:literal) => {
            let wg: &mut [u32] = &mut x.w[4 * $g..4 * $g + 4];
            // SAFETY: `wg` is 4 writable u32 (16 bytes); `storeu` has no
            // alignment requirement.
            unsafe { _mm_storeu_si128(wg.as_mut_ptr().cast(), _mm_shuffle_epi32::<0b00_01_10_11>(m[$g % 4])) };
            e = if $g == 0 { _mm_add_epi32(e0, m[0]) } else { _mm_sha1nexte_epu32(prev, m[$g % 4]) };
            prev = abcd;
            abcd = _mm_sha1rnds4_epu32::<{ $g / 5 }>(abcd, e);
            if $g >= 3 && $g < 19 {
                m[($g + 1) % 4] = _mm_sha1msg2_epu32(m[($g + 1) % 4], m[$g % 4]);
            }
            if $g >= 2 && $g < 18 {
                m[($g + 2) % 4] = _mm_xor_si128(m[($g + 2) % 4], m[$g % 4]);
            }
            if $g >= 1 && $g < 17 {
                m[($g + 3) % 4] = _mm_sha1msg1_epu32(m[($g + 3) % 4], m[$g % 4]);
            }
        };
    }
    group!(0);
    group!(1);
    group!(2);
    group!(3);
    group!(4);
    group!(5);
    group!(6);
    group!(7);
    group!(8);
    group!(9);
    group!(10);
    group!(11);
    group!(12);
    saved[0] = abcd;
    group!(13);
    saved[1] = abcd;
    group!(14);
    saved[2] = abcd;
    group!(15);
    saved[3] = abcd;
    group!(16);
    group!(17);
    group!(18);
    group!(19);
    let _ = e;
    let e_out = _mm_sha1nexte_epu32(prev, e0);
    let abcd = _mm_add_epi32(abcd, abcd0);

    // The states before steps 56 and 64 (after groups 13 and 15).
    let state = |v: __m128i, before: __m128i| {
        [
            _mm_extract_epi32::<3>(v) as u32,
            _mm_extract_epi32::<2>(v) as u32,
            _mm_extract_epi32::<1>(v) as u32,
            _mm_extract_epi32::<0>(v) as u32,
            (_mm_extract_epi32::<3>(before) as u32).rotate_left(30),
        ]
    };
    let s56 = state(saved[1], saved[0]);
    let s64 = state(saved[3], saved[2]);
    x.s58 = detect::step(detect::step(s56, 56, x.w[56]), 57, x.w[57]);
    x.s65 = detect::step(s64, 64, x.w[64]);
    [
        _mm_extract_epi32::<3>(abcd) as u32,
        _mm_extract_epi32::<2>(abcd) as u32,
        _mm_extract_epi32::<1>(abcd) as u32,
        _mm_extract_epi32::<0>(abcd) as u32,
        _mm_extract_epi32::<3>(e_out) as u32,
    ]
}

/// Process `blocks` with the SHA-NI compression and the AVX2 filter.
#[cfg(feature = "shani")]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx2")]
pub(crate) fn process_shani_avx2(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    super::process_with(st, blocks, |ihv, b, x| compress_shani(ihv, b, x), |w| ubc_avx2(w));
}

/// Process `blocks` with the SHA-NI compression and the portable filter
/// (SHA-NI CPUs without AVX2).
#[cfg(feature = "shani")]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn process_shani(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    super::process_with(st, blocks, |ihv, b, x| compress_shani(ihv, b, x), detect::ubc_mask);
}

/// Process `blocks` with the portable compression and the AVX2 filter.
#[cfg(feature = "avx2")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(crate) fn process_avx2(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    super::process_with(st, blocks, detect::compress_block, |w| ubc_avx2(w));
}
