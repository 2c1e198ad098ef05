//! SHA-256 compression (FIPS 180-4 §6.2.2) with the x86 SHA extensions.
//!
//! `sha256rnds2` performs two rounds (§6.2.2 step 3) on a state split over
//! two registers in the order the instruction wants: ABEF (A in the highest
//! 32-bit lane) and CDGH. It takes `W[t] + K[t]` for its two rounds from
//! the low half of a third register, so each group of four rounds is one
//! addition of four round constants and two `sha256rnds2`. The message
//! schedule (§6.2.2 step 1) is computed four words at a time:
//! `sha256msg1` adds σ0(W[t-15]) to W[t-16], a byte shift (`palignr`)
//! brings in W[t-7], and `sha256msg2` adds σ1(W[t-2]), including the words
//! it has just produced.
//!
//! The state stays in the ABEF/CDGH layout across the whole run of blocks
//! and is converted from and back to FIPS order once per call. For batches,
//! [`compress_lanes`] runs `N` independent messages through the same code
//! with their instructions interleaved: one stream's `sha256rnds2` chain is
//! bound by the instruction's latency, and the other streams fill the gaps.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x,
    _mm_setzero_si128, _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi8,
    _mm_shuffle_epi32, _mm_storeu_si128,
};

use hash_core::typenum::U64;
use hash_core::{Block, FixedAlgorithm, Padding};

use super::Backend;
use crate::consts::K;
#[cfg(doc)]
use crate::consts::{PAD56_WK, PAD64_WK};

/// Interleaved streams in the batch engine. A single stream is bound by
/// `sha256rnds2`'s latency (about 4 cycles, 32 in a chain per block);
/// measured on an AMD family 1Ah (Zen 5) core, the instruction issues only
/// every other cycle, so interleaving can at best double the throughput.
/// 64 messages of 8 KiB: 2 streams 1.50x one stream, 3 streams 1.63x,
/// 4 streams 1.70x.
const STREAMS: usize = 4;

/// The fewest busy streams for which the 4-stream engine beats hashing the
/// rest one at a time (it costs about 2.4 single-stream blocks per step);
/// below it the scheduler finishes them alone.
const MIN_ACTIVE: usize = 3;

/// Convert the state from FIPS order (`[a, b, ..., h]`) to the ABEF/CDGH
/// register pair.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn load_state(state: &[u32; 8]) -> (__m128i, __m128i) {
    let (lo, hi) = state.split_at(4);
    // SAFETY: `lo` holds four u32 (16 bytes); loadu has no alignment requirement.
    let dcba = unsafe { _mm_loadu_si128(lo.as_ptr().cast()) };
    // SAFETY: `hi` holds four u32 (16 bytes); loadu has no alignment requirement.
    let hgfe = unsafe { _mm_loadu_si128(hi.as_ptr().cast()) };
    // Lanes are listed from the highest: CDAB, EFGH.
    let cdab = _mm_shuffle_epi32::<0xb1>(dcba);
    let efgh = _mm_shuffle_epi32::<0x1b>(hgfe);
    let abef = _mm_alignr_epi8::<8>(cdab, efgh);
    let cdgh = _mm_blend_epi16::<0xf0>(efgh, cdab);
    (abef, cdgh)
}

/// Write the ABEF/CDGH register pair back to `state` in FIPS order.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn store_state(abef: __m128i, cdgh: __m128i, state: &mut [u32; 8]) {
    let feba = _mm_shuffle_epi32::<0x1b>(abef);
    let dchg = _mm_shuffle_epi32::<0xb1>(cdgh);
    let dcba = _mm_blend_epi16::<0xf0>(feba, dchg);
    let hgfe = _mm_alignr_epi8::<8>(dchg, feba);
    let (lo, hi) = state.split_at_mut(4);
    // SAFETY: `lo` holds four u32 (16 bytes); storeu has no alignment requirement.
    unsafe { _mm_storeu_si128(lo.as_mut_ptr().cast(), dcba) };
    // SAFETY: `hi` holds four u32 (16 bytes); storeu has no alignment requirement.
    unsafe { _mm_storeu_si128(hi.as_mut_ptr().cast(), hgfe) };
}

