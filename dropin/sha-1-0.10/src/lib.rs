//! A drop-in replacement for RustCrypto's `sha-1` 0.10.1, the old name of
//! `sha1` with the same API: everything is the `sha1` 0.10 drop-in's
//! (`dropin/sha1-0.10`), on the `hashes` workspace's SHA-1 backends.
//!
//! ```
//! use sha1::{Digest, Sha1};
//! assert_eq!(Sha1::digest(b"abc")[..4], [0xa9, 0x99, 0x3e, 0x36]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]

pub use sha1::*;
