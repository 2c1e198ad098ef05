//! The hashers for code on the `digest` 0.11 line (feature `digest011`):
//! `hmac` 0.13, `hkdf` 0.13, and any `D: digest::Digest` bound of 0.11.
//!
//! `digest` 0.11 no longer seals its `CoreProxy` trait, so our hashers
//! implement it themselves (see `hash-core`'s `digest011` feature) and
//! `hmac::Hmac<md5::Md5>` and `hmac::SimpleHmac<md5::Md5>` take them
//! directly. This module names the same types where the `compat` module names
//! the 0.10 `CoreWrapper` forms, so code written as
//! `Hmac<md5::compat::Md5>` moves to the 0.11 line by renaming the module:
//! `Hmac<md5::compat011::Md5>`.

pub use crate::Md5;
