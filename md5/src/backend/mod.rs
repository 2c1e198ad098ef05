//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! `compress` and `digest_many` are reachable from safe code with any
//! `Backend` value (through `<md5::algorithm::Md5 as Algorithm>::compress`),
//! so each arm that runs `target_feature` code first checks, at run time,
//! that this CPU has those features.

use hash_core::typenum::U64;
use hash_core::{BackendKind, Block, DetectCache};

#[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "aarch64"))]
mod aarch64_asm;
#[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "aarch64", target_feature = "neon"))]
mod aarch64_neon;
mod portable;
#[cfg(all(target_arch = "x86_64", feature = "x86", feature = "asm"))]
mod x86_asm;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
mod x86_avx2;
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
mod x86_avx512;
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
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
cpufeatures::new!(avx512_cpuid, "avx512f", "bmi1");

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
    /// AVX-512F and BMI1 (x86-64, cargo feature `avx512`). One message is
    /// hashed with the [`Backend::X86`] scalar code; `digest_many` hashes up
    /// to 64 messages at a time in the 32-bit lanes of AVX-512 registers, as
    /// 1, 2 or 4 interleaved groups of 16 lanes depending on the batch size
    /// (two messages or fewer go through the scalar code).
    Avx512,
    /// AVX2 and BMI1 (x86-64, cargo feature `avx2`). One message is hashed
    /// with the [`Backend::X86`] scalar code (MD5 is one long dependency
    /// chain, which SIMD cannot shorten); `digest_many` hashes up to 32
    /// messages at a time in the 32-bit lanes of AVX2 registers, as 1, 2 or
    /// 4 interleaved groups of 8 lanes depending on the batch size (two
    /// messages or fewer go through the scalar code).
    Avx2,
    /// Scalar x86-64 with BMI1 (cargo feature `x86`), scheduled for a short
    /// critical path: inline assembly with the cargo feature `asm` (the
    /// default), else Rust. `digest_many` hashes the messages one after
    /// another.
    X86,
    /// Scalar aarch64 (little-endian; no extension needed): inline
    /// assembly scheduled for a short critical path, with the round
    /// constants loaded in pairs and the message words kept in registers
    /// (see `aarch64_asm.rs`). `digest_many` hashes 4 or 8 messages at a
    /// time in the 32-bit lanes of NEON registers, as 1 or 2 interleaved
    /// groups of 4 depending on the batch size (two messages or fewer go
    /// through the scalar code). Cargo feature `aarch64` (on by default).
    Aarch64,
    /// Safe, fully unrolled Rust; runs everywhere. `digest_many` hashes the
    /// messages one after another.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] =
        &[Backend::Avx512, Backend::Avx2, Backend::X86, Backend::Aarch64, Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::Avx512 => "avx512",
            Backend::Avx2 => "avx2",
            Backend::X86 => "x86",
            Backend::Aarch64 => "aarch64",
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::Avx512 => "x86-64 with avx512f, bmi1 and the `avx512` cargo feature",
            Backend::Avx2 => "x86-64 with avx2, bmi1 and the `avx2` cargo feature",
            Backend::X86 => "x86-64 with bmi1 and the `x86` cargo feature",
            Backend::Aarch64 => "little-endian aarch64 and the `aarch64` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
            Backend::Avx512 => avx512_cpuid::get(),
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            Backend::Avx2 => avx2_cpuid::get(),
            #[cfg(all(target_arch = "x86_64", feature = "x86"))]
            Backend::X86 => bmi1_cpuid::get(),
            #[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "aarch64"))]
            Backend::Aarch64 => true,
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
    hash_core::unsupported("MD5", backend)
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
        Backend::X86 | Backend::Avx2 | Backend::Avx512 if backend.is_supported() => {
            // SAFETY: the scalar code needs BMI1. `is_supported()` has just
            // returned true, and for these variants it includes the run-time
            // check for BMI1 (`bmi1_cpuid` / `avx2_cpuid` / `avx512_cpuid`).
            unsafe { x86_single::compress(state, blocks) }
        }
        // Baseline aarch64: nothing to check at run time.
        #[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "aarch64"))]
        Backend::Aarch64 => aarch64_asm::compress(state, blocks),
        #[allow(unreachable_patterns)]
        _ => unsupported(backend),
    }
}

