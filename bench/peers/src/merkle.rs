//! The report's Merkle section (`--merkle PAIRS,LEAVES`): one level of a
//! binary hash tree (SHA-256 of `PAIRS` 64-byte pairs of 32-byte nodes) and
//! the RFC 9162 root of a tree of `LEAVES` 64-byte leaves, ours beside
//! prysm's hashtree (`hashtree-rs`), `tape-sha256` and `rs_merkle` on
//! RustCrypto's `sha2` 0.10.
//!
//! Every way is run once and its output compared with SHA-256 one message at
//! a time (pairs) or with our `MerkleTree` (root) before it is timed; one
//! that disagrees is left out with a `note`. The ways are then timed
//! interleaved, as the other tables are.
//!
//! Then the same level for the other algorithms with a pair engine
//! (SHA-512, SHA3-256, Keccak-256): our `hash_pairs` beside our
//! `digest_many` over the same messages and RustCrypto's 0.10 crates one
//! pair at a time.
//!
//! Output lines: `merkle <case> <label> <baseline 0|1> <items> <median ns>
//! <min ns> <max ns> <rounds>`, `case` being `pairs` (items: pairs in the
//! level; ns per level), `root` (items: leaves; ns per root) or
//! `pairs:<algorithm>` (another algorithm's level).

use std::io::Write;
use std::time::Duration;

use crate::{checked_interleaved, interleaved};

type Node = [u8; 32];

/// Writes a level's digests into `out` from the nodes it holds.
type LevelFn<'a> = Box<dyn Fn(&mut [Node]) + 'a>;

/// One way to hash a level of pairs.
struct PairWay<'a> {
    label: String,
    baseline: bool,
    run: LevelFn<'a>,
}

/// One way to compute a tree's root from the leaves it holds.
struct RootWay<'a> {
    label: String,
    baseline: bool,
    run: Box<dyn Fn() -> Node + 'a>,
}

/// SHA-256 of one message, on our crate's portable backend when it is built
/// (an engine independent of the ones timed), else RustCrypto's.
fn reference_sha256(msg: &[u8]) -> Option<Node> {
    #[cfg(feature = "merkle")]
    {
        use hash_core::BackendKind;
        let portable = *ours256::Backend::ALL.last().expect("portable is last");
        Some(ours256::Sha256::digest_with_backend(portable, msg))
    }
    #[cfg(all(not(feature = "merkle"), feature = "rs-merkle"))]
    {
        use sha2_0_10::Digest;
        Some(sha2_0_10::Sha256::digest(msg).into())
    }
    #[cfg(not(any(feature = "merkle", feature = "rs-merkle")))]
    {
        let _ = msg;
        None
    }
}

/// How many ways there are to time (for the plan line): pairs, then root.
pub(crate) fn plan() -> usize {
    3
}

/// Measure both cases; `pairs` and `leaves` sized as asked.
pub(crate) fn run(pairs: usize, leaves: usize, rounds: usize, round: Duration, n: &mut usize) {
    *n += 1;
    emit!("progress", *n, format!("Merkle: SHA-256 of {pairs} pairs of 32-byte nodes"));
    level(pairs, rounds, round);
    *n += 1;
    emit!("progress", *n, format!("Merkle: RFC 9162 root of {leaves} leaves of 64 bytes"));
    root(leaves, rounds, round);
    *n += 1;
    emit!("progress", *n, format!("Merkle: {pairs} pairs with SHA-512, SHA3-256 and Keccak-256"));
    other_levels(pairs, rounds, round);
}

/// A way to hash a level of `N`-byte nodes.
type OtherFn<'a, const N: usize> = Box<dyn Fn(&mut [[u8; N]]) + 'a>;

