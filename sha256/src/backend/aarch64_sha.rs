//! SHA-256 compression (FIPS 180-4 §6.2.2) with the ARMv8 SHA256
//! instructions (FEAT_SHA256, Rust target feature `sha2`).
//!
//! The state lives in two vector registers, ABCD and EFGH (a and e in lane
//! 0), for the whole run of blocks. Each group of four rounds (§6.2.2 step
//! 3) is one addition of four round constants to four message words and
//! two instructions: `sha256h` produces the new ABCD and `sha256h2` the new
//! EFGH, both from the old pair, so the old ABCD is copied first. The
//! message schedule (§6.2.2 step 1) runs four words at a time:
//! `sha256su0` adds σ0(W[t-15]) to W[t-16], and `sha256su1` adds W[t-7]
//! and σ1(W[t-2]), including the words it is producing.
//!
//! For batches, [`compress_lanes`] runs `N` independent messages through
//! the same code with their instructions interleaved: one stream's
//! `sha256h`/`sha256h2` chain waits on the instructions' latency (a group
//! of rounds cannot start before the previous one ends), and the other
//! streams fill the gaps, as in Intel ISA-L's aarch64 multi-buffer code.

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vdupq_n_u32, vld1q_u8_x4, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8, vsha256h2q_u32,
    vsha256hq_u32, vsha256su0q_u32, vsha256su1q_u32, vst1q_u32,
};

use hash_core::typenum::U64;
use hash_core::{Block, FixedAlgorithm};

use super::Backend;
use crate::consts::K;

/// The most interleaved streams of the batch engine, as in ISA-L's aarch64
/// SHA-256 manager: the `sha256h` chain of one stream is latency bound (16
/// dependent groups per block), and three streams keep 26 of the 32 vector
/// registers busy without spilling. Whether a core runs two or three is
/// `arm_streams` in `mod.rs`, from the modelled cycles of each.
const STREAMS: usize = 3;

/// The fewest busy streams for which the 2- and 3-stream engines run; a
/// lone last message finishes on the single-stream path.
const MIN_ACTIVE: usize = 2;

/// Four round constants K[4g .. 4g+4] (§4.2.2).
#[inline]
#[target_feature(enable = "sha2")]
fn k4(g: usize) -> uint32x4_t {
    let k: &[u32; 4] = K[4 * g..4 * g + 4].try_into().expect("K has 64 words");
    // SAFETY: `k` is four readable u32; `vld1q_u32` has no alignment
    // requirement beyond the element's.
    unsafe { vld1q_u32(k.as_ptr()) }
}

/// The block's sixteen message words W[0..16] as four vectors, big-endian
/// per §3.1 (one `ld1` of 64 bytes and four byte swaps).
#[inline]
#[target_feature(enable = "sha2")]
fn load_block(block: &[u8; 64]) -> [uint32x4_t; 4] {
    // SAFETY: `block` is 64 readable bytes, what `vld1q_u8_x4` reads.
    let raw = unsafe { vld1q_u8_x4(block.as_ptr()) };
    [
        vreinterpretq_u32_u8(vrev32q_u8(raw.0)),
        vreinterpretq_u32_u8(vrev32q_u8(raw.1)),
        vreinterpretq_u32_u8(vrev32q_u8(raw.2)),
        vreinterpretq_u32_u8(vrev32q_u8(raw.3)),
    ]
}

/// Rounds 4G .. 4G+3 of every stream. From G = 4 on, the message vector
/// `m[s][G % 4]` (which held W[4G-16 .. 4G-12]) is first replaced by
/// W[4G .. 4G+4].
#[inline]
#[target_feature(enable = "sha2")]
fn quad<const N: usize, const G: usize>(
    abcd: &mut [uint32x4_t; N],
    efgh: &mut [uint32x4_t; N],
    m: &mut [[uint32x4_t; 4]; N],
) {
    let k = k4(G);
    for s in 0..N {
        let w = &mut m[s];
        if G >= 4 {
            // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], t = 4G .. 4G+3.
            let x = vsha256su0q_u32(w[G % 4], w[(G + 1) % 4]);
            w[G % 4] = vsha256su1q_u32(x, w[(G + 2) % 4], w[(G + 3) % 4]);
        }
        let wk = vaddq_u32(w[G % 4], k);
        // Both instructions read the old ABCD and EFGH.
        let abcd_in = abcd[s];
        abcd[s] = vsha256hq_u32(abcd_in, efgh[s], wk);
        efgh[s] = vsha256h2q_u32(efgh[s], abcd_in, wk);
    }
}

