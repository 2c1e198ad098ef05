//! NIST CAVP known-answer tests for SHA-1 (ShortMsg, LongMsg and SHAVS Monte
//! Carlo), on every backend this CPU supports. The vector file is written by
//! `cargo xtask kat`.

use hash_core::testing::kat;
use sha1::algorithm;

const SHA1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sha1.txt");

#[test]
fn sha1_cavp() {
    kat::fixed::<algorithm::Sha1>(SHA1);
}

/// A vector file missing a record, or with a changed digit, must fail.
#[test]
fn edited_vector_files_fail() {
    kat::guards_fixed::<algorithm::Sha1>(SHA1);
}
