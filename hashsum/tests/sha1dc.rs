//! `hashsum -a sha1dc` (and `sha1dcsum`): SHA-1 with collision detection,
//! on the reference's collision files (`sha1/tests/data/sha1dc`, see the
//! NOTICE there) and on ordinary files, where it must be GNU `sha1sum`
//! byte for byte.
//!
//! A detected attack: the line is printed with the safe hash (as the
//! reference's `sha1dcsum` does, whose outputs are the expected digests
//! here), `PROG: FILE: SHA-1 collision attack detected` goes to standard
//! error, and the exit status is 1; `--check` fails the file whatever
//! digest its line holds, counted with the mismatches.

use std::fs;
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hashsum");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../sha1/tests/data/sha1dc");
const MSG: &str = "SHA-1 collision attack detected";

/// What the reference's `sha1dcsum` prints for the collision files (the
/// safe hash; reduced-round detection off, so the reduced-round collision
/// is not detected and its plain SHA-1 is printed).
const REFERENCE: [(&str, &str, bool); 5] = [
    ("shattered-1.pdf", "16e96b70000dd1e7c85b8368ee197754400e58ec", true),
    ("shattered-2.pdf", "e1761773e6a35916d99f891b77663e6405313587", true),
    ("sha-mbles-1.bin", "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14", true),
    ("sha-mbles-2.bin", "9ed5d77a4f48be1dbf3e9e15650733eb850897f2", true),
    ("sha1_reducedsha_coll.bin", "a56374e1cf4c3746499bc7c0acb39498ad2ee185", false),
];

/// The plain SHA-1 of the two SHAttered and the two Shambles files.
const SHATTERED_SHA1: &str = "38762cf7f55934b34d179ae6a4c80cadccbb7f0a";
const SHAMBLES_SHA1: &str = "8ac60ba76f1999a1ab70223f225aefdc78d4ddc0";

#[derive(Debug)]
struct Output {
    stdout: String,
    stderr: String,
    code: i32,
}

impl Output {
    fn show(&self) -> String {
        format!("exit {}\n--- stdout\n{}--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

fn run(program: &Path, arg0: &str, args: &[&str], dir: &Path, stdin: &[u8]) -> Output {
    let mut child = Command::new(program)
        .arg0(arg0)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    let mut input = child.stdin.take().expect("stdin is piped");
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().expect("the child runs to completion");
    let out = Output {
        stdout: String::from_utf8(out.stdout).expect("hex and ASCII names"),
        stderr: String::from_utf8(out.stderr).expect("ASCII messages"),
        code: out.status.code().expect("exited, not killed"),
    };
    assert!(!out.stderr.contains("panicked"), "{args:?} panicked:\n{}", out.show());
    out
}

fn hashsum(args: &[&str], dir: &Path) -> Output {
    run(Path::new(BIN), "hashsum", args, dir, b"")
}

/// GNU `sha1sum`'s path; fails the test when it is not installed.
fn sha1sum() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join("sha1sum"))
        .find(|p| p.is_file())
        .expect("GNU `sha1sum` is not installed: these tests need GNU coreutils (apt-get install coreutils)")
}

/// A scratch directory with the collision files (`shattered-2.pdf`
/// rebuilt from `shattered-1.pdf` and its differing bytes, as in the
/// `sha1` crate's tests), an ordinary file and an empty one.
fn setup(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hashsum-sha1dc").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    let data = Path::new(DATA);
    for name in ["shattered-1.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin", "sha1_reducedsha_coll.bin"] {
        fs::copy(data.join(name), dir.join(name)).expect("collision file");
    }
    let mut two = fs::read(data.join("shattered-1.pdf")).expect("shattered-1.pdf");
    two[192..320].copy_from_slice(&fs::read(data.join("shattered-2-bytes-192-320.bin")).expect("its bytes 192..320"));
    fs::write(dir.join("shattered-2.pdf"), two).unwrap();
    fs::write(dir.join("plain.txt"), b"an ordinary file\n".repeat(1000)).unwrap();
    fs::write(dir.join("empty"), b"").unwrap();
    dir
}

fn names() -> Vec<&'static str> {
    let mut names: Vec<&str> = REFERENCE.iter().map(|r| r.0).collect();
    names.extend(["plain.txt", "empty"]);
    names
}

/// The lines `hashsum -a sha1dc` should print and its diagnostics (with
/// program name `prog`), from the reference's outputs and `sha1sum`.
fn expected(dir: &Path, prog: &str) -> (String, String) {
    let plain = run(&sha1sum(), "sha1sum", &["plain.txt", "empty"], dir, b"");
    assert_eq!(plain.code, 0, "{}", plain.show());
    let mut stdout = String::new();
    let mut stderr = String::new();
    for (name, hex, detected) in REFERENCE {
        stdout.push_str(&format!("{hex}  {name}\n"));
        if detected {
            stderr.push_str(&format!("{prog}: {name}: {MSG}\n"));
        }
    }
    stdout.push_str(&plain.stdout);
    (stdout, stderr)
}

