//! A drop-in replacement for RustCrypto's `sha3` 0.10.9 (the `digest` 0.10
//! line): the same names, types, traits and cargo features, with every
//! Keccak-f\[1600\] (and TurboSHAKE's Keccak-p\[1600, 12\]) permutation run
//! by the `hashes` workspace's `sha3` backends (BMI x86-64, AVX-512,
//! aarch64, ARMv8 SHA3, chosen at run time).
//!
//! Put it under a dependency tree with `[patch.crates-io]` (see README.md).
//!
//! ```
//! use sha3::{Digest, Sha3_256};
//! assert_eq!(Sha3_256::digest(b"abc")[..4], [0x3a, 0x98, 0x5d, 0xa7]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]
#![allow(deprecated)] // generic-array 0.14, which the digest 0.10 line is built on

pub use digest::{self, Digest};

use core::fmt;
use core::slice;

use digest::block_buffer::{BlockBuffer, Eager};
#[cfg(feature = "oid")]
use digest::const_oid::{AssociatedOid, ObjectIdentifier};
use digest::consts::{U104, U136, U144, U168, U200, U28, U32, U48, U64, U72};
use digest::core_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, CoreWrapper, ExtendableOutputCore, FixedOutputCore,
    OutputSizeUser, UpdateCore, XofReaderCore, XofReaderCoreWrapper,
};
use digest::generic_array::{ArrayLength, GenericArray};
use digest::typenum::{IsLess, Le, NonZero, Unsigned, U256};
use digest::{HashMarker, Output, Reset};
use hash_core::{Algorithm, XofAlgorithm};

use ours::algorithm as alg;

/// The best backend this CPU has, detected once per process.
#[inline]
fn backend() -> ours::Backend {
    ours::Backend::detect()
}

/// Keccak's `pad10*1` after the domain byte: `domain` at the end of the
/// message, a final 1 bit in the block's last byte; the padded block goes to
/// `absorb`.
#[inline]
fn pad_and_absorb<N>(buffer: &mut BlockBuffer<N, Eager>, domain: u8, absorb: impl FnOnce(&GenericArray<u8, N>))
where
    N: ArrayLength<u8> + IsLess<U256>,
    Le<N, U256>: NonZero,
{
    let pos = buffer.get_pos();
    let block = buffer.pad_with_zeros();
    block[pos] = domain;
    let last = block.len() - 1;
    block[last] |= 0x80;
    absorb(block);
}

/// The first `out.len()` bytes of the state, lanes little-endian.
#[inline]
fn squeeze(state: &[u64; 25], out: &mut [u8]) {
    for (bytes, lane) in out.chunks_mut(8).zip(state) {
        bytes.copy_from_slice(&lane.to_le_bytes()[..bytes.len()]);
    }
}

/// Zero a state when it is dropped (feature `zeroize`, as the original).
macro_rules! zeroize_on_drop {
    ($ty:ident) => {
        #[cfg(feature = "zeroize")]
        impl Drop for $ty {
            fn drop(&mut self) {
                zeroize::Zeroize::zeroize(&mut self.state);
            }
        }
    };
}

/// The state of a sponge that squeezes with `$perm`'s permutation: each
/// `read_block` returns a rate's worth of state and permutes.
macro_rules! reader {
    ($reader:ident, $reader_full:ident, $rate:ty, $perm:ty, $name:literal) => {
        #[doc = concat!("Core ", $name, " reader state.")]
        #[derive(Clone)]
        #[allow(non_camel_case_types)]
        pub struct $reader {
            state: [u64; 25],
            backend: ours::Backend,
        }

        impl BlockSizeUser for $reader {
            type BlockSize = $rate;
        }

        impl XofReaderCore for $reader {
            #[inline]
            fn read_block(&mut self) -> Block<Self> {
                let mut block = Block::<Self>::default();
                squeeze(&self.state, &mut block);
                <$perm as XofAlgorithm>::permute(self.backend, &mut self.state);
                block
            }
        }

        zeroize_on_drop!($reader);

        #[doc = concat!($name, " reader state.")]
        pub type $reader_full = XofReaderCoreWrapper<$reader>;
    };
}

