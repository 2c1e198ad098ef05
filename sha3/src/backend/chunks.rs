//! The leaves of KangarooTwelve and ParallelHash: many equal-length
//! chunks, each its own sponge, on the lane engines, and the sponge helpers
//! they share with the single-stream path.

use super::{Backend, absorb, batch};

/// Hash each of the `data.len() / len` consecutive `len`-byte chunks of
/// `data` as its own sponge (rate `RATE`, Keccak-p\[1600, `ROUNDS`\],
/// padding byte `domain` then `pad10*1`'s last bit) and write the first
/// `cv` bytes of chunk i's output to `out[i * cv..]`: the leaves of
/// KangarooTwelve (RFC 9861 §3.2) and ParallelHash (SP 800-185 §6.3).
/// Multi-lane backends hash `N` chunks at once.
///
/// # Panics
/// If `len` is 0, `cv > RATE`, or `out.len()` is not `cv` per chunk.
pub(crate) fn hash_chunks<const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    data: &[u8],
    len: usize,
    domain: u8,
    out: &mut [u8],
    cv: usize,
) {
    assert!(len > 0 && cv <= RATE && out.len() == data.len() / len * cv, "hash_chunks: bad chunk or output sizes");
    batch::run::<RATE, ROUNDS>(backend, Chunks::<RATE, ROUNDS> { backend, data, len, domain, out, cv });
}

/// The chunks of one [`hash_chunks`] call, as a batch.
struct Chunks<'a, const RATE: usize, const ROUNDS: usize> {
    backend: Backend,
    data: &'a [u8],
    len: usize,
    domain: u8,
    out: &'a mut [u8],
    cv: usize,
}

impl<const RATE: usize, const ROUNDS: usize> batch::Job for Chunks<'_, RATE, ROUNDS> {
    #[inline]
    fn lanes<const N: usize>(self, min_active: usize, absorb_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N])) {
        let Chunks { backend, data, len, domain, out, cv } = self;
        chunks_on_lanes::<N, RATE, ROUNDS>(backend, data, len, domain, out, cv, min_active, absorb_lanes);
    }

    #[inline]
    fn one_by_one(self) {
        let Chunks { backend, data, len, domain, out, cv } = self;
        for (chunk, cv_out) in data.chunks_exact(len).zip(out.chunks_exact_mut(cv)) {
            hash_chunk::<RATE, ROUNDS>(backend, chunk, domain, cv_out);
        }
    }
}

/// One chunk of [`hash_chunks`] on the single-stream permutation.
fn hash_chunk<const RATE: usize, const ROUNDS: usize>(backend: Backend, chunk: &[u8], domain: u8, out: &mut [u8]) {
    let mut state = [0u64; 25];
    let (blocks, tail) = chunk.as_chunks::<RATE>();
    absorb::<RATE, ROUNDS, [u8; RATE]>(backend, &mut state, blocks);
    let last = padded_tail::<RATE>(tail, domain);
    absorb::<RATE, ROUNDS, [u8; RATE]>(backend, &mut state, &[last]);
    squeeze_into(&state, out);
}

/// A final block: `tail` (shorter than the rate), the domain byte, zeros,
/// and `pad10*1`'s last bit (FIPS 202 §5.1, §B.2).
#[inline]
fn padded_tail<const RATE: usize>(tail: &[u8], domain: u8) -> [u8; RATE] {
    let mut block = [0u8; RATE];
    block[..tail.len()].copy_from_slice(tail);
    block[tail.len()] ^= domain;
    block[RATE - 1] ^= 0x80;
    block
}

/// The first `out.len()` (at most the rate) output bytes of a padded state.
#[inline]
fn squeeze_into(state: &[u64; 25], out: &mut [u8]) {
    for (bytes, lane) in out.chunks_mut(8).zip(state) {
        bytes.copy_from_slice(&lane.to_le_bytes()[..bytes.len()]);
    }
}

/// [`hash_chunks`] on an `N`-lane engine `absorb_lanes` (the contract of
/// every lane engine: `absorb::<RATE, ROUNDS>(states, data)` with every
/// `data[i]` the same whole number of `RATE`-byte blocks). Chunks go `N`
/// at a time; a last group of fewer than `min_active` chunks goes through
/// the single-stream permutation, a larger one fills its idle lanes with
/// copies of a busy lane whose results are dropped.
#[allow(clippy::too_many_arguments)]
#[cfg_attr(
    not(any(all(target_arch = "x86_64", feature = "avx2"), all(target_arch = "aarch64", feature = "arm-sha3"))),
    allow(dead_code)
)]
fn chunks_on_lanes<const N: usize, const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    data: &[u8],
    len: usize,
    domain: u8,
    out: &mut [u8],
    cv: usize,
    min_active: usize,
    mut absorb_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N]),
) {
    let n = data.len() / len;
    let whole = len - len % RATE;
    let mut first = 0;
    while first < n {
        let busy = (n - first).min(N);
        if busy < min_active {
            for i in first..n {
                hash_chunk::<RATE, ROUNDS>(
                    backend,
                    &data[i * len..(i + 1) * len],
                    domain,
                    &mut out[i * cv..(i + 1) * cv],
                );
            }
            return;
        }
        let chunk = |lane: usize| {
            let i = first + lane.min(busy - 1);
            &data[i * len..(i + 1) * len]
        };
        let mut states = [[0u64; 25]; N];
        if whole > 0 {
            absorb_lanes(&mut states, core::array::from_fn(|lane| &chunk(lane)[..whole]));
        }
        let tails: [[u8; RATE]; N] = core::array::from_fn(|lane| padded_tail::<RATE>(&chunk(lane)[whole..], domain));
        absorb_lanes(&mut states, core::array::from_fn(|lane| &tails[lane][..]));
        for (lane, state) in states.iter().take(busy).enumerate() {
            let i = first + lane;
            squeeze_into(state, &mut out[i * cv..(i + 1) * cv]);
        }
        first += busy;
    }
}
