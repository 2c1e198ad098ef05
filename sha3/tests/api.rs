//! Spec examples and API behaviour of SHA-3, SHAKE and Keccak-256, on every
//! backend this CPU supports.
//!
//! The expected values are NIST's FIPS 202 examples ("SHA-3 Example
//! Values", messages "", "abc" and 1600 bits of 0xa3), cross-checked against
//! Python's `hashlib` (OpenSSL), and Ethereum's Keccak-256 test values.

use hash_core::testing;
use hex_literal::hex;
use sha3::{Backend, Keccak256, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256, algorithm};

const ABC: &[u8] = b"abc";
/// The 1600-bit message of the FIPS 202 examples.
const A3: &[u8] = &[0xa3; 200];

fn backends() -> Vec<Backend> {
    testing::testable_backends::<Backend>("sha3")
}

fn shake128(b: Backend, m: &[u8]) -> [u8; 200] {
    let mut out = [0; 200];
    Shake128::digest_xof_with_backend(b, m, &mut out);
    out
}

fn shake256(b: Backend, m: &[u8]) -> [u8; 200] {
    let mut out = [0; 200];
    Shake256::digest_xof_with_backend(b, m, &mut out);
    out
}

#[test]
fn spec_examples_sha3() {
    for b in backends() {
        let d224 = |m: &[u8]| Sha3_224::digest_with_backend(b, m);
        let d256 = |m: &[u8]| Sha3_256::digest_with_backend(b, m);
        let d384 = |m: &[u8]| Sha3_384::digest_with_backend(b, m);
        let d512 = |m: &[u8]| Sha3_512::digest_with_backend(b, m);
        assert_eq!(d224(b""), hex!("6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7"), "{b}");
        assert_eq!(d224(ABC), hex!("e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"), "{b}");
        assert_eq!(d224(A3), hex!("9376816aba503f72f96ce7eb65ac095deee3be4bf9bbc2a1cb7e11e0"), "{b}");
        assert_eq!(d256(b""), hex!("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"), "{b}");
        assert_eq!(d256(ABC), hex!("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"), "{b}");
        assert_eq!(d256(A3), hex!("79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"), "{b}");
        assert_eq!(
            d384(b""),
            hex!(
                "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2a"
                "c3713831264adb47fb6bd1e058d5f004"
            ),
            "{b}"
        );
        assert_eq!(
            d384(ABC),
            hex!(
                "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
                "98d88cea927ac7f539f1edf228376d25"
            ),
            "{b}"
        );
        assert_eq!(
            d384(A3),
            hex!(
                "1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd"
                "76197a31fd55ee989f2d7050dd473e8f"
            ),
            "{b}"
        );
        assert_eq!(
            d512(b""),
            hex!(
                "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
                "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"
            ),
            "{b}"
        );
        assert_eq!(
            d512(ABC),
            hex!(
                "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
                "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"
            ),
            "{b}"
        );
        assert_eq!(
            d512(A3),
            hex!(
                "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
                "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00"
            ),
            "{b}"
        );
    }
}

