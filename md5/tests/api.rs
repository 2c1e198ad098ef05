//! Spec examples and API behaviour of MD5, on every backend this CPU
//! supports.

use hash_core::testing;
use hex_literal::hex;
use md5::{Backend, Md5, algorithm};

fn backends() -> Vec<Backend> {
    testing::testable_backends::<Backend>("md5")
}

/// RFC 1321 §A.5's test suite, plus one million 'a's (digest from Python's
/// `hashlib.md5`, i.e. OpenSSL).
#[test]
fn spec_examples() {
    let suite: [(&[u8], [u8; 16]); 7] = [
        (b"", hex!("d41d8cd98f00b204e9800998ecf8427e")),
        (b"a", hex!("0cc175b9c0f1b6a831c399e269772661")),
        (b"abc", hex!("900150983cd24fb0d6963f7d28e17f72")),
        (b"message digest", hex!("f96b697d7cb7938d525a2f31aaf161d0")),
        (b"abcdefghijklmnopqrstuvwxyz", hex!("c3fcd3d76192e4007dfb496cca67e13b")),
        (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", hex!("d174ab98d277d9f5a5611c2c9f419d9f")),
        (
            b"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            hex!("57edf4a22be3c955ac49da2e2107b67a"),
        ),
    ];
    let million_a = vec![b'a'; 1_000_000];
    for b in backends() {
        for (msg, want) in suite {
            assert_eq!(Md5::digest_with_backend(b, msg), want, "[{b}] {:?}", String::from_utf8_lossy(msg));
        }
        assert_eq!(Md5::digest_with_backend(b, &million_a), hex!("7707d6ae4e027c70eea2a935c2296f21"), "[{b}]");

        // The same messages as one batch, and the suite repeated to fill
        // every lane of the widest batch engine several times over.
        let inputs: Vec<&[u8]> = suite.iter().map(|(m, _)| *m).cycle().take(7 * 7).collect();
        let mut outputs = vec![[0u8; 16]; inputs.len()];
        Md5::digest_many_with_backend(b, &inputs, &mut outputs);
        for (i, got) in outputs.iter().enumerate() {
            assert_eq!(*got, suite[i % 7].1, "[{b}] digest_many, message {i}");
        }
    }
}

#[test]
fn every_split_up_to_300_bytes() {
    for b in backends() {
        testing::check_splits::<algorithm::Md5>(b, 300);
    }
}

#[test]
fn reset_clone_default() {
    for b in backends() {
        testing::check_reset_clone::<algorithm::Md5>(b);
    }
}

#[test]
fn backends_agree_with_portable() {
    for b in backends() {
        testing::check_against::<algorithm::Md5>(b, Backend::Portable, 1 << 20);
    }
}

#[test]
fn digest_many_matches_one_by_one() {
    for b in backends() {
        testing::check_many::<algorithm::Md5>(b, 1 << 20);
    }
}

/// Batches whose messages all have the same length keep every lane busy to
/// the end; sweep the lengths around the padding boundaries.
#[test]
fn digest_many_equal_lengths() {
    let mut rng = testing::Rng::new(0x4d44_3501);
    for b in backends() {
        for batch in [5usize, 8, 15, 16, 17, 32, 40, 64, 65] {
            for len in (0..=200).step_by(if batch == 16 { 1 } else { 23 }) {
                let msgs: Vec<Vec<u8>> = (0..batch).map(|_| rng.bytes(len)).collect();
                let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
                let mut outputs = vec![[0u8; 16]; batch];
                Md5::digest_many_with_backend(b, &inputs, &mut outputs);
                for (i, (msg, got)) in msgs.iter().zip(&outputs).enumerate() {
                    assert_eq!(
                        *got,
                        Md5::digest_with_backend(Backend::Portable, msg),
                        "[{b}] batch {batch}, len {len}, message {i}"
                    );
                }
            }
        }
    }
}

/// Messages that are the same slice, or overlapping windows of one buffer,
/// still get one lane each.
#[test]
fn digest_many_aliased_inputs() {
    let buf = testing::Rng::new(0x4d44_3502).bytes(4096);
    for b in backends() {
        for batch in [3usize, 16, 33, 70] {
            let inputs: Vec<&[u8]> =
                (0..batch).map(|i| if i % 3 == 0 { &buf[..1000] } else { &buf[i * 7..i * 7 + 1000 + i] }).collect();
            let mut outputs = vec![[0u8; 16]; batch];
            Md5::digest_many_with_backend(b, &inputs, &mut outputs);
            for (i, (msg, got)) in inputs.iter().zip(&outputs).enumerate() {
                assert_eq!(*got, Md5::digest_with_backend(Backend::Portable, msg), "[{b}] batch {batch}, message {i}");
            }
        }
    }
}

#[test]
#[should_panic(expected = "digest_many: 2 inputs but 1 output slots")]
fn digest_many_rejects_mismatched_slices() {
    Md5::digest_many(&[b"a", b"b"], &mut [[0; 16]]);
}

#[test]
fn backend_listing() {
    testing::check_backend_api::<Backend>("md5");
    // Built without the backend features (`--no-default-features`): every
    // variant is still listed, but only the portable code exists, so it is
    // the one backend available and the one detected.
    #[cfg(not(any(feature = "x86", feature = "avx2", feature = "avx512", feature = "aarch64")))]
    {
        assert_eq!(Backend::all(), [Backend::Avx512, Backend::Avx2, Backend::X86, Backend::Aarch64, Backend::Portable]);
        assert_eq!(Backend::available().collect::<Vec<_>>(), [Backend::Portable]);
        assert_eq!(Backend::detect(), Backend::Portable);
    }
}

#[test]
fn io_write() {
    use std::io::Write;
    let msg = [0x5au8; 1000];
    let mut h = Md5::new();
    h.write_all(&msg[..3]).unwrap();
    h.write_all(&msg[3..]).unwrap();
    assert_eq!(h.finalize(), Md5::digest(&msg));
}

// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn digest_traits() {
    fn generic<D: hash_core::digest::Digest>(data: &[u8]) -> Vec<u8> {
        D::digest(data).to_vec()
    }
    let want = hex!("900150983cd24fb0d6963f7d28e17f72");
    assert_eq!(generic::<Md5>(b"abc"), want);
    assert_eq!(generic::<md5::compat::Md5>(b"abc"), want);
}

