//! Checks shared by the algorithm crates' test suites (feature `testing`).
//!
//! Each check panics with a message naming the algorithm, backend and input
//! that failed. Nothing here is part of the stable API.

use std::io::Write as _;
use std::vec::Vec;

use crate::{BackendKind, FixedAlgorithm, Hasher, OutputBytes, Xof, XofAlgorithm};

/// A small deterministic generator (SplitMix64) for test inputs.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fill `out` with random bytes.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = std::vec![0; len];
        self.fill(&mut v);
        v
    }
}

/// Print a line straight to stderr, past the test harness's output capture,
/// so that it shows in every `cargo test` run (skips, KAT counts).
///
/// The line and its newline go out in one write, so that other writers of
/// the same stream (qemu-user's warnings under CI) cannot split it.
pub fn say(line: core::fmt::Arguments<'_>) {
    let text = std::format!("{line}\n");
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// The backends of `B` this CPU supports; prints one line for each
/// compiled-in backend that it cannot test here, so that no backend is
/// skipped silently.
pub fn testable_backends<B: BackendKind>(what: &str) -> Vec<B> {
    let mut out = Vec::new();
    for &b in B::ALL {
        if b.is_supported() {
            out.push(b);
        } else {
            say(format_args!(
                "{what}: SKIPPED backend [{}]: not runnable here (it needs {}); run on such a CPU, or see .ci/run for the runs under qemu and on other targets",
                b.name(),
                b.requires()
            ));
        }
    }
    out
}

/// The invariants of a crate's `Backend` listing, and the line that CI's
/// qemu runs grep for: `<krate>: detected backend: <name>`.
pub fn check_backend_api<B: BackendKind>(krate: &str) {
    let portable = *B::ALL.last().expect("ALL is never empty");
    let available: Vec<B> = B::available().collect();
    assert!(available.contains(&B::detect()), "{krate}: detect() is one of available()");
    assert_eq!(B::detect(), available[0], "{krate}: detect() picks the best available");
    assert_eq!(available.last(), Some(&portable), "{krate}: portable is always available, and last");
    assert!(portable.requires().is_empty(), "{krate}: portable needs nothing");
    for (i, &b) in B::ALL.iter().enumerate() {
        assert_eq!(b.is_supported(), b.check().is_ok(), "{krate} [{}]", b.name());
        assert!(b == portable || !b.requires().is_empty(), "{krate} [{}] names what it needs", b.name());
        assert_eq!(B::ALL.iter().position(|o| o.name() == b.name()), Some(i), "{krate}: backend names are unique");
    }
    let names: Vec<&str> = available.iter().map(|b| b.name()).collect();
    say(format_args!("{krate}: backends available here: {}", names.join(", ")));
    say(format_args!("{krate}: detected backend: {}", B::detect().name()));
}

/// Forcing a backend: the ones this CPU supports hash like the portable
/// backend; the others are refused with an error naming them by
/// `try_with_backend`, and with a panic (never undefined behaviour) by
/// `digest_with_backend` and by the algorithm's raw `compress`, which safe
/// code can call with any backend value.
pub fn check_forcing<A: FixedAlgorithm>() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let block_size = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
    let portable = *A::Backend::ALL.last().expect("ALL is never empty");
    let mut rng = Rng::new(0x5eed_0008);
    let blocks: Vec<crate::Block<A::BlockSize>> =
        (0..5).map(|_| crate::Block::<A::BlockSize>::clone_from_slice(&rng.bytes(block_size))).collect();
    let compressed = |backend: A::Backend| {
        let mut state = A::INIT;
        A::compress(backend, &mut state, &blocks);
        let mut out = A::Output::zeroed();
        A::output(&state, &mut out);
        out
    };
    for &b in A::Backend::ALL {
        let ctx = std::format!("{} [{}]", A::NAME, b.name());
        let forced = Hasher::<A>::try_with_backend(b);
        let raw = catch_unwind(AssertUnwindSafe(|| compressed(b)));
        if b.is_supported() {
            assert_eq!(forced.map(|h| h.backend()), Ok(b), "{ctx}: with_backend");
            assert_eq!(raw.ok(), Some(compressed(portable)), "{ctx}: raw compress of 5 blocks equals portable");
        } else {
            let message = forced.err().map(|e| std::format!("{e}")).unwrap_or_default();
            assert!(message.contains(b.name()) && message.contains("not supported"), "{ctx}: {message:?}");
            // The error names the type called (`Sha256: the ...`).
            let ty = crate::checks::type_name::<A>();
            assert!(message.starts_with(&std::format!("{ty}: the `")), "{ctx}: {message:?} names {ty}");
            assert!(raw.is_err(), "{ctx}: raw compress ran on a CPU without the backend's features");
            let one_shot = catch_unwind(AssertUnwindSafe(|| Hasher::<A>::digest_with_backend(b, b"abc")));
            assert!(one_shot.is_err(), "{ctx}: digest_with_backend ran on an unsupported backend");
            say(format_args!("{ctx}: refused here as it should be: {message}"));
        }
    }
}

