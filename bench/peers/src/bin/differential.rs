//! Differential test: every backend of every one of our crates that this
//! CPU runs, against OpenSSL's libcrypto (loaded at run time, as the speed
//! comparison does), on seeded random messages of random lengths, hashed
//! one-shot, fed in random pieces, and in `digest_many` batches.
//!
//! Built for any target; CI runs it for aarch64 under qemu against Debian's
//! `libcrypto.so.3` for arm64 (`.ci/aarch64`), where it is the independent
//! check of the aarch64 backends. It iterates `Backend::available()` of each
//! crate (through `bench::ours*`), so a backend added later is covered
//! without changes here.
//!
//! ```text
//! differential [--cases N] [--seed S]
//! ```
//!
//! Prints one line per algorithm and backend with the number of agreeing
//! cases; exits 1 at the first disagreement, naming the algorithm, backend,
//! message length and pieces, or if OpenSSL cannot be loaded.

use std::process::ExitCode;

use bench::{ALGOS, Algo, message};
use hashes_peers::peers::Peers;

/// xorshift64*: the cases' lengths, split points and batch sizes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (n > 0; the bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random message length: mostly within a few blocks of the block sizes
/// (64, 128, 72..168 bytes), where padding and buffering change, and now
/// and then up to 20 000 bytes.
fn length(rng: &mut Rng) -> usize {
    match rng.below(4) {
        0 => rng.below(20_000),
        1 => rng.below(3 * 168 + 2),
        _ => rng.below(300),
    }
}

/// Cut `msg` at 0 to 6 random points (empty pieces included).
fn pieces<'a>(rng: &mut Rng, msg: &'a [u8]) -> Vec<&'a [u8]> {
    let mut cuts: Vec<usize> = (0..rng.below(7)).map(|_| rng.below(msg.len() + 1)).collect();
    cuts.sort_unstable();
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for c in cuts {
        out.push(&msg[start..c]);
        start = c;
    }
    out.push(&msg[start..]);
    out
}

struct Args {
    cases: usize,
    seed: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args { cases: 200, seed: 0x5eed_d1ff };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--cases" => {
                let v = value("--cases")?;
                args.cases = v.parse().map_err(|_| format!("--cases: not a number: {v}"))?;
            }
            "--seed" => {
                let v = value("--seed")?;
                args.seed = v.parse().map_err(|_| format!("--seed: not a number: {v}"))?;
            }
            "-h" | "--help" => {
                return Err("usage: differential [--cases N] [--seed S]".into());
            }
            other => return Err(format!("unknown argument {other:?}; usage: differential [--cases N] [--seed S]")),
        }
    }
    if args.seed == 0 {
        return Err("--seed must not be 0".into());
    }
    Ok(args)
}

/// Compare every backend of `algo` with OpenSSL's `reference` on `cases`
/// seeded cases; `Err` describes the first disagreement.
fn check_algo(algo: &'static Algo, reference: &bench::Subject, args: &Args) -> Result<(), String> {
    let mut rng = Rng(args.seed ^ (algo.id.len() as u64) << 32 ^ algo.out_len as u64);
    let one_shot = bench::ours(algo);
    let streams = bench::ours_streaming(algo);
    let many: Vec<_> = bench::ours_many(algo).into_iter().filter(|m| !m.baseline).collect();
    let hex = |d: &[u8]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    for case in 0..args.cases {
        let msg = message(length(&mut rng), args.seed.wrapping_add(case as u64));
        let want = reference.digest(&msg);
        for s in &one_shot {
            let got = s.digest(&msg);
            if got != want {
                return Err(format!(
                    "{} [{}] one-shot, case {case}, {} bytes: got {}, OpenSSL {}",
                    algo.name,
                    s.variant,
                    msg.len(),
                    hex(&got),
                    hex(&want)
                ));
            }
        }
        for s in &streams {
            let parts = pieces(&mut rng, &msg);
            let got = s.digest(&parts);
            if got != want {
                let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
                return Err(format!(
                    "{} [{}] streaming, case {case}, pieces of {lens:?} bytes: got {}, OpenSSL {}",
                    algo.name,
                    s.backend,
                    hex(&got),
                    hex(&want)
                ));
            }
        }
    }
    // Batches: sizes around each engine's lane count, lengths mixed.
    let batches = (args.cases / 20).max(2);
    for batch in 0..batches {
        let count = 1 + rng.below(17);
        let msgs: Vec<Vec<u8>> =
            (0..count).map(|i| message(length(&mut rng), args.seed ^ ((batch * 64 + i) as u64) << 20)).collect();
        let inputs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        let want: Vec<Vec<u8>> = msgs.iter().map(|m| reference.digest(m)).collect();
        for m in &many {
            let got = m.digests(&inputs);
            if let Some(i) = (0..count).find(|&i| got[i] != want[i]) {
                return Err(format!(
                    "{} {}: batch {batch} of {count}, message {i} ({} bytes): got {}, OpenSSL {}",
                    algo.name,
                    m.label,
                    msgs[i].len(),
                    hex(&got[i]),
                    hex(&want[i])
                ));
            }
        }
    }
    let names: Vec<&str> = streams.iter().map(|s| s.backend).collect();
    println!(
        "ok: {:<11} [{}]: {} one-shot + {} streaming cases and {} digest_many batches agree with OpenSSL",
        algo.name,
        names.join(", "),
        args.cases,
        args.cases,
        batches
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("differential: {e}");
            return ExitCode::from(2);
        }
    };
    let peers = Peers::load();
    for status in peers.statuses() {
        if status.family == "openssl" {
            match &status.state {
                Ok(v) => println!("reference: {v}"),
                Err(e) => {
                    eprintln!("differential: FAIL: OpenSSL is needed as the reference: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    for c in bench::crate_backends() {
        println!("{}: detected backend: {}; testing [{}]", c.crate_name, c.detected, c.available.join(", "));
        for (name, why) in &c.unavailable {
            println!("{}: SKIPPED backend [{name}]: not runnable here ({why})", c.crate_name);
        }
    }
    println!("{} cases per algorithm, seed {}", args.cases, args.seed);
    let mut failed = false;
    for algo in ALGOS {
        if !bench::crates_built().contains(&algo.crate_name) {
            println!("SKIPPED {}: crate {} not in this build", algo.name, algo.crate_name);
            continue;
        }
        let (subjects, notes) = peers.subjects(algo);
        let Some(reference) = subjects.iter().find(|s| s.family == "openssl") else {
            let why = notes.iter().find(|(f, _)| *f == "openssl").map_or("not available", |(_, e)| e.as_str());
            println!("SKIPPED {}: no OpenSSL reference ({why})", algo.name);
            continue;
        };
        if let Err(e) = check_algo(algo, reference, &args) {
            println!("FAIL: {e}");
            failed = true;
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