/// The collision files get the reference's safe hash and a diagnostic
/// each, exit 1; the batch path (small files), the stream path
/// (`shattered-*.pdf` are over 256 KiB) with and without a reader thread,
/// and standard input agree.
#[test]
fn collision_files_are_reported() {
    let dir = setup("report");
    let (stdout, stderr) = expected(&dir, "hashsum");
    for jobs in ["1", "3"] {
        let mut args = vec!["-a", "sha1dc", "-j", jobs];
        args.extend(names());
        let out = hashsum(&args, &dir);
        assert_eq!((out.code, &*out.stdout, &*out.stderr), (1, &*stdout, &*stderr), "-j {jobs}: {}", out.show());
    }
    // Standard input, and one file alone (exit status from that file only).
    let shambles = fs::read(dir.join("sha-mbles-2.bin")).unwrap();
    let out = run(Path::new(BIN), "hashsum", &["-a", "sha1dc"], &dir, &shambles);
    assert_eq!(out.code, 1, "{}", out.show());
    assert_eq!(out.stdout, "9ed5d77a4f48be1dbf3e9e15650733eb850897f2  -\n");
    assert_eq!(out.stderr, format!("hashsum: -: {MSG}\n"));
    let out = hashsum(&["-a", "sha1dc", "plain.txt", "sha1_reducedsha_coll.bin"], &dir);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{}", out.show());
    // Plain SHA-1 of the same files: no detection, the colliding digests.
    let out =
        hashsum(&["-a", "sha1", "shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin"], &dir);
    assert_eq!(out.code, 0, "{}", out.show());
    let expected = format!(
        "{SHATTERED_SHA1}  shattered-1.pdf\n{SHATTERED_SHA1}  shattered-2.pdf\n\
         {SHAMBLES_SHA1}  sha-mbles-1.bin\n{SHAMBLES_SHA1}  sha-mbles-2.bin\n"
    );
    assert_eq!(out.stdout, expected);
}

/// `--tag`, `-z` and `-b` lay the line out as for `sha1`, the diagnostic
/// is the same; names are quoted in diagnostics as in GNU's other errors.
#[test]
fn output_modes_and_quoting() {
    let dir = setup("modes");
    fs::copy(dir.join("sha-mbles-1.bin"), dir.join("a name")).unwrap();
    let out = hashsum(&["-a", "sha1dc", "--tag", "a name", "plain.txt"], &dir);
    assert_eq!(out.code, 1, "{}", out.show());
    let plain = run(&sha1sum(), "sha1sum", &["--tag", "plain.txt"], &dir, b"").stdout;
    assert_eq!(out.stdout, format!("SHA1 (a name) = 4f3d9be4a472c4dae83c6314aa6c36a064c1fd14\n{plain}"));
    assert_eq!(out.stderr, format!("hashsum: 'a name': {MSG}\n"));
    let out = hashsum(&["-a", "sha1dc", "-z", "-b", "a name"], &dir);
    assert_eq!(out.code, 1, "{}", out.show());
    assert_eq!(out.stdout, "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *a name\0");
}

/// With no collision in sight, `-a sha1dc` is GNU `sha1sum` byte for byte
/// (lines, `--tag`, and a check of GNU's own list).
#[test]
fn ordinary_files_match_sha1sum() {
    let dir = setup("ordinary");
    for i in 0..40usize {
        let data: Vec<u8> = (0..i * 37 + i * i * 29).map(|j| (j * 7 + i) as u8).collect();
        fs::write(dir.join(format!("f{i:02}")), data).unwrap();
    }
    let files: Vec<String> = (0..40).map(|i| format!("f{i:02}")).collect();
    for extra in [&[][..], &["--tag"], &["-b"]] {
        let mut args: Vec<&str> = extra.to_vec();
        args.extend(files.iter().map(String::as_str));
        args.extend(["empty", "sha1_reducedsha_coll.bin"]);
        let gnu = run(&sha1sum(), "sha1sum", &args, &dir, b"");
        let mut ours_args = vec!["-a", "sha1dc"];
        ours_args.extend(&args);
        let ours = hashsum(&ours_args, &dir);
        assert_eq!((ours.code, &ours.stdout, &ours.stderr), (gnu.code, &gnu.stdout, &gnu.stderr), "{extra:?}");
        if extra.is_empty() {
            fs::write(dir.join("gnu.sums"), &gnu.stdout).unwrap();
        }
    }
    let out = hashsum(&["-a", "sha1dc", "-c", "--strict", "gnu.sums"], &dir);
    assert_eq!(out.code, 0, "{}", out.show());
    assert_eq!(out.stdout.lines().filter(|l| l.ends_with(": OK")).count(), 42);
}

