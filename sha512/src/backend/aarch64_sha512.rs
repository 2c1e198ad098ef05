//! SHA-512 compression (FIPS 180-4 §6.4.2) with the Armv8.2 SHA512
//! instructions (`SHA512H`, `SHA512H2`, `SHA512SU0`, `SHA512SU1`; Rust and
//! LLVM enable them with the `sha3` target feature).
//!
//! The state lives in four vectors `ab`, `cd`, `ef`, `gh` (word a in lane
//! 0 of `ab`, and so on) and the message schedule in eight, `s[i]` holding
//! W[2i] and W[2i + 1]. One double round (rounds t and t + 1) is, as in the
//! Arm ARM's example and the Linux and OpenSSL code:
//!
//! ```text
//! sum      = swap(s + K[t..t+2]) + gh          W + K + h for both rounds
//! t1       = SHA512H(sum, ext(ef, gh), ext(cd, ef))   Σ1 and Ch (T1)
//! gh'      = SHA512H2(t1, cd, ab)              Σ0 and Maj (T1 + T2)
//! cd'      = cd + t1                           d + T1 (the new e, f)
//! ```
//!
//! after which the four state vectors change roles (gh' is the next ab,
//! ab the next cd, and so on), so nothing is moved. For t >= 16 the
//! schedule word pair is first extended in place (§6.4.2 step 1):
//! `s[i] = SHA512SU1(SHA512SU0(s[i], s[i+1]), s[i+7], ext(s[i+4], s[i+5]))`.
//! That is twelve instructions per double round (one of them the load of
//! K), as in OpenSSL's `sha512_block_armv8`. Counted in the disassembly of
//! a release build (rustc 1.96): 468 instructions per block for one
//! stream, 1057 per two blocks for two, against 485 for OpenSSL 3.0.
//!
//! [`compress_n`] runs `N` independent messages with their instructions
//! interleaved step by step (`N = 1` for one message, `N = 2` for
//! `digest_many`): `SHA512H` and `SHA512H2` have latencies of several cycles
//! and each double round depends on the previous one, so one message leaves
//! the crypto unit idle between them; a second, independent chain fills
//! those slots.

use core::arch::aarch64::{
    uint64x2_t, vaddq_u64, vdupq_n_u64, vextq_u64, vld1q_u8, vld1q_u64, vreinterpretq_u64_u8, vrev64q_u8, vsha512h2q_u64,
    vsha512hq_u64, vsha512su0q_u64, vsha512su1q_u64, vst1q_u64,
};

use hash_core::typenum::U128;
use hash_core::{Block, FixedAlgorithm};

use crate::consts::{K, PAD128_WK};

/// Streams of the `digest_many` engine.
const LANES: usize = 2;

/// The fewest busy streams for which the two-stream engine is used once a
/// batch runs dry: a single leftover message goes through the one-message
/// path, which does the same work without the idle stream's copy.
const MIN_ACTIVE: usize = 2;

/// Load 16 message bytes as two big-endian 64-bit words (FIPS 180-4 §3.1:
/// words are big-endian), W[t] in lane 0 and W[t + 1] in lane 1.
#[inline]
#[target_feature(enable = "neon")]
fn load_be(bytes: &[u8; 16]) -> uint64x2_t {
    // SAFETY: `bytes` is a reference to 16 readable bytes, the width of the
    // unaligned load; NEON is enabled on this function.
    let v = unsafe { vld1q_u8(bytes.as_ptr()) };
    vreinterpretq_u64_u8(vrev64q_u8(v))
}

/// K[t] and K[t + 1] (FIPS 180-4 §4.2.3).
#[inline]
#[target_feature(enable = "neon")]
fn load_k(pair: &[u64; 2]) -> uint64x2_t {
    // SAFETY: `pair` is a reference to two readable u64s, the width of the
    // load; NEON is enabled on this function.
    unsafe { vld1q_u64(pair.as_ptr()) }
}

