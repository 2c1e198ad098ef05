//! The AVX-512 batch engine: eight messages at once, one per 64-bit lane of
//! the `zmm` registers (FIPS 180-4 §6.4.2 in every lane).
//!
//! Each lane's block is loaded as two rows of eight words and transposed, so
//! that one register holds word t of every lane. AVX-512F has true 64-bit
//! rotations (`vprorq`) and three-input logic (`vpternlogq`), so Σ0, Σ1, σ0
//! and σ1 take four instructions each and Ch and Maj one each, where AVX2
//! needs two shifts and an OR per rotation.
//!
//! One message goes through the single-stream code of `Backend::Avx512`
//! (`super::x86_avx2::compress_vl`: general-register rounds, AVX-512VL
//! schedule): SHA-512 rounds form one dependency chain, which general
//! registers run best.

use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_set_epi8, _mm512_set1_epi64,
    _mm512_shuffle_epi8, _mm512_shuffle_i64x2, _mm512_storeu_si512, _mm512_ternarylogic_epi64,
    _mm512_unpackhi_epi64, _mm512_unpacklo_epi64,
};

use hash_core::FixedAlgorithm;
use hash_core::typenum::U128;

use crate::consts::{K, PAD128_WK};

/// Lanes of the engine.
const LANES: usize = 8;

/// The fewest busy lanes for which one step of the engine beats finishing
/// the remaining messages one at a time on the single-stream path: an
/// eight-lane step costs about as much as three or four single-stream
/// blocks (measured on an AMD EPYC with AVX-512).
const MIN_ACTIVE: usize = 4;

/// `vpternlogq` truth tables: Ch(x, y, z) = x ? y : z, and Maj(x, y, z)
/// (x ⊕ y ⊕ z, 0x96, is in the σ and Σ functions).
const CH: i32 = 0xca;
const MAJ: i32 = 0xe8;

/// Transpose an 8×8 matrix of 64-bit words held as eight rows: word `j` of
/// row `i` moves to word `i` of row `j`.
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose8(r: [__m512i; 8]) -> [__m512i; 8] {
    // Pairs of rows interleaved: t[2k] holds words 0, 2, 4, 6 and t[2k+1]
    // words 1, 3, 5, 7 of rows 2k and 2k+1, in 128-bit units.
    let t: [__m512i; 8] = core::array::from_fn(|i| {
        let (a, b) = (r[i / 2 * 2], r[i / 2 * 2 + 1]);
        if i % 2 == 0 { _mm512_unpacklo_epi64(a, b) } else { _mm512_unpackhi_epi64(a, b) }
    });
    // 128-bit units gathered in twos: u[0] = words 0 and 4 of rows 0..4,
    // u[1] = words 2, 6, u[2] = 1, 5, u[3] = 3, 7; u[4..8] the same for
    // rows 4..8.
    let u = [
        _mm512_shuffle_i64x2::<0x88>(t[0], t[2]),
        _mm512_shuffle_i64x2::<0xdd>(t[0], t[2]),
        _mm512_shuffle_i64x2::<0x88>(t[1], t[3]),
        _mm512_shuffle_i64x2::<0xdd>(t[1], t[3]),
        _mm512_shuffle_i64x2::<0x88>(t[4], t[6]),
        _mm512_shuffle_i64x2::<0xdd>(t[4], t[6]),
        _mm512_shuffle_i64x2::<0x88>(t[5], t[7]),
        _mm512_shuffle_i64x2::<0xdd>(t[5], t[7]),
    ];
    [
        _mm512_shuffle_i64x2::<0x88>(u[0], u[4]),
        _mm512_shuffle_i64x2::<0x88>(u[2], u[6]),
        _mm512_shuffle_i64x2::<0x88>(u[1], u[5]),
        _mm512_shuffle_i64x2::<0x88>(u[3], u[7]),
        _mm512_shuffle_i64x2::<0xdd>(u[0], u[4]),
        _mm512_shuffle_i64x2::<0xdd>(u[2], u[6]),
        _mm512_shuffle_i64x2::<0xdd>(u[1], u[5]),
        _mm512_shuffle_i64x2::<0xdd>(u[3], u[7]),
    ]
}

/// 64 bytes at `bytes[at..at + 64]`.
#[inline]
#[target_feature(enable = "avx512f")]
fn load64(bytes: &[u8], at: usize) -> __m512i {
    let chunk = &bytes[at..at + 64];
    // SAFETY: `chunk` is 64 readable bytes (indexing checked it), and
    // `vmovdqu64` has no alignment requirement.
    unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
}

