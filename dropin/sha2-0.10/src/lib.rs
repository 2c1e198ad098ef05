//! A drop-in replacement for RustCrypto's `sha2` 0.10.9 (the `digest` 0.10
//! line): the same names, types, traits and cargo features, with SHA-256 and
//! SHA-512 compressed by the `hashes` workspace's backends (`sha256`,
//! `sha512`: SHA-NI, AVX2, AVX-512, ARMv8 SHA2/SHA512, chosen at run time).
//!
//! Put it under a dependency tree with `[patch.crates-io]` (see README.md);
//! code that names `sha2::Sha256`, `hmac::Hmac<sha2::Sha256>`, `hkdf`,
//! `pbkdf2` and the rest then runs on our backends unchanged.
//!
//! ```
//! use sha2::{Digest, Sha256};
//! let digest = Sha256::digest(b"abc");
//! assert_eq!(digest[..4], [0xba, 0x78, 0x16, 0xbf]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]
#![allow(deprecated)] // generic-array 0.14, which the digest 0.10 line is built on

pub use digest::{self, Digest};

use core::fmt;

use digest::block_buffer::Eager;
#[cfg(feature = "oid")]
use digest::const_oid::{AssociatedOid, ObjectIdentifier};
use digest::consts::{U128, U28, U32, U48, U64};
use digest::core_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, CoreWrapper, CtVariableCoreWrapper, OutputSizeUser,
    TruncSide, UpdateCore, VariableOutputCore,
};
#[cfg(feature = "compress")]
use digest::generic_array::GenericArray;
use digest::{HashMarker, InvalidOutputSize, Output};
use hash_core::Algorithm;

/// The SHA-256 compression behind the 32-bit types (SHA-224's state is
/// compressed the same way; only its initial values differ).
type Alg256 = ours256::algorithm::Sha256;
/// The SHA-512 compression behind the 64-bit types.
type Alg512 = ours512::algorithm::Sha512;

/// The backend a new core compresses with: the best one this CPU has
/// (detected once per process), or the portable one under `force-soft`.
#[inline]
fn backend256() -> ours256::Backend {
    if cfg!(feature = "force-soft") {
        ours256::Backend::Portable
    } else {
        ours256::Backend::detect()
    }
}

#[inline]
fn backend512() -> ours512::Backend {
    if cfg!(feature = "force-soft") {
        ours512::Backend::Portable
    } else {
        ours512::Backend::detect()
    }
}

/// FIPS 180-4 §5.3 initial hash values, by output size.
mod init {
    pub(crate) const SHA224: [u32; 8] =
        [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4];
    pub(crate) const SHA256: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    pub(crate) const SHA512_224: [u64; 8] = [
        0x8c3d37c819544da2,
        0x73e1996689dcd4d6,
        0x1dfab7ae32ff9c82,
        0x679dd514582f9fcf,
        0x0f6d2b697bd44da8,
        0x77e36f7304c48942,
        0x3f9d85a86a1d36c8,
        0x1112e6ad91d692a1,
    ];
    pub(crate) const SHA512_256: [u64; 8] = [
        0x22312194fc2bf72c,
        0x9f555fa3c84c64c2,
        0x2393b86b6f53b151,
        0x963877195940eabd,
        0x96283ee2a88effe3,
        0xbe5e1e2553863992,
        0x2b0199fc2c85b8aa,
        0x0eb72ddc81c52ca2,
    ];
    pub(crate) const SHA384: [u64; 8] = [
        0xcbbb9d5dc1059ed8,
        0x629a292a367cd507,
        0x9159015a3070dd17,
        0x152fecd8f70e5939,
        0x67332667ffc00b31,
        0x8eb44a8768581511,
        0xdb0c2e0d64f98fa7,
        0x47b5481dbefa4fa4,
    ];
    pub(crate) const SHA512: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
}

/// The SHA-256 family's block-level core, for any output size it supports
/// (28 or 32 bytes), as `digest`'s `CtVariableCoreWrapper` drives it.
///
/// Aligned to 16 bytes (48 long; the original's is 40, aligned to 8), for
/// the copies of the hasher that `digest` 0.10 makes, which the compiler
/// moves in 16-byte pieces: so aligned, the block buffer after the core
/// starts on a 16-byte boundary and the buffer's position byte is copied by
/// itself, so that each load matches the store that wrote it and the CPU
/// forwards it. At 40 bytes, 16-byte loads straddled two stores of the
/// buffer; at 48 aligned to 8, the position byte was read back with an
/// 8-byte load; either stalls until the stores retire. Measured on AMD Zen 3
/// against both: 16 B through `Digest::digest` 15% faster than at 40 bytes,
/// 64 B 10% faster than at 48/8, and `Hmac<Sha256>` at 64 B 20% faster than
/// at 40 bytes.
#[derive(Clone)]
#[repr(align(16))]
pub struct Sha256VarCore {
    state: [u32; 8],
    blocks: u64,
    backend: ours256::Backend,
}

/// The SHA-512 family's block-level core, for any output size it supports
/// (28, 32, 48 or 64 bytes).
#[derive(Clone)]
pub struct Sha512VarCore {
    state: [u64; 8],
    blocks: u128,
    backend: ours512::Backend,
}