/// Every split of every input of length `0..=max_len` into one, two or three
/// `update` calls gives the one-shot digest.
pub fn check_splits<A: FixedAlgorithm>(backend: A::Backend, max_len: usize) {
    let data = Rng::new(0x5eed_0001).bytes(max_len);
    for len in 0..=max_len {
        let msg = &data[..len];
        let want = Hasher::<A>::digest_with_backend(backend, msg);
        let mut h = Hasher::<A>::with_backend(backend);
        h.update(msg);
        assert_eq!(h.finalize(), want, "{} [{}] len {len}: one update", A::NAME, backend.name());
        for i in 0..=len {
            for j in i..=len {
                let mut h = Hasher::<A>::with_backend(backend);
                h.update(&msg[..i]);
                h.update(&msg[i..j]);
                h.update(&msg[j..]);
                assert_eq!(h.finalize(), want, "{} [{}] len {len}: split at {i} and {j}", A::NAME, backend.name());
            }
        }
    }
}

/// `finalize_reset`, `reset` and `clone` in the middle of a stream.
pub fn check_reset_clone<A: FixedAlgorithm>(backend: A::Backend) {
    let mut rng = Rng::new(0x5eed_0002);
    for len in [0usize, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 200, 1000] {
        let msg = rng.bytes(len);
        let want = Hasher::<A>::digest_with_backend(backend, &msg);
        let ctx = |what: &str| std::format!("{} [{}] len {len}: {what}", A::NAME, backend.name());

        // A clone taken mid-stream finishes independently of the original.
        let mut h = Hasher::<A>::with_backend(backend);
        h.update(&msg[..len / 2]);
        let mut copy = h.clone();
        h.update(&msg[len / 2..]);
        copy.update(&msg[len / 2..]);
        assert_eq!(copy.finalize(), want, "{}", ctx("clone"));
        assert_eq!(h.backend(), backend, "{}", ctx("backend kept"));

        // finalize_reset returns the digest and starts over.
        assert_eq!(h.finalize_reset(), want, "{}", ctx("finalize_reset"));
        assert_eq!(h.clone().finalize(), Hasher::<A>::digest(b""), "{}", ctx("empty after finalize_reset"));
        h.update(&msg);
        assert_eq!(h.finalize_reset(), want, "{}", ctx("reuse after finalize_reset"));

        // reset forgets everything absorbed so far.
        h.update(b"something to forget");
        h.reset();
        h.update(&msg);
        assert_eq!(h.finalize(), want, "{}", ctx("reset"));

        // Default and new agree with the one-shot path.
        let mut d = Hasher::<A>::default();
        d.update(&msg);
        assert_eq!(d.finalize(), Hasher::<A>::digest(&msg), "{}", ctx("default"));
    }
}

