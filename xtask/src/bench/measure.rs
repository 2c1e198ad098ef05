//! Running the measuring program (`bench/peers`' binary) on the options
//! given, showing its progress with an estimate of the time left, and
//! collecting its tab-separated output.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;
use std::time::Instant;

use super::USAGE;
use super::options::Options;
use super::peers::PeerCargo;
use super::results::Results;

/// `OPENSSL_ia32cap` for the masked run: the second word is CPUID leaf 7's
/// EBX, whose bit 29 is SHA; `~` clears the bits given.
const OPENSSL_NO_SHANI: &str = ":~0x20000000";

/// The batches the report times (`COUNTxBYTES`): 64 messages of three
/// sizes for the engines' throughput, and two small batches (2 x 16 B,
/// 8 x 256 B) where an engine's setup costs most, to show that a batch is
/// never slower than its messages hashed one by one.
const BATCH_SHAPES: &str = "2x16,8x256,64x64,64x1024,64x8192";

/// Run the measuring program, showing progress; returns the parsed
/// results, the raw output and when the program's first line came.
pub(super) fn measure(
    peers: &PeerCargo,
    features: &Option<Vec<&'static str>>,
    o: &Options,
) -> Result<(Results, String, Instant), String> {
    let mut cmd = peers.command("run", features.as_deref());
    if o.no_shani {
        cmd.env("OPENSSL_ia32cap", OPENSSL_NO_SHANI);
    }
    cmd.arg("--quiet").arg("--");
    if let Some(algos) = &o.algos {
        cmd.arg("--algo").arg(if algos.is_empty() { "none".to_string() } else { algos.join(",") });
    }
    let sizes: Vec<String> = o.sizes.iter().map(usize::to_string).collect();
    cmd.arg("--size").arg(sizes.join(","));
    if let Some(b) = &o.backends {
        cmd.arg("--backend").arg(b.join(","));
    }
    cmd.arg("--rounds").arg(o.rounds.to_string()).arg("--round-ms").arg(o.round_ms.to_string());
    cmd.arg("--many").arg(if o.batches { BATCH_SHAPES } else { "none" });
    cmd.arg("--uneven").arg(if o.batches { "64x8192" } else { "none" });
    if o.merkle {
        cmd.arg("--merkle").arg(format!("{},{}", super::options::MERKLE_PAIRS, o.merkle_leaves()));
    }
    if o.dc {
        cmd.arg("--dc").arg(super::options::DC_SIZES);
    }
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot run cargo: {e}"))?;
    let stderr = child.stderr.take();
    let errors = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut e) = stderr {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let mut raw = String::new();
    let mut results = Results::default();
    let mut total = 0usize;
    let mut first_output = None;
    let mut first_progress = None;
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let now = Instant::now();
            let start = *first_output.get_or_insert(now);
            raw.push_str(&line);
            raw.push('\n');
            let fields: Vec<&str> = line.split('\t').collect();
            match fields.as_slice() {
                ["plan", n] => total = n.parse().unwrap_or(0),
                ["progress", n, text] => {
                    let n: usize = n.parse().unwrap_or(0);
                    let since = *first_progress.get_or_insert(now);
                    // Time per measurement so far, times those left.
                    let eta = if n > 1 && total >= n {
                        let per = now.duration_since(since).as_secs_f64() / (n - 1) as f64;
                        format!(", ~{:.0} s left", per * (total - n + 1) as f64)
                    } else {
                        String::new()
                    };
                    eprintln!("      [{n:>3}/{total}] {text} ({:.0} s{eta})", now.duration_since(start).as_secs_f64());
                }
                _ => results.parse_line(&fields),
            }
        }
    }
    let status = child.wait().map_err(|e| format!("the measuring program did not finish: {e}"))?;
    let errors = errors.join().unwrap_or_default();
    if !status.success() {
        let message = errors.trim().strip_prefix("error: ").unwrap_or(errors.trim()).to_string();
        return Err(format!("the measuring program failed: {message}\n\n{USAGE}"));
    }
    if !errors.trim().is_empty() {
        eprintln!("{}", errors.trim_end());
    }
    Ok((results, raw, first_output.unwrap_or_else(Instant::now)))
}
