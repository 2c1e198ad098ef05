//! The sponge cores behind the hashers: [`Sha3HasherCore`] absorbs whole
//! rate-sized blocks (the `digest` wrapper buffers the rest) and pads,
//! [`Sha3ReaderCore`] squeezes. Whole blocks go to our backends in one call
//! where the rate is one of SHA-3's or SHAKE's.

use core::{fmt, marker::PhantomData};

use digest::array::ArraySize;
use digest::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, Eager, ExtendableOutputCore, FixedOutputCore,
    OutputSizeUser, Reset, UpdateCore, XofReaderCore,
};
use digest::block_buffer::BlockSizes;
use digest::common::hazmat::{DeserializeStateError, SerializableState, SerializedState};
use digest::typenum::{IsLessOrEqual, True, U0, U200};
use digest::{HashMarker, Output};
use hash_core::block_buffer::EagerBuffer;
use hash_core::generic_array::{ArrayLength, GenericArray};
use hash_core::typenum::{IsLess, Le, NonZero, U256};
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

/// `bytes` (whole blocks of `N` bytes) as the generic-array blocks our
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

/// Absorb `bytes`, whole blocks of `rate` bytes (FIPS 202 §4 Algorithm 8
/// step 6): one call to the backend for SHA-3's and SHAKE's rates, which
/// the constant `rate` selects at compile time; block by block otherwise.
#[inline]
fn absorb(rate: usize, backend: ours::Backend, state: &mut [u64; 25], bytes: &[u8]) {
    use hash_core::typenum::{U72, U104, U136, U144, U168};
    debug_assert_eq!(bytes.len() % rate, 0);
    match rate {
        144 => as_blocks::<U144>(bytes, |b| <alg::Sha3_224 as Algorithm>::compress(backend, state, b)),
        136 => as_blocks::<U136>(bytes, |b| <alg::Sha3_256 as Algorithm>::compress(backend, state, b)),
        104 => as_blocks::<U104>(bytes, |b| <alg::Sha3_384 as Algorithm>::compress(backend, state, b)),
        72 => as_blocks::<U72>(bytes, |b| <alg::Sha3_512 as Algorithm>::compress(backend, state, b)),
        168 => as_blocks::<U168>(bytes, |b| <alg::Shake128 as Algorithm>::compress(backend, state, b)),
        _ => {
            for block in bytes.chunks_exact(rate) {
                for (lane, word) in state.iter_mut().zip(block.chunks(8)) {
                    let mut le = [0u8; 8];
                    le[..word.len()].copy_from_slice(word);
                    *lane ^= u64::from_le_bytes(le);
                }
                permute(backend, state);
            }
        }
    }
}

/// The lanes of `state`, little-endian, into `out` (FIPS 202 §B.1).
#[inline]
fn write_lanes(state: &[u64; 25], out: &mut [u8]) {
    for (bytes, lane) in out.chunks_mut(8).zip(state) {
        bytes.copy_from_slice(&lane.to_le_bytes()[..bytes.len()]);
    }
}

/// A Keccak sponge of rate `Rate` bytes with output length `OutputSize`
/// (zero for an XOF) and first padding byte `PAD`.
#[derive(Clone)]
pub struct Sha3HasherCore<Rate, OutputSize, const PAD: u8>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
    OutputSize: ArraySize + IsLessOrEqual<U200, Output = True>,
{
    state: [u64; 25],
    backend: ours::Backend,
    _sizes: PhantomData<(Rate, OutputSize)>,
}

/// Bounds shared by every impl of the core (those of the original).
macro_rules! core_impl {
    ($($trait_:ident)? { $($body:tt)* }) => {
        impl<Rate, OutputSize, const PAD: u8> $($trait_ for)? Sha3HasherCore<Rate, OutputSize, PAD>
        where
            Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
            OutputSize: ArraySize + IsLessOrEqual<U200, Output = True>,
        {
            $($body)*
        }
    };
}

core_impl!({
    /// Pad the buffered tail (domain byte `PAD`, then `pad10*1`'s last
    /// bit: FIPS 202 §5.1, §B.2) and absorb it.
    #[inline]
    fn pad_and_absorb(&mut self, buffer: &mut Buffer<Self>) {
        let pos = buffer.get_pos();
        let mut block = buffer.pad_with_zeros();
        block[pos] = PAD;
        let last = block.len() - 1;
        block[last] |= 0x80;
        absorb(Rate::USIZE, self.backend, &mut self.state, &block);
    }
});

