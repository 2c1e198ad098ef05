//! `cargo xtask dropin`: prove the drop-in replacements under `dropin/`
//! against the crates they replace and against real dependents.
//!
//! Nothing of the other projects is committed: at run time a scratch project
//! fetches their published sources from crates.io (`cargo fetch`), their
//! `.crate` archives are unpacked from cargo's registry cache, and each
//! package's `tests/` folder (code and data) is copied into a scratch test
//! package whose library under test is either the drop-in itself (for the
//! replaced crates' own suites) or the published dependent with the drop-ins
//! patched in underneath (`[patch.crates-io]`, as README.md tells users).
//!
//! Scratch space: `target/dropin-work/`; build output: `target/dropin/`;
//! one log per suite in `target/dropin-work/logs/`.

mod crates;
mod manifest;
mod patch;
mod suites;

use crates::{DEPENDENTS, REPLACED};
use manifest::all_features;
use patch::{PatchSource, check_patch};
use suites::{SuiteResult, count_tests, run_dependent, run_suite};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const HELP: &str = "usage: cargo xtask dropin [--keep-going] [--only NAME]

Runs, against the drop-in replacements under dropin/:
  1. the published test suites (tests/ and their data) of the crates they
     replace, with the drop-in as the library under test;
  2. a scratch project on published dependents (hmac, hkdf, pbkdf2, ...)
     patched with the drop-ins as README.md says: `cargo tree -i` must show
     each drop-in, cargo must not report an unused patch, and each
     dependent's own published test suite runs on the drop-ins;
  3. dropin/check: known answers and drop-in-vs-original differential tests,
     on the best backend and again with `force-soft` (portable backend).
Sources come from crates.io at run time (cargo fetch); nothing is committed.
Work space target/dropin-work/, logs target/dropin-work/logs/.

