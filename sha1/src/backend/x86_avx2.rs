//! SHA-1 with AVX2 and BMI (FIPS 180-4 §6.1.2), in two engines.
//!
//! **One message** (`compress`): the message schedule W[t] + K[t] is
//! computed with SIMD ahead of the rounds, two blocks at a time (block i in
//! the low 128 bits of each `ymm` register, block i+1 in the high 128
//! bits), and stored to the stack; the rounds then run on scalar registers,
//! where BMI2's `rorx` rotates without a copy and BMI1's `andn` computes
//! ¬x ∧ z in one instruction. This is the approach of Locktyukhin's
//! "Improving the performance of the Secure Hash Algorithm (SHA-1)" (Intel,
//! 2010), as in OpenSSL's AVX2 SHA-1 path. The schedule of the next pair
//! of blocks is computed a step at a time between the rounds of the
//! current pair, so that the vector unit works while the scalar rounds
//! wait on their latency chain (computed all at once ahead of the pair,
//! the schedule's own dependency chain stalled the rounds: measured 1.5
//! times the time of the pipelined version).
//!
//! Words 16..31 use the schedule as defined (§6.1.2 step 1),
//!
//! ```text
//! W[t] = ROTL¹(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]),
//! ```
//!
//! four words per vector. W[t-3] of the fourth word is the first word of
//! the same vector, so it is left out and patched in afterwards. Words
//! 32..79 use the equivalent recurrence
//!
//! ```text
//! W[t] = ROTL²(W[t-6] ⊕ W[t-16] ⊕ W[t-28] ⊕ W[t-32])   (t ≥ 32),
//! ```
//!
//! obtained by expanding each term of the first once more; no word of a
//! vector depends on another word of the same vector.
//!
//! **Batches** (`compress_lanes`): eight messages in the eight 32-bit lanes
//! of `ymm` registers, every round computed for all eight at once; each
//! block's words are brought into lanes by two 8×8 transposes.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_storeu_si128, _mm256_add_epi32, _mm256_alignr_epi8, _mm256_and_si256,
    _mm256_bslli_epi128, _mm256_bsrli_epi128, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_m128i,
    _mm256_set1_epi32, _mm256_setr_epi8, _mm256_setr_epi32, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    _mm256_xor_si256,
};

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::K;

/// ROTLⁿ of every 32-bit lane (§3.2); `$r` is 32 - `$l`.
macro_rules! rol {
    ($x:expr, $l:literal, $r:literal) => {{
        let x = $x;
        _mm256_or_si256(_mm256_slli_epi32::<$l>(x), _mm256_srli_epi32::<$r>(x))
    }};
}

/// Byte order within each 32-bit word reversed: big-endian words (§3.1).
#[inline]
#[target_feature(enable = "avx2")]
fn bswap_mask() -> __m256i {
    #[rustfmt::skip]
    let mask = _mm256_setr_epi8(
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
        3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
    );
    mask
}

/// 16 bytes of `bytes` from `at`.
#[inline(always)]
fn load128(bytes: &[u8; 64], at: usize) -> __m128i {
    let chunk: &[u8] = &bytes[at..at + 16];
    // SAFETY: `chunk` is 16 readable bytes (the slice index checked it);
    // `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) }
}

/// A 64-byte slice as an array (one length check, folded away where the
/// length is known).
#[inline(always)]
fn as_array(block: &[u8]) -> &[u8; 64] {
    match block.try_into() {
        Ok(b) => b,
        Err(_) => unreachable!("blocks are 64 bytes"),
    }
}

// ---------------------------------------------------------------------------
// One message: SIMD schedule, scalar rounds.
// ---------------------------------------------------------------------------

/// The fewest blocks in one call for which the SIMD schedule pays. On an
/// Intel Xeon (Sapphire Rapids class) a one-shot SHA-1 of 64, 128 and 256
/// bytes (the last call holding two blocks; the first, up to three) took
/// 194, 266 and 440 ns with it from two blocks on, against 172, 241 and
/// 397 ns with scalar rounds only (BMI2 compiled in); 512 bytes: 687
/// against 721 ns.
const SIMD_MIN_BLOCKS: usize = 4;

