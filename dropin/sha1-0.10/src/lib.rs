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

hashes_dropin_macros::md_core_0_10! {
    name: "SHA-1", alg: ours::algorithm::Sha1, soft: cfg!(feature = "force-soft"), final_in_registers: cfg!(target_arch = "x86_64"),
    core: Sha1Core, hasher: Sha1, words: 5, out: 20, U20,
    alg_name: "Sha1", oid: "1.3.14.3.2.26", oid_doc: "id-sha1 (OIW, 1.3.14.3.2.26).",
}

/// The raw SHA-1 compression function: compress every block of `blocks`
/// into `state`, in order, on the best backend this CPU has.
#[cfg(feature = "compress")]
pub fn compress(state: &mut [u32; 5], blocks: &[digest::core_api::Block<Sha1Core>]) {
    <Alg as hash_core::Algorithm>::compress(backend(), state, blocks);
}