/// The other algorithms' levels (`pairs:<algorithm>` lines).
fn other_levels(pairs: usize, rounds: usize, round: Duration) {
    // One algorithm's level of `$n`-byte nodes: `$ours::$ty` (our crate
    // and hasher) and RustCrypto's 0.10 hasher `$rc_crate::$rc`.
    #[cfg(feature = "merkle")]
    macro_rules! level {
        ($alg:literal, $n:literal, $ours:ident, $ty:ident, $rc_crate:ident :: $rc:ident, $rc_label:literal) => {{
            use hash_core::BackendKind;
            let backend = $ours::Backend::detect().name();
            let portable = *$ours::Backend::ALL.last().expect("portable is last");
            other_level::<$n>($alg, pairs, rounds, round, |nodes, messages| {
                let want = messages.iter().map(|m| $ours::$ty::digest_with_backend(portable, m)).collect();
                #[cfg_attr(not(feature = "rustcrypto-0_10"), allow(unused_mut))]
                let mut ways: Vec<(String, bool, OtherFn<'_, $n>)> = vec![
                    (
                        format!("ours {}::hash_pairs ({backend})", stringify!($ty)),
                        true,
                        Box::new(move |out| $ours::$ty::hash_pairs(nodes, out)),
                    ),
                    (
                        format!("ours {}::digest_many, {}-byte messages ({backend})", stringify!($ty), 2 * $n),
                        false,
                        Box::new(move |out| $ours::$ty::digest_many(messages, out)),
                    ),
                ];
                #[cfg(feature = "rustcrypto-0_10")]
                ways.push((
                    concat!("RustCrypto ", $rc_label, ", one pair at a time").into(),
                    false,
                    Box::new(move |out| {
                        use $rc_crate::Digest as _;
                        for (o, pair) in out.iter_mut().zip(nodes.chunks_exact(2)) {
                            *o = $rc_crate::$rc::new().chain_update(pair[0]).chain_update(pair[1]).finalize().into();
                        }
                    }),
                ));
                (want, ways)
            });
        }};
    }
    #[cfg(feature = "merkle")]
    {
        level!("SHA-512", 64, ours512, Sha512, sha2_0_10::Sha512, "sha2 0.10");
        level!("SHA3-256", 32, ours3, Sha3_256, sha3_0_10::Sha3_256, "sha3 0.10");
        level!("Keccak-256", 32, ours3, Keccak256, sha3_0_10::Keccak256, "sha3 0.10 Keccak256");
    }
    #[cfg(not(feature = "merkle"))]
    {
        let _ = (pairs, rounds, round);
        emit!("note", "merkle", "pairs:other", "our crates are not in this build (feature `merkle` off)");
    }
}

/// One algorithm's level of `pairs` pairs of `N`-byte nodes: `make` gives
/// the expected digests (ours, portable backend, one message at a time) and
/// the ways to time; a way whose output differs is left out with a note.
#[cfg_attr(not(feature = "merkle"), allow(dead_code))]
fn other_level<'a, const N: usize>(
    alg: &str,
    pairs: usize,
    rounds: usize,
    round: Duration,
    make: impl FnOnce(&'a [[u8; N]], &'a [&'a [u8]]) -> (Vec<[u8; N]>, Vec<(String, bool, OtherFn<'a, N>)>),
) {
    // Leaked (a few hundred KiB, once per algorithm): the ways `make`
    // returns borrow the level for as long as they are timed, and the
    // program ends after the section.
    let flat: &'a [u8] = Vec::leak(bench::message(2 * N * pairs, 0x6c76_6c32));
    let (nodes, _) = flat.as_chunks::<N>();
    let messages: &'a [&'a [u8]] = Vec::leak(flat.chunks_exact(2 * N).collect());
    let (want, ways) = make(nodes, messages);
    let case = format!("pairs:{alg}");
    let differs = format!("left out: its digests differ from {alg} one pair at a time");
    for (label, baseline, (median, min, max)) in
        checked_interleaved("merkle", ways, &want, [0u8; N], &differs, rounds, round)
    {
        emit!("merkle", &case, &label, u8::from(baseline), pairs, median, min, max, rounds);
    }
}

