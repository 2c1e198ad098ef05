//! Shared machinery of the `hashes` crates.
//!
//! An algorithm crate (`md5`, `sha1`, `sha256`, `sha512`, `sha3`) supplies only
//! its state, its constants and its compression function, by implementing
//! [`Algorithm`] and either [`FixedAlgorithm`] (a fixed-size digest) or
//! [`XofAlgorithm`] (an extendable-output function). This crate owns
//! everything else:
//!
//! * block buffering for streaming `update` calls ([`block_buffer`]),
//! * Merkle–Damgård padding with a 64-bit big- or little-endian or a 128-bit
//!   big-endian length, and Keccak's `pad10*1` with a domain byte,
//! * `finalize`, `finalize_reset`, `reset`, `Clone`, `Default`,
//! * a one-shot path that compresses whole blocks straight from the caller's
//!   slice and pads only the tail, on the stack,
//! * run-time backend selection ([`BackendKind`]), checked forcing
//!   ([`UnsupportedBackend`]) and batch hashing entry points,
//! * the `digest` 0.10 traits (feature `digest`, on by default), so that
//!   `hmac::Hmac<Sha256>`, `hkdf` and any `D: digest::Digest` code work,
//! * the `digest` 0.11 traits (feature `digest011`, off by default) beside
//!   them, for `hmac` 0.13, `hkdf` 0.13 and the rest of that line,
//! * `std::io::Write` (feature `std`, on by default).
//!
//! Nothing here allocates.
#![no_std]
// Only `arch` (the SIMD helpers several backends share) allows `unsafe`.
#![deny(unsafe_code)]
// generic-array 0.14.9 marks itself deprecated in favour of 1.x, but the
// `digest` 0.10 / `block-buffer` 0.10 line this crate interoperates with is
// built on 0.14.
#![allow(deprecated)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The unit tests use `std` (`Vec`, `format!`) in every feature set, so that
// `cargo test --no-default-features` builds.
#[cfg(any(feature = "std", test))]
extern crate std;

mod algorithm;
#[allow(unsafe_code)]
pub mod arch;
mod backend;
mod checks;
mod copy;
pub mod cpu;
#[cfg(feature = "digest011")]
mod digest011_impls;
#[cfg(feature = "digest")]
mod digest_impls;
mod fixed;
pub mod merkle;
pub mod multi;
mod padding;
mod pairs;
mod rounds;
pub mod table;
#[cfg(feature = "testing")]
pub mod testing;
mod xof;

pub use algorithm::{Algorithm, Block, OutputBytes};
pub use backend::{BackendKind, DetectCache, UnsupportedBackend, unsupported};
pub use block_buffer;
pub use checks::{BatchError, check_batch};
// The `cpufeatures` checks that `backend_table!` generates in the calling
// crate.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[doc(hidden)]
pub use cpufeatures as __cpufeatures;
pub use fixed::{
    Core, FixedAlgorithm, Hasher, assert_pairs, assert_prefixed, compress_final_buffered, compress_final_buffered_cold,
    compress_final_tail, hash_pairs_gathered, hash_prefixed_gathered,
};
pub use generic_array;
pub use generic_array::typenum;
pub use padding::{Padding, padded_rows};
pub use xof::{Xof, XofAlgorithm, XofReader};

#[cfg(feature = "digest")]
pub use digest;
#[cfg(feature = "digest011")]
pub use digest011;

/// The type that `hmac::Hmac<D>` and other code built on `digest`'s core API
/// accept, for the algorithm `A`.
///
/// `digest` 0.10 seals its `CoreProxy` trait to its own `CoreWrapper`, so
/// `hmac::Hmac<D>` takes only `CoreWrapper` types, and a `CoreWrapper` cannot
/// carry our inherent API (`finalize() -> [u8; N]`, `with_backend`). Each
/// crate therefore exports this alias in its `compat` module
/// (`sha256::compat::Sha256`), while `hmac::SimpleHmac<sha256::Sha256>` and
/// every `D: digest::Digest` bound take our hashers directly.
#[cfg(feature = "digest")]
pub type CoreWrapper<A> = digest::core_api::CoreWrapper<Core<A>>;
