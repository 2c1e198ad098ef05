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

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// A published crate that a package under `dropin/` replaces.
struct Replaced {
    /// The package name on crates.io (`md-5`).
    name: &'static str,
    /// The release whose suite runs: the drop-in's own version.
    version: &'static str,
    /// The drop-in's folder under `dropin/`.
    dir: &'static str,
    /// The key of its `[patch.crates-io]` line: the package name for the
    /// first line of a crate, `NAME-LINE` with `package = NAME` for the
    /// next, so that one `[patch]` section serves a tree that mixes lines.
    patch_key: &'static str,
}

const REPLACED: &[Replaced] = &[
    Replaced { name: "sha2", version: "0.10.9", dir: "sha2-0.10", patch_key: "sha2" },
    Replaced { name: "sha1", version: "0.10.7", dir: "sha1-0.10", patch_key: "sha1" },
    Replaced { name: "md-5", version: "0.10.6", dir: "md-5-0.10", patch_key: "md-5" },
    Replaced { name: "sha3", version: "0.10.9", dir: "sha3-0.10", patch_key: "sha3" },
    // The old name of `sha1` (hmac 0.12's tests use it).
    Replaced { name: "sha-1", version: "0.10.1", dir: "sha-1-0.10", patch_key: "sha-1" },
    Replaced { name: "sha2", version: "0.11.1", dir: "sha2-0.11", patch_key: "sha2-011" },
    Replaced { name: "sha1", version: "0.11.0", dir: "sha1-0.11", patch_key: "sha1-011" },
    Replaced { name: "md-5", version: "0.11.0", dir: "md-5-0.11", patch_key: "md-5-011" },
    Replaced { name: "sha3", version: "0.11.0", dir: "sha3-0.11", patch_key: "sha3-011" },
    Replaced { name: "sha3", version: "0.12.0", dir: "sha3-0.12", patch_key: "sha3-012" },
];

/// A published crate built on the replaced ones, whose own test suite runs
/// with the drop-ins underneath.
struct Dependent {
    name: &'static str,
    version: &'static str,
    /// Features to turn on (the test suite's `#[cfg(feature = ...)]` code
    /// sees them as the scratch package's own).
    features: &'static [&'static str],
    /// The drop-ins (package, version) that it depends on (not counting
    /// dev-dependencies), which `cargo tree -i` must show under it.
    uses: &'static [(&'static str, &'static str)],
    /// Test targets left out, with the reason (printed on every run).
    skip: &'static [(&'static str, &'static str)],
}

const DEPENDENTS: &[Dependent] = &[
    // hmac and hkdf are generic over the hash: their test suites reach the
    // drop-ins through their dev-dependencies.
    Dependent { name: "hmac", version: "0.12.1", features: &["std"], uses: &[], skip: &[] },
    Dependent { name: "hkdf", version: "0.12.4", features: &["std"], uses: &[], skip: &[] },
    Dependent {
        name: "pbkdf2",
        version: "0.12.2",
        features: &["hmac", "sha1", "sha2", "simple", "std"],
        uses: &[("sha1", "0.10.7"), ("sha2", "0.10.9")],
        skip: &[],
    },
    // HTTP Digest authentication: MD5 and SHA-256 (its tests are unit tests
    // in src/, so the whole published package is what runs).
    Dependent {
        name: "digest_auth",
        version: "0.3.1",
        features: &[],
        uses: &[("md-5", "0.10.6"), ("sha2", "0.10.9")],
        skip: &[],
    },
    // The digest 0.11 line.
    Dependent { name: "hmac", version: "0.13.0", features: &[], uses: &[], skip: &[] },
    Dependent { name: "hkdf", version: "0.13.0", features: &[], uses: &[], skip: &[] },
    // ML-KEM (FIPS 203): SHA3-256 and SHA3-512 through sha3 0.12 (its SHAKE
    // comes from RustCrypto's `shake` crate, which is not replaced).
    Dependent {
        name: "ml-kem",
        version: "0.3.4",
        features: &["pkcs8", "pem"],
        uses: &[("sha3", "0.12.0")],
        skip: &[("wycheproof", "its JSON vectors are a git submodule, not in the published package")],
    },
];

/// The scratch suites' profile: optimised, debug assertions kept. The
/// published suites' long loops (PBKDF2 rounds, 16 MiB feeds, TurboSHAKE fed
/// 24 MB a byte at a time) take minutes unoptimised, and the generic
/// `digest` wrappers are compiled in the test crate itself.
const SUITE_PROFILE: &str = "[profile.dev]\nopt-level = 2\n\n[profile.dev.package.\"*\"]\nopt-level = 2\n\n";

/// Dev-dependencies left out of the scratch suites: benchmark harnesses
/// (the benches are not copied) that cost minutes to build on 2 cores.
const SKIPPED_DEV_DEPS: &[&str] = &["criterion"];

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

