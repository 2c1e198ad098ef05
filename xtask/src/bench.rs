//! `cargo xtask bench`: build the peer comparison (`bench/peers`, its own
//! Cargo workspace), run it, and turn its tab-separated output into
//! `target/speed-report/report.md` plus one SVG plot per algorithm.
//!
//! Steps:
//!
//! 1. `cargo build --release --manifest-path bench/peers/Cargo.toml`. If it
//!    fails, every optional part (each of our crates, each peer) is checked
//!    on its own, the parts that fail are left out, the rest is built, and
//!    the report names what was left out and why.
//! 2. `cargo run --release --manifest-path bench/peers/Cargo.toml -- ...`,
//!    which times every implementation, interleaved, and prints results.
//! 3. The report and plots.

mod host;
mod measure;
mod options;
mod peers;
mod report;
mod results;
mod svg;

use host::{cpu_model, git_commit, lock_versions, utc_now};
use measure::measure;
use options::{Options, parse_args};
use peers::{LeftOut, PeerCargo, build_peers};
use results::{AlgoName, Dc, Many, Merkle, Results, Single, Uneven, rate_label, size_label};
use std::path::Path;
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask bench [--quick] [--algo A,B,...] [--size N,M,...] [--backend B,...]
                         [--rounds N] [--round-ms MS] [--best] [--no-batches] [--no-shani]

Times our crates against OpenSSL, ring and RustCrypto (both the 0.10 line and
the newest one) and writes target/speed-report/report.md (also printed) and
one SVG plot per algorithm.

options:
  --quick          4 sizes (16 B, 64 B, 1 KiB, 8 KiB), short rounds: about a
                   minute of measuring (plus the first build of bench/peers)
  --algo LIST      algorithms, comma-separated, or `all` (default: the
                   standard set: md5 sha1 sha224 sha256 sha384 sha512
                   sha512-256 sha3-256 sha3-512 shake128 shake256 kt128
                   turboshake128; also sha512-224 sha3-224 sha3-384
                   keccak256 kt256 turboshake256); `merkle` adds the
                   Merkle section (not in the default set nor in `all`):
                   Sha256::hash_pairs over 1024 pairs beside hashtree-rs,
                   tape-sha256 and our digest_many, and the RFC 9162 root of
                   2^20 64-byte leaves (2^16 with --quick) beside rs_merkle;
                   `--algo merkle` alone times that section only; `sha1dc`
                   adds the SHA-1 collision detection section (likewise not
                   in the default set): our Sha1Dc at 64 B to 64 KiB beside
                   our Sha1, sha1dc, sha1-checked and sha1collisiondetection,
                   and Sha1Dc::digest_many beside Sha1::digest_many over
                   64 x 8 KiB
  --size LIST      message sizes in bytes; K/KiB and M/MiB suffixes allowed
                   (default: 16,64,256,1K,8K,16K,1M; --quick: 16,64,1K,8K)
  --backend LIST   only these backends of our crates (e.g. portable,sha-ni);
                   the peers always run
  --rounds N       rounds per measurement; the median is reported
                   (default 21, --quick 9)
  --round-ms MS    length of one implementation's turn in a round
                   (default 40, --quick 10)
  --best           report the fastest round instead of the median (steadier
                   on a busy machine; the default median is the fairer figure)
  --no-batches     skip the digest_many section
  --no-shani       time everything as on a CPU without SHA-NI: our SHA-NI
                   backends are left out (the best other backend is ours),
                   OpenSSL runs with OPENSSL_ia32cap=:~0x20000000, RustCrypto's
                   SHA-1/SHA-256 are built with their software code (a second
                   build of bench/peers, in bench/peers/target/no-shani);
                   ring's SHA-256 (not maskable) and sha2 0.10's SHA-512
                   (`force-soft` also drops its AVX2 code) are left out, and so
                   is the digest_many section

environment: HASHES_BENCH_LIBCRYPTO=/path/to/libcrypto.so picks the OpenSSL
library to measure (default: the system's libcrypto.so.3).";

/// Run `cargo xtask bench` with the arguments after the command name.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let options = match parse_args(args) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return Ok(());
        }
        Err(e) => return Err(format!("{e}\n\n{USAGE}")),
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().ok_or("xtask has no parent directory")?.to_path_buf();
    let peers = PeerCargo {
        cargo: std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()),
        manifest: root.join("bench/peers/Cargo.toml"),
        no_shani: options.no_shani,
    };
    let out_dir = root.join("target/speed-report");

    let started = Instant::now();
    eprintln!("[1/3] building the peer comparison (bench/peers, release profile; the first build takes a few minutes)");
    if options.no_shani {
        eprintln!("      SHA-NI masked (--no-shani): a build of its own in bench/peers/target/no-shani");
    }
    let build = build_peers(&peers)?;
    eprintln!("      built in {:.0} s", started.elapsed().as_secs_f64());

    eprintln!(
        "[2/3] measuring: {} of {} rounds of ~{} ms per implementation, implementations interleaved",
        options.stat(),
        options.rounds,
        options.round_ms
    );
    let (mut results, raw, first_output) = measure(&peers, &build.features, &options)?;
    // Building counts up to the program's first output (`cargo run` may
    // rebuild when sources changed since step 1).
    let build_secs = first_output.duration_since(started).as_secs_f64();
    if options.best {
        results.use_fastest_round();
    }
    let measure_secs = first_output.elapsed().as_secs_f64();

    eprintln!("[3/3] writing {}", out_dir.display());
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    // Plots of an earlier run (other algorithms) would be mistaken for this one's.
    if let Ok(entries) = std::fs::read_dir(&out_dir) {
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.extension().is_some_and(|x| x == "svg") {
                let _ = std::fs::remove_file(path);
            }
        }
    }
    let context = report::Context {
        command: command_line(args),
        options: options.clone(),
        build_secs,
        measure_secs,
        left_out: build.left_out,
        versions: lock_versions(&root.join("bench/peers/Cargo.lock")),
        cpu: cpu_model(),
        date: utc_now(),
        commit: git_commit(&root),
    };
    let mut plots = Vec::new();
    for algo in &results.algos {
        if let Some(svg) = svg::plot(&results, algo, &options) {
            let file = format!("{}.svg", algo.id);
            write(&out_dir.join(&file), &svg)?;
            plots.push(file);
        }
    }
    let text = report::render(&results, &context, &plots);
    write(&out_dir.join("report.md"), &text)?;
    write(&out_dir.join("results.tsv"), &raw)?;
    println!("{text}");
    eprintln!(
        "wrote {}/report.md, {} plots and results.tsv (build {build_secs:.0} s, measuring {measure_secs:.0} s)",
        out_dir.display(),
        plots.len()
    );
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn command_line(args: &[String]) -> String {
    let mut s = "cargo xtask bench".to_string();
    for a in args {
        s.push(' ');
        s.push_str(a);
    }
    s
}