/// `vpshufb` control that reverses the bytes of each 64-bit word
/// (big-endian message words, §3.1).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn bswap64_mask() -> __m512i {
    _mm512_set_epi8(
        56, 57, 58, 59, 60, 61, 62, 63, 48, 49, 50, 51, 52, 53, 54, 55, 40, 41, 42, 43, 44, 45, 46, 47, 32, 33, 34, 35,
        36, 37, 38, 39, 24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15,
        0, 1, 2, 3, 4, 5, 6, 7,
    )
}

// σ0, σ1 (§4.1.3, (4.12), (4.13)) and Σ0, Σ1 ((4.10), (4.11)) of every
// lane: ROTR 1 ⊕ ROTR 8 ⊕ SHR 7, ROTR 19 ⊕ ROTR 61 ⊕ SHR 6, ROTR 28 ⊕
// ROTR 34 ⊕ ROTR 39, ROTR 14 ⊕ ROTR 18 ⊕ ROTR 41.
hash_core::sha2_sigmas_avx512!(epi64, "avx512f", [1, 8, 7] [19, 61, 6] [28, 34, 39] [14, 18, 41]);

/// W[16..80] from W[0..16] in every lane (§6.4.2 step 1).
#[inline]
#[target_feature(enable = "avx512f")]
fn schedule(w: &mut [__m512i; 80]) {
    for t in 16..80 {
        w[t] = _mm512_add_epi64(
            _mm512_add_epi64(small_sigma1(w[t - 2]), w[t - 7]),
            _mm512_add_epi64(small_sigma0(w[t - 15]), w[t - 16]),
        );
    }
}

/// The 80 rounds (§6.4.2 step 3) of every lane from the working variables
/// `s`, with `W[t] + K[t]` from `wk(t)`: the working variables after them.
/// Eight rounds per iteration, so that the names come back to where they
/// started.
#[inline]
#[target_feature(enable = "avx512f")]
fn rounds80(mut s: [__m512i; 8], wk: impl Fn(usize) -> __m512i) -> [__m512i; 8] {
    for t in (0..80).step_by(8) {
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = s;
        macro_rules! round {
            ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $i:expr) => {
                // T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t].
                let ch = _mm512_ternarylogic_epi64::<CH>($e, $f, $g);
                let t1 = _mm512_add_epi64(_mm512_add_epi64($h, wk(t + $i)), _mm512_add_epi64(ch, big_sigma1($e)));
                // T2 = Σ0(a) + Maj(a, b, c).
                let maj = _mm512_ternarylogic_epi64::<MAJ>($a, $b, $c);
                $d = _mm512_add_epi64($d, t1);
                $h = _mm512_add_epi64(t1, _mm512_add_epi64(big_sigma0($a), maj));
            };
        }
        round!(a, b, c, d, e, f, g, h, 0);
        round!(h, a, b, c, d, e, f, g, 1);
        round!(g, h, a, b, c, d, e, f, 2);
        round!(f, g, h, a, b, c, d, e, 3);
        round!(e, f, g, h, a, b, c, d, 4);
        round!(d, e, f, g, h, a, b, c, 5);
        round!(c, d, e, f, g, h, a, b, 6);
        round!(b, c, d, e, f, g, h, a, 7);
        s = [a, b, c, d, e, f, g, h];
    }
    s
}

/// Compress eight independent streams at once, one per 64-bit lane:
/// `data[i]` into `states[i]`. All `data[i]` have the same length, a whole
/// number of 128-byte blocks.
#[target_feature(enable = "avx512f,avx512bw")]
fn compress8(states: &mut [[u64; 8]; LANES], data: [&[u8]; LANES]) {
    let len = data[0].len();
    assert!(data.iter().all(|d| d.len() == len) && len.is_multiple_of(128), "lanes get equal whole blocks");

    // The state, transposed: `v[j]` holds working variable j of every lane.
    let rows: [__m512i; LANES] = core::array::from_fn(|i| {
        // SAFETY: `states[i]` is 64 readable bytes, and `vmovdqu64` has no
        // alignment requirement.
        unsafe { _mm512_loadu_si512(states[i].as_ptr().cast()) }
    });
    let mut v = transpose8(rows);

    let bswap = bswap64_mask();
    let mut w = [v[0]; 80];
    for at in (0..len).step_by(128) {
        // W[0..16] (§6.4.2 step 1): eight words of each lane per load,
        // transposed so that `w[t]` holds word t of every lane.
        for half in 0..2 {
            let rows = core::array::from_fn(|i| _mm512_shuffle_epi8(load64(data[i], at + 64 * half), bswap));
            w[8 * half..8 * half + 8].copy_from_slice(&transpose8(rows));
        }
        schedule(&mut w);
        let s = rounds80(v, |t| _mm512_add_epi64(w[t], _mm512_set1_epi64(K[t] as i64)));
        // Step 4: the intermediate hash value.
        for (x, y) in v.iter_mut().zip(s) {
            *x = _mm512_add_epi64(*x, y);
        }
    }

    for (state, row) in states.iter_mut().zip(transpose8(v)) {
        // SAFETY: `state` is 64 writable bytes, and `vmovdqu64` has no
        // alignment requirement.
        unsafe { _mm512_storeu_si512(state.as_mut_ptr().cast(), row) }
    }
}

