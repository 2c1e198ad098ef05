//! SHA-3 (SHA3-224, SHA3-256, SHA3-384, SHA3-512), the SHAKE128 and
//! SHAKE256 extendable-output functions (FIPS 202), the original Keccak
//! submission's Keccak-256 (as used by Ethereum), the SHA-3 derived
//! functions of SP 800-185 (cSHAKE, KMAC, TupleHash, ParallelHash) and
//! TurboSHAKE and KangarooTwelve (RFC 9861), with the Keccak-p\[1600\]
//! backend chosen once at run time from the CPU's features.
//!
//! ```
//! use sha3::{Keccak256, Sha3_256, Sha3_512, Shake128};
//! use hex_literal::hex;
//!
//! // One-shot.
//! assert_eq!(
//!     Sha3_256::digest(b"abc"),
//!     hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"),
//! );
//! assert_eq!(
//!     Keccak256::digest(b""),
//!     hex!("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
//! );
//!
//! // Streaming, in pieces of any size.
//! let mut h = Sha3_512::new();
//! h.update(b"a");
//! h.update(b"bc");
//! assert_eq!(h.finalize(), Sha3_512::digest(b"abc"));
//!
//! // An XOF: absorb, then read as much output as wanted, in any pieces.
//! let mut x = Shake128::new();
//! x.update(b"abc");
//! let mut reader = x.finalize_xof();
//! let (mut first, mut rest) = ([0u8; 5], [0u8; 27]);
//! reader.read(&mut first);
//! reader.read(&mut rest);
//! let mut whole = [0u8; 32];
//! Shake128::digest_xof(b"abc", &mut whole);
//! assert_eq!(whole, hex!("5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8"));
//! assert_eq!((&whole[..5], &whole[5..]), (&first[..], &rest[..]));
//!
//! // Many messages at once (four Keccak states per AVX2 register where the
//! // CPU has AVX2).
//! let inputs: [&[u8]; 3] = [b"", b"abc", &[0xa3; 200]];
//! let mut outputs = [[0u8; 32]; 3];
//! Sha3_256::digest_many(&inputs, &mut outputs);
//! assert_eq!(outputs[1], Sha3_256::digest(b"abc"));
//!
//! // List the backends this CPU supports and hash with each.
//! for backend in sha3::Backend::available() {
//!     let mut h = Sha3_256::with_backend(backend);
//!     h.update(b"abc");
//!     assert_eq!(h.finalize(), Sha3_256::digest(b"abc"), "{}", backend.name());
//! }
//! ```
//!
//! # Backends
//!
//! [`Backend::detect`] picks, once per process:
//!
//! * [`Backend::Avx512`] on x86-64 CPUs with AVX-512F (and AVX2, BMI1,
//!   BMI2): single messages run a one-state AVX-512 permutation on Intel
//!   CPUs and the scalar BMI one on others (AMD's Zen 4 and 5 are not
//!   timed yet; see [`Backend::Avx512`]); batches (`digest_many`,
//!   `digest_xof_many`), KangarooTwelve leaves and ParallelHash blocks run
//!   eight Keccak states side by side in the AVX-512 registers;
//! * [`Backend::Avx2`] on x86-64 CPUs with AVX2, BMI1 and BMI2 (Haswell and
//!   later, Zen): the same with four Keccak states in the AVX2 registers;
//! * [`Backend::X86`] where BMI1 and BMI2 exist without AVX2: the scalar
//!   permutation compiled with `andn` and `rorx`;
//! * on aarch64, [`Backend::ArmSha3`] (the ARMv8.2 SHA3 extension: single
//!   messages in the low halves of the NEON registers, batches two at a
//!   time) on Apple cores (macOS, or Linux with MIDR implementer Apple),
//!   and [`Backend::Aarch64`] (scalar, lazy rotations) on every other
//!   aarch64 core, with or without the SHA3 extension: on the Neoverse and
//!   Cortex cores the scalar code issues on more pipes, the same choice as
//!   OpenSSL and aws-lc. `Backend::available()` lists the detected one
//!   first; either can be forced;
//! * [`Backend::Portable`] everywhere else.
//!
//! Each x86 backend is a cargo feature (`x86`, `avx2`, `avx512`; all on by
//! default), and so is each aarch64 one (`aarch64`, `arm-sha3`; on by
//! default). Forcing a backend (`with_backend`) forces its batch engine
//! too, so `Backend::Avx2` measures the AVX2 engine on an AVX-512 CPU.
//!
//! # SP 800-185 and RFC 9861
//!
//! [`CShake128`]/[`CShake256`], [`Kmac128`]/[`Kmac256`] (and KMACXOF),
//! [`TupleHash128`]/[`TupleHash256`] (and TupleHashXOF),
//! [`ParallelHash128`]/[`ParallelHash256`] (and ParallelHashXOF) of NIST SP
//! 800-185, and [`TurboShake128`]/[`TurboShake256`], [`KangarooTwelve`]
//! (KT128) and [`Kt256`] of RFC 9861: all `Clone + Debug` (the key and
//! the data never printed), `no_std`, allocation-free, streaming in any
//! split. TurboSHAKE and KangarooTwelve use Keccak-p\[1600, 12\];
//! KangarooTwelve's 8 KiB leaves and ParallelHash's blocks run on the
//! multi-lane engines.
//!
//! Like the hashes, each has `with_backend` (which panics, naming the type
//! called, on a backend this CPU lacks) and `try_with_backend` (which
//! returns [`UnsupportedBackend`]), and `reset`. All but TupleHash
//! implement `std::io::Write` (feature `std`) and `digest`'s `Update`,
//! `ExtendableOutput`, `ExtendableOutputReset` and `Reset` (feature
//! `digest`; with `digest011` the 0.11 ones too), so generic `digest` code
//! takes them; KMAC adds `digest::Mac` (read [`Kmac128`]'s note on
//! truncated tags), cSHAKE the 0.11 `CustomizedInit`. cSHAKE, TurboSHAKE
//! and KangarooTwelve implement `Default` (N and S empty, which is SHAKE;
//! D = 0x1F; C empty), which `digest`'s provided
//! `ExtendableOutput::digest_xof` needs; KMAC (a key) and ParallelHash (a
//! block size) have no parameter-free form. TupleHash has none of these
//! traits: they let data arrive in any split, and its output depends on
//! the split into elements ([`TupleHash128`] says more).
//!
//! ```
//! use sha3::{KangarooTwelve, Kmac256, TupleHash128};
//!
//! let mut tag = [0u8; 32];
//! let mut mac = Kmac256::new(b"key", b"my protocol");
//! mac.update(b"message");
//! mac.clone().finalize_into(&mut tag);
//! assert!(mac.verify(&tag));
//!
//! let mut t = TupleHash128::new(b"");
//! t.push(b"ab");
//! t.push(b"c");
//! let mut out = [0u8; 32];
//! t.finalize_into(&mut out);
//!
//! let mut digest = [0u8; 32];
//! KangarooTwelve::digest_xof(b"", &[0u8; 100_000], &mut digest);
//! ```
//!
//! Generic `digest` code and `std::io` take them (features `digest` and
//! `std`, on by default):
//!
//! ```
//! # #[cfg(all(feature = "digest", feature = "std"))] {
//! use hash_core::digest::{ExtendableOutput, Update, XofReader};
//! use sha3::{CShake128, KangarooTwelve, ParallelHash128, TurboShake128};
//!
//! fn xof32<X: Update + ExtendableOutput>(mut x: X, data: &[u8]) -> [u8; 32] {
//!     x.update(data);
//!     let mut out = [0u8; 32];
//!     x.finalize_xof().read(&mut out);
//!     out
//! }
//!
//! let mut want = [0u8; 32];
//! KangarooTwelve::digest_xof(b"C", b"abc", &mut want);
//! assert_eq!(xof32(KangarooTwelve::new(b"C"), b"abc"), want);
//! TurboShake128::digest_xof(0x1f, b"abc", &mut want);
//! assert_eq!(xof32(TurboShake128::new(0x1f), b"abc"), want);
//! CShake128::digest_xof(b"", b"S", b"abc", &mut want);
//! assert_eq!(xof32(CShake128::new(b"", b"S"), b"abc"), want);
//!
//! // std::io::Write: copy a reader straight into the hasher.
//! let mut p = ParallelHash128::new(64, b"");
//! std::io::copy(&mut &[7u8; 1000][..], &mut p).unwrap();
//! assert_eq!(xof32(p, b""), xof32(ParallelHash128::new(64, b""), &[7u8; 1000]));
//! # }
//! ```
#![no_std]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "std")]
extern crate std;

