//! SHA-224 and SHA-256 (FIPS 180-4), with the compression backend chosen
//! once at run time from the CPU's features.
//!
//! ```
//! use sha256::{Sha224, Sha256};
//! use hex_literal::hex;
//!
//! // One-shot.
//! assert_eq!(
//!     Sha256::digest(b"abc"),
//!     hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
//! );
//!
//! // Streaming, in pieces of any size.
//! let mut h = Sha224::new();
//! h.update(b"a");
//! h.update(b"bc");
//! assert_eq!(h.finalize(), hex!("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"));
//!
//! // List the backends this CPU supports and hash with each.
//! for backend in sha256::Backend::available() {
//!     let mut h = Sha256::with_backend(backend);
//!     h.update(b"abc");
//!     assert_eq!(h.finalize(), Sha256::digest(b"abc"), "{}", backend.name());
//! }
//!
//! // Many messages at once: SIMD lanes or interleaved SHA-NI / ARMv8 streams.
//! let messages: [&[u8]; 3] = [b"abc", b"", b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"];
//! let mut digests = [[0u8; 32]; 3];
//! Sha256::digest_many(&messages, &mut digests);
//! assert_eq!(digests[0], Sha256::digest(b"abc"));
//! ```
//!
//! # Backends
//!
//! [`Backend::detect`] picks, once per process, the first of these that the
//! CPU supports; each is a cargo feature, on by default:
//!
//! | backend | one message | `digest_many` |
//! |---|---|---|
//! | [`Backend::ShaNi`] (`shani`) | SHA-NI | 2–4 interleaved SHA-NI streams (one by one for messages under 320 bytes on average); 16 AVX-512 lanes for 9 or more messages (11 or more under 128 bytes on average) where the CPU has AVX-512F/BW (`avx512`) |
//! | [`Backend::Avx2`] (`avx2`) | AVX2 schedule + BMI2 rounds | 8 AVX2 lanes; 16 AVX-512 lanes for 4 or more messages where the CPU has AVX-512F/BW (`avx512`) |
//! | [`Backend::ArmSha`] (`arm-sha`) | ARMv8 SHA-256 instructions (aarch64) | 2–3 interleaved streams |
//! | [`Backend::Portable`] | safe Rust | one after another |
#![no_std]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(test)]
extern crate std;

mod backend;
mod consts;

pub use backend::Backend;
pub use hash_core::UnsupportedBackend;

/// SHA-256 hasher (FIPS 180-4 §6.2), 32-byte digest.
pub type Sha256 = hash_core::Hasher<algorithm::Sha256>;
/// SHA-224 hasher (FIPS 180-4 §6.3), 28-byte digest.
pub type Sha224 = hash_core::Hasher<algorithm::Sha224>;

/// Types for code built on `digest`'s core API, such as `hmac::Hmac<D>`
/// (see [`hash_core::CoreWrapper`]).
#[cfg(feature = "digest")]
pub mod compat {
    /// SHA-256 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha256>`.
    pub type Sha256 = hash_core::CoreWrapper<super::algorithm::Sha256>;
    /// SHA-224 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha224>`.
    pub type Sha224 = hash_core::CoreWrapper<super::algorithm::Sha224>;
}

#[cfg(feature = "digest011")]
pub mod compat011;

/// The algorithm definitions behind [`Sha256`] and [`Sha224`]: state,
/// constants and compression function, for `hash-core`.
pub mod algorithm {
    use hash_core::typenum::{U28, U32, U64};
    use hash_core::{Algorithm, Block, FixedAlgorithm, Padding};

    use crate::{Backend, backend, consts};

    /// SHA-256 (FIPS 180-4 §6.2).
    #[derive(Debug)]
    pub struct Sha256;
    /// SHA-224 (FIPS 180-4 §6.3): SHA-256 with other initial values,
    /// truncated to 28 bytes.
    #[derive(Debug)]
    pub struct Sha224;

    macro_rules! sha2_32 {
        ($alg:ident, $name:literal, $init:expr, $out:ty, $outlen:literal) => {
            impl Algorithm for $alg {
                const NAME: &'static str = $name;
                type BlockSize = U64;
                type State = [u32; 8];
                type Backend = Backend;
                const INIT: [u32; 8] = $init;

                #[inline]
                fn compress(backend: Backend, state: &mut [u32; 8], blocks: &[Block<U64>]) {
                    backend::compress(backend, state, blocks);
                }
            }

            impl FixedAlgorithm for $alg {
                const PADDING: Padding = Padding::Be64;
                type OutputSize = $out;
                type Output = [u8; $outlen];

                /// The digest is the state words in big-endian order,
                /// truncated (FIPS 180-4 §6.2.2 step 4, §6.3).
                #[inline]
                fn output(state: &[u32; 8], out: &mut [u8; $outlen]) {
                    backend::digest_bytes(state, out);
                }

                /// The x86 backends take the final padded block as built in
                /// registers.
                #[inline]
                fn has_compress_final(backend: Backend) -> bool {
                    backend::has_compress_final(backend)
                }

                /// SHA-NI takes a block-aligned message's last block in
                /// place and the padding block alone: at 64 bytes 1.24x
                /// faster than copying both into one call (AMD Zen 3,
                /// `cargo xtask bench --algo sha256 --size 64 --best`); AVX2
                /// keeps the pair (it schedules two blocks at once: 0.94x
                /// without it).
                #[inline]
                fn gather_last_block(backend: Backend) -> bool {
                    backend != Backend::ShaNi
                }

                #[inline]
                fn compress_final(backend: Backend, state: &mut [u32; 8], tail: &[u8], total: u128) {
                    backend::compress_final::<Self>(backend, state, tail, total);
                }

                /// The backend's batch engine: interleaved SHA-NI streams or
                /// AVX2 lanes (see [`Backend`]).
                #[inline]
                fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; $outlen]]) {
                    backend::digest_many::<Self>(backend, inputs, outputs);
                }

                /// SHA-256's 64-byte pairs on SHA-NI run on the pair
                /// engine (the padding block's schedule precomputed); the
                /// rest as the default does.
                #[inline]
                fn hash_pairs(backend: Backend, nodes: &[[u8; $outlen]], out: &mut [[u8; $outlen]]) {
                    backend::hash_pairs::<Self, $outlen>(backend, nodes, out);
                }

                /// SHA-256 of a one-byte prefix and 64-byte bodies (RFC
                /// 9162's nodes and 64-byte leaves) runs on the 16 AVX-512
                /// lanes, read in place, where `digest_many` would pick
                /// them; the rest as the default does.
                #[inline]
                fn hash_prefixed_many(backend: Backend, prefix: &[u8], bodies: &[&[u8]], out: &mut [[u8; $outlen]]) {
                    backend::hash_prefixed_many::<Self, $outlen>(backend, prefix, bodies, out);
                }
            }
        };
    }

    sha2_32!(Sha256, "SHA-256", consts::H256, U32, 32);
    sha2_32!(Sha224, "SHA-224", consts::H224, U28, 28);
}

// The crate README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
