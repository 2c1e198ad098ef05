//! A drop-in replacement for RustCrypto's `md-5` 0.10.6 (the `digest` 0.10
//! line): the same names, types, traits and cargo features, with MD5
//! compressed by the `hashes` workspace's `md5` backends (BMI1 x86-64
//! assembly, aarch64 assembly, chosen at run time).
//!
//! Put it under a dependency tree with `[patch.crates-io]` (see README.md).
//!
//! ```
//! use md5::{Digest, Md5};
//! assert_eq!(Md5::digest(b"abc")[..4], [0x90, 0x01, 0x50, 0x98]);
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
use digest::consts::{U16, U64};
use digest::core_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, CoreWrapper, FixedOutputCore, OutputSizeUser,
    UpdateCore,
};
use digest::{HashMarker, Output, Reset};
use hash_core::{Algorithm, FixedAlgorithm};

type Alg = ours::algorithm::Md5;

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

/// MD5's block-level core, as `digest`'s `CoreWrapper` drives it.
#[derive(Clone)]
pub struct Md5Core {
    state: [u32; 4],
    blocks: u64,
    backend: ours::Backend,
}

impl Default for Md5Core {
    #[inline]
    fn default() -> Self {
        Md5Core { state: <Alg as Algorithm>::INIT, blocks: 0, backend: backend() }
    }
}

impl HashMarker for Md5Core {}

impl BlockSizeUser for Md5Core {
    type BlockSize = U64;
}

impl BufferKindUser for Md5Core {
    type BufferKind = Eager;
}

impl OutputSizeUser for Md5Core {
    type OutputSize = U16;
}

impl UpdateCore for Md5Core {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
        <Alg as Algorithm>::compress(self.backend, &mut self.state, blocks);
    }
}

impl FixedOutputCore for Md5Core {
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
        let mut digest = [0u8; 16];
        <Alg as FixedAlgorithm>::output(&self.state, &mut digest);
        out.copy_from_slice(&digest);
    }
}

impl Reset for Md5Core {
    #[inline]
    fn reset(&mut self) {
        self.state = <Alg as Algorithm>::INIT;
        self.blocks = 0;
    }
}

impl AlgorithmName for Md5Core {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Md5")
    }
}

impl fmt::Debug for Md5Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Md5Core { ... }")
    }
}

/// id-md5 (RSADSI digestAlgorithm 5, 1.2.840.113549.2.5).
#[cfg(feature = "oid")]
impl AssociatedOid for Md5Core {
    const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.2.5");
}

/// MD5 hasher.
pub type Md5 = CoreWrapper<Md5Core>;
