//! SHA-384, SHA-512, SHA-512/224 and SHA-512/256 (FIPS 180-4), with the
//! compression backend chosen once at run time from the CPU's features.
//!
//! ```
//! use sha512::{Sha384, Sha512, Sha512_256};
//! use hex_literal::hex;
//!
//! // One-shot.
//! assert_eq!(
//!     Sha512::digest(b"abc"),
//!     hex!(
//!         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
//!         "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
//!     ),
//! );
//!
//! // Streaming, in pieces of any size.
//! let mut h = Sha512_256::new();
//! h.update(b"a");
//! h.update(b"bc");
//! assert_eq!(h.finalize(), hex!("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"));
//!
//! // List the backends this CPU supports and hash with each.
//! for backend in sha512::Backend::available() {
//!     let mut h = Sha384::with_backend(backend);
//!     h.update(b"abc");
//!     assert_eq!(h.finalize(), Sha384::digest(b"abc"), "{}", backend.name());
//! }
//!
//! // Many messages at once (several lanes in parallel where the CPU allows).
//! let messages: [&[u8]; 3] = [b"abc", b"", b"abc"];
//! let mut digests = [[0u8; 64]; 3];
//! Sha512::digest_many(&messages, &mut digests);
//! assert_eq!(digests[2], Sha512::digest(b"abc"));
//! ```
//!
//! # Backends
//!
//! [`Backend::detect`] picks, once per process, the best backend this CPU
//! supports; [`Backend::available`] lists them, and every hasher's
//! `with_backend` (or `try_with_backend`) forces one.
//!
//! * [`Backend::Avx512`] (x86-64 with AVX-512F, VL and BW as well as
//!   AVX2, BMI1 and BMI2; cargo feature `avx512`, on by default): one
//!   message as `Avx2`; `digest_many` eight messages at once, one per
//!   64-bit lane of `zmm` registers.
//! * [`Backend::Avx2`] (x86-64 with AVX2, BMI1 and BMI2; cargo feature
//!   `avx2`, on by default): the message schedule of two blocks at once in
//!   `ymm` registers and the rounds on general registers with `rorx`; for
//!   `digest_many`, five messages at once (four in `ymm` lanes, one on
//!   general registers).
//! * [`Backend::ArmSha512`] (aarch64 with the Armv8.2 SHA512 and SHA3
//!   extensions, detected on Linux, Android and Apple platforms): the
//!   `SHA512H`/`SHA512H2`/`SHA512SU0`/`SHA512SU1` instructions, two rounds
//!   per pair; for `digest_many`, two messages interleaved.
//! * [`Backend::Aarch64`] (any aarch64): scalar code arranged for aarch64's
//!   rotated operands, for CPUs without the SHA512 extension (Cortex-A72,
//!   A76, Neoverse N1, ...).
//! * [`Backend::Sse2`] (32-bit x86 with SSE2: every i686 target): each
//!   64-bit word in an `xmm` register's low half, one instruction per 64-bit
//!   add or shift where general registers need two or more.
//! * [`Backend::Portable`]: safe, fully unrolled Rust, everywhere.
//!
//! The SHA-512 family has no x86 instructions of its own on the CPUs this
//! crate targets (Intel's SHA512 extension is newer), so there is no
//! SHA-NI-style backend on x86-64.
#![no_std]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod backend;
mod consts;

pub use backend::Backend;
pub use hash_core::UnsupportedBackend;

/// SHA-512 hasher (FIPS 180-4 §6.4), 64-byte digest.
pub type Sha512 = hash_core::Hasher<algorithm::Sha512>;
/// SHA-384 hasher (FIPS 180-4 §6.5), 48-byte digest.
pub type Sha384 = hash_core::Hasher<algorithm::Sha384>;
/// SHA-512/224 hasher (FIPS 180-4 §6.6), 28-byte digest.
pub type Sha512_224 = hash_core::Hasher<algorithm::Sha512_224>;
/// SHA-512/256 hasher (FIPS 180-4 §6.7), 32-byte digest.
pub type Sha512_256 = hash_core::Hasher<algorithm::Sha512_256>;

