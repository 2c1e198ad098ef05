//! `hash_pairs` and `hash_prefixed_many` of SHA-256 and SHA-224 against
//! `digest` one message at a time, on every backend this CPU supports, for
//! every level size up to 40 (whole groups of the 8- and 16-lane engines
//! and every remainder), so that `cargo test -p sha256` (and the runs under
//! qemu with fewer CPU features) tests each pair engine this build has.

use hash_core::testing::{self, Rng};
use sha256::{Backend, Sha224, Sha256};

#[test]
fn pairs_match_digest_on_every_backend() {
    for b in testing::testable_backends::<Backend>("sha256") {
        for pairs in 0..=40usize {
            let data = Rng::new(pairs as u64 + 1).bytes(64 * pairs);
            let nodes: Vec<[u8; 32]> = data.chunks_exact(32).map(|c| c.try_into().unwrap()).collect();
            let mut out = vec![[0u8; 32]; pairs];
            Sha256::hash_pairs_with_backend(b, &nodes, &mut out);
            for (i, o) in out.iter().enumerate() {
                assert_eq!(
                    *o,
                    Sha256::digest_with_backend(b, &data[64 * i..64 * i + 64]),
                    "SHA-256 [{b}] pair {i} of {pairs}"
                );
            }
            let nodes: Vec<[u8; 28]> = data[..56 * pairs].chunks_exact(28).map(|c| c.try_into().unwrap()).collect();
            let mut out = vec![[0u8; 28]; pairs];
            Sha224::hash_pairs_with_backend(b, &nodes, &mut out);
            for (i, o) in out.iter().enumerate() {
                assert_eq!(
                    *o,
                    Sha224::digest_with_backend(b, &data[56 * i..56 * i + 56]),
                    "SHA-224 [{b}] pair {i} of {pairs}"
                );
            }
        }
    }
}

#[test]
fn one_byte_prefixes_match_digest_on_every_backend() {
    for b in testing::testable_backends::<Backend>("sha256") {
        for count in 0..=40usize {
            let data = Rng::new(1000 + count as u64).bytes(64 * count);
            // 64-byte bodies (RFC 9162's nodes), one shorter body among them
            // from 5 on.
            let mut bodies: Vec<&[u8]> = data.chunks_exact(64).collect();
            if count >= 5 {
                bodies[count / 2] = &bodies[count / 2][..63];
            }
            for prefix in [0u8, 1] {
                let mut out = vec![[0u8; 32]; count];
                Sha256::hash_prefixed_many_with_backend(b, &[prefix], &bodies, &mut out);
                let mut out224 = vec![[0u8; 28]; count];
                Sha224::hash_prefixed_many_with_backend(b, &[prefix], &bodies, &mut out224);
                for (i, body) in bodies.iter().enumerate() {
                    let joined = [&[prefix][..], body].concat();
                    assert_eq!(
                        out[i],
                        Sha256::digest_with_backend(b, &joined),
                        "SHA-256 [{b}] prefix {prefix}, {i} of {count}"
                    );
                    assert_eq!(
                        out224[i],
                        Sha224::digest_with_backend(b, &joined),
                        "SHA-224 [{b}] prefix {prefix}, {i} of {count}"
                    );
                }
            }
        }
    }
}
