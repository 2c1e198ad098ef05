//! The batch engines of a crate against its portable backend: one harness
//! for every crate's engine tests.

use std::vec;
use std::vec::Vec;

use super::{Rng, say};
use crate::{BackendKind, FixedAlgorithm, Hasher, OutputBytes};

/// Message lengths around the block and padding boundaries of every
/// algorithm here, and a few long ones.
const LENGTHS: [usize; 13] = [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4096, 8192];

/// Check one batch engine of `A` against one-by-one hashing with the
/// portable backend (the last of `A::Backend::ALL`): for each size in
/// `batches`, a batch of mixed lengths (boundary lengths and random ones up
/// to 5000 bytes) and one of equal lengths that keeps every lane busy.
///
/// `run` hashes a batch on the engine; `supported` says whether this CPU
/// and build can run it. An unsupported engine is not run: a line says it
/// was skipped, naming `krate` and `name`.
///
/// # Panics
/// On the first digest that differs, naming the engine, the batch size,
/// the message and its length.
pub fn check_engine<A: FixedAlgorithm>(
    krate: &str,
    name: &str,
    supported: bool,
    seed: u64,
    batches: &[usize],
    run: impl Fn(&[&[u8]], &mut [A::Output]),
) {
    if !supported {
        say(format_args!("{krate}: SKIPPED batch engine {name}: this CPU or build lacks it"));
        return;
    }
    let portable = *A::Backend::ALL.last().expect("a crate has at least its portable backend");
    let mut rng = Rng::new(seed);
    for &batch in batches {
        for equal in [false, true] {
            let common = LENGTHS[rng.below(LENGTHS.len())];
            let msgs: Vec<Vec<u8>> = (0..batch)
                .map(|_| {
                    let len = if equal {
                        common
                    } else if rng.below(2) == 0 {
                        LENGTHS[rng.below(LENGTHS.len())]
                    } else {
                        rng.below(5000)
                    };
                    rng.bytes(len)
                })
                .collect();
            let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
            let mut got = vec![A::Output::zeroed(); batch];
            run(&inputs, &mut got);
            for (i, (m, d)) in msgs.iter().zip(&got).enumerate() {
                let want = Hasher::<A>::digest_with_backend(portable, m);
                assert_eq!(
                    *d,
                    want,
                    "{krate} {} {name}: batch {batch}{}, message {i}, len {}",
                    A::NAME,
                    if equal { " of equal lengths" } else { "" },
                    m.len()
                );
            }
        }
    }
}
