//! x86-64 code for collision detection: the SHA-NI compression that also
//! keeps the expanded message and the states the checks need, and the
//! unavoidable-bit-condition filter in AVX2.
//!
//! The filter depends on the message alone, not on the chaining value, so
//! the out-of-order core runs it beside the `sha1rnds4` chain, which on its
//! own leaves the vector ALUs idle.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_add_epi32, _mm_and_si128, _mm_extract_epi32, _mm_loadu_si128, _mm_mullo_epi32, _mm_or_si128,
    _mm_set_epi32, _mm_set_epi64x, _mm_setzero_si128, _mm_sha1msg1_epu32, _mm_sha1msg2_epu32, _mm_sha1nexte_epu32,
    _mm_sha1rnds4_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_srai_epi32, _mm_storeu_si128, _mm_unpackhi_epi64,
    _mm_xor_si128, _mm256_and_si256, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_setzero_si256, _mm256_sllv_epi32, _mm256_srai_epi32, _mm256_xor_si256, _mm256_zeroupper,
};

#[cfg(all(feature = "shani", feature = "avx512"))]
use core::arch::x86_64::{_mm256_mask_or_epi32, _mm256_rolv_epi32, _mm256_ternarylogic_epi32, _mm256_test_epi32_mask};

use super::detect::{self, Expanded};
use super::queue::{CheckQueue, Deferred};
use super::tables::DVS;
use super::tables::{PACKED, PACKED_FIRST, PACKED_W};
use crate::consts::K;

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

/// Vectors `k...` of the packed conditions (see [`ubc_avx2`]) on `w`, the
/// failing lanes' DVs ORed into `fail`: per vector, two unaligned loads of
/// consecutive W words, two variable shifts that move each lane's two bits
/// to bit 31, the XOR with the wanted value, and the DVs of the lanes
/// whose bit 31 is then set ORed into `fail`.
macro_rules! avx2_vectors {
    ($fail:ident, $w:ident; $($k:literal)*) => {
        $(
            let p = &PACKED[$k];
            let (s, d) = (usize::from(p.s), usize::from(p.d));
            let (wi, wj) = (load8(&$w[s..s + 8]), load8(&$w[s + d..s + d + 8]));
            let x = _mm256_sllv_epi32(wi, load8(&p.sa));
            let x = _mm256_xor_si256(_mm256_xor_si256(x, _mm256_sllv_epi32(wj, load8(&p.sb))), load8(&p.value));
            // All ones in a lane whose condition fails.
            $fail = _mm256_or_si256($fail, _mm256_and_si256(_mm256_srai_epi32::<31>(x), load8(&p.dvs)));
        )*
    };
}

/// [`PACKED`]'s shift counts as multipliers, for the SSE4.1 filter: SSE
/// has no per-lane variable shift, and the low 32 bits of x·2^s are x << s
/// (`pmulld`).
#[cfg(feature = "shani")]
#[repr(C, align(32))]
struct PackedMul {
    /// 2^sa per lane.
    a: [u32; 8],
    /// 2^sb per lane.
    b: [u32; 8],
}

/// [`PACKED`] as [`PackedMul`]s.
#[cfg(feature = "shani")]
const PACKED_MUL: [PackedMul; PACKED.len()] = {
    let mut out = [const { PackedMul { a: [0; 8], b: [0; 8] } }; PACKED.len()];
    let mut k = 0;
    while k < PACKED.len() {
        let mut l = 0;
        while l < 8 {
            out[k].a[l] = 1 << PACKED[k].sa[l];
            out[k].b[l] = 1 << PACKED[k].sb[l];
            l += 1;
        }
        k += 1;
    }
    out
};

/// Four words into an `xmm` register.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sse2")]
fn load4(x: &[u32]) -> __m128i {
    assert!(x.len() >= 4);
    // SAFETY: `x` holds at least 4 readable u32 (checked just above, a
    // check the callers' constant lengths fold away); `loadu` needs no
    // alignment.
    unsafe { _mm_loadu_si128(x.as_ptr().cast()) }
}

/// The SSE4.1 filter's vectors `k...` on `w` (usual order), the failing
/// lanes' DVs ORed into `fail`: each [`PACKED`] vector as two halves of
/// four lanes, each half as [`avx2_vectors!`] does it with a `pmulld` by
/// 2^sa and 2^sb for each variable shift.
#[cfg(feature = "shani")]
macro_rules! sse41_vectors {
    ($fail:ident, $w:ident; $($k:literal)*) => {
        $(
            let (p, m) = (&PACKED[$k], &PACKED_MUL[$k]);
            let (s, d) = (usize::from(p.s), usize::from(p.d));
            for h in [0, 4] {
                let (wi, wj) = (load4(&$w[s + h..s + h + 4]), load4(&$w[s + d + h..s + d + h + 4]));
                let x = _mm_mullo_epi32(wi, load4(&m.a[h..h + 4]));
                let x = _mm_xor_si128(x, _mm_mullo_epi32(wj, load4(&m.b[h..h + 4])));
                let x = _mm_xor_si128(x, load4(&p.value[h..h + 4]));
                $fail = _mm_or_si128($fail, _mm_and_si128(_mm_srai_epi32::<31>(x), load4(&p.dvs[h..h + 4])));
            }
        )*
    };
}