mod backend;
mod consts;
mod interop;
mod k12;
mod sp800_185;
mod sponge;
mod turboshake;

pub use backend::Backend;
pub use hash_core::UnsupportedBackend;
pub use k12::{KangarooTwelve, Kt256};
pub use sp800_185::{
    CShake128, CShake128Reader, CShake256, CShake256Reader, Kmac128, Kmac256, ParallelHash128, ParallelHash256,
    TupleHash128, TupleHash256,
};
pub use turboshake::{InvalidDomain, TurboShake128, TurboShake128Reader, TurboShake256, TurboShake256Reader};

/// SHA3-224 hasher (FIPS 202 §6.1), 28-byte digest.
pub type Sha3_224 = hash_core::Hasher<algorithm::Sha3_224>;
/// SHA3-256 hasher (FIPS 202 §6.1), 32-byte digest.
pub type Sha3_256 = hash_core::Hasher<algorithm::Sha3_256>;
/// SHA3-384 hasher (FIPS 202 §6.1), 48-byte digest.
pub type Sha3_384 = hash_core::Hasher<algorithm::Sha3_384>;
/// SHA3-512 hasher (FIPS 202 §6.1), 64-byte digest.
pub type Sha3_512 = hash_core::Hasher<algorithm::Sha3_512>;
/// Keccak-256 hasher: the Keccak submission's padding (no SHA-3 domain
/// bits), capacity 512, 32-byte digest; the hash Ethereum calls `keccak256`.
pub type Keccak256 = hash_core::Hasher<algorithm::Keccak256>;
/// SHAKE128 extendable-output function (FIPS 202 §6.2).
pub type Shake128 = hash_core::Xof<algorithm::Shake128>;
/// SHAKE256 extendable-output function (FIPS 202 §6.2).
pub type Shake256 = hash_core::Xof<algorithm::Shake256>;

