//! SSZ merkleization: the root of a list of chunks padded with zero chunks
//! to a power of two (the SSZ specification's `merkleize` and
//! `mix_in_length`), built on [`crate::Hasher::hash_pairs`].

use super::node::{BackendOf, MAX_HEIGHT, MerkleError, Node, TreeHash};
use crate::{BackendKind, FixedAlgorithm, OutputBytes};

/// Chunks reduced in one batch of levels.
const CHUNK: usize = 64;

/// The root of `chunks` padded with all-zero chunks to the next power of
/// two of `limit` (or of `chunks.len()` without a limit; one chunk at
/// least), each interior node `H(left || right)`: SSZ's
/// `merkleize(chunks, limit)`, with the detected backend.
///
/// A limit below `chunks.len()` is an error, as in the specification.
/// Memory stays O(log n) whatever the limit: the zero subtrees' roots are
/// computed, not stored.
pub fn ssz_root<H: TreeHash>(chunks: &[Node<H>], limit: Option<u64>) -> Result<Node<H>, MerkleError> {
    ssz_root_with_backend::<H>(BackendOf::<H>::detect(), chunks, limit)
}

/// [`ssz_root`] with exactly `backend`.
pub fn ssz_root_with_backend<H: TreeHash>(
    backend: BackendOf<H>,
    chunks: &[Node<H>],
    limit: Option<u64>,
) -> Result<Node<H>, MerkleError> {
    let backend = crate::algorithm::check_backend::<H::Algorithm>(backend)?;
    let count = chunks.len() as u64;
    let width = match limit {
        Some(limit) if limit < count => return Err(MerkleError::TooManyLeaves { leaves: count, limit }),
        Some(limit) => limit,
        None => count,
    };
    // The tree's depth: log2 of the next power of two of the width (a
    // width of 0 or 1 is one chunk, depth 0; above 2^63, depth 64).
    let depth = if width <= 1 { 0 } else { 64 - (width - 1).leading_zeros() };
    let pair = |l: &Node<H>, r: &Node<H>| {
        let mut out = [Node::<H>::zeroed()];
        H::Algorithm::hash_pairs(backend, &[*l, *r], &mut out);
        out[0]
    };

    // A compact range of perfect subtrees, as MerkleTree keeps, built in
    // aligned batches of up to 64 chunks.
    let mut roots = [Node::<H>::zeroed(); MAX_HEIGHT + 1];
    let (mut n, mut size) = (0usize, 0u64);
    let mut rest = chunks;
    while !rest.is_empty() {
        let align = if size == 0 { CHUNK } else { 1usize << size.trailing_zeros().min(6) };
        let mut chunk = align.min(CHUNK);
        while chunk > rest.len() {
            chunk /= 2;
        }
        // Each level through hash_pairs, so that an engine an algorithm
        // crate specialises for pairs serves SSZ roots too.
        let mut level = [Node::<H>::zeroed(); CHUNK];
        level[..chunk].copy_from_slice(&rest[..chunk]);
        let mut len = chunk;
        while len > 1 {
            let mut next = [Node::<H>::zeroed(); CHUNK / 2];
            H::Algorithm::hash_pairs(backend, &level[..len], &mut next[..len / 2]);
            level[..len / 2].copy_from_slice(&next[..len / 2]);
            len /= 2;
        }
        let mut node = level[0];
        let height = chunk.trailing_zeros();
        let mut below = size >> height;
        while below & 1 == 1 {
            n -= 1;
            node = pair(&roots[n], &node);
            below >>= 1;
        }
        roots[n] = node;
        n += 1;
        size += chunk as u64;
        rest = &rest[chunk..];
    }

    // Fold the subtrees, right to left, with the zero subtrees that pad the
    // list: at height h, a subtree of the list (bit h of its size) takes
    // what is on its right, or the zero subtree of height h.
    if depth < 64 && size == 1 << depth {
        return Ok(roots[0]);
    }
    let mut zero = Node::<H>::zeroed();
    let mut acc: Option<Node<H>> = None;
    for h in 0..depth {
        if (size >> h) & 1 == 1 {
            n -= 1;
            acc = Some(pair(&roots[n], acc.as_ref().unwrap_or(&zero)));
        } else if let Some(a) = acc {
            acc = Some(pair(&a, &zero));
        }
        zero = pair(&zero, &zero);
    }
    Ok(acc.unwrap_or(zero))
}

/// SSZ's `mix_in_length(root, length)`: `H(root || length)`, the length as
/// a little-endian integer of the digest's width (a `uint256` for 32-byte
/// digests), with the detected backend.
pub fn ssz_mix_in_length<H: TreeHash>(root: &Node<H>, length: u64) -> Node<H> {
    let mut len = Node::<H>::zeroed();
    len.as_mut()[..8].copy_from_slice(&length.to_le_bytes());
    let mut out = [Node::<H>::zeroed()];
    crate::Hasher::<H::Algorithm>::hash_pairs(&[*root, len], &mut out);
    out[0]
}
