//! Streaming and one-shot hashing for fixed-output algorithms.

use core::fmt;
use core::slice;

use block_buffer::EagerBuffer;
use generic_array::typenum::Unsigned;

use generic_array::ArrayLength;

use crate::algorithm::{Algorithm, Block, OutputBytes, check_backend, checked};
use crate::backend::{BackendKind, UnsupportedBackend};
use crate::checks::{check_batch, check_batch_of, check_pairs, check_prefixed, or_panic, type_name};
use crate::copy::copy_short;
use crate::padding::{Padding, length_field, pad, pad_tail};

/// A hash with a fixed-size output.
pub trait FixedAlgorithm: Algorithm {
    /// The padding rule.
    const PADDING: Padding;
    /// The digest size as a type-level number (for `digest` interop).
    type OutputSize: ArrayLength<u8> + 'static;
    /// The digest, `[u8; OutputSize]`.
    type Output: OutputBytes;
    /// Write the digest from the final state (after padding).
    fn output(state: &Self::State, out: &mut Self::Output);

    /// Whether `backend` has a [`FixedAlgorithm::compress_final`] of its
    /// own (the default: none).
    #[inline(always)]
    fn has_compress_final(backend: Self::Backend) -> bool {
        let _ = backend;
        false
    }

    /// Whether the one-shot path hands a message's last whole block to
    /// `backend` in one call with the padding block, where the message ends
    /// on a block boundary (the default: yes, which suits backends that
    /// schedule two blocks at once, such as AVX2). With `false` that block
    /// is compressed in place and the padding block alone, which saves the
    /// copy where the backend's second entry is cheap (SHA-256 on SHA-NI:
    /// a 64-byte message 1.24x faster on AMD Zen 3).
    #[inline(always)]
    fn gather_last_block(backend: Self::Backend) -> bool {
        let _ = backend;
        true
    }

    /// Compress into `state` the final padded block of a message of
    /// `total` bytes whose last `tail.len()` bytes (after its whole blocks)
    /// fit in one block with the padding, by a path of `backend`'s own
    /// that builds the block in registers ([`padded_rows`](crate::padded_rows)) rather than in
    /// a buffer, whose byte-wise stores its loads would wait for.
    ///
    /// Called by the one-shot functions and `finalize` where
    /// [`FixedAlgorithm::has_compress_final`] says so, with a backend they
    /// have checked. Like [`Algorithm::compress`] it is reachable from safe
    /// code with any arguments: implementations check backend support
    /// themselves (and panic without it), and [`padded_rows`](crate::padded_rows) checks the
    /// length. The default pads in a buffer and calls
    /// [`Algorithm::compress`] (for any `tail` shorter than a block).
    #[inline]
    fn compress_final(backend: Self::Backend, state: &mut Self::State, tail: &[u8], total: u128) {
        compress_final_buffered::<Self>(backend, state, tail, total);
    }

