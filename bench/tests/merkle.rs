//! Merkle trees (`hash_core::merkle`) and the batch operations they are
//! built on (`hash_pairs`, `hash_prefixed_many`), for every fixed-output
//! type and every backend this CPU supports:
//!
//! * tree roots, every inclusion proof and every consistency proof of the
//!   small trees, and SSZ roots, against `tests/data/merkle.txt`, written by
//!   a line-by-line Python reference on hashlib (`gen_merkle.py`); a test
//!   fails if the file is stale;
//! * proofs made here for every leaf and pair of sizes up to 130 verify, and
//!   tampered proofs, swapped siblings, wrong indices and sizes are refused;
//! * `hash_pairs` and `hash_prefixed_many` against one-by-one `digest` for
//!   every level size 0..=130, and their length checks.
#![cfg(all(feature = "md5", feature = "sha1", feature = "sha256", feature = "sha512", feature = "sha3"))]

use hash_core::merkle::{
    self, MerkleError, MerkleTree, TreeHash, consistency_proof_with_backend, inclusion_proof_with_backend,
    ssz_root_with_backend, verify_consistency_with_backend, verify_inclusion_with_backend,
};
use hash_core::testing::{Rng, say, testable_backends};
use hash_core::{Algorithm, BackendKind, BatchError, FixedAlgorithm, Hasher, OutputBytes};

type Node<H> = merkle::Node<H>;
type Backend<H> = merkle::BackendOf<H>;

fn leaf(i: usize) -> Vec<u8> {
    (0..(i * 7) % 70).map(|j| ((i * 31 + j * 7 + 1) % 256) as u8).collect()
}

fn chunk<N: OutputBytes>(i: usize) -> N {
    let mut c = N::zeroed();
    for (j, b) in c.as_mut().iter_mut().enumerate() {
        *b = ((i * 13 + j * 5 + 3) % 256) as u8;
    }
    c
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn proof_hex<N: OutputBytes>(nodes: &[N]) -> String {
    if nodes.is_empty() { "-".into() } else { nodes.iter().map(|n| hex(n.as_ref())).collect::<Vec<_>>().join(":") }
}

const VECTORS: &str = include_str!("data/merkle.txt");

/// The vector records of one algorithm, split into words.
fn records(alg: &str) -> Vec<Vec<&'static str>> {
    VECTORS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(' ').collect::<Vec<_>>())
        .filter(|w| w.len() >= 2 && w[1] == alg)
        .collect()
}

/// Every record of `alg` against our trees, on `backend`; returns how many
/// were checked.
fn check_vectors<H: TreeHash>(alg: &str, backend: Backend<H>) -> usize {
    let recs = records(alg);
    assert!(!recs.is_empty(), "{alg}: no vectors in merkle.txt");
    let max = recs
        .iter()
        .filter(|w| w[0] != "ssz")
        .map(|w| w[2].parse::<usize>().unwrap().max(w[3].parse::<usize>().unwrap_or(0)))
        .max()
        .unwrap_or(0);
    let data: Vec<Vec<u8>> = (0..max).map(leaf).collect();
    let leaves: Vec<&[u8]> = data.iter().map(|l| l.as_slice()).collect();
    let mut buf = vec![Node::<H>::zeroed(); 64];
    for w in &recs {
        let what = w.join(" ");
        match w[0] {
            "root" => {
                let n: usize = w[2].parse().unwrap();
                let mut tree = MerkleTree::<H>::with_backend(backend).unwrap();
                tree.push_many(&leaves[..n]);
                assert_eq!(hex(tree.root().as_ref()), w[3], "{what} [{}]", backend.name());
            }
            "inclusion" => {
                let (n, m): (usize, u64) = (w[2].parse().unwrap(), w[3].parse().unwrap());
                let len = inclusion_proof_with_backend::<H>(backend, &leaves[..n], m, &mut buf).unwrap();
                assert_eq!(proof_hex(&buf[..len]), w[4], "{what} [{}]", backend.name());
            }
            "consistency" => {
                let (m, n): (u64, usize) = (w[2].parse().unwrap(), w[3].parse().unwrap());
                let len = consistency_proof_with_backend::<H>(backend, &leaves[..n], m, &mut buf).unwrap();
                assert_eq!(proof_hex(&buf[..len]), w[4], "{what} [{}]", backend.name());
            }
            "ssz" => {
                let count: usize = w[2].parse().unwrap();
                let limit = if w[3] == "none" { None } else { Some(w[3].parse().unwrap()) };
                let chunks: Vec<Node<H>> = (0..count).map(chunk).collect();
                let root = ssz_root_with_backend::<H>(backend, &chunks, limit).unwrap();
                assert_eq!(hex(root.as_ref()), w[4], "{what} [{}]", backend.name());
            }
            other => panic!("merkle.txt: unknown record kind {other:?}"),
        }
    }
    recs.len()
}

