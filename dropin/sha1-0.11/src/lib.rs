//! A drop-in replacement for RustCrypto's `sha1` 0.11.0 (the `digest` 0.11
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
// Our algorithms take generic-array 0.14 blocks (the digest 0.10 line's).
#![allow(deprecated)]

pub use digest::{self, Digest};

pub mod block_api;

digest::buffer_fixed!(
    /// SHA-1 hasher.
    pub struct Sha1(block_api::Sha1Core);
    oid: "1.3.14.3.2.26";
    impl: FixedHashTraits;
);
