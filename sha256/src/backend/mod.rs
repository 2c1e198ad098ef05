//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! Every entry point here is reachable from safe public code with any
//! `Backend` value (`<algorithm::Sha256 as hash_core::Algorithm>::compress`
//! does not go through `with_backend`'s check), so each one checks, with
//! `cpufeatures`' cached flag, that the CPU has the backend's features
//! before it calls `#[target_feature]` code, and panics otherwise.

use hash_core::typenum::U64;
use hash_core::{BackendKind, Block, DetectCache};

mod portable;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
mod x86_avx2;
#[cfg(all(target_arch = "x86_64", feature = "shani"))]
mod x86_shani;

#[cfg(all(target_arch = "x86_64", feature = "shani"))]
cpufeatures::new!(cpu_shani, "sha", "sse2", "ssse3", "sse4.1");
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
cpufeatures::new!(cpu_avx2, "avx2", "bmi1", "bmi2");

/// A SHA-256 compression backend.
///
/// [`Backend::detect`] picks the best one for this CPU (SHA-NI, then AVX2,
/// then portable); every hasher's `with_backend` forces one (it panics,
/// naming the missing CPU features, if this CPU lacks them;
/// `try_with_backend` returns the error instead). The same value selects
/// both the single-message path and the batch engine of `digest_many`.
///
/// Every variant exists in every build; one whose cargo feature is off, or
/// that needs x86-64 on another target, reports `is_supported() == false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// The x86 SHA extensions (`sha256rnds2`, `sha256msg1`, `sha256msg2`;
    /// Intel Goldmont / Ice Lake and later, AMD Zen and later).
    ///
    /// One message: two rounds per `sha256rnds2`, the state kept in the
    /// instruction's ABEF/CDGH layout for the whole run of blocks.
    /// `digest_many`: several messages at once as interleaved SHA-NI
    /// instruction streams, which hides `sha256rnds2`'s latency.
    ///
    /// Needs x86-64 with `sha`, `sse2`, `ssse3`, `sse4.1` and the `shani`
    /// cargo feature (on by default).
    ShaNi,
    /// AVX2 and BMI2, for x86-64 CPUs without SHA-NI (Intel Haswell to
    /// Skylake-derived cores).
    ///
    /// One message: the message schedule of two blocks at once in the two
    /// 128-bit halves of `ymm` registers, `W + K` spilled to the stack, and
    /// the rounds on general registers with BMI2 `rorx` rotations.
    /// `digest_many`: eight messages at once, one per 32-bit lane of the
    /// `ymm` registers.
    ///
    /// Needs x86-64 with `avx2`, `bmi1`, `bmi2` and the `avx2` cargo feature
    /// (on by default).
    Avx2,
    /// Safe, fully unrolled Rust; runs everywhere. `digest_many` hashes the
    /// messages one after another.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] = &[Backend::ShaNi, Backend::Avx2, Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::ShaNi => "sha-ni",
            Backend::Avx2 => "avx2",
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::ShaNi => "x86-64 with sha, sse2, ssse3, sse4.1 and the `shani` cargo feature",
            Backend::Avx2 => "x86-64 with avx2, bmi1, bmi2 and the `avx2` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            Backend::ShaNi => shani_supported(),
            Backend::Avx2 => avx2_supported(),
            Backend::Portable => true,
        }
    }

    #[inline]
    fn detect() -> Self {
        DETECTED.get()
    }
}

hash_core::backend_api!(Backend);

/// Whether the SHA-NI backend is compiled in and this CPU can run it.
#[inline]
fn shani_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "shani"))]
    {
        cpu_shani::get()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "shani")))]
    {
        false
    }
}

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

/// The panic for a backend that was not checked with `Backend::check`.
#[cold]
#[inline(never)]
#[track_caller]
fn unsupported(backend: Backend) -> ! {
    panic!("sha256: {}", backend.check().expect_err("only called for unsupported backends"))
}

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.2.2).
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 8], blocks: &[Block<U64>]) {
    match backend {
        Backend::ShaNi => {
            #[cfg(all(target_arch = "x86_64", feature = "shani"))]
            if cpu_shani::get() {
                // SAFETY: `cpu_shani::get()` just confirmed that this CPU has
                // sha, sse2, ssse3 and sse4.1, the features `compress` enables.
                unsafe { x86_shani::compress(state, blocks) };
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
/// batch engine (see the variants' docs); `A` is SHA-256 or SHA-224.
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
pub(crate) fn digest_many<A>(backend: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    match backend {
        Backend::ShaNi => {
            #[cfg(all(target_arch = "x86_64", feature = "shani"))]
            if cpu_shani::get() {
                // SAFETY: `cpu_shani::get()` just confirmed that this CPU has
                // sha, sse2, ssse3 and sse4.1, which `digest_many` requires.
                return unsafe { x86_shani::digest_many::<A>(inputs, outputs) };
            }
            unsupported(backend)
        }
        Backend::Avx2 => {
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            if cpu_avx2::get() {
                // SAFETY: `cpu_avx2::get()` just confirmed that this CPU has
                // avx2, bmi1 and bmi2, which `digest_many` requires.
                return unsafe { x86_avx2::digest_many::<A>(inputs, outputs) };
            }
            unsupported(backend)
        }
        Backend::Portable => {
            for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
                *output = hash_core::Hasher::<A>::digest_with_backend(backend, input);
            }
        }
    }
}