/// RFC 2202 §2: HMAC-MD5 through `hmac` 0.12, both with `Hmac<D>`
/// (digest's core API) and `SimpleHmac<D>` (any `Digest`).
// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn hmac_rfc2202() {
    use hmac::{Hmac, Mac, SimpleHmac};
    let long_key = [0xaa; 80];
    let cases: [(&[u8], &[u8], [u8; 16]); 7] = [
        (&[0x0b; 16], b"Hi There", hex!("9294727a3638bb1c13f48ef8158bfc9d")),
        (b"Jefe", b"what do ya want for nothing?", hex!("750c783e6ab0b503eaa86e310a5db738")),
        (&[0xaa; 16], &[0xdd; 50], hex!("56be34521d144c88dbb8c733f0e8b3f6")),
        (
            &hex!("0102030405060708090a0b0c0d0e0f10111213141516171819"),
            &[0xcd; 50],
            hex!("697eaf0aca3a3aea3a75164746ffaa79"),
        ),
        (&[0x0c; 16], b"Test With Truncation", hex!("56461ef2342edc00f9bab995690efd4c")),
        (
            &long_key,
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            hex!("6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd"),
        ),
        (
            &long_key,
            b"Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
            hex!("6f630fad67cda0ee1fb1f562db3aa53e"),
        ),
    ];
    for (i, (key, data, want)) in cases.iter().enumerate() {
        let mut mac = Hmac::<md5::compat::Md5>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..], want[..], "Hmac, RFC 2202 case {}", i + 1);
        let mut mac = SimpleHmac::<Md5>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..], want[..], "SimpleHmac, RFC 2202 case {}", i + 1);
    }
}

/// Forcing a backend this CPU lacks is refused with an error or a panic
/// naming it, also through the raw `Algorithm::compress`.
#[test]
fn forcing_an_unsupported_backend_is_an_error() {
    testing::check_forcing::<algorithm::Md5>();
}

#[test]
fn multi_buffer_scheduler() {
    testing::check_scheduler::<algorithm::Md5>(Backend::Portable);
}
