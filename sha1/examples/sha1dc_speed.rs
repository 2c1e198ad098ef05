//! Throughput of `Sha1Dc` beside our plain `Sha1` and the peers with
//! collision detection (`sha1dc`, `sha1collisiondetection`), one message at
//! a time, in one run so the ratios compare like with like.
//!
//! `cargo run --release -p sha1 --example sha1dc_speed [--backend NAME] [--quick] [--len BYTES]`
//!
//! Each figure is the best of several rounds of about 0.1 s (0.03 s with
//! `--quick`); the ratios are against our `Sha1` on the same backend.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sha1::{Backend, Sha1, Sha1Dc};

/// Bytes per second of `f` over `data`: the best of `rounds` rounds.
fn rate(data: &[u8], rounds: usize, per_round: Duration, mut f: impl FnMut(&[u8])) -> f64 {
    let mut iters = 1u64;
    // Calibrate.
    loop {
        let t = Instant::now();
        for _ in 0..iters {
            f(black_box(data));
        }
        if t.elapsed() >= per_round / 4 {
            break;
        }
        iters *= 2;
    }
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..iters {
            f(black_box(data));
        }
        best = best.min(t.elapsed().as_secs_f64() / iters as f64);
    }
    data.len() as f64 / best
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let backend = match args.iter().position(|a| a == "--backend") {
        Some(i) => {
            let name = args.get(i + 1).expect("--backend NAME");
            Backend::from_name(name).unwrap_or_else(|| panic!("unknown backend {name}"))
        }
        None => Backend::detect(),
    };
    if let Err(e) = backend.check() {
        eprintln!("{e}");
        std::process::exit(2);
    }
    let (rounds, per_round) = if quick { (5, Duration::from_millis(20)) } else { (40, Duration::from_millis(10)) };
    println!("backend: {} (MB/s = 10^6 bytes per second; ratios against our Sha1 on that backend)", backend.name());
    println!(
        "{:>8} {:>9} {:>9} {:>9} {:>9} {:>11} {:>11}",
        "bytes", "Sha1", "Sha1Dc", "sha1dc", "sha1cd", "Dc/Sha1", "Dc/sha1dc"
    );
    let lens: Vec<usize> = match args.iter().position(|a| a == "--len") {
        Some(i) => vec![args.get(i + 1).and_then(|n| n.parse().ok()).expect("--len BYTES")],
        None => vec![64, 1024, 8192, 65_536, 1 << 20],
    };
    for len in lens {
        let data: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(151).wrapping_add(7)).collect();
        let plain = rate(&data, rounds, per_round, |d| {
            let mut h = Sha1::with_backend(backend);
            h.update(d);
            black_box(h.finalize());
        });
        let dc = rate(&data, rounds, per_round, |d| {
            let mut h = Sha1Dc::with_backend(backend);
            h.update(d);
            let _ = black_box(h.finalize());
        });
        let peer = rate(&data, rounds, per_round, |d| {
            let _ = black_box(sha1dc::digest(d));
        });
        let port = rate(&data, rounds, per_round, |d| {
            let mut h = sha1collisiondetection::Sha1CD::default();
            h.update(d);
            let _ = black_box(h.finalize_cd());
        });
        println!(
            "{:>8} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>10.3}x {:>10.3}x",
            len,
            plain / 1e6,
            dc / 1e6,
            peer / 1e6,
            port / 1e6,
            dc / plain,
            dc / peer
        );
    }
}
