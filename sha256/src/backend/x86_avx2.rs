//! SHA-256 compression (FIPS 180-4 §6.2.2) for x86-64 CPUs with AVX2 and
//! BMI2 but no SHA extensions.
//!
//! One message: blocks are taken two at a time. Their message schedules
//! (§6.2.2 step 1) are computed together, block one in the low and block
//! two in the high 128-bit half of each `ymm` register, four words per
//! step, and `W[t] + K[t]` is stored to a stack buffer. The rounds (step 3)
//! run on general registers: the Σ rotations are BMI2 `rorx` (which leaves
//! its source intact and the flags alone), and the sums of each round are
//! grouped so that its two dependency chains are four operations deep (see
//! `round!`). The schedule of the second block
//! is computed while the first block's rounds run; the second block's
//! rounds then only read the buffer. This is the layout of Intel's paper
//! "Fast SHA-256 Implementations on Intel Architecture Processors" (2012)
//! and of OpenSSL's AVX2 code path. A lone last block runs with itself in
//! both halves.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_alignr_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_epi64x, _mm256_set_m128i,
    _mm256_set1_epi32, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_shuffle_epi32, _mm256_slli_epi32,
    _mm256_srli_epi32, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

use hash_core::typenum::U64;
use hash_core::{Block, FixedAlgorithm};

use super::Backend;
use crate::consts::{K, PAD64_WK};

/// The round constants, each group of four repeated for both halves of a
/// `ymm` register.
static K2: [[u32; 8]; 16] = {
    let mut out = [[0u32; 8]; 16];
    let mut i = 0;
    while i < 64 {
        out[i / 4][i % 4] = K[i];
        out[i / 4][4 + i % 4] = K[i];
        i += 1;
    }
    out
};

/// `W[t] + K[t]` of two blocks: row `t / 4` holds words `t..t+4` of the
/// first block, then of the second.
#[repr(C, align(32))]
struct Schedule([[u32; 8]; 16]);

/// Row `g` of [`K2`].
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn k2(g: usize) -> __m256i {
    let row = &K2[g];
    // SAFETY: `row` is eight u32 (32 bytes); loadu has no alignment requirement.
    unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
}

/// Store `w + K` for words `4g..4g+4` of both blocks.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn store_wk(buf: &mut Schedule, g: usize, w: __m256i) {
    let v = _mm256_add_epi32(w, k2(g));
    let row = &mut buf.0[g];
    // SAFETY: `row` is eight u32 (32 bytes); storeu has no alignment requirement.
    unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), v) };
}

/// Row `i` (words `4i..4i+4`) of blocks `lo` and `hi`, as big-endian words
/// (§3.1, §5.2.1), `lo` in the low half.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn load_rows(lo: &[u8; 16], hi: &[u8; 16]) -> __m256i {
    let swap = 0x0c0d_0e0f_0809_0a0b;
    let swap = _mm256_set_epi64x(swap, 0x0405_0607_0001_0203, swap, 0x0405_0607_0001_0203);
    // SAFETY: `lo` is 16 bytes; loadu has no alignment requirement.
    let lo = unsafe { _mm_loadu_si128(lo.as_ptr().cast()) };
    // SAFETY: `hi` is 16 bytes; loadu has no alignment requirement.
    let hi = unsafe { _mm_loadu_si128(hi.as_ptr().cast()) };
    _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), swap)
}

/// σ1 (4.7) of the 32-bit words in dword lanes 0 and 2 of each 128-bit
/// half, where each 64-bit lane holds one word twice: a 64-bit shift of
/// the doubled word is a 32-bit rotation in its low half.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn sigma1_doubled(d: __m256i) -> __m256i {
    let r = _mm256_xor_si256(_mm256_srli_epi64::<17>(d), _mm256_srli_epi64::<19>(d));
    _mm256_xor_si256(r, _mm256_srli_epi32::<10>(d))
}

