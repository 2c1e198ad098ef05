//! Speed of our code (the detected backend: the portable one, and `sse2`
//! for SHA-512 on 32-bit x86) against RustCrypto's software backends, both
//! built for the same target (run by `cargo xtask bench-target --target T`).
//!
//! `hashes-targets-bench [--quick] [--algo NAME]...`: for MD5, SHA-1,
//! SHA-256, SHA-512 and SHA3-256 at 16 B to 1 MiB, every implementation's
//! one-shot digest is first checked against ours, then timed in short
//! interleaved batches (the fastest counts); one table row per algorithm and size,
//! with the ratio of our speed to the fastest peer's. Speed is reported,
//! never asserted: the exit status says only whether the outputs agreed.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// One-shot digest into the first bytes of a 64-byte array (the same copy
/// for every implementation).
type HashFn = fn(&[u8]) -> [u8; 64];

fn out(bytes: &[u8]) -> [u8; 64] {
    let mut o = [0u8; 64];
    o[..bytes.len()].copy_from_slice(bytes);
    o
}

struct Algorithm {
    name: &'static str,
    ours: HashFn,
    peers: &'static [(&'static str, HashFn)],
}

const ALGORITHMS: &[Algorithm] = &[
    Algorithm {
        name: "MD5",
        ours: |d| out(&md5::Md5::digest(d)),
        peers: &[
            ("md-5 0.10", |d| out(&<md5_0_10::Md5 as md5_0_10::Digest>::digest(d))),
            ("md-5 0.11", |d| out(&<md5_new::Md5 as md5_new::Digest>::digest(d))),
        ],
    },
    Algorithm {
        name: "SHA-1",
        ours: |d| out(&sha1::Sha1::digest(d)),
        peers: &[
            ("sha1 0.10", |d| out(&<sha1_0_10::Sha1 as sha1_0_10::Digest>::digest(d))),
            ("sha1 0.11", |d| out(&<sha1_new::Sha1 as sha1_new::Digest>::digest(d))),
        ],
    },
    Algorithm {
        name: "SHA-256",
        ours: |d| out(&sha256::Sha256::digest(d)),
        peers: &[
            ("sha2 0.10", |d| out(&<sha2_0_10::Sha256 as sha2_0_10::Digest>::digest(d))),
            ("sha2 0.11", |d| out(&<sha2_new::Sha256 as sha2_new::Digest>::digest(d))),
        ],
    },
    Algorithm {
        name: "SHA-512",
        ours: |d| out(&sha512::Sha512::digest(d)),
        peers: &[
            ("sha2 0.10", |d| out(&<sha2_0_10::Sha512 as sha2_0_10::Digest>::digest(d))),
            ("sha2 0.11", |d| out(&<sha2_new::Sha512 as sha2_new::Digest>::digest(d))),
        ],
    },
    Algorithm {
        name: "SHA3-256",
        ours: |d| out(&sha3::Sha3_256::digest(d)),
        peers: &[
            ("sha3 0.10", |d| out(&<sha3_0_10::Sha3_256 as sha3_0_10::Digest>::digest(d))),
            ("sha3 0.12", |d| out(&<sha3_new::Sha3_256 as sha3_new::Digest>::digest(d))),
        ],
    },
];

const SIZES: &[usize] = &[16, 64, 256, 1024, 16 * 1024, 1024 * 1024];

/// Deterministic filler bytes (xorshift64).
fn bytes(len: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect()
}

/// Seconds for `iters` digests of `data`.
fn time(f: HashFn, data: &[u8], iters: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(f(black_box(data)));
    }
    start.elapsed().as_secs_f64()
}