/// Proofs for every leaf and every pair of sizes up to `max` verify, and
/// every tampering is refused.
fn check_proofs<H: TreeHash>(backend: Backend<H>, max: usize) {
    let data: Vec<Vec<u8>> = (0..max).map(leaf).collect();
    let leaves: Vec<&[u8]> = data.iter().map(|l| l.as_slice()).collect();
    let mut roots = Vec::new();
    let mut tree = MerkleTree::<H>::with_backend(backend).unwrap();
    roots.push(tree.root());
    for l in &leaves {
        tree.push(l);
        roots.push(tree.root());
    }
    let leaf_hashes: Vec<Node<H>> = leaves
        .iter()
        .map(|l| {
            let mut out = [Node::<H>::zeroed()];
            Hasher::<H::Algorithm>::hash_prefixed_many_with_backend(backend, &[0], &[l], &mut out);
            out[0]
        })
        .collect();
    let mut proof = vec![Node::<H>::zeroed(); 64];
    let flip = |n: &mut Node<H>, bit: usize| {
        let bytes = n.as_mut();
        let len = bytes.len();
        bytes[bit / 8 % len] ^= 1 << (bit % 8);
    };
    for n in 1..=max {
        let size = n as u64;
        for m in 0..n {
            let idx = m as u64;
            let len = inclusion_proof_with_backend::<H>(backend, &leaves[..n], idx, &mut proof).unwrap();
            let p = &proof[..len];
            let lh = &leaf_hashes[m];
            verify_inclusion_with_backend::<H>(backend, lh, idx, size, p, &roots[n])
                .unwrap_or_else(|e| panic!("inclusion {m} of {n} [{}]: {e}", backend.name()));
            // Tampered: each node of the proof, the leaf, the root.
            for i in 0..len {
                let mut bad = p.to_vec();
                flip(&mut bad[i], i * 13 + m);
                let r = verify_inclusion_with_backend::<H>(backend, lh, idx, size, &bad, &roots[n]);
                assert_eq!(r, Err(MerkleError::Mismatch), "tampered node {i}: inclusion {m} of {n}");
            }
            let mut bad_leaf = *lh;
            flip(&mut bad_leaf, m);
            assert!(verify_inclusion_with_backend::<H>(backend, &bad_leaf, idx, size, p, &roots[n]).is_err());
            let mut bad_root = roots[n];
            flip(&mut bad_root, n);
            assert!(verify_inclusion_with_backend::<H>(backend, lh, idx, size, p, &bad_root).is_err());
            // Swapped siblings.
            if len >= 2 && p[0] != p[1] {
                let mut bad = p.to_vec();
                bad.swap(0, 1);
                assert!(verify_inclusion_with_backend::<H>(backend, lh, idx, size, &bad, &roots[n]).is_err());
            }
            // Another index, another size, a proof one node short or long.
            for other in [idx ^ 1, idx + 1] {
                if other != idx && other < size && leaf_hashes[other as usize] != *lh {
                    let r = verify_inclusion_with_backend::<H>(backend, lh, other, size, p, &roots[n]);
                    assert!(r.is_err(), "inclusion {m} of {n} accepted as {other}");
                }
            }
            // The next tree's root with this tree's proof (the size alone is
            // not authenticated: only the root binds it).
            if n < max {
                let mut next = vec![Node::<H>::zeroed(); 64];
                let next_len = inclusion_proof_with_backend::<H>(backend, &leaves[..n + 1], idx, &mut next).unwrap();
                if next[..next_len] != *p {
                    let r = verify_inclusion_with_backend::<H>(backend, lh, idx, size + 1, p, &roots[n + 1]);
                    assert!(r.is_err(), "inclusion {m} of {n} accepted in the tree of {}", n + 1);
                }
            }
            if len > 0 {
                let r = verify_inclusion_with_backend::<H>(backend, lh, idx, size, &p[..len - 1], &roots[n]);
                assert_eq!(r, Err(MerkleError::ProofLength { expected: len, got: len - 1 }));
            }
            let long: Vec<Node<H>> = p.iter().copied().chain([roots[n]]).collect();
            let r = verify_inclusion_with_backend::<H>(backend, lh, idx, size, &long, &roots[n]);
            assert_eq!(r, Err(MerkleError::ProofLength { expected: len, got: len + 1 }));
        }
        let r = verify_inclusion_with_backend::<H>(backend, &leaf_hashes[0], size, size, &[], &roots[n]);
        assert_eq!(r, Err(MerkleError::IndexOutOfRange { index: size, size }));
        let r = inclusion_proof_with_backend::<H>(backend, &leaves[..n], size, &mut proof);
        assert_eq!(r, Err(MerkleError::IndexOutOfRange { index: size, size }));

        for first in 0..=n {
            let f = first as u64;
            let len = consistency_proof_with_backend::<H>(backend, &leaves[..n], f, &mut proof).unwrap();
            let p = &proof[..len];
            verify_consistency_with_backend::<H>(backend, f, size, &roots[first], &roots[n], p)
                .unwrap_or_else(|e| panic!("consistency {first} -> {n} [{}]: {e}", backend.name()));
            if first == 0 {
                continue;
            }
            for i in 0..len {
                let mut bad = p.to_vec();
                flip(&mut bad[i], i * 7 + first);
                let r = verify_consistency_with_backend::<H>(backend, f, size, &roots[first], &roots[n], &bad);
                assert!(r.is_err(), "tampered node {i}: consistency {first} -> {n}");
            }
            let mut bad = roots[first];
            flip(&mut bad, first);
            assert!(verify_consistency_with_backend::<H>(backend, f, size, &bad, &roots[n], p).is_err());
            let mut bad = roots[n];
            flip(&mut bad, n);
            assert!(verify_consistency_with_backend::<H>(backend, f, size, &roots[first], &bad, p).is_err());
            if len >= 2 && p[0] != p[1] {
                let mut bad = p.to_vec();
                bad.swap(0, 1);
                let r = verify_consistency_with_backend::<H>(backend, f, size, &roots[first], &roots[n], &bad);
                assert!(r.is_err(), "swapped: consistency {first} -> {n}");
            }
            if first < n {
                // The roots of other sizes with this proof.
                let r = verify_consistency_with_backend::<H>(backend, f - 1, size, &roots[first - 1], &roots[n], p);
                assert!(r.is_err(), "consistency {first} -> {n} accepted for first = {}", first - 1);
            }
            let r = verify_consistency_with_backend::<H>(backend, size, f, &roots[n], &roots[first], p);
            if first < n {
                assert_eq!(r, Err(MerkleError::SizesOutOfOrder { first: size, second: f }));
            }
        }
        let r = consistency_proof_with_backend::<H>(backend, &leaves[..n], size + 1, &mut proof);
        assert_eq!(r, Err(MerkleError::SizesOutOfOrder { first: size + 1, second: size }));
    }
    // A buffer too small is an error, not a panic.
    if max >= 3 {
        let r = inclusion_proof_with_backend::<H>(backend, &leaves[..3], 0, &mut proof[..1]);
        assert_eq!(r, Err(MerkleError::BufferTooSmall { needed: 2, got: 1 }));
    }
}

