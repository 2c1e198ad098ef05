//! MD5 (RFC 1321), with the compression backend chosen once at run time
//! from the CPU's features.
//!
//! MD5 is broken for collision resistance; use it only where a protocol or
//! file format demands it (checksums, legacy interop, HMAC-MD5).
//!
//! Backends ([`Backend`], best first; [`Backend::detect`] picks the first
//! this CPU supports): `avx512` and `avx2` hash one message with the scalar
//! `x86` code and batches ([`Md5::digest_many`]) in up to 64 or 32 SIMD
//! lanes; `x86` is scalar x86-64 assembly (BMI1) scheduled for MD5's
//! dependency chain; `aarch64` is scalar aarch64 assembly scheduled the
//! same way, with batches in 4 or 8 NEON lanes; `portable` is safe Rust.
//! Each x86 backend is a cargo feature, on by default.
//!
//! ```
//! use hex_literal::hex;
//! use md5::Md5;
//!
//! // One-shot (RFC 1321 §A.5).
//! assert_eq!(Md5::digest(b"abc"), hex!("900150983cd24fb0d6963f7d28e17f72"));
//!
//! // Streaming, in pieces of any size.
//! let mut h = Md5::new();
//! h.update(b"message ");
//! h.update(b"digest");
//! assert_eq!(h.finalize(), hex!("f96b697d7cb7938d525a2f31aaf161d0"));
//!
//! // Many messages at once (several lanes in parallel where the CPU allows).
//! let inputs: [&[u8]; 3] = [b"", b"a", b"abc"];
//! let mut outputs = [[0u8; 16]; 3];
//! Md5::digest_many(&inputs, &mut outputs);
//! assert_eq!(outputs[1], hex!("0cc175b9c0f1b6a831c399e269772661"));
//!
//! // List the backends this CPU supports and hash with each.
//! for backend in md5::Backend::available() {
//!     let mut h = Md5::with_backend(backend);
//!     h.update(b"abc");
//!     assert_eq!(h.finalize(), Md5::digest(b"abc"), "{}", backend.name());
//! }
//! ```
#![no_std]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#[cfg(test)]
extern crate std;

mod backend;
mod consts;

pub use backend::Backend;
pub use hash_core::UnsupportedBackend;

/// MD5 hasher (RFC 1321), 16-byte digest.
pub type Md5 = hash_core::Hasher<algorithm::Md5>;

/// Types for code built on `digest`'s core API, such as `hmac::Hmac<D>`
/// (see [`hash_core::CoreWrapper`]).
#[cfg(feature = "digest")]
pub mod compat {
    /// MD5 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Md5>`.
    pub type Md5 = hash_core::CoreWrapper<super::algorithm::Md5>;
}

#[cfg(feature = "digest011")]
pub mod compat011;

/// The algorithm definition behind [`Md5`]: state, constants and
/// compression function, for `hash-core`.
pub mod algorithm {
    use hash_core::typenum::{U16, U64};
    use hash_core::{Algorithm, Block, FixedAlgorithm, Padding};

    use crate::{Backend, backend, consts};

    /// MD5 (RFC 1321).
    #[derive(Debug)]
    pub struct Md5;

    impl Algorithm for Md5 {
        const NAME: &'static str = "MD5";
        type BlockSize = U64;
        type State = [u32; 4];
        type Backend = Backend;
        const INIT: [u32; 4] = consts::INIT;

        #[inline]
        fn compress(backend: Backend, state: &mut [u32; 4], blocks: &[Block<U64>]) {
            backend::compress(backend, state, blocks);
        }
    }

    impl FixedAlgorithm for Md5 {
        /// `0x80`, zeros, then the 64-bit bit length, low byte first
        /// (RFC 1321 §3.1–3.2).
        const PADDING: Padding = Padding::Le64;
        type OutputSize = U16;
        type Output = [u8; 16];

        /// The digest is A, B, C, D, each low byte first (RFC 1321 §3.5).
        #[inline]
        fn output(state: &[u32; 4], out: &mut [u8; 16]) {
            for (bytes, word) in out.chunks_exact_mut(4).zip(state) {
                bytes.copy_from_slice(&word.to_le_bytes());
            }
        }

        fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 16]]) {
            backend::digest_many(backend, inputs, outputs);
        }
    }
}

// The crate README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
