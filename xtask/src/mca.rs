//! `cargo xtask mca`: cycles per block of every aarch64 backend's inner
//! loop, by LLVM's scheduling models of real cores (`llvm-mca`), beside the
//! same for OpenSSL's loops in Debian's arm64 `libcrypto`.
//!
//! A model, not a measurement: `llvm-mca` replays the loop body through a
//! core's published (or reverse-engineered) latencies, ports and widths,
//! with perfect branch prediction and every load hitting L1. What it sees
//! well is the dependency chain and port pressure of a loop; what it cannot
//! see (front-end, fusion, memory) it leaves out. `--x86` runs the same
//! procedure on our x86-64 loops with `-mcpu=znver3` beside cycles measured
//! on this machine, to show how far the model is to be trusted.
//!
//! Steps: cross-build `bench/peers`' `differential` program (every backend
//! of every crate, release profile) for `aarch64-unknown-linux-gnu` with
//! Debian's `rustc-web` into `target/aarch64`, as `.ci/aarch64` does; list
//! its functions with `llvm-objdump-19`; in each backend's function find the
//! loop (a backward branch) that holds the instruction that marks the
//! algorithm's round (`sha256h`, `bcax`, ...); count the rounds in it (so
//! the number of interleaved streams is read from the code, not assumed);
//! write the loop body out as assembly and run `llvm-mca-19 -iterations`.
//! OpenSSL's `libcrypto` has no symbols for its assembly, so its loops are
//! found by the same marks, or (scalar code) as the first loop after the
//! `adr` that loads the round-constant table, whose address is found by
//! searching the library for the constants (FIPS 180-4 §4.2.3, FIPS 202
//! §3.2.5).

mod loops;
mod objdump;
mod specs;
mod x86;

use loops::{Image, find};
use objdump::{Insn, parse_objdump};
use specs::{Place, Spec, specs};

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const HELP: &str = "usage: cargo xtask mca [--no-build] [--iterations N] [--x86]

