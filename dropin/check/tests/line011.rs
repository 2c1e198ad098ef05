//! The digest 0.11 drop-ins: known answers through them, and each against
//! the published crate it replaces on random inputs and `update` splits,
//! including the serialized state after each piece.

#![allow(deprecated)] // generic-array 0.14 in the shared helpers

mod common;

use common::{feed, known_answers, lengths, message_and_splits};
use hash_core::testing::{say, Rng};
use sha2_011::digest::common::hazmat::SerializableState;

/// The drop-in type `$ours` and the original `$theirs` agree on every
/// length: one-shot, split updates with the serialized state compared after
/// each piece (and a hasher rebuilt from it), `Clone` and `finalize_reset`.
macro_rules! differential {
    ($test:ident, $ours:ty, $theirs:ty) => {
        #[test]
        fn $test() {
            use sha2_011::Digest as _;
            let mut rng = Rng::new(0x0011 ^ stringify!($test).len() as u64);
            let mut reused = <$ours>::new();
            for len in lengths() {
                let (msg, cuts) = message_and_splits(&mut rng, len);
                let want = <$theirs>::digest(&msg);
                assert_eq!(<$ours>::digest(&msg)[..], want[..], "one-shot, {len} bytes");
                let mut h = <$ours>::new();
                let mut t = <$theirs>::new();
                feed(&msg, &cuts, |p| {
                    h.update(p);
                    t.update(p);
                    assert_eq!(h.serialize()[..], t.serialize()[..], "serialized state, {len} bytes");
                });
                let rebuilt = <$ours>::deserialize(&h.serialize()).expect("our own serialized state");
                let copy = h.clone();
                assert_eq!(h.finalize()[..], want[..], "{len} bytes in pieces {cuts:?}");
                assert_eq!(copy.finalize()[..], want[..], "clone, {len} bytes");
                assert_eq!(rebuilt.finalize()[..], want[..], "deserialized, {len} bytes");
                feed(&msg, &cuts, |p| reused.update(p));
                assert_eq!(reused.finalize_reset()[..], want[..], "finalize_reset, {len} bytes");
            }
            say(format_args!("{} (0.11 line): drop-in = original on {} lengths", stringify!($ours), lengths().len()));
        }
    };
}

differential!(sha224_matches_original, sha2_011::Sha224, orig_sha2_011::Sha224);
differential!(sha256_matches_original, sha2_011::Sha256, orig_sha2_011::Sha256);
differential!(sha384_matches_original, sha2_011::Sha384, orig_sha2_011::Sha384);
differential!(sha512_matches_original, sha2_011::Sha512, orig_sha2_011::Sha512);
differential!(sha512_224_matches_original, sha2_011::Sha512_224, orig_sha2_011::Sha512_224);
differential!(sha512_256_matches_original, sha2_011::Sha512_256, orig_sha2_011::Sha512_256);
differential!(sha1_matches_original, sha1_011::Sha1, orig_sha1_011::Sha1);
differential!(md5_matches_original, md5_011::Md5, orig_md5_011::Md5);
differential!(sha3_224_matches_original, sha3_012::Sha3_224, orig_sha3_012::Sha3_224);
differential!(sha3_256_matches_original, sha3_012::Sha3_256, orig_sha3_012::Sha3_256);
differential!(sha3_384_matches_original, sha3_012::Sha3_384, orig_sha3_012::Sha3_384);
differential!(sha3_512_matches_original, sha3_012::Sha3_512, orig_sha3_012::Sha3_512);
differential!(keccak224_matches_original, sha3_012::Keccak224, orig_sha3_012::Keccak224);
differential!(keccak256_matches_original, sha3_012::Keccak256, orig_sha3_012::Keccak256);
differential!(keccak384_matches_original, sha3_012::Keccak384, orig_sha3_012::Keccak384);
differential!(keccak512_matches_original, sha3_012::Keccak512, orig_sha3_012::Keccak512);
differential!(keccak256full_matches_original, sha3_012::Keccak256Full, orig_sha3_012::Keccak256Full);
differential!(sha3_011_224_matches_original, sha3_011::Sha3_224, orig_sha3_011::Sha3_224);
differential!(sha3_011_256_matches_original, sha3_011::Sha3_256, orig_sha3_011::Sha3_256);
differential!(sha3_011_384_matches_original, sha3_011::Sha3_384, orig_sha3_011::Sha3_384);
differential!(sha3_011_512_matches_original, sha3_011::Sha3_512, orig_sha3_011::Sha3_512);
differential!(keccak224_011_matches_original, sha3_011::Keccak224, orig_sha3_011::Keccak224);
differential!(keccak256_011_matches_original, sha3_011::Keccak256, orig_sha3_011::Keccak256);
differential!(keccak384_011_matches_original, sha3_011::Keccak384, orig_sha3_011::Keccak384);
differential!(keccak512_011_matches_original, sha3_011::Keccak512, orig_sha3_011::Keccak512);
differential!(keccak256full_011_matches_original, sha3_011::Keccak256Full, orig_sha3_011::Keccak256Full);