/// One 16-byte row of a block as four big-endian words (§5.2.1: the
/// message block is sixteen 32-bit words, big-endian per §3.1).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn load_row(bytes: &[u8; 16]) -> __m128i {
    let swap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    _mm_shuffle_epi8(load_raw(bytes), swap)
}

/// 16 bytes as they are.
#[inline]
#[target_feature(enable = "sse2")]
fn load_raw(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: `bytes` is 16 bytes long; loadu has no alignment requirement.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// The block's sixteen message words W[0..16] as four rows.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn load_block(block: &[u8; 64]) -> [__m128i; 4] {
    let (rows, _) = block.as_chunks::<16>();
    [load_row(&rows[0]), load_row(&rows[1]), load_row(&rows[2]), load_row(&rows[3])]
}

/// Rounds 4G .. 4G+3 of every stream. From G = 4 on, the message row
/// `m[s][G % 4]` (which held W[4G-16 .. 4G-12]) is first replaced by
/// W[4G .. 4G+4].
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn quad<const N: usize, const G: usize>(abef: &mut [__m128i; N], cdgh: &mut [__m128i; N], m: &mut [[__m128i; 4]; N]) {
    let k = _mm_set_epi32(K[4 * G + 3] as i32, K[4 * G + 2] as i32, K[4 * G + 1] as i32, K[4 * G] as i32);
    for s in 0..N {
        let w = &mut m[s];
        if G >= 4 {
            // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], t = 4G .. 4G+3.
            let x = _mm_sha256msg1_epu32(w[G % 4], w[(G + 1) % 4]);
            let x = _mm_add_epi32(x, _mm_alignr_epi8::<4>(w[(G + 3) % 4], w[(G + 2) % 4]));
            w[G % 4] = _mm_sha256msg2_epu32(x, w[(G + 3) % 4]);
        }
        let wk = _mm_add_epi32(w[G % 4], k);
        // Rounds 4G and 4G+1: the result is the new ABEF; the old ABEF
        // becomes CDGH.
        cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], wk);
        // Rounds 4G+2 and 4G+3, with W+K of those rounds moved down.
        abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s], _mm_shuffle_epi32::<0x0e>(wk));
    }
}

/// Compress one block into each of `N` states (all 64 rounds and step 4
/// of §6.2.2), the streams' instructions interleaved.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn block_n<const N: usize>(abef: &mut [__m128i; N], cdgh: &mut [__m128i; N], blocks: [&[u8; 64]; N]) {
    let mut m = [[_mm_setzero_si128(); 4]; N];
    for s in 0..N {
        m[s] = load_block(blocks[s]);
    }
    rounds_n::<N>(abef, cdgh, m);
}

/// [`block_n`] on message words already in registers (W[0..16], four per
/// row).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn rounds_n<const N: usize>(abef: &mut [__m128i; N], cdgh: &mut [__m128i; N], mut m: [[__m128i; 4]; N]) {
    let (abef_in, cdgh_in) = (*abef, *cdgh);
    quad::<N, 0>(abef, cdgh, &mut m);
    quad::<N, 1>(abef, cdgh, &mut m);
    quad::<N, 2>(abef, cdgh, &mut m);
    quad::<N, 3>(abef, cdgh, &mut m);
    quad::<N, 4>(abef, cdgh, &mut m);
    quad::<N, 5>(abef, cdgh, &mut m);
    quad::<N, 6>(abef, cdgh, &mut m);
    quad::<N, 7>(abef, cdgh, &mut m);
    quad::<N, 8>(abef, cdgh, &mut m);
    quad::<N, 9>(abef, cdgh, &mut m);
    quad::<N, 10>(abef, cdgh, &mut m);
    quad::<N, 11>(abef, cdgh, &mut m);
    quad::<N, 12>(abef, cdgh, &mut m);
    quad::<N, 13>(abef, cdgh, &mut m);
    quad::<N, 14>(abef, cdgh, &mut m);
    quad::<N, 15>(abef, cdgh, &mut m);
    // Step 4: H(i) = working variables + H(i-1).
    for s in 0..N {
        abef[s] = _mm_add_epi32(abef[s], abef_in[s]);
        cdgh[s] = _mm_add_epi32(cdgh[s], cdgh_in[s]);
    }
}