/// The 64 rounds and step 4 of §6.2.2 of one block of every stream, from
/// message words in registers (`$m`: W[0..16] of each stream, four per
/// vector). A macro, so that each function using it has the rounds in its
/// own body: as `#[inline]` functions shared by the pair, prefixed and
/// batch engines, LLVM left them out of line, a call per block in
/// `digest_many`'s loop.
macro_rules! rounds_n {
    ($n:ident, $abcd:expr, $efgh:expr, $m:expr) => {{
        let (abcd, efgh, m): (&mut [uint32x4_t; $n], &mut [uint32x4_t; $n], &mut [[uint32x4_t; 4]; $n]) = ($abcd, $efgh, $m);
        let (abcd_in, efgh_in) = (*abcd, *efgh);
        quad::<$n, 0>(abcd, efgh, m);
        quad::<$n, 1>(abcd, efgh, m);
        quad::<$n, 2>(abcd, efgh, m);
        quad::<$n, 3>(abcd, efgh, m);
        quad::<$n, 4>(abcd, efgh, m);
        quad::<$n, 5>(abcd, efgh, m);
        quad::<$n, 6>(abcd, efgh, m);
        quad::<$n, 7>(abcd, efgh, m);
        quad::<$n, 8>(abcd, efgh, m);
        quad::<$n, 9>(abcd, efgh, m);
        quad::<$n, 10>(abcd, efgh, m);
        quad::<$n, 11>(abcd, efgh, m);
        quad::<$n, 12>(abcd, efgh, m);
        quad::<$n, 13>(abcd, efgh, m);
        quad::<$n, 14>(abcd, efgh, m);
        quad::<$n, 15>(abcd, efgh, m);
        // Step 4: H(i) = working variables + H(i-1).
        for s in 0..$n {
            abcd[s] = vaddq_u32(abcd[s], abcd_in[s]);
            efgh[s] = vaddq_u32(efgh[s], efgh_in[s]);
        }
    }};
}

/// Compress one block into each of `N` states (all 64 rounds and step 4
/// of §6.2.2), the streams' instructions interleaved: `block_n!(N, abcd,
/// efgh, blocks)`. A macro for the reason [`rounds_n!`] is.
macro_rules! block_n {
    ($n:ident, $abcd:expr, $efgh:expr, $blocks:expr) => {{
        let blocks: [&[u8; 64]; $n] = $blocks;
        let mut m = [[vdupq_n_u32(0); 4]; $n];
        for s in 0..$n {
            m[s] = load_block(blocks[s]);
        }
        rounds_n!($n, $abcd, $efgh, &mut m);
    }};
}

/// Load a state in FIPS order into the ABCD and EFGH vectors.
#[inline]
#[target_feature(enable = "sha2")]
fn load_state(state: &[u32; 8]) -> (uint32x4_t, uint32x4_t) {
    let (lo, hi) = state.split_at(4);
    // SAFETY: `lo` holds four u32; `vld1q_u32` reads four.
    let abcd = unsafe { vld1q_u32(lo.as_ptr()) };
    // SAFETY: `hi` holds four u32; `vld1q_u32` reads four.
    let efgh = unsafe { vld1q_u32(hi.as_ptr()) };
    (abcd, efgh)
}

/// Store the ABCD and EFGH vectors to `state` in FIPS order.
#[inline]
#[target_feature(enable = "sha2")]
fn store_state(abcd: uint32x4_t, efgh: uint32x4_t, state: &mut [u32; 8]) {
    let (lo, hi) = state.split_at_mut(4);
    // SAFETY: `lo` holds four u32; `vst1q_u32` writes four.
    unsafe { vst1q_u32(lo.as_mut_ptr(), abcd) };
    // SAFETY: `hi` holds four u32; `vst1q_u32` writes four.
    unsafe { vst1q_u32(hi.as_mut_ptr(), efgh) };
}

