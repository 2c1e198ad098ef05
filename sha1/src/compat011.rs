//! The hashers for code on the `digest` 0.11 line (feature `digest011`):
//! `hmac` 0.13, `hkdf` 0.13, and any `D: digest::Digest` bound of 0.11.
//!
//! `digest` 0.11 no longer seals its `CoreProxy` trait, so our hashers
//! implement it themselves (see `hash-core`'s `digest011` feature) and
//! `hmac::Hmac<sha1::Sha1>` and `hmac::SimpleHmac<sha1::Sha1>` take them
//! directly. This module names the same types where the `compat` module names
//! the 0.10 `CoreWrapper` forms, so code written as
//! `Hmac<sha1::compat::Sha1>` moves to the 0.11 line by renaming the module:
//! `Hmac<sha1::compat011::Sha1>`.

pub use crate::Sha1;

/// SHA-1 with collision detection for the `digest` 0.11 line (`hmac` 0.13):
/// outputs the safe hash on a detected collision (see [`crate::Sha1Dc`]).
pub type Sha1Dc = hash_core::Hasher<crate::dc::Sha1DcAlgorithm>;
