//! The digest 0.10 drop-ins: known answers through them, and each against
//! the published crate it replaces on random inputs and `update` splits.

#![allow(deprecated)] // generic-array 0.14, which the digest 0.10 line is built on

mod common;

use common::{feed, known_answers, lengths, message_and_splits};
use hash_core::testing::{Rng, say};

/// The drop-in type `$ours` and the original `$theirs` agree on every
/// length of `lengths()`, with one-shot and split updates, `Clone` mid-way,
/// `finalize_reset` and `reset`.
macro_rules! differential {
    ($test:ident, $ours:ty, $theirs:ty) => {
        #[test]
        fn $test() {
            use sha2::Digest as _;
            let mut rng = Rng::new(0x5eed ^ stringify!($test).len() as u64);
            let mut reused = <$ours>::new();
            for len in lengths() {
                let (msg, cuts) = message_and_splits(&mut rng, len);
                let want = <$theirs as orig_sha2::Digest>::digest(&msg);
                assert_eq!(<$ours>::digest(&msg)[..], want[..], "one-shot, {len} bytes");
                let mut h = <$ours>::new();
                feed(&msg, &cuts, |p| h.update(p));
                let copy = h.clone();
                assert_eq!(h.finalize()[..], want[..], "{len} bytes in pieces {cuts:?}");
                assert_eq!(copy.finalize()[..], want[..], "clone, {len} bytes");
                feed(&msg, &cuts, |p| reused.update(p));
                assert_eq!(reused.finalize_reset()[..], want[..], "finalize_reset, {len} bytes");
            }
            say(format_args!("{}: drop-in = original on {} lengths", stringify!($ours), lengths().len()));
        }
    };
}

differential!(sha224_matches_original, sha2::Sha224, orig_sha2::Sha224);
differential!(sha256_matches_original, sha2::Sha256, orig_sha2::Sha256);
differential!(sha384_matches_original, sha2::Sha384, orig_sha2::Sha384);
differential!(sha512_matches_original, sha2::Sha512, orig_sha2::Sha512);
differential!(sha512_224_matches_original, sha2::Sha512_224, orig_sha2::Sha512_224);
differential!(sha512_256_matches_original, sha2::Sha512_256, orig_sha2::Sha512_256);

#[test]
fn sha2_known_answers() {
    use sha2::Digest;
    known_answers("sha256", "sha224.txt", "sha2::Sha224", |m| sha2::Sha224::digest(m).to_vec());
    known_answers("sha256", "sha256.txt", "sha2::Sha256", |m| sha2::Sha256::digest(m).to_vec());
    known_answers("sha512", "sha384.txt", "sha2::Sha384", |m| sha2::Sha384::digest(m).to_vec());
    known_answers("sha512", "sha512.txt", "sha2::Sha512", |m| sha2::Sha512::digest(m).to_vec());
    known_answers("sha512", "sha512_224.txt", "sha2::Sha512_224", |m| sha2::Sha512_224::digest(m).to_vec());
    known_answers("sha512", "sha512_256.txt", "sha2::Sha512_256", |m| sha2::Sha512_256::digest(m).to_vec());
}

#[test]
fn sha2_hmac_matches_original() {
    use hmac::{Hmac, Mac};
    let mut rng = Rng::new(99);
    for len in (0..300).chain([1000, 4096, 65_537]) {
        let key_len = rng.below(200);
        let key = rng.bytes(key_len);
        let (msg, cuts) = message_and_splits(&mut rng, len);
        let mut ours = <Hmac<sha2::Sha256> as Mac>::new_from_slice(&key).unwrap();
        feed(&msg, &cuts, |p| ours.update(p));
        let mut theirs = <Hmac<orig_sha2::Sha256> as Mac>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        assert_eq!(ours.finalize().into_bytes(), theirs.finalize().into_bytes(), "HMAC-SHA-256, {len} bytes");
        let mut ours = <Hmac<sha2::Sha512> as Mac>::new_from_slice(&key).unwrap();
        ours.update(&msg);
        let mut theirs = <Hmac<orig_sha2::Sha512> as Mac>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        assert_eq!(ours.finalize().into_bytes(), theirs.finalize().into_bytes(), "HMAC-SHA-512, {len} bytes");
    }
}

#[test]
fn sha2_compress_matches_original() {
    use sha2::digest::generic_array::GenericArray;
    let mut rng = Rng::new(3);
    for blocks in 0..9 {
        let data = rng.bytes(128 * blocks);
        let b64: Vec<GenericArray<u8, _>> = data.chunks(64).map(|c| GenericArray::clone_from_slice(c)).collect();
        let b128: Vec<GenericArray<u8, _>> = data.chunks(128).map(|c| GenericArray::clone_from_slice(c)).collect();
        let mut s = [0u32; 8];
        for w in &mut s {
            *w = rng.next_u64() as u32;
        }
        let mut t = s;
        sha2::compress256(&mut s, &b64);
        orig_sha2::compress256(&mut t, &b64);
        assert_eq!(s, t, "compress256, {} blocks", b64.len());
        let mut s = [0u64; 8];
        for w in &mut s {
            *w = rng.next_u64();
        }
        let mut t = s;
        sha2::compress512(&mut s, &b128);
        orig_sha2::compress512(&mut t, &b128);
        assert_eq!(s, t, "compress512, {} blocks", b128.len());
    }
}

#[test]
fn sha2_names_oids_and_sizes_match_original() {
    use sha2::digest::const_oid::AssociatedOid;
    assert_eq!(sha2::Sha256::OID, orig_sha2::Sha256::OID);
    assert_eq!(sha2::Sha224::OID, orig_sha2::Sha224::OID);
    assert_eq!(sha2::Sha384::OID, orig_sha2::Sha384::OID);
    assert_eq!(sha2::Sha512::OID, orig_sha2::Sha512::OID);
    assert_eq!(sha2::Sha512_224::OID, orig_sha2::Sha512_224::OID);
    assert_eq!(sha2::Sha512_256::OID, orig_sha2::Sha512_256::OID);
    assert_eq!(format!("{:?}", sha2::Sha256::default()), format!("{:?}", orig_sha2::Sha256::default()));
    assert_eq!(format!("{:?}", sha2::Sha512_256::default()), format!("{:?}", orig_sha2::Sha512_256::default()));
}