/// SHAKE128 and SHAKE256, 200 bytes of output each: more than one rate, so
/// the squeeze permutes at least once.
#[test]
fn spec_examples_shake() {
    for b in backends() {
        assert_eq!(
            shake128(b, b""),
            hex!(
                "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"
                "3cb1eea988004b93103cfb0aeefd2a686e01fa4a58e8a3639ca8a1e3f9ae57e2"
                "35b8cc873c23dc62b8d260169afa2f75ab916a58d974918835d25e6a435085b2"
                "badfd6dfaac359a5efbb7bcc4b59d538df9a04302e10c8bc1cbf1a0b3a5120ea"
                "17cda7cfad765f5623474d368ccca8af0007cd9f5e4c849f167a580b14aabdef"
                "aee7eef47cb0fca9767be1fda69419dfb927e9df07348b196691abaeb580b32d"
                "ef58538b8d23f877"
            ),
            "{b}"
        );
        assert_eq!(
            shake128(b, ABC),
            hex!(
                "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8"
                "44c50af32acd3f2cdd066568706f509bc1bdde58295dae3f891a9a0fca578378"
                "9a41f8611214ce612394df286a62d1a2252aa94db9c538956c717dc2bed4f232"
                "a0294c857c730aa16067ac1062f1201fb0d377cfb9cde4c63599b27f3462bba4"
                "a0ed296c801f9ff7f57302bb3076ee145f97a32ae68e76ab66c48d51675bd49a"
                "cc29082f5647584e6aa01b3f5af057805f973ff8ecb8b226ac32ada6f01c1fcd"
                "4818cb006aa5b4cd"
            ),
            "{b}"
        );
        assert_eq!(
            shake128(b, A3),
            hex!(
                "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037"
                "cf232ef7164a6d1eb448c8908186ad852d3f85a5cf28da1ab6fe343817197846"
                "7f1c05d58c7ef38c284c41f6c2221a76f12ab1c04082660250802294fb871802"
                "13fdef5b0ecb7df50ca1f8555be14d32e10f6edcde892c09424b29f597afc270"
                "c904556bfcb47a7d40778d390923642b3cbd0579e60908d5a000c1d08b98ef93"
                "3f806445bf87f8b009ba9e94f7266122ed7ac24e5e266c42a82fa1bbefb7b8db"
                "0066e16a85e0493f"
            ),
            "{b}"
        );
        assert_eq!(
            shake256(b, b""),
            hex!(
                "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
                "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"
                "141e96616fb13957692cc7edd0b45ae3dc07223c8e92937bef84bc0eab862853"
                "349ec75546f58fb7c2775c38462c5010d846c185c15111e595522a6bcd16cf86"
                "f3d122109e3b1fdd943b6aec468a2d621a7c06c6a957c62b54dafc3be87567d6"
                "77231395f6147293b68ceab7a9e0c58d864e8efde4e1b9a46cbe854713672f5c"
                "aaae314ed9083dab"
            ),
            "{b}"
        );
        assert_eq!(
            shake256(b, ABC),
            hex!(
                "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"
                "d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"
                "1385141204f329979fd3047a13c5657724ada64d2470157b3cdc288620944d78"
                "dbcddbd912993f0913f164fb2ce95131a2d09a3e6d51cbfc622720d7a75c6334"
                "e8a2d7ec71a7cc29cf0ea610eeff1a588290a53000faa79932becec0bd3cd0b3"
                "3a7e5d397fed1ada9442b99903f4dcfd8559ed3950faf40fe6f3b5d710ed3b67"
                "7513771af6bfe119"
            ),
            "{b}"
        );
        assert_eq!(
            shake256(b, A3),
            hex!(
                "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"
                "2d700caae7396ece96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b"
                "1048a7f64e1074cd629e85ad7566048efc4fb500b486a3309a8f26724c0ed628"
                "001a1099422468de726f1061d99eb9e93604d5aa7467d4b1bd6484582a384317"
                "d7f47d750b8f5499512bb85a226c4243556e696f6bd072c5aa2d9b69730244b5"
                "6853d16970ad817e213e470618178001c9fb56c54fefa5fee67d2da524bb3b0b"
                "61ef0e9114a92cdb"
            ),
            "{b}"
        );
    }
}

/// Keccak-256 as Ethereum uses it (the submission's padding, first padding
/// byte 0x01 instead of SHA-3's 0x06).
#[test]
fn keccak256_examples() {
    for b in backends() {
        let d = |m: &[u8]| Keccak256::digest_with_backend(b, m);
        assert_eq!(d(b""), hex!("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"), "{b}");
        assert_eq!(d(ABC), hex!("4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"), "{b}");
    }
}

#[test]
fn one_million_a() {
    let million_a = vec![b'a'; 1_000_000];
    for b in backends() {
        assert_eq!(
            Sha3_256::digest_with_backend(b, &million_a),
            hex!("5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1"),
            "{b}"
        );
        // The same message fed in uneven pieces.
        let mut h = Sha3_256::with_backend(b);
        for chunk in million_a.chunks(997) {
            h.update(chunk);
        }
        assert_eq!(h.finalize(), hex!("5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1"), "{b}");
    }
}