/// Compress `blocks` into `state`.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[Block<U64>]) {
    let mut h = *state;
    if blocks.len() < SIMD_MIN_BLOCKS {
        // The first pair's schedule runs before any round (nothing to
        // overlap it with), so a short run costs more than scalar rounds
        // with the schedule interleaved.
        for block in blocks {
            h = super::portable::compress_block(h, block, &core::hint::black_box(K));
        }
        *state = h;
        return;
    }
    let mut pairs = blocks.chunks_exact(2);
    let rest = pairs.remainder();
    if let Some(first) = pairs.next() {
        // Software pipelining: the rounds of one pair run while the
        // schedule of the next is computed, a step every five rounds, so
        // the schedule's dependency chain never holds up the rounds.
        let (mut wk_a, mut wk_b) = ([0u32; 160], [0u32; 160]);
        let (mut cur, mut next) = (&mut wk_a, &mut wk_b);
        let mut w = [_mm256_set1_epi32(0); 20];
        for j in 0..20 {
            schedule_step(&mut w, cur, None, j, as_array(&first[0]), as_array(&first[1]));
        }
        loop {
            match pairs.next() {
                Some(pair) => {
                    let (lo, hi) = (as_array(&pair[0]), as_array(&pair[1]));
                    h = pair_rounds::<true, false>(h, cur, &mut w, next, None, lo, hi);
                    core::mem::swap(&mut cur, &mut next);
                }
                None => {
                    // Nothing to schedule: the step arguments are unused.
                    let lo = as_array(&first[0]);
                    h = pair_rounds::<false, false>(h, cur, &mut w, next, None, lo, lo);
                    break;
                }
            }
        }
    }
    if let [last] = rest {
        // An odd block out (a short message's only block, often): the
        // scalar rounds with the schedule interleaved cost less than a SIMD
        // schedule of which half is wasted.
        h = super::portable::compress_block(h, last, &core::hint::black_box(K));
    }
    *state = h;
}

/// Step `j` of the SIMD schedule of blocks `lo` and `hi`: W[4j..4j+4] of
/// both into `w[j]` (`lo` in the low 128 bits), and W + K into `wk`, word t
/// of `lo` at [`wk_index`]`(t)`, of `hi` four words further. Steps run in
/// order, each using the vectors of the ones before it.
#[inline]
#[target_feature(enable = "avx2")]
fn schedule_step(
    w: &mut [__m256i; 20],
    wk: &mut [u32; 160],
    keep: Option<&mut [[u32; 80]; 2]>,
    j: usize,
    lo: &[u8; 64],
    hi: &[u8; 64],
) {
    w[j] = if j < 4 {
        // t = 0..15: the message words.
        let both = _mm256_set_m128i(load128(hi, 16 * j), load128(lo, 16 * j));
        _mm256_shuffle_epi8(both, bswap_mask())
    } else if j < 8 {
        // t = 16..31: ROTL¹(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]).
        // (W[t-14], .., W[t-11]) from the vectors of t-16 and t-12.
        let t14 = _mm256_alignr_epi8::<8>(w[j - 3], w[j - 4]);
        // (W[t-3], W[t-2], W[t-1], 0).
        let t3 = _mm256_bsrli_epi128::<4>(w[j - 1]);
        let x = _mm256_xor_si256(_mm256_xor_si256(w[j - 4], t14), _mm256_xor_si256(w[j - 2], t3));
        let r = rol!(x, 1, 31);
        // The fourth word still lacks W[t-3] = W[4j], the first word of
        // this vector: ROTL¹(x₃ ⊕ ROTL¹(x₀)) = r₃ ⊕ ROTL²(x₀).
        let x0 = _mm256_bslli_epi128::<12>(x);
        _mm256_xor_si256(r, rol!(x0, 2, 30))
    } else {
        // t = 32..79: ROTL²(W[t-6] ⊕ W[t-16] ⊕ W[t-28] ⊕ W[t-32]).
        let t6 = _mm256_alignr_epi8::<8>(w[j - 1], w[j - 2]);
        let x = _mm256_xor_si256(_mm256_xor_si256(t6, w[j - 4]), _mm256_xor_si256(w[j - 7], w[j - 8]));
        rol!(x, 2, 30)
    };
    if let Some(keep) = keep {
        // W itself, each block's words in order (the collision detection's
        // filter and checks read them).
        for (half, words) in keep.iter_mut().enumerate() {
            let v = if half == 0 { _mm256_castsi256_si128(w[j]) } else { _mm256_extracti128_si256::<1>(w[j]) };
            let out: &mut [u32] = &mut words[4 * j..4 * j + 4];
            // SAFETY: `out` is 16 writable bytes (the slice index checked
            // it); `storeu` has no alignment requirement.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), v) };
        }
    }
    let sum = _mm256_add_epi32(w[j], _mm256_set1_epi32(K[j / 5] as i32));
    let out: &mut [u32] = &mut wk[8 * j..8 * j + 8];
    // SAFETY: `out` is 32 writable bytes (the slice index checked it);
    // `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), sum) };
}

