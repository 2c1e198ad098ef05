//! Over-reads of the caller's buffers fault, even without a sanitizer:
//! every input here ends exactly at the end of a mapped page that is
//! followed by a `PROT_NONE` guard page (or starts right after one), so a
//! backend that reads one byte past the end (or before the start) of a
//! message dies with SIGSEGV instead of silently hashing stray bytes.
//!
//! Covered, for every type and every backend this CPU supports: one-shot
//! hashing and streaming `update`s of every length up to three blocks and
//! some longer ones; `digest_many` / `digest_xof_many` batches of 1 to 65
//! messages (more than the widest engine's lanes), each message ending at
//! its own guard page, plus batches of overlapping suffixes of one guarded
//! buffer and of one slice repeated; and XOF output slots that end at a
//! guard page, so that an over-write faults too; `hash_pairs` and
//! `hash_prefixed_many` for every level size 0..=130, with the nodes,
//! prefix, bodies and output slots each ending at (or starting right after)
//! a guard page. Every digest is also compared with the portable backend's
//! digest (one by one, for the batch operations).
//!
//! Unix only (`mmap`, `mprotect`).
#![cfg(unix)]
#![allow(unsafe_code)]
#![cfg_attr(
    not(any(feature = "md5", feature = "sha1", feature = "sha256", feature = "sha512", feature = "sha3")),
    allow(dead_code, unused_imports, unused_macros)
)]

use std::ptr::NonNull;

use hash_core::generic_array::typenum::Unsigned;
use hash_core::testing::{Rng, say, testable_backends};
use hash_core::{BackendKind, FixedAlgorithm, Hasher, OutputBytes};
#[cfg(feature = "sha3")]
use hash_core::{Xof, XofAlgorithm};

/// Readable and writable pages with an inaccessible guard page on each side:
/// `[guard][data pages][guard]`.
struct Guarded {
    base: NonNull<u8>,
    /// Length of the whole mapping, guards included.
    map_len: usize,
    /// Bytes between the guards.
    len: usize,
}

fn page_size() -> usize {
    // SAFETY: `sysconf` has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).expect("page size")
}

impl Guarded {
    /// At least `len` usable bytes (whole pages), filled with `fill`.
    fn new(len: usize, fill: u64) -> Self {
        let page = page_size();
        let len = len.div_ceil(page).max(1) * page;
        let map_len = len + 2 * page;
        // SAFETY: an anonymous private mapping at an address of the kernel's
        // choosing; no existing memory is affected. The result is checked.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert!(base != libc::MAP_FAILED, "mmap of {map_len} bytes failed");
        let base = NonNull::new(base.cast::<u8>()).expect("mmap returned null");
        for guard in [base.as_ptr(), base.as_ptr().wrapping_add(page + len)] {
            // SAFETY: `guard` is page-aligned and the page lies inside the
            // mapping made above, which nothing else uses.
            let rc = unsafe { libc::mprotect(guard.cast(), page, libc::PROT_NONE) };
            assert_eq!(rc, 0, "mprotect of a guard page failed");
        }
        let mut g = Guarded { base, map_len, len };
        Rng::new(fill).fill(g.all());
        g
    }

    /// Every usable byte.
    fn all(&mut self) -> &mut [u8] {
        let start = self.base.as_ptr().wrapping_add(page_size());
        // SAFETY: the `len` bytes from `start` (the first byte after the
        // leading guard page) are mapped read-write, initialised (anonymous
        // mappings are zeroed) and only reachable through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(start, self.len) }
    }

    /// The last `n` bytes: the slice ends where the guard page begins.
    fn tail(&mut self, n: usize) -> &mut [u8] {
        let all = self.all();
        let start = all.len() - n;
        &mut all[start..]
    }

