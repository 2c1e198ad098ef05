//! Is a batch ever slower than its messages hashed one by one?
//!
//! For each algorithm, times `digest_many` (`digest_xof_many`) on the backend
//! `Backend::detect()` picks against the same backend hashing the same
//! messages one by one (the speed report's baseline), over a grid of batch
//! sizes and message lengths, and prints the ratio (above 1.00x the batch is
//! faster). Issue 10's rule is that it must never be slower; cells under
//! 0.97x are marked `!`. Each cell is the best of 7 interleaved rounds.
//!
//! ```text
//! cargo run --release -p bench --example batch_sweep
//! cargo run --release -p bench --example batch_sweep -- --algo sha256 --counts 2,9,16 --lens 0,100,1024
//! ```
//!
//! The default grid (5 algorithms, 14 batch sizes, 8 lengths) takes about
//! half a minute.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: batch_sweep [--algo A,B,...] [--counts N,...] [--lens BYTES,...]";

fn list<T>(v: &str, what: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    v.split(',').map(|s| parse(s.trim()).ok_or_else(|| format!("bad {what} `{s}`\n{USAGE}"))).collect()
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("batch_sweep: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut algos: Vec<&'static bench::Algo> = ["md5", "sha1", "sha256", "sha512", "sha3-256", "shake128"]
        .iter()
        .filter_map(|id| bench::find_algo(id))
        .filter(|a| !bench::ours_many(a).is_empty())
        .collect();
    let mut counts = vec![1usize, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 64];
    let mut lens = vec![0usize, 16, 55, 64, 100, 200, 1024, 8192];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value\n{USAGE}"));
        match arg.as_str() {
            "--algo" => algos = list(&value()?, "algorithm", bench::find_algo)?,
            "--counts" => counts = list(&value()?, "batch size", |s| s.parse().ok().filter(|&n| n > 0))?,
            "--lens" => lens = list(&value()?, "length", |s| s.parse().ok())?,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`\n{USAGE}")),
        }
    }
    if algos.is_empty() {
        return Err("no algorithm to time (are the algorithm features off?)".into());
    }
    for algo in algos {
        let subjects = bench::ours_many(algo);
        let (Some(batch), Some(single)) = (subjects.iter().find(|s| s.detected), subjects.iter().find(|s| s.baseline))
        else {
            return Err(format!("{}: no batch subjects (not one of our batch algorithms)", algo.name));
        };
        eprintln!("[{}] timing `{}` against `{}` ...", algo.name, batch.label, single.label);
        println!("\n{} (`{}` ÷ `{}`)\n", algo.name, batch.label, single.label);
        let head: String = counts.iter().map(|n| format!(" {n:>6} |")).collect();
        println!("| bytes \\ messages |{head}");
        println!("|---:|{}", "---:|".repeat(counts.len()));
        for &len in &lens {
            let mut row = format!("| {len} |");
            for &n in &counts {
                let msgs: Vec<Vec<u8>> = (0..n).map(|i| bench::message(len, i as u64)).collect();
                let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
                let r = ratio(|iters| batch.run(&inputs, iters), |iters| single.run(&inputs, iters));
                row += &format!(" {r:>5.2}{} |", if r < 0.97 { "!" } else { " " });
            }
            println!("{row}");
        }
    }
    Ok(())
}

/// Throughput of `batch` over `single`: best of 7 interleaved rounds of
/// about 2 ms each.
fn ratio(batch: impl Fn(u64) -> u8, single: impl Fn(u64) -> u8) -> f64 {
    let time = |f: &dyn Fn(u64) -> u8, iters: u64| {
        let t = Instant::now();
        black_box(f(iters));
        t.elapsed()
    };
    let mut iters = 1u64;
    while time(&single, iters) < Duration::from_millis(2) && iters < 1 << 30 {
        iters *= 2;
    }
    let (mut a, mut b) = (Duration::MAX, Duration::MAX);
    for _ in 0..7 {
        a = a.min(time(&batch, iters));
        b = b.min(time(&single, iters));
    }
    b.as_secs_f64() / a.as_secs_f64()
}
