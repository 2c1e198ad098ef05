//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].

use hash_core::typenum::U64;
use hash_core::{BackendKind, Block, DetectCache};

mod portable;

/// An MD5 compression backend.
///
/// [`Backend::detect`] picks the best one for this CPU; every hasher's
/// `with_backend` forces one (it panics, naming the missing CPU features, if
/// this CPU lacks them; `try_with_backend` returns the error instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Safe, fully unrolled Rust; runs everywhere. `digest_many` hashes the
    /// messages one after another.
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

/// Compress `blocks` into `state` with `backend` (RFC 1321 §3.4).
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 4], blocks: &[Block<U64>]) {
    match backend {
        Backend::Portable => portable::compress(state, blocks),
    }
}

/// Hash each of `inputs` into the matching `outputs` slot with `backend`.
pub(crate) fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 16]]) {
    for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
        *output = crate::Md5::digest_with_backend(backend, input);
    }
}
