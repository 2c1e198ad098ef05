//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! `compress` and `digest_many` are reachable from safe code with any
//! `Backend` value (through `<md5::algorithm::Md5 as Algorithm>::compress`),
//! so each arm that runs `target_feature` code first checks, at run time,
//! that this CPU has those features.

use hash_core::typenum::U64;
use hash_core::{BackendKind, Block, DetectCache};

mod portable;
#[cfg(all(target_arch = "x86_64", feature = "x86", feature = "asm"))]
mod x86_asm;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
mod x86_avx2;
#[cfg(all(target_arch = "x86_64", feature = "x86", not(feature = "asm")))]
mod x86_scalar;

#[cfg(all(target_arch = "x86_64", feature = "x86", feature = "asm"))]
use x86_asm as x86_single;
#[cfg(all(target_arch = "x86_64", feature = "x86", not(feature = "asm")))]
use x86_scalar as x86_single;

#[cfg(all(target_arch = "x86_64", feature = "x86"))]
cpufeatures::new!(bmi1_cpuid, "bmi1");
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
cpufeatures::new!(avx2_cpuid, "avx2", "bmi1");

/// An MD5 compression backend.
///
/// [`Backend::detect`] picks the best one for this CPU; every hasher's
/// `with_backend` forces one (it panics, naming the missing CPU features, if
/// this CPU lacks them; `try_with_backend` returns the error instead).
///
/// Every variant exists on every target; the ones this build or CPU cannot
/// run report `is_supported() == false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// AVX2 and BMI1 (x86-64, cargo feature `avx2`). One message is hashed
    /// with the [`Backend::X86`] scalar code (MD5 is one long dependency
    /// chain, which SIMD cannot shorten); `digest_many` hashes 16 messages
    /// at a time, in two interleaved groups of 8 AVX2 lanes.
    Avx2,
    /// Scalar x86-64 with BMI1 (cargo feature `x86`), scheduled for a short
    /// critical path: inline assembly with the cargo feature `asm` (the
    /// default), else Rust. `digest_many` hashes the messages one after
    /// another.
    X86,
    /// Safe, fully unrolled Rust; runs everywhere. `digest_many` hashes the
    /// messages one after another.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] = &[Backend::Avx2, Backend::X86, Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::Avx2 => "avx2",
            Backend::X86 => "x86",
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::Avx2 => "x86-64 with avx2, bmi1 and the `avx2` cargo feature",
            Backend::X86 => "x86-64 with bmi1 and the `x86` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            Backend::Avx2 => avx2_cpuid::get(),
            #[cfg(all(target_arch = "x86_64", feature = "x86"))]
            Backend::X86 => bmi1_cpuid::get(),
            Backend::Portable => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    #[inline]
    fn detect() -> Self {
        DETECTED.get()
    }
}

hash_core::backend_api!(Backend);

#[cold]
#[inline(never)]
#[track_caller]
fn unsupported(backend: Backend) -> ! {
    panic!("MD5: {}", backend.check().unwrap_err())
}

/// Compress `blocks` into `state` with `backend` (RFC 1321 §3.4).
///
/// # Panics
/// If this CPU or build does not support `backend`.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 4], blocks: &[Block<U64>]) {
    match backend {
        Backend::Portable => portable::compress(state, blocks),
        #[cfg(all(target_arch = "x86_64", feature = "x86"))]
        Backend::X86 | Backend::Avx2 if backend.is_supported() => {
            // SAFETY: the scalar code needs BMI1. `is_supported()` has just
            // returned true, and for both variants it includes the run-time
            // check for BMI1 (`bmi1_cpuid` / `avx2_cpuid`).
            unsafe { x86_single::compress(state, blocks) }
        }
        #[allow(unreachable_patterns)]
        _ => unsupported(backend),
    }
}

/// The fewest busy lanes for which the 16-lane AVX2 engine beats the scalar
/// code (measured: one 16-lane block costs about as much as one scalar
/// block).
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
const AVX2_MIN_ACTIVE: usize = 2;

/// Hash each of `inputs` into the matching `outputs` slot with `backend`.
///
/// # Panics
/// If this CPU or build does not support `backend` (or the slices differ in
/// length; the callers have checked that).
pub(crate) fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 16]]) {
    match backend {
        #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
        Backend::Avx2 if backend.is_supported() => hash_core::multi::digest_many_lanes::<crate::algorithm::Md5, 16>(
            backend,
            inputs,
            outputs,
            AVX2_MIN_ACTIVE,
            |states, data| {
                // SAFETY: the lane engine needs AVX2; `avx2_cpuid` (which
                // `is_supported()` checked just above for `Backend::Avx2`)
                // has found it on this CPU.
                unsafe { x86_avx2::compress_x16(states, data) }
            },
        ),
        _ => {
            if !backend.is_supported() {
                unsupported(backend)
            }
            for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
                *output = crate::Md5::digest_with_backend(backend, input);
            }
        }
    }
}
