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

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

mod report;
mod svg;

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
                   keccak256 kt256 turboshake256)
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

/// Algorithm ids the measuring program knows (`bench::ALGOS`); kept here so
/// that a typo is reported before the build.
const ALGO_IDS: &[&str] = &[
    "md5",
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512-224",
    "sha512-256",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "keccak256",
    "shake128",
    "shake256",
    "kt128",
    "kt256",
    "turboshake128",
    "turboshake256",
];

/// The optional parts of `bench/peers` (its cargo features): what the
/// report calls each when it fails to build, and the peer family it is
/// (empty for our crates).
const PARTS: &[(&str, &str, &str)] = &[
    ("md5", "our md5 crate", ""),
    ("sha1", "our sha1 crate", ""),
    ("sha256", "our sha256 crate", ""),
    ("sha512", "our sha512 crate", ""),
    ("sha3", "our sha3 crate", ""),
    ("rustcrypto-0_10", "RustCrypto 0.10 line", "rustcrypto-0.10"),
    ("rustcrypto-new", "RustCrypto newest line", "rustcrypto-latest"),
    ("ring", "ring", "ring"),
    ("dropin", "our sha2 drop-in (dropin/sha2-0.10)", "ours-via-sha2-dropin"),
    ("openssl", "OpenSSL loader (libloading)", "openssl"),
];

/// A part of `bench/peers` that did not build.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LeftOut {
    pub(crate) what: &'static str,
    /// The peer family, or empty for one of our crates.
    pub(crate) family: &'static str,
    /// The first error line of `cargo check`.
    pub(crate) why: String,
}

/// What the user asked for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Options {
    pub(crate) quick: bool,
    pub(crate) algos: Option<Vec<String>>,
    pub(crate) sizes: Vec<usize>,
    pub(crate) backends: Option<Vec<String>>,
    pub(crate) rounds: usize,
    pub(crate) round_ms: u64,
    pub(crate) batches: bool,
    /// Report the fastest round rather than the median.
    pub(crate) best: bool,
    /// Time as on a CPU without SHA-NI (`--no-shani`).
    pub(crate) no_shani: bool,
}

impl Options {
    /// `"median"` or `"fastest"`: which round the figures are.
    pub(crate) fn stat(&self) -> &'static str {
        if self.best { "fastest" } else { "median" }
    }
}

/// Parse a size: `16`, `1K`, `1KiB`, `8k`, `1M`, `1MiB`.
fn parse_size(s: &str) -> Option<usize> {
    let lower = s.trim().to_ascii_lowercase();
    let (digits, scale) = if let Some(d) = lower.strip_suffix("kib").or_else(|| lower.strip_suffix('k')) {
        (d, 1 << 10)
    } else if let Some(d) = lower.strip_suffix("mib").or_else(|| lower.strip_suffix('m')) {
        (d, 1 << 20)
    } else {
        (lower.strip_suffix('b').unwrap_or(&lower), 1)
    };
    let n: usize = digits.trim().parse().ok()?;
    n.checked_mul(scale).filter(|&n| n > 0 && n <= 1 << 30)
}

fn split(list: &str) -> Vec<String> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

