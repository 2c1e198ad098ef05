//! Differential tests: `hashsum` against the installed GNU coreutils
//! (`md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`,
//! `sha512sum`), byte for byte on standard output and standard error, and
//! exit status.
//!
//! Ours runs with `argv[0]` set to the GNU tool's name (so it behaves as that
//! tool and its messages carry the same prefix); one test also goes through
//! a real symbolic link. A missing GNU tool fails the tests loudly: they are
//! the reference, and coreutils is on every machine this project targets.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const BIN: &str = env!("CARGO_BIN_EXE_hashsum");
const TOOLS: [&str; 6] = ["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"];

#[derive(Debug, PartialEq, Eq)]
struct Output {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    code: i32,
}

impl Output {
    fn show(&self) -> String {
        format!(
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code,
            String::from_utf8_lossy(&self.stdout),
            String::from_utf8_lossy(&self.stderr)
        )
    }
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

/// Run `program` (with `argv[0]` = `arg0`) in `dir`.
fn run(program: &Path, arg0: &str, args: &[OsString], dir: &Path, stdin: &[u8], locale: &str) -> Output {
    let mut cmd = Command::new(program);
    cmd.arg0(arg0)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", locale)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    let mut input = child.stdin.take().expect("stdin is piped");
    // A tool may exit without reading its input (a usage error).
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().expect("the child runs to completion");
    let stderr = out.stderr;
    assert!(
        !String::from_utf8_lossy(&stderr).contains("panicked"),
        "{} {args:?} panicked:\n{}",
        program.display(),
        String::from_utf8_lossy(&stderr)
    );
    Output { stdout: out.stdout, stderr, code: out.status.code().expect("exited, not killed") }
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// Run GNU `tool` and ours as `tool` with the same arguments; they must
/// agree byte for byte. Returns GNU's output.
fn same_in(tool: &str, args: &[OsString], dir: &Path, stdin: &[u8], locale: &str) -> Output {
    let theirs = run(&gnu_tool(tool), tool, args, dir, stdin, locale);
    let ours = run(Path::new(BIN), tool, args, dir, stdin, locale);
    assert!(ours == theirs, "`{tool} {args:?}` differs\n===== GNU:\n{}===== ours:\n{}", theirs.show(), ours.show());
    theirs
}

fn same(tool: &str, args: &[OsString], dir: &Path, stdin: &[u8]) -> Output {
    same_in(tool, args, dir, stdin, "C")
}

/// Ours as `hashsum -a ALG EXTRA... ARGS...` (`-j`, `-r`, `--progress`
/// are not GNU's, so not accepted under a GNU name), its messages' prefix
/// read as the GNU tool's.
fn ours_as_hashsum(tool: &str, extra: &[&str], args: &[OsString], dir: &Path) -> Output {
    let alg = tool.strip_suffix("sum").expect("a GNU tool's name");
    let mut all = os(&["-a", alg]);
    all.extend(os(extra));
    all.extend(args.iter().cloned());
    let mut out = run(Path::new(BIN), "hashsum", &all, dir, b"", "C");
    let text = String::from_utf8_lossy(&out.stderr).replace("hashsum: ", &format!("{tool}: "));
    out.stderr = text.into_bytes();
    out
}

/// A fresh directory under the target's test scratch space.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hashsum-tests").join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
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

/// Names that GNU escapes, quotes, or that look like options.
fn hard_names() -> Vec<OsString> {
    [
        &b"space name"[..],
        b"-leading-dash",
        b"back\\slash",
        b"new\nline",
        b"carriage\rreturn",
        b"\xff\xfe not utf-8",
        b"tab\tname",
        b"it's",
        b"colon:name",
        b"caf\xc3\xa9",
    ]
    .iter()
    .map(|n| OsString::from_vec(n.to_vec()))
    .collect()
}

/// The shared tree: files of the sizes around block boundaries, hashsum's
/// read sizes (16 KiB, doubling) and its small-file limit (256 KiB, and
/// past it), plus the hard names, a directory, and the list of
/// names in a fixed order. Built once per test process.
fn tree() -> &'static (PathBuf, Vec<OsString>) {
    static TREE: OnceLock<(PathBuf, Vec<OsString>)> = OnceLock::new();
    TREE.get_or_init(|| {
        let dir = scratch("tree");
        let sizes = [
            0usize,
            1,
            55,
            56,
            63,
            64,
            111,
            112,
            127,
            128,
            1000,
            16384,
            16385,
            32769,
            262_144,
            262_145,
            300_000,
            (1 << 20) + 1,
        ];
        let mut names = Vec::new();
        for (i, &size) in sizes.iter().enumerate() {
            let name = OsString::from(format!("size-{size}"));
            fs::write(dir.join(&name), contents(size, i as u64)).unwrap();
            names.push(name);
        }
        for (i, name) in hard_names().into_iter().enumerate() {
            fs::write(dir.join(&name), contents(i * 37, 100 + i as u64)).unwrap();
            names.push(name);
        }
        fs::create_dir_all(dir.join("subdir")).unwrap();
        (dir, names)
    })
}

/// `--` then the tree's names, a directory and a missing file.
fn all_names() -> Vec<OsString> {
    let (_, names) = tree();
    let mut args = vec![OsString::from("--")];
    args.extend(names.iter().cloned());
    args.push("subdir".into());
    args.push("no such file".into());
    args
}

#[test]
fn every_output_mode_matches_gnu() {
    let (dir, _) = tree();
    let modes: [&[&str]; 8] =
        [&[], &["-b"], &["-t"], &["--tag"], &["-z"], &["--tag", "-z"], &["-b", "-z"], &["-t", "--tag"]];
    for tool in TOOLS {
        for mode in modes {
            let mut args = os(mode);
            args.extend(all_names());
            let gnu = same(tool, &args, dir, b"");
            assert_eq!(gnu.code, 1, "the directory and the missing file fail");
            // Ours with -j (GNU has none) gives the same bytes.
            for jobs in ["1", "3"] {
                let ours = ours_as_hashsum(tool, &["-j", jobs], &args, dir);
                assert!(ours == gnu, "`{tool} -j {jobs} {mode:?}` differs\n{}\n{}", gnu.show(), ours.show());
            }
        }
    }
}

#[test]
fn standard_input_matches_gnu() {
    let (dir, _) = tree();
    let data = contents(5000, 7);
    for tool in TOOLS {
        for args in [&[][..], &["-"], &["-", "-"], &["--tag", "-"], &["size-1", "-", "size-0"], &["-b"]] {
            same(tool, &os(args), dir, &data);
        }
    }
}

#[test]
fn usage_errors_match_gnu() {
    let (dir, _) = tree();
    let cases: [&[&str]; 13] = [
        &["--tag", "-t", "size-0"],
        &["-c", "--tag", "x"],
        &["-c", "-z", "x"],
        &["-c", "-b", "x"],
        &["-c", "-t", "x"],
        &["--quiet", "size-0"],
        &["--status", "size-0"],
        &["-w", "size-0"],
        &["--strict", "size-0"],
        &["--ignore-missing", "size-0"],
        // Abbreviated long options, as getopt_long takes them.
        &["--ta", "size-1"],
        &["--stat", "size-1"],
        &["-c", "--ignore", "--stat", "nothing"],
    ];
    for tool in ["sha256sum", "md5sum"] {
        for args in cases {
            same(tool, &os(args), dir, b"");
        }
        // getopt's words for the rest: unknown, ambiguous and abbreviated
        // options, arguments where none are taken, hashsum's own options
        // (not GNU's), and --help/--version against later mistakes.
        let getopt: [&[&str]; 22] = [
            &["--no-such-option"],
            &["-Q"],
            &["-bx", "size-0"],
            &["--foo=1"],
            &["--s"],
            &["--t"],
            &["--="],
            &["--check=yes"],
            &["--che=yes", "x"],
            &["--ignore=1"],
            &["--help=x"],
            &["-j", "2", "size-0"],
            &["-h"],
            &["-V"],
            &["-r", "subdir"],
            &["--progress", "size-0"],
            &["-a", "md5", "size-0"],
            &["-l", "3", "size-0"],
            &["--length=3", "size-0"],
            &["-x", "--help"],
            &["--version", "-x"],
            &["size-1", "--ta", "-", "--", "--tag"],
        ];
        for args in getopt {
            if args[0] == "--version" {
                // The version text is ours; the status and silence on
                // standard error are GNU's.
                let theirs = run(&gnu_tool(tool), tool, &os(args), dir, b"", "C");
                let ours = run(Path::new(BIN), tool, &os(args), dir, b"", "C");
                assert_eq!((ours.code, &ours.stderr), (0, &theirs.stderr), "{}", ours.show());
                continue;
            }
            let out = same(tool, &os(args), dir, b"");
            assert_eq!(out.code, 1, "{args:?}: {}", out.show());
        }
    }
    // POSIXLY_CORRECT: the first file name ends the options.
    for args in [&["size-1", "--tag"][..], &["-c", "nothing", "-w"], &["--tag", "size-0", "-b"]] {
        let theirs = run_env(&gnu_tool("sha256sum"), "sha256sum", &os(args), dir, ("POSIXLY_CORRECT", "1"));
        let ours = run_env(Path::new(BIN), "sha256sum", &os(args), dir, ("POSIXLY_CORRECT", "1"));
        assert!(ours == theirs, "POSIXLY_CORRECT {args:?}\n{}\n{}", theirs.show(), ours.show());
        assert_eq!(theirs.code, 1, "{}", theirs.show());
    }
}

/// [`run`] with one more environment variable and no input.
fn run_env(program: &Path, arg0: &str, args: &[OsString], dir: &Path, var: (&str, &str)) -> Output {
    let out = Command::new(program)
        .arg0(arg0)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C")
        .env(var.0, var.1)
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    Output { stdout: out.stdout, stderr: out.stderr, code: out.status.code().expect("exited") }
}

/// Our own options' bad values: a clear message, GNU's usage status (1).
#[test]
fn bad_hashsum_arguments_are_usage_errors() {
    let (dir, _) = tree();
    let cases: [(&[&str], &str); 7] = [
        (&["size-0"], "no algorithm given"),
        (&["-a", "sha257", "size-0"], "unknown algorithm 'sha257'"),
        (&["-a", "sha256", "-l", "16", "size-0"], "--length applies only to the extendable-output functions"),
        (&["-a", "shake128", "-l", "0", "size-0"], "invalid length 0"),
        (&["-a", "shake128", "-l", "lots", "size-0"], "invalid value 'lots'"),
        (&["-a", "md5", "-j", "0", "size-0"], "invalid value '0'"),
        (&["-a", "md5", "-r", "-c", "x"], "the --recursive option is meaningless when verifying checksums"),
    ];
    for (args, message) in cases {
        let out = run(Path::new(BIN), "hashsum", &os(args), dir, b"", "C");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.code, 1, "{args:?}: {}", out.show());
        assert!(err.starts_with("hashsum: ") && err.contains(message), "{args:?}: {}", out.show());
        assert!(err.ends_with("Try 'hashsum --help' for more information.\n"), "{}", out.show());
        assert!(out.stdout.is_empty());
    }
    // GNU tools have no -a: invoked as sha256sum, neither have we.
    let out = run(Path::new(BIN), "sha256sum", &os(&["-a", "md5", "size-0"]), dir, b"", "C");
    assert_eq!(out.code, 1, "{}", out.show());
}

