//! Hashing pairs of nodes and prefixed messages in batches: the two
//! operations a Merkle tree is built from.
//!
//! * [`Hasher::hash_pairs`]: `out[i] = H(nodes[2i] || nodes[2i + 1])`, as in
//!   SSZ merkleization (Ethereum) and most binary hash trees;
//! * [`Hasher::hash_prefixed_many`]: `out[i] = H(prefix || bodies[i])`, as in
//!   RFC 9162's domain-separated leaves (`0x00 || leaf`) and nodes
//!   (`0x01 || left || right`).
//!
//! Both go through [`FixedAlgorithm::hash_pairs`] and
//! [`FixedAlgorithm::hash_prefixed_many`], whose defaults (here) gather the
//! messages into stack buffers and hash them with the algorithm's batch
//! engine ([`FixedAlgorithm::digest_many`]); an algorithm crate may override
//! them with engines specialised for the fixed length.

use core::fmt;

use crate::backend::UnsupportedBackend;
use crate::fixed::{checked, many};
use crate::{BackendKind, FixedAlgorithm, Hasher, OutputBytes};

/// Bytes of stack used to gather one batch of pairs or prefixed messages.
const GATHER: usize = 4096;
/// Messages in one gathered batch at most (the widest engine has 64 lanes).
const MAX_BATCH: usize = 64;