pub(crate) fn parse_args(args: &[String]) -> Result<Options, String> {
    let quick = args.iter().any(|a| a == "--quick");
    let mut o = Options {
        quick,
        algos: None,
        sizes: if quick { vec![16, 64, 1024, 8192] } else { vec![16, 64, 256, 1024, 8192, 16384, 1 << 20] },
        backends: None,
        rounds: if quick { 9 } else { 21 },
        round_ms: if quick { 10 } else { 40 },
        batches: true,
        best: false,
        no_shani: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        // `--opt=value` or `--opt value`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it.next().cloned().ok_or_else(|| format!("`{name}` needs a value")),
            }
        };
        match name {
            "--quick" => {}
            "--no-batches" => o.batches = false,
            "--best" => o.best = true,
            "--no-shani" => {
                o.no_shani = true;
                o.batches = false;
            }
            "--algo" | "--algos" => {
                let list = split(&value()?);
                if list.is_empty() {
                    return Err("`--algo` needs at least one algorithm".into());
                }
                if list.iter().any(|a| a == "all") {
                    o.algos = Some(ALGO_IDS.iter().map(|s| s.to_string()).collect());
                } else {
                    for a in &list {
                        if !ALGO_IDS.contains(&a.as_str()) {
                            return Err(format!("unknown algorithm `{a}`; known: {}", ALGO_IDS.join(", ")));
                        }
                    }
                    o.algos = Some(list);
                }
            }
            "--size" | "--sizes" => {
                let v = value()?;
                let list = split(&v);
                if list.is_empty() {
                    return Err("`--size` needs at least one size".into());
                }
                o.sizes = list
                    .iter()
                    .map(|s| {
                        parse_size(s).ok_or_else(|| {
                            format!("bad size `{s}`: give bytes (16, 1024), or 1K/1KiB, 1M/1MiB, up to 1G")
                        })
                    })
                    .collect::<Result<_, _>>()?;
                o.sizes.sort_unstable();
                o.sizes.dedup();
            }
            "--backend" | "--backends" => {
                let list = split(&value()?);
                if list.is_empty() {
                    return Err("`--backend` needs at least one backend name".into());
                }
                o.backends = Some(list);
            }
            "--rounds" => {
                let v = value()?;
                o.rounds = v.parse().ok().filter(|&n| (1..=1000).contains(&n)).ok_or(format!("bad --rounds `{v}`"))?;
            }
            "--round-ms" => {
                let v = value()?;
                o.round_ms =
                    v.parse().ok().filter(|&n| (1..=10_000).contains(&n)).ok_or(format!("bad --round-ms `{v}`"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(o)
}

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

/// The features the peers binary was built with (`None`: the defaults,
/// everything) and the parts left out, with the first error line of each.
struct Build {
    features: Option<Vec<&'static str>>,
    left_out: Vec<LeftOut>,
}

/// How cargo is run on `bench/peers`.
struct PeerCargo {
    cargo: String,
    manifest: PathBuf,
    /// The SHA-NI-masked build (`--no-shani`).
    no_shani: bool,
}

/// `OPENSSL_ia32cap` for the masked run: the second word is CPUID leaf 7's
/// EBX, whose bit 29 is SHA; `~` clears the bits given.
const OPENSSL_NO_SHANI: &str = ":~0x20000000";

/// RustCrypto's 0.11 line reads these cfgs to build its software SHA-1 and
/// SHA-256 code only.
const RUSTCRYPTO_SOFT_CFGS: &str = r#"--cfg sha1_backend="soft" --cfg sha2_256_backend="soft""#;

impl PeerCargo {
    /// `cargo <verb> --release` on the peers with `features` (`None`: the
    /// defaults). The masked build adds the `no-shani` feature and the
    /// RustCrypto cfgs, in a target directory of its own so that the normal
    /// build is not redone each time.
    fn command(&self, verb: &str, features: Option<&[&str]>) -> Command {
        let mut cmd = Command::new(&self.cargo);
        cmd.arg(verb).arg("--release").arg("--manifest-path").arg(&self.manifest);
        let mut features: Option<Vec<&str>> = features.map(<[&str]>::to_vec);
        if features.is_some() {
            cmd.arg("--no-default-features");
        }
        if self.no_shani {
            features.get_or_insert_with(Vec::new).push("no-shani");
            let target = self.manifest.parent().unwrap_or(Path::new(".")).join("target/no-shani");
            cmd.env("CARGO_TARGET_DIR", target);
            let flags = std::env::var("RUSTFLAGS").unwrap_or_default();
            cmd.env("RUSTFLAGS", format!("{flags} {RUSTCRYPTO_SOFT_CFGS}").trim_start());
        }
        if let Some(f) = features.filter(|f| !f.is_empty()) {
            cmd.arg("--features").arg(f.join(","));
        }
        cmd
    }
}

/// Run `cmd`, showing the top-level lines of its stderr (`Compiling ...`,
/// `error: ...`; not the indented detail) as they come; returns success and
/// the whole stderr text.
fn run_streamed(mut cmd: Command, show: bool) -> Result<(bool, String), String> {
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot run cargo: {e}"))?;
    let mut log = String::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if show && is_headline(&line) {
                eprintln!("      {line}");
            }
            log.push_str(&line);
            log.push('\n');
        }
    }
    let status = child.wait().map_err(|e| format!("cargo did not finish: {e}"))?;
    Ok((status.success(), log))
}

/// Cargo's status lines (`   Compiling ring v0.17.14`, right-aligned) and
/// the first line of each diagnostic (`error: ...`, `warning: ...`).
fn is_headline(line: &str) -> bool {
    const STATUS: &[&str] = &[
        "Compiling",
        "Checking",
        "Finished",
        "Updating",
        "Downloading",
        "Downloaded",
        "Locking",
        "Adding",
        "Blocking",
    ];
    line.starts_with("error")
        || line.starts_with("warning")
        || STATUS.contains(&line.split_whitespace().next().unwrap_or(""))
}

fn first_error(log: &str) -> String {
    let line = log.lines().find(|l| l.trim_start().starts_with("error")).unwrap_or("(no error line; see the log)");
    // Backticks would break the report's inline code spans.
    line.trim().replace('`', "'")
}

fn build_peers(peers: &PeerCargo) -> Result<Build, String> {
    let (ok, log) = run_streamed(peers.command("build", None), true)?;
    if ok {
        return Ok(Build { features: None, left_out: Vec::new() });
    }
    eprintln!("      the full build failed ({}); checking each part on its own", first_error(&log));
    let mut kept = Vec::new();
    let mut left_out = Vec::new();
    for &(feature, what, family) in PARTS {
        eprint!("      checking {what} (feature `{feature}`) ... ");
        let (ok, log) = run_streamed(peers.command("check", Some(&[feature])), false)?;
        if ok {
            eprintln!("ok");
            kept.push(feature);
        } else {
            let why = first_error(&log);
            eprintln!("left out: {why}");
            left_out.push(LeftOut { what, family, why });
        }
    }
    let (ok, log) = run_streamed(peers.command("build", Some(&kept)), true)?;
    if !ok {
        eprintln!("{log}");
        return Err(format!(
            "bench/peers does not build even without the failing parts ({}): {}",
            left_out.iter().map(|l| l.what).collect::<Vec<_>>().join(", "),
            first_error(&log)
        ));
    }
    Ok(Build { features: Some(kept), left_out })
}

/// The batches the report times (`COUNTxBYTES`): 64 messages of three
/// sizes for the engines' throughput, and two small batches (2 x 16 B,
/// 8 x 256 B) where an engine's setup costs most, to show that a batch is
/// never slower than its messages hashed one by one.
const BATCH_SHAPES: &str = "2x16,8x256,64x64,64x1024,64x8192";

/// Run the measuring program, showing progress; returns the parsed
/// results, the raw output and when the program's first line came.
fn measure(
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
        cmd.arg("--algo").arg(algos.join(","));
    }
    let sizes: Vec<String> = o.sizes.iter().map(usize::to_string).collect();
    cmd.arg("--size").arg(sizes.join(","));
    if let Some(b) = &o.backends {
        cmd.arg("--backend").arg(b.join(","));
    }
    cmd.arg("--rounds").arg(o.rounds.to_string()).arg("--round-ms").arg(o.round_ms.to_string());
    cmd.arg("--many").arg(if o.batches { BATCH_SHAPES } else { "none" });
    cmd.arg("--uneven").arg(if o.batches { "64x8192" } else { "none" });
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

/// One algorithm as the measuring program names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AlgoName {
    pub(crate) id: String,
    pub(crate) name: String,
}