/// `hash_pairs` and `hash_prefixed_many` against one-by-one `digest`, for
/// every level size up to 130.
fn check_pairs<A: FixedAlgorithm>(backend: A::Backend) {
    let mut rng = Rng::new(0x6d65_726b);
    for pairs in 0..=130usize {
        let nodes: Vec<A::Output> = (0..2 * pairs)
            .map(|_| {
                let mut n = A::Output::zeroed();
                rng.fill(n.as_mut());
                n
            })
            .collect();
        let mut out = vec![A::Output::zeroed(); pairs];
        Hasher::<A>::hash_pairs_with_backend(backend, &nodes, &mut out);
        for (i, o) in out.iter().enumerate() {
            let joined = [nodes[2 * i].as_ref(), nodes[2 * i + 1].as_ref()].concat();
            assert_eq!(
                *o,
                Hasher::<A>::digest(&joined),
                "{} hash_pairs [{}] pair {i} of {pairs}",
                A::NAME,
                backend.name()
            );
        }
        // Prefixed: several prefixes, bodies of mixed lengths (some past the
        // gathering buffer).
        let bodies: Vec<Vec<u8>> = (0..pairs)
            .map(|i| {
                let len = if i % 17 == 16 { 5000 + i } else { rng.below(300) };
                rng.bytes(len)
            })
            .collect();
        let refs: Vec<&[u8]> = bodies.iter().map(|b| b.as_slice()).collect();
        for prefix in [&b""[..], &[0u8], &[1u8, 2, 3], &[7u8; 130]] {
            let mut out = vec![A::Output::zeroed(); pairs];
            Hasher::<A>::hash_prefixed_many_with_backend(backend, prefix, &refs, &mut out);
            for (i, o) in out.iter().enumerate() {
                let joined = [prefix, refs[i]].concat();
                assert_eq!(
                    *o,
                    Hasher::<A>::digest(&joined),
                    "{} hash_prefixed_many [{}] {i} of {pairs}",
                    A::NAME,
                    backend.name()
                );
            }
        }
        // RFC 9162's shape: a one-byte prefix and 64-byte bodies (SHA-256's
        // 65-byte lanes engine), with one body of another length among
        // them where there are enough (that group goes the general way).
        let mut bodies: Vec<Vec<u8>> = (0..pairs).map(|_| rng.bytes(64)).collect();
        if pairs > 40 {
            bodies[37] = rng.bytes(63);
        }
        let refs: Vec<&[u8]> = bodies.iter().map(|b| b.as_slice()).collect();
        for prefix in [[0u8], [1u8]] {
            let mut out = vec![A::Output::zeroed(); pairs];
            Hasher::<A>::hash_prefixed_many_with_backend(backend, &prefix, &refs, &mut out);
            for (i, o) in out.iter().enumerate() {
                let joined = [&prefix[..], refs[i]].concat();
                assert_eq!(
                    *o,
                    Hasher::<A>::digest(&joined),
                    "{} hash_prefixed_many, 64-byte bodies [{}] {i} of {pairs}",
                    A::NAME,
                    backend.name()
                );
            }
        }
    }
    // Length checks: an error from the try_ forms, a panic naming the type
    // from the others.
    let nodes = vec![A::Output::zeroed(); 5];
    let mut out = vec![A::Output::zeroed(); 2];
    let e = Hasher::<A>::try_hash_pairs_with_backend(backend, &nodes, &mut out).unwrap_err();
    assert_eq!(e, BatchError::Length { function: "hash_pairs", inputs: 5, outputs: 2, expected_inputs: 4 });
    let e = Hasher::<A>::try_hash_prefixed_many(b"", &[b"a"], &mut out).unwrap_err();
    assert!(matches!(e, BatchError::Length { function: "hash_prefixed_many", inputs: 1, outputs: 2, .. }));
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Hasher::<A>::hash_pairs(&nodes, &mut out)))
        .unwrap_err();
    let msg = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    let ty = std::any::type_name::<A>().rsplit("::").next().unwrap();
    assert!(msg.starts_with(&format!("{ty}::hash_pairs: 5 inputs but 2 output slots")), "{msg}");
    // The algorithm's own engine (reachable from safe code) says the same,
    // on every backend this CPU has (SHA-256's SHA-NI pair engine included).
    for b in A::Backend::available() {
        let panic =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| A::hash_pairs(b, &nodes, &mut out))).unwrap_err();
        let msg = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.starts_with(&format!("{ty}::hash_pairs: 5 inputs but 2 output slots")), "[{}] {msg}", b.name());
    }
    // An unsupported backend: the try_ forms' error names the type, the
    // panics the type and the function.
    let mut out = vec![A::Output::zeroed(); 1];
    for &b in A::Backend::ALL.iter().filter(|b| !b.is_supported()) {
        let Err(BatchError::Unsupported(e)) = Hasher::<A>::try_hash_pairs_with_backend(b, &nodes[..2], &mut out) else {
            panic!("{ty}: try_hash_pairs_with_backend accepted {}", b.name())
        };
        assert_eq!(e.called, ty);
        assert!(e.to_string().starts_with(&format!("{ty}: the `{}` backend", b.name())), "{e}");
        let Err(BatchError::Unsupported(e)) =
            Hasher::<A>::try_hash_prefixed_many_with_backend(b, b"", &[b"a"], &mut out)
        else {
            panic!("{ty}: try_hash_prefixed_many_with_backend accepted {}", b.name())
        };
        assert_eq!(e.called, ty);
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Hasher::<A>::hash_pairs_with_backend(b, &nodes[..2], &mut out)
        }))
        .unwrap_err();
        let msg = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        let want = format!("{ty}::hash_pairs_with_backend: the `{}` backend is not supported", b.name());
        assert!(msg.starts_with(&want), "{msg}");
    }
}