/// The XOF `$ours` and the original `$theirs` agree on every length: fed
/// in random pieces (serialized state compared after each), then read in
/// random pieces across several rate-sized blocks, and after `reset`.
macro_rules! xof_differential {
    ($test:ident, $ours:ty, $theirs:ty) => {
        #[test]
        fn $test() {
            use sha3_011::digest::{ExtendableOutput, ExtendableOutputReset, Update, XofReader};
            let mut rng = Rng::new(0x0311 ^ stringify!($test).len() as u64);
            let mut reused = <$ours>::default();
            for len in lengths() {
                let (msg, cuts) = message_and_splits(&mut rng, len);
                let mut h = <$ours>::default();
                let mut t = <$theirs>::default();
                feed(&msg, &cuts, |p| {
                    h.update(p);
                    t.update(p);
                    assert_eq!(h.serialize()[..], t.serialize()[..], "serialized state, {len} bytes");
                });
                feed(&msg, &cuts, |p| reused.update(p));
                let (mut ours, mut theirs) = (h.finalize_xof(), t.finalize_xof());
                let (mut a, mut b) = (vec![0u8; 700], vec![0u8; 700]);
                let mut at = 0;
                while at < a.len() {
                    let n = (1 + rng.below(200)).min(a.len() - at);
                    ours.read(&mut a[at..at + n]);
                    theirs.read(&mut b[at..at + n]);
                    at += n;
                }
                assert_eq!(a, b, "{len} bytes in pieces {cuts:?}, 700 bytes read in pieces");
                let mut c = vec![0u8; 700];
                reused.finalize_xof_reset().read(&mut c);
                assert_eq!(c, b, "finalize_xof_reset, {len} bytes");
            }
            say(format_args!("{} (0.11 line): drop-in = original on {} lengths", stringify!($ours), lengths().len()));
        }
    };
}

xof_differential!(shake128_011_matches_original, sha3_011::Shake128, orig_sha3_011::Shake128);
xof_differential!(shake256_011_matches_original, sha3_011::Shake256, orig_sha3_011::Shake256);