/// One of our crates' backends on this CPU.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CrateLine {
    pub(crate) name: String,
    pub(crate) detected: String,
    pub(crate) available: String,
    pub(crate) unavailable: String,
}

/// A peer family and whether it ran.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PeerLine {
    pub(crate) family: String,
    pub(crate) ok: bool,
    pub(crate) text: String,
}

/// A remark about one implementation of one algorithm.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Note {
    pub(crate) algo: String,
    pub(crate) family: String,
    pub(crate) text: String,
}

/// One-shot timing of one implementation at one size.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Single {
    pub(crate) algo: String,
    pub(crate) family: String,
    pub(crate) variant: String,
    pub(crate) detected: bool,
    pub(crate) size: usize,
    /// Median nanoseconds per message.
    pub(crate) ns: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
}

impl Single {
    /// `ours sha-ni`, `openssl`, `rustcrypto-0.10`.
    pub(crate) fn label(&self) -> String {
        if self.family == "ours" { format!("ours {}", self.variant) } else { self.family.clone() }
    }

    /// Bytes per second.
    pub(crate) fn rate(&self) -> f64 {
        self.size as f64 * 1e9 / self.ns
    }
}

/// Batch timing: `count` messages of `size` bytes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Many {
    pub(crate) algo: String,
    pub(crate) label: String,
    pub(crate) baseline: bool,
    pub(crate) count: usize,
    pub(crate) size: usize,
    /// The engine the batch ran on (`Backend::batch_engine`), or empty
    /// when the measuring program did not say.
    pub(crate) engine: String,
    /// Median nanoseconds per batch.
    pub(crate) ns: f64,
    pub(crate) min: f64,
}

