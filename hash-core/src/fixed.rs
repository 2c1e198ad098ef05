//! Streaming and one-shot hashing for fixed-output algorithms.

use core::fmt;
use core::slice;

use block_buffer::EagerBuffer;
use generic_array::typenum::Unsigned;

use crate::{Algorithm, BackendKind, Block, FixedAlgorithm, OutputBytes, Padding, UnsupportedBackend};

/// The compression side of a [`Hasher`]: chaining state, the number of
/// blocks compressed so far, and the backend that compresses them.
///
/// This is what `digest`'s core API (`UpdateCore`, `FixedOutputCore`) sees,
/// which is what `hmac::Hmac` is built on.
pub struct Core<A: FixedAlgorithm> {
    state: A::State,
    blocks: u64,
    backend: A::Backend,
}

impl<A: FixedAlgorithm> Core<A> {
    /// A fresh core that compresses with `backend`, which the caller has
    /// checked is supported.
    #[inline]
    pub(crate) fn new_unchecked(backend: A::Backend) -> Self {
        Core { state: A::INIT, blocks: 0, backend }
    }

    /// The backend this core compresses with.
    #[inline]
    pub fn backend(&self) -> A::Backend {
        self.backend
    }

    /// Compress whole blocks.
    #[inline]
    pub(crate) fn update_blocks(&mut self, blocks: &[Block<A::BlockSize>]) {
        self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
        A::compress(self.backend, &mut self.state, blocks);
    }

    /// Pad what is left in `buffer`, compress it and write the digest. The
    /// buffer is left empty; the core must be reset before further use.
    #[inline]
    pub(crate) fn finalize_into(&mut self, buffer: &mut EagerBuffer<A::BlockSize>, out: &mut A::Output) {
        let bytes = u128::from(self.blocks) * u128::from(A::BlockSize::U64) + buffer.get_pos() as u128;
        let (backend, state) = (self.backend, &mut self.state);
        pad::<A>(A::PADDING, buffer, bytes, |block| A::compress(backend, state, slice::from_ref(block)));
        A::output(&self.state, out);
    }

    #[inline]
    pub(crate) fn reset(&mut self) {
        self.state = A::INIT;
        self.blocks = 0;
    }
}

/// Pad the message whose last `buffer.get_pos()` bytes sit in `buffer` and
/// whose total length is `bytes`, handing each final block (one or two) to
/// `emit`. The buffer is left empty.
#[inline]
pub(crate) fn pad<A: Algorithm>(
    padding: Padding,
    buffer: &mut EagerBuffer<A::BlockSize>,
    bytes: u128,
    mut emit: impl FnMut(&Block<A::BlockSize>),
) {
    let bits = bytes.wrapping_mul(8);
    match padding {
        // The length fields are defined modulo 2^64 (RFC 1321 §3.2); FIPS
        // 180-4 limits messages to below 2^64 bits for these algorithms.
        Padding::Be64 => buffer.len64_padding_be(bits as u64, emit),
        Padding::Le64 => buffer.len64_padding_le(bits as u64, emit),
        Padding::Be128 => buffer.len128_padding_be(bits, emit),
        // `pad10*1` with the domain bits in the first padding byte (FIPS
        // 202 §5.1, §B.2).
        Padding::Keccak(domain) => {
            let pos = buffer.get_pos();
            let block = buffer.pad_with_zeros();
            block[pos] ^= domain;
            block[A::BlockSize::USIZE - 1] ^= 0x80;
            emit(block);
        }
    }
}

impl<A: FixedAlgorithm> Clone for Core<A> {
    #[inline]
    fn clone(&self) -> Self {
        Core { state: self.state.clone(), blocks: self.blocks, backend: self.backend }
    }
}

impl<A: FixedAlgorithm> Default for Core<A> {
    #[inline]
    fn default() -> Self {
        Core::new_unchecked(A::Backend::detect())
    }
}

impl<A: FixedAlgorithm> fmt::Debug for Core<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(A::NAME).field("backend", &self.backend).finish_non_exhaustive()
    }
}

/// A streaming hasher with a fixed-size digest: `Md5`, `Sha256`,
/// `Sha3_256`, ... are aliases of this type.
///
/// ```
/// # use hash_core::*;
/// # fn demo<A: FixedAlgorithm>() {
/// let mut h = Hasher::<A>::new();
/// h.update(b"abc");
/// let d1 = h.finalize();
/// assert_eq!(d1, Hasher::<A>::digest(b"abc"));
/// # }
/// ```
pub struct Hasher<A: FixedAlgorithm> {
    pub(crate) core: Core<A>,
    pub(crate) buffer: EagerBuffer<A::BlockSize>,
}

impl<A: FixedAlgorithm> Hasher<A> {
    /// A hasher that uses the best backend for this CPU
    /// (`Backend::detect()`, resolved once per process).
    #[inline]
    pub fn new() -> Self {
        Self::from_core(Core::new_unchecked(A::Backend::detect()))
    }

    /// A hasher that uses exactly `backend`.
    ///
    /// # Panics
    /// If this CPU (or this build) does not support `backend`; the message
    /// names the missing CPU features. See [`Hasher::try_with_backend`].
    #[inline]
    #[track_caller]
    pub fn with_backend(backend: A::Backend) -> Self {
        match Self::try_with_backend(backend) {
            Ok(h) => h,
            Err(e) => panic!("{}: {e}", A::NAME),
        }
    }

