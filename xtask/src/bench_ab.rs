//! `cargo xtask bench-ab REV`: our speed now against our speed at an
//! earlier revision, both versions linked into one program and timed in
//! alternating turns, so that the comparison does not depend on which of
//! two separate runs caught the busier moment of a shared machine.
//!
//! Steps: a detached `git worktree` of `REV` in the temporary directory
//! (`$TMPDIR/hashes-bench-ab/before`),
//! whose workspace version gets a `-before` suffix (Cargo does not allow
//! two path packages of one name and version in a graph); a generated
//! package beside it (`program/`) that depends on both `bench` crates (as
//! `before` and `after`) and whose program is `bench_ab/harness.rs`; a
//! release build of it (thin LTO, one codegen unit, as the speed report's
//! build); its run. The harness's docs say how rows are timed and judged.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

const USAGE: &str =
    "usage: cargo xtask bench-ab REV [--align] [--rounds N] [--round-ms MS] [--threshold R] [--algo A,B,...]

Times our crates at revision REV (a commit, tag or branch) against this
working tree, both linked into one program and timed in alternating turns
(the fastest turn of each counts), for every backend of every algorithm of
the default speed-report set at 16 B, 64 B, 1 KiB and 8 KiB, and for every
batch engine at the report's batch shapes. Two passes time every row; the
rows under the threshold in both are timed again in three passes with three
times the rounds, and only a row under it in all five is reported slower.
Prints the 15 lowest rows with every pass's ratio (after / before speed).

options:
  --align          build with every function and every jump target aligned
                   to 64 bytes (LLVM's -align-all-functions=6 and
                   -align-all-nofallthru-blocks=6), so that where the linker
                   happens to place each version's code (which 64-byte
                   fetch and decode windows its loops straddle) counts
                   less: a run of this tree against itself (REV = HEAD)
                   shows what placement alone does to the rows
  --rounds N       turns of each version per row and pass (default 21)
  --round-ms MS    length of one turn (default 10)
  --threshold R    the ratio under which a row counts as slower (default 0.98)
  --algo LIST      only these algorithms (ids as in cargo xtask bench)

REV must have the same bench crate API (bench::ours, bench::ours_many); the
build says so when it does not. Uses git and about 1.5 minutes of building.";

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut rev = None;
    let mut pass = Vec::new();
    let mut align = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--align" => align = true,
            "--rounds" | "--round-ms" | "--threshold" | "--algo" => {
                pass.push(arg.clone());
                pass.push(it.next().ok_or(format!("{arg} needs a value"))?.clone());
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other if other.starts_with('-') => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
            other if rev.is_none() => rev = Some(other.to_string()),
            other => return Err(format!("one revision only (`{other}` is a second)\n\n{USAGE}")),
        }
    }
    let rev = rev.ok_or(format!("a revision is required\n\n{USAGE}"))?;
    let root = crate::workspace_root()?;
    // The checkout and the program's package live outside this tree: a
    // package below this workspace's root was taken for one of its members
    // (its version read from this tree's manifest), whatever workspace of
    // its own it had. The build goes to target/bench-ab.
    let dir = std::env::temp_dir().join("hashes-bench-ab");
    let before = dir.join("before");

    println!("-- checking out {rev} in {}", before.display());
    let commit = git(&root, &["rev-parse", "--verify", &format!("{rev}^{{commit}}")])
        .map_err(|e| format!("`{rev}` is not a commit here: {e}"))?;
    if before.exists() {
        // A worktree left by an earlier run; `git worktree remove` also
        // forgets it (a plain directory is removed as it is).
        if git(&root, &["worktree", "remove", "--force", &before.to_string_lossy()]).is_err() {
            fs::remove_dir_all(&before).map_err(|e| format!("cannot remove {}: {e}", before.display()))?;
        }
    }
    let _ = git(&root, &["worktree", "prune"]);
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    git(&root, &["worktree", "add", "--detach", &before.to_string_lossy(), commit.trim()])?;
    rename_version(&before)?;

    // The program's package beside the checkout, not above it: a path
    // dependency inside a package's directory joins that package's
    // workspace, and the checkout's crates must stay in their own.
    let manifest = format!(
        "[package]\nname = \"bench-ab\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [[bin]]\nname = \"bench-ab\"\npath = \"harness.rs\"\n\n\
         [dependencies]\nbefore = {{ package = \"bench\", path = \"{}\" }}\n\
         after = {{ package = \"bench\", path = \"{}\" }}\n\n\
         [profile.release]\ncodegen-units = 1\nlto = \"thin\"\n\n\
         [workspace]\n",
        before.join("bench").display(),
        root.join("bench").display()
    );
    let program = dir.join("program");
    fs::create_dir_all(&program).map_err(|e| format!("cannot create {}: {e}", program.display()))?;
    write(&program.join("Cargo.toml"), &manifest)?;
    write(&program.join("harness.rs"), include_str!("bench_ab/harness.rs"))?;

    // The aligned build has a target directory of its own (RUSTFLAGS
    // changes would rebuild everything in the other at every switch).
    let (target_dir, rustflags) = if align {
        ("target/bench-ab-aligned", "-C llvm-args=-align-all-functions=6 -C llvm-args=-align-all-nofallthru-blocks=6")
    } else {
        ("target/bench-ab", "")
    };
    println!(
        "-- building both versions into one program (release, thin LTO{})",
        if align { "; functions and jump targets aligned to 64 bytes" } else { "" }
    );
    let started = Instant::now();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(&cargo)
        .current_dir(&program)
        .args(["build", "--release", "--manifest-path", "Cargo.toml"])
        .env("CARGO_TARGET_DIR", root.join(target_dir))
        .env("RUSTFLAGS", rustflags)
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !status.success() {
        return Err(format!(
            "the build failed ({status}; the errors are above): a revision whose bench crate has another API than this tree's \
             (bench::ours, bench::ours_many, Subject, ManySubject) cannot be compared"
        ));
    }
    println!("-- built in {:.0}s; timing {} against this tree", started.elapsed().as_secs_f64(), commit.trim());
    let status = Command::new(root.join(target_dir).join("release/bench-ab"))
        .args(&pass)
        .status()
        .map_err(|e| format!("cannot run the program: {e}"));
    // The checkout is not left registered in this repository.
    if let Err(e) = git(&root, &["worktree", "remove", "--force", &before.to_string_lossy()]) {
        eprintln!("note: the checkout in {} stays: {e}", before.display());
    }
    let status = status?;
    if !status.success() {
        return Err(format!("the timing program failed ({status})"));
    }
    Ok(())
}

