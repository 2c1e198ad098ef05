//! Backend selection and dispatch: the one place that picks a Keccak-f
//! implementation for a [`Backend`].

use hash_core::{BackendKind, DetectCache, FixedAlgorithm, Hasher, UnsupportedBackend, Xof, XofAlgorithm};

mod portable;
#[cfg(all(target_arch = "x86_64", feature = "x86"))]
mod x86_keccak;

#[cfg(all(target_arch = "x86_64", feature = "x86"))]
cpufeatures::new!(cpuid_bmi, "bmi1", "bmi2");

/// A Keccak-f\[1600\] backend, shared by every SHA-3, SHAKE and Keccak-256
/// type of this crate.
///
/// [`Backend::detect`] picks the best one for this CPU; every hasher's
/// `with_backend` forces one (it panics, naming the missing CPU features, if
/// this CPU lacks them; `try_with_backend` returns the error instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Scalar x86-64 Keccak-f compiled with BMI1 (`andn` for χ) and BMI2
    /// (`rorx` for ρ), for one message and for each message of a
    /// `digest_many` batch in turn. Needs the `x86` cargo feature (on by
    /// default).
    X86,
    /// Safe, fully unrolled Rust; runs everywhere. One message at a time,
    /// also in `digest_many`.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] = &[Backend::X86, Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::X86 => "x86",
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::X86 => "x86-64 with bmi1, bmi2 and the `x86` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            #[cfg(all(target_arch = "x86_64", feature = "x86"))]
            Backend::X86 => cpuid_bmi::get(),
            #[cfg(not(all(target_arch = "x86_64", feature = "x86")))]
            Backend::X86 => false,
            Backend::Portable => true,
        }
    }

    #[inline]
    fn detect() -> Self {
        DETECTED.get()
    }
}

hash_core::backend_api!(Backend);

/// Refuse a backend this CPU or build cannot run. The dispatch functions are
/// reachable from safe code (`<algorithm::Sha3_256 as Algorithm>::compress`)
/// with any backend value, so they check before running target-feature code.
#[cold]
#[track_caller]
fn unsupported(backend: Backend) -> ! {
    panic!("sha3: {}", UnsupportedBackend { backend: backend.name(), requires: backend.requires() });
}

/// Absorb `blocks` (each `RATE` bytes) into `state` with `backend`
/// (FIPS 202 §4 Algorithm 8 step 6).
#[inline]
pub(crate) fn absorb<const RATE: usize, B: AsRef<[u8]>>(backend: Backend, state: &mut [u64; 25], blocks: &[B]) {
    match backend {
        Backend::Portable => portable::absorb::<RATE, B>(state, blocks),
        #[cfg(all(target_arch = "x86_64", feature = "x86"))]
        Backend::X86 => {
            if !cpuid_bmi::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_bmi::get()` just confirmed BMI1 and BMI2, the
            // target features `x86_keccak::absorb` is compiled with.
            unsafe { x86_keccak::absorb::<RATE, B>(state, blocks) }
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "x86")))]
        Backend::X86 => unsupported(backend),
    }
}

/// Apply Keccak-p\[1600, 24\] (FIPS 202 §3.3) once with `backend`.
#[inline]
pub(crate) fn permute(backend: Backend, state: &mut [u64; 25]) {
    match backend {
        Backend::Portable => portable::permute(state),
        #[cfg(all(target_arch = "x86_64", feature = "x86"))]
        Backend::X86 => {
            if !cpuid_bmi::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_bmi::get()` just confirmed BMI1 and BMI2, the
            // target features `x86_keccak::permute` is compiled with.
            unsafe { x86_keccak::permute(state) }
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "x86")))]
        Backend::X86 => unsupported(backend),
    }
}

/// Hash a batch of fixed-output messages with `backend`.
pub(crate) fn digest_many<A>(backend: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<State = [u64; 25], Backend = Backend>,
{
    for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
        *output = Hasher::<A>::digest_with_backend(backend, input);
    }
}

/// Absorb each of a batch of XOF messages and fill its output slot.
pub(crate) fn digest_xof_many<A>(backend: Backend, inputs: &[&[u8]], outputs: &mut [&mut [u8]])
where
    A: XofAlgorithm<Backend = Backend>,
{
    for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
        Xof::<A>::digest_xof_with_backend(backend, input, output);
    }
}
