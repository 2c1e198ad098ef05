//! A drop-in replacement for RustCrypto's `sha2` 0.11.1 (the `digest` 0.11
//! line): the same names, types, traits and cargo features, with SHA-256 and
//! SHA-512 compressed by the `hashes` workspace's backends (`sha256`,
//! `sha512`: SHA-NI, AVX2, AVX-512, ARMv8 SHA2/SHA512, chosen at run time).
//!
//! Put it under a dependency tree with `[patch.crates-io]` (see README.md).
//!
//! ```
//! use sha2::{Digest, Sha256};
//! assert_eq!(Sha256::digest(b"abc")[..4], [0xba, 0x78, 0x16, 0xbf]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]
// Our algorithms take generic-array 0.14 blocks (the digest 0.10 line's).
#![allow(deprecated)]

pub use digest::{self, Digest};

use core::fmt;

use digest::block_api::{AlgorithmName, BlockSizeUser, Buffer, CoreProxy, CtOutWrapper, OutputSizeUser};
use digest::block_buffer::BlockBuffer;
use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::consts::{U28, U32, U48, U64};
use digest::typenum::Unsigned;
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, Reset, Update};

pub mod block_api;

/// A hasher: the public type the original makes with `digest`'s
/// `buffer_fixed!` (the same traits, the same serialized state), written
/// out here so that its buffer is ours.
///
/// `buffer_fixed!` keeps the partial block in `block-buffer`'s eager buffer,
/// which stores its position in the block's last byte. `Digest::digest` and
/// `finalize` move the hasher, and the compiler copies it in 16-byte pieces,
/// so the piece holding that byte is read right after a one-byte store into
/// it, a load the CPU cannot forward from the store: it waits until the
/// store has left the store buffer. Measured on an Intel Xeon (model 167):
/// `Sha256::digest` of 64 B 20% slower, of 1 KiB 4-5% slower than through
/// the `sha2` 0.10 drop-in, whose buffer keeps the position in a byte of its
/// own. Here the position is a byte of its own too ([`Partial`]).
/// A partial block and its length (less than `B`: full blocks are
/// compressed at once, as `digest`'s eager buffer does). A type of its own
/// (65 or 129 bytes, byte-aligned), so that a copy of a hasher copies the
/// length with a one-byte move, which the CPU forwards from the store that
/// wrote it.
#[derive(Clone)]
struct Partial<const B: usize> {
    bytes: [u8; B],
    pos: u8,
}

