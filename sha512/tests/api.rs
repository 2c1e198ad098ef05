//! Spec examples and API behaviour of SHA-384, SHA-512, SHA-512/224 and
//! SHA-512/256, on every backend this CPU supports.

use hash_core::testing;
use hex_literal::hex;
use sha512::{Backend, Sha384, Sha512, Sha512_224, Sha512_256, algorithm};

const ABC: &[u8] = b"abc";
/// The two-block message of the FIPS 180-4 SHA-512 examples (896 bits).
const TWO_BLOCK: &[u8] =
    b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

fn backends() -> Vec<Backend> {
    testing::testable_backends::<Backend>("sha512")
}

/// FIPS 180-4 example values (NIST's "Examples with Intermediate Values"),
/// the empty message, and one million 'a's; every value checked against
/// Python's `hashlib` (OpenSSL).
#[test]
fn spec_examples() {
    let million_a = vec![b'a'; 1_000_000];
    for b in backends() {
        let d512 = |m: &[u8]| Sha512::digest_with_backend(b, m);
        assert_eq!(
            d512(ABC),
            hex!(
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
            ),
            "{b}"
        );
        assert_eq!(
            d512(TWO_BLOCK),
            hex!(
                "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
            ),
            "{b}"
        );
        assert_eq!(
            d512(b""),
            hex!(
                "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
                "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
            ),
            "{b}"
        );
        assert_eq!(
            d512(&million_a),
            hex!(
                "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
            ),
            "{b}"
        );

        let d384 = |m: &[u8]| Sha384::digest_with_backend(b, m);
        assert_eq!(
            d384(ABC),
            hex!(
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
                "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
            ),
            "{b}"
        );
        assert_eq!(
            d384(TWO_BLOCK),
            hex!(
                "09330c33f71147e83d192fc782cd1b4753111b173b3b05d2"
                "2fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"
            ),
            "{b}"
        );
        assert_eq!(
            d384(b""),
            hex!(
                "38b060a751ac96384cd9327eb1b1e36a21fdb71114be0743"
                "4c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"
            ),
            "{b}"
        );
        assert_eq!(
            d384(&million_a),
            hex!(
                "9d0e1809716474cb086e834e310a4a1ced149e9c00f24852"
                "7972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985"
            ),
            "{b}"
        );

        let d224 = |m: &[u8]| Sha512_224::digest_with_backend(b, m);
        assert_eq!(d224(ABC), hex!("4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa"), "{b}");
        assert_eq!(d224(TWO_BLOCK), hex!("23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9"), "{b}");
        assert_eq!(d224(b""), hex!("6ed0dd02806fa89e25de060c19d3ac86cabb87d6a0ddd05c333b84f4"), "{b}");
        assert_eq!(d224(&million_a), hex!("37ab331d76f0d36de422bd0edeb22a28accd487b7a8453ae965dd287"), "{b}");

        let d256 = |m: &[u8]| Sha512_256::digest_with_backend(b, m);
        assert_eq!(d256(ABC), hex!("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"), "{b}");
        assert_eq!(d256(TWO_BLOCK), hex!("3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a"), "{b}");
        assert_eq!(d256(b""), hex!("c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a"), "{b}");
        assert_eq!(d256(&million_a), hex!("9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21"), "{b}");
    }
}

#[test]
fn every_split_up_to_300_bytes() {
    // SHA-384, SHA-512/224 and SHA-512/256 are SHA-512's compression and
    // buffering with other IVs and shorter outputs (FIPS 180-4 §6.5-§6.7):
    // their splits up to a block and a bit (the padding's boundary at
    // 111/112 bytes, the next block's start) cover what is their own, at a
    // tenth of the cost of 300 bytes each.
    for b in backends() {
        testing::check_splits::<algorithm::Sha512>(b, 300);
        testing::check_splits::<algorithm::Sha384>(b, 128 + 8);
        testing::check_splits::<algorithm::Sha512_224>(b, 128 + 8);
        testing::check_splits::<algorithm::Sha512_256>(b, 128 + 8);
    }
}

#[test]
fn reset_clone_default() {
    for b in backends() {
        testing::check_reset_clone::<algorithm::Sha512>(b);
        testing::check_reset_clone::<algorithm::Sha384>(b);
        testing::check_reset_clone::<algorithm::Sha512_224>(b);
        testing::check_reset_clone::<algorithm::Sha512_256>(b);
    }
}