/// The backends with distinct single-message code, for the exhaustive split
/// tests (about 4.5 million hashes per type and backend). `Avx2` hashes a
/// single message with the very same function as `X86` (one dispatch arm);
/// its own code, the four-lane batch engine, is covered by the
/// `digest_many` tests. So it is split-tested here only where `X86` is not
/// testable, and the run says so. `Avx512` has its own one-state
/// permutation on Intel CPUs (`x86_avx512_1x`) and is always split-tested.
fn single_stream_backends(what: &str) -> Vec<Backend> {
    let all = backends();
    let has_x86 = all.contains(&Backend::X86);
    all.into_iter()
        .filter(|&b| {
            let same_as_x86 = b == Backend::Avx2 && has_x86;
            if same_as_x86 {
                testing::say(format_args!(
                    "sha3: {what}: [{}] hashes single messages with the [x86] code, split-tested as [x86]",
                    b.name()
                ));
            }
            !same_as_x86
        })
        .collect()
}

// Every split of every message into one, two or three `update` calls, one
// test per type so that the harness runs them in parallel. Each type's own
// buffering is its rate (FIPS 202 §6.1: 144, 136, 104 and 72 bytes), so
// each goes up to two blocks and a bit (300 bytes for SHA3-224 and
// SHA3-256, as the other crates); Keccak-256 is SHA3-256's rate and
// buffering with another padding byte, so one block and a bit.

#[test]
fn every_split_sha3_224() {
    for b in single_stream_backends("every_split") {
        testing::check_splits::<algorithm::Sha3_224>(b, 300);
    }
}

#[test]
fn every_split_sha3_256() {
    for b in single_stream_backends("every_split") {
        testing::check_splits::<algorithm::Sha3_256>(b, 300);
    }
}

#[test]
fn every_split_sha3_384() {
    for b in single_stream_backends("every_split") {
        testing::check_splits::<algorithm::Sha3_384>(b, 2 * 104 + 8);
    }
}

#[test]
fn every_split_sha3_512() {
    for b in single_stream_backends("every_split") {
        testing::check_splits::<algorithm::Sha3_512>(b, 2 * 72 + 8);
    }
}

#[test]
fn every_split_keccak256() {
    for b in single_stream_backends("every_split") {
        testing::check_splits::<algorithm::Keccak256>(b, 136 + 8);
    }
}

#[test]
fn reset_clone_default() {
    for b in backends() {
        testing::check_reset_clone::<algorithm::Sha3_224>(b);
        testing::check_reset_clone::<algorithm::Sha3_256>(b);
        testing::check_reset_clone::<algorithm::Sha3_384>(b);
        testing::check_reset_clone::<algorithm::Sha3_512>(b);
        testing::check_reset_clone::<algorithm::Keccak256>(b);
    }
}

/// Splits of the input and pieces of the output, for both XOFs; inputs up
/// to 300 bytes (every seventh length plus the rate boundaries).
#[test]
fn xof_splits_and_reader_pieces() {
    for b in backends() {
        testing::check_xof::<algorithm::Shake128>(b, 300);
        testing::check_xof::<algorithm::Shake256>(b, 300);
    }
}

#[test]
fn backends_agree_with_portable() {
    for b in backends() {
        testing::check_against::<algorithm::Sha3_256>(b, Backend::Portable, 1 << 20);
        testing::check_against::<algorithm::Sha3_224>(b, Backend::Portable, 1 << 14);
        testing::check_against::<algorithm::Sha3_384>(b, Backend::Portable, 1 << 14);
        testing::check_against::<algorithm::Sha3_512>(b, Backend::Portable, 1 << 16);
        testing::check_against::<algorithm::Keccak256>(b, Backend::Portable, 1 << 14);
        testing::check_xof_against::<algorithm::Shake128>(b, Backend::Portable, 1 << 16);
        testing::check_xof_against::<algorithm::Shake256>(b, Backend::Portable, 1 << 16);
    }
}

#[test]
fn digest_many_matches_one_by_one() {
    for b in backends() {
        testing::check_many::<algorithm::Sha3_256>(b, 1 << 20);
        testing::check_many::<algorithm::Sha3_224>(b, 1 << 14);
        testing::check_many::<algorithm::Sha3_384>(b, 1 << 14);
        testing::check_many::<algorithm::Sha3_512>(b, 1 << 16);
        testing::check_many::<algorithm::Keccak256>(b, 1 << 14);
    }
}

