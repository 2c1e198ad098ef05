//! Batches: `digest_many` / `digest_xof_many` over fuzzer-chosen batches
//! (0 to 69 messages, any lengths, slices of one buffer that may repeat and
//! overlap, XOF outputs of any lengths) equal the portable backend's digests
//! one by one, for every type on every backend this CPU supports.
#![no_main]

use hash_core::{BackendKind, FixedAlgorithm, Hasher, OutputBytes, Xof, XofAlgorithm};
use hashes_fuzz::{FIXED_TYPES, Input, backends, expand, for_fixed, for_xof, portable};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let sel = input.byte() % (FIXED_TYPES + 2);
    if sel < FIXED_TYPES {
        for_fixed!(sel, fixed(input.0));
    } else {
        for_xof!(sel, xof(input.0));
    }
});

/// A buffer and the (offset, length) of each message in it, then what is
/// left of the input.
fn layout(input: &mut Input<'_>) -> (Vec<u8>, Vec<(usize, usize)>) {
    let pool_len = usize::from(input.u16()) % 8192;
    let pool = expand(u64::from(input.byte()), pool_len);
    let n = usize::from(input.byte()) % 70;
    let mut slices: Vec<(usize, usize)> = Vec::with_capacity(n);
    for _ in 0..n {
        let choice = input.byte();
        let slice = match (choice % 4, slices.last()) {
            // The previous message again.
            (0, Some(&last)) => last,
            // A suffix: ends where the buffer ends.
            (1, _) => {
                let len = usize::from(input.u16()) % (pool_len + 1);
                (pool_len - len, len)
            }
            _ => {
                let off = usize::from(input.u16()) % (pool_len + 1);
                let len = usize::from(input.u16()) % (pool_len - off + 1);
                (off, len)
            }
        };
        slices.push(slice);
    }
    (pool, slices)
}

fn fixed<A: FixedAlgorithm>(data: &[u8]) {
    let mut input = Input(data);
    let (pool, slices) = layout(&mut input);
    let inputs: Vec<&[u8]> = slices.iter().map(|&(o, n)| &pool[o..o + n]).collect();
    let want: Vec<A::Output> =
        inputs.iter().map(|m| Hasher::<A>::digest_with_backend(portable::<A::Backend>(), m)).collect();
    for backend in backends::<A::Backend>() {
        let mut outputs = vec![A::Output::zeroed(); inputs.len()];
        Hasher::<A>::digest_many_with_backend(backend, &inputs, &mut outputs);
        for (i, (got, want)) in outputs.iter().zip(&want).enumerate() {
            assert_eq!(got, want, "{} [{}] digest_many of {:?}: message {i}", A::NAME, backend.name(), slices);
        }
    }
}

fn xof<A: XofAlgorithm>(data: &[u8]) {
    let mut input = Input(data);
    let (pool, slices) = layout(&mut input);
    let inputs: Vec<&[u8]> = slices.iter().map(|&(o, n)| &pool[o..o + n]).collect();
    let out_lens: Vec<usize> = inputs.iter().map(|_| usize::from(input.u16()) % 700).collect();
    let want: Vec<Vec<u8>> = inputs
        .iter()
        .zip(&out_lens)
        .map(|(m, &n)| {
            let mut o = vec![0u8; n];
            Xof::<A>::digest_xof_with_backend(portable::<A::Backend>(), m, &mut o);
            o
        })
        .collect();
    for backend in backends::<A::Backend>() {
        let mut outs: Vec<Vec<u8>> = out_lens.iter().map(|&n| vec![0u8; n]).collect();
        let mut slots: Vec<&mut [u8]> = outs.iter_mut().map(Vec::as_mut_slice).collect();
        Xof::<A>::digest_xof_many_with_backend(backend, &inputs, &mut slots);
        for (i, (got, want)) in outs.iter().zip(&want).enumerate() {
            assert_eq!(got, want, "{} [{}] digest_xof_many of {:?}: message {i}", A::NAME, backend.name(), slices);
        }
    }
}
