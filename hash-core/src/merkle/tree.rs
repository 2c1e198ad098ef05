//! RFC 9162 tree hashes built leaf by leaf in a compact range.

use core::fmt;

use super::node::{BackendOf, LEAF_PREFIX, MAX_HEIGHT, MerkleError, NODE_PREFIX, Node, TreeHash, node_hash};
use crate::{BackendKind, FixedAlgorithm, Hasher, OutputBytes};

/// Leaves hashed in one batch, and so the largest subtree built before it
/// joins the compact range. The levels below eight nodes go to
/// single-stream code; the more leaves a batch has, the less those weigh:
/// on an Intel Xeon (model 167, AVX-512), SHA-256, 2^20 leaves of 64 bytes,
/// 87, 80 and 76 ns a leaf at 64, 128 and 256. The batch's digests live on
/// the stack (8 KiB for SHA-256, 16 KiB for SHA-512), beside the pairs'
/// buffer.
const CHUNK: usize = 256;
/// Pairs hashed in one call (sixteen-lane engines take them sixteen at a
/// time).
const PIECE: usize = 32;
/// Room for [`PIECE`] pairs side by side (64-byte digests at most).
const PAIRS_BYTES: usize = PIECE * 128;

/// An RFC 9162 Merkle tree hash (`MTH`, §2.1.1) built incrementally.
///
/// Only the roots of the perfect subtrees that make up the leaves so far
/// are kept (one per set bit of the size: at most 64 digests), so memory
/// does not grow with the tree. [`MerkleTree::push_many`] hashes leaves 256
/// at a time on the batch engine, and each batch's interior levels too.
///
/// ```
/// # fn demo<Sha256: hash_core::merkle::TreeHash>() { // sha256::Sha256 in real code
/// use hash_core::merkle::MerkleTree;
/// let mut one_by_one = MerkleTree::<Sha256>::new();
/// for leaf in [&b"x"[..], b"y", b"z"] {
///     one_by_one.push(leaf);
/// }
/// let mut batched = MerkleTree::<Sha256>::new();
/// batched.push_many(&[b"x", b"y", b"z"]);
/// assert_eq!(one_by_one.root(), batched.root());
/// assert_eq!(batched.size(), 3);
/// # }
/// ```
pub struct MerkleTree<H: TreeHash> {
    backend: BackendOf<H>,
    size: u64,
    /// Subtree roots, left (largest) to right; `count` of them are live.
    roots: [Node<H>; MAX_HEIGHT],
    count: usize,
}

impl<H: TreeHash> MerkleTree<H> {
    /// An empty tree hashed with the detected backend.
    pub fn new() -> Self {
        Self::from_checked(BackendOf::<H>::detect())
    }

    /// An empty tree hashed with exactly `backend`, or an error if this CPU
    /// cannot run it.
    pub fn with_backend(backend: BackendOf<H>) -> Result<Self, MerkleError> {
        Ok(Self::from_checked(crate::algorithm::check_backend::<H::Algorithm>(backend)?))
    }

    fn from_checked(backend: BackendOf<H>) -> Self {
        MerkleTree { backend, size: 0, roots: [Node::<H>::zeroed(); MAX_HEIGHT], count: 0 }
    }

    /// The backend the tree hashes with.
    pub fn backend(&self) -> BackendOf<H> {
        self.backend
    }

    /// Leaves so far.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Append one leaf (its data, which is hashed as `H(0x00 || leaf)`).
    ///
    /// # Panics
    /// After 2^64 - 1 leaves (which no machine reaches).
    pub fn push(&mut self, leaf: &[u8]) {
        self.push_many(&[leaf]);
    }

    /// Append leaves in order, hashing them and their subtrees in batches.
    ///
    /// # Panics
    /// After 2^64 - 1 leaves (which no machine reaches).
    pub fn push_many(&mut self, leaves: &[&[u8]]) {
        let mut rest = leaves;
        while !rest.is_empty() {
            // The largest batch that is a power of two, at most CHUNK, no
            // more than is left, and aligned in the tree (so that it is one
            // perfect subtree).
            let align =
                if self.size == 0 { CHUNK } else { 1usize << self.size.trailing_zeros().min(CHUNK.trailing_zeros()) };
            let mut chunk = align.min(CHUNK);
            while chunk > rest.len() {
                chunk /= 2;
            }
            let root = subtree_root::<H::Algorithm>(self.backend, &rest[..chunk]);
            self.push_subtree(root, chunk.trailing_zeros());
            rest = &rest[chunk..];
        }
    }

