//! `cargo xtask <command>`: project automation for the hashes workspace.
//!
//! * `cargo xtask kat [--vectors DIR] [--check]`: write (or check) the
//!   known-answer vector files under each crate's `tests/data/`.
//! * `cargo xtask bench [--quick] [--algo A] [--size N] [--backend B]`: run
//!   the speed comparison and write `target/speed-report/`.
//! * `cargo xtask fuzz [--seconds N] [TARGET...]`: run the fuzz targets.
//! * `cargo xtask dropin [--keep-going]`: the published test suites of the
//!   crates that `dropin/` replaces, and of their dependents, on the drop-ins.
//! * `cargo xtask mca [--no-build] [--x86]`: modelled cycles per block of
//!   the aarch64 loops beside OpenSSL's (`llvm-mca`).
//! * `cargo xtask bench-target --target T`: the portable code against
//!   RustCrypto's software backends, built for another target (i686, wasm32).
//! * `cargo xtask bench-ab REV`: our speed against our speed at revision
//!   `REV`, both versions in one program, timed in alternating turns.

use std::process::ExitCode;

mod bench;
mod bench_ab;
mod bench_target;
mod dropin;
mod fuzz;
mod hashsum_bench;
mod kat;
mod mca;

const USAGE: &str = "usage: cargo xtask <command> [options]

commands:
  kat     write the known-answer vector files from the NIST CAVP vectors
          (cargo xtask kat --help for options)
  bench   run the speed comparison against OpenSSL and RustCrypto and write
          target/speed-report/ (cargo xtask bench --help for options)
  bench-ab  time this tree against an earlier revision, both linked into
          one program and timed in alternating turns (cargo xtask bench-ab
          --help for options)
  hashsum-bench  time hashsum against GNU sha256sum, md5sum, sha512sum
          (cargo xtask hashsum-bench --help for options)
  dropin  run the replaced crates' and their dependents' published test
          suites on the drop-ins of dropin/ (cargo xtask dropin --help)
  bench-target  time our portable code against RustCrypto's software
          backends on another target: i686 natively, wasm32-wasip1 in
          Node's WASI (cargo xtask bench-target --help for options)
  fuzz    run the fuzz targets of fuzz/ for a bounded time (nightly,
          cargo-fuzz; cargo xtask fuzz --help for options)
  mca     modelled cycles per block of every aarch64 backend's loop beside
          OpenSSL's, by llvm-mca (cargo xtask mca --help for options)";

/// The workspace root: the parent of xtask's manifest directory as `cargo
/// run` (the `cargo xtask` alias) gives it at run time, before the one
/// compiled in: a `target/` copied from another checkout holds an xtask
/// binary that cargo may find fresh and whose compiled-in path is that
/// other checkout's.
fn workspace_root() -> Result<std::path::PathBuf, String> {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")), std::path::PathBuf::from);
    Ok(manifest_dir.parent().ok_or("xtask has no parent directory")?.to_path_buf())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("kat") => kat::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("hashsum-bench") => hashsum_bench::run(&args[1..]),
        Some("bench-target") => bench_target::run(&args[1..]),
        Some("bench-ab") => bench_ab::run(&args[1..]),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("dropin") => dropin::run(&args[1..]),
        Some("mca") => mca::run(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command `{other}`\n\n{USAGE}")),
        None => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