// With some of the optional ways left out of the build, the list may never
// grow and some inputs go unused.
#[cfg_attr(
    not(all(feature = "merkle", feature = "hashtree", feature = "tape", feature = "rs-merkle")),
    allow(unused_mut, unused_variables)
)]
fn level(pairs: usize, rounds: usize, round: Duration) {
    let flat = bench::message(64 * pairs, 0x6d65_726b);
    let (nodes, _) = flat.as_chunks::<32>();
    let messages: Vec<&[u8]> = flat.chunks_exact(64).collect();
    let Some(want) = messages.iter().map(|m| reference_sha256(m)).collect::<Option<Vec<Node>>>() else {
        emit!("note", "merkle", "all", "no SHA-256 reference in this build (features `merkle` and `rs-merkle` off)");
        return;
    };
    let mut ways: Vec<PairWay<'_>> = Vec::new();
    #[cfg(feature = "merkle")]
    {
        let backend = ours256::Backend::detect().name();
        ways.push(PairWay {
            label: format!("ours Sha256::hash_pairs ({backend})"),
            baseline: true,
            run: Box::new(move |out| ours256::Sha256::hash_pairs(nodes, out)),
        });
        let messages = &messages;
        ways.push(PairWay {
            label: format!("ours Sha256::digest_many, 64-byte messages ({backend})"),
            baseline: false,
            run: Box::new(move |out| ours256::Sha256::digest_many(messages, out)),
        });
    }
    #[cfg(feature = "hashtree")]
    {
        hashtree_rs::init();
        let flat = &flat;
        ways.push(PairWay {
            label: "hashtree-rs hashtree_hash (its pick)".into(),
            baseline: false,
            run: Box::new(move |out| {
                let count = out.len();
                hashtree_rs::hash(out.as_flattened_mut(), flat, count)
            }),
        });
        #[cfg(target_arch = "x86_64")]
        for (name, f, feature) in hashtree_x86::KERNELS {
            if feature() {
                ways.push(PairWay {
                    label: format!("hashtree-rs {name}"),
                    baseline: false,
                    run: Box::new(move |out| hashtree_x86::call(*f, out, flat)),
                });
            }
        }
    }
    #[cfg(feature = "tape")]
    {
        let left: Vec<&[u8]> = nodes.iter().step_by(2).map(|n| &n[..]).collect();
        let right: Vec<&[u8]> = nodes.iter().skip(1).step_by(2).map(|n| &n[..]).collect();
        let backend = tape_sha256::backend();
        ways.push(PairWay {
            label: format!("tape-sha256 hash_pairs ({backend})"),
            baseline: false,
            run: Box::new(move |out| tape_sha256::hash_pairs(&[], &left, &right, out)),
        });
        let messages = &messages;
        ways.push(PairWay {
            label: format!("tape-sha256 hash_many, 64-byte messages ({backend})"),
            baseline: false,
            run: Box::new(move |out| tape_sha256::hash_many(messages, out)),
        });
    }
    let ways = ways.into_iter().map(|w| (w.label, w.baseline, w.run)).collect();
    let differs = "left out: its digests differ from SHA-256 one pair at a time";
    for (label, baseline, (median, min, max)) in
        checked_interleaved("merkle", ways, &want, [0u8; 32], differs, rounds, round)
    {
        emit!("merkle", "pairs", &label, u8::from(baseline), pairs, median, min, max, rounds);
    }
}

// With some of the optional ways left out of the build, the list may never
// grow and some inputs go unused.
#[cfg_attr(
    not(all(feature = "merkle", feature = "hashtree", feature = "tape", feature = "rs-merkle")),
    allow(unused_mut, unused_variables)
)]
fn root(leaves: usize, rounds: usize, round: Duration) {
    let flat = bench::message(64 * leaves, 0x7266_6339);
    let leaf_refs: Vec<&[u8]> = flat.chunks_exact(64).collect();
    let mut ways: Vec<RootWay<'_>> = Vec::new();
    #[cfg(feature = "merkle")]
    {
        let backend = ours256::Backend::detect().name();
        let leaf_refs = &leaf_refs;
        ways.push(RootWay {
            label: format!("ours MerkleTree::push_many ({backend})"),
            baseline: true,
            run: Box::new(move || {
                let mut tree = hash_core::merkle::MerkleTree::<ours256::Sha256>::new();
                tree.push_many(leaf_refs);
                tree.root()
            }),
        });
    }
    #[cfg(feature = "rs-merkle")]
    {
        let leaf_refs = &leaf_refs;
        ways.push(RootWay {
            label: "rs_merkle 1.5 on sha2 0.10 (leaves hashed first)".into(),
            baseline: false,
            run: Box::new(move || {
                use sha2_0_10::Digest;
                let hashes: Vec<Node> = leaf_refs
                    .iter()
                    .map(|l| sha2_0_10::Sha256::new().chain_update([0u8]).chain_update(l).finalize().into())
                    .collect();
                rs_merkle::MerkleTree::<Rfc9162Node>::from_leaves(&hashes).root().unwrap_or([0; 32])
            }),
        });
    }
    let Some(want) = ways.first().map(|w| (w.run)()) else {
        emit!("note", "merkle", "all", "no tree implementation in this build (features `merkle` and `rs-merkle` off)");
        return;
    };
    let first = ways[0].label.clone();
    let ways: Vec<RootWay<'_>> = ways
        .into_iter()
        .filter(|w| {
            let ok = (w.run)() == want;
            if !ok {
                emit!("note", "merkle", &w.label, format!("left out: its root differs from {first}'s"));
            }
            ok
        })
        .collect();
    let runs: Vec<Box<dyn Fn(u64) -> u8 + '_>> = ways
        .iter()
        .map(|w| {
            Box::new(move |iters: u64| {
                let mut x = 0;
                for _ in 0..iters {
                    x ^= (w.run)()[0];
                }
                x
            }) as Box<dyn Fn(u64) -> u8>
        })
        .collect();
    let refs: Vec<&dyn Fn(u64) -> u8> = runs.iter().map(|b| b.as_ref()).collect();
    for (w, (median, min, max)) in ways.iter().zip(interleaved(&refs, rounds, round)) {
        emit!("merkle", "root", &w.label, u8::from(w.baseline), leaves, median, min, max, rounds);
    }
}

