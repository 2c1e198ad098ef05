//! Streaming and one-shot hashing for extendable-output functions (SHAKE).

use core::fmt;

use block_buffer::EagerBuffer;
use generic_array::typenum::Unsigned;

use crate::algorithm::{Algorithm, Block, check_backend, checked};
use crate::backend::{BackendKind, UnsupportedBackend};
use crate::checks::{check_batch, check_batch_of, type_name};
use crate::padding::{Padding, pad};

/// An extendable-output function over the 1600-bit Keccak state.
pub trait XofAlgorithm: Algorithm<State = [u64; 25]> {
    /// The domain byte of the padding (`0x1f` for SHAKE).
    const DOMAIN: u8;
    /// Apply Keccak-p\[1600, 24\] (FIPS 202 §3.3) once.
    fn permute(backend: Self::Backend, state: &mut [u64; 25]);

    /// Absorb each of `inputs` and squeeze the matching `outputs` slot full.
    ///
    /// The default works message by message; multi-buffer backends override
    /// it, checking backend support and calling [`check_batch`] themselves
    /// (or handing the batch to a [`multi`](crate::multi) function, which does).
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`, or `backend` is not supported.
    fn digest_xof_many(backend: Self::Backend, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) {
        check_batch(inputs.len(), outputs.len());
        for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
            digest_xof_with::<Self>(backend, input, output);
        }
    }
}

/// A streaming extendable-output function: `Shake128` and `Shake256` are
/// aliases of this type.
pub struct Xof<A: XofAlgorithm> {
    state: [u64; 25],
    buffer: EagerBuffer<A::BlockSize>,
    backend: A::Backend,
}

impl<A: XofAlgorithm> Xof<A> {
    /// An XOF that uses the best backend for this CPU.
    #[inline]
    pub fn new() -> Self {
        Self::new_unchecked(A::Backend::detect())
    }

    #[inline]
    fn new_unchecked(backend: A::Backend) -> Self {
        Xof { state: A::INIT, buffer: EagerBuffer::default(), backend }
    }

    /// An XOF that uses exactly `backend`.
    ///
    /// # Panics
    /// If this CPU (or this build) does not support `backend`; the message
    /// names the missing CPU features. See [`Xof::try_with_backend`].
    #[inline]
    #[track_caller]
    pub fn with_backend(backend: A::Backend) -> Self {
        match Self::try_with_backend(backend) {
            Ok(x) => x,
            Err(e) => panic!("{}::with_backend: {}", type_name::<A>(), e.without_type()),
        }
    }

    /// An XOF that uses exactly `backend`, or an error if this CPU does not
    /// support it; the error names this type (`Shake128: the ...`).
    #[inline]
    pub fn try_with_backend(backend: A::Backend) -> Result<Self, UnsupportedBackend> {
        Ok(Self::new_unchecked(check_backend::<A>(backend)?))
    }

    /// The backend this XOF permutes with.
    #[inline]
    pub fn backend(&self) -> A::Backend {
        self.backend
    }

    /// Absorb `data`.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        let (backend, state) = (self.backend, &mut self.state);
        self.buffer.digest_blocks(data, |blocks| A::compress(backend, state, blocks));
    }

    /// Pad, and return a reader of the output stream.
    #[inline]
    pub fn finalize_xof(mut self) -> XofReader<A> {
        self.finalize_xof_reset()
    }

    /// Pad, return a reader of the output stream, and start over.
    #[inline]
    pub fn finalize_xof_reset(&mut self) -> XofReader<A> {
        let (backend, state) = (self.backend, &mut self.state);
        pad(Padding::Keccak(A::DOMAIN), &mut self.buffer, 0, |block| {
            A::compress(backend, state, core::slice::from_ref(block))
        });
        let reader = XofReader::new(self.backend, self.state);
        self.reset();
        reader
    }

    /// Forget all input; the XOF keeps its backend.
    #[inline]
    pub fn reset(&mut self) {
        self.state = A::INIT;
        self.buffer.reset();
    }

    /// One-shot: absorb `data` and fill `out` with output.
    #[inline]
    pub fn digest_xof(data: &[u8], out: &mut [u8]) {
        digest_xof_with::<A>(A::Backend::detect(), data, out);
    }

    /// One-shot with exactly `backend`.
    ///
    /// # Panics
    /// If this CPU does not support `backend`.
    #[inline]
    #[track_caller]
    pub fn digest_xof_with_backend(backend: A::Backend, data: &[u8], out: &mut [u8]) {
        digest_xof_with::<A>(checked::<A>("digest_xof_with_backend", backend), data, out);
    }

    /// Absorb each of `inputs` and fill the matching slot of `outputs`
    /// (of any lengths), with the detected backend.
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`.
    #[inline]
    #[track_caller]
    pub fn digest_xof_many(inputs: &[&[u8]], outputs: &mut [&mut [u8]]) {
        check_batch_of::<A>("digest_xof_many", inputs.len(), outputs.len());
        Self::xof_many_unchecked(A::Backend::detect(), inputs, outputs);
    }