/// `backend` gives the same digests as `reference` on random messages: every
/// length up to four blocks, then random lengths up to `max_len`, each fed
/// through random `update` splits.
pub fn check_against<A: FixedAlgorithm>(backend: A::Backend, reference: A::Backend, max_len: usize)
where
    A::State: PartialEq + core::fmt::Debug,
{
    check_compress_final::<A>(backend, reference);
    let block = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
    let mut rng = Rng::new(0x5eed_0003);
    let ctx = |len: usize| std::format!("{} [{}] vs [{}], len {len}", A::NAME, backend.name(), reference.name());
    let mut lens: Vec<usize> = (0..=4 * block + 1).collect();
    lens.extend((0..24).map(|_| rng.below(max_len + 1)));
    lens.push(max_len);
    for len in lens {
        let msg = rng.bytes(len);
        let want = Hasher::<A>::digest_with_backend(reference, &msg);
        assert_eq!(Hasher::<A>::digest_with_backend(backend, &msg), want, "{}: one-shot", ctx(len));
        let mut h = Hasher::<A>::with_backend(backend);
        let mut rest = &msg[..];
        while !rest.is_empty() {
            // Mostly small pieces, sometimes several blocks at once.
            let cap = if rng.below(4) == 0 { 9 * block } else { block + 3 };
            let n = rng.below(cap.min(rest.len()) + 1);
            h.update(&rest[..n]);
            rest = &rest[n..];
        }
        assert_eq!(h.finalize(), want, "{}: random update splits", ctx(len));
    }
}

/// [`FixedAlgorithm::compress_final`] of `backend` leaves the same state
/// as padding in a buffer ([`crate::compress_final_buffered`]) with
/// `reference`: every tail length that fits one padding block, after a
/// random block, with message lengths whose bit count needs the high bits
/// of the length field (and wraps the 64-bit fields). Run by
/// [`check_against`].
pub fn check_compress_final<A: FixedAlgorithm>(backend: A::Backend, reference: A::Backend)
where
    A::State: PartialEq + core::fmt::Debug,
{
    let block = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
    let room = match A::PADDING {
        crate::Padding::Be64 | crate::Padding::Le64 => 8,
        crate::Padding::Be128 => 16,
        crate::Padding::Keccak(_) => return,
    };
    if !A::has_compress_final(backend) {
        return;
    }
    let mut rng = Rng::new(0x5eed_0007);
    let first: crate::Block<A::BlockSize> = crate::Block::clone_from_slice(&rng.bytes(block));
    for len in 0..block - room {
        let tail = rng.bytes(len);
        for whole in [0u128, 1, 1 << 58, (1 << 61) + 3, u128::MAX / 256] {
            let total = whole * block as u128 + len as u128;
            let mut want = A::INIT;
            if whole > 0 {
                A::compress(reference, &mut want, core::slice::from_ref(&first));
            }
            let mut got = want.clone();
            crate::compress_final_buffered::<A>(reference, &mut want, &tail, total);
            A::compress_final(backend, &mut got, &tail, total);
            assert_eq!(got, want, "{} [{}] compress_final: tail {len}, total {total}", A::NAME, backend.name());
        }
    }
}

