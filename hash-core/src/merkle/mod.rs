//! Merkle trees on the batch engines: RFC 9162 (Certificate Transparency
//! 2.0) tree hashes with inclusion and consistency proofs, and SSZ-style
//! roots of power-of-two lists of chunks.
//!
//! Generic over every fixed-output hasher of the workspace
//! (`MerkleTree::<sha256::Sha256>`, `ssz_root::<sha256::Sha256>`); nothing
//! here allocates, and bad input (an index past the tree, a proof of the
//! wrong length, sizes out of order) is an [`MerkleError`], never a panic.
//!
//! * [`MerkleTree`] keeps a *compact range*: the roots of the perfect
//!   subtrees that make up the leaves so far (at most 64 of them), so a
//!   tree of any size is built in O(log n) memory. Leaves fed as a slice
//!   ([`MerkleTree::push_many`]) are hashed in batches of up to 64, and each
//!   batch's levels in batches too ([`Hasher::hash_prefixed_many`](crate::Hasher::hash_prefixed_many)).
//! * [`inclusion_proof`] / [`verify_inclusion`] and [`consistency_proof`] /
//!   [`verify_consistency`] follow RFC 9162 §2.1.3 and §2.1.4 line by line.
//! * [`ssz_root`] and [`ssz_mix_in_length`] follow the SSZ specification's
//!   `merkleize` (zero-chunk padding up to the limit) and `mix_in_length`.
//!
//! ```
//! use hash_core::merkle::{MerkleTree, inclusion_proof, leaf_hash, verify_inclusion};
//! # fn demo<Sha256: hash_core::merkle::TreeHash>() { // sha256::Sha256 in real code
//! let leaves: [&[u8]; 5] = [b"a", b"b", b"c", b"d", b"e"];
//! let mut tree = MerkleTree::<Sha256>::new();
//! tree.push_many(&leaves);
//! let root = tree.root();
//!
//! let mut proof = [leaf_hash::<Sha256>(b""); 64];
//! let len = inclusion_proof::<Sha256>(&leaves, 2, &mut proof).unwrap();
//! let leaf = leaf_hash::<Sha256>(b"c");
//! assert!(verify_inclusion::<Sha256>(&leaf, 2, 5, &proof[..len], &root).is_ok());
//! assert!(verify_inclusion::<Sha256>(&leaf, 3, 5, &proof[..len], &root).is_err());
//! # }
//! ```

mod node;
mod proof;
mod ssz;
mod tree;

pub use node::{BackendOf, LEAF_PREFIX, MAX_HEIGHT, MerkleError, NODE_PREFIX, Node, TreeHash, leaf_hash};
pub use proof::{
    consistency_proof, consistency_proof_len, consistency_proof_with_backend, inclusion_proof, inclusion_proof_len,
    inclusion_proof_with_backend, verify_consistency, verify_consistency_with_backend, verify_inclusion,
    verify_inclusion_with_backend,
};
pub use ssz::{ssz_mix_in_length, ssz_root, ssz_root_with_backend};
pub use tree::MerkleTree;