/// The filter (see `detect::ubc_mask`) in SSE4.1, for SHA-NI CPUs without
/// AVX2 (Intel Goldmont and Tremont cores): [`ubc_avx2`]'s packed vectors
/// four lanes at a time (see [`sse41_vectors!`]).
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sse2,sse4.1")]
pub(crate) fn ubc_sse41(w: &[u32; 80]) -> u32 {
    let or4 = |v: __m128i| {
        let v = _mm_or_si128(v, _mm_unpackhi_epi64(v, v));
        let v = _mm_or_si128(v, _mm_shuffle_epi32::<0b01>(v));
        _mm_extract_epi32::<0>(v) as u32
    };
    ubc_stages!(sse41_vectors, w, _mm_setzero_si128(), or4)
}

/// A [`PACKED`] vector as the AVX-512VL filter tests it, on W stored
/// backwards (see [`rounds_vl`]), so with its lanes in the reverse order:
/// lane `m` (the vector's lane l = 7 - m) rotates W[s + l + d] left by
/// `rot` (bit b of it to bit a), XORs it with W[s + l] and `value` (the
/// wanted XOR in bit a), and fails where bit a, set in `bit`, is then set,
/// which rules out the DVs in `dvs`.
#[cfg(all(feature = "shani", feature = "avx512"))]
#[repr(C, align(32))]
struct PackedVl {
    rot: [u32; 8],
    bit: [u32; 8],
    value: [u32; 8],
    dvs: [u32; 8],
    /// Whether every `rot` is 0 (no rotation to do).
    aligned: bool,
}

/// [`PACKED`] as [`PackedVl`]s: a = 31 - sa, b = 31 - sb, lanes reversed.
#[cfg(all(feature = "shani", feature = "avx512"))]
const PACKED_VL: [PackedVl; PACKED.len()] = {
    let mut out =
        [const { PackedVl { rot: [0; 8], bit: [0; 8], value: [0; 8], dvs: [0; 8], aligned: true } }; PACKED.len()];
    let mut k = 0;
    while k < PACKED.len() {
        let p = &PACKED[k];
        let mut l = 0;
        while l < 8 {
            let (a, m) = (31 - p.sa[l], 7 - l);
            out[k].rot[m] = (p.sb[l] + 32 - p.sa[l]) % 32;
            out[k].bit[m] = 1 << a;
            out[k].value[m] = (p.value[l] >> 31) << a;
            out[k].dvs[m] = p.dvs[l];
            if out[k].rot[m] != 0 {
                out[k].aligned = false;
            }
            l += 1;
        }
        k += 1;
    }
    out
};

/// The AVX-512VL filter's vectors `k...` on `w`, W stored backwards
/// (W[t] in `w[79 - t]`), the failing lanes' DVs ORed into `fail`: per
/// vector a `vprolvd` (none where every lane's rotation is 0), a
/// `vpternlogd` (the three-way XOR), a `vptestmd` (the lanes where the
/// condition fails) and a masked `vpord` of their DVs: four vector ALU
/// operations (three) where the AVX2 filter takes seven.
#[cfg(all(feature = "shani", feature = "avx512"))]
macro_rules! vl_vectors {
    ($fail:ident, $w:ident; $($k:literal)*) => {
        $(
            let (p, q) = (&PACKED[$k], &PACKED_VL[$k]);
            // W[s + 7 - m] and W[s + d + 7 - m] in lane m.
            let (i, j) = (79 - (usize::from(p.s) + 7), 79 - (usize::from(p.s) + usize::from(p.d) + 7));
            let (wi, wj) = (load8(&$w[i..i + 8]), load8(&$w[j..j + 8]));
            let wj = if q.aligned { wj } else { _mm256_rolv_epi32(wj, load8(&q.rot)) };
            let x = _mm256_ternarylogic_epi32::<0x96>(wi, wj, load8(&q.value));
            let failing = _mm256_test_epi32_mask(x, load8(&q.bit));
            $fail = _mm256_mask_or_epi32($fail, failing, $fail, load8(&q.dvs));
        )*
    };
}

/// The body of [`ubc_avx2`], for functions that must have it inline (a
/// call would spill every live `xmm` register around it: the interleaved
/// streams' states). In a function with the `avx2` target feature.
macro_rules! ubc_avx2 {
    ($w:expr) => {{
        let f = ubc_stages!(avx2_vectors, $w, _mm256_setzero_si256(), or_lanes);
        // The SHA instructions have only legacy SSE encodings: with the
        // upper halves of the `ymm` registers left dirty, each of them
        // would wait on a merge of those halves (measured: the SHA-NI loop
        // ran about 100 times slower on AMD Zen 3 without this, and 80
        // times on an Intel Xeon, model 167).
        _mm256_zeroupper();
        f
    }};
}