/// Words W[t..t+4] of both blocks from x0 = W[t-16..t-12], x1 = W[t-12..t-8],
/// x2 = W[t-8..t-4], x3 = W[t-4..t] (§6.2.2 step 1):
/// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16].
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn schedule(x0: __m256i, x1: __m256i, x2: __m256i, x3: __m256i) -> __m256i {
    let w15 = _mm256_alignr_epi8::<4>(x1, x0);
    let w7 = _mm256_alignr_epi8::<4>(x3, x2);
    // σ0 (4.6): ROTR 7 ⊕ ROTR 18 ⊕ SHR 3, rotations as shift pairs.
    let r7 = _mm256_xor_si256(_mm256_srli_epi32::<7>(w15), _mm256_slli_epi32::<25>(w15));
    let r18 = _mm256_xor_si256(_mm256_srli_epi32::<18>(w15), _mm256_slli_epi32::<14>(w15));
    let s0 = _mm256_xor_si256(_mm256_xor_si256(r7, r18), _mm256_srli_epi32::<3>(w15));
    let w = _mm256_add_epi32(_mm256_add_epi32(x0, w7), s0);
    // σ1 needs W[t-2] and W[t-1] for the first two words, and the first
    // two new words for the last two.
    let low_pair = _mm256_set_epi64x(-1, 0x0b0a_0908_0302_0100, -1, 0x0b0a_0908_0302_0100);
    let high_pair = _mm256_set_epi64x(0x0b0a_0908_0302_0100, -1, 0x0b0a_0908_0302_0100, -1);
    let s1 = sigma1_doubled(_mm256_shuffle_epi32::<0xfa>(x3));
    let w = _mm256_add_epi32(w, _mm256_shuffle_epi8(s1, low_pair));
    let s1 = sigma1_doubled(_mm256_shuffle_epi32::<0x50>(w));
    _mm256_add_epi32(w, _mm256_shuffle_epi8(s1, high_pair))
}

use hash_core::arch::x86::opaque_u32 as opaque;

/// One round (§6.2.2 step 3) with the working variables named in rotated
/// order, so nothing moves: T1 = h + Σ1(e) + Ch(e, f, g) + `K[t]` + `W[t]`
/// goes into `d` (the next `e`) and T1 + T2 into `h` (the next `a`). `$wk`
/// is `K[t]` + `W[t]`.
///
/// The sums are ordered so that each of the two dependency chains is four
/// operations long per round rather than five:
/// - next e = ((d + h + `wk`) + Ch(e, f, g)) + Σ1(e): d + h + `wk` is ready
///   before e, Ch(e, f, g) = ((f ⊕ g) ∧ e) ⊕ g (equal to (4.2)) is two
///   operations after e and Σ1(e) (4.5) three.
/// - next a = ((next e − d + (b ∧ c)) + (a ∧ (b ⊕ c))) + Σ0(a): next e − d is
///   T1, and Maj(a, b, c) (4.3) = (a ∧ (b ⊕ c)) + (b ∧ c) (the two terms
///   have no bit in common), so a itself goes through one AND, an addition
///   and Σ0 (4.4) (three deep) before the last addition.
///
/// Left alone, the optimiser regroups the sums by its own ranking, which
/// puts Σ1 and Σ0 in the middle of the chains; `opaque` pins the grouping
/// (the same shape as SHA-512's x86 rounds).
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $wk:expr) => {
        // d + h + K[t] + W[t], then + Ch(e, f, g), then + Σ1(e): the next e.
        let dhw = opaque($d.wrapping_add($h).wrapping_add($wk));
        let s1 = $e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25);
        let e_new = opaque(opaque(dhw.wrapping_add((($f ^ $g) & $e) ^ $g)).wrapping_add(s1));
        // T1 + (b ∧ c), then + (a ∧ (b ⊕ c)) (so + Maj), then + Σ0(a): the next a.
        let t = opaque(opaque(e_new.wrapping_sub($d).wrapping_add($b & $c)).wrapping_add($a & ($b ^ $c)));
        let s0 = $a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22);
        $h = t.wrapping_add(s0);
        $d = e_new;
    };
}

/// Rounds `4g..4g+4` reading `W + K` from `$row[0..4]` (names start at
/// `a`), then rounds `4g+4..4g+8` from `$row2` (names start at `e`).
macro_rules! eight_rounds {
    ([$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident], $row:expr, $row2:expr) => {
        let (row, row2): (&[u32], &[u32]) = ($row, $row2);
        round!($a, $b, $c, $d, $e, $f, $g, $h, row[0]);
        round!($h, $a, $b, $c, $d, $e, $f, $g, row[1]);
        round!($g, $h, $a, $b, $c, $d, $e, $f, row[2]);
        round!($f, $g, $h, $a, $b, $c, $d, $e, row[3]);
        round!($e, $f, $g, $h, $a, $b, $c, $d, row2[0]);
        round!($d, $e, $f, $g, $h, $a, $b, $c, row2[1]);
        round!($c, $d, $e, $f, $g, $h, $a, $b, row2[2]);
        round!($b, $c, $d, $e, $f, $g, $h, $a, row2[3]);
    };
}