/// One scratch test suite's outcome.
struct SuiteResult {
    label: String,
    passed: u32,
    ignored: u32,
    seconds: f64,
}

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

/// Where a `[patch.crates-io]` section takes the drop-ins from.
enum PatchSource {
    /// This checkout's `dropin/` folders.
    Path,
    /// A git repository (URL, commit): one source serves both lines of a
    /// crate, each entry picking its line with `version`.
    Git(String, String),
}

/// The `[patch.crates-io]` section that puts every drop-in under a tree (the
/// lines README.md shows): the first line of each crate under its own name,
/// the next under `NAME-LINE` with `package = NAME`.
fn patch_section(ctx: &Ctx, source: &PatchSource) -> String {
    let mut s = String::from("[patch.crates-io]\n");
    for r in REPLACED {
        let line = r.version.rsplit_once('.').map_or(r.version, |(l, _)| l);
        let package = if r.patch_key == r.name { String::new() } else { format!("package = {:?}, ", r.name) };
        let from = match source {
            PatchSource::Path => format!("path = {:?}", ctx.root.join("dropin").join(r.dir).display().to_string()),
            PatchSource::Git(url, rev) => format!("git = {url:?}, rev = {rev:?}, version = \"{line}\""),
        };
        let _ = writeln!(s, "{} = {{ {package}{from} }}", r.patch_key);
    }
    s
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

/// The `[section]` blocks of a normalized (published) `Cargo.toml`, as
/// (header, body) pairs in order.
fn sections(manifest: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in manifest.lines() {
        // Published manifests put headers at the start of a line and
        // indent the items of multi-line arrays.
        if line.starts_with('[') {
            out.push((line.trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The keys of a `[features]` table (not `default`).
fn feature_names(manifest: &str) -> Vec<String> {
    sections(manifest)
        .into_iter()
        .filter(|(h, _)| h == "[features]")
        .flat_map(|(_, body)| {
            body.lines()
                .filter(|l| !l.starts_with([' ', '\t', ']']))
                .filter_map(|l| Some(l.split_once('=')?.0.trim().trim_matches('"').to_string()))
                .filter(|k| !k.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|k| k != "default")
        .collect()
}

fn all_features(src: &Path) -> Result<Vec<String>, String> {
    let manifest = read(&src.join("Cargo.toml"))?;
    Ok(feature_names(&manifest))
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

/// Build a scratch test package from the published package at `src` (its
/// `tests/`, dev-dependencies and test targets) around the library
/// dependency `lib_dep` (a `NAME = {...}` line), with the drop-ins patched
/// in, and run its tests with `features` on.
fn run_suite(
    ctx: &Ctx,
    src: &Path,
    name: &str,
    lib_dep: &str,
    features: &[String],
    label: &str,
) -> Result<SuiteResult, String> {
    let begun = Instant::now();
    let original = read(&src.join("Cargo.toml"))?;
    let dir_name = src.file_name().and_then(|n| n.to_str()).ok_or("bad source folder name")?;
    let suite = ctx.work.join("suites").join(dir_name);
    if suite.exists() {
        std::fs::remove_dir_all(&suite).map_err(|e| format!("{}: {e}", suite.display()))?;
    }
    if !src.join("tests").is_dir() {
        return Err(format!("{} has no tests/ folder", src.display()));
    }
    copy_dir(&src.join("tests"), &suite.join("tests"))?;
    std::fs::create_dir_all(suite.join("src")).map_err(|e| format!("{}: {e}", suite.display()))?;
    write(&suite.join("src/lib.rs"), "//! Scratch package: the tests are in tests/.\n")?;

    let all = sections(&original);
    let edition = all
        .iter()
        .filter(|(h, _)| h == "[package]")
        .flat_map(|(_, b)| b.lines())
        .find_map(|l| l.strip_prefix("edition = "))
        .unwrap_or("\"2021\"")
        .to_string();
    let has_test_targets = all.iter().any(|(h, _)| h == "[[test]]");
    let mut m = format!(
        "[package]\nname = \"suite-{}\"\nversion = \"0.0.0\"\nedition = {edition}\npublish = false\nautotests = {}\nautobenches = false\nautoexamples = false\n\n[workspace]\n\n[dependencies]\n{lib_dep}\n\n[features]\n",
        dir_name.replace('.', "_"),
        !has_test_targets
    );
    for f in features {
        let _ = writeln!(m, "{f:?} = [\"{name}/{f}\"]");
    }
    m.push('\n');
    for (header, body) in &all {
        let dev = header.contains("dev-dependencies");
        if dev && SKIPPED_DEV_DEPS.iter().any(|d| header.ends_with(&format!(".{d}]"))) {
            continue;
        }
        if dev || header == "[[test]]" {
            let _ = write!(m, "{header}\n{body}\n");
        }
    }
    m.push_str(SUITE_PROFILE);
    m.push_str(&patch_section(ctx, &PatchSource::Path));
    write(&suite.join("Cargo.toml"), &m)?;

    let mut cmd = cargo(ctx);
    cmd.args(["test", "--tests", "--manifest-path"]).arg(suite.join("Cargo.toml"));
    if !features.is_empty() {
        cmd.arg("--features").arg(features.join(","));
    }
    let out = run_logged(ctx, cmd, &format!("suite-{dir_name}"))?;
    count_tests(&out, label, begun)
}

/// Copy the published package at `src` whole (its library, unit tests,
/// integration tests and doc tests), patch the drop-ins under it and run
/// `cargo test` with `features` on.
fn run_dependent(
    ctx: &Ctx,
    src: &Path,
    features: &[&str],
    skip: &[(&str, &str)],
    label: &str,
) -> Result<SuiteResult, String> {
    let begun = Instant::now();
    let dir_name = src.file_name().and_then(|n| n.to_str()).ok_or("bad source folder name")?;
    let suite = ctx.work.join("suites").join(dir_name);
    if suite.exists() {
        std::fs::remove_dir_all(&suite).map_err(|e| format!("{}: {e}", suite.display()))?;
    }
    copy_dir(src, &suite)?;
    let original = read(&src.join("Cargo.toml"))?;
    // Its own lock file (if published) would pin the originals' checksums.
    let _ = std::fs::remove_file(suite.join("Cargo.lock"));
    let mut m = String::new();
    let mut skipping = false;
    for line in original.lines() {
        if line.starts_with('[') {
            // Benchmark harnesses and their targets go: the benches do not run.
            skipping = line == "[[bench]]"
                || (line.contains("dev-dependencies")
                    && SKIPPED_DEV_DEPS.iter().any(|d| line.ends_with(&format!(".{d}]"))));
        }
        if !skipping {
            m.push_str(line);
            m.push('\n');
        }
    }
    m.push_str("\n[workspace]\n\n");
    m.push_str(SUITE_PROFILE);
    m.push_str(&patch_section(ctx, &PatchSource::Path));
    write(&suite.join("Cargo.toml"), &m)?;
    let mut cmd = cargo(ctx);
    cmd.args(["test", "--manifest-path"]).arg(suite.join("Cargo.toml"));
    if !features.is_empty() {
        cmd.arg("--features").arg(features.join(","));
    }
    if !skip.is_empty() {
        // The library's unit tests and every test target but the skipped
        // ones (doc tests cannot be selected beside them: they do not run).
        cmd.arg("--lib");
        let targets = sections(&original)
            .into_iter()
            .filter(|(h, _)| h == "[[test]]")
            .filter_map(|(_, body)| {
                body.lines().find_map(|l| l.strip_prefix("name = ").map(|n| n.trim_matches('"').to_string()))
            })
            .filter(|name| !skip.iter().any(|(s, _)| s == name))
            .collect::<Vec<_>>();
        for t in targets {
            cmd.args(["--test", &t]);
        }
    }
    let out = run_logged(ctx, cmd, &format!("suite-{dir_name}"))?;
    count_tests(&out, label, begun)
}

/// Sum the `test result:` lines of a `cargo test` run; a run with no test
/// at all is a failure (a suite that ran nothing proves nothing).
fn count_tests(out: &Output, label: &str, begun: Instant) -> Result<SuiteResult, String> {
    let text = String::from_utf8_lossy(&out.stdout);
    let (mut passed, mut failed, mut ignored) = (0u32, 0u32, 0u32);
    for line in text.lines().filter(|l| l.starts_with("test result:")) {
        let number = |what: &str| -> u32 {
            line.split(';')
                .find_map(|part| part.trim().trim_start_matches("test result: ok.").trim().strip_suffix(what))
                .and_then(|n| n.trim().rsplit(' ').next()?.parse().ok())
                .unwrap_or(0)
        };
        passed += number("passed");
        failed += number("failed");
        ignored += number("ignored");
    }
    if failed > 0 {
        return Err(format!("{failed} test(s) failed"));
    }
    if passed == 0 {
        return Err("no test ran".into());
    }
    Ok(SuiteResult { label: label.to_string(), passed, ignored, seconds: begun.elapsed().as_secs_f64() })
}

/// The user's view: a project that depends on every dependent, patched as
/// README.md says. Every drop-in must be in `cargo tree -i` and cargo must
/// not warn that a `[patch]` entry went unused.
fn check_patch(ctx: &Ctx, source: &PatchSource) -> Result<(), String> {
    let project = ctx.work.join(match source {
        PatchSource::Path => "dependents-path",
        PatchSource::Git(..) => "dependents-git",
    });
    std::fs::create_dir_all(project.join("src")).map_err(|e| format!("{}: {e}", project.display()))?;
    let mut m = String::from(
        "[package]\nname = \"dropin-dependents\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dependencies]\n",
    );
    for (i, d) in DEPENDENTS.iter().enumerate() {
        let _ = writeln!(
            m,
            "d{i} = {{ package = {:?}, version = \"={}\", features = {:?} }}",
            d.name, d.version, d.features
        );
    }
    // Depend on each replaced crate too, at its line, as user code does.
    for (i, r) in REPLACED.iter().enumerate() {
        let line = r.version.rsplit_once('.').map_or(r.version, |(l, _)| l);
        let _ = writeln!(m, "r{i} = {{ package = {:?}, version = \"{line}\" }}", r.name);
    }
    m.push('\n');
    m.push_str(&patch_section(ctx, source));
    write(&project.join("Cargo.toml"), &m)?;
    write(&project.join("src/lib.rs"), "//! Scratch package: only its dependency tree matters.\n")?;
    let mode = match source {
        PatchSource::Path => "path",
        PatchSource::Git(..) => "git",
    };

    // Path: build the tree (the drop-ins compile under every dependent).
    // Git: resolve it only (`cargo tree` reports unused patches too), as
    // compiling everything again from the git source proves nothing more.
    let mut cmd = cargo(ctx);
    cmd.args([if mode == "path" { "check" } else { "tree" }, "--manifest-path"]).arg(project.join("Cargo.toml"));
    let out = run_logged(ctx, cmd, &format!("dependents-check-{mode}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("was not used in the crate graph") {
        return Err(format!("cargo reports an unused [patch] entry:\n{stderr}"));
    }
    let dropin = ctx.root.join("dropin");
    for r in REPLACED {
        let mut cmd = cargo(ctx);
        cmd.args(["tree", "--manifest-path"])
            .arg(project.join("Cargo.toml"))
            .args(["-e", "normal", "-i"])
            .arg(format!("{}@{}", r.name, r.version));
        let out = run_logged(ctx, cmd, &format!("tree-{mode}-{}-{}", r.name, r.version))?;
        let tree = String::from_utf8_lossy(&out.stdout);
        let first = tree.lines().next().unwrap_or("");
        let expected = match source {
            PatchSource::Path => format!("{} v{} ({})", r.name, r.version, dropin.join(r.dir).display()),
            PatchSource::Git(url, rev) => format!("{} v{} ({url}?rev={rev}#{})", r.name, r.version, &rev[..8]),
        };
        if first != expected {
            return Err(format!(
                "cargo tree -i {}@{}: expected `{expected}` at the root, got `{first}`",
                r.name, r.version
            ));
        }
        let users = tree.lines().count().saturating_sub(1);
        eprintln!("      {expected}: {users} line(s) of dependents above it");
    }
    for d in DEPENDENTS {
        for (name, version) in d.uses {
            let mut cmd = cargo(ctx);
            cmd.args(["tree", "--manifest-path"])
                .arg(project.join("Cargo.toml"))
                .args(["-e", "normal", "-i"])
                .arg(format!("{name}@{version}"));
            let out = run_logged(ctx, cmd, &format!("tree-{mode}-{name}-{version}"))?;
            let tree = String::from_utf8_lossy(&out.stdout);
            let needle = format!("{} v{}", d.name, d.version);
            if !tree.contains(&needle) {
                return Err(format!(
                    "cargo tree -i {name}@{version} does not show {needle} above the drop-in:\n{tree}"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"[package]
edition = "2018"
name = "x"

[features]
asm = ["sha2-asm"]
default = ["std"]
std = [
    "digest/std",
]

[[test]]
name = "mod"
path = "tests/mod.rs"

[dev-dependencies.digest]
version = "0.10.7"
features = ["dev"]
"#;

    #[test]
    fn reads_sections_and_features() {
        let s = sections(MANIFEST);
        let headers: Vec<&str> = s.iter().map(|(h, _)| h.as_str()).collect();
        assert_eq!(headers, ["[package]", "[features]", "[[test]]", "[dev-dependencies.digest]"]);
        assert_eq!(feature_names(MANIFEST), ["asm", "std"]);
    }

    #[test]
    fn every_dropin_folder_exists() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for r in REPLACED {
            let manifest = std::fs::read_to_string(root.join("dropin").join(r.dir).join("Cargo.toml")).unwrap();
            assert!(manifest.contains(&format!("name = {:?}", r.name)), "{}", r.dir);
            assert!(manifest.contains(&format!("version = {:?}", r.version)), "{}", r.dir);
        }
    }
}