/// Types for code built on `digest`'s core API, such as `hmac::Hmac<D>`
/// (see [`hash_core::CoreWrapper`]).
#[cfg(feature = "digest")]
pub mod compat {
    /// SHA-512 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha512>`.
    pub type Sha512 = hash_core::CoreWrapper<super::algorithm::Sha512>;
    /// SHA-384 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha384>`.
    pub type Sha384 = hash_core::CoreWrapper<super::algorithm::Sha384>;
    /// SHA-512/224 as a `digest::core_api::CoreWrapper`.
    pub type Sha512_224 = hash_core::CoreWrapper<super::algorithm::Sha512_224>;
    /// SHA-512/256 as a `digest::core_api::CoreWrapper`.
    pub type Sha512_256 = hash_core::CoreWrapper<super::algorithm::Sha512_256>;
}

#[cfg(feature = "digest011")]
pub mod compat011;

/// The algorithm definitions behind [`Sha512`], [`Sha384`], [`Sha512_224`]
/// and [`Sha512_256`]: state, constants and compression function, for
/// `hash-core`.
pub mod algorithm {
    use hash_core::typenum::{U28, U32, U48, U64, U128};
    use hash_core::{Algorithm, Block, FixedAlgorithm, Padding};

    use crate::{Backend, backend, consts};

    /// SHA-512 (FIPS 180-4 §6.4).
    #[derive(Debug)]
    pub struct Sha512;
    /// SHA-384 (FIPS 180-4 §6.5): SHA-512 with other initial values,
    /// truncated to 48 bytes.
    #[derive(Debug)]
    pub struct Sha384;
    /// SHA-512/224 (FIPS 180-4 §6.6): SHA-512 with the initial values of
    /// §5.3.6.1, truncated to 28 bytes.
    #[derive(Debug)]
    pub struct Sha512_224;
    /// SHA-512/256 (FIPS 180-4 §6.7): SHA-512 with the initial values of
    /// §5.3.6.2, truncated to 32 bytes.
    #[derive(Debug)]
    pub struct Sha512_256;

    macro_rules! sha2_64 {
        ($alg:ident, $name:literal, $init:expr, $out:ty, $outlen:literal) => {
            impl Algorithm for $alg {
                const NAME: &'static str = $name;
                type BlockSize = U128;
                type State = [u64; 8];
                type Backend = Backend;
                const INIT: [u64; 8] = $init;

                #[inline]
                fn compress(backend: Backend, state: &mut [u64; 8], blocks: &[Block<U128>]) {
                    backend::compress(backend, state, blocks);
                }
            }

            impl FixedAlgorithm for $alg {
                const PADDING: Padding = Padding::Be128;
                type OutputSize = $out;
                type Output = [u8; $outlen];

                /// The digest is the state words in big-endian order,
                /// truncated to the leftmost bytes (FIPS 180-4 §6.4.2 step 4,
                /// §6.5, §6.6, §6.7).
                #[inline]
                fn output(state: &[u64; 8], out: &mut [u8; $outlen]) {
                    backend::digest_bytes(state, out);
                }

                /// The x86 backends take the final padded block as built in
                /// registers.
                #[inline]
                fn has_compress_final(backend: Backend) -> bool {
                    backend::has_compress_final(backend)
                }

                #[inline]
                fn compress_final(backend: Backend, state: &mut [u64; 8], tail: &[u8], total: u128) {
                    hash_core::arch::compress_final_stored::<Self, 8, 128>(backend, state, tail, total);
                }

                #[inline]
                fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; $outlen]]) {
                    backend::digest_many::<$alg>(backend, inputs, outputs);
                }

                /// SHA-512's 128-byte pairs on `avx512` run on the pair
                /// engine (the padding block's schedule a constant); the
                /// rest as the default does.
                #[inline]
                fn hash_pairs(backend: Backend, nodes: &[[u8; $outlen]], out: &mut [[u8; $outlen]]) {
                    backend::hash_pairs::<$alg, $outlen>(backend, nodes, out);
                }
            }
        };
    }

    sha2_64!(Sha512, "SHA-512", consts::H512, U64, 64);
    sha2_64!(Sha384, "SHA-384", consts::H384, U48, 48);
    sha2_64!(Sha512_224, "SHA-512/224", consts::H512_224, U28, 28);
    sha2_64!(Sha512_256, "SHA-512/256", consts::H512_256, U32, 32);
}

// The crate README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