    /// [`Xof::digest_xof_many`] with exactly `backend`.
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`, or this CPU does not support
    /// `backend`.
    #[inline]
    #[track_caller]
    pub fn digest_xof_many_with_backend(backend: A::Backend, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) {
        check_batch_of::<A>("digest_xof_many_with_backend", inputs.len(), outputs.len());
        Self::xof_many_unchecked(checked::<A>("digest_xof_many_with_backend", backend), inputs, outputs);
    }

    /// One message takes the one-shot path (as `Hasher::digest_many`'s
    /// does), more go to the algorithm's batch engine.
    fn xof_many_unchecked(backend: A::Backend, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) {
        if let ([input], [output]) = (inputs, &mut *outputs) {
            digest_xof_with::<A>(backend, input, output);
        } else {
            A::digest_xof_many(backend, inputs, outputs);
        }
    }
}

/// One-shot XOF with a backend the caller has checked.
#[inline]
pub(crate) fn digest_xof_with<A: XofAlgorithm>(backend: A::Backend, data: &[u8], out: &mut [u8]) {
    let mut xof = Xof::<A>::new_unchecked(backend);
    xof.update(data);
    xof.finalize_xof().read(out);
}

impl<A: XofAlgorithm> Default for Xof<A> {
    #[inline]
    fn default() -> Self {
        Self::new()
    }
}

impl<A: XofAlgorithm> Clone for Xof<A> {
    #[inline]
    fn clone(&self) -> Self {
        Xof { state: self.state, buffer: self.buffer.clone(), backend: self.backend }
    }
}

impl<A: XofAlgorithm> fmt::Debug for Xof<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(A::NAME).field("backend", &self.backend).finish_non_exhaustive()
    }
}

#[cfg(feature = "std")]
impl<A: XofAlgorithm> std::io::Write for Xof<A> {
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

/// Reads the output stream of a finalized [`Xof`], in pieces of any size
/// (FIPS 202 §4, the squeezing phase).
pub struct XofReader<A: XofAlgorithm> {
    state: [u64; 25],
    backend: A::Backend,
    /// The current output block (the first `rate` bytes of the state).
    block: Block<A::BlockSize>,
    /// Bytes of `block` already handed out.
    pos: usize,
}

impl<A: XofAlgorithm> XofReader<A> {
    /// A reader of the output of a sponge over `A`'s permutation and rate
    /// whose input, padding included, is already absorbed into `state`: for
    /// constructions that pad differently from [`Xof`] (cSHAKE's and
    /// TurboSHAKE's domain bytes, SP 800-185 §3.3, RFC 9861 §2.2). The
    /// first output block is `state` itself; `backend` permutes for the
    /// next ones (and panics there if this CPU does not support it).
    #[inline]
    pub fn from_state(backend: A::Backend, state: [u64; 25]) -> Self {
        Self::new(backend, state)
    }

    #[inline]
    pub(crate) fn new(backend: A::Backend, state: [u64; 25]) -> Self {
        let mut reader = XofReader { state, backend, block: Block::<A::BlockSize>::default(), pos: 0 };
        reader.load_block();
        reader
    }

    /// Copy the rate part of the state, lane by lane in little-endian order.
    #[inline]
    fn load_block(&mut self) {
        for (bytes, lane) in self.block.chunks_exact_mut(8).zip(self.state.iter()) {
            bytes.copy_from_slice(&lane.to_le_bytes());
        }
        self.pos = 0;
    }

    /// Fill `out` with the next `out.len()` bytes of output.
    pub fn read(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == A::BlockSize::USIZE {
                A::permute(self.backend, &mut self.state);
                self.load_block();
            }
            let n = out.len().min(A::BlockSize::USIZE - self.pos);
            let (head, tail) = out.split_at_mut(n);
            head.copy_from_slice(&self.block[self.pos..self.pos + n]);
            self.pos += n;
            out = tail;
        }
    }
}

impl<A: XofAlgorithm> Clone for XofReader<A> {
    #[inline]
    fn clone(&self) -> Self {
        XofReader { state: self.state, backend: self.backend, block: self.block.clone(), pos: self.pos }
    }
}

impl<A: XofAlgorithm> fmt::Debug for XofReader<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("XofReader").field("algorithm", &A::NAME).finish_non_exhaustive()
    }
}

#[cfg(feature = "std")]
impl<A: XofAlgorithm> std::io::Read for XofReader<A> {
    #[inline]
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        XofReader::read(self, buf);
        Ok(buf.len())
    }
}