    /// Hash each of `inputs` into the matching `outputs` slot.
    ///
    /// The default hashes the messages one by one; multi-buffer backends
    /// override it. Like [`Algorithm::compress`], this is reachable from
    /// safe code with any backend and any slices: implementations check
    /// backend support, and call [`check_batch`] themselves or hand the
    /// batch to a [`multi`](crate::multi) function, which does.
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`, or `backend` is not supported.
    fn digest_many(backend: Self::Backend, inputs: &[&[u8]], outputs: &mut [Self::Output]) {
        check_batch(inputs.len(), outputs.len());
        for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
            *output = digest_with::<Self>(backend, input);
        }
    }

    /// Hash each pair of adjacent nodes: `out[i] = H(nodes[2i] || nodes[2i + 1])`
    /// (see [`Hasher::hash_pairs`]).
    ///
    /// The default gathers the pairs into a stack buffer and runs them on
    /// [`FixedAlgorithm::digest_many`] ([`hash_pairs_gathered`]); crates
    /// override it with engines specialised for the fixed length. Like
    /// [`FixedAlgorithm::digest_many`] this is reachable from safe code
    /// with any backend and any slices: implementations check both.
    ///
    /// # Panics
    /// If `nodes.len() != 2 * out.len()`, or `backend` is not supported.
    fn hash_pairs(backend: Self::Backend, nodes: &[Self::Output], out: &mut [Self::Output]) {
        hash_pairs_gathered::<Self>(backend, nodes, out);
    }

    /// Hash `prefix` followed by each body: `out[i] = H(prefix || bodies[i])`
    /// (see [`Hasher::hash_prefixed_many`]).
    ///
    /// The default is [`hash_prefixed_gathered`]; the same contract as
    /// [`FixedAlgorithm::hash_pairs`] applies to overrides.
    ///
    /// # Panics
    /// If `bodies.len() != out.len()`, or `backend` is not supported.
    fn hash_prefixed_many(backend: Self::Backend, prefix: &[u8], bodies: &[&[u8]], out: &mut [Self::Output]) {
        hash_prefixed_gathered::<Self>(backend, prefix, bodies, out);
    }
}

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
        if takes_compress_final::<A>(backend, buffer.get_pos()) {
            A::compress_final(backend, state, buffer.get_data(), bytes);
            buffer.reset();
        } else {
            pad(A::PADDING, buffer, bytes, |block| A::compress(backend, state, slice::from_ref(block)));
        }
        A::output(&self.state, out);
    }

    #[inline]
    pub(crate) fn reset(&mut self) {
        self.state = A::INIT;
        self.blocks = 0;
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
            Err(e) => panic!("{}::with_backend: {}", type_name::<A>(), e.without_type()),
        }
    }

    /// A hasher that uses exactly `backend`, or an error if this CPU does not
    /// support it; the error names this type (`Sha256: the ...`).
    #[inline]
    pub fn try_with_backend(backend: A::Backend) -> Result<Self, UnsupportedBackend> {
        Ok(Self::from_core(Core::new_unchecked(check_backend::<A>(backend)?)))
    }

    /// A hasher on `backend`, which the caller has checked.
    #[inline]
    pub(crate) fn from_checked(backend: A::Backend) -> Self {
        Self::from_core(Core::new_unchecked(backend))
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
        digest_with::<A>(checked::<A>("digest_with_backend", backend), data)
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
        check_batch_of::<A>("digest_many", inputs.len(), outputs.len());
        many::<A>(A::Backend::detect(), inputs, outputs);
    }

    /// [`Hasher::digest_many`] with exactly `backend`.
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`, or this CPU does not support
    /// `backend`.
    #[inline]
    #[track_caller]
    pub fn digest_many_with_backend(backend: A::Backend, inputs: &[&[u8]], outputs: &mut [A::Output]) {
        check_batch_of::<A>("digest_many_with_backend", inputs.len(), outputs.len());
        many::<A>(checked::<A>("digest_many_with_backend", backend), inputs, outputs);
    }
}

/// A batch on `backend`, which the caller has checked: one message takes
/// the one-shot path (no engine gains on a lone message), more go to the
/// algorithm's batch engine.
#[inline]
pub(crate) fn many<A: FixedAlgorithm>(backend: A::Backend, inputs: &[&[u8]], outputs: &mut [A::Output]) {
    if let ([input], [output]) = (inputs, &mut *outputs) {
        *output = digest_with::<A>(backend, input);
    } else {
        A::digest_many(backend, inputs, outputs);
    }
}

/// [`FixedAlgorithm::compress_final`]'s default, for backends without a
/// path of their own: pad `tail` in a buffer and compress the one or two
/// final blocks with [`Algorithm::compress`].
///
/// # Panics
/// If `tail` is a block long or longer.
#[inline]
pub fn compress_final_buffered<A: FixedAlgorithm>(backend: A::Backend, state: &mut A::State, tail: &[u8], total: u128) {
    assert!(tail.len() < A::BlockSize::USIZE, "compress_final: the tail must be shorter than a block");
    let mut buffer = EagerBuffer::<A::BlockSize>::new(tail);
    pad(A::PADDING, &mut buffer, total, |block| A::compress(backend, state, slice::from_ref(block)));
}

/// [`compress_final_buffered`], out of line and marked cold: for a
/// `finalize` whose usual path is the backend's own
/// [`FixedAlgorithm::compress_final`] (padding built in registers), so that
/// the rare buffered path (a tail too long for one block, or a backend
/// without that path) does not make `finalize` too big to be inlined into
/// its callers. The drop-in replacements in `dropin/` use it on x86-64:
/// with the buffered path inline, a program that hashed from more than one
/// place got `finalize` as a call of its own and one more copy of the whole
/// hasher (SHA-256 through `Digest::digest` 0.89x RustCrypto's at 64 B,
/// SHA-1 15% slower at 16 B; AMD Zen 3).
///
/// # Panics
/// As [`compress_final_buffered`].
#[cold]
#[inline(never)]
pub fn compress_final_buffered_cold<A: FixedAlgorithm>(
    backend: A::Backend,
    state: &mut A::State,
    tail: &[u8],
    total: u128,
) {
    compress_final_buffered::<A>(backend, state, tail, total);
}