/// Types for code built on `digest`'s core API, such as `hmac::Hmac<D>`
/// (see [`hash_core::CoreWrapper`]).
#[cfg(feature = "digest")]
pub mod compat {
    /// SHA3-224 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha3_224>`.
    pub type Sha3_224 = hash_core::CoreWrapper<super::algorithm::Sha3_224>;
    /// SHA3-256 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha3_256>`.
    pub type Sha3_256 = hash_core::CoreWrapper<super::algorithm::Sha3_256>;
    /// SHA3-384 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha3_384>`.
    pub type Sha3_384 = hash_core::CoreWrapper<super::algorithm::Sha3_384>;
    /// SHA3-512 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Sha3_512>`.
    pub type Sha3_512 = hash_core::CoreWrapper<super::algorithm::Sha3_512>;
    /// Keccak-256 as a `digest::core_api::CoreWrapper`, for `hmac::Hmac<Keccak256>`.
    pub type Keccak256 = hash_core::CoreWrapper<super::algorithm::Keccak256>;
}

#[cfg(feature = "digest011")]
pub mod compat011;

/// The algorithm definitions behind the hashers: rate, padding, output
/// length and the Keccak-f\[1600\] sponge, for `hash-core`.
pub mod algorithm {
    use hash_core::typenum::{U28, U32, U48, U64, U72, U104, U136, U144, U168};
    use hash_core::{Algorithm, Block, FixedAlgorithm, Padding, XofAlgorithm};

    use crate::{Backend, backend};

    /// SHA3-224 (FIPS 202 §6.1): rate 1152 bits.
    #[derive(Debug)]
    pub struct Sha3_224;
    /// SHA3-256 (FIPS 202 §6.1): rate 1088 bits.
    #[derive(Debug)]
    pub struct Sha3_256;
    /// SHA3-384 (FIPS 202 §6.1): rate 832 bits.
    #[derive(Debug)]
    pub struct Sha3_384;
    /// SHA3-512 (FIPS 202 §6.1): rate 576 bits.
    #[derive(Debug)]
    pub struct Sha3_512;
    /// Keccak-256: Keccak\[c = 512\] with the submission's `pad10*1` and no
    /// domain bits (first padding byte 0x01).
    #[derive(Debug)]
    pub struct Keccak256;
    /// SHAKE128 (FIPS 202 §6.2): rate 1344 bits.
    #[derive(Debug)]
    pub struct Shake128;
    /// SHAKE256 (FIPS 202 §6.2): rate 1088 bits.
    #[derive(Debug)]
    pub struct Shake256;
    /// TurboSHAKE128's sponge (RFC 9861 §2.2): rate 1344 bits on
    /// Keccak-p\[1600, 12\]. As an [`XofAlgorithm`] its domain byte is
    /// D = 0x1F (so `hash_core::Xof<TurboShake128>` is TurboSHAKE128 with
    /// D = 0x1F); [`crate::TurboShake128`] takes any D.
    #[derive(Debug)]
    pub struct TurboShake128;
    /// TurboSHAKE256's sponge (RFC 9861 §2.2): rate 1088 bits on
    /// Keccak-p\[1600, 12\], D = 0x1F as an [`XofAlgorithm`].
    #[derive(Debug)]
    pub struct TurboShake256;