/// The trait impls every core shares: block size, eager buffering, absorbing
/// whole blocks with `$absorb`'s compression, name, `Debug`.
macro_rules! sponge_core {
    ($core:ident, $full:ident, $rate:ty, $absorb:ty) => {
        impl HashMarker for $core {}

        impl BlockSizeUser for $core {
            type BlockSize = $rate;
        }

        impl BufferKindUser for $core {
            type BufferKind = Eager;
        }

        impl UpdateCore for $core {
            #[inline]
            fn update_blocks(&mut self, blocks: &[Block<Self>]) {
                <$absorb as Algorithm>::compress(self.backend, &mut self.state, blocks);
            }
        }

        impl AlgorithmName for $core {
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($full))
            }
        }

        impl fmt::Debug for $core {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($core), " { ... }"))
            }
        }

        zeroize_on_drop!($core);
    };
}

/// A fixed-output Keccak hash: rate `$rate` (absorbed by `$absorb`, one of
/// our algorithms with that rate), domain byte `$pad`, `$out` bytes out.
macro_rules! fixed {
    ($core:ident, $full:ident, $out:ty, $rate:ty, $absorb:ty, $pad:literal, $name:literal $(, $oid:literal)?) => {
        #[doc = concat!("Core ", $name, " hasher state.")]
        #[derive(Clone)]
        #[allow(non_camel_case_types)]
        pub struct $core {
            state: [u64; 25],
            backend: ours::Backend,
        }

        impl Default for $core {
            #[inline]
            fn default() -> Self {
                Self { state: [0; 25], backend: backend() }
            }
        }

        impl Reset for $core {
            #[inline]
            fn reset(&mut self) {
                self.state = [0; 25];
            }
        }

        impl OutputSizeUser for $core {
            type OutputSize = $out;
        }

        impl FixedOutputCore for $core {
            #[inline]
            fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
                let (backend, state) = (self.backend, &mut self.state);
                pad_and_absorb(buffer, $pad, |block| {
                    <$absorb as Algorithm>::compress(backend, state, slice::from_ref(block))
                });
                squeeze(&self.state, out);
            }
        }

        sponge_core!($core, $full, $rate, $absorb);

        $(
            #[cfg(feature = "oid")]
            impl AssociatedOid for $core {
                const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
            }
        )?

        #[doc = concat!($name, " hasher state.")]
        pub type $full = CoreWrapper<$core>;
    };
}

// Domain bytes: 0x01 for the Keccak submission (no suffix), 0x06 for SHA-3
// (suffix 01), 0x1f for SHAKE (suffix 1111), 0x04 for cSHAKE (suffix 00),
// each followed by pad10*1 (FIPS 202 §B.2, SP 800-185 §3.3).
fixed!(Keccak224Core, Keccak224, U28, U144, alg::Sha3_224, 0x01, "Keccak-224");
fixed!(Keccak256Core, Keccak256, U32, U136, alg::Sha3_256, 0x01, "Keccak-256");
fixed!(Keccak384Core, Keccak384, U48, U104, alg::Sha3_384, 0x01, "Keccak-384");
fixed!(Keccak512Core, Keccak512, U64, U72, alg::Sha3_512, 0x01, "Keccak-512");
fixed!(Keccak256FullCore, Keccak256Full, U200, U136, alg::Sha3_256, 0x01, "SHA-3 CryptoNight variant");
fixed!(Sha3_224Core, Sha3_224, U28, U144, alg::Sha3_224, 0x06, "SHA-3-224", "2.16.840.1.101.3.4.2.7");
fixed!(Sha3_256Core, Sha3_256, U32, U136, alg::Sha3_256, 0x06, "SHA-3-256", "2.16.840.1.101.3.4.2.8");
fixed!(Sha3_384Core, Sha3_384, U48, U104, alg::Sha3_384, 0x06, "SHA-3-384", "2.16.840.1.101.3.4.2.9");
fixed!(Sha3_512Core, Sha3_512, U64, U72, alg::Sha3_512, 0x06, "SHA-3-512", "2.16.840.1.101.3.4.2.10");