impl Many {
    /// Aggregate bytes per second.
    pub(crate) fn rate(&self) -> f64 {
        (self.count * self.size) as f64 * 1e9 / self.ns
    }
}

/// `digest_many` on the detected backend over a batch of `count` messages
/// of unequal lengths (0 to twice the mean, `bench::uneven_lengths`) and,
/// interleaved with it, over `count` equal messages of the same total.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Uneven {
    pub(crate) algo: String,
    pub(crate) label: String,
    pub(crate) count: usize,
    /// Bytes in either batch.
    pub(crate) total: usize,
    pub(crate) engine: String,
    /// Median and fastest nanoseconds per uneven batch.
    pub(crate) ns: f64,
    pub(crate) min: f64,
    /// The same for the equal-length batch.
    pub(crate) equal_ns: f64,
    pub(crate) equal_min: f64,
}

impl Uneven {
    /// Aggregate bytes per second of the uneven batch.
    pub(crate) fn rate(&self) -> f64 {
        self.total as f64 * 1e9 / self.ns
    }

    /// The same for the equal-length batch.
    pub(crate) fn equal_rate(&self) -> f64 {
        self.total as f64 * 1e9 / self.equal_ns
    }
}

/// Everything the measuring program said.
#[derive(Debug, Default)]
pub(crate) struct Results {
    pub(crate) cpu_features: String,
    /// What the SHA-NI-masked build changed (`--no-shani`), if it was one.
    pub(crate) masked: Option<String>,
    pub(crate) crates: Vec<CrateLine>,
    pub(crate) peers: Vec<PeerLine>,
    pub(crate) algos: Vec<AlgoName>,
    pub(crate) notes: Vec<Note>,
    pub(crate) singles: Vec<Single>,
    pub(crate) manys: Vec<Many>,
    pub(crate) unevens: Vec<Uneven>,
}

