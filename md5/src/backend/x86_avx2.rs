//! Multi-buffer MD5 (RFC 1321 §3.4) on AVX2: 8, 16 or 32 independent
//! messages, as groups of 8 whose 32-bit words sit in the lanes of `ymm`
//! registers, in the manner of Intel ISA-L's `md5_mb`.
//!
//! One MD5 step is a chain of about six dependent vector operations, and a
//! step of one group has about 9.5 operations, so a single group of 8 lanes
//! leaves most of the vector units idle; the groups are written side by
//! side, step by step, so that the CPU overlaps them.
//!
//! AVX2 has no rotate: `x <<< s` is `(x << s) | (x >> (32 − s))`. Round
//! functions, per lane, with the least work on the chain from `b`:
//!
//! * F = d ⊕ (b ∧ (c ⊕ d));
//! * G = (b ∧ d) + (¬d ∧ c) (disjoint halves, added one at a time);
//! * H = b ⊕ c ⊕ d;
//! * I = c ⊕ (b ∨ ¬d) = ¬(c ⊕ (¬b ∧ d)), so a + I = a − (c ⊕ (¬b ∧ d)) − 1,
//!   and the −1 is folded into the step's constant: two logic operations
//!   and a subtraction instead of three logic operations and an addition.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi128_si256,
    _mm256_extract_epi32, _mm256_inserti128_si256, _mm256_or_si256, _mm256_set1_epi32, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_slli_epi32, _mm256_srli_epi32, _mm256_sub_epi32, _mm256_unpackhi_epi32,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
};

use crate::consts::{T, md5_steps};

use hash_core::arch::x86::opaque_m256i as opaque;

/// Load word `k` (0..16) of the block at byte `at` of each of the 8
/// `lanes` into `x[k]`, lane `i` of the vector holding word `k` of lane
/// `i`'s block (a transposition of 8 rows of 16 words).
///
/// The lanes come as pointers: from slices, LLVM kept a bounds check per
/// lane and block.
///
/// # Safety
/// Every pointer in `lanes` must be valid for reads of `at + 64` bytes.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_words(x: &mut [__m256i; 16], lanes: &[*const u8; 8], at: usize) {
    for quarter in 0..4 {
        // Row r (r in 0..4) holds words 4q..4q+4 of lane r in its low
        // half and of lane r + 4 in its high half.
        let at = at + 16 * quarter;
        macro_rules! load {
            ($lane:expr) => {
                // SAFETY: the caller guarantees 64 readable bytes at the
                // block's start in every lane, and these 16 are within
                // them; loadu has no alignment requirement.
                unsafe { _mm_loadu_si128(lanes[$lane].add(at).cast()) }
            };
        }
        macro_rules! row {
            ($r:literal) => {{
                let (lo, hi) = (load!($r), load!($r + 4));
                _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi)
            }};
        }
        let (r0, r1, r2, r3) = (row!(0), row!(1), row!(2), row!(3));
        // [w0 of lanes 0,1, w1 of lanes 0,1 | the same for lanes 4,5], ...
        let t0 = _mm256_unpacklo_epi32(r0, r1);
        let t1 = _mm256_unpacklo_epi32(r2, r3);
        let t2 = _mm256_unpackhi_epi32(r0, r1);
        let t3 = _mm256_unpackhi_epi32(r2, r3);
        // Word j of lanes 0..4 | word j of lanes 4..8.
        x[4 * quarter] = _mm256_unpacklo_epi64(t0, t1);
        x[4 * quarter + 1] = _mm256_unpackhi_epi64(t0, t1);
        x[4 * quarter + 2] = _mm256_unpacklo_epi64(t2, t3);
        x[4 * quarter + 3] = _mm256_unpackhi_epi64(t2, t3);
    }
}

/// `x <<< s`, lane by lane.
macro_rules! rotl {
    ($x:expr, $s:literal) => {
        _mm256_or_si256(_mm256_slli_epi32::<$s>($x), _mm256_srli_epi32::<{ 32 - $s }>($x))
    };
}