/// Compress `blocks` into `state`, one after another.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) fn compress(state: &mut [u32; 8], blocks: &[Block<U64>]) {
    let (abef, cdgh) = load_state(state);
    let (mut abef, mut cdgh) = ([abef], [cdgh]);
    for block in blocks {
        block_n::<1>(&mut abef, &mut cdgh, [super::block_bytes(block)]);
    }
    store_state(abef[0], cdgh[0], state);
}

/// Compress the final padded block of a `total`-byte message whose last
/// bytes are `tail` into `state`, the block built in registers
/// (`hash_core::padded_rows`) rather than in a buffer.
///
/// # Panics
/// If `tail` and the padding do not fit in one block.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) fn compress_final(state: &mut [u32; 8], tail: &[u8], total: u128) {
    let rows = hash_core::padded_rows::<4>(Padding::Be64, tail, total);
    let swap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    let row = |r: u128| _mm_shuffle_epi8(_mm_set_epi64x((r >> 64) as i64, r as i64), swap);
    let m = [row(rows[0]), row(rows[1]), row(rows[2]), row(rows[3])];
    let (abef, cdgh) = load_state(state);
    let (mut abef, mut cdgh) = ([abef], [cdgh]);
    rounds_n::<1>(&mut abef, &mut cdgh, [m]);
    store_state(abef[0], cdgh[0], state);
}

/// Compress `data[s]` into `states[s]` for every stream `s`; the slices
/// have equal lengths, a whole number of blocks (the scheduler's contract).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_lanes<const N: usize>(states: &mut [[u32; 8]; N], data: [&[u8]; N]) {
    let zero = _mm_setzero_si128();
    let (mut abef, mut cdgh) = ([zero; N], [zero; N]);
    let mut rows: [&[[u8; 64]]; N] = [&[]; N];
    for s in 0..N {
        (abef[s], cdgh[s]) = load_state(&states[s]);
        rows[s] = data[s].as_chunks::<64>().0;
    }
    assert!(
        data.iter().all(|d| d.len() == data[0].len() && d.len() % 64 == 0),
        "the scheduler hands every lane the same whole number of blocks"
    );
    let count = rows.iter().map(|r| r.len()).min().unwrap_or(0);
    for (i, first) in rows[0].iter().enumerate().take(count) {
        let mut blocks = [first; N];
        for s in 1..N {
            blocks[s] = &rows[s][i];
        }
        block_n::<N>(&mut abef, &mut cdgh, blocks);
    }
    for s in 0..N {
        store_state(abef[s], cdgh[s], &mut states[s]);
    }
}

/// Hash each of `inputs` into the matching `outputs` slot, [`STREAMS`]
/// messages at a time (see `hash_core::multi`); a batch of two or three
/// runs as that many streams (1.5x and 1.6x one stream, where four streams
/// with idle ones would give 0.85x and 1.3x).
///
/// # Safety
/// The CPU must support sha, sse2, ssse3 and sse4.1.
pub(super) unsafe fn digest_many<A>(inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    /// The scheduler on `N` streams.
    ///
    /// # Safety
    /// As for `digest_many`.
    unsafe fn streams<A, const N: usize>(inputs: &[&[u8]], outputs: &mut [A::Output], min_active: usize)
    where
        A: FixedAlgorithm<State = [u32; 8], Backend = Backend>,
    {
        hash_core::multi::digest_many_lanes::<A, N>(Backend::ShaNi, inputs, outputs, min_active, |states, data| {
            // SAFETY: the caller of `digest_many` guarantees the CPU
            // features that `compress_lanes` enables.
            unsafe { compress_lanes::<N>(states, data) }
        });
    }
    match inputs.len() {
        // SAFETY: the caller guarantees the CPU features.
        2 => unsafe { streams::<A, 2>(inputs, outputs, 2) },
        // SAFETY: the caller guarantees the CPU features.
        3 => unsafe { streams::<A, 3>(inputs, outputs, 2) },
        // SAFETY: the caller guarantees the CPU features.
        _ => unsafe { streams::<A, STREAMS>(inputs, outputs, MIN_ACTIVE) },
    }
}