/// Where W[t] + K[t] of the low block sits in the output of
/// [`schedule_step`].
#[inline(always)]
const fn wk_index(t: usize) -> usize {
    8 * (t / 4) + t % 4
}

/// The 80 rounds (§6.1.2 step 3) of the two blocks whose W + K is in `wk`,
/// one after the other, each followed by step 4; returns H(i+2). With
/// `SCHEDULE`, the schedule of the next pair (`lo`, `hi`) is computed into
/// `wk_next` meanwhile. With `KEEP` (the collision detection's instances,
/// see [`compress_pairs_kept`]; separate from the plain backend's, whose
/// code stays as it was), the states before steps 58 and 65 and the
/// chaining value between the blocks go into `keep.0`, and the next pair's
/// W into `keep.1`.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
#[allow(clippy::too_many_arguments)] // the pipeline's buffers, one by one
fn pair_rounds<const SCHEDULE: bool, const KEEP: bool>(
    mut h: [u32; 5],
    wk: &[u32; 160],
    w: &mut [__m256i; 20],
    wk_next: &mut [u32; 160],
    mut keep: Option<(&mut Kept, &mut [[u32; 80]; 2])>,
    lo: &[u8; 64],
    hi: &[u8; 64],
) -> [u32; 5] {
    // The working variables (declared before the macros that name them).
    let (mut a, mut b, mut c, mut d, mut e): (u32, u32, u32, u32, u32);

    // T = ROTL⁵(a) + f(b, c, d) + e + (K + W); then the names rotate and
    // only b changes in place, to ROTL³⁰(b). `f` adds its terms into e
    // itself, so that disjoint terms need no OR.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $half:expr, $t:expr) => {
            $e = $e.wrapping_add(wk[wk_index($t) + $half]);
            $f!($e, $b, $c, $d);
            $e = $e.wrapping_add($a.rotate_left(5));
            $b = $b.rotate_left(30);
        };
    }
    // Ch (§4.1.1): (x ∧ y) and (¬x ∧ z) never share a bit, so both are
    // added; `andn` computes the second.
    macro_rules! ch {
        ($e:ident, $x:ident, $y:ident, $z:ident) => {
            $e = $e.wrapping_add(!$x & $z).wrapping_add($x & $y);
        };
    }
    macro_rules! parity {
        ($e:ident, $x:ident, $y:ident, $z:ident) => {
            $e = $e.wrapping_add($x ^ $y ^ $z);
        };
    }
    // Maj = (x ∧ y) + (z ∧ (x ⊕ y)), again two disjoint terms.
    macro_rules! maj {
        ($e:ident, $x:ident, $y:ident, $z:ident) => {
            $e = $e.wrapping_add($z & ($x ^ $y)).wrapping_add($x & $y);
        };
    }
    // Five rounds, then one step of the next pair's schedule.
    macro_rules! five {
        ($f:ident, $half:expr, $t:expr, $step:expr) => {
            round!(a, b, c, d, e, $f, $half, $t);
            round!(e, a, b, c, d, $f, $half, $t + 1);
            round!(d, e, a, b, c, $f, $half, $t + 2);
            round!(c, d, e, a, b, $f, $half, $t + 3);
            round!(b, c, d, e, a, $f, $half, $t + 4);
            if SCHEDULE {
                let keep_w = if KEEP { keep.as_mut().map(|k| &mut *k.1) } else { None };
                schedule_step(w, wk_next, keep_w, $step, lo, hi);
            }
        };
    }
    // One block: its W + K at `$half` in `wk`, schedule steps `$s..$$s + 10`
    // of the next pair spread over its first 50 rounds.
    macro_rules! block {
        ($half:literal, $s:literal) => {
            [a, b, c, d, e] = h;
            five!(ch, $half, 0, $s);
            five!(ch, $half, 5, $s + 1);
            five!(ch, $half, 10, $s + 2);
            five!(ch, $half, 15, $s + 3);
            five!(parity, $half, 20, $s + 4);
            five!(parity, $half, 25, $s + 5);
            five!(parity, $half, 30, $s + 6);
            five!(parity, $half, 35, $s + 7);
            five!(maj, $half, 40, $s + 8);
            five!(maj, $half, 45, $s + 9);
            round!(a, b, c, d, e, maj, $half, 50);
            round!(e, a, b, c, d, maj, $half, 51);
            round!(d, e, a, b, c, maj, $half, 52);
            round!(c, d, e, a, b, maj, $half, 53);
            round!(b, c, d, e, a, maj, $half, 54);
            round!(a, b, c, d, e, maj, $half, 55);
            round!(e, a, b, c, d, maj, $half, 56);
            round!(d, e, a, b, c, maj, $half, 57);
            if let (true, Some(k)) = (KEEP, keep.as_mut()) {
                // The state before step 58, held by (c, d, e, a, b).
                k.0.s58[$half / 4] = [c, d, e, a, b];
            }
            round!(c, d, e, a, b, maj, $half, 58);
            round!(b, c, d, e, a, maj, $half, 59);
            round!(a, b, c, d, e, parity, $half, 60);
            round!(e, a, b, c, d, parity, $half, 61);
            round!(d, e, a, b, c, parity, $half, 62);
            round!(c, d, e, a, b, parity, $half, 63);
            round!(b, c, d, e, a, parity, $half, 64);
            if let (true, Some(k)) = (KEEP, keep.as_mut()) {
                k.0.s65[$half / 4] = [a, b, c, d, e];
            }
            round!(a, b, c, d, e, parity, $half, 65);
            round!(e, a, b, c, d, parity, $half, 66);
            round!(d, e, a, b, c, parity, $half, 67);
            round!(c, d, e, a, b, parity, $half, 68);
            round!(b, c, d, e, a, parity, $half, 69);
            round!(a, b, c, d, e, parity, $half, 70);
            round!(e, a, b, c, d, parity, $half, 71);
            round!(d, e, a, b, c, parity, $half, 72);
            round!(c, d, e, a, b, parity, $half, 73);
            round!(b, c, d, e, a, parity, $half, 74);
            round!(a, b, c, d, e, parity, $half, 75);
            round!(e, a, b, c, d, parity, $half, 76);
            round!(d, e, a, b, c, parity, $half, 77);
            round!(c, d, e, a, b, parity, $half, 78);
            round!(b, c, d, e, a, parity, $half, 79);
            // Step 4.
            h = [
                h[0].wrapping_add(a),
                h[1].wrapping_add(b),
                h[2].wrapping_add(c),
                h[3].wrapping_add(d),
                h[4].wrapping_add(e),
            ];
        };
    }
    block!(0, 0);
    if let (true, Some(k)) = (KEEP, keep.as_mut()) {
        k.0.mid = h;
    }
    block!(4, 10);
    h
}

