//! Spec examples and API behaviour of SHA-1, on every backend this CPU
//! supports, for single messages and `digest_many` batches.

use hash_core::testing;
use hex_literal::hex;
use sha1::{Backend, Sha1, algorithm};

const ABC: &[u8] = b"abc";
/// The two-block message of the FIPS 180-4 examples (448 bits).
const TWO_BLOCK: &[u8] = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

fn backends() -> Vec<Backend> {
    testing::testable_backends::<Backend>("sha1")
}

/// FIPS 180-4 example values (NIST's "Examples with Intermediate Values",
/// SHA1.pdf), the empty message, and one million 'a's, one by one and as a
/// batch.
#[test]
fn spec_examples() {
    let million_a = vec![b'a'; 1_000_000];
    let cases: [(&[u8], [u8; 20]); 4] = [
        (ABC, hex!("a9993e364706816aba3e25717850c26c9cd0d89d")),
        (TWO_BLOCK, hex!("84983e441c3bd26ebaae4aa1f95129e5e54670f1")),
        (b"", hex!("da39a3ee5e6b4b0d3255bfef95601890afd80709")),
        (&million_a, hex!("34aa973cd4c4daa4f61eeb2bdbad27316534016f")),
    ];
    for b in backends() {
        for (msg, want) in &cases {
            assert_eq!(Sha1::digest_with_backend(b, msg), *want, "[{b}] len {}", msg.len());
        }
        // The same messages, several times over, through the batch engine.
        let inputs: Vec<&[u8]> = cases.iter().cycle().take(4 * cases.len() + 1).map(|c| c.0).collect();
        let mut outputs = vec![[0u8; 20]; inputs.len()];
        Sha1::digest_many_with_backend(b, &inputs, &mut outputs);
        for (i, (got, want)) in outputs.iter().zip(cases.iter().cycle()).enumerate() {
            assert_eq!(*got, want.1, "[{b}] digest_many message {i}");
        }
    }
}

#[test]
fn every_split_up_to_300_bytes() {
    for b in backends() {
        testing::check_splits::<algorithm::Sha1>(b, 300);
    }
}

#[test]
fn reset_clone_default() {
    for b in backends() {
        testing::check_reset_clone::<algorithm::Sha1>(b);
    }
}

#[test]
fn backends_agree_with_portable() {
    for b in backends() {
        testing::check_against::<algorithm::Sha1>(b, Backend::Portable, 1 << 20);
    }
}

#[test]
fn digest_many_matches_one_by_one() {
    for b in backends() {
        testing::check_many::<algorithm::Sha1>(b, 1 << 20);
    }
}

#[test]
#[should_panic(expected = "digest_many: 2 inputs but 1 output slots")]
fn digest_many_rejects_mismatched_slices() {
    Sha1::digest_many(&[b"a", b"b"], &mut [[0; 20]]);
}

#[test]
fn backend_listing() {
    testing::check_backend_api::<Backend>("sha1");
    // Best first: SHA-NI with the AVX-512VL schedule, SHA-NI, then AVX2
    // (x86-64), the ARMv8 SHA1 instructions (aarch64), then portable.
    assert_eq!(
        Backend::all(),
        [Backend::ShaNiAvx512, Backend::ShaNi, Backend::Avx2, Backend::ArmSha, Backend::Portable]
    );
    assert_eq!(Backend::from_name("arm-sha"), Some(Backend::ArmSha));
    #[cfg(not(target_arch = "aarch64"))]
    assert!(!Backend::ArmSha.is_supported(), "arm-sha runs only on aarch64");
    // The one vendor rule: AMD keeps `sha-ni` for single messages.
    let amd = hash_core::cpu::vendor() == hash_core::cpu::Vendor::Amd;
    if amd && Backend::ShaNi.is_supported() {
        assert_eq!(Backend::detect(), Backend::ShaNi, "AMD keeps sha-ni for single messages");
    } else if Backend::ShaNiAvx512.is_supported() {
        assert_eq!(Backend::detect(), Backend::ShaNiAvx512, "sha-ni-avx512 is picked off AMD");
    }
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
    let mut h = Sha1::new();
    h.write_all(TWO_BLOCK).unwrap();
    assert_eq!(h.finalize(), hex!("84983e441c3bd26ebaae4aa1f95129e5e54670f1"));
}

// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn digest_traits() {
    fn generic<D: hash_core::digest::Digest>(data: &[u8]) -> Vec<u8> {
        D::digest(data).to_vec()
    }
    let want = hex!("a9993e364706816aba3e25717850c26c9cd0d89d");
    assert_eq!(generic::<Sha1>(ABC), want);
    assert_eq!(generic::<sha1::compat::Sha1>(ABC), want);
}

/// RFC 2202 §3, test cases 1–4 and 6: HMAC-SHA-1 through `hmac` 0.12,
/// both with `Hmac<D>` (digest's core API) and `SimpleHmac<D>` (any
/// `Digest`).
// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn hmac_rfc2202() {
    use hmac::{Hmac, Mac, SimpleHmac};
    let cases: [(&[u8], &[u8], [u8; 20]); 5] = [
        (&[0x0b; 20], b"Hi There", hex!("b617318655057264e28bc0b6fb378c8ef146be00")),
        (b"Jefe", b"what do ya want for nothing?", hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")),
        (&[0xaa; 20], &[0xdd; 50], hex!("125d7342b9ac11cd91a39af48aa17b4f63f175d3")),
        (
            &hex!("0102030405060708090a0b0c0d0e0f10111213141516171819"),
            &[0xcd; 50],
            hex!("4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        ),
        // Case 6: a key longer than a block is hashed first.
        (
            &[0xaa; 80],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            hex!("aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        ),
    ];
    for (i, (key, data, want)) in cases.iter().enumerate() {
        let mut mac = Hmac::<sha1::compat::Sha1>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..], want[..], "Hmac, RFC 2202 case {i}");
        let mut mac = SimpleHmac::<Sha1>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..], want[..], "SimpleHmac, RFC 2202 case {i}");
    }
}

/// Forcing a backend this CPU lacks is refused with an error or a panic
/// naming it, also through the raw `Algorithm::compress`.
#[test]
fn forcing_an_unsupported_backend_is_an_error() {
    testing::check_forcing::<algorithm::Sha1>();
}

#[test]
fn multi_buffer_scheduler() {
    testing::check_scheduler::<algorithm::Sha1>(Backend::Portable);
}