options:
  --keep-going   run every suite even after one fails
  --only NAME    run only the suites of crate NAME (sha2, ml-kem, check, ...);
                 the fetch and the patch checks always run
  -h, --help     this text";

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut keep_going = false;
    let mut only: Option<String> = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--keep-going" => keep_going = true,
            "--only" => only = Some(args.next().ok_or("--only needs a crate name")?.clone()),
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`\n\n{HELP}")),
        }
    }
    let started = Instant::now();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().ok_or("xtask has no parent directory")?.to_path_buf();
    let work = root.join("target/dropin-work");
    let target_dir = root.join("target/dropin");
    let logs = work.join("logs");
    for dir in [&work, &logs] {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let ctx = Ctx { root: root.clone(), work: work.clone(), target_dir, logs };
    let steps = 3 + REPLACED.len() + DEPENDENTS.len();
    let mut step = 0;
    let mut next = |what: &str| {
        step += 1;
        eprintln!("[{step}/{steps}] {what}");
    };

    next("fetching the published sources of the replaced crates and their dependents (cargo fetch)");
    let sources = fetch_sources(&ctx)?;

    let mut results = Vec::new();
    let mut failures = Vec::new();
    let mut record = |label: String, result: Result<SuiteResult, String>| -> Result<(), String> {
        match result {
            Ok(r) => {
                eprintln!("      ok: {} passed, {} ignored ({:.0} s)", r.passed, r.ignored, r.seconds);
                results.push(r);
                Ok(())
            }
            Err(e) => {
                eprintln!("      FAILED: {e}");
                failures.push(format!("{label}: {e}"));
                if keep_going { Ok(()) } else { Err(format!("{label}: {e}")) }
            }
        }
    };

    let wanted = |name: &str| only.as_deref().is_none_or(|o| o == name);
    for r in REPLACED {
        next(&format!("{} {}: its own published tests on dropin/{}", r.name, r.version, r.dir));
        if !wanted(r.name) {
            eprintln!("      SKIPPED: not `--only {}`", only.as_deref().unwrap_or(""));
            continue;
        }
        let src = &sources[&format!("{}-{}", r.name, r.version)];
        let lib = format!("{} = {{ path = {:?} }}", r.name, root.join("dropin").join(r.dir).display().to_string());
        let label = format!("{} {} (original suite on the drop-in)", r.name, r.version);
        let result = run_suite(&ctx, src, r.name, &lib, &all_features(src)?, &label);
        record(label, result)?;
    }

    next("dependents: patch check, path and git sources (cargo tree -i, no unused [patch])");
    check_patch(&ctx, &PatchSource::Path)?;
    eprintln!("      ok (path): every drop-in is in the tree and every [patch] line is used");
    // The same through a git source: this checkout's HEAD commit, as a user's
    // `git = "https://..."` line would fetch it (both lines of a crate from
    // one repository).
    match head_commit(&root) {
        Some(rev) => {
            let url = format!("file://{}", root.display());
            check_patch(&ctx, &PatchSource::Git(url, rev.clone()))?;
            eprintln!(
                "      ok (git, HEAD {}): every drop-in is in the tree and every [patch] line is used",
                &rev[..8]
            );
        }
        None => eprintln!("      SKIPPED the git-source check: {} is not a git checkout", root.display()),
    }

    for d in DEPENDENTS {
        next(&format!("{} {}: its own published tests on the drop-ins", d.name, d.version));
        if !wanted(d.name) {
            eprintln!("      SKIPPED: not `--only {}`", only.as_deref().unwrap_or(""));
            continue;
        }
        let src = &sources[&format!("{}-{}", d.name, d.version)];
        let label = format!("{} {} (published package's tests, drop-ins underneath)", d.name, d.version);
        for (target, why) in d.skip {
            eprintln!("      SKIPPED test target `{target}`: {why}");
        }
        let result = run_dependent(&ctx, src, d.features, d.skip, &label);
        record(label, result)?;
    }

    next("dropin/check: known answers and drop-in vs original (best backend, then force-soft)");
    let check_runs: &[(&str, &[&str])] = &[("best backend", &[]), ("force-soft", &["--features", "force-soft"])];
    if !wanted("check") {
        eprintln!("      SKIPPED: not `--only check`");
    }
    for &(how, extra) in check_runs.iter().filter(|_| wanted("check")) {
        let label = format!("dropin/check ({how})");
        let begun = Instant::now();
        let mut cmd = cargo(&ctx);
        cmd.args(["test", "--manifest-path"]).arg(root.join("dropin/check/Cargo.toml")).args(extra);
        let result = run_logged(&ctx, cmd, &format!("check-{}", how.replace(' ', "-")))
            .and_then(|out| count_tests(&out, &label, begun));
        record(label, result)?;
    }

    eprintln!();
    eprintln!("{:<60} {:>7} {:>8} {:>6}", "suite", "passed", "ignored", "s");
    let mut total = 0;
    for r in &results {
        eprintln!("{:<60} {:>7} {:>8} {:>6.0}", r.label, r.passed, r.ignored, r.seconds);
        total += r.passed;
    }
    if !failures.is_empty() {
        return Err(format!("{} suite(s) failed:\n  {}", failures.len(), failures.join("\n  ")));
    }
    eprintln!("dropin: {} suites, {total} tests passed, in {:.0} s", results.len(), started.elapsed().as_secs_f64());
    Ok(())
}

struct Ctx {
    root: PathBuf,
    work: PathBuf,
    target_dir: PathBuf,
    logs: PathBuf,
}

/// `cargo` with the shared scratch target directory.
fn cargo(ctx: &Ctx) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.env("CARGO_TARGET_DIR", &ctx.target_dir);
    cmd
}

/// Run `cmd`, writing its output to `logs/NAME.log`; fail with the log's
/// tail if it fails.
fn run_logged(ctx: &Ctx, mut cmd: Command, name: &str) -> Result<Output, String> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let log = ctx.logs.join(format!("{name}.log"));
    let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stdout));
    std::fs::write(&log, &text).map_err(|e| format!("{}: {e}", log.display()))?;
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(40).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!(
            "{:?} failed ({}); log {}:\n{}",
            cmd.get_args().collect::<Vec<_>>(),
            out.status,
            log.display(),
            tail.join("\n")
        ));
    }
    Ok(out)
}

/// Fetch every replaced crate's and every dependent's published source and
/// unpack each into `work/src/NAME-VERSION`; returns those folders by
/// `NAME-VERSION`.
fn fetch_sources(ctx: &Ctx) -> Result<std::collections::HashMap<String, PathBuf>, String> {
    let project = ctx.work.join("fetch");
    std::fs::create_dir_all(project.join("src")).map_err(|e| format!("{}: {e}", project.display()))?;
    let mut manifest = String::from(
        "[package]\nname = \"dropin-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dependencies]\n",
    );
    let mut wanted = Vec::new();
    for r in REPLACED {
        wanted.push((r.name, r.version));
    }
    for d in DEPENDENTS {
        wanted.push((d.name, d.version));
    }
    for (i, (name, version)) in wanted.iter().enumerate() {
        let _ =
            writeln!(manifest, "c{i} = {{ package = {name:?}, version = \"={version}\", default-features = false }}");
    }
    write(&project.join("Cargo.toml"), &manifest)?;
    write(&project.join("src/lib.rs"), "")?;
    let mut cmd = cargo(ctx);
    cmd.args(["fetch", "--manifest-path"]).arg(project.join("Cargo.toml"));
    run_logged(ctx, cmd, "fetch")?;

    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .ok_or("neither CARGO_HOME nor HOME is set: cannot find cargo's registry cache")?;
    let cache = cargo_home.join("registry/cache");
    let unpacked = ctx.work.join("src");
    std::fs::create_dir_all(&unpacked).map_err(|e| format!("{}: {e}", unpacked.display()))?;
    let mut found = std::collections::HashMap::new();
    for (name, version) in wanted {
        let key = format!("{name}-{version}");
        let archive = std::fs::read_dir(&cache)
            .map_err(|e| format!("{}: {e}", cache.display()))?
            .filter_map(Result::ok)
            .map(|index| index.path().join(format!("{key}.crate")))
            .find(|p| p.is_file())
            .ok_or_else(|| format!("{key}.crate is not in {} after cargo fetch", cache.display()))?;
        let dest = unpacked.join(&key);
        if dest.exists() {
            std::fs::remove_dir_all(&dest).map_err(|e| format!("{}: {e}", dest.display()))?;
        }
        let status = Command::new("tar")
            .arg("xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&unpacked)
            .status()
            .map_err(|e| format!("cannot run tar: {e}"))?;
        if !status.success() || !dest.join("Cargo.toml").is_file() {
            return Err(format!("unpacking {} failed ({status})", archive.display()));
        }
        eprintln!("      {key}: {}", archive.display());
        found.insert(key, dest);
    }
    Ok(found)
}

/// The checkout's HEAD commit, if it is a git checkout.
fn head_commit(root: &Path) -> Option<String> {
    let out = Command::new("git").args(["rev-parse", "HEAD"]).current_dir(root).output().ok()?;
    let rev = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && rev.len() == 40).then_some(rev)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Copy `from` (a folder) to `to`, recursively.
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst).map_err(|e| format!("{} -> {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}