/// Rounds 4G .. 4G+3 of the single stream as `asm!` lines: `wk` = W + K
/// into v`$t`, the copy of ABCD that `sha256h2` reads (made before
/// `sha256h` overwrites v0, so `sha256h` reads its own previous result
/// with no copy between), the two round instructions, and (`sched`) the
/// schedule of the words of group G + 4 in the register just consumed.
macro_rules! quad1 {
    (sched $t:literal, $w0:literal, $w1:literal, $w2:literal, $w3:literal, $k:literal) => {
        concat!(
            "add v",
            $t,
            ".4s, v",
            $w0,
            ".4s, v",
            $k,
            ".4s\n",
            "sha256su0 v",
            $w0,
            ".4s, v",
            $w1,
            ".4s\n",
            "mov v2.16b, v0.16b\n",
            "sha256h q0, q1, v",
            $t,
            ".4s\n",
            "sha256h2 q1, q2, v",
            $t,
            ".4s\n",
            "sha256su1 v",
            $w0,
            ".4s, v",
            $w2,
            ".4s, v",
            $w3,
            ".4s\n",
        )
    };
    ($t:literal, $w0:literal, $k:literal) => {
        concat!(
            "add v",
            $t,
            ".4s, v",
            $w0,
            ".4s, v",
            $k,
            ".4s\n",
            "mov v2.16b, v0.16b\n",
            "sha256h q0, q1, v",
            $t,
            ".4s\n",
            "sha256h2 q1, q2, v",
            $t,
            ".4s\n",
        )
    };
}

/// Compress `blocks` into `state`, one after another.
///
/// The loop is inline assembly, ordered as the instructions' dependencies
/// want it: compiled from the intrinsics (`block_n!` with one stream), LLVM rotates
/// ABCD through copies so that a `mov` sits between one `sha256h` and the
/// next, on the loop's critical path, and `llvm-mca` models that loop at
/// 150 / 98 / 98 / 98 / 130 / 130 cycles per block on Cortex-A72 / Neoverse
/// N1 / V1 / V2 / Apple M1 / M4, against OpenSSL's `sha256_block_armv8` at
/// 133 / 83 / 82 / 82 / 114 / 114. Here `sha256h` accumulates in v0
/// throughout, and the copy of ABCD that `sha256h2` needs is taken before
/// each `sha256h` (in rounds 0..3 the state saved for step 4 serves); the
/// 64 round constants stay in v16..v31 for the whole call (OpenSSL reloads
/// them every block). Modelled (`cargo xtask mca`, LLVM 19): 131 / 82.1 /
/// 82.1 / 82.1 / 114 / 114, at or below OpenSSL's on every core; the
/// chain of 16 `sha256h` plus step 4's `add` is the floor for one stream. ABCD v0, EFGH v1, the copy v2,
/// W + K v3 and v10, the message words v4..v7, the state at the block's
/// start (for step 4 of §6.2.2) v8, v9.
#[target_feature(enable = "sha2")]
pub(super) fn compress(state: &mut [u32; 8], blocks: &[Block<U64>]) {
    if blocks.is_empty() {
        return;
    }
    let (mut abcd, mut efgh) = load_state(state);
    // SAFETY: `p` points at `n` = `blocks.len()` >= 1 whole 64-byte blocks (a `Block<U64>`
    // is 64 bytes with no padding), which the loop reads in order, 64 bytes
    // per pass, `n` passes; `k` points at the 64 words of K, read once. The
    // assembly writes only the registers it declares (the compiler saves
    // the callee-saved halves of v8..v10) and no memory; it needs `sha2`,
    // which this function's `target_feature` makes its callers guarantee.
    unsafe {
        core::arch::asm!(
            "ld1 {{v16.4s-v19.4s}}, [{k}], #64",
            "ld1 {{v20.4s-v23.4s}}, [{k}], #64",
            "ld1 {{v24.4s-v27.4s}}, [{k}], #64",
            "ld1 {{v28.4s-v31.4s}}, [{k}]",
            "2:",
            hash_core::aarch64_load_block_be32_v4_v7!(),
            "mov v8.16b, v0.16b",
            "mov v9.16b, v1.16b",
            // Rounds 0..3: the state saved for step 4 is ABCD's copy.
            "add v3.4s, v4.4s, v16.4s",
            "sha256su0 v4.4s, v5.4s",
            "sha256h q0, q1, v3.4s",
            "sha256h2 q1, q8, v3.4s",
            "sha256su1 v4.4s, v6.4s, v7.4s",
            quad1!(sched "10", "5", "6", "7", "4", "17"),
            quad1!(sched "3", "6", "7", "4", "5", "18"),
            quad1!(sched "10", "7", "4", "5", "6", "19"),
            quad1!(sched "3", "4", "5", "6", "7", "20"),
            quad1!(sched "10", "5", "6", "7", "4", "21"),
            quad1!(sched "3", "6", "7", "4", "5", "22"),
            quad1!(sched "10", "7", "4", "5", "6", "23"),
            quad1!(sched "3", "4", "5", "6", "7", "24"),
            quad1!(sched "10", "5", "6", "7", "4", "25"),
            quad1!(sched "3", "6", "7", "4", "5", "26"),
            quad1!(sched "10", "7", "4", "5", "6", "27"),
            quad1!("3", "4", "28"),
            quad1!("10", "5", "29"),
            quad1!("3", "6", "30"),
            quad1!("10", "7", "31"),
            "add v0.4s, v0.4s, v8.4s",
            "add v1.4s, v1.4s, v9.4s",
            "subs {n}, {n}, #1",
            "b.ne 2b",
            k = inout(reg) K.as_ptr() => _,
            p = inout(reg) blocks.as_ptr().cast::<u8>() => _,
            n = inout(reg) blocks.len() => _,
            inout("v0") abcd,
            inout("v1") efgh,
            out("v2") _, out("v3") _, out("v4") _, out("v5") _, out("v6") _, out("v7") _,
            out("v8") _, out("v9") _, out("v10") _,
            out("v16") _, out("v17") _, out("v18") _, out("v19") _, out("v20") _, out("v21") _,
            out("v22") _, out("v23") _, out("v24") _, out("v25") _, out("v26") _, out("v27") _,
            out("v28") _, out("v29") _, out("v30") _, out("v31") _,
            options(nostack, readonly),
        );
    }
    store_state(abcd, efgh, state);
}