/// The 64 rounds of the second block of a pair (or of a lone block) from
/// the buffer, `half` being 0 for the low and 4 for the high half, then
/// step 4.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn rounds_from_buffer(state: &mut [u32; 8], buf: &Schedule, half: usize) {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for pair in buf.0.chunks_exact(2) {
        eight_rounds!([a, b, c, d, e, f, g, h], &pair[0][half..half + 4], &pair[1][half..half + 4]);
    }
    for (s, x) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(x);
    }
}

/// Compress blocks `lo` and `hi` into `state`, in that order; with
/// `hi_too == false` only `lo` (then `hi` should be `lo`, whose schedule
/// is computed twice and used once).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_pair(state: &mut [u32; 8], lo: &[u8; 64], hi: &[u8; 64], hi_too: bool, buf: &mut Schedule) {
    let (lo, _) = lo.as_chunks::<16>();
    let (hi, _) = hi.as_chunks::<16>();
    let mut x0 = load_rows(&lo[0], &hi[0]);
    let mut x1 = load_rows(&lo[1], &hi[1]);
    let mut x2 = load_rows(&lo[2], &hi[2]);
    let mut x3 = load_rows(&lo[3], &hi[3]);
    store_wk(buf, 0, x0);
    store_wk(buf, 1, x1);
    store_wk(buf, 2, x2);
    store_wk(buf, 3, x3);

    // Rounds 0..48 of the first block, while words 16..64 of both blocks
    // are scheduled four at a time, 16 words ahead of the rounds.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for k in 0..3 {
        let r = 4 * k;
        x0 = schedule(x0, x1, x2, x3);
        store_wk(buf, r + 4, x0);
        x1 = schedule(x1, x2, x3, x0);
        store_wk(buf, r + 5, x1);
        eight_rounds!([a, b, c, d, e, f, g, h], &buf.0[r][..4], &buf.0[r + 1][..4]);
        x2 = schedule(x2, x3, x0, x1);
        store_wk(buf, r + 6, x2);
        x3 = schedule(x3, x0, x1, x2);
        store_wk(buf, r + 7, x3);
        eight_rounds!([a, b, c, d, e, f, g, h], &buf.0[r + 2][..4], &buf.0[r + 3][..4]);
    }
    eight_rounds!([a, b, c, d, e, f, g, h], &buf.0[12][..4], &buf.0[13][..4]);
    eight_rounds!([a, b, c, d, e, f, g, h], &buf.0[14][..4], &buf.0[15][..4]);
    for (s, x) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(x);
    }

    if hi_too {
        rounds_from_buffer(state, buf, 4);
    }
}

/// Compress `blocks` into `state`, one after another.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn compress(state: &mut [u32; 8], blocks: &[Block<U64>]) {
    let mut buf = Schedule([[0; 8]; 16]);
    let mut pairs = blocks.chunks_exact(2);
    for pair in pairs.by_ref() {
        compress_pair(state, super::block_bytes(&pair[0]), super::block_bytes(&pair[1]), true, &mut buf);
    }
    if let [last] = pairs.remainder() {
        let last = super::block_bytes(last);
        compress_pair(state, last, last, false, &mut buf);
    }
}

/// Lanes of the batch engine: one message per 32-bit lane of a `ymm`.
const LANES: usize = 8;

/// The fewest busy lanes for which the 8-lane engine beats hashing the rest
/// one at a time with [`compress`]; below it the scheduler finishes them
/// alone. Measured on an AMD Zen 5 core, one 8-lane step costs about 3.5
/// single-stream blocks (1630 against 717 MB/s); on Haswell-class cores,
/// where the scalar rounds are slower relative to the vector units, the
/// estimate is under 3, hence 3.
const MIN_ACTIVE: usize = 3;

/// A 32-bit rotation right by `$n` of every lane (`$m` = 32 - `$n`).
macro_rules! ror {
    ($x:expr, $n:literal, $m:literal) => {
        _mm256_or_si256(_mm256_srli_epi32::<$n>($x), _mm256_slli_epi32::<$m>($x))
    };
}

