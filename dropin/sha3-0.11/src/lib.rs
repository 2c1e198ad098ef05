//! A drop-in replacement for RustCrypto's `sha3` 0.11.0 (the first `sha3`
//! release on `digest` 0.11): the same names, types, traits and cargo
//! features, with every Keccak-f\[1600\] permutation run by the `hashes`
//! workspace's `sha3` backends (BMI x86-64, AVX-512, aarch64, ARMv8 SHA3,
//! chosen at run time).
//!
//! As in the original, the hashers are the `digest` crate's buffered
//! wrappers (`buffer_fixed!`, `buffer_xof!`) around the generic cores of
//! [`block_api`]: SHA-3, SHAKE and the Keccak submission's padding.
//!
//! ```
//! use sha3::{Digest, Sha3_256};
//! assert_eq!(Sha3_256::digest(b"abc")[..4], [0x3a, 0x98, 0x5d, 0xa7]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]
// Our algorithms take generic-array 0.14 blocks (the digest 0.10 line's).
#![allow(deprecated)]

pub use digest::{self, CollisionResistance, CustomizedInit, Digest};

/// Block-level types: the sponge cores behind the hashers.
pub mod block_api;

use block_api::{Sha3HasherCore, Sha3ReaderCore};
use digest::consts::{U0, U16, U28, U32, U48, U64, U72, U104, U136, U144, U168, U200};

// The first padding byte of each family (FIPS 202 §B.2): the Keccak
// submission has no suffix, SHA-3 appends `01`, SHAKE `1111`.
const KECCAK_PAD: u8 = 0x01;
const SHA3_PAD: u8 = 0x06;
const SHAKE_PAD: u8 = 0x1f;

digest::buffer_fixed!(
    /// SHA3-224 hasher.
    pub struct Sha3_224(Sha3HasherCore<U144, U28, SHA3_PAD>);
    oid: "2.16.840.1.101.3.4.2.7";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA3-256 hasher.
    pub struct Sha3_256(Sha3HasherCore<U136, U32, SHA3_PAD>);
    oid: "2.16.840.1.101.3.4.2.8";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA3-384 hasher.
    pub struct Sha3_384(Sha3HasherCore<U104, U48, SHA3_PAD>);
    oid: "2.16.840.1.101.3.4.2.9";
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// SHA3-512 hasher.
    pub struct Sha3_512(Sha3HasherCore<U72, U64, SHA3_PAD>);
    oid: "2.16.840.1.101.3.4.2.10";
    impl: FixedHashTraits;
);
digest::buffer_xof!(
    /// SHAKE128 hasher.
    pub struct Shake128(Sha3HasherCore<U168, U0, SHAKE_PAD>);
    oid: "2.16.840.1.101.3.4.2.11";
    impl: XofHasherTraits;
    /// SHAKE128 reader.
    pub struct Shake128Reader(Sha3ReaderCore<U168>);
    impl: XofReaderTraits;
);
digest::buffer_xof!(
    /// SHAKE256 hasher.
    pub struct Shake256(Sha3HasherCore<U136, U0, SHAKE_PAD>);
    oid: "2.16.840.1.101.3.4.2.12";
    impl: XofHasherTraits;
    /// SHAKE256 reader.
    pub struct Shake256Reader(Sha3ReaderCore<U136>);
    impl: XofReaderTraits;
);
digest::buffer_fixed!(
    /// Keccak-256 with the whole 200-byte state as output (CryptoNight).
    pub struct Keccak256Full(Sha3HasherCore<U136, U200, KECCAK_PAD>);
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// Keccak-224 hasher.
    pub struct Keccak224(Sha3HasherCore<U144, U28, KECCAK_PAD>);
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// Keccak-256 hasher.
    pub struct Keccak256(Sha3HasherCore<U136, U32, KECCAK_PAD>);
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// Keccak-384 hasher.
    pub struct Keccak384(Sha3HasherCore<U104, U48, KECCAK_PAD>);
    impl: FixedHashTraits;
);
digest::buffer_fixed!(
    /// Keccak-512 hasher.
    pub struct Keccak512(Sha3HasherCore<U72, U64, KECCAK_PAD>);
    impl: FixedHashTraits;
);

/// SHAKE128's collision resistance: 128 bits (FIPS 202 Table 4).
impl CollisionResistance for Shake128 {
    type CollisionResistance = U16;
}

/// SHAKE256's collision resistance: 256 bits (FIPS 202 Table 4).
impl CollisionResistance for Shake256 {
    type CollisionResistance = U32;
}
