//! `hashsum`: md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum
//! and the SHA-3 family in one GNU-compatible tool that hashes many files
//! at once.
//!
//! Output, `--check` and exit statuses follow GNU coreutils 9 byte for byte
//! (the tests compare with the installed tools). Invoked through a link
//! named `sha256sum` (or another GNU tool's name) it behaves as that tool.
//! Beyond GNU: `-a ALG`, `-l/--length` for the XOFs, `-j/--jobs`,
//! `-r/--recursive` and `--progress`.
//!
//! On Unix the entry point is C's `main` (in `sys`), not Rust's: see there.

#![cfg_attr(all(unix, not(test)), no_main)]

#[cfg(unix)]
mod algo;
#[cfg(unix)]
mod check;
#[cfg(unix)]
mod engine;
#[cfg(unix)]
mod getopt;
#[cfg(unix)]
mod quote;
#[cfg(unix)]
mod sys;
#[cfg(unix)]
mod walk;

#[cfg(not(unix))]
fn main() -> std::process::ExitCode {
    eprintln!("hashsum: only Unix-like systems are supported (file names are bytes)");
    std::process::ExitCode::FAILURE
}

/// Unit tests are built with the test harness's own `main`; this one only
/// keeps the program's code reachable there.
#[cfg(all(unix, test))]
fn main() {
    std::process::exit(cli::main(std::env::args_os().collect()));
}

#[cfg(unix)]
pub(crate) use cli::{Options, Out, os_message};

#[cfg(unix)]
mod cli {
    use std::ffi::{OsStr, OsString};
    use std::fs;
    use std::io::{self, BufWriter, Write};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    use clap::{Arg, ArgAction, ArgMatches, Command};

    use crate::algo::{Algo, COLLISION, Info, MAX_XOF_LEN, Size};
    use crate::check::Checker;
    use crate::engine::{self, Source};
    use crate::getopt::Gnu;
    use crate::quote::{problematic, push_name, quotef};

    /// Everything the command line decided.
    pub(crate) struct Options {
        pub(crate) algo: Algo,
        pub(crate) info: &'static Info,
        /// Output length in bytes.
        pub(crate) len: usize,
        /// False only for an XOF without `-l` in `--check` mode: each
        /// line's digest length is then taken as given.
        pub(crate) len_fixed: bool,
        pub(crate) binary: bool,
        pub(crate) tag: bool,
        pub(crate) zero: bool,
        pub(crate) check: bool,
        pub(crate) ignore_missing: bool,
        pub(crate) status: bool,
        pub(crate) quiet: bool,
        pub(crate) warn: bool,
        pub(crate) strict: bool,
        pub(crate) jobs: usize,
        pub(crate) recursive: bool,
        pub(crate) progress: bool,
        pub(crate) files: Vec<OsString>,
    }

    /// Standard output, where a write that fails says so: the standard
    /// library's `Stdout` treats `EBADF` as success (a closed descriptor is
    /// a sink), which would report output that went nowhere as written.
    enum Sink {
        /// A duplicate of descriptor 1 (not known to be open for writing:
        /// a write fails with `EBADF` if it is not).
        Fd(fs::File),
        /// Descriptor 1 is not open (`EBADF`): every write fails with this
        /// error.
        Closed(io::Error),
        /// The standard library's handle: descriptor 1 is open for writing
        /// (so no `EBADF` is swallowed), or could not be duplicated (no
        /// descriptor left).
        Std(io::Stdout),
    }

    impl Sink {
        fn open() -> Self {
            use std::os::fd::AsFd;
            if crate::sys::stdout_closed() {
                return Sink::Closed(io::Error::from_raw_os_error(EBADF));
            }
            // Known to be open for writing: no duplicate, which would cost
            // a descriptor (GNU's tools spend none; under a low `ulimit -n`
            // a file would wait or fail for it).
            if crate::sys::stdout_writable() {
                return Sink::Std(io::stdout());
            }
            match io::stdout().as_fd().try_clone_to_owned() {
                Ok(fd) => Sink::Fd(fs::File::from(fd)),
                Err(e) if e.raw_os_error() == Some(EBADF) => Sink::Closed(e),
                Err(_) => Sink::Std(io::stdout()),
            }
        }

