//! criterion benchmarks of our crates alone: every algorithm x every backend
//! this CPU supports x message sizes 16 B .. 1 MiB, one-shot, throughput in
//! bytes per second; plus `digest_many` over 64 messages of 1 KiB per
//! backend against one-by-one hashing.
//!
//! `cargo bench -p bench` runs them all (several minutes);
//! `cargo bench -p bench -- sha256/` runs one algorithm. The comparison with
//! OpenSSL, `ring` and RustCrypto is `cargo xtask bench` (see `bench/peers`).

use std::time::Duration;

use bench::{ALGOS, message, ours, ours_many};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// The sizes: `openssl speed`'s blocks plus 1 MiB.
const SIZES: [usize; 7] = [16, 64, 256, 1024, 8192, 16384, 1 << 20];

fn one_shot(c: &mut Criterion) {
    for algo in ALGOS {
        let subjects = ours(algo);
        if subjects.is_empty() {
            eprintln!("SKIPPED {}: crate `{}` is not in this build", algo.id, algo.crate_name);
            continue;
        }
        let mut group = c.benchmark_group(algo.id);
        for &size in &SIZES {
            let data = message(size, 1);
            group.throughput(Throughput::Bytes(size as u64));
            for s in &subjects {
                group.bench_with_input(BenchmarkId::new(s.variant.as_str(), size), &data, |b, data| {
                    b.iter(|| s.run(data, 1))
                });
            }
        }
        group.finish();
    }
}

fn batches(c: &mut Criterion) {
    const COUNT: usize = 64;
    const SIZE: usize = 1024;
    let msgs: Vec<Vec<u8>> = (0..COUNT).map(|i| message(SIZE, i as u64)).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    for algo in ALGOS {
        let subjects = ours_many(algo);
        if subjects.is_empty() {
            continue;
        }
        let mut group = c.benchmark_group(format!("{}-many", algo.id));
        group.throughput(Throughput::Bytes((COUNT * SIZE) as u64));
        for s in &subjects {
            group.bench_with_input(BenchmarkId::new(s.label.as_str(), "64x1KiB"), &refs, |b, refs| {
                b.iter(|| s.run(refs, 1))
            });
        }
        group.finish();
    }
}

fn config() -> Criterion {
    // Short samples: the full matrix is ~300 benchmarks.
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
}

// `criterion_group!` defines an undocumented `pub fn benches`.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group! {
        name = benches;
        config = config();
        targets = one_shot, batches
    }
}
criterion_main!(group::benches);