#[test]
fn known_answers_011() {
    use sha2_011::Digest;
    known_answers("sha256", "sha224.txt", "sha2 0.11 Sha224", |m| sha2_011::Sha224::digest(m).to_vec());
    known_answers("sha256", "sha256.txt", "sha2 0.11 Sha256", |m| sha2_011::Sha256::digest(m).to_vec());
    known_answers("sha512", "sha384.txt", "sha2 0.11 Sha384", |m| sha2_011::Sha384::digest(m).to_vec());
    known_answers("sha512", "sha512.txt", "sha2 0.11 Sha512", |m| sha2_011::Sha512::digest(m).to_vec());
    known_answers("sha512", "sha512_224.txt", "sha2 0.11 Sha512_224", |m| sha2_011::Sha512_224::digest(m).to_vec());
    known_answers("sha512", "sha512_256.txt", "sha2 0.11 Sha512_256", |m| sha2_011::Sha512_256::digest(m).to_vec());
    known_answers("sha1", "sha1.txt", "sha1 0.11 Sha1", |m| sha1_011::Sha1::digest(m).to_vec());
    known_answers("md5", "md5.txt", "md-5 0.11 Md5", |m| md5_011::Md5::digest(m).to_vec());
    known_answers("sha3", "sha3_224.txt", "sha3 0.12 Sha3_224", |m| sha3_012::Sha3_224::digest(m).to_vec());
    known_answers("sha3", "sha3_256.txt", "sha3 0.12 Sha3_256", |m| sha3_012::Sha3_256::digest(m).to_vec());
    known_answers("sha3", "sha3_384.txt", "sha3 0.12 Sha3_384", |m| sha3_012::Sha3_384::digest(m).to_vec());
    known_answers("sha3", "sha3_512.txt", "sha3 0.12 Sha3_512", |m| sha3_012::Sha3_512::digest(m).to_vec());
    known_answers("sha3", "sha3_224.txt", "sha3 0.11 Sha3_224", |m| sha3_011::Sha3_224::digest(m).to_vec());
    known_answers("sha3", "sha3_256.txt", "sha3 0.11 Sha3_256", |m| sha3_011::Sha3_256::digest(m).to_vec());
    known_answers("sha3", "sha3_384.txt", "sha3 0.11 Sha3_384", |m| sha3_011::Sha3_384::digest(m).to_vec());
    known_answers("sha3", "sha3_512.txt", "sha3 0.11 Sha3_512", |m| sha3_011::Sha3_512::digest(m).to_vec());
}

#[test]
fn hmac_013_matches_original() {
    use hmac_013::{Hmac, KeyInit, Mac};
    let mut rng = Rng::new(1013);
    for len in (0..300).chain([1000, 4096, 65_537]) {
        let key_len = rng.below(200);
        let key = rng.bytes(key_len);
        let (msg, cuts) = message_and_splits(&mut rng, len);
        let mut ours = <Hmac<sha2_011::Sha256> as KeyInit>::new_from_slice(&key).unwrap();
        feed(&msg, &cuts, |p| ours.update(p));
        let mut theirs = <Hmac<orig_sha2_011::Sha256> as KeyInit>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        assert_eq!(ours.finalize().into_bytes(), theirs.finalize().into_bytes(), "HMAC-SHA-256, {len} bytes");
        let mut ours = <Hmac<sha1_011::Sha1> as KeyInit>::new_from_slice(&key).unwrap();
        ours.update(&msg);
        let mut theirs = <Hmac<orig_sha1_011::Sha1> as KeyInit>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        assert_eq!(ours.finalize().into_bytes(), theirs.finalize().into_bytes(), "HMAC-SHA-1, {len} bytes");
    }
}

#[test]
fn compress_functions_match_original() {
    let mut rng = Rng::new(11);
    for blocks in 0..9 {
        let data = rng.bytes(128 * blocks);
        let b64: Vec<[u8; 64]> = data.chunks(64).map(|c| c.try_into().unwrap()).collect();
        let b128: Vec<[u8; 128]> = data.chunks(128).map(|c| c.try_into().unwrap()).collect();
        let mut s: [u32; 8] = core::array::from_fn(|_| rng.next_u64() as u32);
        let mut t = s;
        sha2_011::block_api::compress256(&mut s, &b64);
        orig_sha2_011::block_api::compress256(&mut t, &b64);
        assert_eq!(s, t, "compress256");
        let mut s: [u64; 8] = core::array::from_fn(|_| rng.next_u64());
        let mut t = s;
        sha2_011::block_api::compress512(&mut s, &b128);
        orig_sha2_011::block_api::compress512(&mut t, &b128);
        assert_eq!(s, t, "compress512");
        let mut s: [u32; 5] = core::array::from_fn(|_| rng.next_u64() as u32);
        let mut t = s;
        sha1_011::block_api::compress(&mut s, &b64);
        orig_sha1_011::block_api::compress(&mut t, &b64);
        assert_eq!(s, t, "sha1 compress");
        let mut s: [u32; 4] = core::array::from_fn(|_| rng.next_u64() as u32);
        let mut t = s;
        md5_011::block_api::compress(&mut s, &b64);
        orig_md5_011::block_api::compress(&mut t, &b64);
        assert_eq!(s, t, "md5 compress");
    }
}

