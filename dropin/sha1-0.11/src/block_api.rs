//! Block-level types: the core behind the hasher and the raw compression
//! function.

use core::fmt;

use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, FixedOutputCore, OutputSizeUser, Reset,
    UpdateCore,
};
use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::typenum::{U20, U28, U64};
use digest::{HashMarker, Output};
use hash_core::block_buffer::EagerBuffer;
use hash_core::{Algorithm, FixedAlgorithm};

type Alg = ours::algorithm::Sha1;
/// The chaining state's words.
const WORDS: usize = 5;
/// The digest's bytes.
const OUT: usize = 20;

/// The best backend this CPU has (detected once per process); the portable
/// one under `--cfg sha1_backend="soft"`, as the original's RUSTFLAGS switch.
#[inline]
fn backend() -> ours::Backend {
    if cfg!(sha1_backend = "soft") { ours::Backend::Portable } else { ours::Backend::detect() }
}

/// Hand `bytes` (whole blocks) to our compression as one slice of blocks: an
/// empty eager buffer passes whole blocks straight through, without copying.
#[inline]
fn compress_bytes(backend: ours::Backend, state: &mut [u32; WORDS], bytes: &[u8]) {
    let mut reslice = EagerBuffer::<U64>::default();
    reslice.digest_blocks(bytes, |blocks| <Alg as Algorithm>::compress(backend, state, blocks));
    debug_assert_eq!(reslice.get_pos(), 0);
}

/// SHA-1 compression: every block of `blocks` into `state`, in order, on the
/// best backend this CPU has.
pub fn compress(state: &mut [u32; WORDS], blocks: &[[u8; 64]]) {
    compress_bytes(backend(), state, blocks.as_flattened());
}

/// SHA-1's block-level core.
#[derive(Clone)]
pub struct Sha1Core {
    h: [u32; WORDS],
    block_len: u64,
    backend: ours::Backend,
}

impl Default for Sha1Core {
    #[inline]
    fn default() -> Self {
        Self { h: <Alg as Algorithm>::INIT, block_len: 0, backend: backend() }
    }
}

impl HashMarker for Sha1Core {}

impl BlockSizeUser for Sha1Core {
    type BlockSize = U64;
}

impl BufferKindUser for Sha1Core {
    type BufferKind = Eager;
}

impl OutputSizeUser for Sha1Core {
    type OutputSize = U20;
}

impl UpdateCore for Sha1Core {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        self.block_len = self.block_len.wrapping_add(blocks.len() as u64);
        compress_bytes(self.backend, &mut self.h, Block::<Self>::slice_as_flattened(blocks));
    }
}

impl FixedOutputCore for Sha1Core {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        let tail = buffer.get_data();
        let bytes = u128::from(self.block_len) * 64 + tail.len() as u128;
        // The backend's own final-block path where the tail and the 8-byte
        // length fit in one block, as our own `finalize` does.
        let mut h = self.h;
        if tail.len() + 8 < 64 && <Alg as FixedAlgorithm>::has_compress_final(self.backend) {
            <Alg as FixedAlgorithm>::compress_final(self.backend, &mut h, tail, bytes);
        } else {
            hash_core::compress_final_buffered::<Alg>(self.backend, &mut h, tail, bytes);
        }
        buffer.reset();
        let mut digest = [0u8; OUT];
        <Alg as FixedAlgorithm>::output(&h, &mut digest);
        out.copy_from_slice(&digest);
    }
}

impl Reset for Sha1Core {
    #[inline]
    fn reset(&mut self) {
        self.h = <Alg as Algorithm>::INIT;
        self.block_len = 0;
    }
}

impl AlgorithmName for Sha1Core {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sha1")
    }
}

impl fmt::Debug for Sha1Core {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sha1Core { ... }")
    }
}

impl Drop for Sha1Core {
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            use digest::zeroize::Zeroize;
            self.h.zeroize();
            self.block_len.zeroize();
        }
    }
}

#[cfg(feature = "zeroize")]
impl digest::zeroize::ZeroizeOnDrop for Sha1Core {}

/// The state words little-endian, then the count of blocks compressed,
/// little-endian (the original's layout, byte for byte).
impl SerializableState for Sha1Core {
    type SerializedStateSize = U28;

    fn serialize(&self) -> SerializedState<Self> {
        let mut out = SerializedState::<Self>::default();
        let (words, count) = out.split_at_mut(4 * WORDS);
        for (bytes, word) in words.chunks_exact_mut(4).zip(self.h.iter()) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        count.copy_from_slice(&self.block_len.to_le_bytes());
        out
    }

    fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
        let (words, count) = serialized.split_at(4 * WORDS);
        let mut h = [0u32; WORDS];
        for (word, bytes) in h.iter_mut().zip(words.chunks_exact(4)) {
            *word = u32::from_le_bytes(bytes.try_into().map_err(|_| DeserializeStateError)?);
        }
        let block_len = u64::from_le_bytes(count.try_into().map_err(|_| DeserializeStateError)?);
        Ok(Self { h, block_len, backend: backend() })
    }
}
