//! `hashsum` beside GNU coreutils under hostile conditions: lost output
//! (closed standard output, a full disk, a closed pipe), closed or unusable
//! standard input, files an unprivileged user may not read.
//!
//! Each case is a small bash script run twice, with `t` running GNU's tool
//! and then ours under the same `argv[0]`; both scripts' standard output
//! (where they echo exit statuses) and standard error must agree byte for
//! byte. Where GNU has no equivalent (`-r`), ours runs as `hashsum -a ALG`
//! beside GNU on the same files listed, and "hashsum:" reads as GNU's name.
//!
//! The permission cases need a user that is not root (root reads every
//! file): run as root (CI), they drop to `nobody` (the standard library's
//! `Command::uid` also clears the supplementary groups); run as another
//! user, they run as that user. Their files live in a fresh directory under
//! the system's temporary directory, with a copy of the binary, where
//! `nobody` can reach both.

use std::fs;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_hashsum");

/// Whether this process runs as root (`/proc/self/status`, else `id -u`).
fn is_root() -> bool {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    if let Some(line) = status.lines().find(|l| l.starts_with("Uid:")) {
        return line.split_whitespace().nth(1) == Some("0");
    }
    let out = Command::new("id").arg("-u").output().expect("id -u");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// `nobody`'s user and group ids (`/etc/passwd`; 65534 where it is missing).
fn nobody() -> (u32, u32) {
    let passwd = fs::read_to_string("/etc/passwd").unwrap_or_default();
    for line in passwd.lines() {
        let fields: Vec<&str> = line.split(':').collect();
        if fields.len() > 3
            && fields[0] == "nobody"
            && let (Ok(uid), Ok(gid)) = (fields[2].parse(), fields[3].parse())
        {
            return (uid, gid);
        }
    }
    (65534, 65534)
}

/// The GNU tool's path; panics (fails the test) when it is not installed.
fn gnu_tool(tool: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        let candidate = dir.join(tool);
        if candidate.is_file() {
            return candidate;
        }
    }
    panic!("GNU `{tool}` is not installed: these differential tests need GNU coreutils (apt-get install coreutils)");
}

/// A fresh directory (mode 755) under the system's temporary directory,
/// removed and made again on each run, holding a copy of the binary that
/// every user may run (the target directory may sit under a private home).
struct Place {
    dir: PathBuf,
    bin: PathBuf,
}

fn place(name: &str) -> Place {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    let root = ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("hashsum-hostile-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(&root).expect("a directory in the temporary directory");
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        let bin = root.join("hashsum");
        fs::copy(BIN, &bin).expect("a copy of the binary");
        fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
        root
    });
    let dir = root.join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    Place { dir, bin: root.join("hashsum") }
}

