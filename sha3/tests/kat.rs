//! NIST CAVP known-answer tests for SHA3-224/256/384/512 (ShortMsg, LongMsg,
//! SHA3VS Monte Carlo) and SHAKE128/256 (ShortMsg, LongMsg, VariableOut and
//! the SHAKE Monte Carlo test), on every backend this CPU supports. The
//! vector files are written by `cargo xtask kat`. (Keccak-256 has no NIST
//! vectors.)

use hash_core::testing::kat;
use sha3::algorithm;

macro_rules! data {
    ($file:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/", $file)
    };
}

const SHA3_224: &str = data!("sha3_224.txt");
const SHA3_256: &str = data!("sha3_256.txt");
const SHA3_384: &str = data!("sha3_384.txt");
const SHA3_512: &str = data!("sha3_512.txt");
const SHAKE128: &str = data!("shake128.txt");
const SHAKE256: &str = data!("shake256.txt");

#[test]
fn sha3_224_cavp() {
    kat::fixed::<algorithm::Sha3_224>(SHA3_224);
}

#[test]
fn sha3_256_cavp() {
    kat::fixed::<algorithm::Sha3_256>(SHA3_256);
}

#[test]
fn sha3_384_cavp() {
    kat::fixed::<algorithm::Sha3_384>(SHA3_384);
}

#[test]
fn sha3_512_cavp() {
    kat::fixed::<algorithm::Sha3_512>(SHA3_512);
}

#[test]
fn shake128_cavp() {
    kat::xof::<algorithm::Shake128>(SHAKE128);
}

#[test]
fn shake256_cavp() {
    kat::xof::<algorithm::Shake256>(SHAKE256);
}

/// A vector file missing a record, or with a changed digit, must fail.
#[test]
fn edited_vector_files_fail() {
    kat::guards_fixed::<algorithm::Sha3_224>(SHA3_224);
    kat::guards_fixed::<algorithm::Sha3_256>(SHA3_256);
    kat::guards_fixed::<algorithm::Sha3_384>(SHA3_384);
    kat::guards_fixed::<algorithm::Sha3_512>(SHA3_512);
    kat::guards_xof::<algorithm::Shake128>(SHAKE128);
    kat::guards_xof::<algorithm::Shake256>(SHAKE256);
}