#[test]
fn backends_agree_with_portable() {
    for b in backends() {
        testing::check_against::<algorithm::Sha512>(b, Backend::Portable, 1 << 20);
        testing::check_against::<algorithm::Sha384>(b, Backend::Portable, 1 << 16);
        testing::check_against::<algorithm::Sha512_224>(b, Backend::Portable, 1 << 14);
        testing::check_against::<algorithm::Sha512_256>(b, Backend::Portable, 1 << 14);
    }
}

#[test]
fn digest_many_matches_one_by_one() {
    for b in backends() {
        testing::check_many::<algorithm::Sha512>(b, 1 << 20);
        testing::check_many::<algorithm::Sha384>(b, 1 << 14);
        testing::check_many::<algorithm::Sha512_224>(b, 1 << 14);
        testing::check_many::<algorithm::Sha512_256>(b, 1 << 14);
    }
}

/// Batches whose messages all have the same length (the lanes stay in step
/// from start to finish), on every backend, against one-by-one hashing.
#[test]
fn digest_many_equal_lengths() {
    let mut rng = testing::Rng::new(0x5ea5_0512);
    for b in backends() {
        for len in [0usize, 111, 112, 127, 128, 129, 239, 240, 256, 1000, 8192] {
            for batch in [1usize, 3, 4, 5, 8, 13] {
                let msgs: Vec<Vec<u8>> = (0..batch).map(|_| rng.bytes(len)).collect();
                let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
                let mut outputs = vec![[0u8; 64]; batch];
                Sha512::digest_many_with_backend(b, &inputs, &mut outputs);
                for (i, (m, got)) in msgs.iter().zip(&outputs).enumerate() {
                    assert_eq!(*got, Sha512::digest_with_backend(Backend::Portable, m), "{b}: len {len}, msg {i}");
                }
            }
        }
    }
}

#[test]
#[should_panic(expected = "digest_many: 2 inputs but 1 output slots")]
fn digest_many_rejects_mismatched_slices() {
    Sha512::digest_many(&[b"a", b"b"], &mut [[0; 64]]);
}

#[test]
fn backend_listing() {
    // Prints the `sha512: detected backend: <name>` line CI's qemu runs
    // grep for.
    testing::check_backend_api::<Backend>("sha512");
    // Best first: AVX-512, then AVX2 (x86-64); the SHA512 extension, then
    // the scalar aarch64 code (aarch64); SSE2 (32-bit x86); then portable.
    assert_eq!(
        Backend::all(),
        [Backend::Avx512, Backend::Avx2, Backend::ArmSha512, Backend::Aarch64, Backend::Sse2, Backend::Portable]
    );
    for &b in Backend::all() {
        assert_eq!(Backend::from_name(b.name()), Some(b));
    }
    assert_eq!(Backend::from_name("no-such-backend"), None);
    // Built without the backend features (`--no-default-features`): every
    // variant is still listed, but only the portable code exists, so it is
    // the one backend available and the one detected.
    #[cfg(not(any(
        feature = "avx2",
        feature = "avx512",
        feature = "arm-sha512",
        feature = "aarch64",
        feature = "sse2"
    )))]
    {
        assert_eq!(Backend::available().collect::<Vec<_>>(), [Backend::Portable]);
        assert_eq!(Backend::detect(), Backend::Portable);
    }
}

#[test]
fn io_write() {
    use std::io::Write;
    let mut h = Sha512::new();
    h.write_all(TWO_BLOCK).unwrap();
    assert_eq!(h.finalize(), Sha512::digest(TWO_BLOCK));
    let mut h = Sha384::new();
    write!(h, "a{}", 1 + 1).unwrap();
    assert_eq!(h.finalize(), Sha384::digest(b"a2"));
}

// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn digest_traits() {
    fn generic<D: hash_core::digest::Digest>(data: &[u8]) -> Vec<u8> {
        D::digest(data).to_vec()
    }
    assert_eq!(generic::<Sha512>(ABC), Sha512::digest(ABC));
    assert_eq!(generic::<Sha384>(ABC), Sha384::digest(ABC));
    assert_eq!(generic::<Sha512_224>(ABC), Sha512_224::digest(ABC));
    assert_eq!(generic::<Sha512_256>(ABC), Sha512_256::digest(ABC));
    assert_eq!(generic::<sha512::compat::Sha512>(TWO_BLOCK), Sha512::digest(TWO_BLOCK));
    assert_eq!(generic::<sha512::compat::Sha384>(TWO_BLOCK), Sha384::digest(TWO_BLOCK));
    assert_eq!(generic::<sha512::compat::Sha512_224>(TWO_BLOCK), Sha512_224::digest(TWO_BLOCK));
    assert_eq!(generic::<sha512::compat::Sha512_256>(TWO_BLOCK), Sha512_256::digest(TWO_BLOCK));
}