fn main() -> ExitCode {
    let mut quick = false;
    let mut only: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--algo" => match args.next() {
                Some(a) => only.push(a.to_ascii_lowercase()),
                None => {
                    eprintln!("error: --algo needs a name (md5, sha-1, sha-256, sha-512, sha3-256)");
                    return ExitCode::FAILURE;
                }
            },
            "-h" | "--help" => {
                println!("usage: hashes-targets-bench [--quick] [--algo NAME]...");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("error: unknown argument `{other}` (usage: hashes-targets-bench [--quick] [--algo NAME]...)");
                return ExitCode::FAILURE;
            }
        }
    }
    let chosen: Vec<&Algorithm> = ALGORITHMS
        .iter()
        .filter(|a| {
            only.is_empty() || only.iter().any(|o| a.name.to_ascii_lowercase().replace('-', "") == o.replace('-', ""))
        })
        .collect();
    if chosen.is_empty() {
        eprintln!("error: no algorithm matches {only:?} (md5, sha-1, sha-256, sha-512, sha3-256)");
        return ExitCode::FAILURE;
    }

    // Every output is checked against ours first, on lengths around the
    // block boundaries; a disagreement is an error, and nothing is timed.
    let check = bytes(1000);
    for a in &chosen {
        for len in [0, 1, 55, 56, 63, 64, 65, 71, 72, 111, 112, 127, 128, 135, 136, 137, 168, 500, 1000] {
            let want = (a.ours)(&check[..len]);
            for (peer, f) in a.peers {
                if f(&check[..len]) != want {
                    eprintln!("error: {} of {len} bytes: {peer}'s output differs from ours", a.name);
                    return ExitCode::FAILURE;
                }
            }
        }
    }

    // Short batches, many interleaved rounds, the fastest batch counts: on a
    // busy machine most batches are interrupted, and the fastest ones are
    // those that were not.
    let target_batch = Duration::from_millis(1);
    let budget = if quick { Duration::from_millis(60) } else { Duration::from_millis(300) };
    println!(
        "target: {} {} ({} build); each implementation timed in interleaved batches of about {} ms (at least one \
         digest) for about {} ms per size, the fastest batch counts; MB/s = 10^6 bytes/s",
        std::env::consts::ARCH,
        std::env::consts::OS,
        if cfg!(debug_assertions) { "debug" } else { "release" },
        target_batch.as_millis(),
        budget.as_millis()
    );
    println!("outputs of every peer agree with ours on 19 lengths from 0 to 1000 bytes");
    println!();
    println!("| algorithm | size | ours MB/s | peers MB/s | ours / fastest peer |");
    println!("|---|---:|---:|---|---:|");
    let mut worst: Option<(f64, &str, usize)> = None;
    for a in &chosen {
        // Warm-up: each implementation hashes for about 200 ms before its
        // first timed batch, so that a JIT (V8 on wasm32 tiers hot functions
        // up from a baseline compiler) times its optimised code from the
        // first size on.
        let warm = bytes(4096);
        for f in std::iter::once(a.ours).chain(a.peers.iter().map(|p| p.1)) {
            let started = Instant::now();
            while started.elapsed() < Duration::from_millis(200) {
                for len in [16, 64, 1000, 4096] {
                    black_box(f(black_box(&warm[..len])));
                }
            }
        }
        for &size in SIZES {
            let data = bytes(size);
            let mut fns: Vec<HashFn> = vec![a.ours];
            fns.extend(a.peers.iter().map(|p| p.1));
            // Iterations for one batch of about `target_batch`, from a
            // warm-up run of each (which also lets a JIT tier up).
            let iters: Vec<u64> = fns
                .iter()
                .map(|&f| {
                    let mut n = 1u64;
                    loop {
                        let t = time(f, &data, n);
                        if t >= target_batch.as_secs_f64() / 4.0 || n >= 1 << 30 {
                            break ((n as f64 * target_batch.as_secs_f64() / t.max(1e-9)).ceil() as u64).max(1);
                        }
                        n *= 4;
                    }
                })
                .collect();
            let mut best = vec![f64::INFINITY; fns.len()];
            let started = Instant::now();
            let mut rounds = 0;
            while rounds < 5 || (started.elapsed() < budget * fns.len() as u32 && rounds < 2000) {
                for (i, &f) in fns.iter().enumerate() {
                    best[i] = best[i].min(time(f, &data, iters[i]) / iters[i] as f64);
                }
                rounds += 1;
            }
            let speed: Vec<f64> = best.iter().map(|&t| size as f64 / t / 1e6).collect();
            let fastest_peer = speed[1..].iter().cloned().fold(0.0, f64::max);
            let ratio = speed[0] / fastest_peer;
            let peers: Vec<String> = a.peers.iter().zip(&speed[1..]).map(|(p, s)| format!("{} {s:.1}", p.0)).collect();
            println!(
                "| {} | {} | {:.1} | {} | {ratio:.2}{} |",
                a.name,
                size_name(size),
                speed[0],
                peers.join(", "),
                if ratio < 1.0 { " (slower)" } else { "" }
            );
            if worst.is_none_or(|w| ratio < w.0) {
                worst = Some((ratio, a.name, size));
            }
        }
    }
    if let Some((ratio, name, size)) = worst {
        println!();
        println!("lowest ratio: {ratio:.2} ({name}, {})", size_name(size));
    }
    ExitCode::SUCCESS
}

fn size_name(size: usize) -> String {
    match size {
        s if s >= 1 << 20 => format!("{} MiB", s >> 20),
        s if s >= 1 << 10 => format!("{} KiB", s >> 10),
        s => format!("{s} B"),
    }
}
