//! Block-level types: the variable-output cores behind the hashers and the
//! raw compression functions.

use core::fmt;

use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, OutputSizeUser, TruncSide, UpdateCore,
    VariableOutputCore,
};
use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::typenum::{U32, U40, U64, U80, U128, Unsigned};
use digest::{HashMarker, InvalidOutputSize, Output};
use hash_core::Algorithm;
use hash_core::block_buffer::EagerBuffer;
use hash_core::generic_array::{ArrayLength, GenericArray};
use hash_core::typenum::{IsLess, Le, NonZero, U256};

type Alg256 = ours256::algorithm::Sha256;
type Alg512 = ours512::algorithm::Sha512;

/// The backend a new core compresses with: the best one this CPU has
/// (detected once per process); the portable one under
/// `--cfg sha2_backend="soft"` (or `"soft-compact"`), as the original's
/// RUSTFLAGS switch.
#[inline]
fn backend256() -> ours256::Backend {
    if cfg!(any(sha2_backend = "soft", sha2_backend = "soft-compact")) {
        ours256::Backend::Portable
    } else {
        ours256::Backend::detect()
    }
}

#[inline]
fn backend512() -> ours512::Backend {
    if cfg!(any(sha2_backend = "soft", sha2_backend = "soft-compact")) {
        ours512::Backend::Portable
    } else {
        ours512::Backend::detect()
    }
}

/// Hand `bytes` (whole blocks) to `compress` as one slice of the blocks our
/// algorithms take: an empty eager buffer passes whole blocks straight
/// through, without copying.
#[inline]
fn as_blocks<N>(bytes: &[u8], compress: impl FnMut(&[GenericArray<u8, N>]))
where
    N: ArrayLength<u8> + IsLess<U256>,
    Le<N, U256>: NonZero,
{
    let mut reslice = EagerBuffer::<N>::default();
    reslice.digest_blocks(bytes, compress);
    debug_assert_eq!(reslice.get_pos(), 0);
}

/// SHA-256 compression: every block of `blocks` into `state`, in order, on
/// the best backend this CPU has.
pub fn compress256(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    let backend = backend256();
    as_blocks(blocks.as_flattened(), |b| <Alg256 as Algorithm>::compress(backend, state, b));
}

/// SHA-512 compression: every block of `blocks` into `state`, in order, on
/// the best backend this CPU has.
pub fn compress512(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    let backend = backend512();
    as_blocks(blocks.as_flattened(), |b| <Alg512 as Algorithm>::compress(backend, state, b));
}

/// FIPS 180-4 §5.3 initial hash values.
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
/// (28 or 32 bytes).
#[derive(Clone)]
#[repr(align(16))]
pub struct Sha256VarCore {
    state: [u32; 8],
    block_len: u64,
    backend: ours256::Backend,
}

/// The SHA-512 family's block-level core, for any output size it supports
/// (28, 32, 48 or 64 bytes).
#[derive(Clone)]
pub struct Sha512VarCore {
    state: [u64; 8],
    block_len: u128,
    backend: ours512::Backend,
}

macro_rules! var_core {
    ($core:ident, $alg:ty, $backend:ident, $word:ty, $count:ty, $block:ty, $out:ty,
     $ser:ty, $name:literal, { $($size:literal => $init:expr),* }) => {
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

        impl $core {
            /// Compress `bytes`, whole blocks, in order.
            #[inline]
            pub(crate) fn compress_bytes(&mut self, bytes: &[u8]) {
                let n = bytes.len() / <$block as Unsigned>::USIZE;
                self.block_len = self.block_len.wrapping_add(n as $count);
                let (backend, state) = (self.backend, &mut self.state);
                as_blocks(bytes, |b| <$alg as Algorithm>::compress(backend, state, b));
            }

            /// Pad and compress `tail` (less than a block, the bytes after
            /// the blocks compressed so far) and write the whole state
            /// big-endian into `out`, which holds the widest output.
            #[inline]
            pub(crate) fn finish(&mut self, tail: &[u8], out: &mut [u8]) {
                let bytes = (self.block_len as u128)
                    .wrapping_mul(<$block as Unsigned>::U64 as u128)
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
                let width = core::mem::size_of::<$word>();
                for (bytes, word) in out.chunks_exact_mut(width).zip(self.state.iter()) {
                    bytes.copy_from_slice(&word.to_be_bytes());
                }
            }

            /// The core for an output of `size` bytes, which the family has.
            #[inline]
            pub(crate) fn for_size(size: usize) -> Self {
                match <Self as VariableOutputCore>::new(size) {
                    Ok(core) => core,
                    Err(_) => unreachable!("the hasher types name output sizes of their family"),
                }
            }
        }

        impl UpdateCore for $core {
            #[inline]
            fn update_blocks(&mut self, blocks: &[Block<Self>]) {
                self.compress_bytes(Block::<Self>::slice_as_flattened(blocks));
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
                Ok(Self { state, block_len: 0, backend: $backend() })
            }

            #[inline]
            fn finalize_variable_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
                self.finish(buffer.get_data(), out);
                buffer.reset();
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

        #[cfg(feature = "zeroize")]
        impl Drop for $core {
            fn drop(&mut self) {
                use digest::zeroize::Zeroize;
                self.state.zeroize();
                self.block_len.zeroize();
            }
        }

        #[cfg(feature = "zeroize")]
        impl digest::zeroize::ZeroizeOnDrop for $core {}

        /// The state words little-endian, then the count of blocks
        /// compressed, little-endian (the original's layout, byte for byte).
        impl SerializableState for $core {
            type SerializedStateSize = $ser;

            fn serialize(&self) -> SerializedState<Self> {
                let mut out = SerializedState::<Self>::default();
                let width = core::mem::size_of::<$word>();
                let (words, count) = out.split_at_mut(8 * width);
                for (bytes, word) in words.chunks_exact_mut(width).zip(self.state.iter()) {
                    bytes.copy_from_slice(&word.to_le_bytes());
                }
                count.copy_from_slice(&self.block_len.to_le_bytes());
                out
            }

            fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
                let width = core::mem::size_of::<$word>();
                let (words, count) = serialized.split_at(8 * width);
                let mut state = [0 as $word; 8];
                for (word, bytes) in state.iter_mut().zip(words.chunks_exact(width)) {
                    *word = <$word>::from_le_bytes(bytes.try_into().map_err(|_| DeserializeStateError)?);
                }
                let block_len = <$count>::from_le_bytes(count.try_into().map_err(|_| DeserializeStateError)?);
                Ok(Self { state, block_len, backend: $backend() })
            }
        }
    };
}

var_core!(Sha256VarCore, Alg256, backend256, u32, u64, U64, U32, U40, "Sha256", {
    28 => init::SHA224,
    32 => init::SHA256
});
var_core!(Sha512VarCore, Alg512, backend512, u64, u128, U128, U64, U80, "Sha512", {
    28 => init::SHA512_224,
    32 => init::SHA512_256,
    48 => init::SHA384,
    64 => init::SHA512
});