/// Forcing a backend this CPU lacks is an error from every constructor.
fn check_unsupported<H: TreeHash>() {
    for &b in Backend::<H>::ALL {
        if !b.is_supported() {
            let Err(MerkleError::Unsupported(e)) = MerkleTree::<H>::with_backend(b) else {
                panic!("MerkleTree::with_backend accepted {}", b.name())
            };
            // The error names the hasher's type (`Sha256: the ...`).
            let ty = std::any::type_name::<H::Algorithm>().rsplit("::").next().unwrap();
            assert_eq!(e.called, ty);
            assert!(e.to_string().starts_with(&format!("{ty}: the `{}` backend", b.name())), "{e}");
            let r = ssz_root_with_backend::<H>(b, &[], None);
            assert!(matches!(r, Err(MerkleError::Unsupported(e)) if e.called == ty));
        }
    }
}

macro_rules! each_type {
    ($f:ident ( $($arg:tt)* )) => {{
        $f::<md5::Md5>("md5", $($arg)*);
        $f::<sha1::Sha1>("sha1", $($arg)*);
        $f::<sha256::Sha224>("sha224", $($arg)*);
        $f::<sha256::Sha256>("sha256", $($arg)*);
        $f::<sha512::Sha384>("sha384", $($arg)*);
        $f::<sha512::Sha512>("sha512", $($arg)*);
        $f::<sha512::Sha512_224>("sha512_224", $($arg)*);
        $f::<sha512::Sha512_256>("sha512_256", $($arg)*);
        $f::<sha3::Sha3_224>("sha3_224", $($arg)*);
        $f::<sha3::Sha3_256>("sha3_256", $($arg)*);
        $f::<sha3::Sha3_384>("sha3_384", $($arg)*);
        $f::<sha3::Sha3_512>("sha3_512", $($arg)*);
    }};
}