/// Whether a final `tail` of `tail_len` bytes goes through `backend`'s
/// [`FixedAlgorithm::compress_final`]: the tail, the padding byte and the
/// length field fit in one block, and the backend has that path. The one
/// test of `Hasher`'s `finalize`, the one-shot path and
/// [`compress_final_tail`].
#[inline(always)]
fn takes_compress_final<A: FixedAlgorithm>(backend: A::Backend, tail_len: usize) -> bool {
    tail_len + length_field(A::PADDING) < A::BlockSize::USIZE && A::has_compress_final(backend)
}

/// The final block of a `finalize` written outside this crate (the
/// drop-in cores in `dropin/`), chosen as [`Hasher`]'s own `finalize`
/// chooses: the backend's [`FixedAlgorithm::compress_final`] (padding built
/// in registers) where the `tail` and the length field fit in one block and
/// the backend has that path; else the padding in a buffer, out of line
/// ([`compress_final_buffered_cold`]) if `buffered_out_of_line` (for hashes
/// whose backends on this target have the register path, so that the rare
/// buffered one does not stop `finalize` from being inlined), inline
/// ([`compress_final_buffered`]) otherwise (where it is the only path).
///
/// # Panics
/// As [`compress_final_buffered`].
#[inline(always)]
pub fn compress_final_tail<A: FixedAlgorithm>(
    backend: A::Backend,
    state: &mut A::State,
    tail: &[u8],
    total: u128,
    buffered_out_of_line: bool,
) {
    if takes_compress_final::<A>(backend, tail.len()) {
        A::compress_final(backend, state, tail, total);
    } else if buffered_out_of_line {
        compress_final_buffered_cold::<A>(backend, state, tail, total);
    } else {
        compress_final_buffered::<A>(backend, state, tail, total);
    }
}

/// One-shot hash with a backend the caller has checked. Always inlined:
/// the batch paths' one-by-one loops call it for every message (inlined,
/// batches of two 16-byte SHA-1 messages ran 3% faster on an Intel Xeon,
/// Sapphire Rapids class).
#[inline(always)]
pub(crate) fn digest_with<A: FixedAlgorithm>(backend: A::Backend, data: &[u8]) -> A::Output {
    let bs = A::BlockSize::USIZE;
    let mut state = A::INIT;
    if takes_compress_final::<A>(backend, data.len()) {
        // One block in all, built from registers by the backend (see
        // `padded_rows`). Longer messages keep the path below: backends
        // that schedule two blocks at once (AVX2) get the last whole block
        // and the padding block in one call.
        A::compress_final(backend, &mut state, data, data.len() as u128);
        let mut out = A::Output::zeroed();
        A::output(&state, &mut out);
        return out;
    }
    // The last whole block (if any), the tail and the padding (at most three
    // blocks) are gathered on the stack and compressed in one call, after
    // the blocks before them, which are compressed in place (a message that
    // ends on a block boundary keeps its last block in place too where the
    // backend asks, see `gather_last_block`): a backend with
    // a costly entry (SHA-NI's state shuffle) is entered at most twice per
    // message, and backends that schedule two blocks at once (AVX2) get the
    // last whole block with the first padding block. Where the two do not
    // fit in the buffer together (SHA-512 with two padding blocks, Keccak
    // blocks over 128 bytes), the last whole block is compressed in place
    // with the others. The buffer is filled without calls to `memcpy` or
    // `memset` (see `copy::copy_short`).
    let (body, part) = data.split_at(data.len() - data.len() % bs);
    let mut tail = [0u8; GATHER_CAP];
    let mut start = pad_tail(A::PADDING, bs, part, data.len() as u128, &mut tail);
    let mut in_place = body;
    if let Some((head, whole)) = body.split_at_checked(body.len().wrapping_sub(bs))
        && start >= bs
        && (!part.is_empty() || A::gather_last_block(backend))
    {
        in_place = head;
        start -= bs;
        copy_short(&mut tail[start..], whole);
    }
    let mut buffer = EagerBuffer::<A::BlockSize>::default();
    // Whole blocks only: handed straight through, nothing stays buffered.
    if !in_place.is_empty() {
        buffer.digest_blocks(in_place, |blocks| A::compress(backend, &mut state, blocks));
    }
    buffer.digest_blocks(&tail[start..], |blocks| A::compress(backend, &mut state, blocks));
    let mut out = A::Output::zeroed();
    A::output(&state, &mut out);
    out
}

/// The stack buffer [`digest_with`] gathers a message's last blocks in:
/// small enough to be cleared with a few stores instead of a call.
const GATHER_CAP: usize = 256;

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

/// Bytes of stack used to gather one batch of pairs or prefixed messages.
const GATHER: usize = 4096;
/// Messages in one gathered batch at most (the widest engine has 64 lanes).
const MAX_BATCH: usize = 64;