/// Compress `data[s]` into `states[s]` for every stream `s`; the slices
/// have equal lengths, a whole number of blocks (the scheduler's contract).
#[target_feature(enable = "sha2")]
fn compress_lanes<const N: usize>(states: &mut [[u32; 8]; N], data: [&[u8]; N]) {
    assert!(
        data.iter().all(|d| d.len() == data[0].len() && d.len() % 64 == 0),
        "the scheduler hands every lane the same whole number of blocks"
    );
    let (first, _) = load_state(&states[0]);
    let (mut abcd, mut efgh) = ([first; N], [first; N]);
    let mut rows: [&[[u8; 64]]; N] = [&[]; N];
    for s in 0..N {
        (abcd[s], efgh[s]) = load_state(&states[s]);
        rows[s] = data[s].as_chunks::<64>().0;
    }
    for (i, block0) in rows[0].iter().enumerate() {
        let mut blocks = [block0; N];
        for s in 1..N {
            blocks[s] = &rows[s][i];
        }
        block_n!(N, &mut abcd, &mut efgh, blocks);
    }
    for s in 0..N {
        store_state(abcd[s], efgh[s], &mut states[s]);
    }
}

/// Hash each of `inputs` into the matching `outputs` slot, `streams` (2 or
/// [`STREAMS`]) messages at a time (see `hash_core::multi`); a batch of two
/// runs as two streams.
///
/// # Safety
/// The CPU must support `sha2` (FEAT_SHA256 and FEAT_SHA1; NEON comes with
/// every aarch64 target).
pub(super) unsafe fn digest_many<A>(inputs: &[&[u8]], outputs: &mut [A::Output], streams: usize)
where
    A: FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    /// The scheduler on `N` streams.
    ///
    /// # Safety
    /// As for `digest_many`.
    unsafe fn run<A, const N: usize>(inputs: &[&[u8]], outputs: &mut [A::Output], min_active: usize)
    where
        A: FixedAlgorithm<State = [u32; 8], Backend = Backend>,
    {
        hash_core::multi::digest_many_lanes::<A, N>(Backend::ArmSha, inputs, outputs, min_active, |states, data| {
            // SAFETY: the caller of `digest_many` guarantees `sha2`, the
            // feature `compress_lanes` enables.
            unsafe { compress_lanes::<N>(states, data) }
        });
    }
    if inputs.len() == 2 || streams == 2 {
        // SAFETY: the caller guarantees the CPU features.
        unsafe { run::<A, 2>(inputs, outputs, MIN_ACTIVE) }
    } else {
        // SAFETY: the caller guarantees the CPU features.
        unsafe { run::<A, STREAMS>(inputs, outputs, MIN_ACTIVE) }
    }
}

