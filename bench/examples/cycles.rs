//! Measured core cycles per 64-byte block of our backends on this machine,
//! for `cargo xtask mca --x86`, which sets them beside `llvm-mca`'s model of
//! the same loops in this same program.
//!
//! `cargo run --release -p bench --example cycles -- ALGO:BACKEND...`
//! (e.g. `sha256:sha-ni md5:x86-asm`) prints one line per subject:
//! `ALGO:BACKEND <cycles per block> <GHz>`.
//!
//! Cycles are time × the core's clock, and the clock is measured, not read
//! from a label: a chain of dependent 64-bit squarings (3 cycles each
//! on AMD Zen 1-4 and Intel since Nehalem: Agner Fog's instruction tables,
//! and `llvm-mca -mcpu=znver3` agrees) is timed right before and right
//! after each subject, so a turbo clock is what is divided by. Each subject
//! hashes a 64 KiB message (1024 blocks) repeatedly for about 0.3 s; the
//! fastest of 5 such rounds is kept.

use std::hint::black_box;
use std::time::Instant;

/// Dependent multiplications per clock measurement.
const CHAIN: u64 = 300_000_000;
/// Cycles per multiplication of the chain (latency of `imul r64, r64`).
const MUL_LATENCY: f64 = 3.0;
const MESSAGE: usize = 64 * 1024;

/// The clock in GHz: a chain of `CHAIN` dependent multiplications timed.
fn clock_ghz() -> f64 {
    // Squaring, not multiplying by a constant: LLVM reassociates a chain of
    // multiplications by the same constant (x·k·k = x·k²) and would halve
    // the chain.
    let mut x = black_box(3u64);
    let t = Instant::now();
    for _ in 0..CHAIN {
        x = x.wrapping_mul(x);
    }
    black_box(x);
    CHAIN as f64 * MUL_LATENCY / t.elapsed().as_secs_f64() / 1e9
}

fn main() {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    if wanted.is_empty() {
        eprintln!("usage: cycles ALGO:BACKEND... (e.g. sha256:sha-ni md5:x86-asm)");
        std::process::exit(2);
    }
    let data = bench::message(MESSAGE, 1);
    let blocks = (MESSAGE / 64) as f64;
    let mut status = 0;
    for w in &wanted {
        let Some((algo_id, backend)) = w.split_once(':') else {
            eprintln!("{w}: expected ALGO:BACKEND");
            status = 2;
            continue;
        };
        let Some(algo) = bench::find_algo(algo_id) else {
            eprintln!("{w}: unknown algorithm `{algo_id}`");
            status = 2;
            continue;
        };
        let subjects = bench::ours(algo);
        let Some(subject) = subjects.iter().find(|s| s.variant == backend) else {
            let names: Vec<&str> = subjects.iter().map(|s| s.variant.as_str()).collect();
            eprintln!("{w}: backend `{backend}` not available here (available: {})", names.join(", "));
            status = 1;
            continue;
        };
        // Iterations for about 0.3 s.
        let t = Instant::now();
        black_box(subject.run(&data, 10));
        let iters = ((0.3 / (t.elapsed().as_secs_f64() / 10.0)) as u64).max(1);
        let mut best = f64::INFINITY;
        let mut ghz_at_best = 0.0;
        for _ in 0..5 {
            let before = clock_ghz();
            let t = Instant::now();
            black_box(subject.run(&data, iters));
            let secs = t.elapsed().as_secs_f64();
            let ghz = (before + clock_ghz()) / 2.0;
            let cycles = secs * ghz * 1e9 / (iters as f64 * blocks);
            if cycles < best {
                best = cycles;
                ghz_at_best = ghz;
            }
        }
        println!("{w} {best:.1} {ghz_at_best:.2}");
    }
    std::process::exit(status);
}
