//! The digest 0.10 drop-ins: known answers through them, and each against
//! the published crate it replaces on random inputs and `update` splits.

#![allow(deprecated)] // generic-array 0.14, which the digest 0.10 line is built on

mod common;

use common::{feed, known_answers, lengths, message_and_splits};
use hash_core::testing::{say, Rng};

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
                let want = <$theirs>::digest(&msg);
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
differential!(sha1_matches_original, sha1::Sha1, orig_sha1::Sha1);
differential!(md5_matches_original, md5::Md5, orig_md5::Md5);
differential!(sha3_224_matches_original, sha3::Sha3_224, orig_sha3::Sha3_224);
differential!(sha3_256_matches_original, sha3::Sha3_256, orig_sha3::Sha3_256);
differential!(sha3_384_matches_original, sha3::Sha3_384, orig_sha3::Sha3_384);
differential!(sha3_512_matches_original, sha3::Sha3_512, orig_sha3::Sha3_512);
differential!(keccak224_matches_original, sha3::Keccak224, orig_sha3::Keccak224);
differential!(keccak256_matches_original, sha3::Keccak256, orig_sha3::Keccak256);
differential!(keccak384_matches_original, sha3::Keccak384, orig_sha3::Keccak384);
differential!(keccak512_matches_original, sha3::Keccak512, orig_sha3::Keccak512);
differential!(keccak256full_matches_original, sha3::Keccak256Full, orig_sha3::Keccak256Full);

/// The XOF `$ours` (made by `$new`) and `$theirs` (by `$new_theirs`) give
/// the same output stream, read in random pieces, on every length.
macro_rules! xof_differential {
    ($test:ident, $new:expr, $new_theirs:expr) => {
        #[test]
        fn $test() {
            use sha3::digest::{ExtendableOutput as _, Update as _, XofReader as _};
            let mut rng = Rng::new(0xf00d ^ stringify!($test).len() as u64);
            for len in lengths().into_iter().step_by(3) {
                let (msg, cuts) = message_and_splits(&mut rng, len);
                let mut ours = $new;
                feed(&msg, &cuts, |p| ours.update(p));
                let mut theirs = $new_theirs;
                theirs.update(&msg);
                let (mut r1, mut r2) = (ours.finalize_xof(), theirs.finalize_xof());
                let out_len = rng.below(700);
                let (mut a, mut b) = (vec![0u8; out_len], vec![0u8; out_len]);
                r2.read(&mut b);
                let mut at = 0;
                while at < out_len {
                    let n = (1 + rng.below(200)).min(out_len - at);
                    r1.read(&mut a[at..at + n]);
                    at += n;
                }
                assert_eq!(a, b, "{len} bytes in, {out_len} out");
            }
        }
    };
}

xof_differential!(shake128_matches_original, sha3::Shake128::default(), orig_sha3::Shake128::default());
xof_differential!(shake256_matches_original, sha3::Shake256::default(), orig_sha3::Shake256::default());
xof_differential!(
    turboshake128_matches_original,
    sha3::TurboShake128::from_core(sha3::TurboShake128Core::new(0x0b)),
    orig_sha3::TurboShake128::from_core(orig_sha3::TurboShake128Core::new(0x0b))
);
xof_differential!(
    turboshake256_matches_original,
    sha3::TurboShake256::from_core(sha3::TurboShake256Core::new(0x1f)),
    orig_sha3::TurboShake256::from_core(orig_sha3::TurboShake256Core::new(0x1f))
);
xof_differential!(
    cshake128_matches_original,
    sha3::CShake128::from_core(sha3::CShake128Core::new_with_function_name(b"N", b"Email Signature")),
    orig_sha3::CShake128::from_core(orig_sha3::CShake128Core::new_with_function_name(b"N", b"Email Signature"))
);
xof_differential!(
    cshake256_matches_original,
    sha3::CShake256::from_core(sha3::CShake256Core::new(&[7u8; 300])),
    orig_sha3::CShake256::from_core(orig_sha3::CShake256Core::new(&[7u8; 300]))
);
xof_differential!(
    cshake128_empty_matches_original,
    sha3::CShake128::from_core(sha3::CShake128Core::new(b"")),
    orig_sha3::CShake128::from_core(orig_sha3::CShake128Core::new(b""))
);