impl Results {
    /// Take in one output line (already split at tabs); unknown lines are
    /// ignored.
    pub(crate) fn parse_line(&mut self, f: &[&str]) {
        let num = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
        let int = |s: &str| s.parse::<usize>().unwrap_or(0);
        let s = |s: &str| s.to_string();
        match *f {
            ["cpu-features", list] => self.cpu_features = s(list),
            ["masked", "sha-ni", text] => self.masked = Some(s(text)),
            ["crate", name, detected, available, unavailable] => self.crates.push(CrateLine {
                name: s(name),
                detected: s(detected),
                available: s(available),
                unavailable: s(unavailable),
            }),
            ["peer", family, state, text] => {
                self.peers.push(PeerLine { family: s(family), ok: state == "ok", text: s(text) })
            }
            ["algo", id, name, _] => self.algos.push(AlgoName { id: s(id), name: s(name) }),
            ["note", algo, family, text] => self.notes.push(Note { algo: s(algo), family: s(family), text: s(text) }),
            ["single", algo, family, variant, detected, size, ns, min, max, _] => self.singles.push(Single {
                algo: s(algo),
                family: s(family),
                variant: if variant == "-" { String::new() } else { s(variant) },
                detected: detected == "1",
                size: int(size),
                ns: num(ns),
                min: num(min),
                max: num(max),
            }),
            ["many", algo, label, baseline, count, size, ns, min, _, _, ref engine @ ..] => self.manys.push(Many {
                algo: s(algo),
                label: s(label),
                baseline: baseline == "1",
                count: int(count),
                size: int(size),
                engine: engine.first().map_or(String::new(), |e| s(e)),
                ns: num(ns),
                min: num(min),
            }),
            ["uneven", algo, label, count, total, ns, min, equal_ns, equal_min, _, ref engine @ ..] => {
                self.unevens.push(Uneven {
                    algo: s(algo),
                    label: s(label),
                    count: int(count),
                    total: int(total),
                    engine: engine.first().map_or(String::new(), |e| s(e)),
                    ns: num(ns),
                    min: num(min),
                    equal_ns: num(equal_ns),
                    equal_min: num(equal_min),
                })
            }
            _ => {}
        }
    }
}

impl Results {
    /// Replace every median by the fastest round (`--best`).
    pub(crate) fn use_fastest_round(&mut self) {
        for s in &mut self.singles {
            s.ns = s.min;
        }
        for m in &mut self.manys {
            m.ns = m.min;
        }
        for u in &mut self.unevens {
            u.ns = u.min;
            u.equal_ns = u.equal_min;
        }
    }
}

/// `(package, version)` of the registry packages in the peers' lock file
/// that are peers.
fn lock_versions(lock: &Path) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(lock) else { return Vec::new() };
    let mut out = Vec::new();
    for block in text.split("[[package]]") {
        let field = |key: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(key).map(|v| v.trim().trim_start_matches('=').trim().trim_matches('"')))
        };
        let (Some(name), Some(version)) = (field("name "), field("version ")) else { continue };
        let from_registry = field("source ").is_some_and(|s| s.starts_with("registry+"));
        if from_registry && ["md-5", "sha1", "sha2", "sha3", "shake", "ring", "libloading"].contains(&name) {
            out.push((name.to_string(), version.to_string()));
        }
    }
    out
}