    /// Join a perfect subtree of `2^height` leaves on the right; the size
    /// is a multiple of its size.
    fn push_subtree(&mut self, mut node: Node<H>, height: u32) {
        let Some(size) = self.size.checked_add(1 << height) else {
            panic!("MerkleTree: more than 2^64 - 1 leaves");
        };
        let mut below = self.size >> height;
        while below & 1 == 1 {
            self.count -= 1;
            node = node_hash::<H::Algorithm>(self.backend, &self.roots[self.count], &node);
            below >>= 1;
        }
        self.roots[self.count] = node;
        self.count += 1;
        self.size = size;
    }

    /// The tree hash of the leaves so far (RFC 9162 §2.1.1); for no
    /// leaves, the hash of the empty string.
    pub fn root(&self) -> Node<H> {
        if self.count == 0 {
            return Hasher::<H::Algorithm>::from_checked(self.backend).finalize();
        }
        let mut acc = self.roots[self.count - 1];
        for left in self.roots[..self.count - 1].iter().rev() {
            acc = node_hash::<H::Algorithm>(self.backend, left, &acc);
        }
        acc
    }
}

impl<H: TreeHash> Default for MerkleTree<H> {
    fn default() -> Self {
        Self::new()
    }
}

impl<H: TreeHash> Clone for MerkleTree<H> {
    fn clone(&self) -> Self {
        MerkleTree { backend: self.backend, size: self.size, roots: self.roots, count: self.count }
    }
}

impl<H: TreeHash> fmt::Debug for MerkleTree<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MerkleTree")
            .field("algorithm", &<H::Algorithm as crate::Algorithm>::NAME)
            .field("backend", &self.backend.name())
            .field("size", &self.size)
            .finish()
    }
}

/// The root of the perfect subtree over `leaves` (a power of two, at most
/// [`CHUNK`]): the leaves in one batch, then each level in one batch.
fn subtree_root<A: FixedAlgorithm>(backend: A::Backend, leaves: &[&[u8]]) -> A::Output {
    debug_assert!(leaves.len().is_power_of_two() && leaves.len() <= CHUNK);
    let mut level = [A::Output::zeroed(); CHUNK];
    A::hash_prefixed_many(backend, &[LEAF_PREFIX], leaves, &mut level[..leaves.len()]);
    reduce_levels::<A>(backend, &mut level[..leaves.len()])
}

/// Hash a power-of-two level down to its root, `H(0x01 || left || right)`
/// for each pair: [`PIECE`] pairs at a time side by side in a stack buffer,
/// their digests written over the level's front (pair k's digest goes to
/// slot k, which the pieces before have already read).
fn reduce_levels<A: FixedAlgorithm>(backend: A::Backend, level: &mut [A::Output]) -> A::Output {
    let n = A::Output::zeroed().as_ref().len();
    let mut len = level.len();
    // Zeroed once: each piece overwrites the bytes it hashes.
    let mut buf = [0u8; PAIRS_BYTES];
    while len > 1 {
        let pairs = len / 2;
        let mut start = 0;
        while start < pairs {
            let end = pairs.min(start + PIECE);
            for (dst, pair) in buf.chunks_exact_mut(2 * n).zip(level[2 * start..2 * end].chunks_exact(2)) {
                dst[..n].copy_from_slice(pair[0].as_ref());
                dst[n..].copy_from_slice(pair[1].as_ref());
            }
            let mut refs: [&[u8]; PIECE] = [&[]; PIECE];
            for (r, msg) in refs.iter_mut().zip(buf.chunks_exact(2 * n)) {
                *r = msg;
            }
            A::hash_prefixed_many(backend, &[NODE_PREFIX], &refs[..end - start], &mut level[start..end]);
            start = end;
        }
        len = pairs;
    }
    level[0]
}

/// `MTH(leaves)` on a checked backend.
pub(crate) fn tree_root<A: FixedAlgorithm>(backend: A::Backend, leaves: &[&[u8]]) -> A::Output {
    let mut tree = MerkleTree::<Hasher<A>>::from_checked(backend);
    tree.push_many(leaves);
    tree.root()
}
