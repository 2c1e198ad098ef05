//! Hashing allocates nothing: a counting global allocator shows that
//! one-shot hashing, a new/update/finalize cycle, `finalize_reset`, batch
//! hashing (`digest_many`) and XOF reading allocate 0 bytes, for every
//! algorithm and every backend this CPU supports.
//!
//! The counter is per thread, so the test harness's own threads (and other
//! tests running in parallel) do not disturb it.
#![allow(unsafe_code)]
// With every algorithm crate left out (`--no-default-features`) only the
// counter's own test remains.
#![cfg_attr(
    not(any(feature = "md5", feature = "sha1", feature = "sha256", feature = "sha512", feature = "sha3")),
    allow(dead_code, unused_macros)
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn note(bytes: usize) {
    // `try_with`: the thread-local may already be gone while a thread exits.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|c| c.set(c.get() + bytes as u64));
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees are ours; the counting touches only
// const-initialised thread-locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: our caller upholds `GlobalAlloc::alloc`'s contract, which
        // is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: our caller passes a block from this allocator (so from
        // `System`) with its layout, as `GlobalAlloc::realloc` requires.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: our caller passes a block from this allocator (so from
        // `System`) with its layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// (allocations, bytes) made on this thread while running `f`.
fn count<R>(f: impl FnOnce() -> R) -> (u64, u64, R) {
    let (a0, b0) = (ALLOCATIONS.with(Cell::get), BYTES.with(Cell::get));
    let r = f();
    let (a1, b1) = (ALLOCATIONS.with(Cell::get), BYTES.with(Cell::get));
    (a1 - a0, b1 - b0, r)
}

#[track_caller]
fn assert_no_alloc<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let (allocations, bytes, r) = count(f);
    assert_eq!((allocations, bytes), (0, 0), "{what}: {allocations} allocations, {bytes} bytes");
    r
}

/// Messages of several lengths around the block sizes, made before any
/// counting starts.
fn messages() -> Vec<Vec<u8>> {
    [0usize, 3, 64, 100, 136, 1000, 70_000].iter().map(|&n| bench::message(n, n as u64)).collect()
}

/// The counter sees this thread's allocations (so a pass means something).
#[test]
fn the_counter_counts() {
    let (allocations, bytes, v) = count(|| vec![1u8; 100]);
    assert_eq!((allocations, bytes), (1, 100));
    drop(v);
}

macro_rules! fixed_no_alloc {
    ($test:ident, $krate:ident, [$($ty:ident),+]) => {
        #[test]
        fn $test() {
            use $krate::Backend;
            let msgs = messages();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let backends = hash_core::testing::testable_backends::<Backend>(stringify!($krate));
            $(
                let mut outs = vec![$krate::$ty::digest(b""); refs.len()];
                for &b in &backends {
                    let what = |step: &str| format!("{} {} {step}", stringify!($ty), b.name());
                    for m in &refs {
                        let one_shot = assert_no_alloc(&what("digest"), || $krate::$ty::digest_with_backend(b, m));
                        let streamed = assert_no_alloc(&what("new/update/finalize"), || {
                            let mut h = $krate::$ty::with_backend(b);
                            let (head, tail) = m.split_at(m.len() / 3);
                            h.update(head);
                            h.update(tail);
                            h.finalize()
                        });
                        assert_eq!(streamed, one_shot);
                        let again = assert_no_alloc(&what("finalize_reset/clone"), || {
                            let mut h = $krate::$ty::with_backend(b);
                            h.update(m);
                            let first = h.finalize_reset();
                            h.update(m);
                            let copy = h.clone();
                            (first, copy.finalize())
                        });
                        assert_eq!(again, (one_shot, one_shot));
                    }
                    assert_no_alloc(&what("digest_many"), || {
                        $krate::$ty::digest_many_with_backend(b, &refs, &mut outs)
                    });
                    for (m, o) in refs.iter().zip(&outs) {
                        assert_eq!(*o, $krate::$ty::digest_with_backend(b, m));
                    }
                }
                assert_no_alloc("detected backend", || {
                    let mut h = $krate::$ty::new();
                    h.update(&refs[5]);
                    (h.finalize(), $krate::$ty::digest(&refs[5]), $krate::$ty::digest_many(&refs, &mut outs))
                });
            )+
        }
    };
}

#[cfg(feature = "md5")]
fixed_no_alloc!(md5_allocates_nothing, md5, [Md5]);
#[cfg(feature = "sha1")]
fixed_no_alloc!(sha1_allocates_nothing, sha1, [Sha1]);
#[cfg(feature = "sha256")]
fixed_no_alloc!(sha256_allocates_nothing, sha256, [Sha224, Sha256]);
#[cfg(feature = "sha512")]
fixed_no_alloc!(sha512_allocates_nothing, sha512, [Sha384, Sha512, Sha512_224, Sha512_256]);
#[cfg(feature = "sha3")]
fixed_no_alloc!(sha3_allocates_nothing, sha3, [Sha3_224, Sha3_256, Sha3_384, Sha3_512, Keccak256]);

// Only SHAKE (feature `sha3`) is an XOF.
#[cfg(feature = "sha3")]
macro_rules! xof_no_alloc {
    ($test:ident, [$($ty:ident),+]) => {
        #[test]
        fn $test() {
            use sha3::Backend;
            let msgs = messages();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let backends = hash_core::testing::testable_backends::<Backend>("sha3");
            // Output longer than one block of rate, read in uneven pieces.
            let mut one = vec![0u8; 500];
            let mut streamed = vec![0u8; 500];
            let mut many = vec![vec![0u8; 200]; refs.len()];
            $(
                for &b in &backends {
                    let what = |step: &str| format!("{} {} {step}", stringify!($ty), b.name());
                    for m in &refs {
                        assert_no_alloc(&what("digest_xof"), || sha3::$ty::digest_xof_with_backend(b, m, &mut one));
                        assert_no_alloc(&what("new/update/finalize_xof/read"), || {
                            let mut x = sha3::$ty::with_backend(b);
                            x.update(m);
                            let mut reader = x.finalize_xof();
                            let (a, rest) = streamed.split_at_mut(7);
                            reader.read(a);
                            let (c, d) = rest.split_at_mut(300);
                            reader.read(c);
                            reader.clone().read(d);
                        });
                        assert_eq!(streamed, one);
                    }
                    assert_no_alloc(&what("digest_xof_many"), || {
                        let mut slots: [&mut [u8]; 7] = [&mut [], &mut [], &mut [], &mut [], &mut [], &mut [], &mut []];
                        for (slot, o) in slots.iter_mut().zip(many.iter_mut()) {
                            *slot = o.as_mut_slice();
                        }
                        sha3::$ty::digest_xof_many_with_backend(b, &refs, &mut slots);
                    });
                    for (m, o) in refs.iter().zip(&many) {
                        sha3::$ty::digest_xof_with_backend(b, m, &mut one[..200]);
                        assert_eq!(o[..], one[..200]);
                    }
                }
            )+
        }
    };
}

#[cfg(feature = "sha3")]
xof_no_alloc!(shake_allocates_nothing, [Shake128, Shake256]);
