//! The SHA-3 derived functions of NIST SP 800-185: cSHAKE (§3), KMAC and
//! KMACXOF (§4), TupleHash and TupleHashXOF (§5), ParallelHash and
//! ParallelHashXOF (§6), each at the 128- and 256-bit security strengths.
//!
//! Every type buffers at most one rate block (ParallelHash: one block of
//! its outer sponge and eight of its blocks, or the current block's inner
//! sponge when B > 1 KiB), never allocates, and
//! counts lengths in `u64`/`u128`, so inputs beyond 4 GiB hash correctly.
#![forbid(unsafe_code)]

use hash_core::XofReader;

use crate::algorithm::{Shake128, Shake256};

/// The output reader of [`CShake128`], [`Kmac128`] (KMACXOF128),
/// [`TupleHash128`] and [`ParallelHash128`]: the same type as
/// [`crate::Shake128`]'s reader.
pub type CShake128Reader = XofReader<Shake128>;
/// The output reader of the 256-bit functions: [`crate::Shake256`]'s.
pub type CShake256Reader = XofReader<Shake256>;

mod cshake;
mod kmac;
mod parallel_hash;
mod tuple_hash;

pub use cshake::{CShake128, CShake256};
pub use kmac::{Kmac128, Kmac256};
pub use parallel_hash::{ParallelHash128, ParallelHash256};
pub use tuple_hash::{TupleHash128, TupleHash256};