        fn is_terminal(&self) -> bool {
            use std::io::IsTerminal;
            match self {
                Sink::Fd(f) => f.is_terminal(),
                Sink::Closed(_) => false,
                Sink::Std(s) => s.is_terminal(),
            }
        }
    }

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            match self {
                Sink::Fd(f) => f.write(buf),
                Sink::Closed(e) => Err(io::Error::from_raw_os_error(e.raw_os_error().unwrap_or(EBADF))),
                Sink::Std(s) => s.write(buf),
            }
        }

        fn flush(&mut self) -> io::Result<()> {
            match self {
                Sink::Fd(f) => f.flush(),
                Sink::Closed(_) => Ok(()),
                Sink::Std(s) => s.flush(),
            }
        }
    }

    use crate::sys::EBADF;

    /// Standard output (buffered; flushed per line on a terminal) and
    /// diagnostics prefixed with the program name as invoked (`argv[0]`, as
    /// GNU's `error()` writes it).
    pub(crate) struct Out {
        prog: Vec<u8>,
        stdout: BufWriter<Sink>,
        /// Standard output is a terminal: each line is flushed as it is done.
        line_flush: bool,
        /// The first failed write to standard output; later output is
        /// dropped (GNU goes on checking and reporting on standard error).
        write_error: Option<io::Error>,
    }

    impl Out {
        fn new(prog: Vec<u8>) -> Self {
            let sink = Sink::open();
            let line_flush = sink.is_terminal();
            Out { prog, stdout: BufWriter::with_capacity(4096, sink), line_flush, write_error: None }
        }

        /// Standard output is a terminal (lines are shown as they are done).
        pub(crate) fn is_terminal(&self) -> bool {
            self.line_flush
        }

        fn flush_stdout(&mut self) {
            if self.write_error.is_none()
                && let Err(e) = self.stdout.flush()
            {
                self.write_error = Some(e);
            }
        }

        /// Write a diagnostic line; standard output is flushed first, so the
        /// two streams interleave in order on a terminal or a shared pipe.
        pub(crate) fn error(&mut self, parts: &[&[u8]]) {
            self.flush_stdout();
            engine::clear_progress();
            let mut line = self.prog.clone();
            line.extend_from_slice(b": ");
            for part in parts {
                line.extend_from_slice(part);
            }
            line.push(b'\n');
            let _ = io::stderr().write_all(&line);
        }

        /// Write to standard output. After a failed write the rest is
        /// dropped; the failure is reported at the end, as GNU's
        /// `close_stdout` does.
        pub(crate) fn write(&mut self, bytes: &[u8]) {
            if self.write_error.is_some() {
                return;
            }
            if self.line_flush {
                // The same terminal as the progress line, most likely.
                engine::clear_progress();
            }
            if let Err(e) = self.stdout.write_all(bytes) {
                self.write_error = Some(e);
            } else if self.line_flush {
                self.flush_stdout();
            }
        }

        /// Flush standard output; report a write error as GNU coreutils 9.1
        /// does: with its cause when standard output is closed ("write
        /// error: Bad file descriptor", from its final `fclose`), without
        /// one for the rest (a full disk, a pipe whose reader went away
        /// under an ignored SIGPIPE, a descriptor open for reading only:
        /// "write error"). False when output was lost.
        fn finish(mut self) -> bool {
            self.flush_stdout();
            engine::clear_progress();
            match self.write_error.take() {
                None => true,
                Some(_) => {
                    let cause = if crate::sys::stdout_closed() { ": Bad file descriptor" } else { "" };
                    self.prog.extend_from_slice(format!(": write error{cause}\n").as_bytes());
                    let _ = io::stderr().write_all(&self.prog);
                    false
                }
            }
        }
    }

    /// An I/O error as `strerror` words it ("No such file or directory"),
    /// without the "(os error 2)" Rust appends.
    pub(crate) fn os_message(e: &io::Error) -> String {
        let text = e.to_string();
        match (e.raw_os_error(), text.rfind(" (os error ")) {
            (Some(_), Some(at)) => text[..at].to_string(),
            _ => text,
        }
    }

    fn flag(id: &'static str, help: &'static str) -> Arg {
        Arg::new(id).long(id).action(ArgAction::SetTrue).help(help)
    }

    fn command(name: String, gnu: Option<Algo>) -> Command {
        let what = match gnu {
            Some(Algo::Sha1Dc) => {
                "Print or check SHA1 checksums, detecting SHA-1 collision attacks (a file with one fails).".to_string()
            }
            Some(a) => format!("Print or check {} checksums.", a.info().tag),
            None => "Print or check checksums (MD5, SHA-1, SHA-2, SHA-3, SHAKE), many files at once.".to_string(),
        };
        // clap's `string` feature: the name is known only at run time (a leaked
        // `&'static str` would be reported by LeakSanitizer at exit).
        let mut cmd = Command::new(name)
            .version(env!("CARGO_PKG_VERSION"))
            .about(what)
            .after_help(
                "With no FILE, or when FILE is -, read standard input.\n\
                 Invoked as md5sum, sha1sum, sha224sum, sha256sum, sha384sum or sha512sum \
                 (a link), behaves as that GNU tool; as sha1dcsum, as sha1sum with \
                 collision detection (-a sha1dc).\n\
                 With -a sha1dc, a file that contains a SHA-1 collision attack is reported on \
                 standard error and fails (exit status 1; its line shows the safe hash, as the \
                 reference sha1dcsum and git compute it); --check fails it.",
            )
            .args_override_self(true)
            .infer_long_args(true)
            .arg(
                Arg::new("files")
                    .value_name("FILE")
                    .num_args(0..)
                    .action(ArgAction::Append)
                    .value_parser(clap::value_parser!(OsString)),
            );
        if gnu.is_none() {
            cmd = cmd
                .arg(
                    Arg::new("algorithm")
                        .short('a')
                        .long("algorithm")
                        .value_name("ALG")
                        .help(format!("the algorithm: {}", Algo::names())),
                )
                .arg(
                    Arg::new("length")
                        .short('l')
                        .long("length")
                        .value_name("BYTES")
                        .value_parser(clap::value_parser!(u64))
                        .help("output length of the XOFs in bytes: shake128, kt128, turboshake128 (default 32), shake256, kt256, turboshake256 (default 64)"),
                );
        }
        if gnu.is_some() {
            // Only rendered (getopt parses GNU mode): GNU's long-only
            // --help and --version, not clap's -h and -V.
            cmd = cmd
                .disable_help_flag(true)
                .disable_version_flag(true)
                .arg(Arg::new("help").long("help").action(ArgAction::Help).help("display this help and exit"))
                .arg(
                    Arg::new("version")
                        .long("version")
                        .action(ArgAction::Version)
                        .help("output version information and exit"),
                );
        }
        cmd.arg(flag("binary", "read in binary mode (marks lines with '*')").short('b'))
            .arg(flag("check", "read checksums from the FILEs and check them").short('c'))
            .arg(flag("tag", "create a BSD-style checksum"))
            .arg(flag("text", "read in text mode (default)").short('t'))
            .arg(flag("zero", "end each output line with NUL, not newline, and disable file name escaping").short('z'))
            .arg(flag("ignore-missing", "don't fail or report status for missing files (with --check)"))
            .arg(flag("quiet", "don't print OK for each successfully verified file (with --check)"))
            .arg(flag("status", "don't output anything, status code shows success (with --check)"))
            .arg(flag("strict", "exit non-zero for improperly formatted checksum lines (with --check)"))
            .arg(flag("warn", "warn about improperly formatted checksum lines (with --check)").short('w'))
            .args(
                gnu.is_none()
                    .then(|| {
                        [
                            Arg::new("jobs")
                                .short('j')
                                .long("jobs")
                                .value_name("N")
                                .value_parser(clap::value_parser!(u64).range(1..=4096))
                                .help("read and hash on N threads (default: the number of CPUs)"),
                            flag(
                                "recursive",
                                "hash the regular files under directories, sorted by name (FIFOs, sockets and devices \
                             found there are named and skipped)",
                            )
                            .short('r'),
                            flag("progress", "show progress on standard error when it is a terminal"),
                        ]
                    })
                    .into_iter()
                    .flatten(),
            )
    }

    /// The command line, parsed by clap (`hashsum`) or as GNU's getopt does
    /// (a GNU tool's name).
    struct Parsed {
        /// The flags given (their long names), in command-line order.
        flags: Vec<&'static str>,
        algorithm: Option<String>,
        length: Option<u64>,
        jobs: Option<u64>,
        files: Vec<OsString>,
    }

    /// `hashsum`'s flags.
    const FLAGS: [&str; 12] = [
        "binary",
        "check",
        "tag",
        "text",
        "zero",
        "ignore-missing",
        "quiet",
        "status",
        "strict",
        "warn",
        "recursive",
        "progress",
    ];

    impl Parsed {
        fn from_clap(m: &ArgMatches) -> Self {
            let mut at: Vec<(usize, &'static str)> = Vec::new();
            for id in FLAGS {
                if m.try_get_one::<bool>(id).ok().flatten() == Some(&true) {
                    at.extend(m.indices_of(id).into_iter().flatten().map(|i| (i, id)));
                }
            }
            at.sort();
            Parsed {
                flags: at.into_iter().map(|(_, id)| id).collect(),
                algorithm: m.get_one::<String>("algorithm").cloned(),
                length: m.get_one::<u64>("length").copied(),
                jobs: m.try_get_one::<u64>("jobs").ok().flatten().copied(),
                files: m.get_many::<OsString>("files").map(|f| f.cloned().collect()).unwrap_or_default(),
            }
        }

        fn get_flag(&self, id: &str) -> bool {
            self.flags.contains(&id)
        }
    }

    /// The last position on the command line of flag `id`, if given.
    fn last(m: &Parsed, id: &str) -> Option<usize> {
        m.flags.iter().rposition(|&f| f == id)
    }

    /// A usage error: GNU prints the message, then a pointer to `--help`,
    /// and exits with status 1.
    fn usage_error(prog: &[u8], message: &str) -> i32 {
        usage_error_bytes(prog, message.as_bytes())
    }

    fn usage_error_bytes(prog: &[u8], message: &[u8]) -> i32 {
        let mut text = prog.to_vec();
        text.extend_from_slice(b": ");
        text.extend_from_slice(message);
        text.extend_from_slice(b"\nTry '");
        text.extend_from_slice(prog);
        text.extend_from_slice(b" --help' for more information.\n");
        let _ = io::stderr().write_all(&text);
        1
    }

    /// The program: `args` is the command line; returns the exit status.
    pub(crate) fn main(args: Vec<OsString>) -> i32 {
        let prog = args.first().map(|a| a.as_bytes().to_vec()).unwrap_or_else(|| b"hashsum".to_vec());
        let base = Path::new(OsStr::from_bytes(&prog))
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "hashsum".to_string());
        let gnu = Algo::by_gnu_tool(&base);
        // Help and version go through `Out`: a lost text is a write error.
        let print = |prog: Vec<u8>, text: String| {
            let mut out = Out::new(prog);
            out.write(text.as_bytes());
            if out.finish() { 0 } else { 1 }
        };
        let parsed = if gnu.is_some() {
            let posixly_correct = std::env::var_os("POSIXLY_CORRECT").is_some();
            match crate::getopt::parse(&args, posixly_correct) {
                Ok(Gnu::Run { flags, files }) => Parsed { flags, algorithm: None, length: None, jobs: None, files },
                Ok(Gnu::Help) => return print(prog, command(base, gnu).render_help().to_string()),
                Ok(Gnu::Version) => return print(prog, command(base, gnu).render_version()),
                Err(message) => return usage_error_bytes(&prog, &message),
            }
        } else {
            match command(base.clone(), gnu).try_get_matches_from(&args) {
                Ok(m) => Parsed::from_clap(&m),
                Err(e) => {
                    use clap::error::ErrorKind;
                    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                        return print(prog, e.render().to_string());
                    }
                    let text = e.to_string();
                    let first = text.lines().next().unwrap_or("invalid arguments");
                    return usage_error(&prog, first.strip_prefix("error: ").unwrap_or(first));
                }
            }
        };
        let opts = match options(&parsed, gnu) {
            Ok(o) => o,
            Err(message) => return usage_error(&prog, &message),
        };
        let mut out = Out::new(prog);
        let ok = if opts.check { check_mode(&opts, &mut out) } else { hash_mode(&opts, &mut out) };
        // GNU closes standard input at exit once it was read: a descriptor
        // that was never open fails there, after everything else.
        let stdin_ok = !crate::sys::stdin_close_failed();
        if !stdin_ok {
            out.error(&[b"standard input: Bad file descriptor"]);
        }
        let written = out.finish();
        if ok && written && stdin_ok { 0 } else { 1 }
    }

    /// Turn the parsed arguments into [`Options`], with GNU's checks of
    /// option combinations in GNU's order.
    fn options(m: &Parsed, gnu: Option<Algo>) -> Result<Options, String> {
        let algo = match gnu {
            Some(a) => a,
            None => match &m.algorithm {
                Some(name) => Algo::by_name(name)
                    .ok_or_else(|| format!("unknown algorithm '{name}' (known: {})", Algo::names()))?,
                None => return Err(format!("no algorithm given: use -a ALG, with ALG one of {}", Algo::names())),
            },
        };
        let info = algo.info();
        let check = m.get_flag("check");
        let length = if gnu.is_none() { m.length } else { None };
        let (len, len_fixed) = match (info.size, length) {
            (Size::Fixed(n), None) => (n, true),
            (Size::Fixed(_), Some(_)) => {
                return Err(format!(
                    "--length applies only to the extendable-output functions (shake128, shake256, kt128, kt256, turboshake128, turboshake256), not {}",
                    info.name
                ));
            }
            (Size::Xof(n), None) => (n, !check),
            (Size::Xof(_), Some(l)) if l == 0 || l > MAX_XOF_LEN as u64 => {
                return Err(format!("invalid length {l}: give 1 to {MAX_XOF_LEN} bytes"));
            }
            (Size::Xof(_), Some(l)) => (l as usize, true),
        };

        // -b, -t and --tag set GNU's `binary` in command-line order
        // (--tag implies binary); -w, --quiet and --status cancel each other.
        let mode = [("binary", 1), ("text", 0), ("tag", 1)]
            .iter()
            .filter_map(|&(id, v)| last(m, id).map(|at| (at, v)))
            .max()
            .map(|(_, v)| v);
        let report = ["status", "warn", "quiet"].iter().filter_map(|&id| last(m, id).map(|at| (at, id))).max();
        let tag = m.get_flag("tag");
        let zero = m.get_flag("zero");
        let status = report.is_some_and(|(_, id)| id == "status");
        let warn = report.is_some_and(|(_, id)| id == "warn");
        let quiet = report.is_some_and(|(_, id)| id == "quiet");
        let ignore_missing = m.get_flag("ignore-missing");
        let strict = m.get_flag("strict");
        let recursive = m.get_flag("recursive");

        if tag && mode == Some(0) {
            return Err("--tag does not support --text mode".into());
        }
        if zero && check {
            return Err("the --zero option is not supported when verifying checksums".into());
        }
        if tag && check {
            return Err("the --tag option is meaningless when verifying checksums".into());
        }
        if mode.is_some() && check {
            return Err("the --binary and --text options are meaningless when verifying checksums".into());
        }
        let check_only = [
            (ignore_missing, "ignore-missing"),
            (status, "status"),
            (warn, "warn"),
            (quiet, "quiet"),
            (strict, "strict"),
        ];
        for (given, name) in check_only {
            if given && !check {
                return Err(format!("the --{name} option is meaningful only when verifying checksums"));
            }
        }
        if recursive && check {
            return Err("the --recursive option is meaningless when verifying checksums".into());
        }

        let jobs = match m.jobs {
            Some(n) => n as usize,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let mut files = m.files.clone();
        if files.is_empty() {
            files.push("-".into());
        }
        Ok(Options {
            algo,
            info,
            len,
            len_fixed,
            binary: mode == Some(1),
            tag,
            zero,
            check,
            ignore_missing,
            status,
            quiet,
            warn,
            strict,
            jobs,
            recursive,
            progress: m.get_flag("progress"),
            files,
        })
    }

    /// Hash the files and print one line each, in command-line order.
    fn hash_mode(opts: &Options, out: &mut Out) -> bool {
        let mut names: Vec<Vec<u8>> = Vec::new();
        let mut sources: Vec<Source> = Vec::new();
        for file in &opts.files {
            let bytes = file.as_bytes();
            if bytes == b"-" {
                names.push(bytes.to_vec());
                sources.push(Source::Stdin);
            } else if opts.recursive && fs::metadata(file).is_ok_and(|m| m.is_dir()) {
                crate::walk::walk(Path::new(file), bytes.to_vec(), &mut names, &mut sources);
            } else {
                names.push(bytes.to_vec());
                sources.push(Source::Path(PathBuf::from(file)));
            }
        }

        let mut ok = true;
        let mut line = Vec::with_capacity(512);
        let mut bar = opts.progress.then(|| engine::Bar::new(Some(sources.len())));
        let prompt = out.is_terminal();
        let result = engine::hash_all(opts.algo, opts.len, &sources, opts.jobs, prompt, bar.as_mut(), |i, result| {
            let name = &names[i];
            match result {
                Ok(hashed) => {
                    if hashed.collision {
                        // As the reference `sha1dcsum`, the line is
                        // printed (with the safe hash); the attack is a
                        // failure, reported first as a read error is.
                        ok = false;
                        out.error(&[&quotef(name), b": ", COLLISION.as_bytes()]);
                    }
                    line.clear();
                    format_line(&mut line, opts, name, hashed.digest);
                    out.write(&line);
                    Ok(())
                }
                Err(e) => {
                    match e.get_ref().and_then(|inner| inner.downcast_ref::<engine::Skipped>()) {
                        // Reported, not a failure: -r hashes regular files.
                        Some(skipped) => out.error(&[&quotef(name), b": ", skipped.to_string().as_bytes()]),
                        None => {
                            ok = false;
                            out.error(&[&quotef(name), b": ", os_message(&e).as_bytes()]);
                        }
                    }
                    Ok(())
                }
            }
        });
        debug_assert!(result.is_ok(), "emit never fails");
        ok
    }

    /// One output line, as GNU `output_file` writes it.
    fn format_line(line: &mut Vec<u8>, opts: &Options, name: &[u8], digest: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let escape = !opts.zero && problematic(name);
        if escape {
            line.push(b'\\');
        }
        if opts.tag {
            line.extend_from_slice(opts.info.tag.as_bytes());
            line.extend_from_slice(b" (");
            push_name(line, name, escape);
            line.extend_from_slice(b") = ");
        }
        for &b in digest {
            line.extend_from_slice(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        }
        if !opts.tag {
            line.extend_from_slice(if opts.binary { b" *" } else { b"  " });
            push_name(line, name, escape);
        }
        line.push(if opts.zero { 0 } else { b'\n' });
    }

    fn check_mode(opts: &Options, out: &mut Out) -> bool {
        let mut checker = Checker::new(opts);
        let mut ok = true;
        for file in &opts.files {
            ok &= checker.check_file(out, file);
        }
        ok
    }
}