/// Why a batch of pairs or prefixed messages was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// The inputs and the output slots do not pair up.
    Length {
        /// The function called (`"hash_pairs"`, `"hash_prefixed_many"`).
        function: &'static str,
        /// The inputs given (nodes, or bodies).
        inputs: usize,
        /// The output slots given.
        outputs: usize,
        /// The inputs that `outputs` slots need.
        expected_inputs: usize,
    },
    /// The forced backend cannot run on this CPU or in this build.
    Unsupported(UnsupportedBackend),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Length { function, inputs, outputs, expected_inputs } => write!(
                f,
                "{function}: {inputs} inputs but {outputs} output slots; {outputs} slots need {expected_inputs} inputs"
            ),
            BatchError::Unsupported(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BatchError {}

impl From<UnsupportedBackend> for BatchError {
    fn from(e: UnsupportedBackend) -> Self {
        BatchError::Unsupported(e)
    }
}

fn check_pairs(nodes: usize, outputs: usize) -> Result<(), BatchError> {
    match outputs.checked_mul(2) {
        Some(n) if n == nodes => Ok(()),
        _ => Err(BatchError::Length {
            function: "hash_pairs",
            inputs: nodes,
            outputs,
            expected_inputs: outputs.saturating_mul(2),
        }),
    }
}

fn check_prefixed(bodies: usize, outputs: usize) -> Result<(), BatchError> {
    if bodies == outputs {
        Ok(())
    } else {
        Err(BatchError::Length { function: "hash_prefixed_many", inputs: bodies, outputs, expected_inputs: outputs })
    }
}

/// The value, or a panic naming the type and function the caller used
/// (`Sha256::hash_pairs: 5 inputs but 2 output slots; ...`,
/// `Sha256::hash_pairs_with_backend: the `x` backend is not supported ...`).
#[track_caller]
fn or_panic<A, T>(function: &str, r: Result<T, BatchError>) -> T {
    match r {
        Ok(v) => v,
        Err(BatchError::Unsupported(e)) => panic!("{}::{function}: {}", crate::type_name::<A>(), e.without_type()),
        Err(e) => panic!("{}::{e}", crate::type_name::<A>()),
    }
}

/// Panic as [`Hasher::hash_pairs`] does (naming the type) unless
/// `nodes == 2 * outputs`: for an algorithm's own
/// [`FixedAlgorithm::hash_pairs`] engine, which safe code can call with any
/// lengths.
#[track_caller]
pub fn assert_pairs<A: FixedAlgorithm>(nodes: usize, outputs: usize) {
    or_panic::<A, _>("hash_pairs", check_pairs(nodes, outputs));
}

impl<A: FixedAlgorithm> Hasher<A> {
    /// Hash each pair of adjacent nodes: `out[i] = H(nodes[2i] || nodes[2i + 1])`,
    /// with the detected backend (one level of a binary hash tree).
    ///
    /// # Panics
    /// If `nodes.len() != 2 * out.len()`; see [`Hasher::try_hash_pairs`].
    #[track_caller]
    pub fn hash_pairs(nodes: &[A::Output], out: &mut [A::Output]) {
        or_panic::<A, _>("hash_pairs", Self::try_hash_pairs(nodes, out));
    }

    /// [`Hasher::hash_pairs`], or an error if `nodes.len() != 2 * out.len()`.
    pub fn try_hash_pairs(nodes: &[A::Output], out: &mut [A::Output]) -> Result<(), BatchError> {
        check_pairs(nodes.len(), out.len())?;
        A::hash_pairs(A::Backend::detect(), nodes, out);
        Ok(())
    }

    /// [`Hasher::hash_pairs`] with exactly `backend`.
    ///
    /// # Panics
    /// If `nodes.len() != 2 * out.len()`, or this CPU does not support
    /// `backend`; see [`Hasher::try_hash_pairs_with_backend`].
    #[track_caller]
    pub fn hash_pairs_with_backend(backend: A::Backend, nodes: &[A::Output], out: &mut [A::Output]) {
        or_panic::<A, _>("hash_pairs_with_backend", Self::try_hash_pairs_with_backend(backend, nodes, out));
    }

    /// [`Hasher::hash_pairs_with_backend`], or an error for mismatched
    /// lengths or an unsupported backend.
    pub fn try_hash_pairs_with_backend(
        backend: A::Backend,
        nodes: &[A::Output],
        out: &mut [A::Output],
    ) -> Result<(), BatchError> {
        check_pairs(nodes.len(), out.len())?;
        A::hash_pairs(crate::check_backend::<A>(backend)?, nodes, out);
        Ok(())
    }

    /// Hash `prefix` followed by each body: `out[i] = H(prefix || bodies[i])`,
    /// with the detected backend, without the caller building the joined
    /// messages (RFC 9162 leaves are `0x00 || leaf`, nodes `0x01 || left || right`).
    ///
    /// # Panics
    /// If `bodies.len() != out.len()`; see [`Hasher::try_hash_prefixed_many`].
    #[track_caller]
    pub fn hash_prefixed_many(prefix: &[u8], bodies: &[&[u8]], out: &mut [A::Output]) {
        or_panic::<A, _>("hash_prefixed_many", Self::try_hash_prefixed_many(prefix, bodies, out));
    }

    /// [`Hasher::hash_prefixed_many`], or an error if `bodies.len() != out.len()`.
    pub fn try_hash_prefixed_many(prefix: &[u8], bodies: &[&[u8]], out: &mut [A::Output]) -> Result<(), BatchError> {
        check_prefixed(bodies.len(), out.len())?;
        A::hash_prefixed_many(A::Backend::detect(), prefix, bodies, out);
        Ok(())
    }

    /// [`Hasher::hash_prefixed_many`] with exactly `backend`.
    ///
    /// # Panics
    /// If `bodies.len() != out.len()`, or this CPU does not support `backend`.
    #[track_caller]
    pub fn hash_prefixed_many_with_backend(
        backend: A::Backend,
        prefix: &[u8],
        bodies: &[&[u8]],
        out: &mut [A::Output],
    ) {
        or_panic::<A, _>(
            "hash_prefixed_many_with_backend",
            Self::try_hash_prefixed_many_with_backend(backend, prefix, bodies, out),
        );
    }

    /// [`Hasher::hash_prefixed_many_with_backend`], or an error for
    /// mismatched lengths or an unsupported backend.
    pub fn try_hash_prefixed_many_with_backend(
        backend: A::Backend,
        prefix: &[u8],
        bodies: &[&[u8]],
        out: &mut [A::Output],
    ) -> Result<(), BatchError> {
        check_prefixed(bodies.len(), out.len())?;
        A::hash_prefixed_many(crate::check_backend::<A>(backend)?, prefix, bodies, out);
        Ok(())
    }
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
