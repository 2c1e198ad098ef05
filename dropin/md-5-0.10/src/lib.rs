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

hashes_dropin_macros::md_core_0_10! {
    name: "MD5", alg: ours::algorithm::Md5, soft: cfg!(feature = "force-soft"), final_in_registers: false,
    core: Md5Core, hasher: Md5, words: 4, out: 16, U16,
    alg_name: "Md5", oid: "1.2.840.113549.2.5", oid_doc: "id-md5 (RSADSI digestAlgorithm 5, 1.2.840.113549.2.5).",
}
