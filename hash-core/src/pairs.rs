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
//! [`FixedAlgorithm::hash_prefixed_many`], whose defaults
//! ([`hash_pairs_gathered`](crate::hash_pairs_gathered) and
//! [`hash_prefixed_gathered`](crate::hash_prefixed_gathered), beside the
//! trait in `fixed.rs`) gather the messages into stack buffers and hash them with the algorithm's batch
//! engine ([`FixedAlgorithm::digest_many`]); an algorithm crate may override
//! them with engines specialised for the fixed length.

use crate::algorithm::check_backend;
use crate::backend::BackendKind;
use crate::checks::{BatchError, check_pairs, check_prefixed, or_panic};
use crate::fixed::{FixedAlgorithm, Hasher};

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
        A::hash_pairs(check_backend::<A>(backend)?, nodes, out);
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
        A::hash_prefixed_many(check_backend::<A>(backend)?, prefix, bodies, out);
        Ok(())
    }
}