/// Compress `blocks` blocks into each `states[j]`, block `n` of stream `j`
/// being `block_at(j, n)`, the `N` streams interleaved instruction by
/// instruction. With `PAD`, each block is instead the one that pads a
/// 128-byte message (a pair of SHA-512 digests), whose W + K is the
/// constant [`PAD128_WK`]: no schedule, and what `block_at` gives is not
/// read.
#[inline]
#[target_feature(enable = "neon,sha3")]
fn compress_n<'a, const N: usize, const PAD: bool>(
    states: &mut [[u64; 8]; N],
    blocks: usize,
    block_at: impl Fn(usize, usize) -> &'a [u8; 128],
) {
    // The state stays in `states` between blocks and is read twice per
    // block (to start, and for step 4), which leaves the vector registers
    // to the two streams' working and schedule vectors.
    let load_state = |st: &[u64; 8], i: usize| load_k(&[st[i], st[i + 1]]);
    for n in 0..blocks {
        let block: [&[u8; 128]; N] = core::array::from_fn(|j| block_at(j, n));
        let mut ab: [uint64x2_t; N] = core::array::from_fn(|j| load_state(&states[j], 0));
        let mut cd: [uint64x2_t; N] = core::array::from_fn(|j| load_state(&states[j], 2));
        let mut ef: [uint64x2_t; N] = core::array::from_fn(|j| load_state(&states[j], 4));
        let mut gh: [uint64x2_t; N] = core::array::from_fn(|j| load_state(&states[j], 6));
        // W[0..16], two words per vector (§6.4.2 step 1, t < 16).
        let mut s: [[uint64x2_t; N]; 8] = if PAD {
            [[vdupq_n_u64(0); N]; 8]
        } else {
            core::array::from_fn(|i| {
                core::array::from_fn(|j| load_be(block[j][16 * i..16 * i + 16].try_into().expect("16 bytes")))
            })
        };

        // Rounds t and t + 1 on message vector `s[$i]`, with the state
        // vectors in the roles ($ab, $cd, $ef, $gh); for t >= 16 the
        // vector is first extended in place.
        macro_rules! dround {
            ($t:expr, $i:expr, $ab:ident, $cd:ident, $ef:ident, $gh:ident) => {
                for j in 0..N {
                    let wk = if PAD {
                        load_k(&[PAD128_WK[$t], PAD128_WK[$t + 1]])
                    } else {
                        if $t >= 16 {
                            let x = vsha512su0q_u64(s[$i][j], s[($i + 1) % 8][j]);
                            let y = vextq_u64::<1>(s[($i + 4) % 8][j], s[($i + 5) % 8][j]);
                            s[$i][j] = vsha512su1q_u64(x, s[($i + 7) % 8][j], y);
                        }
                        vaddq_u64(s[$i][j], load_k(&[K[$t], K[$t + 1]]))
                    };
                    let sum = vaddq_u64(vextq_u64::<1>(wk, wk), $gh[j]);
                    let t1 = vsha512hq_u64(sum, vextq_u64::<1>($ef[j], $gh[j]), vextq_u64::<1>($cd[j], $ef[j]));
                    // d + T1 before SHA512H2, which overwrites T1's register.
                    let cd = vaddq_u64($cd[j], t1);
                    $gh[j] = vsha512h2q_u64(t1, $cd[j], $ab[j]);
                    $cd[j] = cd;
                }
            };
        }

        // Sixteen rounds: eight double rounds, the state roles rotating by
        // one vector per double round (a full turn every four).
        macro_rules! sixteen {
            ($t:expr) => {
                dround!($t, 0, ab, cd, ef, gh);
                dround!($t + 2, 1, gh, ab, cd, ef);
                dround!($t + 4, 2, ef, gh, ab, cd);
                dround!($t + 6, 3, cd, ef, gh, ab);
                dround!($t + 8, 4, ab, cd, ef, gh);
                dround!($t + 10, 5, gh, ab, cd, ef);
                dround!($t + 12, 6, ef, gh, ab, cd);
                dround!($t + 14, 7, cd, ef, gh, ab);
            };
        }

        sixteen!(0);
        sixteen!(16);
        sixteen!(32);
        sixteen!(48);
        sixteen!(64);

        // Step 4: add the block's input state.
        for (j, state) in states.iter_mut().enumerate() {
            for (i, v) in [ab[j], cd[j], ef[j], gh[j]].into_iter().enumerate() {
                let sum = vaddq_u64(v, load_state(state, 2 * i));
                let out: &mut [u64; 2] = (&mut state[2 * i..2 * i + 2]).try_into().expect("two words");
                // SAFETY: `out` is a mutable reference to two u64s, the
                // width of the store; NEON is enabled on this function.
                unsafe { vst1q_u64(out.as_mut_ptr(), sum) };
            }
        }
    }
}

