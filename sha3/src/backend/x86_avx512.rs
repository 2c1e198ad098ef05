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
//! compiled with AVX-512F; the only `unsafe` is the unaligned 64-byte loads
//! and stores of the transposes, each from a bounds-checked slice.

use core::arch::x86_64::{
    __m512i, _mm512_loadu_si512, _mm512_maskz_loadu_epi64, _mm512_permutex2var_epi64, _mm512_rol_epi64, _mm512_set_epi64, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_shuffle_i64x2, _mm512_storeu_si512, _mm512_ternarylogic_epi64, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi64, _mm512_xor_si512,
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
/// `portable::round` (same `[source column offset]` triples). θ's
/// D\[x\] = C\[x − 1\] ⊕ rot(C\[x + 1\], 1) is never formed: each lane takes
/// both terms in one three-input XOR, `dc[x]` = C\[x − 1\] and `dr[x]` =
/// rot(C\[x + 1\], 1), which saves θ's five two-input XORs per round.
macro_rules! plane {
    ($a:ident, $dc:ident, $dr:ident, $e:ident, $y:literal,
     [$s0:literal $d0:literal $r0:tt] [$s1:literal $d1:literal $r1:tt]
     [$s2:literal $d2:literal $r2:tt] [$s3:literal $d3:literal $r3:tt]
     [$s4:literal $d4:literal $r4:tt]) => {
        let b0 = rol!(xor3!($a[$s0], $dc[$d0], $dr[$d0]), $r0);
        let b1 = rol!(xor3!($a[$s1], $dc[$d1], $dr[$d1]), $r1);
        let b2 = rol!(xor3!($a[$s2], $dc[$d2], $dr[$d2]), $r2);
        let b3 = rol!(xor3!($a[$s3], $dc[$d3], $dr[$d3]), $r3);
        let b4 = rol!(xor3!($a[$s4], $dc[$d4], $dr[$d4]), $r4);
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
        let dc = [c4, c0, c1, c2, c3];
        let dr = [rol!(c1, 1), rol!(c2, 1), rol!(c3, 1), rol!(c4, 1), rol!(c0, 1)];
        plane!($a, dc, dr, $e, 0, [0 0 0] [6 1 44] [12 2 43] [18 3 21] [24 4 14]);
        // ι (§3.2.5).
        $e[0] = _mm512_xor_si512($e[0], _mm512_set1_epi64($rc as i64));
        plane!($a, dc, dr, $e, 1, [3 3 28] [9 4 20] [10 0 3] [16 1 45] [22 2 61]);
        plane!($a, dc, dr, $e, 2, [1 1 1] [7 2 6] [13 3 25] [19 4 8] [20 0 18]);
        plane!($a, dc, dr, $e, 3, [4 4 27] [5 0 36] [11 1 10] [17 2 15] [23 3 56]);
        plane!($a, dc, dr, $e, 4, [2 2 62] [8 3 55] [14 4 39] [15 0 41] [21 1 2]);
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

/// Transpose an 8 x 8 matrix of 64-bit words: `rows[i]` holds eight
/// consecutive words of lane `i`; element `i` of result `j` is word `j` of
/// lane `i`. Three stages of eight shuffles (the 8 x 8 transpose of XKCP's
/// and Intel's multi-buffer code): `vpunpck{l,h}qdq` pairs lanes 2i and
/// 2i + 1, `vpermt2q` gathers four lanes' words j and j + 4, `vshufi64x2`
/// joins the two halves. Results the caller does not use are dead code
/// once this is inlined.
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose(r: [__m512i; 8]) -> [__m512i; 8] {
    // Stage 1: t[2p] = words 0, 2, 4, 6 of lanes 2p and 2p + 1
    // interleaved; t[2p + 1] = words 1, 3, 5, 7.
    let t0 = _mm512_unpacklo_epi64(r[0], r[1]);
    let t1 = _mm512_unpackhi_epi64(r[0], r[1]);
    let t2 = _mm512_unpacklo_epi64(r[2], r[3]);
    let t3 = _mm512_unpackhi_epi64(r[2], r[3]);
    let t4 = _mm512_unpacklo_epi64(r[4], r[5]);
    let t5 = _mm512_unpackhi_epi64(r[4], r[5]);
    let t6 = _mm512_unpacklo_epi64(r[6], r[7]);
    let t7 = _mm512_unpackhi_epi64(r[6], r[7]);
    // Stage 2: words j and j + 4 of four lanes: elements 0, 1 of each
    // 128-bit pair of the first source, then of the second
    // (`_mm512_set_epi64` lists elements from the top).
    let even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    let odd = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    let u0 = _mm512_permutex2var_epi64(t0, even, t2); // words 0, 4 of lanes 0-3
    let u1 = _mm512_permutex2var_epi64(t0, odd, t2); // words 2, 6
    let u2 = _mm512_permutex2var_epi64(t1, even, t3); // words 1, 5
    let u3 = _mm512_permutex2var_epi64(t1, odd, t3); // words 3, 7
    let u4 = _mm512_permutex2var_epi64(t4, even, t6); // words 0, 4 of lanes 4-7
    let u5 = _mm512_permutex2var_epi64(t4, odd, t6);
    let u6 = _mm512_permutex2var_epi64(t5, even, t7);
    let u7 = _mm512_permutex2var_epi64(t5, odd, t7);
    // Stage 3: the low 256 bits of both (0x44) or the high ones (0xee).
    [
        _mm512_shuffle_i64x2::<0x44>(u0, u4),
        _mm512_shuffle_i64x2::<0x44>(u2, u6),
        _mm512_shuffle_i64x2::<0x44>(u1, u5),
        _mm512_shuffle_i64x2::<0x44>(u3, u7),
        _mm512_shuffle_i64x2::<0xee>(u0, u4),
        _mm512_shuffle_i64x2::<0xee>(u2, u6),
        _mm512_shuffle_i64x2::<0xee>(u1, u5),
        _mm512_shuffle_i64x2::<0xee>(u3, u7),
    ]
}

/// The eight little-endian 64-bit words at `bytes[at..at + 64]`.
#[target_feature(enable = "avx512f")]
#[inline]
fn load(bytes: &[u8], at: usize) -> __m512i {
    let row = &bytes[at..at + 64];
    // SAFETY: `row` is 64 readable bytes (the slice index above checks);
    // `vmovdqu64` needs no alignment. AVX-512F is enabled on this function.
    unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
}

/// Words `w..w + 8` (bytes `8 * w..8 * w + 64`) of eight lanes
/// (`[&[u8]; 8]`), transposed into one register per word. A macro, not a
/// function: LLVM left a function of this size out of line, passing the
/// eight registers through memory. (No closures or `array::map` either:
/// they would not inherit the target feature.)
macro_rules! load8 {
    ($lanes:expr, $w:expr) => {{
        let (lanes, at) = ($lanes, 8 * $w);
        transpose([
            load(lanes[0], at),
            load(lanes[1], at),
            load(lanes[2], at),
            load(lanes[3], at),
            load(lanes[4], at),
            load(lanes[5], at),
            load(lanes[6], at),
            load(lanes[7], at),
        ])
    }};
}

/// The 200 bytes of a state, little-endian words (x86-64 is little-endian).
#[inline]
fn as_bytes(state: &[u64; 25]) -> &[u8] {
    // SAFETY: a `[u64; 25]` is 200 initialised bytes with no padding, and
    // `u8` has no alignment or validity requirement; the shared borrow of
    // `state` covers the returned slice's lifetime.
    unsafe { core::slice::from_raw_parts(state.as_ptr().cast(), 200) }
}

/// Store `words` (word `w + j` of the eight states in `words[j]`) back
/// into the states.
#[target_feature(enable = "avx512f")]
#[inline]
fn store_states(states: &mut [[u64; 25]; 8], w: usize, words: [__m512i; 8]) {
    // The transpose is its own inverse.
    for (state, row) in states.iter_mut().zip(transpose(words)) {
        let out = &mut state[w..w + 8];
        // SAFETY: `out` is eight writable words (checked by the slice
        // index); `vmovdqu64` needs no alignment.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), row) }
    }
}

/// Absorb `data[i]` into `states[i]` for the eight lanes (FIPS 202 §4
/// Algorithm 8 step 6), each block followed by Keccak-p\[1600, `ROUNDS`\].
/// Every `data[i]` has the same length, a whole number of `RATE`-byte
/// blocks.
///
/// The states and each block's message words go in and out of the
/// registers by 8 x 8 transposes of full-width loads ([`transpose`]), 64
/// bytes of each lane at a time: three shuffles per word where inserting
/// the words one by one takes about seven. A rate that is not a multiple
/// of 64 bytes (all of them: 72 to 168 bytes, at least 9 words) ends with
/// one overlapping load of the block's last 64 bytes, of which only the
/// words not yet absorbed are used; the state's 25th word likewise comes
/// from a load of words 17 to 24.
#[target_feature(enable = "avx512f")]
pub(super) fn absorb8<const RATE: usize, const ROUNDS: usize>(states: &mut [[u64; 25]; 8], data: [&[u8]; 8]) {
    const { assert!(RATE.is_multiple_of(8) && RATE >= 64 && RATE <= 200) };
    assert!(
        data.iter().all(|d| d.len() == data[0].len()) && data[0].len().is_multiple_of(RATE),
        "absorb8: lanes need the same whole number of blocks"
    );
    let mut a = [_mm512_setzero_si512(); 25];
    {
        let s = &*states;
        let rows = [
            as_bytes(&s[0]),
            as_bytes(&s[1]),
            as_bytes(&s[2]),
            as_bytes(&s[3]),
            as_bytes(&s[4]),
            as_bytes(&s[5]),
            as_bytes(&s[6]),
            as_bytes(&s[7]),
        ];
        for w in [0, 8, 16] {
            a[w..w + 8].copy_from_slice(&load8!(rows, w));
        }
        a[24] = load8!(rows, 17)[7];
    }
    let words = RATE / 8;
    for k in 0..data[0].len() / RATE {
        let at = k * RATE;
        // Exactly one block per lane: with the length a constant, LLVM
        // proves every load below in bounds.
        let block = [
            &data[0][at..at + RATE],
            &data[1][at..at + RATE],
            &data[2][at..at + RATE],
            &data[3][at..at + RATE],
            &data[4][at..at + RATE],
            &data[5][at..at + RATE],
            &data[6][at..at + RATE],
            &data[7][at..at + RATE],
        ];
        let mut w = 0;
        while w + 8 <= words {
            let m = load8!(block, w);
            for (lane, m) in a[w..w + 8].iter_mut().zip(m) {
                *lane = _mm512_xor_si512(*lane, m);
            }
            w += 8;
        }
        if w < words {
            // The last `words - w` words: the top of a transpose of the
            // block's last 64 bytes.
            let m = load8!(block, words - 8);
            for (lane, m) in a[w..words].iter_mut().zip(&m[8 - (words - w)..]) {
                *lane = _mm512_xor_si512(*lane, *m);
            }
        }
        keccak_p8::<ROUNDS>(&mut a);
    }
    for w in [0, 8, 16, 17] {
        store_states(states, w, a[w..w + 8].try_into().unwrap());
    }
}

/// Eight pairs of `NODE`-byte nodes hashed in one go (`hash_pairs`):
/// `out[i]` = the sponge of `nodes[2i] || nodes[2i + 1]` with domain byte
/// `domain` and rate `RATE` bytes. The pairs' words are transposed into
/// registers once and absorbed from there, the padding's two constant
/// lanes set (FIPS 202 §5.1, §B.2) and the digests transposed out: one
/// permutation per pair where a pair and its padding fit in one block
/// (SHA3-224, SHA3-256, SHA3-384, Keccak-256), two for SHA3-512's 128-byte
/// pairs in its 72-byte rate; [`absorb8`] would also move all 25 words of
/// every state in and out and a whole block per lane.
#[target_feature(enable = "avx512f")]
pub(super) fn pairs8<const RATE: usize, const NODE: usize>(domain: u8, nodes: &[[u8; NODE]; 16], out: &mut [[u8; NODE]; 8]) {
    // Folded away for every caller (the digests are 28 to 64 bytes).
    assert!(NODE.is_multiple_of(4) && NODE <= 64 && RATE.is_multiple_of(8) && RATE <= 200, "pairs8: 28- to 64-byte nodes");
    let (words, rate) = (2 * NODE / 8, RATE / 8);
    let bytes = nodes.as_flattened();
    // m[w] = word w of the eight pairs.
    let mut m = [_mm512_setzero_si512(); 16];
    for chunk in 0..words.div_ceil(8) {
        let take = (words - 8 * chunk).min(8);
        // The low `take` elements.
        let mask = ((1u16 << take) - 1) as u8;
        let rows: [__m512i; 8] = core::array::from_fn(|lane| {
            let row = &bytes[lane * 2 * NODE + 64 * chunk..][..8 * take];
            // SAFETY: `row` is `8 * take` readable bytes (the slice index
            // checks); the masked load reads only the first `take` words
            // (masked-off elements are not accessed and do not fault) and
            // needs no alignment. AVX-512F is enabled on this function.
            unsafe { _mm512_maskz_loadu_epi64(mask, row.as_ptr().cast()) }
        });
        m[8 * chunk..8 * chunk + 8].copy_from_slice(&transpose(rows));
    }
    let mut a = [_mm512_setzero_si512(); 25];
    // Whole blocks, then the last one: the pair's remaining words (maybe
    // none) and the padding, whose first and last bytes may share a word.
    let full = words / rate;
    for block in 0..=full {
        let from = block * rate;
        let to = words.min(from + rate);
        for (lane, word) in a.iter_mut().zip(&m[from..to]) {
            *lane = _mm512_xor_si512(*lane, *word);
        }
        if block == full {
            a[to - from] = _mm512_xor_si512(a[to - from], _mm512_set1_epi64(i64::from(domain)));
            a[rate - 1] = _mm512_xor_si512(a[rate - 1], _mm512_set1_epi64(i64::MIN));
        }
        keccak_p8::<24>(&mut a);
    }
    for (lane, row) in out.iter_mut().zip(transpose(a[..8].try_into().unwrap())) {
        let mut digest = [0u8; 64];
        // SAFETY: `digest` is 64 writable bytes; `vmovdqu64` needs no
        // alignment.
        unsafe { _mm512_storeu_si512(digest.as_mut_ptr().cast(), row) };
        lane.copy_from_slice(&digest[..NODE]);
    }
}