fn vectors_on_every_backend<H: TreeHash>(alg: &str) {
    for backend in testable_backends::<Backend<H>>(alg) {
        let n = check_vectors::<H>(alg, backend);
        say(format_args!("merkle {alg} [{}]: {n} vector records match", backend.name()));
    }
    check_unsupported::<H>();
}

#[test]
fn trees_and_proofs_match_the_python_reference() {
    each_type!(vectors_on_every_backend());
}

fn proofs_on_every_backend<H: TreeHash>(alg: &str, max: usize) {
    for backend in testable_backends::<Backend<H>>(alg) {
        check_proofs::<H>(backend, max);
    }
}

#[test]
fn every_proof_verifies_and_tampering_is_refused() {
    proofs_on_every_backend::<sha256::Sha256>("sha256", 130);
    proofs_on_every_backend::<sha3::Sha3_256>("sha3_256", 70);
    proofs_on_every_backend::<md5::Md5>("md5", 40);
    proofs_on_every_backend::<sha1::Sha1>("sha1", 40);
    proofs_on_every_backend::<sha512::Sha512>("sha512", 40);
}

fn pairs_on_every_backend<H: TreeHash>(alg: &str) {
    for backend in testable_backends::<Backend<H>>(alg) {
        check_pairs::<H::Algorithm>(backend);
    }
}

