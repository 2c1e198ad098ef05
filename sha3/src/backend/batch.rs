//! Batches on the lane engines: `digest_many`, `digest_xof_many` and the
//! leaves of `chunks.rs` all go through [`run`], the one dispatch from a
//! backend to its lane engine.

use hash_core::{FixedAlgorithm, Xof, XofAlgorithm};

use super::Backend;

/// A batch that runs either on an `N`-lane Keccak engine or one message at
/// a time.
pub(super) trait Job {
    /// Run on `absorb_lanes`, an `N`-lane engine with the contract of every
    /// lane engine (`absorb::<RATE, ROUNDS>(states, data)` with every
    /// `data[i]` the same whole number of rate-sized blocks), going one by
    /// one once fewer than `min_active` lanes would be busy. (Unused in
    /// builds without lane engines.)
    #[cfg_attr(
        not(any(all(target_arch = "x86_64", feature = "avx2"), all(target_arch = "aarch64", feature = "arm-sha3"))),
        allow(dead_code)
    )]
    fn lanes<const N: usize>(self, min_active: usize, absorb_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N]));

    /// Run one message at a time on the single-stream permutation.
    fn one_by_one(self);
}

/// Run `job` on `backend`'s lane engine: eight states at a time on the
/// AVX-512 engine, four on the AVX2 one, two on the SHA3 extension's; one
/// at a time on the other backends.
#[inline]
pub(super) fn run<const RATE: usize, const ROUNDS: usize>(backend: Backend, job: impl Job) {
    backend_dispatch!(backend;
        Avx512 => unsafe {
            job.lanes::<8>(super::AVX512_MIN_ACTIVE, |states, data| super::x86_avx512::absorb8::<RATE, ROUNDS>(states, data))
        },
        Avx2 => unsafe {
            job.lanes::<4>(super::AVX2_MIN_ACTIVE, |states, data| super::x86_avx2::absorb4::<RATE, ROUNDS>(states, data))
        },
        ArmSha3 => unsafe {
            job.lanes::<2>(super::ARM_SHA3_MIN_ACTIVE, |states, data| {
                super::aarch64_sha3::absorb2::<RATE, ROUNDS>(states, data)
            })
        },
        X86 | Aarch64 | Portable => safe { job.one_by_one() },
    )
}

/// A batch of fixed-output messages.
struct Fixed<'a, 'b, A: FixedAlgorithm> {
    backend: Backend,
    inputs: &'a [&'b [u8]],
    outputs: &'a mut [A::Output],
}

impl<A: FixedAlgorithm<State = [u64; 25], Backend = Backend>> Job for Fixed<'_, '_, A> {
    #[inline]
    fn lanes<const N: usize>(self, min_active: usize, absorb_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N])) {
        hash_core::multi::digest_many_lanes::<A, N>(self.backend, self.inputs, self.outputs, min_active, absorb_lanes);
    }

    #[inline]
    fn one_by_one(self) {
        hash_core::multi::digest_one_by_one::<A>(self.backend, self.inputs, self.outputs);
    }
}

/// A batch of XOF messages, each filling its output slot.
struct Extendable<'a, 'b, 'c, A> {
    backend: Backend,
    inputs: &'a [&'b [u8]],
    outputs: &'a mut [&'c mut [u8]],
    algorithm: core::marker::PhantomData<A>,
}

impl<A: XofAlgorithm<Backend = Backend>> Job for Extendable<'_, '_, '_, A> {
    #[inline]
    fn lanes<const N: usize>(self, min_active: usize, absorb_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N])) {
        hash_core::multi::digest_xof_many_lanes::<A, N>(
            self.backend,
            self.inputs,
            self.outputs,
            min_active,
            absorb_lanes,
        );
    }

    #[inline]
    fn one_by_one(self) {
        // The lane scheduler checks the batch; here it is ours to check.
        hash_core::check_batch(self.inputs.len(), self.outputs.len());
        for (input, output) in self.inputs.iter().zip(self.outputs.iter_mut()) {
            Xof::<A>::digest_xof_with_backend(self.backend, input, output);
        }
    }
}

/// Hash a batch of fixed-output messages with `backend`: eight at a time
/// on the AVX-512 engine, four on the AVX2 one, two on the SHA3
/// extension's, else one by one. The `hash_core::multi` function each path
/// ends in checks that the slices pair up.
pub(crate) fn digest_many<A, const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    inputs: &[&[u8]],
    outputs: &mut [A::Output],
) where
    A: FixedAlgorithm<State = [u64; 25], Backend = Backend>,
{
    run::<RATE, ROUNDS>(backend, Fixed::<A> { backend, inputs, outputs });
}

/// Absorb each of a batch of XOF messages and fill its output slot: the
/// absorbing on the lane engines as [`digest_many`], else one by one.
pub(crate) fn digest_xof_many<A, const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    inputs: &[&[u8]],
    outputs: &mut [&mut [u8]],
) where
    A: XofAlgorithm<Backend = Backend>,
{
    run::<RATE, ROUNDS>(backend, Extendable::<A> { backend, inputs, outputs, algorithm: core::marker::PhantomData });
}

