//! A drop-in replacement for RustCrypto's `sha3` 0.12.0 (the `digest` 0.11
//! line): the same names, types, traits and cargo features, with every
//! Keccak-f\[1600\] permutation run by the `hashes` workspace's `sha3`
//! backends (BMI x86-64, AVX-512, aarch64, ARMv8 SHA3, chosen at run time).
//!
//! As in the original, this line has the fixed-output hashes only (SHA-3 and
//! Keccak); SHAKE, cSHAKE and TurboSHAKE live in RustCrypto's separate
//! `shake`, `cshake` and `turbo-shake` crates, which are not replaced here.
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

pub use digest::{self, Digest};

use core::fmt;

use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::common::{AlgorithmName, BlockSizeUser};
#[cfg(feature = "oid")]
use digest::const_oid::{AssociatedOid, ObjectIdentifier};
use digest::consts::{U28, U32, U48, U64, U72, U104, U136, U144, U200, U201};
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};
use hash_core::block_buffer::EagerBuffer;
use hash_core::{Algorithm, XofAlgorithm};

use ours::algorithm as alg;

/// The best backend this CPU has, detected once per process.
#[inline]
fn backend() -> ours::Backend {
    ours::Backend::detect()
}

/// Keccak-f\[1600\] (24 rounds) on `backend`.
#[inline]
fn permute(backend: ours::Backend, state: &mut [u64; 25]) {
    <alg::Shake128 as XofAlgorithm>::permute(backend, state);
}

/// XOR `data` into the state's bytes from byte `at` on (lanes
/// little-endian), a lane at a time: the bytes up to the first lane
/// boundary, the whole lanes, then the last bytes, each partial lane
/// gathered in a zeroed 8-byte buffer. (Byte by byte, a 64-byte message
/// through `Digest::digest` took 10% longer than through our own API;
/// AMD Zen 3.)
#[inline]
fn xor_bytes(state: &mut [u64; 25], at: usize, data: &[u8]) {
    let (mut lane, skip) = (at / 8, at % 8);
    let mut data = data;
    if skip > 0 {
        let n = (8 - skip).min(data.len());
        let mut bytes = [0u8; 8];
        bytes[skip..skip + n].copy_from_slice(&data[..n]);
        state[lane] ^= u64::from_le_bytes(bytes);
        data = &data[n..];
        lane += 1;
    }
    let whole = data.chunks_exact(8);
    let rest = whole.remainder();
    for (word, bytes) in state[lane..].iter_mut().zip(whole) {
        *word ^= u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8]));
    }
    if !rest.is_empty() {
        let mut bytes = [0u8; 8];
        bytes[..rest.len()].copy_from_slice(rest);
        state[lane + (data.len() - rest.len()) / 8] ^= u64::from_le_bytes(bytes);
    }
}