macro_rules! var_core {
    ($core:ident, $alg:ty, $backend:ident, $block:ty, $out:ty, $name:literal,
     { $($size:literal => $init:expr),* }) => {
        impl HashMarker for $core {}

        impl BlockSizeUser for $core {
            type BlockSize = $block;
        }

        impl BufferKindUser for $core {
            type BufferKind = Eager;
        }

        impl OutputSizeUser for $core {
            type OutputSize = $out;
        }

        impl UpdateCore for $core {
            #[inline]
            fn update_blocks(&mut self, blocks: &[Block<Self>]) {
                self.blocks = self.blocks.wrapping_add(blocks.len() as _);
                <$alg as Algorithm>::compress(self.backend, &mut self.state, blocks);
            }
        }

        impl VariableOutputCore for $core {
            const TRUNC_SIDE: TruncSide = TruncSide::Left;

            #[inline]
            fn new(output_size: usize) -> Result<Self, InvalidOutputSize> {
                let state = match output_size {
                    $($size => $init,)*
                    _ => return Err(InvalidOutputSize),
                };
                Ok(Self { state, blocks: 0, backend: $backend() })
            }

            #[inline]
            fn finalize_variable_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
                let tail = buffer.get_data();
                let bytes = (self.blocks as u128).wrapping_mul(<$block as digest::typenum::Unsigned>::U64 as u128)
                    .wrapping_add(tail.len() as u128);
                // The backend's own final-block path (padding built in
                // registers) where the tail and the length fit in one block,
                // as our own `finalize` does; else pad in a buffer (out of
                // line on x86-64, where that is the rare path).
                hash_core::compress_final_tail::<$alg>(
                    self.backend,
                    &mut self.state,
                    tail,
                    bytes,
                    cfg!(target_arch = "x86_64"),
                );
                buffer.reset();
                let width = core::mem::size_of_val(&self.state[0]);
                for (bytes, word) in out.chunks_exact_mut(width).zip(self.state.iter()) {
                    bytes.copy_from_slice(&word.to_be_bytes());
                }
            }
        }

        impl AlgorithmName for $core {
            #[inline]
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str($name)
            }
        }

        impl fmt::Debug for $core {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($core), " { ... }"))
            }
        }
    };
}

var_core!(Sha256VarCore, Alg256, backend256, U64, U32, "Sha256", {
    28 => init::SHA224,
    32 => init::SHA256
});
var_core!(Sha512VarCore, Alg512, backend512, U128, U64, "Sha512", {
    28 => init::SHA512_224,
    32 => init::SHA512_256,
    48 => init::SHA384,
    64 => init::SHA512
});

macro_rules! oid_carrier {
    ($($name:ident = $oid:literal;)*) => {$(
        #[doc(hidden)]
        #[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
        pub struct $name;

        #[cfg(feature = "oid")]
        impl AssociatedOid for $name {
            const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
        }
    )*};
}

// NIST's hash algorithm OIDs (csor.nist.gov, 2.16.840.1.101.3.4.2.*).
oid_carrier! {
    OidSha256 = "2.16.840.1.101.3.4.2.1";
    OidSha384 = "2.16.840.1.101.3.4.2.2";
    OidSha512 = "2.16.840.1.101.3.4.2.3";
    OidSha224 = "2.16.840.1.101.3.4.2.4";
    OidSha512_224 = "2.16.840.1.101.3.4.2.5";
    OidSha512_256 = "2.16.840.1.101.3.4.2.6";
}

/// SHA-224 hasher.
pub type Sha224 = CoreWrapper<CtVariableCoreWrapper<Sha256VarCore, U28, OidSha224>>;
/// SHA-256 hasher.
pub type Sha256 = CoreWrapper<CtVariableCoreWrapper<Sha256VarCore, U32, OidSha256>>;
/// SHA-512/224 hasher.
pub type Sha512_224 = CoreWrapper<CtVariableCoreWrapper<Sha512VarCore, U28, OidSha512_224>>;
/// SHA-512/256 hasher.
pub type Sha512_256 = CoreWrapper<CtVariableCoreWrapper<Sha512VarCore, U32, OidSha512_256>>;
/// SHA-384 hasher.
pub type Sha384 = CoreWrapper<CtVariableCoreWrapper<Sha512VarCore, U48, OidSha384>>;
/// SHA-512 hasher.
pub type Sha512 = CoreWrapper<CtVariableCoreWrapper<Sha512VarCore, U64, OidSha512>>;

/// The raw SHA-256 compression function: compress every block of `blocks`
/// into `state`, in order, on the best backend this CPU has.
#[cfg(feature = "compress")]
pub fn compress256(state: &mut [u32; 8], blocks: &[GenericArray<u8, U64>]) {
    <Alg256 as Algorithm>::compress(backend256(), state, blocks);
}

/// The raw SHA-512 compression function: compress every block of `blocks`
/// into `state`, in order, on the best backend this CPU has.
#[cfg(feature = "compress")]
pub fn compress512(state: &mut [u64; 8], blocks: &[GenericArray<u8, U128>]) {
    <Alg512 as Algorithm>::compress(backend512(), state, blocks);
}