/// `digest_xof_many` equals one-by-one SHAKE on batches of mixed message
/// lengths and mixed output lengths (0, short, several rates).
#[test]
fn digest_xof_many_matches_one_by_one() {
    fn check<A: hash_core::XofAlgorithm<Backend = Backend>>(b: Backend) {
        let rate = <A::BlockSize as hash_core::typenum::Unsigned>::USIZE;
        let mut rng = testing::Rng::new(0x5ea3);
        // `equal`: messages of one length (the scheduler's even path).
        for (batch, equal) in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 13].map(|b| (b, false)).into_iter().chain([
            (3, true),
            (10, true),
            (17, true),
        ]) {
            let common = [0, rate - 1, 3 * rate + 5][batch % 3];
            let msgs: Vec<Vec<u8>> = (0..batch)
                .map(|i| {
                    let len = match i % 4 {
                        _ if equal => common,
                        0 => [0, 1, rate - 1, rate, rate + 1, 2 * rate][rng.below(6)],
                        1 => rng.below(6 * rate),
                        2 => rng.below(1 << 16),
                        _ => rng.below(40 * rate),
                    };
                    rng.bytes(len)
                })
                .collect();
            let lens: Vec<usize> = (0..batch).map(|_| [0, 1, 32, rate, 3 * rate + 5][rng.below(5)]).collect();
            let mut got: Vec<Vec<u8>> = lens.iter().map(|&n| vec![0u8; n]).collect();
            let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
            let mut outputs: Vec<&mut [u8]> = got.iter_mut().map(|o| &mut o[..]).collect();
            hash_core::Xof::<A>::digest_xof_many_with_backend(b, &inputs, &mut outputs);
            for (i, (msg, out)) in msgs.iter().zip(&got).enumerate() {
                let mut want = vec![0u8; out.len()];
                hash_core::Xof::<A>::digest_xof_with_backend(Backend::Portable, msg, &mut want);
                assert_eq!(
                    *out,
                    want,
                    "{} [{b}] batch {batch} (equal lengths: {equal}), message {i} (len {})",
                    A::NAME,
                    msg.len()
                );
            }
        }
    }
    for b in backends() {
        check::<algorithm::Shake128>(b);
        check::<algorithm::Shake256>(b);
    }
}

#[test]
#[should_panic(expected = "Sha3_256::digest_many: 2 inputs but 1 output slots")]
fn digest_many_rejects_mismatched_slices() {
    Sha3_256::digest_many(&[b"a", b"b"], &mut [[0; 32]]);
}

#[test]
fn multi_buffer_scheduler() {
    testing::check_scheduler::<algorithm::Sha3_256>(Backend::Portable);
    testing::check_scheduler::<algorithm::Sha3_512>(Backend::Portable);
    testing::check_scheduler::<algorithm::Keccak256>(Backend::Portable);
}

#[test]
fn backend_listing() {
    testing::check_backend_api::<Backend>("sha3");
    // Built without the backend features (`--no-default-features`): every
    // variant is still listed, but only the portable code exists, so it is
    // the one backend available and the one detected.
    #[cfg(not(any(feature = "x86", feature = "avx2", feature = "avx512", feature = "aarch64", feature = "arm-sha3")))]
    {
        assert_eq!(
            Backend::all(),
            [Backend::Avx512, Backend::Avx2, Backend::X86, Backend::ArmSha3, Backend::Aarch64, Backend::Portable]
        );
        assert_eq!(Backend::available().collect::<Vec<_>>(), [Backend::Portable]);
        assert_eq!(Backend::detect(), Backend::Portable);
    }
}

#[test]
fn io_write() {
    use std::io::Write;
    let mut h = Sha3_256::new();
    h.write_all(A3).unwrap();
    assert_eq!(h.finalize(), Sha3_256::digest(A3));
    let mut x = Shake256::new();
    x.write_all(A3).unwrap();
    let mut got = [0u8; 200];
    x.finalize_xof().read(&mut got);
    assert_eq!(got, shake256(Backend::Portable, A3));
}

// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn digest_traits() {
    use hash_core::digest::{ExtendableOutput, Update, XofReader};
    fn generic<D: hash_core::digest::Digest>(data: &[u8]) -> Vec<u8> {
        D::digest(data).to_vec()
    }
    assert_eq!(generic::<Sha3_224>(ABC), Sha3_224::digest(ABC));
    assert_eq!(generic::<Sha3_256>(ABC), Sha3_256::digest(ABC));
    assert_eq!(generic::<Sha3_384>(ABC), Sha3_384::digest(ABC));
    assert_eq!(generic::<Sha3_512>(ABC), Sha3_512::digest(ABC));
    assert_eq!(generic::<Keccak256>(ABC), Keccak256::digest(ABC));
    assert_eq!(generic::<sha3::compat::Sha3_256>(ABC), Sha3_256::digest(ABC));
    assert_eq!(generic::<sha3::compat::Sha3_512>(ABC), Sha3_512::digest(ABC));
    assert_eq!(generic::<sha3::compat::Keccak256>(ABC), Keccak256::digest(ABC));

    fn xof<X: ExtendableOutput + Default + Update>(data: &[u8]) -> [u8; 200] {
        let mut x = X::default();
        x.update(data);
        let mut reader = x.finalize_xof();
        let mut out = [0u8; 200];
        reader.read(&mut out[..77]);
        reader.read(&mut out[77..]);
        out
    }
    assert_eq!(xof::<Shake128>(A3), shake128(Backend::Portable, A3));
    assert_eq!(xof::<Shake256>(ABC), shake256(Backend::Portable, ABC));
}

/// HMAC-SHA3-256 through `hmac` 0.12, both `Hmac<D>` (digest's core API)
/// and `SimpleHmac<D>` (any `Digest`). Expected values from Python's `hmac`
/// module with `hashlib.sha3_256` (an independent implementation): keys
/// shorter than, and longer than, the 136-byte block, and the empty key.
// Uses `compat` (the crate's `digest` feature).
#[cfg(feature = "digest")]
#[test]
fn hmac_sha3_256() {
    use hmac::{Hmac, Mac, SimpleHmac};
    let long_key: Vec<u8> = (0..200u8).collect();
    let cases: [(&[u8], &[u8], [u8; 32]); 3] = [
        (
            b"key",
            b"The quick brown fox jumps over the lazy dog",
            hex!("8c6e0683409427f8931711b10ca92a506eb1fafa48fadd66d76126f47ac2c333"),
        ),
        (
            &long_key,
            b"Test Using Larger Than Block-Size Key",
            hex!("d8837e2ce3638ad4577441dfb453ad6fae5fb68ceb5ac0c55a5dc7968ba4ad6a"),
        ),
        (b"", b"", hex!("e841c164e5b4f10c9f3985587962af72fd607a951196fc92fb3a5251941784ea")),
    ];
    for (i, (key, data, want)) in cases.iter().enumerate() {
        let mut mac = Hmac::<sha3::compat::Sha3_256>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..], want[..], "Hmac, case {i}");
        let mut mac = SimpleHmac::<Sha3_256>::new_from_slice(key).unwrap();
        mac.update(data);
        assert_eq!(mac.finalize().into_bytes()[..], want[..], "SimpleHmac, case {i}");
    }
}

/// Forcing a backend this CPU lacks is refused with an error or a panic
/// naming it, also through the raw `Algorithm::compress`; the XOFs too.
#[test]
fn forcing_an_unsupported_backend_is_an_error() {
    testing::check_forcing::<algorithm::Sha3_224>();
    testing::check_forcing::<algorithm::Sha3_256>();
    testing::check_forcing::<algorithm::Sha3_384>();
    testing::check_forcing::<algorithm::Sha3_512>();
    testing::check_forcing::<algorithm::Keccak256>();
    for &b in Backend::all() {
        assert_eq!(Shake128::try_with_backend(b).is_ok(), b.is_supported(), "SHAKE128 [{b}]");
        assert_eq!(Shake256::try_with_backend(b).is_ok(), b.is_supported(), "SHAKE256 [{b}]");
    }
}
