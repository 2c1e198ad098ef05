//! A drop-in replacement for RustCrypto's `sha1` 0.10.7 (the `digest` 0.10
//! line): the same names, types, traits and cargo features, with SHA-1
//! compressed by the `hashes` workspace's `sha1` backends (SHA-NI, AVX2,
//! ARMv8 SHA1, chosen at run time).
//!
//! Put it under a dependency tree with `[patch.crates-io]` (see README.md).
//!
//! ```
//! use sha1::{Digest, Sha1};
//! assert_eq!(Sha1::digest(b"abc")[..4], [0xa9, 0x99, 0x3e, 0x36]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]
#![allow(deprecated)] // generic-array 0.14, which the digest 0.10 line is built on

pub use digest::{self, Digest};

use core::fmt;

use digest::block_buffer::Eager;
#[cfg(feature = "oid")]
use digest::const_oid::{AssociatedOid, ObjectIdentifier};
use digest::consts::{U20, U64};
use digest::core_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, CoreWrapper, FixedOutputCore, OutputSizeUser,
    UpdateCore,
};
use digest::{HashMarker, Output, Reset};
use hash_core::{Algorithm, FixedAlgorithm};

type Alg = ours::algorithm::Sha1;

/// The best backend this CPU has (detected once per process), or the
/// portable one under `force-soft`.
#[inline]
fn backend() -> ours::Backend {
    if cfg!(feature = "force-soft") {
        ours::Backend::Portable
    } else {
        ours::Backend::detect()
    }
}

/// SHA-1's block-level core, as `digest`'s `CoreWrapper` drives it.
#[derive(Clone)]
pub struct Sha1Core {
    state: [u32; 5],
    blocks: u64,
    backend: ours::Backend,
}

impl Default for Sha1Core {
    #[inline]
    fn default() -> Self {
        Sha1Core { state: <Alg as Algorithm>::INIT, blocks: 0, backend: backend() }
    }
}

impl HashMarker for Sha1Core {}

impl BlockSizeUser for Sha1Core {
    type BlockSize = U64;
}

impl BufferKindUser for Sha1Core {
    type BufferKind = Eager;
}

impl OutputSizeUser for Sha1Core {
    type OutputSize = U20;
}

impl UpdateCore for Sha1Core {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
        <Alg as Algorithm>::compress(self.backend, &mut self.state, blocks);
    }
}

impl FixedOutputCore for Sha1Core {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        let tail = buffer.get_data();
        let bytes = u128::from(self.blocks) * 64 + tail.len() as u128;
        // The backend's own final-block path where the tail and the 8-byte
        // length fit in one block, as our own `finalize` does.
        if tail.len() + 8 < 64 && <Alg as FixedAlgorithm>::has_compress_final(self.backend) {
            <Alg as FixedAlgorithm>::compress_final(self.backend, &mut self.state, tail, bytes);
        } else {
            hash_core::compress_final_buffered::<Alg>(self.backend, &mut self.state, tail, bytes);
        }
        buffer.reset();
        let mut digest = [0u8; 20];
        <Alg as FixedAlgorithm>::output(&self.state, &mut digest);
        out.copy_from_slice(&digest);
    }
}

impl Reset for Sha1Core {
    #[inline]
    fn reset(&mut self) {
        self.state = <Alg as Algorithm>::INIT;
        self.blocks = 0;
    }
}

impl AlgorithmName for Sha1Core {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sha1")
    }
}

impl fmt::Debug for Sha1Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sha1Core { ... }")
    }
}

/// id-sha1 (OIW, 1.3.14.3.2.26).
#[cfg(feature = "oid")]
impl AssociatedOid for Sha1Core {
    const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.14.3.2.26");
}

/// SHA-1 hasher.
pub type Sha1 = CoreWrapper<Sha1Core>;

/// The raw SHA-1 compression function: compress every block of `blocks`
/// into `state`, in order, on the best backend this CPU has.
#[cfg(feature = "compress")]
pub fn compress(state: &mut [u32; 5], blocks: &[Block<Sha1Core>]) {
    <Alg as Algorithm>::compress(backend(), state, blocks);
}