/// `out[i]` = SHA-512 (from `init`) of `pairs[i]`, a 128-byte message (two
/// 64-byte digests), for eight pairs in the lanes: the pair's block with
/// its schedule, then the padding block, which is the same for every
/// 128-byte message, with `W + K` a constant ([`PAD128_WK`]: no schedule,
/// a broadcast per round).
#[target_feature(enable = "avx512f,avx512bw")]
fn pairs8(init: &[u64; 8], pairs: &[[u8; 128]; LANES], out: &mut [[u8; 64]; LANES]) {
    let bswap = bswap64_mask();
    let mut w = [_mm512_set1_epi64(0); 80];
    for half in 0..2 {
        let rows = core::array::from_fn(|i| _mm512_shuffle_epi8(load64(&pairs[i], 64 * half), bswap));
        w[8 * half..8 * half + 8].copy_from_slice(&transpose8(rows));
    }
    schedule(&mut w);
    let v0: [__m512i; 8] = core::array::from_fn(|j| _mm512_set1_epi64(init[j] as i64));
    let first = rounds80(v0, |t| _mm512_add_epi64(w[t], _mm512_set1_epi64(K[t] as i64)));
    let v1: [__m512i; 8] = core::array::from_fn(|j| _mm512_add_epi64(v0[j], first[j]));
    let second = rounds80(v1, |t| _mm512_set1_epi64(PAD128_WK[t] as i64));
    let v2: [__m512i; 8] = core::array::from_fn(|j| _mm512_add_epi64(v1[j], second[j]));
    // Lane i's state in row i, each word big-endian (§6.4.2, final step).
    for (digest, row) in out.iter_mut().zip(transpose8(v2)) {
        let bytes = _mm512_shuffle_epi8(row, bswap);
        // SAFETY: `digest` is 64 writable bytes, and `vmovdqu64` has no
        // alignment requirement.
        unsafe { _mm512_storeu_si512(digest.as_mut_ptr().cast(), bytes) }
    }
}

/// `out[i]` = SHA-512 (from `init`) of `pairs[i]` for every whole group of
/// eight pairs (see [`pairs8`]); returns how many pairs that was, for the
/// caller to finish the rest another way.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn hash_pairs128(init: &[u64; 8], pairs: &[[u8; 128]], out: &mut [[u8; 64]]) -> usize {
    assert_eq!(pairs.len(), out.len(), "hash_pairs128: one output slot per 128-byte message");
    let (groups, _) = pairs.as_chunks::<LANES>();
    let (slots, _) = out.as_chunks_mut::<LANES>();
    for (group, slot) in groups.iter().zip(slots.iter_mut()) {
        pairs8(init, group, slot);
    }
    groups.len() * LANES
}

/// Hash each of `inputs` into the matching slot of `outputs`, eight
/// messages at a time on [`compress8`]; once fewer than [`MIN_ACTIVE`]
/// lanes would be busy, the rest go through `Backend::Avx512`'s
/// single-stream path (`super::x86_avx2::compress_vl`).
#[target_feature(enable = "avx512f,avx512bw,avx2,bmi1,bmi2")]
pub(super) fn digest_many<A>(inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<Backend = super::Backend, State = [u64; 8], BlockSize = U128>,
{
    hash_core::multi::digest_many_lanes::<A, LANES>(
        super::Backend::Avx512,
        inputs,
        outputs,
        MIN_ACTIVE,
        |states, data| compress8(states, data),
    );
}
