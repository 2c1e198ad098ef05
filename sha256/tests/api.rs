//! Spec examples and API behaviour of SHA-224 and SHA-256, on every backend
//! this CPU supports.

use hash_core::testing;
use hex_literal::hex;
use sha256::{Backend, Sha224, Sha256, algorithm};

const ABC: &[u8] = b"abc";
/// The two-block message of the FIPS 180-4 examples (448 bits).
const TWO_BLOCK: &[u8] = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

fn backends() -> Vec<Backend> {
    testing::testable_backends::<Backend>("sha256")
}

/// FIPS 180-4 example values (NIST's "Examples with Intermediate Values"),
/// the empty message, and one million 'a's.
#[test]
fn spec_examples() {
    let million_a = vec![b'a'; 1_000_000];
    for b in backends() {
        let d256 = |m: &[u8]| Sha256::digest_with_backend(b, m);
        let d224 = |m: &[u8]| Sha224::digest_with_backend(b, m);
        assert_eq!(d256(ABC), hex!("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "{b}");
        assert_eq!(d256(TWO_BLOCK), hex!("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), "{b}");
        assert_eq!(d256(b""), hex!("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "{b}");
        assert_eq!(d256(&million_a), hex!("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"), "{b}");
        assert_eq!(d224(ABC), hex!("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"), "{b}");
        assert_eq!(d224(TWO_BLOCK), hex!("75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"), "{b}");
        assert_eq!(d224(b""), hex!("d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"), "{b}");
        assert_eq!(d224(&million_a), hex!("20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"), "{b}");
    }
}

#[test]
fn every_split_up_to_300_bytes() {
    // SHA-224 is SHA-256's compression and buffering with another IV and a
    // shorter output (FIPS 180-4 §6.3): its splits up to two blocks and a
    // bit (the padding's boundary at 55/56 bytes, a block boundary inside
    // each `update`) cover what is its own, at 1/10 of the cost of 300.
    for b in backends() {
        testing::check_splits::<algorithm::Sha256>(b, 300);
        testing::check_splits::<algorithm::Sha224>(b, 2 * 64 + 8);
    }
}

#[test]
fn reset_clone_default() {
    for b in backends() {
        testing::check_reset_clone::<algorithm::Sha256>(b);
        testing::check_reset_clone::<algorithm::Sha224>(b);
    }
}

#[test]
fn backends_agree_with_portable() {
    for b in backends() {
        testing::check_against::<algorithm::Sha256>(b, Backend::Portable, 1 << 20);
        testing::check_against::<algorithm::Sha224>(b, Backend::Portable, 1 << 16);
    }
}

#[test]
fn digest_many_matches_one_by_one() {
    for b in backends() {
        testing::check_many::<algorithm::Sha256>(b, 1 << 20);
        testing::check_many::<algorithm::Sha224>(b, 1 << 14);
    }
}

#[test]
#[should_panic(expected = "digest_many: 2 inputs but 1 output slots")]
fn digest_many_rejects_mismatched_slices() {
    Sha256::digest_many(&[b"a", b"b"], &mut [[0; 32]]);
}

#[test]
fn backend_listing() {
    testing::check_backend_api::<Backend>("sha256");
    // Best first: SHA-NI, then AVX2 (x86-64), the ARMv8 SHA-256
    // instructions (aarch64), then portable.
    assert_eq!(Backend::all(), [Backend::ShaNi, Backend::Avx2, Backend::ArmSha, Backend::Portable]);
    assert_eq!(Backend::from_name("arm-sha"), Some(Backend::ArmSha));
    #[cfg(not(target_arch = "aarch64"))]
    assert!(!Backend::ArmSha.is_supported(), "arm-sha runs only on aarch64");
    // Built without the backend features (`--no-default-features`): every
    // variant is still listed, but only the portable code exists, so it is
    // the one backend available and the one detected.
    #[cfg(not(any(feature = "shani", feature = "avx2", feature = "avx512", feature = "arm-sha")))]
    {
        assert_eq!(Backend::available().collect::<Vec<_>>(), [Backend::Portable]);
        assert_eq!(Backend::detect(), Backend::Portable);
    }
}

#[test]
fn io_write() {
    use std::io::Write;
    let mut h = Sha256::new();
    h.write_all(TWO_BLOCK).unwrap();
    assert_eq!(h.finalize(), Sha256::digest(TWO_BLOCK));
}

// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn digest_traits() {
    fn generic<D: hash_core::digest::Digest>(data: &[u8]) -> Vec<u8> {
        D::digest(data).to_vec()
    }
    assert_eq!(generic::<Sha256>(ABC), Sha256::digest(ABC));
    assert_eq!(generic::<Sha224>(ABC), Sha224::digest(ABC));
    assert_eq!(generic::<sha256::compat::Sha256>(ABC), Sha256::digest(ABC));
}

/// RFC 4231 §4.2–4.8: HMAC-SHA-256 through `hmac` 0.12, both with
/// `Hmac<D>` (digest's core API) and `SimpleHmac<D>` (any `Digest`).
// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn hmac_rfc4231() {
    use hmac::{Hmac, Mac, SimpleHmac};
    let long_key = [0xaa; 131];
    let cases: [(&[u8], &[u8], [u8; 32]); 7] = [
        (&[0x0b; 20], b"Hi There", hex!("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")),
        (
            b"Jefe",
            b"what do ya want for nothing?",
            hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ),
        (&[0xaa; 20], &[0xdd; 50], hex!("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")),
        (
            &hex!("0102030405060708090a0b0c0d0e0f10111213141516171819"),
            &[0xcd; 50],
            hex!("82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ),
        // Test case 5 compares only the first 128 bits.
        (&[0x0c; 20], b"Test With Truncation", hex!("a3b6167473100ee06e0c796c2955552b00000000000000000000000000000000")),
        (
            &long_key,
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            hex!("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ),
        (
            &long_key,
            b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
            hex!("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ),
    ];
    for (i, (key, data, want)) in cases.iter().enumerate() {
        let n = if i == 4 { 16 } else { 32 };
        let mut mac = Hmac::<sha256::compat::Sha256>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..n], want[..n], "Hmac, RFC 4231 case {}", i + 1);
        let mut mac = SimpleHmac::<Sha256>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..n], want[..n], "SimpleHmac, RFC 4231 case {}", i + 1);
    }
}

/// Forcing a backend this CPU lacks is refused with an error or a panic
/// naming it, also through the raw `Algorithm::compress`.
#[test]
fn forcing_an_unsupported_backend_is_an_error() {
    testing::check_forcing::<algorithm::Sha256>();
    testing::check_forcing::<algorithm::Sha224>();
}

#[test]
fn multi_buffer_scheduler() {
    for b in backends() {
        testing::check_scheduler::<algorithm::Sha256>(b);
        testing::check_scheduler::<algorithm::Sha224>(b);
    }
}

/// The batch engines on the shape they are tuned for (many messages of
/// equal length, so every lane stays busy) and on batches that leave only
/// one or two lanes busy at the end.
#[test]
fn digest_many_equal_lengths() {
    let mut rng = testing::Rng::new(0x5a_256);
    for b in backends() {
        for (count, len) in [(64usize, 8192usize), (9, 4096), (17, 64), (3, 1000), (13, 0), (33, 55)] {
            let msgs: Vec<Vec<u8>> = (0..count).map(|_| rng.bytes(len)).collect();
            let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
            let mut got = vec![[0u8; 32]; count];
            Sha256::digest_many_with_backend(b, &inputs, &mut got);
            for (i, (m, d)) in msgs.iter().zip(&got).enumerate() {
                assert_eq!(*d, Sha256::digest_with_backend(Backend::Portable, m), "[{b}] {count} x {len}, message {i}");
            }
        }
    }
}
