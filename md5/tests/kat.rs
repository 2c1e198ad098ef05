//! Known-answer tests for MD5 on every backend this CPU supports: RFC 1321's
//! suite, and every length from 0 to 1024 bytes plus a few multi-megabyte
//! messages of a fixed pattern, with digests from an independent oracle
//! (Python's hashlib). The vector file is written by `cargo xtask kat`.

use hash_core::testing::kat;
use md5::algorithm;

const MD5: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/md5.txt");

#[test]
fn md5_rfc1321_and_oracle() {
    kat::fixed::<algorithm::Md5>(MD5);
}

/// A vector file missing a record, or with a changed digit, must fail.
#[test]
fn edited_vector_files_fail() {
    kat::guards_fixed::<algorithm::Md5>(MD5);
}