/// The 64 rounds of a constant padding block (`W + K` in `pad_wk`:
/// [`PAD64_WK`] or [`PAD56_WK`]), and step 4 of §6.2.2, for every stream.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn pad_rounds_n<const N: usize>(abef: &mut [__m128i; N], cdgh: &mut [__m128i; N], pad_wk: &[u32; 64]) {
    let (abef_in, cdgh_in) = (*abef, *cdgh);
    for g in 0..16 {
        let c = pad_wk;
        let wk = _mm_set_epi32(c[4 * g + 3] as i32, c[4 * g + 2] as i32, c[4 * g + 1] as i32, c[4 * g] as i32);
        let wk_high = _mm_shuffle_epi32::<0x0e>(wk);
        for s in 0..N {
            cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], wk);
            abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s], wk_high);
        }
    }
    for s in 0..N {
        abef[s] = _mm_add_epi32(abef[s], abef_in[s]);
        cdgh[s] = _mm_add_epi32(cdgh[s], cdgh_in[s]);
    }
}

/// SHA-256 or SHA-224 (from `init`) of `N` pairs: each pair's first
/// block, then the constant padding block (`pad_wk`); the digests (their
/// first `NODE` bytes) in big-endian order.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn pairs_n<const N: usize, const NODE: usize>(
    init: &[u32; 8],
    blocks: [&[u8; 64]; N],
    pad_wk: &[u32; 64],
    out: &mut [[u8; NODE]],
) {
    let (a, c) = load_state(init);
    let (mut abef, mut cdgh) = ([a; N], [c; N]);
    block_n::<N>(&mut abef, &mut cdgh, blocks);
    pad_rounds_n::<N>(&mut abef, &mut cdgh, pad_wk);
    for (s, digest) in out.iter_mut().enumerate().take(N) {
        let mut state = [0u32; 8];
        store_state(abef[s], cdgh[s], &mut state);
        super::digest_bytes(&state, digest);
    }
}

/// Streams of the pair engine: [`PAIR_STREAMS`] pairs at a time, the rest
/// one by one. Two, not the four of `digest_many`: the legacy-SSE
/// `sha256rnds2` reaches only `xmm0`-`xmm15`, and four streams' states and
/// message words (24 registers) spilled to the stack (115 stack accesses
/// in `hash_pairs64`, none with two). Measured on an Intel Xeon (model
/// 167), levels of 12 pairs, best of 2000: two streams 56.7-57.5 ns a
/// pair, three 60.2-60.3, four 60.4-60.5 (hashtree's `sha256_shani_x2`
/// 55.8 over 1024 pairs in the same minutes).
const PAIR_STREAMS: usize = 2;