/// The AVX2 batch engine for `N` lanes: `N / 8` groups of 8 interleaved.
/// `min_active` is the fewest busy lanes for which it beats the scalar code
/// once the batch has run dry.
///
/// # Panics
/// If this CPU or build does not support `Backend::Avx2`.
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
fn digest_many_avx2<const N: usize>(inputs: &[&[u8]], outputs: &mut [[u8; 16]], min_active: usize) {
    if !Backend::Avx2.is_supported() {
        unsupported(Backend::Avx2)
    }
    hash_core::multi::digest_many_lanes::<crate::algorithm::Md5, N>(
        Backend::Avx2,
        inputs,
        outputs,
        min_active,
        |states, data| {
            // SAFETY: the lane engine needs AVX2, which `avx2_cpuid` (behind
            // `Backend::Avx2.is_supported()`, checked above) has found on
            // this CPU.
            unsafe { x86_avx2::compress_lanes::<N>(states, data) }
        },
    );
}

/// The AVX-512 batch engine for `N` lanes: `N / 16` groups of 16
/// interleaved. `min_active` is the fewest busy lanes for which it
/// beats the scalar code once the batch has run dry.
///
/// # Panics
/// If this CPU or build does not support `Backend::Avx512`.
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
fn digest_many_avx512<const N: usize>(inputs: &[&[u8]], outputs: &mut [[u8; 16]], min_active: usize) {
    if !Backend::Avx512.is_supported() {
        unsupported(Backend::Avx512)
    }
    hash_core::multi::digest_many_lanes::<crate::algorithm::Md5, N>(
        Backend::Avx512,
        inputs,
        outputs,
        min_active,
        |states, data| {
            // SAFETY: the lane engine needs AVX-512F, which `avx512_cpuid`
            // (behind `Backend::Avx512.is_supported()`, checked above) has
            // found on this CPU, with the OS saving the zmm registers.
            unsafe { x86_avx512::compress_lanes::<N>(states, data) }
        },
    );
}

/// The NEON batch engine for `N` lanes: `N / 4` groups of 4 interleaved.
/// `min_active` is the fewest busy lanes for which it
/// beats the scalar code once the batch has run dry.
#[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "aarch64", target_feature = "neon"))]
fn digest_many_neon<const N: usize>(inputs: &[&[u8]], outputs: &mut [[u8; 16]], min_active: usize) {
    hash_core::multi::digest_many_lanes::<crate::algorithm::Md5, N>(
        Backend::Aarch64,
        inputs,
        outputs,
        min_active,
        |states, data| {
            // SAFETY: the lane engine needs NEON, which this build enables
            // for the whole program (the cfg on this function).
            unsafe { aarch64_neon::compress_lanes::<N>(states, data) }
        },
    );
}

/// Hash each of `inputs` into the matching `outputs` slot with `backend`.
///
/// The SIMD engines come in widths of 1, 2 or 4 interleaved groups of
/// lanes, picked by batch size, each with the fewest busy lanes for which
/// it beats the scalar code once the batch has run dry (`min_active`).
/// One MD5 step is a chain of four to six dependent vector operations; on
/// CPUs where those take two cycles each (AMD Zen 5, as measured here) a
/// single group leaves the vector units mostly idle, so wide batches run
/// four groups. Measured on Zen 5, one round of the AVX2 8-, 16- and
/// 32-lane engines costs about 2.5, 2.7 and 3.3 scalar blocks, and of the
/// AVX-512 16-, 32- and 64-lane engines about 1.8, 2.1 and 2.9, hence
/// `min_active` of 3 or 4 (batches of one or two messages run scalar).
///
/// # Panics
/// If this CPU or build does not support `backend` (or the slices differ in
/// length; the callers have checked that).
pub(crate) fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 16]]) {
    hash_core::check_batch(inputs.len(), outputs.len());
    match backend {
        #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
        Backend::Avx512 if backend.is_supported() => match inputs.len() {
            0..=16 => digest_many_avx512::<16>(inputs, outputs, 3),
            17..=32 => digest_many_avx512::<32>(inputs, outputs, 4),
            _ => digest_many_avx512::<64>(inputs, outputs, 4),
        },
        #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
        Backend::Avx2 if backend.is_supported() => match inputs.len() {
            0..=8 => digest_many_avx2::<8>(inputs, outputs, 3),
            9..=16 => digest_many_avx2::<16>(inputs, outputs, 3),
            _ => digest_many_avx2::<32>(inputs, outputs, 4),
        },
        // NEON is enabled for the whole build (standard aarch64 targets):
        // no run-time check. The widths and `min_active` are estimates on
        // paper (see `aarch64_neon.rs`), not measurements.
        #[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "aarch64", target_feature = "neon"))]
        Backend::Aarch64 => match inputs.len() {
            0..=4 => digest_many_neon::<4>(inputs, outputs, 3),
            _ => digest_many_neon::<8>(inputs, outputs, 3),
        },
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