/// A sponge of rate `RATE` bytes whose whole blocks `A` (one of our
/// algorithms with that rate) absorbs; partial blocks are XORed into the
/// state byte by byte, with `pos` bytes of the current block absorbed so far
/// (always under `RATE`: a full block is permuted at once), which is the
/// original's state, so that serialized states are the same bytes.
macro_rules! hasher {
    ($(#[$doc:meta])* $name:ident, $rate:ty, $out:ty, $absorb:ty, $pad:literal $(, $oid:literal)?) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            state: [u64; 25],
            pos: u8,
            backend: ours::Backend,
        }

        impl $name {
            const RATE: usize = <$rate as digest::typenum::Unsigned>::USIZE;
        }

        impl Default for $name {
            #[inline]
            fn default() -> Self {
                Self { state: [0; 25], pos: 0, backend: backend() }
            }
        }

        impl Reset for $name {
            #[inline]
            fn reset(&mut self) {
                self.state = [0; 25];
                self.pos = 0;
            }
        }

        impl HashMarker for $name {}

        impl BlockSizeUser for $name {
            type BlockSize = $rate;
        }

        impl OutputSizeUser for $name {
            type OutputSize = $out;
        }

        impl Update for $name {
            #[inline]
            fn update(&mut self, mut data: &[u8]) {
                let pos = usize::from(self.pos);
                if pos > 0 {
                    let n = (Self::RATE - pos).min(data.len());
                    xor_bytes(&mut self.state, pos, &data[..n]);
                    data = &data[n..];
                    if pos + n < Self::RATE {
                        self.pos = (pos + n) as u8;
                        return;
                    }
                    permute(self.backend, &mut self.state);
                    self.pos = 0;
                }
                let whole = data.len() - data.len() % Self::RATE;
                if whole > 0 {
                    // Whole blocks straight to the backend, in one call.
                    let (backend, state) = (self.backend, &mut self.state);
                    let mut reslice = EagerBuffer::<$rate>::default();
                    reslice.digest_blocks(&data[..whole], |blocks| <$absorb as Algorithm>::compress(backend, state, blocks));
                }
                xor_bytes(&mut self.state, 0, &data[whole..]);
                self.pos = (data.len() - whole) as u8;
            }
        }

        impl $name {
            /// Pad (domain byte, then `pad10*1`'s final bit), permute and
            /// write the first `out.len()` bytes of the state.
            #[inline]
            fn finish(&mut self, out: &mut [u8]) {
                xor_bytes(&mut self.state, usize::from(self.pos), &[$pad]);
                self.state[Self::RATE / 8 - 1] ^= 1 << 63;
                permute(self.backend, &mut self.state);
                for (bytes, lane) in out.chunks_mut(8).zip(self.state.iter()) {
                    bytes.copy_from_slice(&lane.to_le_bytes()[..bytes.len()]);
                }
            }
        }

        impl FixedOutput for $name {
            #[inline]
            fn finalize_into(mut self, out: &mut Output<Self>) {
                self.finish(out);
            }
        }

        impl FixedOutputReset for $name {
            #[inline]
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                self.finish(out);
                Reset::reset(self);
            }
        }

        impl AlgorithmName for $name {
            #[inline]
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(stringify!($name))
            }
        }

        /// The 25 lanes little-endian, then the position in the current
        /// block (the original's layout, byte for byte).
        impl SerializableState for $name {
            type SerializedStateSize = U201;

            fn serialize(&self) -> SerializedState<Self> {
                let mut out = SerializedState::<Self>::default();
                for (bytes, lane) in out[..200].chunks_exact_mut(8).zip(self.state.iter()) {
                    bytes.copy_from_slice(&lane.to_le_bytes());
                }
                out[200] = self.pos;
                out
            }

            fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
                let pos = serialized[200];
                if usize::from(pos) >= Self::RATE {
                    return Err(DeserializeStateError);
                }
                let mut state = [0u64; 25];
                for (lane, bytes) in state.iter_mut().zip(serialized[..200].chunks_exact(8)) {
                    *lane = u64::from_le_bytes(bytes.try_into().map_err(|_| DeserializeStateError)?);
                }
                Ok(Self { state, pos, backend: backend() })
            }
        }

        impl fmt::Debug for $name {
            #[inline]
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), " { ... }"))
            }
        }

        impl Drop for $name {
            #[inline]
            fn drop(&mut self) {
                #[cfg(feature = "zeroize")]
                {
                    use digest::zeroize::Zeroize;
                    self.state.zeroize();
                    self.pos.zeroize();
                }
            }
        }

        #[cfg(feature = "zeroize")]
        impl digest::zeroize::ZeroizeOnDrop for $name {}

        $(
            #[cfg(feature = "oid")]
            impl AssociatedOid for $name {
                const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
            }
        )?
    };
}

// Domain bytes: 0x06 for SHA-3 (suffix 01), 0x01 for the Keccak submission
// (no suffix), each followed by pad10*1 (FIPS 202 §B.2).
hasher!(/** SHA3-224 hasher. */ Sha3_224, U144, U28, alg::Sha3_224, 0x06, "2.16.840.1.101.3.4.2.7");
hasher!(/** SHA3-256 hasher. */ Sha3_256, U136, U32, alg::Sha3_256, 0x06, "2.16.840.1.101.3.4.2.8");
hasher!(/** SHA3-384 hasher. */ Sha3_384, U104, U48, alg::Sha3_384, 0x06, "2.16.840.1.101.3.4.2.9");
hasher!(/** SHA3-512 hasher. */ Sha3_512, U72, U64, alg::Sha3_512, 0x06, "2.16.840.1.101.3.4.2.10");
hasher!(/** Keccak-224 hasher. */ Keccak224, U144, U28, alg::Sha3_224, 0x01);
hasher!(/** Keccak-256 hasher. */ Keccak256, U136, U32, alg::Sha3_256, 0x01);
hasher!(/** Keccak-384 hasher. */ Keccak384, U104, U48, alg::Sha3_384, 0x01);
hasher!(/** Keccak-512 hasher. */ Keccak512, U72, U64, alg::Sha3_512, 0x01);
hasher!(/** Keccak-256 with the whole 200-byte state as output (CryptoNight). */ Keccak256Full, U136, U200, alg::Sha3_256, 0x01);