#[test]
fn oids_and_names_match_original() {
    use sha2_011::digest::const_oid::AssociatedOid;
    assert_eq!(sha2_011::Sha256::OID, orig_sha2_011::Sha256::OID);
    assert_eq!(sha2_011::Sha512_256::OID, orig_sha2_011::Sha512_256::OID);
    assert_eq!(sha1_011::Sha1::OID, orig_sha1_011::Sha1::OID);
    assert_eq!(md5_011::Md5::OID, orig_md5_011::Md5::OID);
    assert_eq!(sha3_012::Sha3_256::OID, orig_sha3_012::Sha3_256::OID);
    assert_eq!(sha3_011::Sha3_256::OID, orig_sha3_011::Sha3_256::OID);
    assert_eq!(sha3_011::Shake128::OID, orig_sha3_011::Shake128::OID);
    assert_eq!(sha3_011::Shake256::OID, orig_sha3_011::Shake256::OID);
    assert_eq!(format!("{:?}", sha3_011::Sha3_224::default()), format!("{:?}", orig_sha3_011::Sha3_224::default()));
    assert_eq!(format!("{:?}", sha3_011::Shake128::default()), format!("{:?}", orig_sha3_011::Shake128::default()));
    assert_eq!(format!("{:?}", sha2_011::Sha256::default()), format!("{:?}", orig_sha2_011::Sha256::default()));
    assert_eq!(format!("{:?}", sha1_011::Sha1::default()), format!("{:?}", orig_sha1_011::Sha1::default()));
    assert_eq!(format!("{:?}", sha3_012::Keccak256::default()), format!("{:?}", orig_sha3_012::Keccak256::default()));
}

/// `CoreProxy` (which `hmac` and other wrappers use to get at the core):
/// after every prefix length, the drop-in decomposes into the core state
/// and buffered bytes the original decomposes into, and composes back into
/// a hasher that finishes the message with the original's digest. The
/// sha2 hashers keep their own buffer (not `block-buffer`'s), converted at
/// this boundary.
macro_rules! core_proxy {
    ($test:ident, $ours:ty, $theirs:ty) => {
        #[test]
        fn $test() {
            use sha2_011::digest::block_api::CoreProxy;
            use sha2_011::Digest as _;
            let mut rng = Rng::new(0xc0de ^ stringify!($test).len() as u64);
            for len in lengths() {
                let (msg, _) = message_and_splits(&mut rng, len);
                let want = <$theirs>::digest(&msg);
                let cut = len / 3;
                let mut h = <$ours>::new();
                let mut t = <$theirs>::new();
                h.update(&msg[..cut]);
                t.update(&msg[..cut]);
                let ((core, buffer), (tcore, tbuffer)) = (h.decompose(), t.decompose());
                assert_eq!(core.serialize()[..], tcore.serialize()[..], "core state after {cut} bytes");
                assert_eq!(buffer.get_data(), tbuffer.get_data(), "buffered bytes after {cut} bytes");
                let mut h = <$ours>::compose(core, buffer);
                h.update(&msg[cut..]);
                assert_eq!(h.finalize()[..], want[..], "{len} bytes, recomposed after {cut}");
            }
            say(format_args!(
                "{} (0.11 line): decompose/compose = original on {} lengths",
                stringify!($ours),
                lengths().len()
            ));
        }
    };
}

core_proxy!(sha256_core_proxy_matches_original, sha2_011::Sha256, orig_sha2_011::Sha256);
core_proxy!(sha224_core_proxy_matches_original, sha2_011::Sha224, orig_sha2_011::Sha224);
core_proxy!(sha512_core_proxy_matches_original, sha2_011::Sha512, orig_sha2_011::Sha512);
core_proxy!(sha384_core_proxy_matches_original, sha2_011::Sha384, orig_sha2_011::Sha384);
core_proxy!(sha512_224_core_proxy_matches_original, sha2_011::Sha512_224, orig_sha2_011::Sha512_224);
core_proxy!(sha512_256_core_proxy_matches_original, sha2_011::Sha512_256, orig_sha2_011::Sha512_256);