/// `out[i]` = SHA-256 or SHA-224 (from `init`) of `nodes[2i] ||
/// nodes[2i + 1]` (`NODE` 32 or 28 bytes), [`PAIR_STREAMS`] streams
/// interleaved, each padding block's schedule a constant
/// (`super::pair_padding`).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) fn hash_pairs<const NODE: usize>(init: &[u32; 8], nodes: &[[u8; NODE]], out: &mut [[u8; NODE]]) {
    assert_eq!(nodes.len(), 2 * out.len(), "hash_pairs: one output slot per pair of nodes");
    let pad_wk = super::pair_padding::<NODE>();
    let mut bufs = [[0u8; 64]; PAIR_STREAMS];
    let mut groups = nodes.chunks_exact(2 * PAIR_STREAMS);
    let mut slots = out.chunks_exact_mut(PAIR_STREAMS);
    for (g, o) in (&mut groups).zip(&mut slots) {
        pairs_n::<PAIR_STREAMS, NODE>(init, super::pair_blocks(g, &mut bufs), pad_wk, o);
    }
    for (pair, o) in groups.remainder().chunks_exact(2).zip(slots.into_remainder().chunks_exact_mut(1)) {
        pairs_n::<1, NODE>(init, [super::pair_block(pair, &mut bufs[0])], pad_wk, o);
    }
}

/// The two blocks of `prefix || body` (65 bytes: RFC 9162's leaves of 64
/// bytes and its nodes, `0x01 || left || right`) as message rows, built in
/// registers from the body read in place (FIPS 180-4 §5.1.1): the first
/// block is the prefix and the body's first 63 bytes (each row the body's
/// row shifted in by one byte from the row before it, `palignr`), the
/// second the body's last byte, 0x80, zeros and the length, 520 bits.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn prefixed65_rows(prefix: u8, body: &[u8; 64]) -> [[__m128i; 4]; 2] {
    use core::arch::x86_64::{_mm_cvtsi32_si128, _mm_or_si128, _mm_slli_si128, _mm_srli_si128};
    let swap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    let (rows, _) = body.as_chunks::<16>();
    let raw = [load_raw(&rows[0]), load_raw(&rows[1]), load_raw(&rows[2]), load_raw(&rows[3])];
    // The prefix in byte 15, where `palignr` takes the byte before row 0.
    let before = _mm_slli_si128::<15>(_mm_cvtsi32_si128(i32::from(prefix)));
    let first = [
        _mm_alignr_epi8::<15>(raw[0], before),
        _mm_alignr_epi8::<15>(raw[1], raw[0]),
        _mm_alignr_epi8::<15>(raw[2], raw[1]),
        _mm_alignr_epi8::<15>(raw[3], raw[2]),
    ];
    // Byte 0: the body's last; byte 1: 0x80; bytes 62, 63 (row 3's last
    // two): the length 520 = 0x0208, big-endian.
    let second = [
        _mm_or_si128(_mm_srli_si128::<15>(raw[3]), _mm_set_epi32(0, 0, 0, 0x8000)),
        _mm_setzero_si128(),
        _mm_setzero_si128(),
        _mm_set_epi32(0x0802_0000, 0, 0, 0),
    ];
    [first.map(|r| _mm_shuffle_epi8(r, swap)), second.map(|r| _mm_shuffle_epi8(r, swap))]
}

/// `out[s]` = SHA-256 or SHA-224 (from `init`; the first `NODE` bytes of
/// the final state) of `prefix || bodies[s]` for `N` 64-byte bodies, the
/// streams' instructions interleaved (see [`prefixed65_rows`]).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) fn hash_prefixed65<const N: usize, const NODE: usize>(
    init: &[u32; 8],
    prefix: u8,
    bodies: [&[u8; 64]; N],
    out: [&mut [u8; NODE]; N],
) {
    let (a, c) = load_state(init);
    let (mut abef, mut cdgh) = ([a; N], [c; N]);
    let mut first = [[_mm_setzero_si128(); 4]; N];
    let mut second = [[_mm_setzero_si128(); 4]; N];
    for s in 0..N {
        [first[s], second[s]] = prefixed65_rows(prefix, bodies[s]);
    }
    rounds_n::<N>(&mut abef, &mut cdgh, first);
    rounds_n::<N>(&mut abef, &mut cdgh, second);
    for (s, digest) in out.into_iter().enumerate() {
        let mut state = [0u32; 8];
        store_state(abef[s], cdgh[s], &mut state);
        super::digest_bytes(&state, digest);
    }
}
