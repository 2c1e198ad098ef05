//! The `digest` 0.11 line takes our hashers (feature `digest011`):
//! `hmac` 0.13's `Hmac<T>` (through `digest`'s core API: `EagerHash`,
//! `CoreProxy`) and `SimpleHmac<T>`, `hkdf` 0.13's `Hkdf<T>` and
//! `SimpleHkdf<T>`, for every fixed-output type, checked against
//!
//! * RFC 2202 (HMAC-MD5, HMAC-SHA-1), RFC 4231 (HMAC-SHA-224/256/384/512),
//!   the NIST HMAC-SHA3 examples, RFC 5869 (HKDF) and Wycheproof's HKDF
//!   files, from `tests/data/hmac_hkdf.txt` (its header names the sources);
//! * the `digest` 0.10 line (`hmac` 0.12 over our `compat` types) on random
//!   keys and messages, for the types no published vector covers.
//!
//! Run with `cargo test -p bench --features digest011 --test digest011`.
#![cfg(all(
    feature = "digest011",
    feature = "md5",
    feature = "sha1",
    feature = "sha256",
    feature = "sha512",
    feature = "sha3"
))]

use digest011::block_api::{BlockSizeUser, CoreProxy, EagerHash};
use digest011::{Digest, ExtendableOutput, FixedOutputReset, KeyInit, Mac, Update, XofReader};
use hash_core::testing::{Rng, say};
use hash_core::{digest, digest011};
use hkdf013::{Hkdf, SimpleHkdf};
use hmac013::{Hmac, SimpleHmac};

const VECTORS: &str = include_str!("data/hmac_hkdf.txt");

fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd-length hex {s:?}");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit")).collect()
}

/// The `key=value` fields of one vector line.
struct Line<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Line<'a> {
    fn parse(line: &'a str) -> Self {
        Line(line.split_whitespace().skip(1).map(|f| f.split_once('=').expect("key=value field")).collect())
    }

    fn get(&self, key: &str) -> &'a str {
        self.0.iter().find(|(k, _)| *k == key).unwrap_or_else(|| panic!("field {key} missing")).1
    }
}

/// HMAC of `data` under `key`, four ways that must agree: `hmac` 0.13's
/// `Hmac<T>` and `SimpleHmac<T>` (0.11 line) with the message in pieces,
/// `Hmac<T>` in one call, and `hmac` 0.12's `SimpleHmac<T>` (0.10 line).
fn hmacs<T>(key: &[u8], data: &[u8]) -> [Vec<u8>; 4]
where
    T: EagerHash + Digest + BlockSizeUser + Clone + digest::Digest + digest::core_api::BlockSizeUser,
{
    let mut core = <Hmac<T> as KeyInit>::new_from_slice(key).expect("any key length");
    let mut simple = <SimpleHmac<T> as KeyInit>::new_from_slice(key).expect("any key length");
    for piece in data.chunks(7) {
        Mac::update(&mut core, piece);
        Mac::update(&mut simple, piece);
    }
    let mut whole = <Hmac<T> as KeyInit>::new_from_slice(key).expect("any key length");
    Mac::update(&mut whole, data);
    let mut old = <hmac::SimpleHmac<T> as hmac::Mac>::new_from_slice(key).expect("any key length");
    hmac::Mac::update(&mut old, data);
    [
        core.finalize().into_bytes().to_vec(),
        simple.finalize().into_bytes().to_vec(),
        whole.finalize().into_bytes().to_vec(),
        hmac::Mac::finalize(old).into_bytes().to_vec(),
    ]
}

/// HKDF-Expand of `len` bytes, through `Hkdf<T>` and `SimpleHkdf<T>`: both
/// `Some(okm)` or both `None` (length refused).
fn hkdf<T>(salt: Option<&[u8]>, ikm: &[u8], info: &[u8], len: usize) -> Option<Vec<u8>>
where
    T: EagerHash + Digest + BlockSizeUser + Clone,
{
    let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
    let ra = Hkdf::<T>::new(salt, ikm).expand(info, &mut a);
    let rb = SimpleHkdf::<T>::new(salt, ikm).expand(info, &mut b);
    assert_eq!(ra.is_ok(), rb.is_ok(), "Hkdf and SimpleHkdf agree on refusing {len} bytes");
    assert_eq!(a, b, "Hkdf and SimpleHkdf agree");
    ra.ok().map(|()| a)
}