    /// A hasher that uses exactly `backend`, or an error if this CPU does not
    /// support it.
    #[inline]
    pub fn try_with_backend(backend: A::Backend) -> Result<Self, UnsupportedBackend> {
        Ok(Self::from_core(Core::new_unchecked(backend.check()?)))
    }

    #[inline]
    fn from_core(core: Core<A>) -> Self {
        Hasher { core, buffer: EagerBuffer::default() }
    }

    /// The backend this hasher compresses with.
    #[inline]
    pub fn backend(&self) -> A::Backend {
        self.core.backend
    }

    /// Absorb `data`.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        let core = &mut self.core;
        self.buffer.digest_blocks(data, |blocks| core.update_blocks(blocks));
    }

    /// The digest of everything passed to [`Hasher::update`].
    #[inline]
    pub fn finalize(mut self) -> A::Output {
        let mut out = A::Output::zeroed();
        self.core.finalize_into(&mut self.buffer, &mut out);
        out
    }

    /// The digest so far; the hasher then starts over (same backend).
    #[inline]
    pub fn finalize_reset(&mut self) -> A::Output {
        let mut out = A::Output::zeroed();
        self.core.finalize_into(&mut self.buffer, &mut out);
        self.reset();
        out
    }

    /// Forget all input; the hasher keeps its backend.
    #[inline]
    pub fn reset(&mut self) {
        self.core.reset();
        self.buffer.reset();
    }

    /// One-shot hash of `data` with the detected backend. Whole blocks are
    /// compressed straight from `data`; only the tail is copied, to the
    /// stack, for padding.
    #[inline]
    pub fn digest(data: &[u8]) -> A::Output {
        digest_with::<A>(A::Backend::detect(), data)
    }

    /// One-shot hash of `data` with exactly `backend`.
    ///
    /// # Panics
    /// If this CPU does not support `backend` (see [`Hasher::with_backend`]).
    #[inline]
    #[track_caller]
    pub fn digest_with_backend(backend: A::Backend, data: &[u8]) -> A::Output {
        digest_with::<A>(checked(backend), data)
    }

    /// Hash every message of `inputs` into the matching slot of `outputs`,
    /// with the detected backend. Where the CPU allows, several messages are
    /// hashed at once (SIMD lanes or interleaved instruction streams).
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`.
    #[inline]
    #[track_caller]
    pub fn digest_many(inputs: &[&[u8]], outputs: &mut [A::Output]) {
        crate::check_batch(inputs.len(), outputs.len());
        A::digest_many(A::Backend::detect(), inputs, outputs);
    }

    /// [`Hasher::digest_many`] with exactly `backend`.
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`, or this CPU does not support
    /// `backend`.
    #[inline]
    #[track_caller]
    pub fn digest_many_with_backend(backend: A::Backend, inputs: &[&[u8]], outputs: &mut [A::Output]) {
        crate::check_batch(inputs.len(), outputs.len());
        A::digest_many(checked(backend), inputs, outputs);
    }
}

/// `backend`, or a panic naming what the CPU lacks.
#[inline]
#[track_caller]
pub(crate) fn checked<B: BackendKind>(backend: B) -> B {
    match backend.check() {
        Ok(b) => b,
        Err(e) => panic!("{e}"),
    }
}

/// One-shot hash with a backend the caller has checked.
#[inline]
pub(crate) fn digest_with<A: FixedAlgorithm>(backend: A::Backend, data: &[u8]) -> A::Output {
    let bs = A::BlockSize::USIZE;
    let mut state = A::INIT;
    if data.len() < bs {
        // No whole block: pad in the buffer and compress once.
        let mut buffer = EagerBuffer::<A::BlockSize>::new(data);
        pad::<A>(A::PADDING, &mut buffer, data.len() as u128, |block| {
            A::compress(backend, &mut state, slice::from_ref(block))
        });
        let mut out = A::Output::zeroed();
        A::output(&state, &mut out);
        return out;
    }
    // Everything but the last whole block and the tail is compressed in
    // place; the last whole block, the tail and the padding (at most three
    // blocks) are gathered on the stack and compressed in one more call, so
    // a backend with a costly entry (SHA-NI's state shuffle) is entered at
    // most twice per message.
    let last = bs + data.len() % bs;
    let (head, rest) = data.split_at(data.len() - last);
    let mut buffer = EagerBuffer::<A::BlockSize>::default();
    buffer.digest_blocks(head, |blocks| A::compress(backend, &mut state, blocks));
    let mut tail: [Block<A::BlockSize>; 3] = Default::default();
    let mut n = 0;
    let mut gather = |block: &Block<A::BlockSize>| {
        tail[n].copy_from_slice(block);
        n += 1;
    };
    buffer.digest_blocks(rest, |blocks| blocks.iter().for_each(&mut gather));
    pad::<A>(A::PADDING, &mut buffer, data.len() as u128, &mut gather);
    A::compress(backend, &mut state, &tail[..n]);
    let mut out = A::Output::zeroed();
    A::output(&state, &mut out);
    out
}

impl<A: FixedAlgorithm> Default for Hasher<A> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<A: FixedAlgorithm> Clone for Hasher<A> {
    #[inline]
    fn clone(&self) -> Self {
        Hasher { core: self.core.clone(), buffer: self.buffer.clone() }
    }
}

impl<A: FixedAlgorithm> fmt::Debug for Hasher<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.core.fmt(f)
    }
}

#[cfg(feature = "std")]
impl<A: FixedAlgorithm> std::io::Write for Hasher<A> {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    #[inline]
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