/// Panic as [`Hasher::hash_pairs`] does (naming the type) unless
/// `nodes == 2 * outputs`: for an algorithm's own
/// [`FixedAlgorithm::hash_pairs`] engine, which safe code can call with any
/// lengths.
#[track_caller]
pub fn assert_pairs<A: FixedAlgorithm>(nodes: usize, outputs: usize) {
    or_panic::<A, _>("hash_pairs", check_pairs(nodes, outputs));
}

/// Panic as [`Hasher::hash_prefixed_many`] does (naming the type) unless
/// `bodies == outputs`: for an algorithm's own
/// [`FixedAlgorithm::hash_prefixed_many`] engine.
#[track_caller]
pub fn assert_prefixed<A: FixedAlgorithm>(bodies: usize, outputs: usize) {
    or_panic::<A, _>("hash_prefixed_many", check_prefixed(bodies, outputs));
}

/// [`FixedAlgorithm::hash_pairs`]'s default: copy as many pairs as fit in a
/// stack buffer side by side and hash them as one batch on the algorithm's
/// engine. `backend` is checked here (the trait method is reachable from
/// safe code with any backend).
///
/// # Panics
/// If `nodes.len() != 2 * out.len()`, or `backend` is not supported.
pub fn hash_pairs_gathered<A: FixedAlgorithm>(backend: A::Backend, nodes: &[A::Output], out: &mut [A::Output]) {
    assert_pairs::<A>(nodes.len(), out.len());
    let backend = checked::<A>("hash_pairs", backend);
    let n = A::Output::zeroed().as_ref().len();
    let per_batch = (GATHER / (2 * n)).clamp(1, MAX_BATCH);
    let mut buf = [0u8; GATHER];
    for (pairs, outs) in nodes.chunks(2 * per_batch).zip(out.chunks_mut(per_batch)) {
        for (dst, pair) in buf.chunks_exact_mut(2 * n).zip(pairs.chunks_exact(2)) {
            dst[..n].copy_from_slice(pair[0].as_ref());
            dst[n..].copy_from_slice(pair[1].as_ref());
        }
        let mut refs: [&[u8]; MAX_BATCH] = [&[]; MAX_BATCH];
        for (r, msg) in refs.iter_mut().zip(buf.chunks_exact(2 * n)).take(outs.len()) {
            *r = msg;
        }
        many::<A>(backend, &refs[..outs.len()], outs);
    }
}

/// [`FixedAlgorithm::hash_prefixed_many`]'s default: with an empty prefix,
/// the batch as it is; otherwise consecutive messages whose joined length
/// fits are gathered (prefix and body side by side) into a stack buffer and
/// hashed as one batch, and a message too long for the buffer is hashed on
/// its own, streaming the prefix and then the body (no copy). `backend` is
/// checked here.
///
/// # Panics
/// If `bodies.len() != out.len()`, or `backend` is not supported.
pub fn hash_prefixed_gathered<A: FixedAlgorithm>(
    backend: A::Backend,
    prefix: &[u8],
    bodies: &[&[u8]],
    out: &mut [A::Output],
) {
    or_panic::<A, _>("hash_prefixed_many", check_prefixed(bodies.len(), out.len()));
    let backend = checked::<A>("hash_prefixed_many", backend);
    if prefix.is_empty() {
        many::<A>(backend, bodies, out);
        return;
    }
    let mut buf = [0u8; GATHER];
    let mut i = 0;
    while i < bodies.len() {
        // Gather bodies[i..j] into `buf`.
        let mut used = 0;
        let mut ends = [0usize; MAX_BATCH];
        let mut j = i;
        while j < bodies.len() && j - i < MAX_BATCH {
            let len = prefix.len().saturating_add(bodies[j].len());
            if len > GATHER - used {
                break;
            }
            buf[used..used + prefix.len()].copy_from_slice(prefix);
            buf[used + prefix.len()..used + len].copy_from_slice(bodies[j]);
            used += len;
            ends[j - i] = used;
            j += 1;
        }
        if j == i {
            // Too long to gather: stream it.
            let mut h = Hasher::<A>::from_checked(backend);
            h.update(prefix);
            h.update(bodies[i]);
            out[i] = h.finalize();
            i += 1;
            continue;
        }
        let mut refs: [&[u8]; MAX_BATCH] = [&[]; MAX_BATCH];
        let mut start = 0;
        for (r, &end) in refs.iter_mut().zip(&ends[..j - i]) {
            *r = &buf[start..end];
            start = end;
        }
        many::<A>(backend, &refs[..j - i], &mut out[i..j]);
        i = j;
    }
}
