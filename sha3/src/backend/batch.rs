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
