//! XOFs: output read in fuzzer-chosen pieces equals one long read (the
//! portable backend's one-shot output), for SHAKE128 and SHAKE256 on every
//! backend this CPU supports, with the input absorbed in two fuzzer-cut
//! pieces and a clone of the reader taken at a fuzzer-chosen point.
#![no_main]

use hash_core::{BackendKind, Xof, XofAlgorithm};
use hashes_fuzz::{Input, backends, expand, for_xof, portable};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let sel = input.byte();
    for_xof!(sel, run(input.0));
});

fn run<A: XofAlgorithm>(data: &[u8]) {
    let mut input = Input(data);
    let len = usize::from(input.u16()) % 2000;
    let msg = if input.byte() & 1 == 0 { expand(u64::from(input.byte()), len) } else { input.bytes(len).to_vec() };
    let cut = usize::from(input.u16()) % (msg.len() + 1);
    let fork_at = usize::from(input.byte());
    let mut pieces = Vec::new();
    while !input.is_empty() && pieces.len() < 64 {
        pieces.push(usize::from(input.u16()) % 600);
    }
    let total: usize = pieces.iter().sum();
    let mut want = vec![0u8; total];
    Xof::<A>::digest_xof_with_backend(portable::<A::Backend>(), &msg, &mut want);
    for backend in backends::<A::Backend>() {
        let ctx =
            format!("{} [{}] message of {} bytes cut at {cut}, pieces {pieces:?}", A::NAME, backend.name(), msg.len());
        let mut x = Xof::<A>::with_backend(backend);
        x.update(&msg[..cut]);
        x.update(&msg[cut..]);
        let mut reader = x.finalize_xof();
        let mut got = vec![0u8; total];
        let mut off = 0;
        let mut fork = None;
        for (i, &p) in pieces.iter().enumerate() {
            if i == fork_at {
                fork = Some((reader.clone(), off));
            }
            reader.read(&mut got[off..off + p]);
            off += p;
        }
        assert_eq!(got, want, "{ctx}: read in pieces");
        if let Some((mut fork, at)) = fork {
            let mut rest = vec![0u8; total - at];
            fork.read(&mut rest);
            assert_eq!(rest, want[at..], "{ctx}: clone of the reader taken at {at}");
        }
        let mut one = vec![0u8; total];
        Xof::<A>::digest_xof_with_backend(backend, &msg, &mut one);
        assert_eq!(one, want, "{ctx}: one-shot");
    }
}