/// What the collision detection (`dc::x86::process_avx2`) keeps of a pair
/// of blocks compressed by [`compress_pairs_kept`]: each block's W, its
/// states before steps 58 and 65, and the chaining value between the two.
pub(crate) struct Kept {
    pub(crate) w: [[u32; 80]; 2],
    pub(crate) s58: [[u32; 5]; 2],
    pub(crate) s65: [[u32; 5]; 2],
    pub(crate) mid: [u32; 5],
}

impl Kept {
    pub(crate) const ZERO: Kept = Kept { w: [[0; 80]; 2], s58: [[0; 5]; 2], s65: [[0; 5]; 2], mid: [0; 5] };
}

/// [`compress`]'s pipeline (the SIMD schedule of a pair of blocks beside
/// the scalar rounds of the pair before) over the pairs of `blocks` (an
/// odd last block is left), from `h`, for the collision detection: after
/// each pair, `pair_done(i, h_in, h_out, kept)` with `i` the index of its
/// first block; when that returns true the run stops there. Returns the
/// chaining value after the last pair done and how many blocks that is.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(crate) fn compress_pairs_kept(
    mut h: [u32; 5],
    blocks: &[[u8; 64]],
    kept: &mut [Kept; 2],
    mut pair_done: impl FnMut(usize, [u32; 5], [u32; 5], &Kept) -> bool,
) -> ([u32; 5], usize) {
    let pairs = blocks.len() / 2;
    if pairs == 0 {
        return (h, 0);
    }
    let (mut wk_a, mut wk_b) = ([0u32; 160], [0u32; 160]);
    let (mut cur, mut next) = (&mut wk_a, &mut wk_b);
    let [kept_a, kept_b] = kept;
    let (mut kcur, mut knext) = (kept_a, kept_b);
    let mut w = [_mm256_set1_epi32(0); 20];
    for j in 0..20 {
        schedule_step(&mut w, cur, Some(&mut kcur.w), j, &blocks[0], &blocks[1]);
    }
    for p in 0..pairs {
        let h_in = h;
        h = if p + 1 < pairs {
            let (lo, hi) = (&blocks[2 * p + 2], &blocks[2 * p + 3]);
            pair_rounds::<true, true>(h, cur, &mut w, next, Some((&mut *kcur, &mut knext.w)), lo, hi)
        } else {
            // Nothing to schedule: the step arguments are unused.
            pair_rounds::<false, true>(h, cur, &mut w, next, Some((&mut *kcur, &mut knext.w)), &blocks[0], &blocks[0])
        };
        if pair_done(2 * p, h_in, h, kcur) {
            return (h, 2 * p + 2);
        }
        core::mem::swap(&mut cur, &mut next);
        core::mem::swap(&mut kcur, &mut knext);
    }
    (h, 2 * pairs)
}