/// Each tool's `--check` accepts the other's checksum files, in both layouts,
/// binary and text marks, escaped names included.
#[test]
fn check_files_are_interchangeable() {
    let (dir, names) = tree();
    for tool in TOOLS {
        for mode in [&[][..], &["--tag"], &["-b"]] {
            let mut args = os(mode);
            args.push("--".into());
            args.extend(names.iter().cloned());
            let list = same(tool, &args, dir, b"").stdout;
            let list_file = format!("{tool}-list{}", mode.len());
            fs::write(dir.join(&list_file), &list).unwrap();
            for check in [&["-c"][..], &["-c", "--quiet"], &["-c", "--status"], &["-c", "-w", "--strict"]] {
                let mut args = os(check);
                args.push(list_file.clone().into());
                let out = same(tool, &args, dir, b"");
                assert_eq!(out.code, 0, "{}", out.show());
            }
            // From standard input too.
            let out = same(tool, &os(&["-c"]), dir, &list);
            assert_eq!(out.code, 0, "{}", out.show());
        }
    }
}

/// A checksum file with everything that can go wrong, under every
/// reporting option.
#[test]
fn broken_check_files_match_gnu() {
    let (dir, _) = tree();
    let dir = dir.as_path();
    for tool in ["md5sum", "sha256sum", "sha512sum"] {
        let good = same(tool, &os(&["size-0", "size-1", "size-55", "--", "-leading-dash"]), dir, b"").stdout;
        let tagged = same(tool, &os(&["--tag", "size-56", "new\nline", "back\\slash"]), dir, b"").stdout;
        let escaped = same(tool, &os(&["carriage\rreturn", "space name"]), dir, b"").stdout;
        let lines: Vec<&[u8]> = good.split_inclusive(|&b| b == b'\n').collect();
        let hex_len = lines[0].iter().position(|&b| b == b' ').unwrap();
        let zero_hex = "0".repeat(hex_len);
        let upper = String::from_utf8(lines[1].to_vec()).unwrap().to_uppercase().replace("SIZE-1", "size-1");

        let mut mixed = Vec::new();
        mixed.extend_from_slice(lines[0]);
        mixed.extend_from_slice(b"# a comment line\n\n");
        mixed.extend_from_slice(upper.as_bytes());
        mixed.extend_from_slice(format!("{zero_hex}  size-64\n").as_bytes()); // corrupted
        mixed.extend_from_slice(format!("{zero_hex}  missing file\n").as_bytes());
        mixed.extend_from_slice(format!("{zero_hex}  subdir\n").as_bytes());
        mixed.extend_from_slice(b"not a checksum line\n");
        mixed.extend_from_slice(format!("{zero_hex}size-0\n").as_bytes()); // no blank
        mixed.extend_from_slice(format!("{}  size-0\n", &zero_hex[1..]).as_bytes()); // short
        mixed.extend_from_slice(format!("\\{zero_hex}  bad\\escape\n").as_bytes());
        mixed.extend_from_slice(&tagged);
        // CRLF line ends.
        for line in escaped.split_inclusive(|&b| b == b'\n') {
            mixed.extend_from_slice(&line[..line.len() - 1]);
            mixed.extend_from_slice(b"\r\n");
        }
        mixed.extend_from_slice(lines[2]);
        mixed.extend_from_slice(lines[3].strip_suffix(b"\n").unwrap()); // no final newline
        fs::write(dir.join("mixed.sums"), &mixed).unwrap();

        // Only missing files, for --ignore-missing's "no file was verified".
        fs::write(dir.join("missing.sums"), format!("{zero_hex}  gone\n{zero_hex}  gone too\n")).unwrap();
        // Nothing well formed at all.
        fs::write(dir.join("garbage.sums"), "hello\nworld\n").unwrap();
        // The "BSD reversed" layout (one blank), alone and mixed.
        let reversed: Vec<u8> = lines[..3]
            .iter()
            .flat_map(|l| {
                let mut l = l.to_vec();
                l.remove(hex_len);
                l
            })
            .collect();
        fs::write(dir.join("reversed.sums"), &reversed).unwrap();
        let mut reversed_mixed = reversed.clone();
        reversed_mixed.extend_from_slice(lines[0]);
        fs::write(dir.join("reversed-mixed.sums"), &reversed_mixed).unwrap();

        let option_sets: [&[&str]; 10] = [
            &[],
            &["--quiet"],
            &["--status"],
            &["-w"],
            &["--strict"],
            &["-w", "--strict"],
            &["--ignore-missing"],
            &["--ignore-missing", "--quiet"],
            &["--status", "-w"],
            &["-w", "--quiet"],
        ];
        let files: [&[&str]; 7] = [
            &["mixed.sums"],
            &["missing.sums"],
            &["garbage.sums"],
            &["reversed.sums"],
            &["reversed-mixed.sums"],
            &["no-such.sums", "garbage.sums"],
            &["subdir"],
        ];
        for options in option_sets {
            for names in files {
                let mut args = os(&["-c"]);
                args.extend(os(options));
                args.extend(os(names));
                let out = same(tool, &args, dir, b"");
                if names == ["mixed.sums"] {
                    assert_eq!(out.code, 1, "mixed.sums fails: {}", out.show());
                }
            }
            // The check file on standard input.
            let mut args = os(&["-c"]);
            args.extend(os(options));
            same(tool, &args, dir, &mixed);
        }
    }
}