/// The body of `ubc_avx512vl`: the packed vectors tested as
/// [`vl_vectors!`] says, on W stored backwards. In a function with the
/// `avx512f` and `avx512vl` target features.
#[cfg(all(feature = "shani", feature = "avx512"))]
macro_rules! ubc_avx512vl {
    ($w:expr) => {{
        let f = ubc_stages!(vl_vectors, $w, _mm256_setzero_si256(), or_lanes);
        // As in `ubc_avx2!`.
        _mm256_zeroupper();
        f
    }};
}

/// The filter (see `detect::ubc_mask`) with the conditions packed eight to
/// a `ymm` register (`tables::PACKED`): per vector, two unaligned loads of
/// consecutive W words, two variable shifts that move each lane's two bits
/// to bit 31, the XOR with the wanted value, and the failing lanes' DVs
/// ORed into the result.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn ubc_avx2(w: &[u32; 80]) -> u32 {
    ubc_avx2!(w)
}

/// [`ubc_avx2`] with AVX-512VL's `vpternlogd` (see [`ubc_avx512vl!`]),
/// on `w` in the usual order (the test of the backwards filter).
#[cfg(all(test, feature = "shani", feature = "avx512"))]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
pub(crate) fn ubc_avx512vl(w: &[u32; 80]) -> u32 {
    let backwards: [u32; 80] = core::array::from_fn(|t| w[79 - t]);
    ubc_avx512vl!(&backwards)
}

/// The OR of the eight lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn or_lanes(v: __m256i) -> u32 {
    let f = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
    let f = _mm_or_si128(f, _mm_shuffle_epi32::<0b01>(f));
    _mm_extract_epi32::<0>(f) as u32
}

/// The chaining value in the SHA-NI layout: (a, b, c, d) in dwords 3..0,
/// and e in dword 3 of its own register.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sse2")]
fn to_regs(h: [u32; 5]) -> (__m128i, __m128i) {
    (_mm_set_epi32(h[0] as i32, h[1] as i32, h[2] as i32, h[3] as i32), _mm_set_epi32(h[4] as i32, 0, 0, 0))
}

/// The chaining value from the SHA-NI layout.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sse4.1")]
fn from_regs(abcd: __m128i, e: __m128i) -> [u32; 5] {
    [
        _mm_extract_epi32::<3>(abcd) as u32,
        _mm_extract_epi32::<2>(abcd) as u32,
        _mm_extract_epi32::<1>(abcd) as u32,
        _mm_extract_epi32::<0>(abcd) as u32,
        _mm_extract_epi32::<3>(e) as u32,
    ]
}