// ---------------------------------------------------------------------------
// Batches: eight messages, one per 32-bit lane.
// ---------------------------------------------------------------------------

/// Compress every block of `data[i]` into `states[i]` for the eight lanes.
/// Every `data[i]` has the same length, a whole number of 64-byte blocks.
#[target_feature(enable = "avx2")]
pub(crate) fn compress_lanes(states: &mut [[u32; 5]; 8], data: [&[u8]; 8]) {
    let len = data[0].len();
    assert!(len.is_multiple_of(64) && data.iter().all(|d| d.len() == len), "lanes of equal whole blocks");

    // H0..H4 of lane i in lane i of h[0..5].
    let mut h = [_mm256_set1_epi32(0); 5];
    for (j, hj) in h.iter_mut().enumerate() {
        let s = |i: usize| states[i][j] as i32;
        *hj = _mm256_setr_epi32(s(0), s(1), s(2), s(3), s(4), s(5), s(6), s(7));
    }

    for k in 0..len / 64 {
        let blocks: [&[u8; 64]; 8] = core::array::from_fn(|i| as_array(&data[i][64 * k..64 * k + 64]));
        let mut w = load_transposed(&blocks);
        let [mut a, mut b, mut c, mut d, mut e] = h;

        // Ch, Parity, Maj (§4.1.1).
        macro_rules! ch {
            ($x:expr, $y:expr, $z:expr) => {
                _mm256_xor_si256($z, _mm256_and_si256($x, _mm256_xor_si256($y, $z)))
            };
        }
        macro_rules! parity {
            ($x:expr, $y:expr, $z:expr) => {
                _mm256_xor_si256(_mm256_xor_si256($x, $y), $z)
            };
        }
        macro_rules! maj {
            ($x:expr, $y:expr, $z:expr) => {
                _mm256_or_si256(_mm256_and_si256($x, $y), _mm256_and_si256($z, _mm256_or_si256($x, $y)))
            };
        }
        // §6.1.2 step 1 for t >= 16, in the 16-word ring.
        macro_rules! schedule {
            ($t:expr) => {{
                let x = _mm256_xor_si256(
                    _mm256_xor_si256(w[($t - 3) & 15], w[($t - 8) & 15]),
                    _mm256_xor_si256(w[($t - 14) & 15], w[$t & 15]),
                );
                w[$t & 15] = rol!(x, 1, 31);
            }};
        }
        // Step 3: e += ROTL⁵(a) + f(b, c, d) + K + W; b = ROTL³⁰(b); the
        // names rotate.
        macro_rules! round {
            ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $k:expr, $t:expr) => {
                if $t >= 16 {
                    schedule!($t);
                }
                $e = _mm256_add_epi32($e, _mm256_add_epi32(w[$t & 15], $k));
                $e = _mm256_add_epi32($e, $f!($b, $c, $d));
                $e = _mm256_add_epi32($e, rol!($a, 5, 27));
                $b = rol!($b, 30, 2);
            };
        }
        macro_rules! twenty {
            ($f:ident, $t:expr) => {{
                let k = _mm256_set1_epi32(K[$t / 20] as i32);
                round!(a, b, c, d, e, $f, k, $t);
                round!(e, a, b, c, d, $f, k, $t + 1);
                round!(d, e, a, b, c, $f, k, $t + 2);
                round!(c, d, e, a, b, $f, k, $t + 3);
                round!(b, c, d, e, a, $f, k, $t + 4);
                round!(a, b, c, d, e, $f, k, $t + 5);
                round!(e, a, b, c, d, $f, k, $t + 6);
                round!(d, e, a, b, c, $f, k, $t + 7);
                round!(c, d, e, a, b, $f, k, $t + 8);
                round!(b, c, d, e, a, $f, k, $t + 9);
                round!(a, b, c, d, e, $f, k, $t + 10);
                round!(e, a, b, c, d, $f, k, $t + 11);
                round!(d, e, a, b, c, $f, k, $t + 12);
                round!(c, d, e, a, b, $f, k, $t + 13);
                round!(b, c, d, e, a, $f, k, $t + 14);
                round!(a, b, c, d, e, $f, k, $t + 15);
                round!(e, a, b, c, d, $f, k, $t + 16);
                round!(d, e, a, b, c, $f, k, $t + 17);
                round!(c, d, e, a, b, $f, k, $t + 18);
                round!(b, c, d, e, a, $f, k, $t + 19);
            }};
        }
        twenty!(ch, 0);
        twenty!(parity, 20);
        twenty!(maj, 40);
        twenty!(parity, 60);

        // Step 4.
        for (hj, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *hj = _mm256_add_epi32(*hj, v);
        }
    }

    for (j, hj) in h.iter().enumerate() {
        let mut out = [0u32; 8];
        // SAFETY: `out` is 32 writable bytes; `storeu` has no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), *hj) };
        for (state, word) in states.iter_mut().zip(out) {
            state[j] = word;
        }
    }
}

