//! NIST CAVP known-answer tests for SHA-224 and SHA-256 (ShortMsg, LongMsg
//! and SHAVS Monte Carlo), on every backend this CPU supports. The vector
//! files are written by `cargo xtask kat`.

use hash_core::testing::kat;
use sha256::algorithm;

const SHA224: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sha224.txt");
const SHA256: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sha256.txt");

#[test]
fn sha224_cavp() {
    kat::fixed::<algorithm::Sha224>(SHA224);
}

#[test]
fn sha256_cavp() {
    kat::fixed::<algorithm::Sha256>(SHA256);
}

/// A vector file missing a record, or with a changed digit, must fail.
#[test]
fn edited_vector_files_fail() {
    kat::guards_fixed::<algorithm::Sha224>(SHA224);
    kat::guards_fixed::<algorithm::Sha256>(SHA256);
}
