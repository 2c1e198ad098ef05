//! A drop-in replacement for RustCrypto's `sha2` 0.11.1 (the `digest` 0.11
//! line): the same names, types, traits and cargo features, with SHA-256 and
//! SHA-512 compressed by the `hashes` workspace's backends (`sha256`,
//! `sha512`: SHA-NI, AVX2, AVX-512, ARMv8 SHA2/SHA512, chosen at run time).
//!
//! Put it under a dependency tree with `[patch.crates-io]` (see README.md).
//!
//! ```
//! use sha2::{Digest, Sha256};
//! assert_eq!(Sha256::digest(b"abc")[..4], [0xba, 0x78, 0x16, 0xbf]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]
// Our algorithms take generic-array 0.14 blocks (the digest 0.10 line's).
#![allow(deprecated)]

pub use digest::{self, Digest};

use digest::block_api::CtOutWrapper;
use digest::consts::{U28, U32, U48, U64};

pub mod block_api;

digest::buffer_fixed!(
    /// SHA-256 hasher.
    pub struct Sha256(CtOutWrapper<block_api::Sha256VarCore, U32>);
    oid: "2.16.840.1.101.3.4.2.1";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA-384 hasher.
    pub struct Sha384(CtOutWrapper<block_api::Sha512VarCore, U48>);
    oid: "2.16.840.1.101.3.4.2.2";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA-512 hasher.
    pub struct Sha512(CtOutWrapper<block_api::Sha512VarCore, U64>);
    oid: "2.16.840.1.101.3.4.2.3";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA-224 hasher.
    pub struct Sha224(CtOutWrapper<block_api::Sha256VarCore, U28>);
    oid: "2.16.840.1.101.3.4.2.4";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA-512/224 hasher.
    pub struct Sha512_224(CtOutWrapper<block_api::Sha512VarCore, U28>);
    oid: "2.16.840.1.101.3.4.2.5";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA-512/256 hasher.
    pub struct Sha512_256(CtOutWrapper<block_api::Sha512VarCore, U32>);
    oid: "2.16.840.1.101.3.4.2.6";
    impl: FixedHashTraits;
);