/// `--check` fails a file with a detected attack whatever its line says:
/// the plain SHA-1 (GNU `sha1sum`'s list) and the safe hash (our own list)
/// both fail, reported like a mismatch and counted in the summary, with
/// the diagnostic on standard error (also under `--status`).
#[test]
fn check_fails_collision_files() {
    let dir = setup("check");
    let gnu = run(&sha1sum(), "sha1sum", &names(), &dir, b"");
    assert_eq!(gnu.code, 0, "{}", gnu.show());
    fs::write(dir.join("gnu.sums"), &gnu.stdout).unwrap();
    let mut args = vec!["-a", "sha1dc"];
    args.extend(names());
    fs::write(dir.join("own.sums"), hashsum(&args, &dir).stdout).unwrap();
    // The same lists check with plain SHA-1 as they were made.
    let out = hashsum(&["-a", "sha1", "-c", "gnu.sums"], &dir);
    assert_eq!(out.code, 0, "{}", out.show());

    let mut stdout = String::new();
    let mut stderr = String::new();
    for (name, _, detected) in REFERENCE {
        stdout.push_str(&format!("{name}: {}\n", if detected { "FAILED" } else { "OK" }));
        if detected {
            stderr.push_str(&format!("hashsum: {name}: {MSG}\n"));
        }
    }
    stdout.push_str("plain.txt: OK\nempty: OK\n");
    stderr.push_str("hashsum: WARNING: 4 computed checksums did NOT match\n");
    for list in ["gnu.sums", "own.sums"] {
        for jobs in ["1", "4"] {
            let out = hashsum(&["-a", "sha1dc", "-j", jobs, "-c", list], &dir);
            assert_eq!((out.code, &*out.stdout, &*out.stderr), (1, &*stdout, &*stderr), "{list}: {}", out.show());
        }
    }
    let out = hashsum(&["-a", "sha1dc", "--check", "--status", "own.sums"], &dir);
    let diagnostics: String = stderr.lines().filter(|l| l.ends_with(MSG)).map(|l| format!("{l}\n")).collect();
    assert_eq!((out.code, &*out.stdout, &*out.stderr), (1, "", &*diagnostics), "{}", out.show());
    let out = hashsum(&["-a", "sha1dc", "--check", "--quiet", "own.sums"], &dir);
    let failed: String = stdout.lines().filter(|l| l.ends_with("FAILED")).map(|l| format!("{l}\n")).collect();
    assert_eq!((out.code, &*out.stdout, &*out.stderr), (1, &*failed, &*stderr), "{}", out.show());
    // One collision file alone: singular summary.
    fs::write(dir.join("one.sums"), format!("{SHAMBLES_SHA1}  sha-mbles-1.bin\n")).unwrap();
    let out = hashsum(&["-a", "sha1dc", "-c", "one.sums"], &dir);
    assert_eq!(out.code, 1, "{}", out.show());
    assert_eq!(out.stdout, "sha-mbles-1.bin: FAILED\n");
    assert_eq!(
        out.stderr,
        format!("hashsum: sha-mbles-1.bin: {MSG}\nhashsum: WARNING: 1 computed checksum did NOT match\n")
    );
}

/// Invoked as `sha1dcsum` (a link), it is `hashsum -a sha1dc` with GNU's
/// command line and messages under that name; GNU-only options as
/// `sha1sum` has them.
#[test]
fn sha1dcsum_link() {
    let dir = setup("link");
    let link = dir.join("sha1dcsum");
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let prog = link.to_str().unwrap();
    let (stdout, stderr) = expected(&dir, prog);
    let out = run(&link, prog, &names(), &dir, b"");
    assert_eq!((out.code, &*out.stdout, &*out.stderr), (1, &*stdout, &*stderr), "{}", out.show());
    // `-a` is not an option of the GNU tools.
    let out = run(&link, "sha1dcsum", &["-a", "sha1", "empty"], &dir, b"");
    assert_eq!(out.code, 1, "{}", out.show());
    assert!(out.stderr.starts_with("sha1dcsum: invalid option -- 'a'\n"), "{}", out.show());
    let out = run(&link, "sha1dcsum", &["--help"], &dir, b"");
    assert_eq!(out.code, 0, "{}", out.show());
    assert!(out.stdout.contains("collision"), "{}", out.show());
}