    /// The first `n` bytes: the slice starts where the leading guard ends.
    fn head(&mut self, n: usize) -> &mut [u8] {
        &mut self.all()[..n]
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`; no slice into it
        // outlives `self` (they all borrow it).
        unsafe { libc::munmap(self.base.as_ptr().cast(), self.map_len) };
    }
}

/// The message lengths tried: every length up to three blocks and one,
/// then a few multi-block ones around block and page boundaries.
fn lengths(block: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..=3 * block + 1).collect();
    for n in [8 * block - 1, 8 * block, 8 * block + 1, 4095, 4096, 4097, 20_000] {
        v.push(n);
    }
    v
}

fn portable<B: BackendKind>() -> B {
    *B::ALL.last().expect("portable is last")
}

fn one_shot_and_streaming<A: FixedAlgorithm>() {
    let block = A::BlockSize::USIZE;
    let lens = lengths(block);
    let max = *lens.iter().max().expect("lengths");
    let mut buf = Guarded::new(max, 0x6a6a_0001);
    let backends = testable_backends::<A::Backend>(A::NAME);
    for len in lens {
        let copy = buf.tail(len).to_vec();
        let want = Hasher::<A>::digest_with_backend(portable::<A::Backend>(), &copy);
        for &b in &backends {
            let ctx = format!("{} [{}] len {len}", A::NAME, b.name());
            assert_eq!(Hasher::<A>::digest_with_backend(b, buf.tail(len)), want, "{ctx}: one-shot, at the end");
            assert_eq!(
                Hasher::<A>::digest_with_backend(b, buf.head(len)),
                { Hasher::<A>::digest_with_backend(portable::<A::Backend>(), buf.head(len)) },
                "{ctx}: one-shot, at the start"
            );
            // Streaming: pieces that end on and off block boundaries, the
            // last one ending at the guard page.
            let msg = buf.tail(len);
            let mut h = Hasher::<A>::with_backend(b);
            let mut rest: &[u8] = msg;
            let mut piece = 1;
            while !rest.is_empty() {
                let n = piece.min(rest.len());
                h.update(&rest[..n]);
                rest = &rest[n..];
                piece = piece * 3 + block - 1;
            }
            assert_eq!(h.finalize(), want, "{ctx}: streaming");
        }
    }
}

fn batches<A: FixedAlgorithm>() {
    let block = A::BlockSize::USIZE;
    let backends = testable_backends::<A::Backend>(A::NAME);
    let mut rng = Rng::new(0x6a6a_0002);
    let special = [0, 1, block - 9, block - 1, block, block + 1, 2 * block - 1, 2 * block + 7, 5 * block];
    for batch in [1usize, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65] {
        // Each message ends at its own guard page.
        let lens: Vec<usize> = (0..batch)
            .map(|_| if rng.below(2) == 0 { special[rng.below(special.len())] } else { rng.below(9 * block) })
            .collect();
        let mut bufs: Vec<Guarded> = lens.iter().map(|&n| Guarded::new(n, rng.next_u64())).collect();
        let inputs: Vec<&[u8]> = bufs.iter_mut().zip(&lens).map(|(g, &n)| &*g.tail(n)).collect();
        check_batch::<A>(&backends, &inputs, &format!("batch of {batch}, separate buffers"));
    }
    // Overlapping suffixes of one buffer, all ending at the same guard page,
    // and one slice repeated.
    let mut one = Guarded::new(12 * block, 0x6a6a_0003);
    let all = &*one.all();
    let suffixes: Vec<&[u8]> = (0..40).map(|i| &all[all.len() - (i * 37) % (12 * block)..]).collect();
    check_batch::<A>(&backends, &suffixes, "40 overlapping suffixes of one buffer");
    let repeated: Vec<&[u8]> = vec![&all[all.len() - (3 * block + 5)..]; 33];
    check_batch::<A>(&backends, &repeated, "one slice 33 times");
}

fn check_batch<A: FixedAlgorithm>(backends: &[A::Backend], inputs: &[&[u8]], what: &str) {
    let want: Vec<A::Output> =
        inputs.iter().map(|m| Hasher::<A>::digest_with_backend(portable::<A::Backend>(), m)).collect();
    for &b in backends {
        let mut outputs = vec![A::Output::zeroed(); inputs.len()];
        Hasher::<A>::digest_many_with_backend(b, inputs, &mut outputs);
        for (i, (got, want)) in outputs.iter().zip(&want).enumerate() {
            assert_eq!(
                got,
                want,
                "{} [{}] digest_many, {what}: message {i} (len {})",
                A::NAME,
                b.name(),
                inputs[i].len()
            );
        }
    }
}

/// `hash_pairs` and `hash_prefixed_many` at guard pages, for every level
/// size 0..=130 on every backend, against `digest` one by one on the
/// portable backend: the nodes end at a guard page (then start right after
/// one), and so do the output slots (an over-write faults); the prefix and
/// every body of `hash_prefixed_many` end at a guard page, then start right
/// after one.
fn pairs_and_prefixed<A: FixedAlgorithm<Output = [u8; N]>, const N: usize>() {
    const MAX: usize = 130;
    let block = A::BlockSize::USIZE;
    let backends = testable_backends::<A::Backend>(A::NAME);
    let p = portable::<A::Backend>();
    let mut node_buf = Guarded::new(2 * MAX * N, 0x6a6a_0004);
    let mut out_buf = Guarded::new(MAX * N, 0x6a6a_0005);
    // Bodies: overlapping pieces of one buffer, of lengths around the
    // block size and of 2N (an RFC 9162 node's `left || right`).
    let body_len = |i: usize| match i % 4 {
        0 => 2 * N,
        1 => block - 1 - (i % 3),
        2 => (i * 37) % (3 * block),
        _ => block + i % 9,
    };
    let max_body = (0..MAX).map(body_len).max().unwrap_or(0);
    let mut body_buf = Guarded::new(max_body, 0x6a6a_0006);
    let mut prefix_buf = Guarded::new(2 * N + 1, 0x6a6a_0007);
    for pairs in 0..=MAX {
        for at_end in [true, false] {
            let where_ = if at_end { "ending at a guard page" } else { "starting after a guard page" };
            let bytes: &[u8] = if at_end { node_buf.tail(2 * pairs * N) } else { node_buf.head(2 * pairs * N) };
            let nodes = bytes.as_chunks::<N>().0.to_vec();
            let bytes: &[u8] = if at_end { node_buf.tail(2 * pairs * N) } else { node_buf.head(2 * pairs * N) };
            let (guarded_nodes, rest) = bytes.as_chunks::<N>();
            assert!(rest.is_empty() && guarded_nodes.len() == 2 * pairs);
            let want: Vec<[u8; N]> =
                nodes.chunks_exact(2).map(|p2| Hasher::<A>::digest_with_backend(p, &p2.concat())).collect();
            for &b in &backends {
                let slots: &mut [u8] = if at_end { out_buf.tail(pairs * N) } else { out_buf.head(pairs * N) };
                let out = slots.as_chunks_mut::<N>().0;
                out.fill([0; N]);
                Hasher::<A>::hash_pairs_with_backend(b, guarded_nodes, out);
                assert_eq!(
                    out,
                    &want[..],
                    "{} [{}] hash_pairs, {pairs} pairs, nodes and slots {where_}",
                    A::NAME,
                    b.name()
                );
            }
        }
        for prefix_len in [0, 1, 2 * N + 1] {
            for at_end in [true, false] {
                let where_ = if at_end { "ending at a guard page" } else { "starting after a guard page" };
                let prefix: &[u8] = if at_end { prefix_buf.tail(prefix_len) } else { prefix_buf.head(prefix_len) };
                let prefix = prefix.to_vec();
                let all: &[u8] = body_buf.all();
                let bodies: Vec<&[u8]> = (0..pairs)
                    .map(|i| if at_end { &all[all.len() - body_len(i)..] } else { &all[..body_len(i)] })
                    .collect();
                let want: Vec<[u8; N]> = bodies
                    .iter()
                    .map(|body| Hasher::<A>::digest_with_backend(p, &[&prefix[..], body].concat()))
                    .collect();
                let guarded_prefix: &[u8] =
                    if at_end { prefix_buf.tail(prefix_len) } else { prefix_buf.head(prefix_len) };
                for &b in &backends {
                    let slots: &mut [u8] = if at_end { out_buf.tail(pairs * N) } else { out_buf.head(pairs * N) };
                    let out = slots.as_chunks_mut::<N>().0;
                    out.fill([0; N]);
                    Hasher::<A>::hash_prefixed_many_with_backend(b, guarded_prefix, &bodies, out);
                    assert_eq!(
                        out,
                        &want[..],
                        "{} [{}] hash_prefixed_many, {pairs} bodies, prefix of {prefix_len} bytes, inputs and slots {where_}",
                        A::NAME,
                        b.name()
                    );
                }
            }
        }
    }
}

// Only SHAKE (feature `sha3`) is an XOF.
#[cfg(feature = "sha3")]
fn xof<A: XofAlgorithm>() {
    let rate = A::BlockSize::USIZE;
    let backends = testable_backends::<A::Backend>(A::NAME);
    let lens = lengths(rate);
    let mut input = Guarded::new(*lens.iter().max().expect("lengths"), 0x6a6a_0004);
    // Output slots that end at a guard page catch over-writes.
    let mut out = Guarded::new(3 * rate + 1, 0);
    for len in lens {
        let out_len = [0, 1, rate - 1, rate, rate + 1, 3 * rate + 1][len % 6];
        let mut want = vec![0u8; out_len];
        Xof::<A>::digest_xof_with_backend(portable::<A::Backend>(), input.tail(len), &mut want);
        for &b in &backends {
            let ctx = format!("{} [{}] len {len}, {out_len} output bytes", A::NAME, b.name());
            Xof::<A>::digest_xof_with_backend(b, input.tail(len), out.tail(out_len));
            assert_eq!(out.tail(out_len), &want[..], "{ctx}: one-shot");
            let mut x = Xof::<A>::with_backend(b);
            let msg = input.tail(len);
            let (a, c) = msg.split_at(len / 3);
            x.update(a);
            x.update(c);
            x.finalize_xof().read(out.tail(out_len));
            assert_eq!(out.tail(out_len), &want[..], "{ctx}: streaming");
        }
    }
    // Batches: inputs and output slots each end at their own guard page.
    let mut rng = Rng::new(0x6a6a_0005);
    for batch in [1usize, 2, 3, 4, 5, 8, 9, 17] {
        let lens: Vec<usize> = (0..batch).map(|_| rng.below(4 * rate)).collect();
        let out_lens: Vec<usize> = (0..batch).map(|_| rng.below(3 * rate)).collect();
        let mut ins: Vec<Guarded> = lens.iter().map(|&n| Guarded::new(n, rng.next_u64())).collect();
        let inputs: Vec<&[u8]> = ins.iter_mut().zip(&lens).map(|(g, &n)| &*g.tail(n)).collect();
        let want: Vec<Vec<u8>> = inputs
            .iter()
            .zip(&out_lens)
            .map(|(m, &n)| {
                let mut o = vec![0u8; n];
                Xof::<A>::digest_xof_with_backend(portable::<A::Backend>(), m, &mut o);
                o
            })
            .collect();
        for &b in &backends {
            let mut outs: Vec<Guarded> = out_lens.iter().map(|&n| Guarded::new(n, 0)).collect();
            let mut slots: Vec<&mut [u8]> = outs.iter_mut().zip(&out_lens).map(|(g, &n)| g.tail(n)).collect();
            Xof::<A>::digest_xof_many_with_backend(b, &inputs, &mut slots);
            for (i, (got, want)) in slots.iter().zip(&want).enumerate() {
                assert_eq!(
                    &got[..],
                    &want[..],
                    "{} [{}] digest_xof_many, batch of {batch}: message {i}",
                    A::NAME,
                    b.name()
                );
            }
        }
    }
}

/// The guard page really faults: a child process that reads one byte past
/// a guarded buffer dies by a signal (so a pass above means something).
#[test]
fn the_guard_page_faults() {
    if std::env::var_os("GUARD_PAGE_CHILD").is_some() {
        let mut g = Guarded::new(1, 0);
        let end = g.tail(1).as_ptr().wrapping_add(1);
        // SAFETY: deliberately not sound: this reads the guard page, which
        // must kill this (child) process with SIGSEGV before it returns.
        let byte = unsafe { std::ptr::read_volatile(end) };
        println!("read {byte} past the end: the guard page did not fault");
        std::process::exit(0);
    }
    let exe = std::env::current_exe().expect("test executable");
    let child = std::process::Command::new(exe)
        .args(["--exact", "the_guard_page_faults", "--nocapture", "--test-threads", "1"])
        .env("GUARD_PAGE_CHILD", "1")
        .output()
        .expect("run the child");
    let stdout = String::from_utf8_lossy(&child.stdout);
    // Killed by SIGSEGV, or (under AddressSanitizer) reported and stopped.
    let status = child.status;
    assert!(
        !status.success() && !stdout.contains("did not fault"),
        "reading the guard page did not fault: {status:?}, {stdout}"
    );
    say(format_args!("guard_page: a read one byte past a guarded buffer faults ({status:?})"));
}

macro_rules! guarded {
    ($test:ident, $krate:ident, [$($alg:ident),+]) => {
        #[test]
        fn $test() {
            $(
                one_shot_and_streaming::<$krate::algorithm::$alg>();
                batches::<$krate::algorithm::$alg>();
                pairs_and_prefixed::<$krate::algorithm::$alg, _>();
            )+
        }
    };
}

#[cfg(feature = "md5")]
guarded!(md5_reads_nothing_outside_its_input, md5, [Md5]);
#[cfg(feature = "sha1")]
guarded!(sha1_reads_nothing_outside_its_input, sha1, [Sha1]);
#[cfg(feature = "sha256")]
guarded!(sha256_reads_nothing_outside_its_input, sha256, [Sha224, Sha256]);
#[cfg(feature = "sha512")]
guarded!(sha512_reads_nothing_outside_its_input, sha512, [Sha384, Sha512, Sha512_224, Sha512_256]);
#[cfg(feature = "sha3")]
guarded!(sha3_reads_nothing_outside_its_input, sha3, [Sha3_224, Sha3_256, Sha3_384, Sha3_512, Keccak256]);

#[cfg(feature = "sha3")]
#[test]
fn shake_reads_and_writes_nothing_outside_its_buffers() {
    xof::<sha3::algorithm::Shake128>();
    xof::<sha3::algorithm::Shake256>();
}