core_impl!(HashMarker {});

core_impl!(BlockSizeUser {
    type BlockSize = Rate;
});

core_impl!(BufferKindUser {
    type BufferKind = Eager;
});

core_impl!(OutputSizeUser {
    type OutputSize = OutputSize;
});

core_impl!(UpdateCore {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        absorb(Rate::USIZE, self.backend, &mut self.state, Block::<Self>::slice_as_flattened(blocks));
    }
});

core_impl!(FixedOutputCore {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        self.pad_and_absorb(buffer);
        // Keccak256Full's 200 bytes are the whole state; every other
        // output is shorter than the rate: one squeeze.
        write_lanes(&self.state, out);
    }
});

impl<Rate, const PAD: u8> ExtendableOutputCore for Sha3HasherCore<Rate, U0, PAD>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
{
    type ReaderCore = Sha3ReaderCore<Rate>;

    #[inline]
    fn finalize_xof_core(&mut self, buffer: &mut Buffer<Self>) -> Self::ReaderCore {
        self.pad_and_absorb(buffer);
        Sha3ReaderCore { state: self.state, backend: self.backend, _rate: PhantomData }
    }
}

core_impl!(Default {
    #[inline]
    fn default() -> Self {
        Self { state: [0; 25], backend: backend(), _sizes: PhantomData }
    }
});

core_impl!(Reset {
    #[inline]
    fn reset(&mut self) {
        self.state = [0; 25];
    }
});

core_impl!(AlgorithmName {
    /// The original's name for every instance of the core.
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sha3")
    }
});

use core::fmt::Debug;

core_impl!(Debug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sha3FixedCore<Rate, OutputSize, PAD, ROUNDS> { ... }")
    }
});

core_impl!(Drop {
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            use digest::zeroize::Zeroize;
            self.state.zeroize();
        }
    }
});

#[cfg(feature = "zeroize")]
core_impl!(ZeroizeOnDrop {});
#[cfg(feature = "zeroize")]
use digest::zeroize::ZeroizeOnDrop;

/// The 25 lanes, little-endian (the original's layout, byte for byte; the
/// wrapper appends its buffer).
impl<Rate, OutputSize, const PAD: u8> SerializableState for Sha3HasherCore<Rate, OutputSize, PAD>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
    OutputSize: ArraySize + IsLessOrEqual<U200, Output = True>,
{
    type SerializedStateSize = U200;

    fn serialize(&self) -> SerializedState<Self> {
        let mut out = SerializedState::<Self>::default();
        write_lanes(&self.state, &mut out);
        out
    }

    fn deserialize(serialized: &SerializedState<Self>) -> Result<Self, DeserializeStateError> {
        let mut state = [0u64; 25];
        for (lane, bytes) in state.iter_mut().zip(serialized.chunks_exact(8)) {
            *lane = u64::from_le_bytes(bytes.try_into().map_err(|_| DeserializeStateError)?);
        }
        Ok(Self { state, backend: backend(), _sizes: PhantomData })
    }
}

/// The squeezing half of a sponge of rate `Rate` bytes (FIPS 202 §4
/// Algorithm 8 steps 7-10): each block read is the first `Rate` bytes of
/// the state, then the state is permuted.
#[derive(Clone)]
pub struct Sha3ReaderCore<Rate>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
{
    state: [u64; 25],
    backend: ours::Backend,
    _rate: PhantomData<Rate>,
}

impl<Rate> BlockSizeUser for Sha3ReaderCore<Rate>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
{
    type BlockSize = Rate;
}

impl<Rate> XofReaderCore for Sha3ReaderCore<Rate>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
{
    #[inline]
    fn read_block(&mut self) -> Block<Self> {
        let mut block = Block::<Self>::default();
        write_lanes(&self.state, &mut block);
        permute(self.backend, &mut self.state);
        block
    }
}

impl<Rate> Drop for Sha3ReaderCore<Rate>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
{
    #[inline]
    fn drop(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            use digest::zeroize::Zeroize;
            self.state.zeroize();
        }
    }
}

impl<Rate> fmt::Debug for Sha3ReaderCore<Rate>
where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sha3ReaderCore { ... }")
    }
}

#[cfg(feature = "zeroize")]
impl<Rate> digest::zeroize::ZeroizeOnDrop for Sha3ReaderCore<Rate> where
    Rate: BlockSizes + IsLessOrEqual<U200, Output = True>
{
}
