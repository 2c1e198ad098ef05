//! Eight Keccak-p\[1600, n_r\] states at once with AVX-512 (FIPS 202 §3.3),
//! the lane engine of `Backend::Avx512`: `digest_many` / `digest_xof_many`
//! batches, KangarooTwelve leaves and ParallelHash blocks.
//!
//! Lane (x, y) of the eight states lives in one 512-bit register, one state
//! per 64-bit element, so every step of a round is one instruction for all
//! eight. AVX-512F supplies what AVX2 lacks (the technique of XKCP's
//! `KeccakP-1600-times8` code, written here from the spec):
//!
//! * `vprolq` rotates each 64-bit element by a constant, so ρ and θ's
//!   rotation by one are single instructions (AVX2 needs shift, shift, or);
//! * `vpternlogq` evaluates any three-input boolean function, so θ's
//!   five-way column parities are two instructions (truth table 0x96, a ⊕ b
//!   ⊕ c) and χ's a ⊕ (¬b ∧ c) is one (truth table 0xD2).
//!
//! The round follows the portable module's plane-by-plane schedule with
//! constant indices. The intrinsics are safe to call inside functions
//! compiled with AVX-512F; this file needs no `unsafe`.

use core::arch::x86_64::{
    __m512i, _mm256_extract_epi64, _mm512_castsi512_si256, _mm512_extracti64x4_epi64, _mm512_rol_epi64,
    _mm512_set_epi64, _mm512_set1_epi64, _mm512_ternarylogic_epi64, _mm512_xor_si512,
};

use super::portable::round_constants;

/// Rotate every 64-bit element left by a constant (`vprolq`).
macro_rules! rol {
    ($x:expr, 0) => {
        $x
    };
    ($x:expr, $r:literal) => {
        _mm512_rol_epi64::<$r>($x)
    };
}

/// a ⊕ b ⊕ c in one `vpternlogq`.
macro_rules! xor3 {
    ($a:expr, $b:expr, $c:expr) => {
        _mm512_ternarylogic_epi64::<0x96>($a, $b, $c)
    };
}

/// χ's a ⊕ (¬b ∧ c) (§3.2.4) in one `vpternlogq`.
macro_rules! chi {
    ($a:expr, $b:expr, $c:expr) => {
        _mm512_ternarylogic_epi64::<0xd2>($a, $b, $c)
    };
}

/// One output plane of a round: θ's D, ρ, π's lane choice and χ, as in
/// `portable::round` (same `[source column offset]` triples).
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $y:literal,
     [$s0:literal $d0:literal $r0:tt] [$s1:literal $d1:literal $r1:tt]
     [$s2:literal $d2:literal $r2:tt] [$s3:literal $d3:literal $r3:tt]
     [$s4:literal $d4:literal $r4:tt]) => {
        let b0 = rol!(_mm512_xor_si512($a[$s0], $d[$d0]), $r0);
        let b1 = rol!(_mm512_xor_si512($a[$s1], $d[$d1]), $r1);
        let b2 = rol!(_mm512_xor_si512($a[$s2], $d[$d2]), $r2);
        let b3 = rol!(_mm512_xor_si512($a[$s3], $d[$d3]), $r3);
        let b4 = rol!(_mm512_xor_si512($a[$s4], $d[$d4]), $r4);
        $e[5 * $y] = chi!(b0, b1, b2);
        $e[5 * $y + 1] = chi!(b1, b2, b3);
        $e[5 * $y + 2] = chi!(b2, b3, b4);
        $e[5 * $y + 3] = chi!(b3, b4, b0);
        $e[5 * $y + 4] = chi!(b4, b0, b1);
    };
}