Cross-builds bench/peers' `differential` program for aarch64-unknown-linux-gnu
(Debian's rustc-web, target/aarch64, as .ci/aarch64 does), finds every aarch64
backend's per-block loop and OpenSSL's in Debian's arm64 libcrypto, and prints
cycles per block (per round for Keccak) by llvm-mca-19's models of Cortex-A72,
Neoverse N1, V1, V2, Apple M1 and M4: a model, not a measurement.

options:
  --no-build      use the binary already in target/aarch64
  --iterations N  llvm-mca iterations of each loop (default 200)
  --x86           also model our x86-64 loops with -mcpu=znver3 beside cycles
                  measured on this machine (builds the native release program)
  -h, --help      this text

Needs (Debian/Ubuntu; installed with apt-get when run as root): rustc-web,
libstd-rust-web-dev:arm64, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross,
llvm-19, libssl3:arm64.";

/// The core models: `llvm-mca` CPU name, its column title, and the
/// extensions the real core has that LLVM does not switch on by default for
/// it (the crypto extensions are optional in Arm's cores; these are the
/// ones shipped in the parts people run: Graviton 2 = N1, Graviton 3 = V1,
/// Graviton 4 = V2, Raspberry Pi 4 = A72 without them, most A72 boards with
/// SHA-2). Cortex-A72 and Neoverse N1 have no SHA-512 or SHA-3 instructions.
const CPUS: &[(&str, &str, &str)] = &[
    ("cortex-a72", "Cortex-A72", "+sha2"),
    ("neoverse-n1", "Neoverse N1", "+sha2"),
    ("neoverse-v1", "Neoverse V1", "+sha2,+sha3"),
    ("neoverse-v2", "Neoverse V2", "+sha2,+sha3"),
    ("apple-m1", "Apple M1", ""),
    ("apple-m4", "Apple M4", ""),
];

const TARGET: &str = "aarch64-unknown-linux-gnu";

const LIBCRYPTO: &str = "/usr/lib/aarch64-linux-gnu/libcrypto.so.3";

const OBJDUMP: &str = "llvm-objdump-19";

const MCA: &str = "llvm-mca-19";

/// Run `cmd`, its stdout as text, or an error naming it.
fn output(cmd: &mut Command) -> Result<String, String> {
    let shown = format!("{cmd:?}");
    let out = cmd.stderr(Stdio::piped()).output().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{shown} failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Cycles per pass of `asm` on `cpu` by `llvm-mca` (`Total Cycles` over
/// the iterations), or why there is none (an instruction the core lacks).
fn mca(asm: &[String], cpu: &str, attrs: &str, triple: &str, iterations: u32, file: &Path) -> Result<f64, String> {
    let mut text = String::from(".Ltop:\n");
    for line in asm {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut cmd = Command::new(MCA);
    cmd.arg(format!("-mtriple={triple}")).arg(format!("-mcpu={cpu}")).arg(format!("-iterations={iterations}"));
    if !attrs.is_empty() {
        cmd.arg(format!("-mattr={attrs}"));
    }
    let out = cmd.arg(file).output().map_err(|e| format!("cannot run {MCA}: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(match err.lines().find(|l| l.contains("instruction requires:")) {
            Some(l) => format!("no {}", l.rsplit("requires:").next().unwrap_or("").trim()),
            None => format!("{MCA} failed: {}", err.lines().next().unwrap_or("").trim()),
        });
    }
    let total: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Total Cycles:"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or("no `Total Cycles` in llvm-mca's output")?;
    Ok(total / f64::from(iterations))
}

/// Whether `tool` runs.
fn have(tool: &str, arg: &str) -> bool {
    Command::new(tool).arg(arg).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Install the Debian packages not yet installed (as root), or say which
/// are missing.
fn ensure_packages(packages: &[&str]) -> Result<(), String> {
    let missing: Vec<&str> = packages
        .iter()
        .copied()
        .filter(|p| {
            !Command::new("dpkg-query")
                .args(["-W", "-f=${Status}", p])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("ok installed"))
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let is_root = output(Command::new("id").arg("-u")).is_ok_and(|u| u.trim() == "0");
    if !is_root {
        return Err(format!(
            "missing Debian packages: {}; install them with\n  sudo dpkg --add-architecture arm64 && sudo apt-get update && sudo apt-get install {}",
            missing.join(" "),
            missing.join(" ")
        ));
    }
    eprintln!("mca: installing {}", missing.join(" "));
    let foreign = output(Command::new("dpkg").arg("--print-foreign-architectures")).unwrap_or_default();
    if !foreign.lines().any(|l| l == "arm64") {
        output(Command::new("dpkg").args(["--add-architecture", "arm64"]))?;
    }
    output(Command::new("apt-get").args(["update", "-qq"]))?;
    output(
        Command::new("apt-get").args(["install", "-y", "-qq"]).args(&missing).env("DEBIAN_FRONTEND", "noninteractive"),
    )?;
    Ok(())
}

struct Options {
    build: bool,
    iterations: u32,
    x86: bool,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut opts = Options { build: true, iterations: 200, x86: false };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--no-build" => opts.build = false,
            "--x86" => opts.x86 = true,
            "--iterations" => {
                let n = args.next().ok_or("--iterations needs a number")?;
                opts.iterations = match n.parse() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(format!("--iterations: `{n}` is not a positive whole number")),
                };
            }
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(None);
            }
            other => return Err(format!("unknown option `{other}`\n\n{HELP}")),
        }
    }
    Ok(Some(opts))
}

/// The workspace root (xtask's parent).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// The features of `bench/peers` the `differential` program is built with
/// (as `.ci/aarch64` builds it, so that each reuses the other's build).
const PEER_FEATURES: &str = "md5,sha1,sha256,sha512,sha3,openssl";

/// Cross-build the `differential` program for aarch64; its path.
fn build_aarch64(root: &Path, build: bool) -> Result<PathBuf, String> {
    let target_dir = root.join("target/aarch64");
    let bin = target_dir.join(TARGET).join("release/differential");
    if !build {
        return if bin.exists() { Ok(bin) } else { Err(format!("--no-build: {} does not exist", bin.display())) };
    }
    eprintln!("mca: cross-building bench/peers' differential program for {TARGET} (Debian rustc-web, target/aarch64)");
    let status = Command::new("cargo")
        .current_dir(root)
        .args(["build", "--release", "--target", TARGET, "--manifest-path", "bench/peers/Cargo.toml"])
        .args(["--no-default-features", "--features", PEER_FEATURES, "--bin", "differential"])
        .env("RUSTC", "/usr/bin/rustc")
        .env("RUSTDOC", "/usr/bin/rustdoc")
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", "aarch64-linux-gnu-gcc")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("the aarch64 build of the differential program failed (see above)".into());
    }
    Ok(bin)
}

/// Disassemble `path` (Rust names demangled) into functions.
fn disassemble(path: &Path) -> Result<Vec<(String, Vec<Insn>)>, String> {
    eprintln!("mca: disassembling {}", path.display());
    let text = output(Command::new(OBJDUMP).args(["-d", "-C", "--no-show-raw-insn"]).arg(path))?;
    Ok(parse_objdump(&text))
}