/// The seven (key, data) pairs of RFC 4231 §4.2–4.8.
#[cfg(feature = "digest")]
fn rfc4231_cases() -> [(Vec<u8>, Vec<u8>); 7] {
    let long_key = vec![0xaa; 131];
    [
        (vec![0x0b; 20], b"Hi There".to_vec()),
        (b"Jefe".to_vec(), b"what do ya want for nothing?".to_vec()),
        (vec![0xaa; 20], vec![0xdd; 50]),
        (hex!("0102030405060708090a0b0c0d0e0f10111213141516171819").to_vec(), vec![0xcd; 50]),
        (vec![0x0c; 20], b"Test With Truncation".to_vec()),
        (long_key.clone(), b"Test Using Larger Than Block-Size Key - Hash Key First".to_vec()),
        (
            long_key,
            b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                .to_vec(),
        ),
    ]
}

/// RFC 4231 §4.2–4.8: HMAC-SHA-512 through `hmac` 0.12, both with
/// `Hmac<D>` (digest's core API) and `SimpleHmac<D>` (any `Digest`).
// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn hmac_sha512_rfc4231() {
    use hmac::{Hmac, Mac, SimpleHmac};
    let want: [[u8; 64]; 7] = [
        hex!(
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
            "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
        ),
        hex!(
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
            "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        ),
        hex!(
            "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
            "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"
        ),
        hex!(
            "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
            "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"
        ),
        // Test case 5 compares only the first 128 bits.
        hex!(
            "415fad6271580a531d4179bc891d87a600000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000"
        ),
        hex!(
            "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
            "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"
        ),
        hex!(
            "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
            "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"
        ),
    ];
    for (i, ((key, data), want)) in rfc4231_cases().iter().zip(&want).enumerate() {
        let n = if i == 4 { 16 } else { 64 };
        let mut mac = Hmac::<sha512::compat::Sha512>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..n], want[..n], "Hmac, RFC 4231 case {}", i + 1);
        let mut mac = SimpleHmac::<Sha512>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..n], want[..n], "SimpleHmac, RFC 4231 case {}", i + 1);
    }
}

/// RFC 4231 §4.2–4.8: HMAC-SHA-384.
// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn hmac_sha384_rfc4231() {
    use hmac::{Hmac, Mac, SimpleHmac};
    let want: [[u8; 48]; 7] = [
        hex!("afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"),
        hex!("af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"),
        hex!("88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27"),
        hex!("3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb"),
        // Test case 5 compares only the first 128 bits.
        hex!("3abf34c3503b2a23a46efc619baef8970000000000000000000000000000000000000000000000000000000000000000"),
        hex!("4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952"),
        hex!("6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e"),
    ];
    for (i, ((key, data), want)) in rfc4231_cases().iter().zip(&want).enumerate() {
        let n = if i == 4 { 16 } else { 48 };
        let mut mac = Hmac::<sha512::compat::Sha384>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..n], want[..n], "Hmac, RFC 4231 case {}", i + 1);
        let mut mac = SimpleHmac::<Sha384>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..n], want[..n], "SimpleHmac, RFC 4231 case {}", i + 1);
    }
}

/// Forcing a backend this CPU lacks is refused with an error or a panic
/// naming it, also through the raw `Algorithm::compress` and the raw
/// `FixedAlgorithm::digest_many`, which safe code can call with any
/// backend value.
#[test]
fn forcing_an_unsupported_backend_is_an_error() {
    testing::check_forcing::<algorithm::Sha512>();
    testing::check_forcing::<algorithm::Sha384>();
    testing::check_forcing::<algorithm::Sha512_224>();
    testing::check_forcing::<algorithm::Sha512_256>();
    for &b in Backend::all() {
        let batch = std::panic::catch_unwind(|| {
            let mut out = [[0u8; 64]; 9];
            <algorithm::Sha512 as hash_core::FixedAlgorithm>::digest_many(b, &[ABC; 9], &mut out);
            out
        });
        if b.is_supported() {
            assert_eq!(batch.ok(), Some([Sha512::digest_with_backend(Backend::Portable, ABC); 9]), "{b}");
        } else {
            assert!(batch.is_err(), "FixedAlgorithm::digest_many({b}) ran on a CPU without its features");
        }
    }
}

#[test]
fn multi_buffer_scheduler() {
    testing::check_scheduler::<algorithm::Sha512>(Backend::Portable);
    testing::check_scheduler::<algorithm::Sha384>(Backend::Portable);
    testing::check_scheduler::<algorithm::Sha512_224>(Backend::Portable);
    testing::check_scheduler::<algorithm::Sha512_256>(Backend::Portable);
}
