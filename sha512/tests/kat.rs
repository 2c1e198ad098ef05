//! NIST CAVP known-answer tests for SHA-384, SHA-512, SHA-512/224 and
//! SHA-512/256 (ShortMsg, LongMsg and SHAVS Monte Carlo), on every backend
//! this CPU supports. The vector files are written by `cargo xtask kat`.

use hash_core::testing::kat;
use sha512::algorithm;

macro_rules! data {
    ($file:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/", $file)
    };
}

const SHA384: &str = data!("sha384.txt");
const SHA512: &str = data!("sha512.txt");
const SHA512_224: &str = data!("sha512_224.txt");
const SHA512_256: &str = data!("sha512_256.txt");

#[test]
fn sha384_cavp() {
    kat::fixed::<algorithm::Sha384>(SHA384);
}

#[test]
fn sha512_cavp() {
    kat::fixed::<algorithm::Sha512>(SHA512);
}

#[test]
fn sha512_224_cavp() {
    kat::fixed::<algorithm::Sha512_224>(SHA512_224);
}

#[test]
fn sha512_256_cavp() {
    kat::fixed::<algorithm::Sha512_256>(SHA512_256);
}

/// A vector file missing a record, or with a changed digit, must fail.
#[test]
fn edited_vector_files_fail() {
    kat::guards_fixed::<algorithm::Sha384>(SHA384);
    kat::guards_fixed::<algorithm::Sha512>(SHA512);
    kat::guards_fixed::<algorithm::Sha512_224>(SHA512_224);
    kat::guards_fixed::<algorithm::Sha512_256>(SHA512_256);
}
