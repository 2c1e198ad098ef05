//! What every part of the Merkle module shares: the hasher bound, node and
//! backend types, the domain-separation prefixes of RFC 9162 §2.1.1, the
//! error type, and the leaf and interior node hashes.

use core::fmt;

use crate::{FixedAlgorithm, Hasher};

/// The most subtrees a compact range holds: a tree has at most 2^64 - 1
/// leaves, one perfect subtree per set bit of its size.
pub const MAX_HEIGHT: usize = 64;

/// A fixed-output hasher a tree can be built with: every `Hasher<A>` of the
/// workspace (`sha256::Sha256`, `sha3::Sha3_256`, `md5::Md5`, ...).
pub trait TreeHash {
    /// The algorithm behind the hasher.
    type Algorithm: FixedAlgorithm;
}

impl<A: FixedAlgorithm> TreeHash for Hasher<A> {
    type Algorithm = A;
}

/// A node of a tree built with `H`: its digest, `[u8; N]`.
pub type Node<H> = <<H as TreeHash>::Algorithm as FixedAlgorithm>::Output;
/// The backend enum of `H`'s crate.
pub type BackendOf<H> = <<H as TreeHash>::Algorithm as crate::Algorithm>::Backend;

/// RFC 9162's domain separation: a leaf hash is `H(0x00 || leaf)`.
pub const LEAF_PREFIX: u8 = 0x00;
/// RFC 9162's domain separation: an interior node is `H(0x01 || left || right)`.
pub const NODE_PREFIX: u8 = 0x01;

/// Why a Merkle operation was refused or a proof did not verify.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MerkleError {
    /// A leaf index at or past the tree's size.
    IndexOutOfRange {
        /// The index given.
        index: u64,
        /// The tree's size.
        size: u64,
    },
    /// A consistency proof's first size is larger than its second.
    SizesOutOfOrder {
        /// The older tree's size.
        first: u64,
        /// The newer tree's size.
        second: u64,
    },
    /// A proof is not as long as RFC 9162 makes it for these sizes.
    ProofLength {
        /// The length RFC 9162 gives for the index and sizes.
        expected: usize,
        /// The proof's length.
        got: usize,
    },
    /// The caller's buffer for a proof is too short.
    BufferTooSmall {
        /// Nodes the proof needs.
        needed: usize,
        /// Nodes the buffer holds.
        got: usize,
    },
    /// More leaves than the tree (or the SSZ limit) allows.
    TooManyLeaves {
        /// Leaves given.
        leaves: u64,
        /// The most allowed.
        limit: u64,
    },
    /// The proof is well formed but does not lead to the root(s) given.
    Mismatch,
    /// A forced backend that this CPU cannot run.
    Unsupported(crate::UnsupportedBackend),
}

impl fmt::Display for MerkleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MerkleError::IndexOutOfRange { index, size } => {
                write!(f, "leaf index {index} is outside a tree of {size} leaves")
            }
            MerkleError::SizesOutOfOrder { first, second } => {
                write!(f, "consistency between tree sizes {first} and {second}: the first must not be larger")
            }
            MerkleError::ProofLength { expected, got } => {
                write!(f, "the proof has {got} nodes; these sizes need exactly {expected}")
            }
            MerkleError::BufferTooSmall { needed, got } => {
                write!(f, "the proof needs room for {needed} nodes; the buffer holds {got}")
            }
            MerkleError::TooManyLeaves { leaves, limit } => write!(f, "{leaves} leaves; at most {limit} allowed"),
            MerkleError::Mismatch => f.write_str("the proof does not lead to the given root"),
            MerkleError::Unsupported(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MerkleError {}

impl From<crate::UnsupportedBackend> for MerkleError {
    fn from(e: crate::UnsupportedBackend) -> Self {
        MerkleError::Unsupported(e)
    }
}

/// RFC 9162's leaf hash `H(0x00 || leaf)`, with the detected backend.
pub fn leaf_hash<H: TreeHash>(leaf: &[u8]) -> Node<H> {
    let mut out = [<Node<H> as crate::OutputBytes>::zeroed()];
    Hasher::<H::Algorithm>::hash_prefixed_many(&[LEAF_PREFIX], &[leaf], &mut out);
    out[0]
}

/// RFC 9162's interior node `H(0x01 || left || right)`, on `backend`
/// (checked by the caller).
pub(crate) fn node_hash<A: FixedAlgorithm>(backend: A::Backend, left: &A::Output, right: &A::Output) -> A::Output {
    let mut h = Hasher::<A>::from_checked(backend);
    h.update(&[NODE_PREFIX]);
    h.update(left.as_ref());
    h.update(right.as_ref());
    h.finalize()
}

/// The largest power of two strictly below `n` (RFC 9162's `k`), for `n >= 2`.
pub(crate) fn split_point(n: u64) -> u64 {
    debug_assert!(n >= 2);
    1 << (63 - (n - 1).leading_zeros())
}