    /// The sponge over Keccak-f\[1600\] (FIPS 202 §4) with rate `$rate`
    /// bytes: the state starts at zero and absorbs rate-sized blocks.
    macro_rules! sponge {
        ($alg:ident, $name:literal, $rate:ty, $bytes:literal) => {
            sponge!($alg, $name, $rate, $bytes, 24);
        };
        ($alg:ident, $name:literal, $rate:ty, $bytes:literal, $rounds:literal) => {
            impl Algorithm for $alg {
                const NAME: &'static str = $name;
                type BlockSize = $rate;
                type State = [u64; 25];
                type Backend = Backend;
                const INIT: [u64; 25] = [0; 25];

                #[inline]
                fn compress(backend: Backend, state: &mut [u64; 25], blocks: &[Block<$rate>]) {
                    backend::absorb::<$bytes, $rounds, Block<$rate>>(backend, state, blocks);
                }
            }
        };
    }

    macro_rules! fixed {
        ($alg:ident, $name:literal, $rate:ty, $bytes:literal, $domain:literal, $out:ty, $outlen:literal) => {
            sponge!($alg, $name, $rate, $bytes);

            impl FixedAlgorithm for $alg {
                const PADDING: Padding = Padding::Keccak($domain);
                type OutputSize = $out;
                type Output = [u8; $outlen];

                /// The digest is the first `d` bits of the state after
                /// padding, lanes in little-endian byte order (FIPS 202 §4
                /// Algorithm 8 steps 7-10, §B.1); every digest is shorter
                /// than the rate, so one squeeze suffices.
                #[inline]
                fn output(state: &[u64; 25], out: &mut [u8; $outlen]) {
                    for (bytes, lane) in out.chunks_mut(8).zip(state) {
                        bytes.copy_from_slice(&lane.to_le_bytes()[..bytes.len()]);
                    }
                }

                #[inline]
                fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; $outlen]]) {
                    backend::digest_many::<Self, $bytes, 24>(backend, inputs, outputs);
                }

                #[inline]
                fn hash_pairs(backend: Backend, nodes: &[[u8; $outlen]], out: &mut [[u8; $outlen]]) {
                    backend::hash_pairs::<Self, $bytes, $outlen>(backend, $domain, nodes, out);
                }
            }
        };
    }

    macro_rules! xof {
        ($alg:ident, $name:literal, $rate:ty, $bytes:literal, $rounds:literal) => {
            sponge!($alg, $name, $rate, $bytes, $rounds);

            impl XofAlgorithm for $alg {
                /// SHAKE's suffix `1111` followed by `pad10*1`'s first bit
                /// (FIPS 202 §6.2, §B.2); for TurboSHAKE the default
                /// D = 0x1F (RFC 9861 §2.2).
                const DOMAIN: u8 = 0x1f;

                #[inline]
                fn permute(backend: Backend, state: &mut [u64; 25]) {
                    backend::permute::<$rounds>(backend, state);
                }

                #[inline]
                fn digest_xof_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) {
                    backend::digest_xof_many::<Self, $bytes, $rounds>(backend, inputs, outputs);
                }
            }
        };
    }

    // SHA-3 appends the suffix `01` before `pad10*1` (FIPS 202 §6.1, §B.2):
    // first padding byte 0x06.
    fixed!(Sha3_224, "SHA3-224", U144, 144, 0x06, U28, 28);
    fixed!(Sha3_256, "SHA3-256", U136, 136, 0x06, U32, 32);
    fixed!(Sha3_384, "SHA3-384", U104, 104, 0x06, U48, 48);
    fixed!(Sha3_512, "SHA3-512", U72, 72, 0x06, U64, 64);
    fixed!(Keccak256, "Keccak-256", U136, 136, 0x01, U32, 32);
    xof!(Shake128, "SHAKE128", U168, 168, 24);
    xof!(Shake256, "SHAKE256", U136, 136, 24);
    xof!(TurboShake128, "TurboSHAKE128", U168, 168, 12);
    xof!(TurboShake256, "TurboSHAKE256", U136, 136, 12);
}

// The crate README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
