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
        // /tmp (mode 1777) rather than $TMPDIR, which may sit under a home
        // directory that `nobody` cannot enter.
        let tmp = if Path::new("/tmp").is_dir() { PathBuf::from("/tmp") } else { std::env::temp_dir() };
        // Earlier runs' directories (each holds a copy of the binary) go
        // once their process is gone.
        if let Ok(entries) = fs::read_dir(&tmp) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let pid = name.to_str().and_then(|n| n.strip_prefix("hashsum-hostile-"));
                if pid.is_some_and(|pid| !Path::new("/proc").join(pid).exists()) {
                    let _ = fs::remove_dir_all(entry.path());
                }
            }
        }
        let root = tmp.join(format!("hashsum-hostile-{}", std::process::id()));
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

/// Wait for `child` at most `limit`; kill it and return `None` past that.
fn wait_or_kill(child: &mut std::process::Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

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

/// Standard output closed (`>&-`), a full disk (`/dev/full`), open for
/// reading only (`1<file`) or a pipe without a reader under an ignored
/// SIGPIPE, in hashing and checking modes: GNU's message (with its cause
/// for a closed descriptor only) and status.
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
t f0 1<f0; echo "status $?"
t many/* 1<f0; echo "status $?"
t -c $TOOL.SUMS 1<f0; echo "status $?"
t --version 1<f0; echo "status $?"
(set -o pipefail; trap '' PIPE; t many/* | (exec 0<&-; sleep 0.3); echo "status $?")
"#;
        let out = same_script(tool, place, script, User::Same);
        let statuses = String::from_utf8_lossy(&out.stdout).matches("status 1").count();
        assert_eq!(statuses, 18, "{}", out.show());
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

/// The lines (without the status lines) GNU's `tool` prints for `files`.
fn gnu_lines(tool: &str, dir: &Path, files: &[&str]) -> Vec<u8> {
    let out = Command::new(gnu_tool(tool)).args(files).current_dir(dir).output().expect("GNU runs");
    assert!(out.status.success(), "{tool} {files:?}");
    out.stdout
}

/// Thread creation refused (`prlimit --nproc=1` as an unprivileged user;
/// root is exempt from the limit): the main thread does the work, large
/// files included, with and without `-j`, in hashing, `-r` and `--check`
/// mode. The limit is first shown to refuse a fork (dash reports "Cannot
/// fork"), so the runs cannot pass with threads allowed.
#[test]
fn refused_threads_still_hash() {
    let place = output_place();
    fs::write(place.dir.join("big"), contents(700_000, 9)).unwrap();
    let proof = r#"prlimit --nproc=1 -- /bin/sh -c 'true & wait' 2>&1; echo "status $?""#;
    let out = script(Path::new("/bin/sh"), "sh", place, proof, User::Unprivileged, LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Cannot fork") && !text.ends_with("status 0\n"), "the limit refuses no fork: {text}");
    let theirs = r#"t f0 big f1; echo "status $?""#;
    fs::write(place.dir.join("THREADS.SUMS"), gnu_lines("sha256sum", &place.dir, &["f0", "big", "f1"])).unwrap();
    // Under AddressSanitizer (.ci/asan), LeakSanitizer forks a tracer at
    // exit, which the process limit refuses (it then aborts): leak checking
    // is off for these runs. Other builds ignore the variable.
    let limited = r#"ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" prlimit --nproc=1 -- "$HASHSUM""#;
    for jobs in ["", "-j 1", "-j 4"] {
        let ours = format!(r#"{limited} -a sha256 {jobs} f0 big f1; echo "status $?""#);
        let out = same_scripts("sha256sum", place, &ours, theirs, User::Unprivileged);
        assert!(out.stdout.ends_with(b"status 0\n"));
        let ours = format!(r#"{limited} -a sha256 {jobs} -c THREADS.SUMS; echo "status $?""#);
        let theirs = r#"t -c THREADS.SUMS; echo "status $?""#;
        let out = same_scripts("sha256sum", place, &ours, theirs, User::Unprivileged);
        assert_eq!(String::from_utf8_lossy(&out.stdout), "f0: OK\nbig: OK\nf1: OK\nstatus 0\n");
    }
    let ours = format!(r#"{limited} -a md5 -j 4 -r many; echo "status $?""#);
    let out = same_scripts("md5sum", place, &ours, r#"t many/*; echo "status $?""#, User::Unprivileged);
    assert!(out.stdout.ends_with(b"status 0\n"));
}

/// Few descriptors and many threads: every file is hashed (workers wait
/// for descriptors rather than fail files), in a flat directory of 2000
/// files and in a tree 24 levels deep (the walk holds one directory open at
/// a time), and checked, from a check file and from standard input.
/// Descriptors inherited from the test harness are closed first; the
/// limits are GNU's minimum: `--nofile=4` leaves one descriptor (3) for
/// the files, `--nofile=5` one for the check file and one for the files
/// (hashsum spends none on its standard descriptors).
#[test]
fn few_descriptors_still_hash() {
    let place = output_place();
    let deep = place.dir.join("deep");
    let _ = fs::remove_dir_all(&deep);
    let mut dir = deep.clone();
    let mut names = Vec::new();
    let mut name = String::from("deep");
    for level in 0..24 {
        fs::create_dir_all(&dir).unwrap();
        for file in ["a", "b"] {
            fs::write(dir.join(file), contents(level * 10, level as u64)).unwrap();
            names.push(format!("{name}/{file}"));
        }
        dir = dir.join("d");
        name.push_str("/d");
    }
    let close = r#"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
"#;
    let check = r#"prlimit --nofile=5 -- "$PROG" -c --quiet FEW.SUMS; echo "status $?"
prlimit --nofile=4 -- "$PROG" -c --quiet <FEW.SUMS; echo "status $?""#;
    let mut all: Vec<String> = (0..2000).map(|i| format!("many/n{i:04}")).collect();
    all.extend(names.iter().cloned());
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    fs::write(place.dir.join("FEW.SUMS"), gnu_lines("md5sum", &place.dir, &all)).unwrap();
    for jobs in ["1", "2", "64"] {
        let theirs = format!(r#"{close}t many/* {}; echo "status $?""#, names.join(" "));
        let ours =
            format!(r#"{close}prlimit --nofile=4 -- "$HASHSUM" -a md5 -j {jobs} -r many deep; echo "status $?""#);
        let out = same_scripts("md5sum", place, &ours, &theirs, User::Same);
        assert!(out.stdout.ends_with(b"status 0\n"));
        let ours = format!("{close}{}", check.replace(r#""$PROG""#, &format!(r#""$HASHSUM" -a md5 -j {jobs}"#)));
        let out = same_scripts("md5sum", place, &ours, &format!("{close}{check}"), User::Same);
        assert_eq!(String::from_utf8_lossy(&out.stdout), "status 0\nstatus 0\n", "{}", out.show());
    }
}

/// `-r` hashes regular files only: a FIFO, a socket and devices (through
/// links) are named and skipped, without blocking or reading for ever; the
/// status stays 0. A FIFO named on the command line is read, as GNU does.
#[test]
fn recursive_skips_special_files() {
    let place = place("special");
    let d = &place.dir;
    fs::create_dir_all(d.join("tree/sub")).unwrap();
    fs::write(d.join("tree/a"), b"a\n").unwrap();
    fs::write(d.join("tree/sub/b"), b"b\n").unwrap();
    let made = Command::new("mkfifo").arg(d.join("tree/fifo")).status().expect("mkfifo");
    assert!(made.success());
    let _socket = std::os::unix::net::UnixListener::bind(d.join("tree/sock")).expect("a socket");
    std::os::unix::fs::symlink("/dev/zero", d.join("tree/zero")).unwrap();
    std::os::unix::fs::symlink("/dev/null", d.join("tree/null")).unwrap();
    let out =
        script(&place.bin, "sha256sum", &place, r#"h -a sha256 -j 2 -r tree; echo "status $?""#, User::Same, LIMIT);
    let mut expected = gnu_lines("sha256sum", d, &["tree/a", "tree/sub/b"]);
    expected.extend_from_slice(b"status 0\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&expected));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hashsum: tree/fifo: not a regular file (FIFO): skipped\n\
         hashsum: tree/null: not a regular file (character device): skipped\n\
         hashsum: tree/sock: not a regular file (socket): skipped\n\
         hashsum: tree/zero: not a regular file (character device): skipped\n"
    );
    let named = r#"(sleep 0.2; echo data >tree/fifo) & t tree/fifo; echo "status $?"; wait"#;
    same_script("sha256sum", &place, named, User::Same);
}

/// `--check` streams: an endless check input gets its first lines checked
/// and printed at once (GNU's `head -n 2` ends the pipeline, 141).
#[test]
fn endless_check_input_is_checked_as_it_comes() {
    let place = output_place();
    let script = r#"
set -o pipefail
line=$(t f1)
yes "$line" | t -c | head -n 2; echo "status $?"
yes "$line" | t -c - | head -n 2; echo "status $?"
"#;
    let out = same_script("sha256sum", place, script, User::Same);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "f1: OK\nf1: OK\nstatus 141\nf1: OK\nf1: OK\nstatus 141\n");
}

/// The peak resident memory (`VmHWM`) of a child, polled until it exits.
fn peak_rss_kib(child: &mut std::process::Child) -> u64 {
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let start = Instant::now();
    loop {
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("did not finish within {LIMIT:?}");
        }
        if let Ok(text) = fs::read_to_string(&status)
            && let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:"))
        {
            peak = peak.max(line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).unwrap_or(0));
        }
        if child.try_wait().expect("wait").is_some() {
            return peak;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A check file of 300,000 lines (75 MB) on standard input: memory stays
/// under 32 MiB (the whole input held would be several times that). And
/// 20,000 lines of a file that exists, checked with `-j 64` (as on a
/// 64-core machine): each window's 64 workers keep to what they read, not
/// a 4 MiB arena each (265 MiB before).
#[test]
fn long_check_input_in_bounded_memory() {
    if !Path::new("/proc/self/status").exists() {
        println!("skipped: no /proc to read the peak memory from");
        return;
    }
    if built_with_address_sanitizer() {
        println!(
            "SKIPPED long_check_input_in_bounded_memory: hashsum is built with AddressSanitizer, whose \
             quarantine keeps freed memory resident (hundreds of MiB), so its RSS does not measure \
             hashsum's own memory; the plain test run checks the bound"
        );
        return;
    }
    let place = output_place();
    let missing = format!("{}  {}\n", "0".repeat(64), "missing-".repeat(20));
    let sum = String::from_utf8(gnu_lines("sha256sum", &place.dir, &["f1"])).unwrap();
    let cases = [
        (&["-c", "--ignore-missing"][..], missing, 300_000, "sha256sum: 'standard input': no file was verified\n"),
        (&["-c", "--quiet", "-j", "64"], sum, 20_000, ""),
    ];
    for (args, line, lines, expected) in cases {
        // -j is hashsum's: that run is `hashsum -a sha256`.
        let arg0 = if args.contains(&"-j") { "hashsum" } else { "sha256sum" };
        let mut child = Command::new(&place.bin)
            .arg0(arg0)
            .args(if arg0 == "hashsum" { &["-a", "sha256"][..] } else { &[] })
            .args(args)
            .current_dir(&place.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        let mut stdin = child.stdin.take().unwrap();
        let len = line.len();
        let feeder = std::thread::spawn(move || {
            use std::io::Write;
            let block = line.repeat(1000);
            for _ in 0..lines / 1000 {
                stdin.write_all(block.as_bytes()).expect("the checker reads all");
            }
        });
        let peak = peak_rss_kib(&mut child);
        feeder.join().unwrap();
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert_eq!(err, expected, "{args:?}");
        println!("{args:?}: peak resident memory {peak} KiB for {} MB of check lines", lines * len / 1_000_000);
        assert!(peak > 0 && peak < 32 << 10, "{args:?}: peak resident memory {peak} KiB");
    }
}

/// XOF `--check` without `-l`: a digest under 16 bytes checks too little
/// and one over 1 KiB is refused (improperly formatted, quickly, whatever
/// its size); with `-l` asking for exactly that length, they are checked.
#[test]
fn xof_check_lengths_are_bounded() {
    let place = place("xof");
    let d = &place.dir;
    fs::write(d.join("f"), b"data\n").unwrap();
    let hs = |args: &[&str]| {
        let out = Command::new(&place.bin).arg0("hashsum").args(args).current_dir(d).output().expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for (len, accepted) in [("1", false), ("15", false), ("16", true), ("1024", true), ("1025", false)] {
        let (_, line, _) = hs(&["-a", "shake128", "-l", len, "f"]);
        fs::write(d.join("sums"), &line).unwrap();
        let unasked = hs(&["-a", "shake128", "-c", "sums"]);
        if accepted {
            assert_eq!(unasked, (Some(0), "f: OK\n".into(), String::new()), "{len} bytes");
        } else {
            assert_eq!(
                unasked,
                (Some(1), String::new(), "hashsum: sums: no properly formatted checksum lines found\n".into()),
                "{len} bytes"
            );
        }
        let asked = hs(&["-a", "shake128", "-l", len, "-c", "sums"]);
        assert_eq!(asked, (Some(0), "f: OK\n".into(), String::new()), "-l {len}");
    }
    // A 4 MB digest line.
    fs::write(d.join("huge"), format!("{}  f\n", "ab".repeat(2 << 20))).unwrap();
    let start = Instant::now();
    let out = hs(&["-a", "shake128", "-c", "huge"]);
    assert_eq!(out.0, Some(1), "{out:?}");
    assert!(out.2.contains("no properly formatted checksum lines found"), "{out:?}");
    println!("a 4 MB line refused in {:?}", start.elapsed());
    // ... in bounded memory (the line is not held whole; 536 MB once):
    // on standard input, kept open (the process alive to be measured) for
    // a while after the line.
    if Path::new("/proc/self/status").exists() && !built_with_address_sanitizer() {
        let mut child = Command::new(&place.bin)
            .args(["-a", "shake128", "-c"])
            .current_dir(d)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("runs");
        let mut stdin = child.stdin.take().unwrap();
        let huge = fs::read(d.join("huge")).unwrap();
        let feeder = std::thread::spawn(move || {
            use std::io::Write;
            stdin.write_all(&huge).expect("the checker reads all");
            std::thread::sleep(Duration::from_millis(300));
        });
        let peak = peak_rss_kib(&mut child);
        feeder.join().unwrap();
        println!("peak resident memory for the 4 MB line: {peak} KiB");
        assert!(peak > 0 && peak < 32 << 10, "peak resident memory {peak} KiB");
    } else {
        println!(
            "SKIPPED the 4 MB line's memory bound: no /proc, or hashsum is built with AddressSanitizer \
             (its quarantine keeps freed memory resident); the plain test run checks the bound"
        );
    }
}

/// Output to a terminal is shown line by line as each file is done: the
/// lines of the 100 files before a FIFO with no writer yet all show while
/// it blocks, in hashing and in `--check` mode (with `-j 2` the FIFO
/// would share a run of 12 files, held back until the run is done, if
/// runs were not one file each on a terminal). The terminal is
/// `script`'s (util-linux).
#[test]
fn terminal_output_is_flushed_per_line() {
    if Command::new("script").arg("--version").output().is_err() {
        println!("skipped: `script` (util-linux) is not installed, no terminal to test with");
        return;
    }
    let place = place("tty");
    let d = &place.dir;
    let names: Vec<String> = (0..100).map(|i| format!("f{i:03}")).collect();
    for (i, name) in names.iter().enumerate() {
        fs::write(d.join(name), contents(i * 10, i as u64)).unwrap();
    }
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let sums = gnu_lines("sha256sum", d, &name_refs);
    let mut check_file = sums.clone();
    check_file.extend_from_slice(format!("{}  fifo\n", "0".repeat(64)).as_bytes());
    fs::write(d.join("SUMS"), check_file).unwrap();
    let sums = String::from_utf8(sums).unwrap();
    let oks: String = names.iter().map(|n| format!("{n}: OK\n")).collect();
    assert!(Command::new("mkfifo").arg(d.join("fifo")).status().unwrap().success());
    let bin_dir = place.bin.parent().unwrap().display().to_string();
    // POSIX sh: `script` runs the command with $SHELL, which need not be
    // bash.
    let hashing = format!("PATH={bin_dir}:$PATH exec hashsum -a sha256 -j 2 {} fifo", names.join(" "));
    let checking = format!("PATH={bin_dir}:$PATH exec hashsum -a sha256 -j 2 -c SUMS");
    for (command, expected) in [(hashing, sums), (checking, oks)] {
        let mut child = Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .current_dir(d)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script runs");
        let mut pipe = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let mut seen = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        // The terminal turns each newline into CR LF.
        while String::from_utf8_lossy(&seen).replace("\r\n", "\n") != expected {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(chunk) => seen.extend_from_slice(&chunk),
                Err(_) if Instant::now() > deadline => {
                    let _ = child.kill();
                    panic!(
                        "`{command}`: the lines of the files before the FIFO did not all show while it blocked; \
                         shown: {:?}",
                        String::from_utf8_lossy(&seen)
                    );
                }
                Err(_) => {}
            }
        }
        // Now give the FIFO a writer; the program finishes.
        fs::write(d.join("fifo"), b"late\n").unwrap();
        let status = wait_or_kill(&mut child, LIMIT).expect("finishes once the FIFO has a writer");
        assert!(status.code().is_some(), "{command}: {status:?}");
    }
}

/// `--progress` on a 30-column terminal (`script`'s) shared with the
/// output: the bar is drawn on its own line, cut to fit (no wrapped rows),
/// and erased before each hash line and each message, so the screen ends
/// up with exactly the lines and messages, nothing glued to them.
#[test]
fn progress_keeps_to_its_own_line() {
    if Command::new("script").arg("--version").output().is_err() {
        println!("skipped: `script` (util-linux) is not installed, no terminal to test with");
        return;
    }
    let place = place("progress");
    let d = &place.dir;
    fs::write(d.join("f0"), b"zero\n").unwrap();
    fs::write(d.join("f1"), contents(300_000, 3)).unwrap();
    fs::write(d.join("late-copy"), b"late\n").unwrap();
    assert!(Command::new("mkfifo").arg(d.join("fifo")).status().unwrap().success());
    let command = format!(
        "stty cols 30 rows 10; (sleep 1.5; echo late >fifo) & PATH={}:$PATH exec hashsum -a sha256 --progress -j 2 f0 fifo f1 missing",
        place.bin.parent().unwrap().display()
    );
    let mut child = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .current_dir(d)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script runs");
    let mut pipe = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = pipe.read_to_end(&mut v);
        v
    });
    assert!(wait_or_kill(&mut child, LIMIT).is_some(), "hashsum --progress did not finish within {LIMIT:?}");
    let raw = reader.join().unwrap();
    let shown = String::from_utf8_lossy(&raw);
    assert!(shown.contains(" files, "), "the bar was never drawn: {shown:?}");
    // Every drawing of the bar fits in 29 columns (cut: it has more to say).
    let mut cut = false;
    for piece in shown.split('\r') {
        if let Some(bar) = piece.strip_suffix("\x1b[K")
            && bar.contains(" files, ")
        {
            assert!(bar.chars().count() <= 29, "a bar of {} columns: {bar:?}", bar.chars().count());
            cut |= bar.chars().count() == 29;
        }
    }
    assert!(cut, "the bar was never cut to the width: {shown:?}");
    // What the screen shows at the end, row by row (carriage return,
    // erase to end of line, newline).
    let mut rows = Vec::new();
    let mut line: Vec<u8> = Vec::new();
    let mut col = 0;
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'\r' => col = 0,
            b'\n' => {
                rows.push(String::from_utf8_lossy(&line).into_owned());
                line.clear();
                col = 0;
            }
            0x1b if raw[i..].starts_with(b"\x1b[K") => {
                line.truncate(col);
                i += 2;
            }
            b => {
                if col < line.len() {
                    line[col] = b;
                } else {
                    line.push(b);
                }
                col += 1;
            }
        }
        i += 1;
    }
    if !line.is_empty() {
        rows.push(String::from_utf8_lossy(&line).into_owned());
    }
    let gnu =
        String::from_utf8(gnu_lines("sha256sum", d, &["f0", "late-copy", "f1"])).unwrap().replace("late-copy", "fifo");
    let mut expected: Vec<String> = gnu.lines().map(String::from).collect();
    expected.push("hashsum: missing: No such file or directory".into());
    assert_eq!(rows, expected, "the screen: {shown:?}");
}

/// Whether the hashsum under test is built with AddressSanitizer (its
/// runtime's entry point is in the binary).
fn built_with_address_sanitizer() -> bool {
    let bin = fs::read(BIN).expect("the hashsum binary is readable");
    bin.windows(b"__asan_init".len()).any(|w| w == b"__asan_init")
}