/// `"AMD EPYC 7B13 (2 logical CPUs available)"`: from /proc/cpuinfo's
/// `model name` on x86; on Linux aarch64, whose /proc/cpuinfo has no model
/// name, from the MIDR implementer and part numbers (`"ARM Neoverse-N1"`),
/// with the board's `Model` line where there is one (Raspberry Pi); on
/// macOS from `sysctl machdep.cpu.brand_string` (`"Apple M1"`).
fn cpu_model() -> String {
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let model = if let Some(name) = field("model name") {
        if cfg!(target_arch = "aarch64") && field("vendor_id").is_some() {
            // qemu-user shows the host's /proc/cpuinfo.
            Some(format!("aarch64 emulated (qemu-user?) on {name}"))
        } else {
            Some(name)
        }
    } else if let (Some(implementer), Some(part)) = (field("CPU implementer"), field("CPU part")) {
        let name = arm_core_name(&implementer, &part);
        Some(match field("Model") {
            Some(board) => format!("{name} ({board})"),
            None => name,
        })
    } else if cfg!(target_os = "macos") {
        Command::new("sysctl")
            .args(["-n", "machdep.cpu.brand_string"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    } else {
        field("Model").or_else(|| field("Hardware"))
    };
    format!(
        "{} ({cpus} logical CPUs available)",
        model.unwrap_or_else(|| format!("unknown {} CPU", std::env::consts::ARCH))
    )
}

/// The core named by a MIDR implementer and part number, as Linux prints
/// them in /proc/cpuinfo (`0x41`, `0xd0c`): the common server, desktop and
/// board cores, else the raw numbers.
fn arm_core_name(implementer: &str, part: &str) -> String {
    let parse = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    let name = match (parse(implementer), parse(part)) {
        (Some(0x41), Some(p)) => match p {
            0xd03 => Some("ARM Cortex-A53"),
            0xd04 => Some("ARM Cortex-A35"),
            0xd05 => Some("ARM Cortex-A55"),
            0xd07 => Some("ARM Cortex-A57"),
            0xd08 => Some("ARM Cortex-A72"),
            0xd09 => Some("ARM Cortex-A73"),
            0xd0a => Some("ARM Cortex-A75"),
            0xd0b => Some("ARM Cortex-A76"),
            0xd0c => Some("ARM Neoverse-N1"),
            0xd0d => Some("ARM Cortex-A77"),
            0xd40 => Some("ARM Neoverse-V1"),
            0xd41 => Some("ARM Cortex-A78"),
            0xd44 => Some("ARM Cortex-X1"),
            0xd46 => Some("ARM Cortex-A510"),
            0xd47 => Some("ARM Cortex-A710"),
            0xd48 => Some("ARM Cortex-X2"),
            0xd49 => Some("ARM Neoverse-N2"),
            0xd4f => Some("ARM Neoverse-V2"),
            0xd80 => Some("ARM Cortex-A520"),
            0xd81 => Some("ARM Cortex-A720"),
            0xd82 => Some("ARM Cortex-X4"),
            0xd84 => Some("ARM Neoverse-V3"),
            0xd8e => Some("ARM Neoverse-N3"),
            _ => None,
        },
        (Some(0x61), Some(p)) => match p {
            0x022 | 0x023 => Some("Apple M1"),
            0x024 | 0x025 | 0x028 | 0x029 => Some("Apple M1 Pro/Max"),
            0x032 | 0x033 => Some("Apple M2"),
            _ => Some("Apple"),
        },
        (Some(0xc0), Some(0xac3)) => Some("Ampere AmpereOne"),
        (Some(0x48), Some(0xd01)) => Some("HiSilicon Kunpeng 920"),
        (Some(0x46), Some(0x001)) => Some("Fujitsu A64FX"),
        _ => None,
    };
    match name {
        Some(n) => n.to_string(),
        None => format!("aarch64 CPU implementer {implementer} part {part}"),
    }
}

/// The short commit id, marked when the tree has changes.
fn git_commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(id) => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(s) if !s.is_empty() => format!("{id} with uncommitted changes"),
            _ => id,
        },
        None => "unknown (not a git checkout)".to_string(),
    }
}

/// `YYYY-MM-DD HH:MM UTC`, from the system clock (civil-from-days, as in
/// Howard Hinnant's date algorithms).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let mut s = String::new();
    let _ = write!(s, "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60);
    s
}

/// The message size as a short label: `16 B`, `1 KiB`, `1 MiB`.
pub(crate) fn size_label(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}