/// Transpose the 8 x 8 matrix of 32-bit words whose rows are `r`.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn transpose(r: [__m256i; 8]) -> [__m256i; 8] {
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    // Columns 0/4, 1/5, 2/6, 3/7 of rows 0..4 and of rows 4..8.
    let u0 = _mm256_unpacklo_epi64(t0, t2);
    let u1 = _mm256_unpackhi_epi64(t0, t2);
    let u2 = _mm256_unpacklo_epi64(t1, t3);
    let u3 = _mm256_unpackhi_epi64(t1, t3);
    let u4 = _mm256_unpacklo_epi64(t4, t6);
    let u5 = _mm256_unpackhi_epi64(t4, t6);
    let u6 = _mm256_unpacklo_epi64(t5, t7);
    let u7 = _mm256_unpackhi_epi64(t5, t7);
    [
        _mm256_permute2x128_si256::<0x20>(u0, u4),
        _mm256_permute2x128_si256::<0x20>(u1, u5),
        _mm256_permute2x128_si256::<0x20>(u2, u6),
        _mm256_permute2x128_si256::<0x20>(u3, u7),
        _mm256_permute2x128_si256::<0x31>(u0, u4),
        _mm256_permute2x128_si256::<0x31>(u1, u5),
        _mm256_permute2x128_si256::<0x31>(u2, u6),
        _mm256_permute2x128_si256::<0x31>(u3, u7),
    ]
}

/// The block at byte `at` of every lane as the sixteen message words,
/// big-endian (§3.1, §5.2.1), one word per vector, lane `s` holding
/// message `s`'s word: each 32-byte half of the eight blocks is an 8 x 8
/// transpose.
///
/// The lanes come as pointers and the sixteen loads are written out: from
/// a loop over slices, LLVM kept a bounds check per lane and load.
///
/// # Safety
/// Every pointer in `lanes` must be valid for reads of `at + 64` bytes.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
unsafe fn load_words(lanes: &[*const u8; LANES], at: usize) -> [__m256i; 16] {
    let swap = 0x0c0d_0e0f_0809_0a0b;
    let swap = _mm256_set_epi64x(swap, 0x0405_0607_0001_0203, swap, 0x0405_0607_0001_0203);
    macro_rules! rows {
        ($half:literal: $($lane:literal)*) => {[$(
            // SAFETY: the caller guarantees 64 readable bytes at `at` in
            // every lane; loadu has no alignment requirement.
            _mm256_shuffle_epi8(unsafe { _mm256_loadu_si256(lanes[$lane].add(at + $half).cast()) }, swap),
        )*]};
    }
    let lo = transpose(rows!(0: 0 1 2 3 4 5 6 7));
    let hi = transpose(rows!(32: 0 1 2 3 4 5 6 7));
    [lo[0], lo[1], lo[2], lo[3], lo[4], lo[5], lo[6], lo[7], hi[0], hi[1], hi[2], hi[3], hi[4], hi[5], hi[6], hi[7]]
}

/// σ0 (4.6) of every lane.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn small_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(ror!(x, 7, 25), ror!(x, 18, 14)), _mm256_srli_epi32::<3>(x))
}

/// σ1 (4.7) of every lane.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn small_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(ror!(x, 17, 15), ror!(x, 19, 13)), _mm256_srli_epi32::<10>(x))
}

/// Σ0 (4.4) of every lane.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn big_sigma0(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(ror!(x, 2, 30), ror!(x, 13, 19)), ror!(x, 22, 10))
}

/// Σ1 (4.5) of every lane.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn big_sigma1(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(ror!(x, 6, 26), ror!(x, 11, 21)), ror!(x, 25, 7))
}

/// One round of every lane (§6.2.2 step 3), in the rotated-names form of
/// `round!`, with `W[t] + K[t]` in `$wk`.
macro_rules! lane_round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $ab:ident, $wk:expr) => {
        // Ch (4.2) = (e ∧ f) ⊕ (¬e ∧ g).
        let ch = _mm256_xor_si256(_mm256_and_si256($e, $f), _mm256_andnot_si256($e, $g));
        let t1 = _mm256_add_epi32(_mm256_add_epi32($h, $wk), _mm256_add_epi32(ch, big_sigma1($e)));
        $d = _mm256_add_epi32($d, t1);
        // Maj (4.3) = ((a ⊕ b) ∧ (b ⊕ c)) ⊕ b.
        let ab = _mm256_xor_si256($a, $b);
        let maj = _mm256_xor_si256(_mm256_and_si256(ab, $ab), $b);
        $ab = ab;
        $h = _mm256_add_epi32(t1, _mm256_add_epi32(big_sigma0($a), maj));
    };
}

