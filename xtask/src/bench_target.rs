//! `cargo xtask bench-target --target T`: the speed of our code where the
//! portable backend (and on i686 SHA-512's `sse2`) is what users get.
//! Builds `bench/targets` (its own Cargo workspace: our crates beside
//! RustCrypto's software backends) for target `T` with
//! Debian's `rustc-web` and `-Zbuild-std`, as `.ci/targets` does, and runs
//! it: natively for i686 (through the cross C library's loader), under
//! Node's WASI (`xtask/wasi-run.mjs`, V8's JIT) for wasm32-wasip1, under
//! qemu-user for the other Linux targets (correct, but not a speed figure).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask bench-target --target T [--quick] [--algo NAME]...

Times our code (the detected backend: portable, and sse2 for SHA-512 on
i686) against RustCrypto's software backends (sha2, sha1, md-5 0.10 and 0.11,
sha3 0.10 and 0.12), both built for target T, at 16 B to 1 MiB, and prints
one table with the ratio of our speed to the fastest peer's.

targets: i686-unknown-linux-gnu (run natively), wasm32-wasip1 (run in Node's
WASI, V8's JIT), s390x-unknown-linux-gnu and armv7-unknown-linux-gnueabihf
(run under qemu-user: a check that it runs, not a speed figure)

options:
  --quick         about 60 ms of timing per implementation and size instead
                  of 300 ms
  --algo NAME     only this algorithm (md5, sha-1, sha-256, sha-512, sha3-256);
                  may be repeated

needs (Debian; .ci/targets installs them): rustc-web rust-web-src, and for
i686 gcc-i686-linux-gnu libc6-dev-i386-cross, for wasm32-wasip1 wasi-libc
lld-19 nodejs, for s390x/armv7 their gcc cross compilers and qemu-user.
The build lives in target/cross; the first one builds the standard library
for T (a few minutes).";

/// How to link and run for each supported target.
struct Target {
    triple: &'static str,
    /// Environment for cargo (linker, target rustflags).
    env: &'static [(&'static str, &'static str)],
    /// Target rustflags on top of the RustCrypto `--cfg`s.
    rustflags: &'static str,
    build_std: &'static [&'static str],
    /// The command that runs the program (its path is appended).
    runner: &'static [&'static str],
    /// Whether the figures mean anything (not under an emulator).
    timed: bool,
}

const TARGETS: &[Target] = &[
    Target {
        triple: "i686-unknown-linux-gnu",
        env: &[("CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER", "i686-linux-gnu-gcc")],
        rustflags: "",
        build_std: &["-Zbuild-std=std,panic_unwind", "-Zbuild-std-features=panic-unwind"],
        runner: &["/usr/i686-linux-gnu/lib/ld-linux.so.2", "--library-path", "/usr/i686-linux-gnu/lib"],
        timed: true,
    },
    Target {
        triple: "wasm32-wasip1",
        // A path under the workspace root (see xtask/wasm-ld).
        env: &[("CARGO_TARGET_WASM32_WASIP1_LINKER", "xtask/wasm-ld")],
        rustflags: "-C link-self-contained=no -L /usr/lib/wasm32-wasi -C link-arg=/usr/lib/wasm32-wasi/crt1-command.o",
        build_std: &["-Zbuild-std=std,panic_abort", "-Zbuild-std-features="],
        runner: &["node", "--no-warnings", "xtask/wasi-run.mjs"],
        timed: true,
    },
    Target {
        triple: "s390x-unknown-linux-gnu",
        env: &[("CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER", "s390x-linux-gnu-gcc")],
        rustflags: "",
        build_std: &["-Zbuild-std=std,panic_unwind", "-Zbuild-std-features=panic-unwind"],
        runner: &["qemu-s390x", "-L", "/usr/s390x-linux-gnu"],
        timed: false,
    },
    Target {
        triple: "armv7-unknown-linux-gnueabihf",
        env: &[("CARGO_TARGET_ARMV7_UNKNOWN_LINUX_GNUEABIHF_LINKER", "arm-linux-gnueabihf-gcc")],
        rustflags: "",
        build_std: &["-Zbuild-std=std,panic_unwind", "-Zbuild-std-features=panic-unwind"],
        runner: &["qemu-arm", "-L", "/usr/arm-linux-gnueabihf"],
        timed: false,
    },
];

/// RustCrypto's 0.11 line picks SHA-NI at run time on x86 unless told not
/// to (the 0.10 line gets the `force-soft` feature in bench/targets).
const SOFT_CFGS: &str = r#"--cfg sha1_backend="soft" --cfg sha2_backend="soft""#;

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut triple: Option<String> = None;
    let mut pass: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--target" => triple = Some(it.next().ok_or("--target needs a target triple")?.clone()),
            "--quick" => pass.push(arg.clone()),
            "--algo" => {
                pass.push(arg.clone());
                pass.push(it.next().ok_or("--algo needs a name")?.clone());
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
        }
    }
    let triple = triple.ok_or(format!("--target is required\n\n{USAGE}"))?;
    let target = TARGETS.iter().find(|t| t.triple == triple).ok_or_else(|| {
        let known: Vec<&str> = TARGETS.iter().map(|t| t.triple).collect();
        format!("no runner for target `{triple}` (known: {})", known.join(", "))
    })?;
    if !Path::new("/usr/bin/rustc").exists() || !Path::new("/usr/lib/rustlib/src/rust/library").exists() {
        return Err("needs Debian's rustc-web and rust-web-src (/usr/bin/rustc and its library source): \
                    apt-get install rustc-web rust-web-src (see --help for the rest)"
            .into());
    }
    let root = crate::workspace_root()?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let env_triple = triple.to_ascii_uppercase().replace('-', "_");
    let rustflags = format!("{} {SOFT_CFGS}", target.rustflags);

    println!(
        "-- building bench/targets for {triple} (release; the first build also builds the standard library for it: minutes)"
    );
    let started = Instant::now();
    let mut build = Command::new(&cargo);
    build
        .current_dir(&root)
        .args(["build", "--release", "--manifest-path", "bench/targets/Cargo.toml", "--target", &triple])
        .args(target.build_std)
        .env("RUSTC", "/usr/bin/rustc")
        .env("RUSTDOC", "/usr/bin/rustdoc")
        .env("RUSTC_BOOTSTRAP", "1")
        .env("CARGO_TARGET_DIR", root.join("target/cross"))
        .env(format!("CARGO_TARGET_{env_triple}_RUSTFLAGS"), rustflags.trim())
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    for (k, v) in target.env {
        if v.starts_with("xtask/") {
            build.env(k, root.join(v));
        } else {
            build.env(k, v);
        }
    }
    let status = build.status().map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !status.success() {
        return Err(format!("the build of bench/targets for {triple} failed ({status})"));
    }
    println!("-- built in {:.0}s", started.elapsed().as_secs_f64());

    let ext = if triple.starts_with("wasm32") { ".wasm" } else { "" };
    let program = root.join("target/cross").join(&triple).join("release").join(format!("hashes-targets-bench{ext}"));
    if !target.timed {
        println!("-- note: {triple} runs under an emulator here: the figures below are not speed figures");
    }
    println!("-- running {} {}", target.runner.join(" "), program.display());
    let status = Command::new(target.runner[0])
        .current_dir(&root)
        .args(&target.runner[1..])
        .arg(&program)
        .args(&pass)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", target.runner[0]))?;
    if !status.success() {
        return Err(format!("the measuring program failed on {triple} ({status})"));
    }
    Ok(())
}
