//! RFC 9162 inclusion (§2.1.3) and consistency (§2.1.4) proofs.

use super::node::{BackendOf, MerkleError, Node, TreeHash, node_hash, split_point};
use super::tree::tree_root;
use crate::{BackendKind, FixedAlgorithm};

/// The number of nodes in the inclusion proof of leaf `index` in a tree of
/// `size` leaves (RFC 9162 §2.1.3.1's `PATH(m, D[n])`).
pub fn inclusion_proof_len(index: u64, size: u64) -> Result<usize, MerkleError> {
    if index >= size {
        return Err(MerkleError::IndexOutOfRange { index, size });
    }
    let (mut m, mut n, mut len) = (index, size, 0);
    while n > 1 {
        let k = split_point(n);
        if m < k {
            n = k;
        } else {
            m -= k;
            n -= k;
        }
        len += 1;
    }
    Ok(len)
}

/// The number of nodes in the consistency proof between tree sizes `first`
/// and `second` (RFC 9162 §2.1.4.1's `PROOF(m, D[n])`; empty when `first`
/// is 0 or equals `second`).
pub fn consistency_proof_len(first: u64, second: u64) -> Result<usize, MerkleError> {
    if first > second {
        return Err(MerkleError::SizesOutOfOrder { first, second });
    }
    if first == 0 || first == second {
        return Ok(0);
    }
    let (mut m, mut n, mut complete, mut len) = (first, second, true, 0);
    while m != n {
        let k = split_point(n);
        if m <= k {
            n = k;
        } else {
            m -= k;
            n -= k;
            complete = false;
        }
        len += 1;
    }
    Ok(len + usize::from(!complete))
}

/// Write the inclusion proof of leaf `index` of the tree over `leaves`
/// into `out` (RFC 9162 §2.1.3.1, nearest sibling first) and return its
/// length, with the detected backend.
pub fn inclusion_proof<H: TreeHash>(leaves: &[&[u8]], index: u64, out: &mut [Node<H>]) -> Result<usize, MerkleError> {
    inclusion_proof_with_backend::<H>(BackendOf::<H>::detect(), leaves, index, out)
}

/// [`inclusion_proof`] with exactly `backend`.
pub fn inclusion_proof_with_backend<H: TreeHash>(
    backend: BackendOf<H>,
    leaves: &[&[u8]],
    index: u64,
    out: &mut [Node<H>],
) -> Result<usize, MerkleError> {
    let backend = crate::algorithm::check_backend::<H::Algorithm>(backend)?;
    let len = inclusion_proof_len(index, leaves.len() as u64)?;
    if out.len() < len {
        return Err(MerkleError::BufferTooSmall { needed: len, got: out.len() });
    }
    // PATH(m, D[n]) = PATH(m, D[0:k]) : MTH(D[k:n]), or PATH(m - k, D[k:n]) : MTH(D[0:k]):
    // the deepest sibling comes first, so fill from the end.
    let (mut m, mut d, mut at) = (index as usize, leaves, len);
    while d.len() > 1 {
        let k = split_point(d.len() as u64) as usize;
        at -= 1;
        if m < k {
            out[at] = tree_root::<H::Algorithm>(backend, &d[k..]);
            d = &d[..k];
        } else {
            out[at] = tree_root::<H::Algorithm>(backend, &d[..k]);
            d = &d[k..];
            m -= k;
        }
    }
    Ok(len)
}

/// Write the consistency proof between the tree of the first `first`
/// leaves and the tree over all of `leaves` into `out` (RFC 9162
/// §2.1.4.1) and return its length, with the detected backend.
pub fn consistency_proof<H: TreeHash>(leaves: &[&[u8]], first: u64, out: &mut [Node<H>]) -> Result<usize, MerkleError> {
    consistency_proof_with_backend::<H>(BackendOf::<H>::detect(), leaves, first, out)
}

/// [`consistency_proof`] with exactly `backend`.
pub fn consistency_proof_with_backend<H: TreeHash>(
    backend: BackendOf<H>,
    leaves: &[&[u8]],
    first: u64,
    out: &mut [Node<H>],
) -> Result<usize, MerkleError> {
    let backend = crate::algorithm::check_backend::<H::Algorithm>(backend)?;
    let len = consistency_proof_len(first, leaves.len() as u64)?;
    if out.len() < len {
        return Err(MerkleError::BufferTooSmall { needed: len, got: out.len() });
    }
    if len == 0 {
        return Ok(0);
    }
    // SUBPROOF(m, D[n], b): the node appended at each step comes after the
    // deeper ones, so fill from the end.
    let (mut m, mut d, mut complete, mut at) = (first as usize, leaves, true, len);
    while m != d.len() {
        let k = split_point(d.len() as u64) as usize;
        at -= 1;
        if m <= k {
            out[at] = tree_root::<H::Algorithm>(backend, &d[k..]);
            d = &d[..k];
        } else {
            out[at] = tree_root::<H::Algorithm>(backend, &d[..k]);
            d = &d[k..];
            m -= k;
            complete = false;
        }
    }
    if !complete {
        at -= 1;
        out[at] = tree_root::<H::Algorithm>(backend, d);
    }
    debug_assert_eq!(at, 0);
    Ok(len)
}