/// One round from `a` into `e` (FIPS 202 §3.3).
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr) => {{
        // θ (§3.2.1): C[x] in two ternary XORs each.
        let c0 = xor3!(xor3!($a[0], $a[5], $a[10]), $a[15], $a[20]);
        let c1 = xor3!(xor3!($a[1], $a[6], $a[11]), $a[16], $a[21]);
        let c2 = xor3!(xor3!($a[2], $a[7], $a[12]), $a[17], $a[22]);
        let c3 = xor3!(xor3!($a[3], $a[8], $a[13]), $a[18], $a[23]);
        let c4 = xor3!(xor3!($a[4], $a[9], $a[14]), $a[19], $a[24]);
        let d = [
            _mm512_xor_si512(c4, rol!(c1, 1)),
            _mm512_xor_si512(c0, rol!(c2, 1)),
            _mm512_xor_si512(c1, rol!(c3, 1)),
            _mm512_xor_si512(c2, rol!(c4, 1)),
            _mm512_xor_si512(c3, rol!(c0, 1)),
        ];
        plane!($a, d, $e, 0, [0 0 0] [6 1 44] [12 2 43] [18 3 21] [24 4 14]);
        // ι (§3.2.5).
        $e[0] = _mm512_xor_si512($e[0], _mm512_set1_epi64($rc as i64));
        plane!($a, d, $e, 1, [3 3 28] [9 4 20] [10 0 3] [16 1 45] [22 2 61]);
        plane!($a, d, $e, 2, [1 1 1] [7 2 6] [13 3 25] [19 4 8] [20 0 18]);
        plane!($a, d, $e, 3, [4 4 27] [5 0 36] [11 1 10] [17 2 15] [23 3 56]);
        plane!($a, d, $e, 4, [2 2 62] [8 3 55] [14 4 39] [15 0 41] [21 1 2]);
    }};
}

/// Keccak-p\[1600, `ROUNDS`\] (the last `ROUNDS` rounds) on eight
/// interleaved states.
#[target_feature(enable = "avx512f")]
fn keccak_p8<const ROUNDS: usize>(state: &mut [__m512i; 25]) {
    let mut a = *state;
    let mut e = a;
    for pair in round_constants::<ROUNDS>().chunks_exact(2) {
        round!(a, e, pair[0]);
        round!(e, a, pair[1]);
    }
    *state = a;
}

/// The little-endian 64-bit word at `bytes[at..at + 8]`.
#[inline(always)]
fn word(bytes: &[u8], at: usize) -> i64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    i64::from_le_bytes(w)
}

/// Absorb `data[i]` into `states[i]` for the eight lanes (FIPS 202 §4
/// Algorithm 8 step 6), each block followed by Keccak-p\[1600, `ROUNDS`\].
/// Every `data[i]` has the same length, a whole number of `RATE`-byte
/// blocks.
#[target_feature(enable = "avx512f")]
pub(super) fn absorb8<const RATE: usize, const ROUNDS: usize>(states: &mut [[u64; 25]; 8], data: [&[u8]; 8]) {
    assert!(
        data.iter().all(|d| d.len() == data[0].len()) && data[0].len().is_multiple_of(RATE),
        "absorb8: lanes need the same whole number of blocks"
    );
    let s = &*states;
    let mut a: [__m512i; 25] = core::array::from_fn(|i| {
        _mm512_set_epi64(
            s[7][i] as i64,
            s[6][i] as i64,
            s[5][i] as i64,
            s[4][i] as i64,
            s[3][i] as i64,
            s[2][i] as i64,
            s[1][i] as i64,
            s[0][i] as i64,
        )
    });
    let blocks = data[0].len() / RATE;
    for k in 0..blocks {
        let m = data.map(|d| &d[k * RATE..(k + 1) * RATE]);
        for (j, lane) in a.iter_mut().take(RATE / 8).enumerate() {
            let at = 8 * j;
            let w = _mm512_set_epi64(
                word(m[7], at),
                word(m[6], at),
                word(m[5], at),
                word(m[4], at),
                word(m[3], at),
                word(m[2], at),
                word(m[1], at),
                word(m[0], at),
            );
            *lane = _mm512_xor_si512(*lane, w);
        }
        keccak_p8::<ROUNDS>(&mut a);
    }
    for (i, lane) in a.iter().enumerate() {
        let lo = _mm512_castsi512_si256(*lane);
        let hi = _mm512_extracti64x4_epi64::<1>(*lane);
        states[0][i] = _mm256_extract_epi64::<0>(lo) as u64;
        states[1][i] = _mm256_extract_epi64::<1>(lo) as u64;
        states[2][i] = _mm256_extract_epi64::<2>(lo) as u64;
        states[3][i] = _mm256_extract_epi64::<3>(lo) as u64;
        states[4][i] = _mm256_extract_epi64::<0>(hi) as u64;
        states[5][i] = _mm256_extract_epi64::<1>(hi) as u64;
        states[6][i] = _mm256_extract_epi64::<2>(hi) as u64;
        states[7][i] = _mm256_extract_epi64::<3>(hi) as u64;
    }
}