/// W[0..16] of the eight blocks, big-endian words (§6.1.2 step 1), word t
/// of block i in lane i of `w[t]`: two 8×8 transposes of 32-bit words.
#[inline]
#[target_feature(enable = "avx2")]
fn load_transposed(blocks: &[&[u8; 64]; 8]) -> [__m256i; 16] {
    let bswap = bswap_mask();
    let mut w = [_mm256_set1_epi32(0); 16];
    for half in 0..2 {
        let rows: [__m256i; 8] = core::array::from_fn(|i| {
            let bytes: &[u8] = &blocks[i][32 * half..32 * half + 32];
            // SAFETY: `bytes` is 32 readable bytes (the slice index checked
            // it); `loadu` has no alignment requirement.
            let raw = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
            _mm256_shuffle_epi8(raw, bswap)
        });
        // Pairs of rows interleaved by word, then by pairs of words: each
        // 128-bit half then holds one word of four rows.
        let t: [__m256i; 8] = core::array::from_fn(|i| {
            let (x, y) = (rows[i / 2 * 2], rows[i / 2 * 2 + 1]);
            if i % 2 == 0 { _mm256_unpacklo_epi32(x, y) } else { _mm256_unpackhi_epi32(x, y) }
        });
        // u[4g + j]: word j (low half) and j + 4 (high half) of rows 4g..4g+4.
        let u: [__m256i; 8] = core::array::from_fn(|i| {
            let (g, j) = (i / 4, i % 4);
            let (x, y) = (t[4 * g + j / 2], t[4 * g + j / 2 + 2]);
            if j % 2 == 0 { _mm256_unpacklo_epi64(x, y) } else { _mm256_unpackhi_epi64(x, y) }
        });
        for j in 0..4 {
            w[8 * half + j] = _mm256_permute2x128_si256::<0x20>(u[j], u[4 + j]);
            w[8 * half + j + 4] = _mm256_permute2x128_si256::<0x31>(u[j], u[4 + j]);
        }
    }
    w
}