/// Compress `data[i]` into `states[i]` for each of the `N` lanes (`N` a
/// multiple of 8, at most 32: `N / 8` groups of 8 lanes, interleaved).
/// Every `data[i]` must have the same length, a multiple of 64 bytes.
///
/// # Panics
/// If the lengths differ or are not whole blocks.
#[target_feature(enable = "avx2")]
pub(crate) fn compress_lanes<const N: usize>(states: &mut [[u32; 4]; N], data: [&[u8]; N]) {
    const { assert!(N.is_multiple_of(8) && N <= 32) };
    let groups = N / 8;
    let len = data[0].len();
    assert!(
        data.iter().all(|d| d.len() == len) && len.is_multiple_of(64),
        "md5 avx2: lanes of unequal or partial blocks"
    );

    // The chaining values: a[g] lane i is word 0 of states[8g + i], etc.
    let zero = _mm256_setzero_si256();
    let (mut a, mut b, mut c, mut d) = ([zero; 4], [zero; 4], [zero; 4], [zero; 4]);
    for g in 0..groups {
        let gather = |w: usize| {
            let s = |i: usize| states[8 * g + i][w] as i32;
            _mm256_setr_epi32(s(0), s(1), s(2), s(3), s(4), s(5), s(6), s(7))
        };
        (a[g], b[g], c[g], d[g]) = (gather(0), gather(1), gather(2), gather(3));
    }

    let mut x = [[zero; 16]; 4];
    let lanes = data.map(<[u8]>::as_ptr);
    let (lane_groups, _) = lanes.as_chunks::<8>();
    for offset in (0..len).step_by(64) {
        for (xg, group) in x.iter_mut().zip(lane_groups) {
            // SAFETY: every lane is `len` bytes long (the assert above), a
            // whole number of blocks, and `offset` is the start of one.
            unsafe { load_words(xg, group, offset) };
        }
        let (aa, bb, cc, dd) = (a, b, c, d);

        // One step on every group: a = b + ((a + X[k] + K + fun) <<< s),
        // `$fun` being the round function of the group's b, c, d, added
        // (or, for I, subtracted: see the module docs) by `$add`. Whatever
        // does not wait for b (`$early`) is summed first, behind
        // `opaque`, so that LLVM cannot re-associate the sum and put the
        // b-dependent term first.
        macro_rules! step {
            ($add:ident, $konst:expr, $fun:ident, $early:ident, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal) => {
                let konst = _mm256_set1_epi32($konst as i32);
                for g in 0..groups {
                    let early = _mm256_add_epi32(x[g][$k], konst);
                    let early = opaque(_mm256_add_epi32(early, $early!($a[g], $c[g], $d[g])));
                    let t = $add(early, $fun!($b[g], $c[g], $d[g]));
                    $a[g] = _mm256_add_epi32($b[g], rotl!(t, $s));
                }
            };
        }
        // The b-free part of a step: a, plus for G the ¬d ∧ c half.
        macro_rules! early_a {
            ($a:expr, $c:expr, $d:expr) => {
                $a
            };
        }
        macro_rules! early_g {
            ($a:expr, $c:expr, $d:expr) => {
                _mm256_add_epi32($a, _mm256_andnot_si256($d, $c))
            };
        }
        // The round functions (module docs).
        macro_rules! fun_f {
            ($b:expr, $c:expr, $d:expr) => {
                _mm256_xor_si256($d, _mm256_and_si256($b, _mm256_xor_si256($c, $d)))
            };
        }
        // G's b-dependent half; the other half is in `early_g`.
        macro_rules! fun_g_half {
            ($b:expr, $c:expr, $d:expr) => {
                _mm256_and_si256($b, $d)
            };
        }
        macro_rules! fun_h {
            ($b:expr, $c:expr, $d:expr) => {
                _mm256_xor_si256($b, _mm256_xor_si256($c, $d))
            };
        }
        // ¬I = c ⊕ (¬b ∧ d), subtracted.
        macro_rules! fun_not_i {
            ($b:expr, $c:expr, $d:expr) => {
                _mm256_xor_si256($c, _mm256_andnot_si256($b, $d))
            };
        }
        macro_rules! f {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
                step!(_mm256_add_epi32, T[$t], fun_f, early_a, $a, $b, $c, $d, $k, $s);
            };
        }
        macro_rules! g {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
                step!(_mm256_add_epi32, T[$t], fun_g_half, early_g, $a, $b, $c, $d, $k, $s);
            };
        }
        macro_rules! h {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
                step!(_mm256_add_epi32, T[$t], fun_h, early_a, $a, $b, $c, $d, $k, $s);
            };
        }
        macro_rules! i {
            ($a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
                step!(_mm256_sub_epi32, T[$t].wrapping_sub(1), fun_not_i, early_a, $a, $b, $c, $d, $k, $s);
            };
        }
        macro_rules! steps {
            ($($fun:ident($($arg:tt)*))*) => { $($fun!($($arg)*);)* };
        }
        md5_steps!(steps!(f, g, h, i, a, b, c, d));

        // Add the chaining value in (end of RFC 1321 §3.4's block loop).
        for g in 0..groups {
            a[g] = _mm256_add_epi32(a[g], aa[g]);
            b[g] = _mm256_add_epi32(b[g], bb[g]);
            c[g] = _mm256_add_epi32(c[g], cc[g]);
            d[g] = _mm256_add_epi32(d[g], dd[g]);
        }
    }

    for g in 0..groups {
        for (w, v) in [a[g], b[g], c[g], d[g]].into_iter().enumerate() {
            let lanes = [
                _mm256_extract_epi32::<0>(v),
                _mm256_extract_epi32::<1>(v),
                _mm256_extract_epi32::<2>(v),
                _mm256_extract_epi32::<3>(v),
                _mm256_extract_epi32::<4>(v),
                _mm256_extract_epi32::<5>(v),
                _mm256_extract_epi32::<6>(v),
                _mm256_extract_epi32::<7>(v),
            ];
            for (i, lane) in lanes.into_iter().enumerate() {
                states[8 * g + i][w] = lane as u32;
            }
        }
    }
}