/// RFC 9162 interior nodes for `rs_merkle`: its default `concat_and_hash`
/// hashes `left || right` with `hash`, so `hash` prepends the node prefix
/// `0x01`. The leaves are hashed (`0x00 || leaf`) before the tree is built.
/// `rs_merkle` carries a lone right-most node up a level, which gives
/// RFC 9162's shape; for the power-of-two trees timed here every level pairs
/// up anyway.
#[cfg(feature = "rs-merkle")]
#[derive(Clone)]
struct Rfc9162Node;

#[cfg(feature = "rs-merkle")]
impl rs_merkle::Hasher for Rfc9162Node {
    type Hash = Node;

    fn hash(data: &[u8]) -> Node {
        use sha2_0_10::Digest;
        sha2_0_10::Sha256::new().chain_update([1u8]).chain_update(data).finalize().into()
    }
}

/// hashtree's x86-64 kernels called one by one, to time each beside the one
/// `hashtree_init` picks.
#[cfg(all(feature = "hashtree", target_arch = "x86_64"))]
mod hashtree_x86 {
    use super::Node;

    /// hashtree's kernel signature: `count` 32-byte digests of the `count`
    /// 64-byte blocks at `input`.
    pub(super) type Kernel = unsafe extern "C" fn(*mut u8, *const u8, u64);

    unsafe extern "C" {
        fn hashtree_sha256_avx2_x8(output: *mut u8, input: *const u8, count: u64);
        fn hashtree_sha256_shani_x2(output: *mut u8, input: *const u8, count: u64);
        fn hashtree_sha256_avx512_x16(output: *mut u8, input: *const u8, count: u64);
    }

    fn has_avx2() -> bool {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi2")
    }
    fn has_shani() -> bool {
        std::is_x86_feature_detected!("sha") && std::is_x86_feature_detected!("sse4.1")
    }
    fn has_avx512() -> bool {
        std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl")
    }

    /// A kernel's name, the kernel, and the CPU check that lets it run.
    pub(super) type Entry = (&'static str, Kernel, fn() -> bool);

    /// Each kernel, and the CPU check that lets it run (hashtree's own
    /// `hashtree_init` checks the same features before picking one).
    pub(super) const KERNELS: &[Entry] = &[
        ("sha256_shani_x2", hashtree_sha256_shani_x2, has_shani),
        ("sha256_avx2_x8", hashtree_sha256_avx2_x8, has_avx2),
        ("sha256_avx512_x16", hashtree_sha256_avx512_x16, has_avx512),
    ];

    /// `out[i]` = SHA-256 of the i-th 64 bytes of `input`.
    ///
    /// # Panics
    /// If `input` is not exactly 64 bytes per slot of `out`.
    pub(super) fn call(f: Kernel, out: &mut [Node], input: &[u8]) {
        assert_eq!(input.len(), 64 * out.len(), "hashtree kernel: 64 input bytes per output slot");
        // SAFETY: `f` is one of KERNELS, run only after its CPU check passed
        // (the caller keeps those whose check is true); it reads
        // `64 * count` bytes from `input` and writes `32 * count` to `out`,
        // both checked just above.
        unsafe { f(out.as_mut_ptr().cast(), input.as_ptr(), out.len() as u64) }
    }
}