/// Rounds 4G .. 4G+3 of every stream on a constant padding block: its
/// W + K (`pad_wk`, see `super::pair_padding`) is a constant, so there is
/// no schedule and no addition of round constants.
#[inline]
#[target_feature(enable = "sha2")]
fn pad_quad<const N: usize, const G: usize>(abcd: &mut [uint32x4_t; N], efgh: &mut [uint32x4_t; N], pad_wk: &[u32; 64]) {
    let wk: &[u32; 4] = pad_wk[4 * G..4 * G + 4].try_into().expect("W + K has 64 words");
    // SAFETY: `wk` is four readable u32; `vld1q_u32` reads four.
    let wk = unsafe { vld1q_u32(wk.as_ptr()) };
    for s in 0..N {
        let abcd_in = abcd[s];
        abcd[s] = vsha256hq_u32(abcd_in, efgh[s], wk);
        efgh[s] = vsha256h2q_u32(efgh[s], abcd_in, wk);
    }
}

/// SHA-256 or SHA-224 of `N` pairs, the streams' instructions
/// interleaved: each pair's first block as [`block_n!`], then the constant
/// padding block ([`pad_quad`]); `init` is the initial hash value, and
/// each digest the first `NODE` bytes of the final state.
#[inline]
#[target_feature(enable = "sha2")]
fn pairs_n<const N: usize, const NODE: usize>(init: &[u32; 8], blocks: [&[u8; 64]; N], pad_wk: &[u32; 64], out: &mut [[u8; NODE]]) {
    let (abcd0, efgh0) = load_state(init);
    let (mut abcd, mut efgh) = ([abcd0; N], [efgh0; N]);
    block_n!(N, &mut abcd, &mut efgh, blocks);
    let (abcd_in, efgh_in) = (abcd, efgh);
    pad_quad::<N, 0>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 1>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 2>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 3>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 4>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 5>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 6>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 7>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 8>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 9>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 10>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 11>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 12>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 13>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 14>(&mut abcd, &mut efgh, pad_wk);
    pad_quad::<N, 15>(&mut abcd, &mut efgh, pad_wk);
    for (s, digest) in out.iter_mut().enumerate().take(N) {
        let mut state = [0u32; 8];
        store_state(vaddq_u32(abcd[s], abcd_in[s]), vaddq_u32(efgh[s], efgh_in[s]), &mut state);
        super::digest_bytes(&state, digest);
    }
}

/// `out[i]` = SHA-256 or SHA-224 (from `init`) of `nodes[2i] ||
/// nodes[2i + 1]` (`NODE` 32 or 28 bytes): `streams` (2 or [`STREAMS`])
/// pairs at a time on the interleaved pair streams, the rest (fewer) as
/// two streams or one.
///
/// # Safety
/// The CPU must support `sha2` (FEAT_SHA256).
///
/// # Panics
/// If `nodes.len() != 2 * out.len()`.
pub(super) unsafe fn hash_pairs<const NODE: usize>(init: &[u32; 8], nodes: &[[u8; NODE]], out: &mut [[u8; NODE]], streams: usize) {
    assert_eq!(nodes.len(), 2 * out.len(), "hash_pairs: one output slot per pair of nodes");
    /// Whole groups of `N` pairs, returning how many pairs were hashed.
    ///
    /// # Safety
    /// As for `hash_pairs`.
    unsafe fn groups<const N: usize, const NODE: usize>(init: &[u32; 8], nodes: &[[u8; NODE]], out: &mut [[u8; NODE]]) -> usize {
        let pad_wk = super::pair_padding::<NODE>();
        let mut bufs = [[0u8; 64]; N];
        let mut done = 0;
        for (group, slot) in nodes.chunks_exact(2 * N).zip(out.chunks_exact_mut(N)) {
            // SAFETY: the caller guarantees `sha2`.
            unsafe { pairs_n::<N, NODE>(init, super::pair_blocks(group, &mut bufs), pad_wk, slot) };
            done += N;
        }
        done
    }
    // SAFETY (all three): the caller guarantees `sha2`.
    let mut done = if streams == 2 {
        unsafe { groups::<2, NODE>(init, nodes, out) }
    } else {
        unsafe { groups::<STREAMS, NODE>(init, nodes, out) }
    };
    done += unsafe { groups::<2, NODE>(init, &nodes[2 * done..], &mut out[done..]) };
    unsafe { groups::<1, NODE>(init, &nodes[2 * done..], &mut out[done..]) };
}