/// Rounds `t..t+8` of every lane, `W + K` of round t + i from
/// `$wk(i)`: [`ring_wk`] for a block's own schedule, a broadcast constant
/// for the block that pads a 64-byte message.
macro_rules! lane_eight_rounds {
    ([$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident], $ab:ident, $wk:expr) => {
        #[allow(unused_mut)] // the schedule's closures are FnMut, the constants' Fn
        let mut wk = $wk;
        lane_round!($a, $b, $c, $d, $e, $f, $g, $h, $ab, wk(0));
        lane_round!($h, $a, $b, $c, $d, $e, $f, $g, $ab, wk(1));
        lane_round!($g, $h, $a, $b, $c, $d, $e, $f, $ab, wk(2));
        lane_round!($f, $g, $h, $a, $b, $c, $d, $e, $ab, wk(3));
        lane_round!($e, $f, $g, $h, $a, $b, $c, $d, $ab, wk(4));
        lane_round!($d, $e, $f, $g, $h, $a, $b, $c, $ab, wk(5));
        lane_round!($c, $d, $e, $f, $g, $h, $a, $b, $ab, wk(6));
        lane_round!($b, $c, $d, $e, $f, $g, $h, $a, $ab, wk(7));
    };
}

/// The 64 rounds of a block of every lane on its own schedule (the ring
/// `$w`, W[0..16] loaded), sixteen per pass, so that every index into the
/// ring is a constant (a loop of eight rounds indexed it with run-time
/// arithmetic and bounds checks: scalar work on the ports that the vector
/// operations need), while the loop still fits the decoded µop cache.
macro_rules! lane_rounds64 {
    ([$a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident], $ab:ident, $w:ident) => {
        lane_eight_rounds!([$a, $b, $c, $d, $e, $f, $g, $h], $ab, |i: usize| ring_wk(&mut $w, i));
        lane_eight_rounds!([$a, $b, $c, $d, $e, $f, $g, $h], $ab, |i: usize| ring_wk(&mut $w, 8 + i));
        for k in 1..4 {
            lane_eight_rounds!([$a, $b, $c, $d, $e, $f, $g, $h], $ab, |i: usize| ring_wk(&mut $w, 16 * k + i));
            lane_eight_rounds!([$a, $b, $c, $d, $e, $f, $g, $h], $ab, |i: usize| ring_wk(&mut $w, 16 * k + 8 + i));
        }
    };
}

/// `W[t] + K[t]` of every lane; for `t >= 16` W[t] first replaces
/// W[t-16] in the 16-word ring `w` (§6.2.2 step 1).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn ring_wk(w: &mut [__m256i; 16], t: usize) -> __m256i {
    if t >= 16 {
        w[t % 16] = _mm256_add_epi32(
            _mm256_add_epi32(small_sigma1(w[(t - 2) % 16]), w[(t - 7) % 16]),
            _mm256_add_epi32(small_sigma0(w[(t - 15) % 16]), w[t % 16]),
        );
    }
    _mm256_add_epi32(w[t % 16], _mm256_set1_epi32(K[t] as i32))
}

/// Compress `data[s]` into `states[s]` for all eight lanes; the slices
/// have equal lengths, a whole number of blocks (the scheduler's contract).
///
/// About 51 vector operations per round (Σ0 and Σ1 at 11 each: no rotate
/// instruction before AVX-512), the bound on three vector ports. Measured
/// on an Intel Xeon (Sapphire Rapids class, standing in for AVX2-only
/// Intel cores, 256-bit operations on ports 0, 1 and 5), under load,
/// `digest_many` of 64 x 8 KiB and of 64 x 1 KiB ran at 3.2 times the
/// throughput of [`compress`] one message after another (3.05 times with
/// a rolled loop of eight rounds).
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_lanes(states: &mut [[u32; 8]; LANES], data: [&[u8]; LANES]) {
    // The state transposed: `v[j]` holds working variable j of every lane.
    let mut rows = [_mm256_setzero_si256(); 8];
    for (row, state) in rows.iter_mut().zip(states.iter()) {
        // SAFETY: `state` is eight u32 (32 bytes); loadu has no alignment requirement.
        *row = unsafe { _mm256_loadu_si256(state.as_ptr().cast()) };
    }
    let mut v = transpose(rows);
    assert!(
        data.iter().all(|d| d.len() == data[0].len() && d.len() % 64 == 0),
        "the scheduler hands every lane the same whole number of blocks"
    );
    let lanes = data.map(<[u8]>::as_ptr);
    for at in (0..data[0].len()).step_by(64) {
        // SAFETY: every lane is `data[0].len()` bytes long (the assert
        // above), a whole number of blocks, and `at` is the start of one.
        let mut w = unsafe { load_words(&lanes, at) };
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v;
        let mut ab = _mm256_xor_si256(b, c);
        lane_rounds64!([a, b, c, d, e, f, g, h], ab, w);
        // Step 4.
        for (x, y) in v.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *x = _mm256_add_epi32(*x, y);
        }
    }
    let rows = transpose(v);
    for (state, row) in states.iter_mut().zip(rows) {
        // SAFETY: `state` is eight u32 (32 bytes); storeu has no alignment requirement.
        unsafe { _mm256_storeu_si256(state.as_mut_ptr().cast(), row) };
    }
}