/// Diagnostics quote names as GNU does, in the C locale and in UTF-8.
#[test]
fn quoting_of_names_matches_gnu() {
    let (dir, _) = tree();
    let mut args: Vec<OsString> = [
        &b"missing plain"[..],
        b"",
        b"a'b",
        b"a'b c",
        b"a\"b",
        b"#hash",
        b"x#hash",
        b"~tilde",
        b"{",
        b"a{b}",
        b"ctl\x01x",
        b"del\x7f",
        b"bell\x07tab\t",
        b"caf\xc3\xa9 missing",
        b"bad\xc3utf8",
        b"back\\slash missing",
        b"q?mark",
        b"eq=sign",
        b"a$b",
        b"@at+plus,comma%",
        b"\xe2\x80\x8bzero-width",
        b"\xc2\x85nel",
    ]
    .iter()
    .map(|n| OsString::from_vec(n.to_vec()))
    .collect();
    args.insert(0, "--".into());
    for locale in ["C", "C.UTF-8"] {
        same_in("sha256sum", &args, dir, b"", locale);
    }
}

/// `-a ALG` gives the library's digest for every algorithm (SHA-3 and the
/// XOFs have no GNU tool to compare with here), and checks its own lists.
#[test]
fn every_algorithm_matches_the_library_and_checks_itself() {
    use sha3::{Keccak256, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
    let (dir, names) = tree();
    type Digest = fn(&[u8]) -> Vec<u8>;
    let algos: [(&str, &[&str], Digest); 13] = [
        ("sha512-224", &[], |d| sha512::Sha512_224::digest(d).to_vec()),
        ("sha512-256", &[], |d| sha512::Sha512_256::digest(d).to_vec()),
        ("sha3-224", &[], |d| Sha3_224::digest(d).to_vec()),
        ("sha3-256", &[], |d| Sha3_256::digest(d).to_vec()),
        ("sha3-384", &[], |d| Sha3_384::digest(d).to_vec()),
        ("sha3-512", &[], |d| Sha3_512::digest(d).to_vec()),
        ("keccak256", &[], |d| Keccak256::digest(d).to_vec()),
        ("shake128", &["-l", "100"], |d| {
            let mut out = vec![0; 100];
            Shake128::digest_xof(d, &mut out);
            out
        }),
        ("shake256", &[], |d| {
            let mut out = vec![0; 64];
            Shake256::digest_xof(d, &mut out);
            out
        }),
        ("kt128", &[], |d| {
            let mut out = vec![0; 32];
            sha3::KangarooTwelve::digest_xof(b"", d, &mut out);
            out
        }),
        ("kt256", &["-l", "20"], |d| {
            let mut out = vec![0; 20];
            sha3::Kt256::digest_xof(b"", d, &mut out);
            out
        }),
        ("turboshake128", &["-l", "50"], |d| {
            let mut out = vec![0; 50];
            sha3::TurboShake128::digest_xof(0x1f, d, &mut out);
            out
        }),
        ("turboshake256", &[], |d| {
            let mut out = vec![0; 64];
            sha3::TurboShake256::digest_xof(0x1f, d, &mut out);
            out
        }),
    ];
    let plain: Vec<&OsString> = names.iter().filter(|n| !n.as_bytes().contains(&b'\n')).collect();
    for (alg, extra, digest) in algos {
        let mut args = os(&["-a", alg]);
        args.extend(os(extra));
        args.push("--".into());
        args.extend(plain.iter().map(|n| (*n).clone()));
        let out = run(Path::new(BIN), "hashsum", &args, dir, b"", "C");
        assert_eq!(out.code, 0, "{}", out.show());
        let mut expected = Vec::new();
        for name in &plain {
            let data = fs::read(dir.join(name)).unwrap();
            let hex: String = digest(&data).iter().map(|b| format!("{b:02x}")).collect();
            let escape = name.as_bytes().iter().any(|&b| b == b'\\' || b == b'\r');
            if escape {
                expected.push(b'\\');
            }
            expected.extend_from_slice(hex.as_bytes());
            expected.extend_from_slice(b"  ");
            for &b in name.as_bytes() {
                match b {
                    b'\\' if escape => expected.extend_from_slice(b"\\\\"),
                    b'\r' => expected.extend_from_slice(b"\\r"),
                    _ => expected.push(b),
                }
            }
            expected.push(b'\n');
        }
        assert!(out.stdout == expected, "{alg}:\n{}\nexpected\n{}", out.show(), String::from_utf8_lossy(&expected));

        // Its own lists check, untagged and tagged (an XOF without -l takes
        // the length from each line).
        fs::write(dir.join(format!("{alg}.sums")), &out.stdout).unwrap();
        let mut tag_args = args.clone();
        tag_args.insert(2, "--tag".into());
        let tagged = run(Path::new(BIN), "hashsum", &tag_args, dir, b"", "C");
        fs::write(dir.join(format!("{alg}.tagged")), &tagged.stdout).unwrap();
        for list in [format!("{alg}.sums"), format!("{alg}.tagged")] {
            let out = run(Path::new(BIN), "hashsum", &os(&["-a", alg, "-c", "--strict", &list]), dir, b"", "C");
            assert_eq!(out.code, 0, "{list}: {}", out.show());
            assert_eq!(out.stdout.split(|&b| b == b'\n').filter(|l| l.ends_with(b": OK")).count(), plain.len());
        }
    }
}

/// `-r` walks directories depth first, sorted by name, with the same lines
/// GNU prints for the same files listed explicitly; many files on several
/// threads keep command-line order.
#[test]
fn recursive_and_parallel_order_match_gnu() {
    let dir = scratch("recursive");
    let mut expected_order = Vec::new();
    for (d, sub) in [("a", ""), ("a-c", ""), ("a", "b"), ("z", "")] {
        let path = if sub.is_empty() { dir.join(d) } else { dir.join(d).join(sub) };
        fs::create_dir_all(&path).unwrap();
    }
    // Files: sorted per directory, a subdirectory's files at its place.
    let files = ["a/b/x", "a/b/y", "a/m", "a-c/1", "a-c/2", "top", "z/big"];
    for (i, f) in files.iter().enumerate() {
        let len = if f.ends_with("big") { 700_000 } else { i * 1000 };
        fs::write(dir.join(f), contents(len, i as u64)).unwrap();
        expected_order.push(OsString::from(format!("tree/{f}")));
    }
    let tree_dir = dir.join("tree");
    fs::create_dir_all(&tree_dir).unwrap();
    for d in ["a", "a-c", "z", "top"] {
        fs::rename(dir.join(d), tree_dir.join(d)).unwrap();
    }
    let theirs = run(&gnu_tool("sha256sum"), "sha256sum", &expected_order, &dir, b"", "C");
    for jobs in ["1", "2", "5"] {
        let ours = ours_as_hashsum("sha256sum", &["-r", "-j", jobs], &os(&["tree"]), &dir);
        assert!(ours == theirs, "-r -j {jobs}\n{}\n{}", theirs.show(), ours.show());
    }

    // 500 small files and a few large ones, in a shuffled command-line order.
    let many = scratch("many");
    let mut names = Vec::new();
    for i in 0..500usize {
        let len = if i % 97 == 0 { 400_000 + i } else { (i * 131) % 17000 };
        let name = format!("f{:03}", (i * 7919) % 500);
        fs::write(many.join(&name), contents(len, i as u64)).unwrap();
        names.push(OsString::from(name));
    }
    for tool in ["md5sum", "sha256sum"] {
        let theirs = run(&gnu_tool(tool), tool, &names, &many, b"", "C");
        for jobs in ["1", "2", "7"] {
            let ours = ours_as_hashsum(tool, &["-j", jobs, "--progress"], &names, &many);
            assert!(ours == theirs, "{tool} -j {jobs} differs");
        }
    }
}

/// A full disk on standard output: GNU's message and status.
#[test]
fn write_errors_match_gnu() {
    let (dir, names) = tree();
    for tool in ["md5sum", "sha256sum"] {
        for files in [&names[..1], &names[..]] {
            let mut cmd_args = vec![OsString::from("--")];
            cmd_args.extend(files.iter().cloned());
            let full = || fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
            let outcome = |program: &Path| {
                let out = Command::new(program)
                    .arg0(tool)
                    .args(&cmd_args)
                    .current_dir(dir)
                    .stdout(full())
                    .stderr(Stdio::piped())
                    .output()
                    .expect("runs");
                (out.status.code(), out.stderr)
            };
            assert_eq!(outcome(Path::new(BIN)), outcome(&gnu_tool(tool)), "{tool}, {} files", files.len());
        }
    }
}

/// Through a real link named like the GNU tool, with no `-a`.
#[test]
fn behaves_as_gnu_tool_through_a_link() {
    let (dir, names) = tree();
    let links = scratch("links");
    for tool in TOOLS {
        let link = links.join(tool);
        std::os::unix::fs::symlink(BIN, &link).unwrap();
        let mut args = vec![OsString::from("--")];
        args.extend(names.iter().cloned());
        let theirs = run(&gnu_tool(tool), tool, &args, dir, b"", "C");
        let ours = run(&link, link.to_str().unwrap(), &args, dir, b"", "C");
        assert!(ours.stdout == theirs.stdout && ours.code == 0, "{tool} via a link\n{}", ours.show());
        // Messages carry the name it was invoked by, as GNU's do.
        let ours = run(&link, link.to_str().unwrap(), &os(&["missing"]), dir, b"", "C");
        let expected = format!("{}: missing: No such file or directory\n", link.display());
        assert_eq!(String::from_utf8_lossy(&ours.stderr), expected);
    }
}

/// Checksum lines assembled at random from the pieces GNU's parser looks
/// at (blanks, tabs, backslashes, tags, parentheses, `=`, `*`, CR, NUL, good
/// and bad digests, existing and missing names): both tools must agree on
/// every file of them, line by line.
#[test]
fn random_check_lines_match_gnu() {
    let (dir, _) = tree();
    let dir = dir.as_path();
    let tool = "sha1sum";
    let listing = same(tool, &os(&["size-0", "size-1", "space name", "back\\slash"]), dir, b"").stdout;
    let hexes: Vec<&[u8]> = listing.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| &l[..40]).collect();
    let pieces: &[&[u8]] = &[
        b" ",
        b"  ",
        b"\t",
        b"\\",
        b"*",
        b"SHA1",
        b"SHA1 ",
        b"(",
        b")",
        b" = ",
        b"=",
        b"\r",
        b"\0",
        b"size-0",
        b"size-1",
        b"space name",
        b"back\\\\slash",
        b"back\\slash",
        b"\\n",
        b"missing",
        b"-",
        b"MD5 ",
        b"#",
        b"x",
        b"0123456789abcdef0123456789ABCDEF01234567",
    ];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    for file in 0..100 {
        let mut text = Vec::new();
        for _ in 0..4 {
            let shape = next(4);
            let mut line: Vec<u8> = Vec::new();
            // Mostly near-valid lines in one of the three layouts, with
            // random pieces spliced in.
            let hex = hexes[next(hexes.len())];
            let name = pieces[13 + next(8)];
            match shape {
                0 => line.extend_from_slice(&[hex, b"  ", name].concat()),
                1 => line.extend_from_slice(&[b"SHA1 (", name, b") = ", hex].concat()),
                2 => line.extend_from_slice(&[hex, b" ", name].concat()),
                _ => {}
            }
            for _ in 0..next(3) + usize::from(shape == 3) * 4 {
                let at = next(line.len() + 1);
                let piece = pieces[next(pieces.len())];
                line.splice(at..at, piece.iter().copied());
            }
            line.push(b'\n');
            text.extend_from_slice(&line);
        }
        let name = format!("random-{file}.sums");
        fs::write(dir.join(&name), &text).unwrap();
        same(tool, &os(&["-c", "-w", &name]), dir, b"stdin data");
    }
}