/// The two blocks of `prefix || body` (65 bytes: RFC 9162's leaves of 64
/// bytes and its nodes) as message words, built in registers from the body
/// read in place (FIPS 180-4 §5.1.1): the first block is the prefix and the
/// body's first 63 bytes (each vector the body's 16 bytes shifted in by
/// one from the vector before, `ext`), the second the body's last byte,
/// 0x80, zeros and the length, 520 bits.
#[inline]
#[target_feature(enable = "sha2")]
fn prefixed65_words(prefix: u8, body: &[u8; 64]) -> [[uint32x4_t; 4]; 2] {
    use core::arch::aarch64::{uint8x16_t, vdupq_n_u8, vextq_u8, vld1q_u8, vsetq_lane_u8};
    let (rows, _) = body.as_chunks::<16>();
    // SAFETY: each row is 16 readable bytes, what `vld1q_u8` reads.
    let load = |row: &[u8; 16]| unsafe { vld1q_u8(row.as_ptr()) };
    let raw = [load(&rows[0]), load(&rows[1]), load(&rows[2]), load(&rows[3])];
    let zero = vdupq_n_u8(0);
    // The prefix in byte 15, where `ext` takes the byte before row 0.
    let before = vsetq_lane_u8::<15>(prefix, zero);
    let first = [
        vextq_u8::<15>(before, raw[0]),
        vextq_u8::<15>(raw[0], raw[1]),
        vextq_u8::<15>(raw[1], raw[2]),
        vextq_u8::<15>(raw[2], raw[3]),
    ];
    // Byte 0: the body's last; byte 1: 0x80; bytes 62, 63: the length
    // 520 = 0x0208, big-endian.
    let last = vsetq_lane_u8::<15>(0x08, vsetq_lane_u8::<14>(0x02, zero));
    let second = [vsetq_lane_u8::<1>(0x80, vextq_u8::<15>(raw[3], zero)), zero, zero, last];
    let words = |v: uint8x16_t| vreinterpretq_u32_u8(vrev32q_u8(v));
    [first.map(words), second.map(words)]
}

/// `out[s]` = SHA-256 or SHA-224 (from `init`; the first `NODE` bytes of
/// the final state) of `prefix || bodies[s]` for `N` 64-byte bodies, the
/// streams' instructions interleaved (see [`prefixed65_words`]).
#[target_feature(enable = "sha2")]
pub(super) fn hash_prefixed65<const N: usize, const NODE: usize>(
    init: &[u32; 8],
    prefix: u8,
    bodies: [&[u8; 64]; N],
    out: [&mut [u8; NODE]; N],
) {
    let (abcd0, efgh0) = load_state(init);
    let (mut abcd, mut efgh) = ([abcd0; N], [efgh0; N]);
    let mut first = [[vdupq_n_u32(0); 4]; N];
    let mut second = [[vdupq_n_u32(0); 4]; N];
    for s in 0..N {
        [first[s], second[s]] = prefixed65_words(prefix, bodies[s]);
    }
    rounds_n!(N, &mut abcd, &mut efgh, &mut first);
    rounds_n!(N, &mut abcd, &mut efgh, &mut second);
    for (s, digest) in out.into_iter().enumerate() {
        let mut state = [0u32; 8];
        store_state(abcd[s], efgh[s], &mut state);
        super::digest_bytes(&state, digest);
    }
}
