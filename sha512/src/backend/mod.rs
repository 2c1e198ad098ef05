//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].

use hash_core::typenum::U128;
use hash_core::{BackendKind, Block, DetectCache, FixedAlgorithm, Hasher};

mod portable;

/// A SHA-512 compression backend (shared by SHA-384, SHA-512/224 and
/// SHA-512/256).
///
/// [`Backend::detect`] picks the best one for this CPU; every hasher's
/// `with_backend` forces one (it panics, naming the missing CPU features, if
/// this CPU lacks them; `try_with_backend` returns the error instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Safe, fully unrolled Rust; runs everywhere. One message: one block
    /// at a time. `digest_many`: the messages one after another.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] = &[Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            Backend::Portable => true,
        }
    }

    #[inline]
    fn detect() -> Self {
        DETECTED.get()
    }
}

hash_core::backend_api!(Backend);

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.4.2).
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u64; 8], blocks: &[Block<U128>]) {
    match backend {
        Backend::Portable => portable::compress(state, blocks),
    }
}

/// Hash each of `inputs` into the matching slot of `outputs` with
/// `backend`, which the caller has checked.
#[inline]
pub(crate) fn digest_many<A>(backend: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<Backend = Backend, State = [u64; 8], BlockSize = U128>,
{
    match backend {
        Backend::Portable => {
            for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
                *output = Hasher::<A>::digest_with_backend(backend, input);
            }
        }
    }
}