/// The XOF gives the same output however the input is split and however
/// the output is read in pieces, and the one-shot path agrees.
pub fn check_xof<A: XofAlgorithm>(backend: A::Backend, max_len: usize) {
    let mut rng = Rng::new(0x5eed_0004);
    let rate = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
    let out_len = 3 * rate + 17;
    for len in (0..=max_len).step_by(7).chain([rate - 1, rate, rate + 1, 2 * rate]) {
        let msg = rng.bytes(len);
        let ctx = |what: &str| std::format!("{} [{}] len {len}: {what}", A::NAME, backend.name());
        let mut want = std::vec![0u8; out_len];
        Xof::<A>::digest_xof_with_backend(backend, &msg, &mut want);

        let mut x = Xof::<A>::with_backend(backend);
        let cut = len / 3;
        x.update(&msg[..cut]);
        let mut copy = x.clone();
        x.update(&msg[cut..]);
        copy.update(&msg[cut..]);

        // Read in pieces of every size from 1 to 2 * rate + 1.
        for piece in [1usize, 2, 7, 8, 9, rate - 1, rate, rate + 1, 2 * rate + 1] {
            let mut reader = x.clone().finalize_xof();
            let mut got = std::vec![0u8; out_len];
            for chunk in got.chunks_mut(piece) {
                reader.read(chunk);
            }
            assert_eq!(got, want, "{}", ctx(&std::format!("read in pieces of {piece}")));
        }
        let mut got = std::vec![0u8; out_len];
        copy.finalize_xof_reset().read(&mut got);
        assert_eq!(got, want, "{}", ctx("clone + finalize_xof_reset"));
        copy.update(&msg);
        let mut again = std::vec![0u8; out_len];
        copy.finalize_xof().read(&mut again);
        assert_eq!(again, want, "{}", ctx("reuse after finalize_xof_reset"));

        // A shorter read is a prefix of a longer one.
        let mut short = std::vec![0u8; len % 50];
        Xof::<A>::digest_xof_with_backend(backend, &msg, &mut short);
        assert_eq!(short[..], want[..short.len()], "{}", ctx("prefix"));
    }
}

/// `backend` gives the same XOF output as `reference` on random messages.
pub fn check_xof_against<A: XofAlgorithm>(backend: A::Backend, reference: A::Backend, max_len: usize) {
    let rate = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
    let mut rng = Rng::new(0x5eed_0005);
    let mut lens: Vec<usize> = (0..=4 * rate + 1).collect();
    lens.extend((0..24).map(|_| rng.below(max_len + 1)));
    for len in lens {
        let msg = rng.bytes(len);
        let out_len = rng.below(3 * rate);
        let (mut want, mut got) = (std::vec![0u8; out_len], std::vec![0u8; out_len]);
        Xof::<A>::digest_xof_with_backend(reference, &msg, &mut want);
        let mut x = Xof::<A>::with_backend(backend);
        let cut = rng.below(len + 1);
        x.update(&msg[..cut]);
        x.update(&msg[cut..]);
        x.finalize_xof().read(&mut got);
        assert_eq!(got, want, "{} [{}] vs [{}], len {len}", A::NAME, backend.name(), reference.name());
    }
}

/// The batch API equals hashing each message alone, for batches of mixed
/// lengths (0, 1, block boundaries, random sizes) and batch sizes 0..=n.
pub fn check_many<A: FixedAlgorithm>(backend: A::Backend, max_len: usize) {
    let block = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
    let mut rng = Rng::new(0x5eed_0006);
    let special = [0, 1, block - 9, block - 8, block - 1, block, block + 1, 2 * block, 3 * block + 5];
    for batch in [0usize, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33] {
        let msgs: Vec<Vec<u8>> = (0..batch)
            .map(|i| {
                let len = match rng.below(3) {
                    0 => special[rng.below(special.len())],
                    1 => rng.below(8 * block),
                    _ if i % 5 == 0 => rng.below(max_len + 1),
                    _ => rng.below(40 * block),
                };
                rng.bytes(len)
            })
            .collect();
        check_batch::<A>(backend, &msgs, "mixed lengths");
    }
    // Batches whose messages all have the same whole blocks and the same
    // padded tail (the scheduler's even path, `multi::run_even`): equal
    // lengths, and lengths that differ only within the last block; some
    // sizes fill whole waves of lanes (16, 32, 64), others leave a few
    // messages over. The last case differs in tail length (two blocks
    // against one) under Merkle–Damgård padding, which takes the general
    // path (Keccak's tails are both one block: the even path).
    for batch in [3usize, 5, 8, 16, 17, 32, 33, 64, 67] {
        for (name, lens) in [
            ("0 bytes", [0, 0]),
            ("one block", [block, block]),
            ("16 blocks", [16 * block, 16 * block]),
            ("one byte short of a block", [block - 1, block - 1]),
            ("rests within a one-block tail", [3 * block, 3 * block + block / 2 - 9]),
            ("rests within a two-block tail", [2 * block + block - 8, 3 * block - 1]),
            ("one- and two-block tails", [block + 1, 2 * block - 1]),
        ] {
            let msgs: Vec<Vec<u8>> = (0..batch)
                .map(|i| {
                    let len = if i % 3 == 1 { lens[1] } else { lens[0] };
                    rng.bytes(len)
                })
                .collect();
            check_batch::<A>(backend, &msgs, name);
        }
    }
}