/// Check that `leaf_hash` (`H(0x00 || leaf)`, see [`super::leaf_hash`]) is
/// leaf `index` of the tree of `size` leaves whose root is `root`, by
/// `proof` (RFC 9162 §2.1.3.2), with the detected backend.
pub fn verify_inclusion<H: TreeHash>(
    leaf_hash: &Node<H>,
    index: u64,
    size: u64,
    proof: &[Node<H>],
    root: &Node<H>,
) -> Result<(), MerkleError> {
    verify_inclusion_with_backend::<H>(BackendOf::<H>::detect(), leaf_hash, index, size, proof, root)
}

/// [`verify_inclusion`] with exactly `backend`.
pub fn verify_inclusion_with_backend<H: TreeHash>(
    backend: BackendOf<H>,
    leaf_hash: &Node<H>,
    index: u64,
    size: u64,
    proof: &[Node<H>],
    root: &Node<H>,
) -> Result<(), MerkleError> {
    let backend = crate::algorithm::check_backend::<H::Algorithm>(backend)?;
    let expected = inclusion_proof_len(index, size)?;
    if proof.len() != expected {
        return Err(MerkleError::ProofLength { expected, got: proof.len() });
    }
    let node = |l: &Node<H>, r: &Node<H>| node_hash::<H::Algorithm>(backend, l, r);
    let (mut f, mut s, mut r) = (index, size - 1, *leaf_hash);
    for p in proof {
        if s == 0 {
            return Err(MerkleError::Mismatch);
        }
        if f & 1 == 1 || f == s {
            r = node(p, &r);
            while f & 1 == 0 && f != 0 {
                f >>= 1;
                s >>= 1;
            }
        } else {
            r = node(&r, p);
        }
        f >>= 1;
        s >>= 1;
    }
    if s == 0 && ct_eq::<H::Algorithm>(&r, root) { Ok(()) } else { Err(MerkleError::Mismatch) }
}

/// Check that the tree of `first` leaves with root `first_root` is a
/// prefix of the tree of `second` leaves with root `second_root`, by
/// `proof` (RFC 9162 §2.1.4.2), with the detected backend.
///
/// Sizes equal: the proof must be empty and the roots equal. `first` 0:
/// the proof must be empty (the empty tree is a prefix of every tree).
pub fn verify_consistency<H: TreeHash>(
    first: u64,
    second: u64,
    first_root: &Node<H>,
    second_root: &Node<H>,
    proof: &[Node<H>],
) -> Result<(), MerkleError> {
    verify_consistency_with_backend::<H>(BackendOf::<H>::detect(), first, second, first_root, second_root, proof)
}

/// [`verify_consistency`] with exactly `backend`.
pub fn verify_consistency_with_backend<H: TreeHash>(
    backend: BackendOf<H>,
    first: u64,
    second: u64,
    first_root: &Node<H>,
    second_root: &Node<H>,
    proof: &[Node<H>],
) -> Result<(), MerkleError> {
    let backend = crate::algorithm::check_backend::<H::Algorithm>(backend)?;
    let expected = consistency_proof_len(first, second)?;
    if proof.len() != expected {
        return Err(MerkleError::ProofLength { expected, got: proof.len() });
    }
    if first == 0 {
        return Ok(());
    }
    if first == second {
        return if ct_eq::<H::Algorithm>(first_root, second_root) { Ok(()) } else { Err(MerkleError::Mismatch) };
    }
    let node = |l: &Node<H>, r: &Node<H>| node_hash::<H::Algorithm>(backend, l, r);
    // Step 2: a power-of-two first tree is a node of the second, and its
    // root stands at the head of the path.
    let head = first.is_power_of_two().then_some(first_root);
    let mut path = head.into_iter().chain(proof.iter());
    let (mut f, mut s) = (first - 1, second - 1);
    while f & 1 == 1 {
        f >>= 1;
        s >>= 1;
    }
    let Some(start) = path.next() else { return Err(MerkleError::Mismatch) };
    let (mut fr, mut sr) = (*start, *start);
    for c in path {
        if s == 0 {
            return Err(MerkleError::Mismatch);
        }
        if f & 1 == 1 || f == s {
            fr = node(c, &fr);
            sr = node(c, &sr);
            while f & 1 == 0 && f != 0 {
                f >>= 1;
                s >>= 1;
            }
        } else {
            sr = node(&sr, c);
        }
        f >>= 1;
        s >>= 1;
    }
    let ok = ct_eq::<H::Algorithm>(&fr, first_root) & ct_eq::<H::Algorithm>(&sr, second_root) & (s == 0);
    if ok { Ok(()) } else { Err(MerkleError::Mismatch) }
}

/// Compare two digests without an early exit.
fn ct_eq<A: FixedAlgorithm>(a: &A::Output, b: &A::Output) -> bool {
    a.as_ref().iter().zip(b.as_ref()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
