//! The `digest` 0.10 traits, so our hashers plug into `hmac`, `hkdf` and any
//! code generic over `D: digest::Digest`.

use core::fmt;

use block_buffer::Eager;
use digest::core_api::{
    AlgorithmName, BlockSizeUser, Buffer, BufferKindUser, FixedOutputCore, OutputSizeUser, UpdateCore,
};
use digest::{
    ExtendableOutput, ExtendableOutputReset, FixedOutput, FixedOutputReset, HashMarker, Output, Reset, Update,
};

use crate::{Block, Core, FixedAlgorithm, Hasher, OutputBytes, Xof, XofAlgorithm, XofReader};

// ---- the core (what `hmac::Hmac<D>` drives) ----

impl<A: FixedAlgorithm> HashMarker for Core<A> {}

impl<A: FixedAlgorithm> BlockSizeUser for Core<A> {
    type BlockSize = A::BlockSize;
}

impl<A: FixedAlgorithm> BufferKindUser for Core<A> {
    type BufferKind = Eager;
}

impl<A: FixedAlgorithm> OutputSizeUser for Core<A> {
    type OutputSize = A::OutputSize;
}

impl<A: FixedAlgorithm> UpdateCore for Core<A> {
    #[inline]
    fn update_blocks(&mut self, blocks: &[Block<A::BlockSize>]) {
        Core::update_blocks(self, blocks);
    }
}

impl<A: FixedAlgorithm> FixedOutputCore for Core<A> {
    #[inline]
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        let mut digest = A::Output::zeroed();
        self.finalize_into(buffer, &mut digest);
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

impl<A: FixedAlgorithm> BlockSizeUser for Hasher<A> {
    type BlockSize = A::BlockSize;
}

impl<A: FixedAlgorithm> OutputSizeUser for Hasher<A> {
    type OutputSize = A::OutputSize;
}

impl<A: FixedAlgorithm> Update for Hasher<A> {
    #[inline]
    fn update(&mut self, data: &[u8]) {
        Hasher::update(self, data);
    }
}

impl<A: FixedAlgorithm> FixedOutput for Hasher<A> {
    #[inline]
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(Hasher::finalize(self).as_ref());
    }
}

impl<A: FixedAlgorithm> FixedOutputReset for Hasher<A> {
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

// ---- extendable output ----

impl<A: XofAlgorithm> HashMarker for Xof<A> {}

impl<A: XofAlgorithm> BlockSizeUser for Xof<A> {
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

impl<A: XofAlgorithm> digest::XofReader for XofReader<A> {
    #[inline]
    fn read(&mut self, buffer: &mut [u8]) {
        XofReader::read(self, buffer);
    }
}
