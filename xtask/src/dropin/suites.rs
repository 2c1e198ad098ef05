//! The scratch test packages: a published crate's or dependent's own
//! `tests/` around the drop-ins, built and run, and their pass counts.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Output;
use std::time::Instant;

use super::manifest::sections;
use super::patch::{PatchSource, patch_section};
use super::{Ctx, cargo, copy_dir, read, run_logged, write};

/// The scratch suites' profile: optimised, debug assertions kept. The
/// published suites' long loops (PBKDF2 rounds, 16 MiB feeds, TurboSHAKE fed
/// 24 MB a byte at a time) take minutes unoptimised, and the generic
/// `digest` wrappers are compiled in the test crate itself.
const SUITE_PROFILE: &str = "[profile.dev]\nopt-level = 2\n\n[profile.dev.package.\"*\"]\nopt-level = 2\n\n";

/// Dev-dependencies left out of the scratch suites: benchmark harnesses
/// (the benches are not copied) that cost minutes to build on 2 cores.
const SKIPPED_DEV_DEPS: &[&str] = &["criterion"];

/// One scratch test suite's outcome.
pub(super) struct SuiteResult {
    pub(super) label: String,
    pub(super) passed: u32,
    pub(super) ignored: u32,
    pub(super) seconds: f64,
}

/// Build a scratch test package from the published package at `src` (its
/// `tests/`, dev-dependencies and test targets) around the library
/// dependency `lib_dep` (a `NAME = {...}` line), with the drop-ins patched
/// in, and run its tests with `features` on.
pub(super) fn run_suite(
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
pub(super) fn run_dependent(
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
pub(super) fn count_tests(out: &Output, label: &str, begun: Instant) -> Result<SuiteResult, String> {
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
