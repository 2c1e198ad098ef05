//! `cargo xtask mca --x86`: the same model for our x86-64 loops with
//! `-mcpu=znver3`, beside cycles measured on this machine, to show how far
//! the model is to be trusted.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use super::loops::find;
use super::specs::{Mark, Place, Spec, spec};
use super::{disassemble, fmt_cycles, mca, output, slug};

/// An x86 row: title, function, unit, `cycles` subject.
type X86Row = (&'static str, &'static str, Option<(Mark, usize)>, &'static str);

/// The x86 rows: our function, the marking instruction (or the outermost
/// loop of the function), units per block, and the `cycles` example's
/// `ALGO:BACKEND` that times the same code.
const X86: &[X86Row] = &[
    ("SHA-256 `sha-ni`", "sha256::backend::x86_shani::compress", Some((Mark("sha256rnds2", ""), 32)), "sha256:sha-ni"),
    ("SHA-1 `sha-ni`", "sha1::backend::x86_shani::compress", Some((Mark("sha1rnds4", ""), 20)), "sha1:sha-ni"),
    ("MD5 `x86` (scalar)", "md5::backend::x86_asm::compress", None, "md5:x86"),
];

/// The x86 check: our x86-64 loops in the `cycles` example program by
/// `llvm-mca -mcpu=znver3`, beside what the same program measures.
pub(super) fn x86(root: &Path, iterations: u32, dir: &Path) -> Result<(), String> {
    eprintln!("mca: building the `cycles` example (native, release)");
    let status = Command::new("cargo")
        .current_dir(root)
        .args(["build", "--release", "-p", "bench", "--example", "cycles"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("the build of the cycles example failed (see above)".into());
    }
    let bin = root.join("target/release/examples/cycles");
    let functions = disassemble(&bin)?;
    eprintln!("mca: timing {} subjects on this CPU (a few seconds each)", X86.len());
    let measured = output(Command::new(&bin).args(X86.iter().map(|r| r.3)))?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "x86-64 check on this machine ({}): `llvm-mca-19 -mcpu=znver3` cycles per block of our loops beside cycles \
         measured (`cargo run --release -p bench --example cycles`: time × the clock measured by a chain of dependent \
         squarings, 64 KiB messages, best of 5).\n",
        cpu_name()
    );
    s.push_str("| loop | modelled (znver3) | measured | model / measured |\n|---|---:|---:|---:|\n");
    for &(title, function, unit, subject) in X86 {
        let spec = Spec {
            unit,
            outer: unit.is_none(),
            ..spec(title, Place::Ours(function), Some(unit.map_or(Mark("", ""), |u| u.0)))
        };
        let model = find(&spec, &functions, None).and_then(|f| {
            mca(&f.asm, "znver3", "", "x86_64", iterations, &dir.join(format!("x86-{}", slug(title))))
                .map(|c| c / f.divisor as f64)
        });
        let meas: Option<f64> = measured.lines().find_map(|l| {
            l.strip_prefix(subject).and_then(|r| r.split_whitespace().next()).and_then(|v| v.parse().ok())
        });
        let _ = writeln!(
            s,
            "| {title} | {} | {} | {} |",
            model.as_ref().map_or_else(|e| format!("– ({e})"), |c| fmt_cycles(*c)),
            meas.map_or("–".into(), fmt_cycles),
            match (&model, meas) {
                (Ok(m), Some(x)) => format!("{:.2}", m / x),
                _ => "–".into(),
            }
        );
    }
    println!("{s}");
    std::fs::write(dir.join("x86.md"), &s).map_err(|e| format!("target/mca/x86.md: {e}"))?;
    Ok(())
}

/// The `model name` of /proc/cpuinfo.
fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}