/// SHAKE: an extendable-output sponge with domain byte 0x1f.
macro_rules! shake {
    ($core:ident, $full:ident, $reader:ident, $reader_full:ident, $rate:ty, $alg:ty, $name:literal, $oid:literal) => {
        #[doc = concat!("Core ", $name, " hasher state.")]
        #[derive(Clone)]
        #[allow(non_camel_case_types)]
        pub struct $core {
            state: [u64; 25],
            backend: ours::Backend,
        }

        impl Default for $core {
            #[inline]
            fn default() -> Self {
                Self { state: [0; 25], backend: backend() }
            }
        }

        impl Reset for $core {
            #[inline]
            fn reset(&mut self) {
                self.state = [0; 25];
            }
        }

        impl ExtendableOutputCore for $core {
            type ReaderCore = $reader;

            #[inline]
            fn finalize_xof_core(&mut self, buffer: &mut Buffer<Self>) -> $reader {
                let (backend, state) = (self.backend, &mut self.state);
                pad_and_absorb(buffer, 0x1f, |block| {
                    <$alg as Algorithm>::compress(backend, state, slice::from_ref(block))
                });
                $reader { state: self.state, backend: self.backend }
            }
        }

        sponge_core!($core, $full, $rate, $alg);

        #[cfg(feature = "oid")]
        impl AssociatedOid for $core {
            const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
        }

        #[doc = concat!($name, " hasher state.")]
        pub type $full = CoreWrapper<$core>;

        reader!($reader, $reader_full, $rate, $alg, $name);
    };
}

shake!(
    Shake128Core,
    Shake128,
    Shake128ReaderCore,
    Shake128Reader,
    U168,
    alg::Shake128,
    "SHAKE128",
    "2.16.840.1.101.3.4.2.11"
);
shake!(
    Shake256Core,
    Shake256,
    Shake256ReaderCore,
    Shake256Reader,
    U136,
    alg::Shake256,
    "SHAKE256",
    "2.16.840.1.101.3.4.2.12"
);

/// TurboSHAKE (RFC 9861): Keccak-p\[1600, 12\], any domain byte 0x01..=0x7f.
macro_rules! turbo_shake {
    ($core:ident, $full:ident, $reader:ident, $reader_full:ident, $rate:ty, $alg:ty, $name:literal) => {
        #[doc = concat!("Core ", $name, " hasher state.")]
        #[derive(Clone)]
        #[allow(non_camel_case_types)]
        pub struct $core {
            domain_separation: u8,
            state: [u64; 25],
            backend: ours::Backend,
        }

        impl $core {
            /// A hasher with domain byte `domain_separation`.
            ///
            /// # Panics
            /// Unless `domain_separation` is in `0x01..=0x7f` (RFC 9861 §2.2).
            pub fn new(domain_separation: u8) -> Self {
                assert!(
                    (0x01..=0x7f).contains(&domain_separation),
                    "TurboSHAKE's domain byte must be in 0x01..=0x7f, not {domain_separation:#04x}"
                );
                Self { domain_separation, state: [0; 25], backend: backend() }
            }
        }

        impl Reset for $core {
            #[inline]
            fn reset(&mut self) {
                self.state = [0; 25];
            }
        }

        impl ExtendableOutputCore for $core {
            type ReaderCore = $reader;

            #[inline]
            fn finalize_xof_core(&mut self, buffer: &mut Buffer<Self>) -> $reader {
                let (backend, state) = (self.backend, &mut self.state);
                pad_and_absorb(buffer, self.domain_separation, |block| {
                    <$alg as Algorithm>::compress(backend, state, slice::from_ref(block))
                });
                $reader { state: self.state, backend: self.backend }
            }
        }

        sponge_core!($core, $full, $rate, $alg);

        #[doc = concat!($name, " hasher state.")]
        pub type $full = CoreWrapper<$core>;

        reader!($reader, $reader_full, $rate, $alg, $name);
    };
}

