//! The `[patch.crates-io]` section that puts the drop-ins under a tree
//! (as README.md shows users), and the check that it takes: `cargo tree -i`
//! shows each drop-in, and cargo reports no unused patch.

use std::fmt::Write as _;

use super::crates::{DEPENDENTS, REPLACED};
use super::{Ctx, cargo, run_logged, write};

/// Where a `[patch.crates-io]` section takes the drop-ins from.
pub(super) enum PatchSource {
    /// This checkout's `dropin/` folders.
    Path,
    /// A git repository (URL, commit): one source serves both lines of a
    /// crate, each entry picking its line with `version`.
    Git(String, String),
}

/// The `[patch.crates-io]` section that puts every drop-in under a tree (the
/// lines README.md shows): the first line of each crate under its own name,
/// the next under `NAME-LINE` with `package = NAME`.
pub(super) fn patch_section(ctx: &Ctx, source: &PatchSource) -> String {
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

/// The user's view: a project that depends on every dependent, patched as
/// README.md says. Every drop-in must be in `cargo tree -i` and cargo must
/// not warn that a `[patch]` entry went unused.
pub(super) fn check_patch(ctx: &Ctx, source: &PatchSource) -> Result<(), String> {
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