macro_rules! hasher {
    ($(#[$attr:meta])* $name:ident, $core:ident, $out:ty, $block:literal, $oid:literal) => {
        $(#[$attr])*
        #[derive(Clone)]
        pub struct $name {
            core: block_api::$core,
            buffer: Partial<$block>,
        }

        impl $name {
            /// The partial block.
            #[inline]
            fn tail(&self) -> &[u8] {
                &self.buffer.bytes[..usize::from(self.buffer.pos)]
            }

            /// The digest (the first bytes of the state: the family's
            /// truncation side is the left) of what was hashed.
            #[inline]
            fn finish(&mut self, out: &mut Output<Self>) {
                let mut full = Output::<block_api::$core>::default();
                let Partial { bytes, pos } = &self.buffer;
                self.core.finish(&bytes[..usize::from(*pos)], &mut full);
                out.copy_from_slice(&full[..<$out as Unsigned>::USIZE]);
            }

            /// A hasher on `core` with `data` (less than a block) buffered.
            fn with_tail(core: block_api::$core, data: &[u8]) -> Self {
                let mut bytes = [0; $block];
                bytes[..data.len()].copy_from_slice(data);
                Self { core, buffer: Partial { bytes, pos: data.len() as u8 } }
            }
        }

        impl fmt::Debug for $name {
            #[inline]
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), " { ... }"))
            }
        }

        impl BlockSizeUser for $name {
            type BlockSize = <block_api::$core as BlockSizeUser>::BlockSize;
        }

        impl OutputSizeUser for $name {
            type OutputSize = $out;
        }

        impl CoreProxy for $name {
            type Core = CtOutWrapper<block_api::$core, $out>;

            fn compose(core: Self::Core, buffer: Buffer<Self::Core>) -> Self {
                match block_api::$core::deserialize(&core.serialize()) {
                    Ok(core) => Self::with_tail(core, buffer.get_data()),
                    Err(_) => unreachable!("a core deserializes what it serialized"),
                }
            }

            fn decompose(self) -> (Self::Core, Buffer<Self::Core>) {
                match Self::Core::deserialize(&self.core.serialize()) {
                    Ok(core) => (core, BlockBuffer::new(self.tail())),
                    Err(_) => unreachable!("a core deserializes what it serialized"),
                }
            }
        }

        impl Update for $name {
            #[inline]
            fn update(&mut self, mut data: &[u8]) {
                let Partial { bytes, pos } = &mut self.buffer;
                let at = usize::from(*pos);
                if at != 0 {
                    let take = ($block - at).min(data.len());
                    bytes[at..at + take].copy_from_slice(&data[..take]);
                    data = &data[take..];
                    if at + take < $block {
                        *pos = (at + take) as u8;
                        return;
                    }
                    self.core.compress_bytes(bytes);
                }
                let whole = data.len() - data.len() % $block;
                let (blocks, rest) = data.split_at(whole);
                if !blocks.is_empty() {
                    self.core.compress_bytes(blocks);
                }
                bytes[..rest.len()].copy_from_slice(rest);
                *pos = rest.len() as u8;
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

        impl Reset for $name {
            #[inline]
            fn reset(&mut self) {
                self.core = block_api::$core::for_size(<$out as Unsigned>::USIZE);
                self.buffer.pos = 0;
            }
        }

        impl Default for $name {
            #[inline]
            fn default() -> Self {
                Self { core: block_api::$core::for_size(<$out as Unsigned>::USIZE), buffer: Partial { bytes: [0; $block], pos: 0 } }
            }
        }

        impl HashMarker for $name {}

        impl AlgorithmName for $name {
            #[inline]
            fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
                <block_api::$core as AlgorithmName>::write_alg_name(f)
            }
        }

        /// The core's state, then the buffer as `block-buffer` serializes
        /// it: the original's layout, byte for byte.
        impl SerializableState for $name {
            type SerializedStateSize = digest::typenum::Sum<
                <<Self as CoreProxy>::Core as SerializableState>::SerializedStateSize,
                digest::block_buffer::SerializedBufferSize<<Self as BlockSizeUser>::BlockSize, digest::block_api::Eager>,
            >;

            #[inline]
            fn serialize(&self) -> SerializedState<Self> {
                let buffer: Buffer<<Self as CoreProxy>::Core> = BlockBuffer::new(self.tail());
                self.core.serialize().concat(buffer.serialize())
            }

            #[inline]
            fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
                let (core, buffer) =
                    serialized.split_ref::<<<Self as CoreProxy>::Core as SerializableState>::SerializedStateSize>();
                let core = block_api::$core::deserialize(core)?;
                let buffer: Buffer<<Self as CoreProxy>::Core> =
                    BlockBuffer::deserialize(buffer).map_err(|_| DeserializeStateError)?;
                Ok(Self::with_tail(core, buffer.get_data()))
            }
        }

        #[cfg(feature = "zeroize")]
        impl Drop for $name {
            fn drop(&mut self) {
                use digest::zeroize::Zeroize;
                self.buffer.bytes.zeroize();
                self.buffer.pos.zeroize();
            }
        }

        /// The core zeroizes its state on drop, the hasher its buffer.
        #[cfg(feature = "zeroize")]
        impl digest::zeroize::ZeroizeOnDrop for $name {}

        #[cfg(feature = "oid")]
        impl digest::const_oid::AssociatedOid for $name {
            const OID: digest::const_oid::ObjectIdentifier = digest::const_oid::ObjectIdentifier::new_unwrap($oid);
        }
    };
}

hasher!(
    /// SHA-256 hasher.
    Sha256, Sha256VarCore, U32, 64, "2.16.840.1.101.3.4.2.1"
);
hasher!(
    /// SHA-384 hasher.
    Sha384, Sha512VarCore, U48, 128, "2.16.840.1.101.3.4.2.2"
);
hasher!(
    /// SHA-512 hasher.
    Sha512, Sha512VarCore, U64, 128, "2.16.840.1.101.3.4.2.3"
);
hasher!(
    /// SHA-224 hasher.
    Sha224, Sha256VarCore, U28, 64, "2.16.840.1.101.3.4.2.4"
);
hasher!(
    /// SHA-512/224 hasher.
    Sha512_224, Sha512VarCore, U28, 128, "2.16.840.1.101.3.4.2.5"
);
hasher!(
    /// SHA-512/256 hasher.
    Sha512_256, Sha512VarCore, U32, 128, "2.16.840.1.101.3.4.2.6"
);