/// Run git in `root`; its standard output, or what it said on failure.
fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git").current_dir(root).args(args).output().map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        return Err(format!("git {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Give the checkout's workspace version (`[workspace.package] version`)
/// a `-before` suffix, there and wherever its manifests name it (a member's
/// own `version`, requirements on the members).
fn rename_version(checkout: &Path) -> Result<(), String> {
    let root = checkout.join("Cargo.toml");
    let text = fs::read_to_string(&root).map_err(|e| format!("cannot read {}: {e}", root.display()))?;
    let version =
        workspace_version(&text).ok_or_else(|| format!("{} has no [workspace.package] version", root.display()))?;
    let (quoted, renamed) = (format!("\"{version}\""), format!("\"{version}-before\""));
    let mut manifests = vec![root];
    let entries = fs::read_dir(checkout).map_err(|e| format!("cannot list {}: {e}", checkout.display()))?;
    for entry in entries.flatten() {
        let manifest = entry.path().join("Cargo.toml");
        if manifest.is_file() {
            manifests.push(manifest);
        }
    }
    for manifest in manifests {
        let text = fs::read_to_string(&manifest).map_err(|e| format!("cannot read {}: {e}", manifest.display()))?;
        write(&manifest, &text.replace(&quoted, &renamed))?;
    }
    Ok(())
}

/// The `version = "..."` of the `[workspace.package]` table.
fn workspace_version(manifest: &str) -> Option<String> {
    let mut in_table = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_table = line == "[workspace.package]";
        } else if in_table && let Some(v) = line.strip_prefix("version") {
            let v = v.trim_start().strip_prefix('=')?.trim();
            return Some(v.trim_matches('"').to_string());
        }
    }
    None
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::workspace_version;

    #[test]
    fn finds_the_workspace_version_only() {
        let m = "[package]\nversion = \"9.9.9\"\n\n[workspace.package]\nedition = \"2024\"\nversion = \"0.1.0\"\n\n[workspace.dependencies]\nmd5 = { version = \"0.1.0\" }\n";
        assert_eq!(workspace_version(m).as_deref(), Some("0.1.0"));
        assert_eq!(workspace_version("[package]\nversion = \"1.0.0\"\n"), None);
    }
}