/// One block with the SHA extensions (as the `sha-ni` backend compresses,
/// see `backend::x86_shani`), from the chaining value (`abcd0`, `e0`):
/// returns the new one, and stores into `w` the expanded message words
/// that the filter reads (W[32..72]; all of W[0..80] if `FULL`), and into
/// `saved` the `abcd` values after groups 12 to 15 (from which
/// [`states`] derives the states before steps 58 and 65).
///
/// The schedule registers hold W[4g..4g+4] (W[4g] in dword 3) when group g
/// uses them: each is stored, dwords reversed, as it is used.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
#[allow(unused_assignments)] // the last groups leave schedule registers unread
fn rounds<const FULL: bool>(
    abcd0: __m128i,
    e0: __m128i,
    block: &[u8; 64],
    w: &mut [u32; 80],
    saved: &mut [__m128i; 4],
) -> (__m128i, __m128i) {
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
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
    macro_rules! group {
        ($g:literal) => {
            if FULL || (8..18).contains(&$g) {
                let wg: &mut [u32] = &mut w[4 * $g..4 * $g + 4];
                // SAFETY: `wg` is 4 writable u32 (16 bytes); `storeu` has
                // no alignment requirement.
                unsafe { _mm_storeu_si128(wg.as_mut_ptr().cast(), _mm_shuffle_epi32::<0b00_01_10_11>(m[$g % 4])) };
            }
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
    (_mm_add_epi32(abcd, abcd0), _mm_sha1nexte_epu32(prev, e0))
}

/// [`rounds`] (without `FULL`) with the message schedule in AVX-512VL
/// instead of `sha1msg1`/`sha1msg2`, as the plain `sha-ni-avx512` backend
/// compresses (`backend::x86_shani::compress_vl`, which says why: on Intel
/// cores `sha1msg2` holds the SHA unit about as long as a `sha1rnds4`).
/// Stores W[32..72] into `w` backwards (W[t] in `w[79 - t]`: each group's
/// register as it is, W[4j] in dword 3, without the `vpshufd` per group
/// that the usual order takes; 2% faster on an Intel Xeon, model 167) and
/// the `abcd` values after groups 12 to 15 into `saved`, as [`rounds`]
/// does.
#[cfg(all(feature = "shani", feature = "avx512"))]
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx512f,avx512vl")]
fn rounds_vl(
    abcd0: __m128i,
    e0: __m128i,
    block: &[u8; 64],
    w: &mut [u32; 80],
    saved: &mut [__m128i; 4],
) -> (__m128i, __m128i) {
    /// The mask of dword 3, where `e` goes.
    const E_DWORD: u8 = 0b1000;
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    // g[j] = W[4j..4j+4], W[4j] in dword 3.
    let mut g = [_mm_set_epi32(0, 0, 0, 0); 20];
    for (gj, bytes) in g.iter_mut().zip(block.chunks_exact(16)) {
        // SAFETY: `bytes` is 16 readable bytes (a chunk of a 64-byte
        // array); `loadu` has no alignment requirement.
        let raw = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
        *gj = _mm_shuffle_epi8(raw, bswap);
    }
    let mut abcd = abcd0;
    let mut prev = abcd;
    macro_rules! group {
        ($j:literal) => {
            if $j >= 4 {
                // FIPS 180-4 §6.1.2 step 1, as `compress_vl` schedules.
                crate::backend::schedule_vl!(g, $j);
            }
            if (8..18).contains(&$j) {
                // Backwards: W[4j + 3 - i] in dword i, at w[76 - 4j + i].
                let wg: &mut [u32] = &mut w[76 - 4 * $j..80 - 4 * $j];
                // SAFETY: `wg` is 4 writable u32 (16 bytes); `storeu` has
                // no alignment requirement.
                unsafe { _mm_storeu_si128(wg.as_mut_ptr().cast(), g[$j]) };
            }
            let e = if $j == 0 { _mm_add_epi32(e0, g[0]) } else { crate::backend::plus_e(g[$j], prev, E_DWORD) };
            prev = abcd;
            abcd = _mm_sha1rnds4_epu32::<{ $j / 5 }>(abcd, e);
            if (12..16).contains(&$j) {
                saved[($j as usize).wrapping_sub(12) % 4] = abcd;
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
    group!(13);
    group!(14);
    group!(15);
    group!(16);
    group!(17);
    group!(18);
    group!(19);
    // Step 4: H(i) = H(i-1) + (a, b, c, d, e), e in dword 3.
    (_mm_add_epi32(abcd, abcd0), crate::backend::plus_e(e0, prev, E_DWORD))
}

/// The states before steps 58 and 65, from the `abcd` values after
/// groups 12 to 15 and W[56], W[57], W[64]: the states before steps 56 and
/// 64 (after groups 13 and 15, whose `e` is ROTL³⁰ of the `a` a group
/// earlier), and two and one scalar steps.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sse4.1")]
fn states_of(saved: &[__m128i; 4], [w56, w57, w64]: [u32; 3]) -> ([u32; 5], [u32; 5]) {
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
    (detect::step(detect::step(s56, 56, w56), 57, w57), detect::step(s64, 64, w64))
}

/// [`states_of`] into `x`, from its W.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sse4.1")]
fn states(saved: &[__m128i; 4], x: &mut Expanded) {
    (x.s58, x.s65) = states_of(saved, [x.w[56], x.w[57], x.w[64]]);
}

/// One block with the SHA extensions, filling all of `x`.
#[cfg(feature = "shani")]
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn compress_shani(ihv: [u32; 5], block: &[u8; 64], x: &mut Expanded) -> [u32; 5] {
    let (abcd, e) = to_regs(ihv);
    let mut saved = [_mm_set_epi32(0, 0, 0, 0); 4];
    let (abcd, e) = rounds::<true>(abcd, e, block, &mut x.w, &mut saved);
    states(&saved, x);
    from_regs(abcd, e)
}

/// The body of [`process_shani_avx2`] and [`process_shani_avx512`], with
/// `$rounds` ([`rounds`] or [`rounds_vl`]) compressing each block and
/// storing W[t] at index `$at(t)` (t or 79 - t), `$filter` ([`ubc_avx2`]
/// or `ubc_avx512vl!`, for that order) filtering it, and the blocks it
/// lets through queued `$lanes` at a time for `$check_lanes`
/// ([`check_queued8`] or the AVX-512 `check_queued`).
///
/// Time any change to this loop (`examples/sha1dc_speed.rs`): two
/// experimental variants of it (the filter's verdict discarded; the
/// second stage deferred) ran 80-100 times slower, as the SHA instructions
/// do after `ymm` state left dirty, for a cause not pinned down (README,
/// the `Sha1Dc` section).
#[cfg(feature = "shani")]
macro_rules! shani_loop {
    ($st:ident, $blocks:ident, $rounds:expr, $at:expr, $filter:ident, $lanes:literal, $check_lanes:path) => {{
        let (st, blocks): (&mut super::DcState, &[[u8; 64]]) = ($st, $blocks);
        let mut rest = blocks;
        if !st.found && !blocks.is_empty() {
            let (mut abcd, mut e) = to_regs(st.ihv);
            // The state before the previous block.
            let (mut pabcd, mut pe) = (abcd, e);
            let mut w = [[0u32; 80]; 2];
            let mut saved = [[_mm_set_epi32(0, 0, 0, 0); 4]; 2];
            let mut checks = Deferred::<$lanes>::new(st.reduced);
            // Queue the check of block `k` (whose filter let DVs `mask`
            // through), compressed from (`a0`, `e0`) to (`a1`, `e1`), its
            // W words and saved states in `w`, `saved`; a full queue is
            // checked at once.
            let mut check = |k: usize, w: &[u32; 80], saved: &[__m128i; 4], mask, a0, e0, a1, e1| {
                let at: fn(usize) -> usize = $at;
                let (s58, s65) = states_of(saved, [w[at(56)], w[at(57)], w[at(64)]]);
                let (h, next) = (from_regs(a0, e0), from_regs(a1, e1));
                checks.check(k, &blocks[k], mask, h, next, s58, s65, |q, r| $check_lanes(q, r))
            };
            let mut detected = None;
            for (k, block) in blocks.iter().enumerate() {
                let cur = k & 1;
                let (abcd1, e1) = $rounds(abcd, e, block, &mut w[cur], &mut saved[cur]);
                if k > 0 {
                    let mask = $filter!(&w[cur ^ 1]);
                    if mask != 0 {
                        detected = check(k - 1, &w[cur ^ 1], &saved[cur ^ 1], mask, pabcd, pe, abcd, e);
                        if detected.is_some() {
                            break;
                        }
                    }
                }
                (pabcd, pe) = (abcd, e);
                (abcd, e) = (abcd1, e1);
            }
            if detected.is_none() {
                let last = blocks.len() - 1;
                let mask = $filter!(&w[last & 1]);
                if mask != 0 {
                    detected = check(last, &w[last & 1], &saved[last & 1], mask, pabcd, pe, abcd, e);
                }
            }
            // The blocks queued since the last full queue was checked.
            if detected.is_none() {
                detected = checks.finish(|q, r| $check_lanes(q, r));
            }
            // A detected block and the rest go to the general path below.
            rest = super::settle(st, blocks, from_regs(abcd, e), detected);
            if rest.is_empty() {
                return;
            }
        }
        // (W in the usual order there.)
        super::process_with(st, rest, |ihv, b, x| compress_shani(ihv, b, x), |w| ubc_avx2!(w));
    }};
}

/// Process `blocks` with the SHA-NI compression and the AVX2 filter.
///
/// Until a collision is found, the chaining value stays in registers from
/// block to block (as in the plain `sha-ni` backend), only the W words the
/// filter reads are stored, and the rest of what a check needs (all of W,
/// the states) is kept only for a block that the filter lets through
/// (about one in twenty random blocks), whose check waits in a queue and
/// runs with seven others in the AVX2 lanes ([`check_queued8`],
/// `super::queue`).
///
/// The filter of block k runs after the rounds of block k + 1 in program
/// order: its loads read W words that the rounds of block k stored, and a
/// load that spans two stores waits until they have left the store buffer,
/// which they do only once the `sha1rnds4` chain before them has retired;
/// one block later they have, and the filter runs beside the next block's
/// chain.
#[cfg(feature = "shani")]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx2")]
pub(crate) fn process_shani_avx2(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    shani_loop!(st, blocks, rounds::<false>, |t| t, ubc_avx2, 8, check_queued8)
}

/// [`process_shani_avx2`] with the message schedule and the filter in
/// AVX-512VL ([`rounds_vl`], `ubc_avx512vl!`) and the queued checks in
/// the sixteen AVX-512 lanes: the `sha-ni-avx512` backend's detection.
#[cfg(all(feature = "shani", feature = "avx512"))]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx2,avx512f,avx512vl")]
pub(crate) fn process_shani_avx512(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    shani_loop!(st, blocks, rounds_vl, |t| 79 - t, ubc_avx512vl, 16, super::x86_avx512::check_queued)
}

/// Process `blocks` with the SHA-NI compression and the SSE4.1 filter
/// (SHA-NI CPUs without AVX2), each block's check done at once.
#[cfg(feature = "shani")]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn process_shani(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    super::process_with(st, blocks, |ihv, b, x| compress_shani(ihv, b, x), |w| ubc_sse41(w));
}

/// Process `blocks` for the `avx2` backend: its pipeline (the SIMD schedule
/// of a pair of blocks beside the scalar rounds of the pair before,
/// `backend::x86_avx2`) keeping W and the states, from four blocks on (as
/// the plain backend), the portable compression for the rest; the AVX2
/// filter after each pair, and the checks queued and run eight at a time
/// in the AVX2 lanes (as the SHA-NI paths run them, see
/// [`process_shani_avx2`]).
#[cfg(feature = "avx2")]
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(crate) fn process_avx2(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    use crate::backend::{Kept, compress_pairs_kept};
    let mut rest = blocks;
    if !st.found {
        let mut checks = Deferred::<8>::new(st.reduced);
        let mut detected = None;
        let mut ihv = st.ihv;
        let mut done = 0;
        if blocks.len() >= 4 {
            let mut kept = [Kept::ZERO, Kept::ZERO];
            (ihv, done) = compress_pairs_kept(ihv, blocks, &mut kept, |i, h_in, h_out, k| {
                for half in 0..2 {
                    let mask = ubc_avx2!(&k.w[half]);
                    if mask != 0 {
                        let (h, next) = if half == 0 { (h_in, k.mid) } else { (k.mid, h_out) };
                        let (s58, s65) = (k.s58[half], k.s65[half]);
                        detected = checks
                            .check(i + half, &blocks[i + half], mask, h, next, s58, s65, |q, r| check_queued8(q, r));
                        if detected.is_some() {
                            return true;
                        }
                    }
                }
                false
            });
        }
        if detected.is_none() {
            let mut x = Expanded::ZERO;
            for (k, block) in blocks.iter().enumerate().skip(done) {
                let next = detect::compress_block(ihv, block, &mut x);
                let mask = ubc_avx2!(&x.w);
                if mask != 0 {
                    detected = checks.check(k, block, mask, ihv, next, x.s58, x.s65, |q, r| check_queued8(q, r));
                    if detected.is_some() {
                        break;
                    }
                }
                ihv = next;
            }
        }
        if detected.is_none() {
            detected = checks.finish(|q, r| check_queued8(q, r));
        }
        // A detected block and the rest go to the general path below.
        rest = super::settle(st, blocks, ihv, detected);
        if rest.is_empty() {
            return;
        }
    }
    super::process_with(st, rest, detect::compress_block, |w| ubc_avx2(w));
}

/// `digest_many`'s engine: `N` messages' blocks at once, their SHA-NI
/// instruction streams interleaved group by group (as the plain `sha-ni`
/// batch engine, `backend::x86_shani`, runs them: on AMD cores one stream
/// is bound by the latency of `sha1rnds4`, and the others fill its
/// shadow), each stream storing the W words its filter reads. The AVX2
/// filter of each stream's previous block runs among this block's groups
/// (a block later, for the reason given at [`process_shani_avx2`]).
///
/// Each of `data` holds the same number of whole blocks, the next blocks
/// of the message in the matching state. A block whose filter lets a DV
/// through is queued, and the queue checked eight blocks at a time in the
/// AVX2 lanes, as the single-stream path does; a stream with a detection
/// stops there (its registers run on, unread) and that block and the rest
/// of its data go to [`process_shani_avx2`] at the end. A state already
/// past a detection takes that path for all its data.
#[cfg(feature = "shani")]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx2")]
pub(crate) fn compress_lanes_shani_avx2<const N: usize>(sts: &mut [super::DcState; N], data: [&[u8]; N]) {
    const { assert!(N <= 6) };
    let len = data[0].len();
    assert!(len.is_multiple_of(64) && data.iter().all(|d| d.len() == len), "lanes of equal whole blocks");
    let nblocks = len / 64;
    if nblocks == 0 {
        return;
    }
    const FILTER_AT: usize = 14;
    let block = |i: usize, k: usize| -> &[u8; 64] {
        match data[i][64 * k..64 * k + 64].try_into() {
            Ok(b) => b,
            Err(_) => unreachable!("blocks are 64 bytes"),
        }
    };
    // The block from which stream i goes to the general path (`nblocks`:
    // none), and whether it is still followed here.
    let mut stop = [nblocks; N];
    let mut live = [true; N];
    for i in 0..N {
        if sts[i].found {
            stop[i] = 0;
            live[i] = false;
        }
    }
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    let zero = _mm_set_epi32(0, 0, 0, 0);
    let mut abcd = [zero; N];
    let mut e0 = [zero; N];
    for i in 0..N {
        (abcd[i], e0[i]) = to_regs(sts[i].ihv);
    }
    // The chaining values before the previous block.
    let (mut pabcd, mut pe) = (abcd, e0);
    let mut w = [[[0u32; 80]; 2]; N];
    let mut saved = [[[zero; 4]; 2]; N];

    // The checks of the blocks whose filter keeps a DV, queued (index
    // `N * k + i` for stream i's block k) and run eight at a time in the
    // AVX2 lanes (`super::queue`, as the single-stream path runs them).
    let mut queue = CheckQueue::<8>::EMPTY;
    // Check the queued blocks; a stream with a detection stops at its
    // first such block.
    macro_rules! flush {
        () => {
            queue.flush_streams(sts, &mut live, &mut stop, |q, r| check_queued8(q, r))
        };
    }

    // Filter stream i's block k - 1, compressed from `pabcd`/`pe` to
    // (`a1`, `e1`), and queue its check if the filter keeps a DV; its W
    // and saved states are in slot (k - 1) & 1.
    macro_rules! filter {
        ($i:expr, $k:expr, $a1:expr, $e1:expr) => {{
            let (i, k): (usize, usize) = ($i, $k);
            if live[i] {
                let slot = (k - 1) & 1;
                let mask = ubc_avx2!(&w[i][slot]);
                if mask != 0 {
                    let ws = &w[i][slot];
                    let (s58, s65) = states_of(&saved[i][slot], [ws[56], ws[57], ws[64]]);
                    let (h, next) = (from_regs(pabcd[i], pe[i]), from_regs($a1, $e1));
                    if queue.push(N * (k - 1) + i, block(i, k - 1), mask, h, next, s58, s65) {
                        flush!();
                    }
                }
            }
        }};
    }

    for k in 0..nblocks {
        let abcd_saved = abcd;
        let e_saved = e0;
        let mut m = [[zero; 4]; N];
        let mut e = e0;
        let mut prev = abcd;
        let cur = k & 1;
        macro_rules! load {
            ($j:literal) => {
                for i in 0..N {
                    let bytes: &[u8] = &block(i, k)[16 * $j..16 * $j + 16];
                    // SAFETY: `bytes` is 16 readable bytes (sliced from a
                    // 64-byte array); `loadu` has no alignment requirement.
                    let raw = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
                    m[i][$j] = _mm_shuffle_epi8(raw, bswap);
                }
            };
        }
        macro_rules! group {
            ($g:literal) => {
                for i in 0..N {
                    if (8..18).contains(&$g) {
                        let wg: &mut [u32] = &mut w[i][cur][4 * $g..4 * $g + 4];
                        let words = _mm_shuffle_epi32::<0b00_01_10_11>(m[i][$g % 4]);
                        // SAFETY: `wg` is 4 writable u32 (16 bytes);
                        // `storeu` has no alignment requirement.
                        unsafe { _mm_storeu_si128(wg.as_mut_ptr().cast(), words) };
                    }
                    e[i] = if $g == 0 {
                        _mm_add_epi32(e0[i], m[i][0])
                    } else {
                        _mm_sha1nexte_epu32(prev[i], m[i][$g % 4])
                    };
                    prev[i] = abcd[i];
                    abcd[i] = _mm_sha1rnds4_epu32::<{ $g / 5 }>(abcd[i], e[i]);
                    if $g >= 3 && $g < 19 {
                        m[i][($g + 1) % 4] = _mm_sha1msg2_epu32(m[i][($g + 1) % 4], m[i][$g % 4]);
                    }
                    if $g >= 2 && $g < 18 {
                        m[i][($g + 2) % 4] = _mm_xor_si128(m[i][($g + 2) % 4], m[i][$g % 4]);
                    }
                    if $g >= 1 && $g < 17 {
                        m[i][($g + 3) % 4] = _mm_sha1msg1_epu32(m[i][($g + 3) % 4], m[i][$g % 4]);
                    }
                    if (12..16).contains(&$g) {
                        saved[i][cur][($g as usize).wrapping_sub(12) % 4] = abcd[i];
                    }
                }
                // Stream i's previous block is filtered after group
                // FILTER_AT + i of this one.
                if k > 0 && $g >= FILTER_AT && $g - FILTER_AT < N {
                    filter!($g - FILTER_AT, k, abcd_saved[$g - FILTER_AT], e_saved[$g - FILTER_AT]);
                }
            };
        }
        load!(0);
        group!(0);
        load!(1);
        group!(1);
        load!(2);
        group!(2);
        load!(3);
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
        group!(13);
        group!(14);
        group!(15);
        group!(16);
        group!(17);
        group!(18);
        group!(19);
        for i in 0..N {
            e0[i] = _mm_sha1nexte_epu32(prev[i], e_saved[i]);
            abcd[i] = _mm_add_epi32(abcd[i], abcd_saved[i]);
        }
        pabcd = abcd_saved;
        pe = e_saved;
    }
    // The last block's filters, and the checks still queued.
    for i in 0..N {
        filter!(i, nblocks, abcd[i], e0[i]);
    }
    flush!();
    for i in 0..N {
        if live[i] {
            sts[i].ihv = from_regs(abcd[i], e0[i]);
            sts[i].plain = sts[i].ihv;
        } else {
            process_shani_avx2(&mut sts[i], data[i][64 * stop[i]..].as_chunks::<64>().0);
        }
    }
}

/// The queued checks (`super::queue`) in eight AVX2 lanes, for the `sha-ni`
/// and `avx2` paths and the SHA-NI streams engine: `detect::check`'s
/// recomputation, every lane along its own DV (lowest first, one DV per
/// lane at a time), from the lane's state at the DV's step (58 or 65)
/// backward to step 0 and forward to step 80 with the lane's W XOR the
/// DV's difference. That difference follows the message expansion (it is
/// the expansion of its first 16 words, see `detect`'s tests), so the lanes
/// expand W[0..16] XOR its first 16 words. Returns the lanes with a
/// detection (or, for the lanes set in `reduced`, with the same chaining
/// value in as the block's), the reference's verdict.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn check_queued8(q: &CheckQueue<8>, reduced: u32) -> u32 {
    use core::arch::x86_64::{
        _mm256_add_epi32, _mm256_blendv_epi8, _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_movemask_ps,
        _mm256_set1_epi32, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_sub_epi32,
    };
    macro_rules! rol {
        ($x:expr, $n:literal) => {{
            let x = $x;
            _mm256_or_si256(_mm256_slli_epi32::<$n>(x), _mm256_srli_epi32::<{ 32 - $n }>(x))
        }};
    }
    // FIPS 180-4 §4.1.1: Ch, Parity, Maj.
    let f = |t: usize, b: __m256i, c: __m256i, d: __m256i| match t / 20 {
        0 => _mm256_xor_si256(d, _mm256_and_si256(b, _mm256_xor_si256(c, d))),
        2 => _mm256_or_si256(_mm256_and_si256(b, c), _mm256_and_si256(d, _mm256_or_si256(b, c))),
        _ => _mm256_xor_si256(_mm256_xor_si256(b, c), d),
    };
    let vectors = |v: &[[u32; 8]; 5]| -> [__m256i; 5] { core::array::from_fn(|j| load8(&v[j])) };
    let (h, next) = (vectors(&q.h), vectors(&q.next));
    let (s58, s65) = (vectors(&q.s58), vectors(&q.s65));
    let mut masks = q.masks;
    let mut found = 0u32;
    loop {
        // Each lane's lowest remaining DV (lanes with none recompute with
        // no difference, unread).
        let mut busy = 0u32;
        let mut from58 = [0u32; 8];
        let mut m16 = q.w16;
        for (s, m) in masks.iter_mut().enumerate() {
            if *m != 0 {
                let dv = &DVS[m.trailing_zeros() as usize];
                *m &= *m - 1;
                busy |= 1 << s;
                if dv.step == 58 {
                    from58[s] = u32::MAX;
                }
                for (row, dm) in m16.iter_mut().zip(&dv.dm) {
                    row[s] ^= dm;
                }
            }
        }
        if busy == 0 {
            return found;
        }
        let from58 = load8(&from58);
        let mut m2 = [_mm256_setzero_si256(); 80];
        for (mt, row) in m2.iter_mut().zip(&m16) {
            *mt = load8(row);
        }
        // FIPS 180-4 §6.1.2 step 1.
        macro_rules! expand {
            ($t:literal) => {
                let x = _mm256_xor_si256(
                    _mm256_xor_si256(m2[$t - 3], m2[$t - 8]),
                    _mm256_xor_si256(m2[$t - 14], m2[$t - 16]),
                );
                m2[$t] = rol!(x, 1);
            };
        }
        steps_16_to_79!(expand);
        let wk = |t: usize| _mm256_add_epi32(m2[t], _mm256_set1_epi32(K[t / 20] as i32));
        // Backward from step 65 (the lanes whose DV starts at 58 take
        // their state there) to 0: the state before step t from the state
        // after it.
        let [mut a, mut b, mut c, mut d, mut e] = s65;
        macro_rules! back {
            ($t:literal) => {
                if $t == 57 {
                    [a, b, c, d, e] = core::array::from_fn(|j| _mm256_blendv_epi8([a, b, c, d, e][j], s58[j], from58));
                }
                let (pa, pb, pc, pd) = (b, rol!(c, 2), d, e);
                let x = _mm256_add_epi32(rol!(pa, 5), f($t, pb, pc, pd));
                let pe = _mm256_sub_epi32(_mm256_sub_epi32(a, x), wk($t));
                [a, b, c, d, e] = [pa, pb, pc, pd, pe];
            };
        }
        steps_back_from_64!(back);
        let back = [a, b, c, d, e];
        // Forward from step 58 (the lanes whose DV starts at 65 take their
        // state there) to 80.
        [a, b, c, d, e] = s58;
        macro_rules! forward {
            ($t:literal) => {
                if $t == 65 {
                    [a, b, c, d, e] = core::array::from_fn(|j| _mm256_blendv_epi8(s65[j], [a, b, c, d, e][j], from58));
                }
                let x = _mm256_add_epi32(_mm256_add_epi32(rol!(a, 5), f($t, b, c, d)), _mm256_add_epi32(e, wk($t)));
                [a, b, c, d, e] = [x, a, rol!(b, 30), c, d];
            };
        }
        steps_forward_from_58!(forward);
        let ones = _mm256_set1_epi32(-1);
        let (mut out_eq, mut in_eq) = (ones, ones);
        for (j, v) in [a, b, c, d, e].into_iter().enumerate() {
            out_eq = _mm256_and_si256(out_eq, _mm256_cmpeq_epi32(_mm256_add_epi32(back[j], v), next[j]));
            in_eq = _mm256_and_si256(in_eq, _mm256_cmpeq_epi32(back[j], h[j]));
        }
        let out_eq = _mm256_movemask_ps(_mm256_castsi256_ps(out_eq)) as u32;
        let in_eq = _mm256_movemask_ps(_mm256_castsi256_ps(in_eq)) as u32 & reduced;
        found |= (out_eq | in_eq) & busy;
    }
}