/// A result row: its title, where the loop is, and per core model the
/// cycles per unit or why there are none.
struct Row {
    spec: Spec,
    location: Result<String, String>,
    cells: Vec<Result<f64, String>>,
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let Some(opts) = parse_args(args)? else { return Ok(()) };
    ensure_packages(&[
        "rustc-web",
        "libstd-rust-web-dev:arm64",
        "gcc-aarch64-linux-gnu",
        "libc6-dev-arm64-cross",
        "llvm-19",
        "libssl3:arm64",
    ])?;
    if !have(MCA, "--version") || !have(OBJDUMP, "--version") {
        return Err(format!("{MCA} and {OBJDUMP} must be on PATH (Debian package llvm-19)"));
    }
    let root = root();
    let bin = build_aarch64(&root, opts.build)?;
    let ours = disassemble(&bin)?;
    // libcrypto's assembly has no symbols of its own (objdump names each
    // instruction after the nearest exported one): one function it is.
    let theirs =
        vec![("libcrypto".to_string(), disassemble(Path::new(LIBCRYPTO))?.into_iter().flat_map(|(_, i)| i).collect())];
    let image = Image::load(Path::new(LIBCRYPTO))?;
    let dir = root.join("target/mca");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;

    let mut rows = Vec::new();
    for spec in specs() {
        let functions = if matches!(spec.place, Place::Ours(_)) { &ours } else { &theirs };
        let found = find(&spec, functions, Some(&image));
        eprintln!(
            "mca: {}: {}",
            spec.title,
            match &found {
                Ok(f) => f.location.clone(),
                Err(e) => format!("not found: {e}"),
            }
        );
        let cells = CPUS
            .iter()
            .map(|&(cpu, _, attrs)| match &found {
                Ok(f) => mca(&f.asm, cpu, attrs, "aarch64", opts.iterations, &dir.join(slug(spec.title)))
                    .map(|c| c / f.divisor as f64),
                Err(_) => Err("–".into()),
            })
            .collect();
        rows.push(Row { spec, location: found.map(|f| f.location), cells });
    }
    let table = render(&rows, opts.iterations);
    println!("{table}");
    std::fs::write(dir.join("table.md"), &table).map_err(|e| format!("target/mca/table.md: {e}"))?;
    eprintln!("mca: written to target/mca/table.md");
    let missing: Vec<&str> = rows.iter().filter(|r| r.location.is_err()).map(|r| r.spec.title).collect();
    if opts.x86 {
        x86::x86(&root, opts.iterations, &dir)?;
    }
    if !missing.is_empty() {
        return Err(format!("loops not found: {}", missing.join("; ")));
    }
    Ok(())
}

/// The table in Markdown: cycles per block (per round for Keccak), and for
/// our rows the ratio to OpenSSL's.
fn render(rows: &[Row], iterations: u32) -> String {
    let by_title: BTreeMap<&str, &Row> = rows.iter().map(|r| (r.spec.title, r)).collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Modelled cycles per block (per round for Keccak) by `llvm-mca-19 -iterations={iterations}`; \
         ours as `cycles (ratio to OpenSSL's)`; `–`: the core has no such instructions (no SHA-512 or SHA-3 \
         extension). A model, not a measurement.\n"
    );
    s.push_str("| loop |");
    for (_, title, _) in CPUS {
        let _ = write!(s, " {title} |");
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(CPUS.len()));
    s.push('\n');
    for row in rows {
        let _ = write!(s, "| {} |", row.spec.title);
        if row.location.is_err() {
            s.push_str(&" not found |".repeat(CPUS.len()));
            s.push('\n');
            continue;
        }
        let base = row.spec.versus.and_then(|t| by_title.get(t));
        for (i, cell) in row.cells.iter().enumerate() {
            let text = match (cell, base.map(|b| &b.cells[i])) {
                (Ok(c), Some(Ok(b))) => format!("{} ({:.2})", fmt_cycles(*c), c / b),
                (Ok(c), _) => fmt_cycles(*c),
                (Err(e), _) if e == "–" || e.starts_with("no ") => "–".to_string(),
                (Err(e), _) => format!("– ({e})"),
            };
            let _ = write!(s, " {text} |");
        }
        s.push('\n');
    }
    s
}

/// A file name for a row's loop: `target/mca/<slug>.s`.
fn slug(title: &str) -> String {
    let mut s: String =
        title.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    while s.contains("--") {
        s = s.replace("--", "-");
    }
    format!("{}.s", s.trim_matches('-'))
}

/// Cycles with one decimal below 100, whole above.
fn fmt_cycles(c: f64) -> String {
    if c < 100.0 { format!("{c:.1}") } else { format!("{c:.0}") }
}
