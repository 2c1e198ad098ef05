//! The `digest` 0.11 traits (feature `digest011`), beside the 0.10 ones of
//! `digest_impls`, so our hashers plug into `hmac` 0.13, `hkdf` 0.13 and any
//! code generic over `D: digest::Digest` on the 0.11 line.
//!
//! `digest` 0.11 no longer seals its `CoreProxy` trait, so [`Hasher`]
//! implements it itself (with [`Core`] as its block-level core): that makes
//! our hashers `EagerHash` types, which `hmac::Hmac<D>` (the core-API HMAC)
//! requires, as well as `Digest` types for `hmac::SimpleHmac<D>`.
//!
//! The 0.11 line buffers with `block-buffer` 0.12 and `hybrid-array`, where
//! we use `block-buffer` 0.10 and `generic-array`; both sides are plain byte
//! arrays of the same `typenum` sizes, and every conversion below copies at
//! most one block of buffered bytes (never the caller's whole input).

use core::fmt;

use block_buffer::EagerBuffer;
use digest011::block_api::{
    AlgorithmName, Block, BlockSizeUser, Buffer, BufferKindUser, CoreProxy, Eager, FixedOutputCore, OutputSizeUser,
    UpdateCore,
};
use digest011::block_buffer::{BlockBuffer, BlockSizes};
use digest011::common::array::{Array, ArraySize};
use digest011::{
    ExtendableOutput, ExtendableOutputReset, FixedOutput, FixedOutputReset, HashMarker, Output, Reset, Update,
};

use crate::{Core, FixedAlgorithm, Hasher, OutputBytes, Xof, XofAlgorithm, XofReader};

/// Hand `blocks` (a 0.11 slice of whole blocks) to `compress` as one slice of
/// 0.10 blocks, so a multi-block run reaches the backend in one call.
#[inline]
fn with_blocks010<A: FixedAlgorithm>(
    blocks: &[Array<u8, A::BlockSize>],
    compress: impl FnMut(&[crate::Block<A::BlockSize>]),
) where
    A::BlockSize: BlockSizes,
{
    // An empty eager buffer given whole blocks passes every one of them
    // straight on, without copying, and keeps nothing.
    let mut reslice = EagerBuffer::<A::BlockSize>::default();
    reslice.digest_blocks(Array::slice_as_flattened(blocks), compress);
    debug_assert_eq!(reslice.get_pos(), 0);
}

// ---- the core (what `hmac::Hmac<D>` drives) ----

impl<A: FixedAlgorithm> HashMarker for Core<A> {}

impl<A: FixedAlgorithm> BlockSizeUser for Core<A>
where
    A::BlockSize: BlockSizes,
{
    type BlockSize = A::BlockSize;
}

impl<A: FixedAlgorithm> BufferKindUser for Core<A>
where
    A::BlockSize: BlockSizes,
{
    type BufferKind = Eager;
}

impl<A: FixedAlgorithm> OutputSizeUser for Core<A>
where
    A::OutputSize: ArraySize,
{
    type OutputSize = A::OutputSize;
}

impl<A: FixedAlgorithm> UpdateCore for Core<A>
where
    A::BlockSize: BlockSizes,
{
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        with_blocks010::<A>(blocks, |blocks| Core::update_blocks(self, blocks));
    }
}

impl<A: FixedAlgorithm> FixedOutputCore for Core<A>
where
    A::BlockSize: BlockSizes,
    A::OutputSize: ArraySize,
{
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        let mut tail = EagerBuffer::<A::BlockSize>::new(buffer.get_data());
        buffer.reset();
        let mut digest = A::Output::zeroed();
        self.finalize_into(&mut tail, &mut digest);
        out.copy_from_slice(digest.as_ref());
    }
}

impl<A: FixedAlgorithm> Reset for Core<A> {
    #[inline]
    fn reset(&mut self) {
        Core::reset(self);
    }
}

impl<A: FixedAlgorithm> AlgorithmName for Core<A> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(A::NAME)
    }
}

// ---- the buffered hasher ----

impl<A: FixedAlgorithm> HashMarker for Hasher<A> {}

impl<A: FixedAlgorithm> BlockSizeUser for Hasher<A>
where
    A::BlockSize: BlockSizes,
{
    type BlockSize = A::BlockSize;
}

impl<A: FixedAlgorithm> OutputSizeUser for Hasher<A>
where
    A::OutputSize: ArraySize,
{
    type OutputSize = A::OutputSize;
}

impl<A: FixedAlgorithm> Update for Hasher<A> {
    #[inline]
    fn update(&mut self, data: &[u8]) {
        Hasher::update(self, data);
    }
}

impl<A: FixedAlgorithm> FixedOutput for Hasher<A>
where
    A::OutputSize: ArraySize,
{
    #[inline]
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(Hasher::finalize(self).as_ref());
    }
}

impl<A: FixedAlgorithm> FixedOutputReset for Hasher<A>
where
    A::OutputSize: ArraySize,
{
    #[inline]
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        out.copy_from_slice(Hasher::finalize_reset(self).as_ref());
    }
}

impl<A: FixedAlgorithm> Reset for Hasher<A> {
    #[inline]
    fn reset(&mut self) {
        Hasher::reset(self);
    }
}

impl<A: FixedAlgorithm> AlgorithmName for Hasher<A> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(A::NAME)
    }
}

/// Split into and rebuilt from the block-level core and the buffered tail;
/// this is what makes `Hasher<A>` an `EagerHash` for `hmac::Hmac<D>`.
impl<A: FixedAlgorithm> CoreProxy for Hasher<A>
where
    A::BlockSize: BlockSizes,
{
    type Core = Core<A>;

    #[inline]
    fn compose(core: Core<A>, buffer: Buffer<Core<A>>) -> Self {
        Hasher { core, buffer: EagerBuffer::new(buffer.get_data()) }
    }

    #[inline]
    fn decompose(self) -> (Core<A>, Buffer<Core<A>>) {
        (self.core, BlockBuffer::new(self.buffer.get_data()))
    }
}

// ---- extendable output ----

impl<A: XofAlgorithm> HashMarker for Xof<A> {}

impl<A: XofAlgorithm> BlockSizeUser for Xof<A>
where
    A::BlockSize: BlockSizes,
{
    type BlockSize = A::BlockSize;
}

impl<A: XofAlgorithm> Update for Xof<A> {
    #[inline]
    fn update(&mut self, data: &[u8]) {
        Xof::update(self, data);
    }
}

impl<A: XofAlgorithm> ExtendableOutput for Xof<A> {
    type Reader = XofReader<A>;

    #[inline]
    fn finalize_xof(self) -> XofReader<A> {
        Xof::finalize_xof(self)
    }
}

impl<A: XofAlgorithm> ExtendableOutputReset for Xof<A> {
    #[inline]
    fn finalize_xof_reset(&mut self) -> XofReader<A> {
        Xof::finalize_xof_reset(self)
    }
}

impl<A: XofAlgorithm> Reset for Xof<A> {
    #[inline]
    fn reset(&mut self) {
        Xof::reset(self);
    }
}

impl<A: XofAlgorithm> AlgorithmName for Xof<A> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(A::NAME)
    }
}

impl<A: XofAlgorithm> digest011::XofReader for XofReader<A> {
    #[inline]
    fn read(&mut self, buffer: &mut [u8]) {
        XofReader::read(self, buffer);
    }
}