/// Compress each block in turn into `state`.
#[target_feature(enable = "neon,sha3")]
pub(super) fn compress(state: &mut [u64; 8], blocks: &[Block<U128>]) {
    let states: &mut [[u64; 8]; 1] = core::array::from_mut(state);
    compress_n::<1, false>(states, blocks.len(), |_, n| blocks[n][..].try_into().expect("128-byte block"));
}

/// Compress the whole blocks of `data[0]` and `data[1]` (of equal lengths,
/// the scheduler's contract) into `states[0]` and `states[1]`.
#[target_feature(enable = "neon,sha3")]
fn compress2(states: &mut [[u64; 8]; LANES], data: [&[u8]; LANES]) {
    assert!(data[0].len() == data[1].len() && data[0].len().is_multiple_of(128), "equal whole blocks");
    compress_n::<LANES, false>(states, data[0].len() / 128, |j, n| {
        data[j][n * 128..n * 128 + 128].try_into().expect("128-byte block")
    });
}

/// Hash each of `inputs` into the matching slot of `outputs`, two messages
/// at a time on [`compress_n`]; a last message left on its own goes
/// through the one-message path.
#[target_feature(enable = "neon,sha3")]
pub(super) fn digest_many<A>(inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<Backend = super::Backend, State = [u64; 8], BlockSize = U128>,
{
    hash_core::multi::digest_many_lanes::<A, LANES>(
        super::Backend::ArmSha512,
        inputs,
        outputs,
        MIN_ACTIVE,
        |states, data| compress2(states, data),
    );
}

/// `out[i]` = SHA-512 (from `init`) of `pairs[i]`, a 128-byte message (two
/// 64-byte nodes): two streams at a time (one for a last pair), the pair's
/// block with its schedule, then the padding block on its constant W + K.
#[target_feature(enable = "neon,sha3")]
pub(super) fn hash_pairs128(init: &[u64; 8], pairs: &[[u8; 128]], out: &mut [[u8; 64]]) {
    assert_eq!(pairs.len(), out.len(), "hash_pairs128: one output slot per 128-byte message");
    fn digests<const N: usize>(states: &[[u64; 8]; N], out: &mut [[u8; 64]]) {
        for (digest, state) in out.iter_mut().zip(states) {
            super::digest_bytes(state, digest);
        }
    }
    let mut groups = pairs.chunks_exact(LANES);
    let mut slots = out.chunks_exact_mut(LANES);
    for (group, slot) in (&mut groups).zip(&mut slots) {
        let mut states = [*init; LANES];
        compress_n::<LANES, false>(&mut states, 1, |j, _| &group[j]);
        compress_n::<LANES, true>(&mut states, 1, |j, _| &group[j]);
        digests(&states, slot);
    }
    for (pair, slot) in groups.remainder().iter().zip(slots.into_remainder().chunks_exact_mut(1)) {
        let mut states = [*init];
        compress_n::<1, false>(&mut states, 1, |_, _| pair);
        compress_n::<1, true>(&mut states, 1, |_, _| pair);
        digests(&states, slot);
    }
}