/// `out[i]` = SHA-256 (from `init`) of `pairs[i]`, a 64-byte message (two
/// 32-byte nodes), for eight pairs in the lanes: the pair's block with its
/// schedule, then the padding block, which is the same for every 64-byte
/// message, with `W + K` a constant ([`PAD64_WK`]: no schedule, a
/// broadcast per round).
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn pairs_lanes(init: &[u32; 8], pairs: &[[u8; 64]; LANES], out: &mut [[u8; 32]; LANES]) {
    let lanes: [*const u8; LANES] = core::array::from_fn(|s| pairs[s].as_ptr());
    // SAFETY: every lane points at a 64-byte array: 64 readable bytes at
    // offset 0.
    let mut w = unsafe { load_words(&lanes, 0) };
    let v0: [__m256i; 8] = core::array::from_fn(|j| _mm256_set1_epi32(init[j] as i32));
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = v0;
    let mut ab = _mm256_xor_si256(b, c);
    lane_rounds64!([a, b, c, d, e, f, g, h], ab, w);
    // Step 4, then the padding block.
    let v1: [__m256i; 8] = core::array::from_fn(|j| _mm256_add_epi32(v0[j], [a, b, c, d, e, f, g, h][j]));
    [a, b, c, d, e, f, g, h] = v1;
    ab = _mm256_xor_si256(b, c);
    for t in (0..64).step_by(8) {
        lane_eight_rounds!([a, b, c, d, e, f, g, h], ab, |i: usize| _mm256_set1_epi32(PAD64_WK[t + i] as i32));
    }
    let v2: [__m256i; 8] = core::array::from_fn(|j| _mm256_add_epi32(v1[j], [a, b, c, d, e, f, g, h][j]));
    // Lane s's digest in row s, each word big-endian (§6.2.2).
    let swap = 0x0c0d_0e0f_0809_0a0b;
    let swap = _mm256_set_epi64x(swap, 0x0405_0607_0001_0203, swap, 0x0405_0607_0001_0203);
    for (digest, row) in out.iter_mut().zip(transpose(v2)) {
        let row = _mm256_shuffle_epi8(row, swap);
        // SAFETY: `digest` is 32 writable bytes; storeu has no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(digest.as_mut_ptr().cast(), row) };
    }
}

/// `out[i]` = SHA-256 (from `init`) of `pairs[i]` for every whole group of
/// eight pairs ([`pairs_lanes`]); returns how many pairs that was, for the
/// caller to finish the rest another way.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn hash_pairs64(init: &[u32; 8], pairs: &[[u8; 64]], out: &mut [[u8; 32]]) -> usize {
    assert_eq!(pairs.len(), out.len(), "hash_pairs64: one output slot per 64-byte message");
    let (groups, _) = pairs.as_chunks::<LANES>();
    let (slots, _) = out.as_chunks_mut::<LANES>();
    for (group, slot) in groups.iter().zip(slots.iter_mut()) {
        pairs_lanes(init, group, slot);
    }
    groups.len() * LANES
}

/// Hash each of `inputs` into the matching `outputs` slot, eight messages
/// at a time (see `hash_core::multi`).
///
/// # Safety
/// The CPU must support avx2, bmi1 and bmi2.
pub(super) unsafe fn digest_many<A>(inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    hash_core::multi::digest_many_lanes::<A, LANES>(Backend::Avx2, inputs, outputs, MIN_ACTIVE, |states, data| {
        // SAFETY: the caller of `digest_many` guarantees the CPU features
        // that `compress_lanes` enables.
        unsafe { compress_lanes(states, data) }
    });
}
