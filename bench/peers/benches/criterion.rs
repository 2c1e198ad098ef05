//! criterion benchmarks of our crates beside the peers (OpenSSL, `ring`,
//! RustCrypto's two lines): every algorithm of the standard set x every
//! implementation (each of our backends this CPU supports) x message sizes
//! 16 B .. 1 MiB, one-shot, throughput in bytes per second.
//!
//! `cargo bench --manifest-path bench/peers/Cargo.toml` runs them all;
//! append `-- sha256/` for one algorithm. `cargo xtask bench` is the faster,
//! interleaved comparison with a written report.

use std::time::Duration;

use bench::{ALGOS, message};
use criterion::{BenchmarkId, Criterion, Throughput};
use hashes_peers::peers::Peers;

const SIZES: [usize; 7] = [16, 64, 256, 1024, 8192, 16384, 1 << 20];

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .configure_from_args();
    let peers = Peers::load();
    for status in peers.statuses() {
        if let Err(why) = status.state {
            eprintln!("SKIPPED peer {}: {why}", status.family);
        }
    }
    for algo in ALGOS.iter().filter(|a| a.default) {
        let (theirs, notes) = peers.subjects(algo);
        for (family, why) in notes {
            eprintln!("SKIPPED {} {family}: {why}", algo.id);
        }
        let subjects: Vec<_> = bench::ours(algo).into_iter().chain(theirs).collect();
        let mut group = c.benchmark_group(algo.id);
        for &size in &SIZES {
            let data = message(size, 1);
            group.throughput(Throughput::Bytes(size as u64));
            for s in &subjects {
                group.bench_with_input(BenchmarkId::new(s.label(), size), &data, |b, data| b.iter(|| s.run(data, 1)));
            }
        }
        group.finish();
    }
    c.final_summary();
}
