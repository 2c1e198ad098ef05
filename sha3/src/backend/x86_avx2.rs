//! Four Keccak-f\[1600\] states at once with AVX2 (FIPS 202 §3.3), the
//! batch engine of `Backend::Avx2`.
//!
//! Lane (x, y) of the four states lives in one 256-bit register, one state
//! per 64-bit element, so each step of a round is one vector instruction
//! for all four messages. The round follows the portable module's
//! plane-by-plane schedule with constant indices. AVX2 has no 64-bit
//! rotate: rotations are a shift pair and an OR, except those by 8 and 56
//! bits, which move whole bytes and are a single `vpshufb`; θ's rotation by
//! one shifts left with an add (x + x).
//!
//! The intrinsics used here are safe to call inside functions compiled with
//! AVX2; this file needs no `unsafe`.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_andnot_si256, _mm256_extract_epi64, _mm256_or_si256, _mm256_set_epi64x,
    _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_xor_si256,
};

use super::portable::round_constants;

/// Rotate every 64-bit element left by a constant (FIPS 202 §3.2.2's ρ
/// offsets and θ's rotation by one).
macro_rules! rol {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, 1) => {{
        let x = $x;
        _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64::<63>(x))
    }};
    // Byte-granular rotations: one shuffle within each 64-bit element.
    ($x:expr, 8) => {
        _mm256_shuffle_epi8(
            $x,
            _mm256_setr_epi8(
                7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13,
                14,
            ),
        )
    };
    ($x:expr, 56) => {
        _mm256_shuffle_epi8(
            $x,
            _mm256_setr_epi8(
                1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14,
                15, 8,
            ),
        )
    };
    ($x:expr, $r:literal) => {{
        let x = $x;
        _mm256_or_si256(_mm256_slli_epi64::<$r>(x), _mm256_srli_epi64::<{ 64 - $r }>(x))
    }};
}

/// One output plane of a round: θ's D, ρ, π's lane choice and χ, as in
/// `portable::round` (same `[source column offset]` triples).
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $y:literal,
     [$s0:literal $d0:literal $r0:tt] [$s1:literal $d1:literal $r1:tt]
     [$s2:literal $d2:literal $r2:tt] [$s3:literal $d3:literal $r3:tt]
     [$s4:literal $d4:literal $r4:tt]) => {
        let b0 = rol!(_mm256_xor_si256($a[$s0], $d[$d0]), $r0);
        let b1 = rol!(_mm256_xor_si256($a[$s1], $d[$d1]), $r1);
        let b2 = rol!(_mm256_xor_si256($a[$s2], $d[$d2]), $r2);
        let b3 = rol!(_mm256_xor_si256($a[$s3], $d[$d3]), $r3);
        let b4 = rol!(_mm256_xor_si256($a[$s4], $d[$d4]), $r4);
        // χ (§3.2.4): andnot(p, q) = ¬p ∧ q.
        $e[5 * $y] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        $e[5 * $y + 1] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        $e[5 * $y + 2] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        $e[5 * $y + 3] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        $e[5 * $y + 4] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
    };
}

/// One round from `a` into `e` (FIPS 202 §3.3).
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr) => {{
        let xor5 = |p: __m256i, q: __m256i, r: __m256i, s: __m256i, t: __m256i| {
            _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(p, q), _mm256_xor_si256(r, s)), t)
        };
        // θ (§3.2.1).
        let c0 = xor5($a[0], $a[5], $a[10], $a[15], $a[20]);
        let c1 = xor5($a[1], $a[6], $a[11], $a[16], $a[21]);
        let c2 = xor5($a[2], $a[7], $a[12], $a[17], $a[22]);
        let c3 = xor5($a[3], $a[8], $a[13], $a[18], $a[23]);
        let c4 = xor5($a[4], $a[9], $a[14], $a[19], $a[24]);
        let d = [
            _mm256_xor_si256(c4, rol!(c1, 1)),
            _mm256_xor_si256(c0, rol!(c2, 1)),
            _mm256_xor_si256(c1, rol!(c3, 1)),
            _mm256_xor_si256(c2, rol!(c4, 1)),
            _mm256_xor_si256(c3, rol!(c0, 1)),
        ];
        plane!($a, d, $e, 0, [0 0 0] [6 1 44] [12 2 43] [18 3 21] [24 4 14]);
        // ι (§3.2.5).
        $e[0] = _mm256_xor_si256($e[0], _mm256_set1_epi64x($rc as i64));
        plane!($a, d, $e, 1, [3 3 28] [9 4 20] [10 0 3] [16 1 45] [22 2 61]);
        plane!($a, d, $e, 2, [1 1 1] [7 2 6] [13 3 25] [19 4 8] [20 0 18]);
        plane!($a, d, $e, 3, [4 4 27] [5 0 36] [11 1 10] [17 2 15] [23 3 56]);
        plane!($a, d, $e, 4, [2 2 62] [8 3 55] [14 4 39] [15 0 41] [21 1 2]);
    }};
}

/// Keccak-p\[1600, `ROUNDS`\] (FIPS 202 §3.3: the last `ROUNDS` rounds) on
/// four interleaved states.
#[target_feature(enable = "avx2")]
fn keccak_p4<const ROUNDS: usize>(state: &mut [__m256i; 25]) {
    let mut a = *state;
    let mut e = a;
    for pair in round_constants::<ROUNDS>().chunks_exact(2) {
        round!(a, e, pair[0]);
        round!(e, a, pair[1]);
    }
    *state = a;
}

/// Absorb `data[i]` into `states[i]` for the four lanes (FIPS 202 §4
/// Algorithm 8 step 6). Every `data[i]` has the same length, a whole number
/// of `RATE`-byte blocks; each block is followed by Keccak-p\[1600,
/// `ROUNDS`\].
#[target_feature(enable = "avx2")]
pub(super) fn absorb4<const RATE: usize, const ROUNDS: usize>(states: &mut [[u64; 25]; 4], data: [&[u8]; 4]) {
    let [s0, s1, s2, s3] = &*states;
    let mut a: [__m256i; 25] =
        core::array::from_fn(|i| _mm256_set_epi64x(s3[i] as i64, s2[i] as i64, s1[i] as i64, s0[i] as i64));
    let word = |bytes: &[u8]| {
        let mut w = [0u8; 8];
        w.copy_from_slice(bytes);
        i64::from_le_bytes(w)
    };
    assert!(
        data.iter().all(|d| d.len() == data[0].len()) && data[0].len().is_multiple_of(RATE),
        "absorb4: lanes need the same whole number of blocks"
    );
    let blocks = data[0].len() / RATE;
    for k in 0..blocks {
        let [m0, m1, m2, m3] = data.map(|d| &d[k * RATE..(k + 1) * RATE]);
        for (j, lane) in a.iter_mut().take(RATE / 8).enumerate() {
            let at = 8 * j..8 * j + 8;
            let w =
                _mm256_set_epi64x(word(&m3[at.clone()]), word(&m2[at.clone()]), word(&m1[at.clone()]), word(&m0[at]));
            *lane = _mm256_xor_si256(*lane, w);
        }
        keccak_p4::<ROUNDS>(&mut a);
    }
    for (i, lane) in a.iter().enumerate() {
        states[0][i] = _mm256_extract_epi64::<0>(*lane) as u64;
        states[1][i] = _mm256_extract_epi64::<1>(*lane) as u64;
        states[2][i] = _mm256_extract_epi64::<2>(*lane) as u64;
        states[3][i] = _mm256_extract_epi64::<3>(*lane) as u64;
    }
}
