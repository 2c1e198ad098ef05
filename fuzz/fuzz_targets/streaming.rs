//! Streaming: one input cut into `update` calls at fuzzer-chosen points,
//! with `clone`, `reset` and `finalize_reset` at fuzzer-chosen moments,
//! equals the portable backend's one-shot digest of what was absorbed, for
//! every fixed-output type, on every backend this CPU supports.
//!
//! Input: a type byte, then operations: `update` with the next n bytes,
//! `update` with a long generated message (many blocks), `clone` (kept as a
//! fork that is finished later), switch to a fork, `reset`,
//! `finalize_reset`.
#![no_main]

use hash_core::{BackendKind, FixedAlgorithm, Hasher};
use hashes_fuzz::{Input, backends, expand, for_fixed, portable};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let sel = input.byte();
    for_fixed!(sel, run(input.0));
});

fn run<A: FixedAlgorithm>(ops: &[u8]) {
    for backend in backends::<A::Backend>() {
        run_on::<A>(backend, ops);
    }
}

fn want<A: FixedAlgorithm>(msg: &[u8]) -> A::Output {
    Hasher::<A>::digest_with_backend(portable::<A::Backend>(), msg)
}

fn run_on<A: FixedAlgorithm>(backend: A::Backend, ops: &[u8]) {
    let ctx =
        |what: &str, msg: &[u8]| format!("{} [{}] {what}, message of {} bytes", A::NAME, backend.name(), msg.len());
    let mut input = Input(ops);
    let mut h = Hasher::<A>::with_backend(backend);
    let mut msg = Vec::new();
    let mut forks: Vec<(Hasher<A>, Vec<u8>)> = Vec::new();
    while !input.is_empty() {
        match input.byte() % 9 {
            0..=2 => {
                let n = usize::from(input.byte());
                let piece = input.bytes(n);
                h.update(piece);
                msg.extend_from_slice(piece);
            }
            3 => {
                let n = usize::from(input.u16()) % 5000;
                let piece = expand(u64::from(input.byte()), n);
                h.update(&piece);
                msg.extend_from_slice(&piece);
            }
            4 if forks.len() < 4 => forks.push((h.clone(), msg.clone())),
            5 => {
                if let Some((fh, fm)) = forks.pop() {
                    forks.push((std::mem::replace(&mut h, fh), std::mem::replace(&mut msg, fm)));
                }
            }
            6 => {
                h.reset();
                msg.clear();
            }
            7 => {
                assert_eq!(h.finalize_reset(), want::<A>(&msg), "{}", ctx("finalize_reset", &msg));
                msg.clear();
            }
            _ => {
                assert_eq!(h.clone().finalize(), want::<A>(&msg), "{}", ctx("finalize of a clone", &msg));
            }
        }
    }
    assert_eq!(h.backend(), backend);
    assert_eq!(Hasher::<A>::digest_with_backend(backend, &msg), want::<A>(&msg), "{}", ctx("one-shot", &msg));
    assert_eq!(h.finalize(), want::<A>(&msg), "{}", ctx("finalize", &msg));
    for (fh, fm) in forks {
        assert_eq!(fh.finalize(), want::<A>(&fm), "{}", ctx("finalize of a fork", &fm));
    }
}