/// A rate in bytes per second as `1.95 GB/s` / `850 MB/s` (decimal units,
/// as `openssl speed`).
pub(crate) fn rate_label(rate: f64) -> String {
    if rate >= 1e9 {
        format!("{:.2} GB/s", rate / 1e9)
    } else if rate >= 1e6 {
        format!("{:.0} MB/s", rate / 1e6)
    } else {
        format!("{:.0} kB/s", rate / 1e3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn arm_cores_are_named() {
        assert_eq!(arm_core_name("0x41", "0xd0c"), "ARM Neoverse-N1");
        assert_eq!(arm_core_name("0x41", "0xd40"), "ARM Neoverse-V1");
        assert_eq!(arm_core_name("0x61", "0x023"), "Apple M1");
        assert_eq!(arm_core_name("0x41", "0xfff"), "aarch64 CPU implementer 0x41 part 0xfff");
        assert_eq!(arm_core_name("junk", "0xd0c"), "aarch64 CPU implementer junk part 0xd0c");
        assert!(cpu_model().ends_with("logical CPUs available)"));
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("16"), Some(16));
        assert_eq!(parse_size("16B"), Some(16));
        assert_eq!(parse_size("1K"), Some(1024));
        assert_eq!(parse_size("8KiB"), Some(8192));
        assert_eq!(parse_size("1m"), Some(1 << 20));
        assert_eq!(parse_size("0"), None);
        assert_eq!(parse_size("-3"), None);
        assert_eq!(parse_size("12Q"), None);
        assert_eq!(parse_size("2G"), None);
    }

    #[test]
    fn options_parse() {
        let o = parse_args(&args("--quick --algo sha256,md5 --size 16,1K --backend portable")).unwrap();
        assert!(o.quick);
        assert_eq!(o.algos, Some(vec!["sha256".to_string(), "md5".to_string()]));
        assert_eq!(o.sizes, vec![16, 1024]);
        assert_eq!(o.backends, Some(vec!["portable".to_string()]));
        assert_eq!(o.rounds, 9);
        let o = parse_args(&args("--size=64 --rounds=3 --no-batches")).unwrap();
        assert_eq!((o.sizes, o.rounds, o.batches, o.quick), (vec![64], 3, false, false));
        assert_eq!(parse_args(&args("--algo all")).unwrap().algos.unwrap().len(), ALGO_IDS.len());
    }

    #[test]
    fn no_shani_option() {
        let o = parse_args(&args("--quick --no-shani")).unwrap();
        assert!(o.no_shani && !o.batches);
        assert!(!parse_args(&args("--quick")).unwrap().no_shani);
        let masked =
            PeerCargo { cargo: "cargo".into(), manifest: PathBuf::from("/r/bench/peers/Cargo.toml"), no_shani: true };
        let cmd = masked.command("build", None);
        let argv: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(argv[argv.len() - 2..], ["--features".to_string(), "no-shani".to_string()]);
        assert!(!argv.contains(&"--no-default-features".to_string()));
        let env: Vec<(String, String)> = cmd
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_string_lossy().into_owned(), v?.to_string_lossy().into_owned())))
            .collect();
        assert!(env.iter().any(|(k, v)| k == "CARGO_TARGET_DIR" && v.ends_with("bench/peers/target/no-shani")));
        assert!(env.iter().any(|(k, v)| k == "RUSTFLAGS" && v.contains(r#"sha2_256_backend="soft""#)));
        let argv: Vec<_> =
            masked.command("check", Some(&["sha256"])).get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert!(argv.contains(&"--no-default-features".to_string()) && argv.contains(&"sha256,no-shani".to_string()));
        let plain = PeerCargo { no_shani: false, ..masked };
        let cmd = plain.command("build", None);
        assert_eq!(cmd.get_envs().count(), 0);
        assert!(!cmd.get_args().any(|a| a == "--features"));
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in ["--algo sha-256", "--size 0", "--size", "--rounds x", "--frobnicate", "--backend ,", "--round-ms 0"]
        {
            let e = parse_args(&args(bad)).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
        assert!(parse_args(&args("--algo sha-256")).unwrap_err().contains("unknown algorithm `sha-256`"));
        assert_eq!(parse_args(&args("--help")).unwrap_err(), "");
    }

    #[test]
    fn result_lines_parse() {
        let mut r = Results::default();
        r.parse_line(&["single", "sha256", "ours", "sha-ni", "1", "1024", "500", "480", "600", "7"]);
        r.parse_line(&["single", "sha256", "openssl", "-", "0", "1024", "1000", "900", "1100", "7"]);
        r.parse_line(&["many", "sha256", "digest_many sha-ni", "0", "64", "64", "6400", "6000", "7000", "7"]);
        r.parse_line(&[
            "many",
            "sha256",
            "digest_many sha-ni",
            "0",
            "64",
            "1024",
            "64000",
            "60000",
            "70000",
            "7",
            "avx512 16 lanes",
        ]);
        r.parse_line(&["garbage"]);
        assert_eq!(r.masked, None);
        r.parse_line(&["masked", "sha-ni", "our SHA-NI backends left out"]);
        assert_eq!(r.masked.as_deref(), Some("our SHA-NI backends left out"));
        assert_eq!(r.singles.len(), 2);
        assert_eq!(r.singles[0].label(), "ours sha-ni");
        assert_eq!(r.singles[1].label(), "openssl");
        assert_eq!(r.singles[1].variant, "");
        assert!((r.singles[0].rate() - 1024.0 * 2e6).abs() < 1.0);
        assert!((r.manys[0].rate() - 64.0 * 64.0 * 1e9 / 6400.0).abs() < 1.0);
        // An older measuring program names no engine.
        assert_eq!((r.manys[0].engine.as_str(), r.manys[1].engine.as_str()), ("", "avx512 16 lanes"));
        let uneven = ["uneven", "md5", "digest_many avx512", "64", "524288", "50000", "45000", "40000", "39000", "9"];
        r.parse_line(&[&uneven[..], &["avx512 2x16 lanes, narrowing"]].concat());
        let u = &r.unevens[0];
        assert_eq!((u.count, u.total, u.engine.as_str()), (64, 524288, "avx512 2x16 lanes, narrowing"));
        assert!((u.rate() / u.equal_rate() - 0.8).abs() < 1e-9);
        r.use_fastest_round();
        assert_eq!((r.unevens[0].ns, r.unevens[0].equal_ns), (45000.0, 39000.0));
    }

    #[test]
    fn build_headlines() {
        assert!(is_headline("   Compiling ring v0.17.14"));
        assert!(is_headline("    Finished `release` profile [optimized] target(s) in 35.78s"));
        assert!(is_headline("error: failed to run custom build command for `ring v0.17.14`"));
        assert!(!is_headline("  --> src/main.rs:3:5"));
        assert!(!is_headline("        cargo:rerun-if-env-changed=CC"));
        assert!(!is_headline(""));
    }

    #[test]
    fn labels() {
        assert_eq!(size_label(16), "16 B");
        assert_eq!(size_label(16384), "16 KiB");
        assert_eq!(size_label(1 << 20), "1 MiB");
        assert_eq!(rate_label(1.954e9), "1.95 GB/s");
        assert_eq!(rate_label(850.2e6), "850 MB/s");
    }

    #[test]
    fn lock_file_versions() {
        let dir = std::env::temp_dir().join(format!("xtask-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lock = dir.join("Cargo.lock");
        std::fs::write(
            &lock,
            "[[package]]\nname = \"sha2\"\nversion = \"0.10.9\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n\
             [[package]]\nname = \"sha1\"\nversion = \"0.1.0\"\n\n\
             [[package]]\nname = \"serde\"\nversion = \"1.0.0\"\nsource = \"registry+x\"\n",
        )
        .unwrap();
        assert_eq!(lock_versions(&lock), vec![("sha2".to_string(), "0.10.9".to_string())]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates() {
        let d = utc_now();
        assert_eq!(d.len(), "2026-11-30 05:00 UTC".len(), "{d}");
        assert!(d.starts_with("20"), "{d}");
    }
}