#[test]
fn hash_pairs_and_prefixed_match_one_by_one() {
    each_type!(pairs_on_every_backend());
    // Not in `each_type!`: Python's hashlib, the tree vectors' reference,
    // has no Keccak-256.
    pairs_on_every_backend::<sha3::Keccak256>("keccak256");
}

#[test]
fn large_tree_batched_equals_leaf_by_leaf() {
    // Pushes of odd slice lengths at odd offsets cross every alignment.
    let data: Vec<Vec<u8>> = (0..5000).map(leaf).collect();
    let leaves: Vec<&[u8]> = data.iter().map(|l| l.as_slice()).collect();
    for backend in testable_backends::<sha256::Backend>("sha256") {
        let mut one = MerkleTree::<sha256::Sha256>::with_backend(backend).unwrap();
        let mut batched = MerkleTree::<sha256::Sha256>::with_backend(backend).unwrap();
        let mut at = 0;
        let mut step = 1;
        while at < leaves.len() {
            let end = (at + step).min(leaves.len());
            batched.push_many(&leaves[at..end]);
            for l in &leaves[at..end] {
                one.push(l);
            }
            assert_eq!(batched.root(), one.root(), "after {end} leaves [{}]", backend.name());
            at = end;
            step = step * 3 % 199 + 1;
        }
        assert_eq!(batched.size(), 5000);
    }
}

#[test]
fn merkle_vectors_are_up_to_date() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out =
        match std::process::Command::new("python3").arg("bench/tests/data/gen_merkle.py").current_dir(root).output() {
            Ok(out) => out,
            Err(e) => {
                say(format_args!("merkle_vectors_are_up_to_date: SKIPPED: python3 cannot be run here ({e})"));
                return;
            }
        };
    assert!(out.status.success(), "gen_merkle.py failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout) == VECTORS,
        "bench/tests/data/merkle.txt is stale: regenerate it with \
         `python3 bench/tests/data/gen_merkle.py > bench/tests/data/merkle.txt`"
    );
}

#[test]
fn errors_say_what_is_wrong() {
    let e = MerkleError::IndexOutOfRange { index: 7, size: 5 };
    assert_eq!(e.to_string(), "leaf index 7 is outside a tree of 5 leaves");
    let e = ssz_root_with_backend::<sha256::Sha256>(sha256::Backend::Portable, &[[0u8; 32]; 5], Some(4)).unwrap_err();
    assert_eq!(e, MerkleError::TooManyLeaves { leaves: 5, limit: 4 });
    let _ = <sha256::algorithm::Sha256 as Algorithm>::NAME;
}
