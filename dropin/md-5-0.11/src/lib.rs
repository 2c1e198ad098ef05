//! A drop-in replacement for RustCrypto's `md-5` 0.11.0 (the `digest` 0.11
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
// Our algorithms take generic-array 0.14 blocks (the digest 0.10 line's).
#![allow(deprecated)]

pub use digest::{self, Digest};

pub mod block_api;

digest::buffer_fixed!(
    /// MD5 hasher.
    pub struct Md5(block_api::Md5Core);
    oid: "1.2.840.113549.2.5";
    impl: FixedHashTraits;
);