/// Run `$f::<type>($args)` for the type that the vector file calls `$alg`.
macro_rules! by_name {
    ($alg:expr, $f:ident($($arg:expr),*)) => {
        match $alg {
            "MD5" => $f::<md5::compat011::Md5>($($arg),*),
            "SHA-1" => $f::<sha1::compat011::Sha1>($($arg),*),
            "SHA-224" => $f::<sha256::compat011::Sha224>($($arg),*),
            "SHA-256" => $f::<sha256::compat011::Sha256>($($arg),*),
            "SHA-384" => $f::<sha512::compat011::Sha384>($($arg),*),
            "SHA-512" => $f::<sha512::compat011::Sha512>($($arg),*),
            "SHA3-224" => $f::<sha3::compat011::Sha3_224>($($arg),*),
            "SHA3-256" => $f::<sha3::compat011::Sha3_256>($($arg),*),
            "SHA3-384" => $f::<sha3::compat011::Sha3_384>($($arg),*),
            "SHA3-512" => $f::<sha3::compat011::Sha3_512>($($arg),*),
            other => panic!("vector file names an unknown hash {other:?}"),
        }
    };
}

#[test]
fn hmac_known_answers() {
    let mut count = 0;
    for line in VECTORS.lines().filter(|l| l.starts_with("hmac ")) {
        let f = Line::parse(line);
        let (key, data, mac) = (unhex(f.get("key")), unhex(f.get("data")), unhex(f.get("mac")));
        for (way, got) in by_name!(f.get("alg"), hmacs(&key, &data)).iter().enumerate() {
            assert_eq!(got[..mac.len()], mac[..], "HMAC-{} {} (way {way})", f.get("alg"), f.get("src"));
        }
        count += 1;
    }
    assert_eq!(count, 54, "RFC 2202 (14), NIST HMAC-SHA3 (12), RFC 4231 (28)");
    say(format_args!("digest011: {count} HMAC known answers pass through hmac 0.13 Hmac and SimpleHmac"));
}

#[test]
fn hkdf_known_answers() {
    let (mut valid, mut refused) = (0, 0);
    for line in VECTORS.lines().filter(|l| l.starts_with("hkdf ")) {
        let f = Line::parse(line);
        let salt = match f.get("salt") {
            "none" => None,
            hex => Some(unhex(hex)),
        };
        let (ikm, info) = (unhex(f.get("ikm")), unhex(f.get("info")));
        let len: usize = f.get("len").parse().expect("len");
        let got = by_name!(f.get("alg"), hkdf(salt.as_deref(), &ikm, &info, len));
        let ctx = format!("HKDF-{} {}", f.get("alg"), f.get("src"));
        match f.get("result") {
            "valid" => {
                assert_eq!(got, Some(unhex(f.get("okm"))), "{ctx}");
                valid += 1;
            }
            "invalid" => {
                assert_eq!(got, None, "{ctx}: {len} bytes must be refused (more than 255 blocks)");
                refused += 1;
            }
            other => panic!("{ctx}: result {other:?}"),
        }
    }
    // RFC 5869's 7 cases and Wycheproof's 87 + 86 + 83 + 83 (SHA-1, -256,
    // -384, -512), of which 12 ask for more than 255 blocks of output.
    assert_eq!((valid, refused), (7 + 87 + 86 + 83 + 83 - 12, 12));
    say(format_args!("digest011: {valid} HKDF known answers pass and {refused} over-long outputs are refused"));
}