/// Deterministic contents of `len` bytes.
fn contents(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

#[derive(Debug, PartialEq, Eq)]
struct Output {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Output {
    fn show(&self) -> String {
        format!(
            "--- stdout\n{}--- stderr\n{}",
            String::from_utf8_lossy(&self.stdout),
            String::from_utf8_lossy(&self.stderr)
        )
    }
}

/// Who runs a script.
#[derive(Clone, Copy, PartialEq, Eq)]
enum User {
    /// This process's user.
    Same,
    /// A user that cannot read mode-000 files: `nobody` when this process
    /// is root, else this process's user.
    Unprivileged,
}

/// Run `script` in bash in `dir`, with `t` running `program` as `tool`
/// (`argv[0]`), `h` running ours as `hashsum`, and the place's directory in
/// `$DIR`. Killed after `limit` (a hang fails the test).
fn script(program: &Path, tool: &str, place: &Place, script: &str, user: User, limit: Duration) -> Output {
    let prelude = r#"t() { (exec -a "$TOOL" "$PROG" "$@"); }
h() { (exec -a hashsum "$HASHSUM" "$@"); }
"#;
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(format!("{prelude}{script}"))
        .current_dir(&place.dir)
        .env("LC_ALL", "C")
        .env("TOOL", tool)
        .env("PROG", program)
        .env("HASHSUM", &place.bin)
        .env("DIR", &place.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if user == User::Unprivileged && is_root() {
        let (uid, gid) = nobody();
        cmd.uid(uid).gid(gid);
    }
    let mut child = cmd.spawn().expect("bash runs");
    // Read both pipes on threads so a chatty child cannot block.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`{script}` with {} did not finish within {limit:?}", program.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = Output { stdout: out_reader.join().unwrap(), stderr: err_reader.join().unwrap() };
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"), "`{script}` panicked:\n{}", out.show());
    out
}

const LIMIT: Duration = Duration::from_secs(60);

/// Run `ours` (with our binary) and `theirs` (with GNU's tool); they must
/// agree, our "hashsum:" prefix read as GNU's tool name.
fn same_scripts(tool: &str, place: &Place, ours: &str, theirs: &str, user: User) -> Output {
    let gnu = script(&gnu_tool(tool), tool, place, theirs, user, LIMIT);
    let mut mine = script(&place.bin, tool, place, ours, user, LIMIT);
    let prefix = format!("{tool}: ");
    let text = String::from_utf8_lossy(&mine.stderr).replace("hashsum: ", &prefix);
    if ours != theirs {
        mine.stderr = text.into_bytes();
    }
    assert!(
        mine == gnu,
        "`{ours}` differs from GNU's `{theirs}`\n===== GNU:\n{}===== ours:\n{}",
        gnu.show(),
        mine.show()
    );
    gnu
}

fn same_script(tool: &str, place: &Place, text: &str, user: User) -> Output {
    same_scripts(tool, place, text, text, user)
}

/// The files of the output cases: a few small files, a check file of
/// them, and enough files that the output outgrows a pipe's buffer.
fn output_place() -> &'static Place {
    static PLACE: OnceLock<Place> = OnceLock::new();
    PLACE.get_or_init(|| {
        let place = place("output");
        for i in 0..3 {
            fs::write(place.dir.join(format!("f{i}")), contents(100 * i, i as u64)).unwrap();
        }
        let many = place.dir.join("many");
        fs::create_dir_all(&many).unwrap();
        for i in 0..2000 {
            fs::write(many.join(format!("n{i:04}")), contents(i % 300, i as u64)).unwrap();
        }
        place
    })
}

/// Standard output closed (`>&-`) or a full disk (`/dev/full`), in hashing
/// and checking modes: GNU's message (with its cause for a closed
/// descriptor, without for a full disk) and status.
#[test]
fn lost_output_matches_gnu() {
    let place = output_place();
    for tool in ["sha256sum", "md5sum"] {
        let script = r#"
t f0 f1 >$TOOL.SUMS; t many/* >$TOOL.MANY
t f0 >&-; echo "status $?"
t f0 f1 f2 missing >&-; echo "status $?"
t missing >&-; echo "status $?"
t many/* >&-; echo "status $?"
t f0 >/dev/full; echo "status $?"
t f0 missing >/dev/full; echo "status $?"
t many/* >/dev/full; echo "status $?"
t -c $TOOL.SUMS >&-; echo "status $?"
t -c --quiet $TOOL.SUMS >&-; echo "status $?"
t -c --status $TOOL.SUMS >&-; echo "status $?"
t -c $TOOL.MANY >&-; echo "status $?"
t -c $TOOL.SUMS >/dev/full; echo "status $?"
t -c $TOOL.MANY >/dev/full; echo "status $?"
t --version >&-; echo "status $?"
t --help >/dev/full; echo "status $?"
"#;
        let out = same_script(tool, place, script, User::Same);
        let statuses = String::from_utf8_lossy(&out.stdout).matches("status 1").count();
        assert_eq!(statuses, 13, "{}", out.show());
        assert!(!String::from_utf8_lossy(&out.stderr).contains("no properly formatted"), "{}", out.show());
    }
}

/// A reader that goes away (the output outgrows a pipe's 64 KiB, so the
/// writer must see it gone): GNU dies of SIGPIPE (status 141 under
/// `pipefail`), in both modes; with SIGPIPE ignored by the parent it
/// reports a write error.
#[test]
fn closed_pipe_matches_gnu() {
    let place = output_place();
    let script = r#"
set -o pipefail
t many/* >MANY.SUMS
t many/* | head -n 1 >/dev/null; echo "status $?"
t -c MANY.SUMS MANY.SUMS MANY.SUMS | head -n 1 >/dev/null; echo "status $?"
cat MANY.SUMS MANY.SUMS MANY.SUMS | t -c | head -c 10 >/dev/null; echo "status $?"
(trap '' PIPE; t many/* | head -n 1 >/dev/null; echo "status $?")
"#;
    let out = same_script("sha256sum", place, script, User::Same);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "status 141\nstatus 141\nstatus 141\nstatus 1\n");
}

/// Standard input closed, write-only, or a directory: GNU's messages
/// ("-: Bad file descriptor", "'standard input': read error", and at exit
/// "standard input: Bad file descriptor" when it was never open).
#[test]
fn unusable_standard_input_matches_gnu() {
    let place = output_place();
    let script = r#"
t f0 f1 >SUMS
t <&-; echo "status $?"
t - <&-; echo "status $?"
t f0 - f1 <&-; echo "status $?"
t 0>WO; echo "status $?"
t f0 - 0>WO; echo "status $?"
t <.; echo "status $?"
t -c <&-; echo "status $?"
t -c 0>WO; echo "status $?"
t -c - SUMS <&-; echo "status $?"
t -c SUMS - 0>WO; echo "status $?"
t -c <.; echo "status $?"
t -c SUMS <&-; echo "status $?"
t --tag - <&- >&-; echo "status $?"
"#;
    for tool in ["sha256sum", "sha1sum"] {
        let out = same_script(tool, place, script, User::Same);
        let statuses = String::from_utf8_lossy(&out.stdout).matches("status 1").count();
        assert_eq!(statuses, 12, "{}", out.show());
    }
}

/// Files `nobody` may not read: named on the command line, listed in a
/// check file, a check file itself, and a directory under `-r`.
#[test]
fn unreadable_files_match_gnu_as_an_unprivileged_user() {
    if is_root() {
        println!("running the permission cases as nobody (uid {})", nobody().0);
    } else {
        println!("not root: running the permission cases as this user");
    }
    let place = place("perm");
    let d = &place.dir;
    fs::write(d.join("ok"), b"readable\n").unwrap();
    fs::write(d.join("locked"), b"secret\n").unwrap();
    fs::set_permissions(d.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    for sub in ["tree/a", "tree/locked-dir", "tree/z"] {
        fs::create_dir_all(d.join(sub)).unwrap();
    }
    fs::write(d.join("tree/a/one"), b"1").unwrap();
    fs::write(d.join("tree/locked-dir/hidden"), b"2").unwrap();
    fs::write(d.join("tree/locked-file"), b"3").unwrap();
    fs::write(d.join("tree/z/two"), b"4").unwrap();
    fs::set_permissions(d.join("tree/locked-dir"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::set_permissions(d.join("tree/locked-file"), fs::Permissions::from_mode(0o000)).unwrap();
    // The check files are written by root's GNU tool (which reads all).
    let sums = Command::new(gnu_tool("sha256sum"))
        .args(["ok", "locked", "tree/a/one"])
        .current_dir(d)
        .output()
        .expect("sha256sum runs");
    let mut listing = sums.stdout.clone();
    if !is_root() {
        // This user cannot read `locked`: list it with a made-up digest.
        listing.extend_from_slice(format!("{}  locked\n", "0".repeat(64)).as_bytes());
    }
    listing.extend_from_slice(format!("{}  missing\n", "0".repeat(64)).as_bytes());
    fs::write(d.join("SUMS"), &listing).unwrap();
    fs::write(d.join("locked.sums"), &listing).unwrap();
    fs::set_permissions(d.join("locked.sums"), fs::Permissions::from_mode(0o000)).unwrap();

    let script = r#"
t ok locked missing; echo "status $?"
t --tag locked ok; echo "status $?"
t -c SUMS; echo "status $?"
t -c --quiet SUMS; echo "status $?"
t -c --status SUMS; echo "status $?"
t -c --ignore-missing SUMS; echo "status $?"
t -c -w --strict SUMS; echo "status $?"
t -c locked.sums SUMS; echo "status $?"
t -c - <SUMS; echo "status $?"
t tree/locked-dir; echo "status $?"
"#;
    let out = same_script("sha256sum", &place, script, User::Unprivileged);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("locked: Permission denied"), "the files must be unreadable here:\n{}", out.show());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("status 0"), "{}", out.show());

    // `-r`: the unreadable directory is reported in its place, as GNU
    // reports it named on the command line (GNU has no -r).
    let ours = r#"h -a sha256 -r tree; echo "status $?""#;
    let theirs = r#"t tree/a/one tree/locked-dir tree/locked-file tree/z/two; echo "status $?""#;
    let out = same_scripts("sha256sum", &place, ours, theirs, User::Unprivileged);
    assert!(String::from_utf8_lossy(&out.stderr).contains("tree/locked-dir: Permission denied"), "{}", out.show());
}
