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
//! AVX2; the only `unsafe` is the unaligned loads and stores of the
//! transposes, each from a bounds-checked slice.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_andnot_si256, _mm256_loadu2_m128i, _mm256_or_si256, _mm256_permute2x128_si256,
    _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi64,
    _mm256_srli_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
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

/// Transpose a 4 x 4 matrix of 64-bit words whose rows come in halves:
/// `lo[i]` holds words 0 and 1 of lanes `i` (low 128 bits) and `i + 2`
/// (high 128 bits), `hi[i]` words 2 and 3 of the same lanes. Element `i`
/// of result `j` is word `j` of lane `i`. The halves are put together by
/// the loads (`vinserti128` from memory, which runs on any vector port);
/// what is left is one `vpunpck{l,h}qdq` per word.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose(lo: [__m256i; 2], hi: [__m256i; 2]) -> [__m256i; 4] {
    [
        _mm256_unpacklo_epi64(lo[0], lo[1]),
        _mm256_unpackhi_epi64(lo[0], lo[1]),
        _mm256_unpacklo_epi64(hi[0], hi[1]),
        _mm256_unpackhi_epi64(hi[0], hi[1]),
    ]
}

/// Bytes `at..at + 16` of `low` in the low 128 bits, of `high` in the
/// high ones (`vmovdqu`, then `vinserti128` from memory).
#[target_feature(enable = "avx2")]
#[inline]
fn load_pair(low: &[u8], high: &[u8], at: usize) -> __m256i {
    let (low, high) = (&low[at..at + 16], &high[at..at + 16]);
    // SAFETY: `low` and `high` are 16 readable bytes each (checked by the
    // slice indices); `vmovdqu` and `vinserti128` need no alignment. AVX2
    // is enabled on this function.
    unsafe { _mm256_loadu2_m128i(high.as_ptr().cast(), low.as_ptr().cast()) }
}

/// Words `w..w + 4` (bytes `8 * w..8 * w + 32`) of four lanes
/// (`[&[u8]; 4]`), transposed into one register per word. A macro, not a
/// function: LLVM left a function of this size out of line. (No closures
/// or `array::map` either: they would not inherit the target feature.)
macro_rules! load4 {
    ($lanes:expr, $w:expr) => {{
        let (lanes, at) = ($lanes, 8 * $w);
        transpose(
            [load_pair(lanes[0], lanes[2], at), load_pair(lanes[1], lanes[3], at)],
            [load_pair(lanes[0], lanes[2], at + 16), load_pair(lanes[1], lanes[3], at + 16)],
        )
    }};
}

/// Store `words` (word `w + j` of the four states in `words[j]`) back
/// into the states.
#[target_feature(enable = "avx2")]
#[inline]
fn store4(states: &mut [[u64; 25]; 4], w: usize, words: [__m256i; 4]) {
    // Rows of lanes 0 and 1 (low halves) and 2 and 3 (high halves): the
    // first stage of the transpose, then the 128-bit halves go to their
    // lanes.
    let lo = [_mm256_unpacklo_epi64(words[0], words[1]), _mm256_unpacklo_epi64(words[2], words[3])];
    let hi = [_mm256_unpackhi_epi64(words[0], words[1]), _mm256_unpackhi_epi64(words[2], words[3])];
    // lo[0]: words w, w + 1 of lane 0 (low half) and of lane 2 (high
    // half); lo[1] the same for words w + 2, w + 3; hi[..] for lanes 1, 3.
    let rows = [
        _mm256_permute2x128_si256::<0x20>(lo[0], lo[1]),
        _mm256_permute2x128_si256::<0x20>(hi[0], hi[1]),
        _mm256_permute2x128_si256::<0x31>(lo[0], lo[1]),
        _mm256_permute2x128_si256::<0x31>(hi[0], hi[1]),
    ];
    for (state, row) in states.iter_mut().zip(rows) {
        let out = &mut state[w..w + 4];
        // SAFETY: `out` is four writable words (checked by the slice
        // index); `vmovdqu` needs no alignment.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), row) }
    }
}

/// Absorb `data[i]` into `states[i]` for the four lanes (FIPS 202 §4
/// Algorithm 8 step 6). Every `data[i]` has the same length, a whole number
/// of `RATE`-byte blocks; each block is followed by Keccak-p\[1600,
/// `ROUNDS`\].
///
/// The states and each block's message words go in and out of the
/// registers by 4 x 4 transposes of 32 bytes per lane (two shuffles per
/// word where inserting the words one by one takes about three); a rate
/// that is not a multiple of 32 bytes (every rate here, 72 to 168 bytes)
/// ends with one overlapping load of the block's last 32 bytes, and
/// the state's 25th word comes from words 21 to 24.
#[target_feature(enable = "avx2")]
pub(super) fn absorb4<const RATE: usize, const ROUNDS: usize>(states: &mut [[u64; 25]; 4], data: [&[u8]; 4]) {
    const { assert!(RATE.is_multiple_of(8) && RATE >= 32 && RATE <= 200) };
    assert!(
        data.iter().all(|d| d.len() == data[0].len()) && data[0].len().is_multiple_of(RATE),
        "absorb4: lanes need the same whole number of blocks"
    );
    let mut a = [_mm256_setzero_si256(); 25];
    {
        let rows = [as_bytes(&states[0]), as_bytes(&states[1]), as_bytes(&states[2]), as_bytes(&states[3])];
        for w in [0, 4, 8, 12, 16, 20] {
            a[w..w + 4].copy_from_slice(&load4!(rows, w));
        }
        a[24] = load4!(rows, 21)[3];
    }
    let words = RATE / 8;
    for k in 0..data[0].len() / RATE {
        let at = k * RATE;
        let block = [&data[0][at..], &data[1][at..], &data[2][at..], &data[3][at..]];
        let mut w = 0;
        while w + 4 <= words {
            for (lane, m) in a[w..w + 4].iter_mut().zip(load4!(block, w)) {
                *lane = _mm256_xor_si256(*lane, m);
            }
            w += 4;
        }
        if w < words {
            // The last `words - w` words: the top of a transpose of the
            // block's last 32 bytes.
            let m = load4!(block, words - 4);
            for (lane, m) in a[w..words].iter_mut().zip(&m[4 - (words - w)..]) {
                *lane = _mm256_xor_si256(*lane, *m);
            }
        }
        keccak_p4::<ROUNDS>(&mut a);
    }
    for w in [0, 4, 8, 12, 16, 20, 21] {
        store4(states, w, a[w..w + 4].try_into().unwrap());
    }
}

/// The 200 bytes of a state, little-endian words (x86-64 is little-endian).
#[inline]
fn as_bytes(state: &[u64; 25]) -> &[u8] {
    // SAFETY: a `[u64; 25]` is 200 initialised bytes with no padding, and
    // `u8` has no alignment or validity requirement; the shared borrow of
    // `state` covers the returned slice's lifetime.
    unsafe { core::slice::from_raw_parts(state.as_ptr().cast(), 200) }
}