/// `digest_many` with `backend` over `msgs` equals one-by-one hashing on
/// the portable backend.
fn check_batch<A: FixedAlgorithm>(backend: A::Backend, msgs: &[Vec<u8>], what: &str) {
    let batch = msgs.len();
    let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    let mut outputs = std::vec![A::Output::zeroed(); batch];
    Hasher::<A>::digest_many_with_backend(backend, &inputs, &mut outputs);
    let portable = *A::Backend::ALL.last().expect("the portable backend is last in ALL");
    for (i, (msg, got)) in msgs.iter().zip(&outputs).enumerate() {
        assert_eq!(
            *got,
            Hasher::<A>::digest_with_backend(portable, msg),
            "{} [{}] digest_many ({what}): batch of {batch}, message {i} (len {})",
            A::NAME,
            backend.name(),
            msg.len()
        );
    }
}

/// The multi-buffer scheduler ([`crate::multi`]) on a stand-in `N`-lane
/// engine that compresses each lane with `backend`: ragged batches come out
/// equal to one-by-one hashing, whatever `min_active` is.
pub fn check_scheduler<A: FixedAlgorithm>(backend: A::Backend) {
    fn run<A: FixedAlgorithm, const N: usize>(
        backend: A::Backend,
        min_active: usize,
        inputs: &[&[u8]],
    ) -> Vec<A::Output> {
        let mut outputs = std::vec![A::Output::zeroed(); inputs.len()];
        crate::multi::digest_many_lanes::<A, N>(backend, inputs, &mut outputs, min_active, |states, data| {
            let len = data[0].len();
            for (state, lane) in states.iter_mut().zip(data) {
                assert_eq!(lane.len(), len, "lanes get equal lengths");
                assert!(len > 0 && len % <A::BlockSize as generic_array::typenum::Unsigned>::USIZE == 0);
                for block in lane.chunks_exact(<A::BlockSize as generic_array::typenum::Unsigned>::USIZE) {
                    A::compress(backend, state, core::slice::from_ref(crate::Block::<A::BlockSize>::from_slice(block)));
                }
            }
        });
        outputs
    }
    // An engine that runs only the busy lanes, as the narrowing entry
    // point allows; the idle ones must hold lane 0's data.
    fn run_narrowing<A: FixedAlgorithm, const N: usize>(
        backend: A::Backend,
        min_active: usize,
        inputs: &[&[u8]],
    ) -> Vec<A::Output> {
        let bs = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
        let mut outputs = std::vec![A::Output::zeroed(); inputs.len()];
        crate::multi::digest_many_lanes_narrowing::<A, N>(
            backend,
            inputs,
            &mut outputs,
            min_active,
            |states, data, busy| {
                assert!((1..=N).contains(&busy), "busy lanes {busy} of {N}");
                let len = data[0].len();
                assert!(len > 0 && len % bs == 0);
                for lane in &data[busy..] {
                    assert!(core::ptr::eq(*lane, data[0]), "idle lanes repeat lane 0");
                }
                for (state, lane) in states.iter_mut().zip(data).take(busy) {
                    assert_eq!(lane.len(), len, "lanes get equal lengths");
                    for block in lane.chunks_exact(bs) {
                        A::compress(
                            backend,
                            state,
                            core::slice::from_ref(crate::Block::<A::BlockSize>::from_slice(block)),
                        );
                    }
                }
            },
        );
        outputs
    }
    let block = <A::BlockSize as generic_array::typenum::Unsigned>::USIZE;
    let mut rng = Rng::new(0x5eed_0007);
    // 150 messages: more than the longest-first window of 64.
    for batch in [0usize, 1, 2, 3, 4, 5, 9, 20, 150] {
        let msgs: Vec<Vec<u8>> = (0..batch)
            .map(|_| {
                let n = rng.below(6 * block);
                rng.bytes(n)
            })
            .collect();
        let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
        let want: Vec<A::Output> = inputs.iter().map(|m| Hasher::<A>::digest_with_backend(backend, m)).collect();
        for min_active in [1, 2, 4] {
            assert_eq!(
                run::<A, 4>(backend, min_active, &inputs),
                want,
                "{} scheduler, 4 lanes, batch {batch}, min_active {min_active}",
                A::NAME
            );
        }
        assert_eq!(run::<A, 1>(backend, 1, &inputs), want, "{} scheduler, 1 lane, batch {batch}", A::NAME);
        assert_eq!(run::<A, 8>(backend, 3, &inputs), want, "{} scheduler, 8 lanes, batch {batch}", A::NAME);
        for min_active in [1, 5] {
            assert_eq!(
                run_narrowing::<A, 8>(backend, min_active, &inputs),
                want,
                "{} narrowing scheduler, 8 lanes, batch {batch}, min_active {min_active}",
                A::NAME
            );
        }
        // Lengths within one block of each other: the in-order path.
        let equal: Vec<&[u8]> = inputs.iter().map(|m| &m[..m.len().min(block + 3)]).collect();
        let want: Vec<A::Output> = equal.iter().map(|m| Hasher::<A>::digest_with_backend(backend, m)).collect();
        assert_eq!(run::<A, 4>(backend, 2, &equal), want, "{} scheduler, short messages, batch {batch}", A::NAME);
        // Messages of one shape (equal whole blocks and padded tails, the
        // even path): equal lengths, including none at all, and lengths
        // that differ within the last block; short and long bodies; one-
        // and two-block tails (Merkle–Damgård: a rest of `block - 5` to
        // `block - 1` bytes leaves no room for the length field).
        let data = rng.bytes(10 * block);
        // (name, whole blocks, bytes of the last partial block are 0 or
        // this plus the message's index mod 5).
        for (name, blocks, rest) in [
            ("0", 0, None),
            ("1 block", 1, None),
            ("3 blocks + 5", 3, Some(5)),
            ("2 blocks + 0..5", 2, Some(0)),
            ("1 block + a two-block tail", 1, Some(block - 5)),
            ("9 blocks + 3", 9, Some(3)),
        ] {
            let len = |i: usize| blocks * block + rest.map_or(0, |r| r + i % 5);
            let same: Vec<&[u8]> = (0..batch).map(|i| &data[..len(i)]).collect();
            let want: Vec<A::Output> = same.iter().map(|m| Hasher::<A>::digest_with_backend(backend, m)).collect();
            for min_active in [1, 2, 5] {
                assert_eq!(
                    run::<A, 4>(backend, min_active, &same),
                    want,
                    "{} scheduler, lengths {name}, batch {batch}, min_active {min_active}",
                    A::NAME
                );
                assert_eq!(
                    run_narrowing::<A, 8>(backend, min_active, &same),
                    want,
                    "{} narrowing scheduler, lengths {name}, batch {batch}, min_active {min_active}",
                    A::NAME
                );
            }
        }
    }
}

pub mod engines;
pub mod kat;

pub use engines::check_engine;
