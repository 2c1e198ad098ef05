//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! Every entry point here is reachable from safe public code with any
//! `Backend` value (`<algorithm::Sha512 as hash_core::Algorithm>::compress`
//! does not go through `with_backend`'s check), so each one checks, with
//! `cpufeatures`' cached flag, that the CPU has the backend's features
//! before it calls `#[target_feature]` code, and panics otherwise.

use hash_core::typenum::U128;
use hash_core::{BackendKind, Block, DetectCache, FixedAlgorithm, Hasher};

mod portable;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
mod x86_avx2;
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
mod x86_avx512;

#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
cpufeatures::new!(cpu_avx2, "avx2", "bmi1", "bmi2");
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
cpufeatures::new!(cpu_avx512, "avx512f", "avx512vl", "avx512bw", "avx2", "bmi1", "bmi2");

/// A SHA-512 compression backend (shared by SHA-384, SHA-512/224 and
/// SHA-512/256).
///
/// [`Backend::detect`] picks the best one for this CPU (AVX-512, then
/// AVX2, then portable); every hasher's `with_backend` forces one (it
/// panics, naming the missing CPU features, if this CPU lacks them;
/// `try_with_backend` returns the error instead). The same value selects both the
/// single-message path and the batch engine of `digest_many`.
///
/// Every variant exists in every build; one whose cargo feature is off, or
/// that needs x86-64 on another target, reports `is_supported() == false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// AVX-512 (F, VL and BW) with AVX2, BMI1 and BMI2 (Intel Skylake-SP
    /// and later server cores, AMD Zen 4 and later).
    ///
    /// One message: the code of [`Backend::Avx2`] (the rounds of one
    /// message form a single dependency chain, best run on general
    /// registers), its message schedule with AVX-512VL rotations and
    /// three-way XORs. `digest_many`: eight messages at once, one per 64-bit
    /// lane of the `zmm` registers, with `vprorq` rotations and `vpternlogq`
    /// for Ch, Maj and the three-way XORs; the last few messages of a
    /// batch, once fewer than four lanes would be busy, go through the
    /// one-message path.
    ///
    /// Needs x86-64 with `avx512f`, `avx512vl`, `avx512bw`, `avx2`, `bmi1`,
    /// `bmi2` and the `avx512` cargo feature (on by default).
    Avx512,
    /// AVX2, BMI1 and BMI2 (Intel Haswell and later, AMD Zen and later).
    ///
    /// One message: the message schedule of two blocks at once in the two
    /// 128-bit halves of `ymm` registers, `W + K` spilled to the stack, and
    /// the rounds on general registers with BMI2 `rorx` rotations.
    /// `digest_many`: five messages at once, four in the 64-bit lanes of
    /// `ymm` registers and the fifth on general registers in the same loop
    /// (the vector lanes are bound by the vector shift units, which leaves
    /// the integer ALUs free); the last few messages of a batch, once fewer
    /// than four lanes would be busy, go through the one-message path.
    ///
    /// Needs x86-64 with `avx2`, `bmi1`, `bmi2` and the `avx2` cargo feature
    /// (on by default).
    Avx2,
    /// Safe, fully unrolled Rust; runs everywhere. One message: one block
    /// at a time. `digest_many`: the messages one after another.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] = &[Backend::Avx512, Backend::Avx2, Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::Avx512 => "avx512",
            Backend::Avx2 => "avx2",
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::Avx512 => {
                "x86-64 with avx512f, avx512vl, avx512bw, avx2, bmi1, bmi2 and the `avx512` cargo feature"
            }
            Backend::Avx2 => "x86-64 with avx2, bmi1, bmi2 and the `avx2` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            Backend::Avx512 => avx512_supported(),
            Backend::Avx2 => avx2_supported(),
            Backend::Portable => true,
        }
    }

    #[inline]
    fn detect() -> Self {
        DETECTED.get()
    }

    /// The batch engine is the backend's own on every CPU (see the
    /// variants' docs): on a CPU with AVX-512 the `avx512` backend is the
    /// detected one, so forcing `avx2` there measures the AVX2 engine.
    fn batch_engine(self, messages: usize) -> &'static str {
        match self {
            _ if messages < 4 || !self.is_supported() => "one by one",
            Backend::Avx512 => "avx512 8 lanes",
            Backend::Avx2 => "avx2 4 lanes + 1 scalar",
            Backend::Portable => "one by one",
        }
    }
}

hash_core::backend_api!(Backend);

/// Whether the AVX2 backend is compiled in and this CPU can run it.
#[inline]
fn avx2_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    {
        cpu_avx2::get()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "avx2")))]
    {
        false
    }
}

/// Whether the AVX-512 backend is compiled in and this CPU can run it.
#[inline]
fn avx512_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    {
        cpu_avx512::get()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "avx512")))]
    {
        false
    }
}

/// The panic for a backend that was not checked with `Backend::check`.
#[cold]
#[inline(never)]
#[track_caller]
fn unsupported(backend: Backend) -> ! {
    hash_core::unsupported("sha512", backend)
}

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.4.2).
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u64; 8], blocks: &[Block<U128>]) {
    match backend {
        Backend::Avx512 => {
            #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
            if cpu_avx512::get() {
                // SAFETY: `cpu_avx512::get()` just confirmed that this CPU
                // has avx2, bmi1, bmi2, avx512f and avx512vl (among others),
                // the features `compress_vl` enables.
                unsafe { x86_avx2::compress_vl(state, blocks) };
                return;
            }
            unsupported(backend)
        }
        Backend::Avx2 => {
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            if cpu_avx2::get() {
                // SAFETY: `cpu_avx2::get()` just confirmed that this CPU has
                // avx2, bmi1 and bmi2, the features `compress` enables.
                unsafe { x86_avx2::compress(state, blocks) };
                return;
            }
            unsupported(backend)
        }
        Backend::Portable => portable::compress(state, blocks),
    }
}

/// Hash each of `inputs` into the matching `outputs` slot with `backend`'s
/// batch engine (see the variants' docs); `A` is one of the SHA-512 family.
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
pub(crate) fn digest_many<A>(backend: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<Backend = Backend, State = [u64; 8], BlockSize = U128>,
{
    hash_core::check_batch(inputs.len(), outputs.len());
    match backend {
        Backend::Avx512 => {
            #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
            if cpu_avx512::get() {
                // SAFETY: `cpu_avx512::get()` just confirmed that this CPU
                // has avx512f, avx512vl, avx512bw, avx2, bmi1 and bmi2, which
                // cover the features `digest_many` enables.
                return unsafe { x86_avx512::digest_many::<A>(inputs, outputs) };
            }
            unsupported(backend)
        }
        Backend::Avx2 => {
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            if cpu_avx2::get() {
                // SAFETY: `cpu_avx2::get()` just confirmed that this CPU has
                // avx2, bmi1 and bmi2, the features `digest_many` enables.
                return unsafe { x86_avx2::digest_many::<A>(inputs, outputs) };
            }
            unsupported(backend)
        }
        Backend::Portable => {
            for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
                *output = Hasher::<A>::digest_with_backend(backend, input);
            }
        }
    }
}