turbo_shake!(
    TurboShake128Core,
    TurboShake128,
    TurboShake128ReaderCore,
    TurboShake128Reader,
    U168,
    alg::TurboShake128,
    "TurboSHAKE128"
);
turbo_shake!(
    TurboShake256Core,
    TurboShake256,
    TurboShake256ReaderCore,
    TurboShake256Reader,
    U136,
    alg::TurboShake256,
    "TurboSHAKE256"
);

/// `left_encode(x)` of SP 800-185 §2.3.1 into `buf`; returns the encoding.
fn left_encode(x: u64, buf: &mut [u8; 9]) -> &[u8] {
    let bytes = x.to_be_bytes();
    let skip = bytes.iter().take(7).take_while(|&&b| b == 0).count();
    let n = 8 - skip;
    buf[0] = n as u8;
    buf[1..=n].copy_from_slice(&bytes[skip..]);
    &buf[..=n]
}

/// cSHAKE (SP 800-185 §3): SHAKE after `bytepad(encode_string(N) ||
/// encode_string(S), rate)`; plain SHAKE when both strings are empty.
macro_rules! cshake {
    ($core:ident, $full:ident, $reader:ident, $reader_full:ident, $rate:ty, $alg:ty, $name:literal) => {
        #[doc = concat!("Core ", $name, " hasher state.")]
        #[derive(Clone)]
        #[allow(non_camel_case_types)]
        pub struct $core {
            padding: u8,
            state: [u64; 25],
            backend: ours::Backend,
            #[cfg(feature = "reset")]
            initial: [u64; 25],
        }

        impl $core {
            /// cSHAKE with customization string `customization` and an
            /// empty function name.
            pub fn new(customization: &[u8]) -> Self {
                Self::new_with_function_name(&[], customization)
            }

            /// cSHAKE with function name `function_name` (N) and
            /// customization string `customization` (S).
            pub fn new_with_function_name(function_name: &[u8], customization: &[u8]) -> Self {
                let backend = backend();
                let mut state = [0u64; 25];
                let padding = if function_name.is_empty() && customization.is_empty() {
                    0x1f
                } else {
                    let mut buffer = BlockBuffer::<$rate, Eager>::default();
                    let mut absorb = |data: &[u8]| {
                        buffer.digest_blocks(data, |blocks| <$alg as Algorithm>::compress(backend, &mut state, blocks))
                    };
                    let mut enc = [0u8; 9];
                    absorb(left_encode(<$rate>::U64, &mut enc));
                    absorb(left_encode(8 * function_name.len() as u64, &mut enc));
                    absorb(function_name);
                    absorb(left_encode(8 * customization.len() as u64, &mut enc));
                    absorb(customization);
                    // bytepad: zeros up to a whole block (none if the
                    // encoding already ended on a block boundary).
                    if buffer.get_pos() != 0 {
                        let block = buffer.pad_with_zeros();
                        <$alg as Algorithm>::compress(backend, &mut state, slice::from_ref(block));
                    }
                    0x04
                };
                Self {
                    padding,
                    state,
                    backend,
                    #[cfg(feature = "reset")]
                    initial: state,
                }
            }
        }

        #[cfg(feature = "reset")]
        impl Reset for $core {
            #[inline]
            fn reset(&mut self) {
                self.state = self.initial;
            }
        }

        impl ExtendableOutputCore for $core {
            type ReaderCore = $reader;

            #[inline]
            fn finalize_xof_core(&mut self, buffer: &mut Buffer<Self>) -> $reader {
                let (backend, state) = (self.backend, &mut self.state);
                pad_and_absorb(buffer, self.padding, |block| {
                    <$alg as Algorithm>::compress(backend, state, slice::from_ref(block))
                });
                $reader { state: self.state, backend: self.backend }
            }
        }

        sponge_core!($core, $full, $rate, $alg);

        #[doc = concat!($name, " hasher state.")]
        pub type $full = CoreWrapper<$core>;

        reader!($reader, $reader_full, $rate, $alg, $name);
    };
}

cshake!(CShake128Core, CShake128, CShake128ReaderCore, CShake128Reader, U168, alg::Shake128, "CSHAKE128");
cshake!(CShake256Core, CShake256, CShake256ReaderCore, CShake256Reader, U136, alg::Shake256, "CSHAKE256");