#[test]
fn cshake_prefix_on_a_block_boundary_matches_original() {
    // encode_string(N) || encode_string(S) exactly one rate (168 bytes) long:
    // 2 (left_encode(168)) + 2 + 10 + 3 + 151 = 168, so bytepad adds nothing.
    use sha3::digest::{ExtendableOutput as _, Update as _};
    let (n, s) = ([1u8; 10], [2u8; 151]);
    let mut a = sha3::CShake128::from_core(sha3::CShake128Core::new_with_function_name(&n, &s));
    let mut b = orig_sha3::CShake128::from_core(orig_sha3::CShake128Core::new_with_function_name(&n, &s));
    a.update(b"abc");
    b.update(b"abc");
    let (mut x, mut y) = ([0u8; 64], [0u8; 64]);
    a.finalize_xof_into(&mut x);
    b.finalize_xof_into(&mut y);
    assert_eq!(x, y);
}

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
fn sha1_md5_sha3_known_answers() {
    use sha1::Digest;
    known_answers("sha1", "sha1.txt", "sha1::Sha1", |m| sha1::Sha1::digest(m).to_vec());
    known_answers("md5", "md5.txt", "md5::Md5", |m| md5::Md5::digest(m).to_vec());
    known_answers("sha3", "sha3_224.txt", "sha3::Sha3_224", |m| sha3::Sha3_224::digest(m).to_vec());
    known_answers("sha3", "sha3_256.txt", "sha3::Sha3_256", |m| sha3::Sha3_256::digest(m).to_vec());
    known_answers("sha3", "sha3_384.txt", "sha3::Sha3_384", |m| sha3::Sha3_384::digest(m).to_vec());
    known_answers("sha3", "sha3_512.txt", "sha3::Sha3_512", |m| sha3::Sha3_512::digest(m).to_vec());
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
        let b64: Vec<GenericArray<u8, _>> = data.chunks(64).map(GenericArray::clone_from_slice).collect();
        let b128: Vec<GenericArray<u8, _>> = data.chunks(128).map(GenericArray::clone_from_slice).collect();
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
fn sha1_compress_matches_original() {
    use sha1::digest::generic_array::GenericArray;
    let mut rng = Rng::new(4);
    for blocks in 0..9 {
        let data = rng.bytes(64 * blocks);
        let b: Vec<GenericArray<u8, _>> = data.chunks(64).map(GenericArray::clone_from_slice).collect();
        let mut s = [0u32; 5];
        for w in &mut s {
            *w = rng.next_u64() as u32;
        }
        let mut t = s;
        sha1::compress(&mut s, &b);
        orig_sha1::compress(&mut t, &b);
        assert_eq!(s, t, "sha1::compress, {blocks} blocks");
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
    assert_eq!(sha1::Sha1::OID, orig_sha1::Sha1::OID);
    assert_eq!(md5::Md5::OID, orig_md5::Md5::OID);
    assert_eq!(sha3::Sha3_256::OID, orig_sha3::Sha3_256::OID);
    assert_eq!(sha3::Shake128::OID, orig_sha3::Shake128::OID);
    // The original gives SHAKE256 SHAKE128's OID (…2.11); ours is id-shake256.
    assert_eq!(sha3::Shake256::OID.to_string(), "2.16.840.1.101.3.4.2.12");
    assert_eq!(format!("{:?}", sha2::Sha256::default()), format!("{:?}", orig_sha2::Sha256::default()));
    assert_eq!(format!("{:?}", sha1::Sha1::default()), format!("{:?}", orig_sha1::Sha1::default()));
    assert_eq!(format!("{:?}", md5::Md5::default()), format!("{:?}", orig_md5::Md5::default()));
    assert_eq!(format!("{:?}", sha3::Sha3_256::default()), format!("{:?}", orig_sha3::Sha3_256::default()));
    assert_eq!(format!("{:?}", sha2::Sha512_256::default()), format!("{:?}", orig_sha2::Sha512_256::default()));
}