/// For one type: `hmac` 0.13 agrees with `hmac` 0.12 on random keys around
/// the block size and random messages; the 0.11 `Digest` API (streaming,
/// `finalize_reset`, `CoreProxy` split and rebuild mid-stream) agrees with
/// our own API; and `Hkdf` agrees with `SimpleHkdf`.
fn interop<T>(name: &str)
where
    T: EagerHash
        + CoreProxy
        + Digest
        + FixedOutputReset
        + BlockSizeUser
        + Clone
        + digest::Digest
        + digest::core_api::BlockSizeUser,
{
    let block = <T as BlockSizeUser>::block_size();
    let mut rng = Rng::new(0x011d_1935);
    for key_len in [0, 1, block - 1, block, block + 1, 3 * block + 5] {
        for msg_len in [0, 1, block - 9, block, block + 1, 5 * block + 3] {
            let (key, msg) = (rng.bytes(key_len), rng.bytes(msg_len));
            let [core, simple, whole, old] = hmacs::<T>(&key, &msg);
            let ctx = format!("{name}: key {key_len} B, message {msg_len} B");
            assert_eq!(core, old, "{ctx}: hmac 0.13 Hmac vs hmac 0.12");
            assert_eq!(simple, old, "{ctx}: hmac 0.13 SimpleHmac vs hmac 0.12");
            assert_eq!(whole, old, "{ctx}: hmac 0.13 Hmac in one update");

            let want = <T as digest::Digest>::digest(&msg).to_vec();
            assert_eq!(<T as Digest>::digest(&msg).to_vec(), want, "{ctx}: 0.11 Digest::digest");
            let mut h = <T as Digest>::new();
            let cut = rng.below(msg_len + 1);
            Digest::update(&mut h, &msg[..cut]);
            // Split into core and buffer and rebuild, as `hmac` does.
            let (core, buffer) = h.decompose();
            let mut h = T::compose(core, buffer);
            Digest::update(&mut h, &msg[cut..]);
            assert_eq!(Digest::finalize_reset(&mut h).to_vec(), want, "{ctx}: 0.11 decompose/compose at {cut}");
            Digest::update(&mut h, &msg);
            assert_eq!(Digest::finalize(h).to_vec(), want, "{ctx}: 0.11 after finalize_reset");
        }
        let okm = hkdf::<T>(Some(&rng.bytes(key_len)), &rng.bytes(33), b"info", 3 * block);
        assert_eq!(okm.map(|o| o.len()), Some(3 * block), "{name}: HKDF of three blocks");
    }
}

#[test]
fn every_fixed_output_type_interoperates() {
    interop::<md5::Md5>("MD5");
    interop::<sha1::Sha1>("SHA-1");
    interop::<sha256::Sha224>("SHA-224");
    interop::<sha256::Sha256>("SHA-256");
    interop::<sha512::Sha384>("SHA-384");
    interop::<sha512::Sha512>("SHA-512");
    interop::<sha512::Sha512_224>("SHA-512/224");
    interop::<sha512::Sha512_256>("SHA-512/256");
    interop::<sha3::Sha3_224>("SHA3-224");
    interop::<sha3::Sha3_256>("SHA3-256");
    interop::<sha3::Sha3_384>("SHA3-384");
    interop::<sha3::Sha3_512>("SHA3-512");
    interop::<sha3::Keccak256>("Keccak-256");
}

#[test]
fn compat011_names_the_same_types() {
    // `Hmac<sha256::compat011::Sha256>` is the 0.11 spelling of the 0.10
    // line's `Hmac<sha256::compat::Sha256>`.
    let tag = <Hmac<sha256::compat011::Sha256> as KeyInit>::new_from_slice(b"key")
        .expect("any key length")
        .chain_update(b"The quick brown fox jumps over the lazy dog")
        .finalize()
        .into_bytes();
    let mut old = <hmac::Hmac<sha256::compat::Sha256> as hmac::Mac>::new_from_slice(b"key").expect("any key length");
    hmac::Mac::update(&mut old, b"The quick brown fox jumps over the lazy dog");
    assert_eq!(tag[..], hmac::Mac::finalize(old).into_bytes()[..]);
    assert_eq!(tag[..4], [0xf7, 0xbc, 0x83, 0xf4]);
    let _: fn() -> sha256::Sha256 = <sha256::compat011::Sha256 as Digest>::new;
}

#[test]
fn xofs_through_the_011_traits() {
    fn check<X: ExtendableOutput + Default + Clone>(name: &str, ours: fn(&[u8], &mut [u8])) {
        let mut rng = Rng::new(0x011d_000f);
        for len in [0usize, 1, 135, 136, 168, 169, 500] {
            let msg = rng.bytes(len);
            let mut want = vec![0u8; 400];
            ours(&msg, &mut want);
            let mut x = X::default();
            Update::update(&mut x, &msg);
            let mut reader = x.finalize_xof();
            let mut got = vec![0u8; 400];
            for piece in got.chunks_mut(77) {
                reader.read(piece);
            }
            assert_eq!(got, want, "{name}: len {len}, read in pieces of 77");
        }
    }
    check::<sha3::Shake128>("SHAKE128", sha3::Shake128::digest_xof);
    check::<sha3::Shake256>("SHAKE256", sha3::Shake256::digest_xof);
}
