//! SHA-1 (FIPS 180-4), with the compression backend chosen once at run time
//! from the CPU's features, and multi-buffer hashing of many messages at
//! once.
//!
//! SHA-1 is broken for collision resistance; use it only where a protocol
//! or format requires it (Git object names, legacy HMAC-SHA-1, ...), and
//! where an attacker may choose the input, hash with [`Sha1Dc`], which
//! detects the known collision attacks (Stevens and Shumow's
//! counter-cryptanalysis, as git does).
//!
//! ```
//! use sha1::Sha1;
//! use hex_literal::hex;
//!
//! // One-shot (FIPS 180-4 example "abc").
//! assert_eq!(Sha1::digest(b"abc"), hex!("a9993e364706816aba3e25717850c26c9cd0d89d"));
//!
//! // Streaming, in pieces of any size.
//! let mut h = Sha1::new();
//! h.update(b"a");
//! h.update(b"bc");
//! assert_eq!(h.finalize(), hex!("a9993e364706816aba3e25717850c26c9cd0d89d"));
//!
//! // List the backends this CPU supports and hash with each.
//! for backend in sha1::Backend::available() {
//!     let mut h = Sha1::with_backend(backend);
//!     h.update(b"abc");
//!     assert_eq!(h.finalize(), Sha1::digest(b"abc"), "{}", backend.name());
//! }
//!
//! // Many messages at once (SIMD lanes or interleaved streams where the
//! // CPU has them).
//! let inputs: [&[u8]; 3] = [b"abc", b"", b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"];
//! let mut outputs = [[0u8; 20]; 3];
//! Sha1::digest_many(&inputs, &mut outputs);
//! assert_eq!(outputs[1], hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
//! assert_eq!(outputs[2], hex!("84983e441c3bd26ebaae4aa1f95129e5e54670f1"));
//! ```
#![no_std]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(any(test, feature = "std"))]
extern crate std;

mod backend;
mod consts;
pub mod dc;

pub use backend::Backend;
pub use dc::{Collision, Sha1Dc};
pub use hash_core::UnsupportedBackend;

/// SHA-1 hasher (FIPS 180-4 §6.1), 20-byte digest.
pub type Sha1 = hash_core::Hasher<algorithm::Sha1>;

/// Types for code built on `digest`'s core API, such as `hmac::Hmac<D>`
/// (see [`hash_core::CoreWrapper`]).
#[cfg(feature = "digest")]
pub mod compat {
    /// SHA-1 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha1>`.
    pub type Sha1 = hash_core::CoreWrapper<super::algorithm::Sha1>;
    /// SHA-1 with collision detection as a `digest::core_api::CoreWrapper`,
    /// for `hmac::Hmac<Sha1Dc>`: outputs the safe hash on a detected
    /// collision (see [`crate::Sha1Dc`]).
    pub type Sha1Dc = hash_core::CoreWrapper<crate::dc::Sha1DcAlgorithm>;
}

#[cfg(feature = "digest011")]
pub mod compat011;

/// The algorithm definition behind [`Sha1`]: state, constants and
/// compression function, for `hash-core`.
pub mod algorithm {
    use hash_core::typenum::{U20, U64};
    use hash_core::{Algorithm, Block, FixedAlgorithm, Padding};

    use crate::{Backend, backend, consts};

    /// SHA-1 (FIPS 180-4 §6.1).
    #[derive(Debug)]
    pub struct Sha1;

    impl Algorithm for Sha1 {
        const NAME: &'static str = "SHA-1";
        type BlockSize = U64;
        type State = [u32; 5];
        type Backend = Backend;
        const INIT: [u32; 5] = consts::H0;

        #[inline]
        fn compress(backend: Backend, state: &mut [u32; 5], blocks: &[Block<U64>]) {
            backend::compress(backend, state, blocks);
        }
    }

    impl FixedAlgorithm for Sha1 {
        /// FIPS 180-4 §5.1.1: `1`, zeros, 64-bit big-endian bit length.
        const PADDING: Padding = Padding::Be64;
        type OutputSize = U20;
        type Output = [u8; 20];

        /// The digest is H0..H4 in big-endian order (FIPS 180-4 §6.1.2).
        #[inline]
        fn output(state: &[u32; 5], out: &mut [u8; 20]) {
            for (bytes, word) in out.chunks_exact_mut(4).zip(state) {
                bytes.copy_from_slice(&word.to_be_bytes());
            }
        }

        /// The x86 backends take the final padded block as built in
        /// registers.
        #[inline]
        fn has_compress_final(backend: Backend) -> bool {
            backend::has_compress_final(backend)
        }

        #[inline]
        fn compress_final(backend: Backend, state: &mut [u32; 5], tail: &[u8], total: u128) {
            hash_core::arch::compress_final_stored::<Self, 4, 64>(backend, state, tail, total);
        }

        /// Several messages at once on the backend's batch engine (see the
        /// [`Backend`] variants); one by one on the portable backend.
        #[inline]
        fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 20]]) {
            backend::digest_many(backend, inputs, outputs);
        }
    }
}

// The crate README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