/// A level of pairs (`out[i]` = the hash of `nodes[2i] || nodes[2i + 1]`)
/// for a sponge whose pair of `NODE`-byte nodes and padding fit in one
/// `RATE`-byte block: one Keccak-f permutation per pair, from a state made
/// straight from the pair (FIPS 202 §4 Algorithm 8 with one block).
struct Pairs<'a, A, const RATE: usize, const NODE: usize> {
    backend: Backend,
    domain: u8,
    nodes: &'a [[u8; NODE]],
    outputs: &'a mut [[u8; NODE]],
    algorithm: core::marker::PhantomData<A>,
}

impl<A, const RATE: usize, const NODE: usize> Pairs<'_, A, RATE, NODE>
where
    A: FixedAlgorithm<State = [u64; 25], Backend = Backend, Output = [u8; NODE]>,
{
    /// `pair` padded into its one block: the domain byte (its suffix bits
    /// and `pad10*1`'s first 1) after it, `pad10*1`'s last 1 in the rate's
    /// last bit (FIPS 202 §5.1, §B.2).
    fn pad(domain: u8) -> [u8; RATE] {
        let mut block = [0u8; RATE];
        block[2 * NODE] = domain;
        block[RATE - 1] |= 0x80;
        block
    }

    /// Pairs `first..` one at a time: the padded block XORed into a zero
    /// state, one permutation, the digest.
    fn singles(&mut self, first: usize) {
        let block = Self::pad(self.domain);
        for (pair, out) in self.nodes[2 * first..].chunks_exact(2).zip(&mut self.outputs[first..]) {
            let mut state = [0u64; 25];
            let pair = pair.as_flattened();
            for (word, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
                *word = u64::from_le_bytes(bytes.try_into().expect("8-byte chunk"));
            }
            for (word, bytes) in state.iter_mut().zip(pair.chunks_exact(8)) {
                *word ^= u64::from_le_bytes(bytes.try_into().expect("8-byte chunk"));
            }
            super::permute::<24>(self.backend, &mut state);
            A::output(&state, out);
        }
    }
}

impl<A, const RATE: usize, const NODE: usize> Job for Pairs<'_, A, RATE, NODE>
where
    A: FixedAlgorithm<State = [u64; 25], Backend = Backend, Output = [u8; NODE]>,
{
    #[inline]
    fn lanes<const N: usize>(
        mut self,
        min_active: usize,
        mut absorb_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N]),
    ) {
        // Every lane's block keeps its padding; only the pair is rewritten.
        let mut blocks = [Self::pad(self.domain); N];
        let groups = self.outputs.len() / N;
        let rest = self.outputs.len() % N;
        let lane_groups = groups + usize::from(rest >= min_active);
        for g in 0..lane_groups {
            let busy = (self.outputs.len() - g * N).min(N);
            for (lane, block) in blocks.iter_mut().enumerate() {
                // Idle lanes of the last group repeat its first pair.
                let i = g * N + if lane < busy { lane } else { 0 };
                block[..2 * NODE].copy_from_slice(self.nodes[2 * i..2 * i + 2].as_flattened());
            }
            let mut states = [[0u64; 25]; N];
            absorb_lanes(&mut states, core::array::from_fn(|lane| &blocks[lane][..]));
            for (state, out) in states.iter().zip(&mut self.outputs[g * N..g * N + busy]) {
                A::output(state, out);
            }
        }
        self.singles((lane_groups * N).min(self.outputs.len()));
    }

    #[inline]
    fn one_by_one(mut self) {
        self.singles(0);
    }
}

/// `hash_pairs` for a fixed-output sponge with domain byte `domain`: on the
/// `avx512` backend, whole groups of eight pairs on the pair kernel
/// (`x86_avx512::pairs8`, every digest size); the rest, and the other
/// backends, where a pair and its padding fit in one block (every SHA-3
/// digest but SHA3-512's 128-byte pairs), one permutation per pair on the
/// lane engines as [`digest_many`] (states made straight from the pairs,
/// no buffering), else one at a time; SHA3-512's two-block pairs there are
/// gathered for [`digest_many`] (`hash_core::hash_pairs_gathered`).
///
/// # Panics
/// If `nodes.len() != 2 * outputs.len()`, or this CPU (or this build) does
/// not support `backend`.
pub(crate) fn hash_pairs<A, const RATE: usize, const NODE: usize>(
    backend: Backend,
    domain: u8,
    nodes: &[[u8; NODE]],
    outputs: &mut [[u8; NODE]],
) where
    A: FixedAlgorithm<State = [u64; 25], Backend = Backend, Output = [u8; NODE]>,
{
    hash_core::assert_pairs::<A>(nodes.len(), outputs.len());
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    let (nodes, outputs) = if backend == Backend::Avx512 {
        // Whole groups of eight on the AVX-512 pair kernel; the rest below.
        let (groups, _) = nodes.as_chunks::<16>();
        let (slots, _) = outputs.as_chunks_mut::<8>();
        let done = slots.len();
        for (group, slot) in groups.iter().zip(slots.iter_mut()) {
            backend_checked!(Avx512, else super::unsupported(backend), unsafe {
                super::x86_avx512::pairs8::<RATE, NODE>(domain, group, slot)
            });
        }
        (&nodes[16 * done..], &mut outputs[8 * done..])
    } else {
        (nodes, outputs)
    };
    if 2 * NODE >= RATE {
        return hash_core::hash_pairs_gathered::<A>(backend, nodes, outputs);
    }
    // `run` checks the backend on every path.
    run::<RATE, 24>(
        backend,
        Pairs::<A, RATE, NODE> { backend, domain, nodes, outputs, algorithm: core::marker::PhantomData },
    );
}
