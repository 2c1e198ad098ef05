//! The command line of a GNU tool (`sha256sum`, `md5sum`, ...), parsed as
//! glibc's `getopt_long` parses it for coreutils 9: the same options and
//! no others, abbreviations of long options, clustered short options,
//! arguments permuted (options after file names apply) unless
//! `POSIXLY_CORRECT` is set, `--` ending the options, and getopt's words
//! for every mistake. `hashsum` itself keeps clap's richer parser.

use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;

/// The long options, in the order of coreutils 9.1's table (getopt lists
/// the candidates of an ambiguous abbreviation in this order), each with
/// the flag it sets; `help` and `version` act at once.
const LONG: [&str; 12] = [
    "check",
    "ignore-missing",
    "quiet",
    "status",
    "warn",
    "strict",
    "tag",
    "zero",
    "binary",
    "text",
    "help",
    "version",
];

/// The short options (`bctwz`) and the long option each stands for.
const SHORT: [(u8, &str); 5] = [(b'b', "binary"), (b'c', "check"), (b't', "text"), (b'w', "warn"), (b'z', "zero")];

/// A parsed GNU command line.
pub(crate) enum Gnu {
    /// The flags given, in command-line order (each a long option's name),
    /// and the file operands.
    Run { flags: Vec<&'static str>, files: Vec<OsString> },
    /// `--help` came before any mistake.
    Help,
    /// `--version` came before any mistake.
    Version,
}

/// Parse `args` (`args[0]` is the program's name). An error is getopt's
/// message, without the program name and without the `--help` pointer.
pub(crate) fn parse(args: &[OsString], posixly_correct: bool) -> Result<Gnu, Vec<u8>> {
    let mut flags = Vec::new();
    let mut files = Vec::new();
    let mut only_files = false;
    for arg in args.iter().skip(1) {
        let a = arg.as_bytes();
        if only_files || a == b"-" || !a.starts_with(b"-") {
            files.push(arg.clone());
            // POSIX: the first operand ends the options.
            only_files |= posixly_correct;
            continue;
        }
        if a == b"--" {
            only_files = true;
            continue;
        }
        if let Some(body) = a.strip_prefix(b"--") {
            let (name, value) = match body.iter().position(|&b| b == b'=') {
                Some(at) => (&body[..at], true),
                None => (body, false),
            };
            let found = match LONG.iter().find(|l| l.as_bytes() == name) {
                Some(exact) => *exact,
                None => {
                    let candidates: Vec<&str> =
                        LONG.iter().copied().filter(|l| l.as_bytes().starts_with(name)).collect();
                    match candidates[..] {
                        [] => return Err([&b"unrecognized option '"[..], a, b"'"].concat()),
                        [one] => one,
                        _ => {
                            let mut message = [&b"option '"[..], a, b"' is ambiguous; possibilities:"].concat();
                            for c in candidates {
                                message.extend_from_slice(format!(" '--{c}'").as_bytes());
                            }
                            return Err(message);
                        }
                    }
                }
            };
            if value {
                return Err(format!("option '--{found}' doesn't allow an argument").into_bytes());
            }
            match found {
                "help" => return Ok(Gnu::Help),
                "version" => return Ok(Gnu::Version),
                flag => flags.push(flag),
            }
            continue;
        }
        for &c in &a[1..] {
            match SHORT.iter().find(|(s, _)| *s == c) {
                Some((_, flag)) => flags.push(*flag),
                None => return Err([&b"invalid option -- '"[..], &[c], b"'"].concat()),
            }
        }
    }
    Ok(Gnu::Run { flags, files })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        std::iter::once("sha256sum").chain(list.iter().copied()).map(OsString::from).collect()
    }

    fn run(list: &[&str], posix: bool) -> (Vec<&'static str>, Vec<String>) {
        match parse(&args(list), posix) {
            Ok(Gnu::Run { flags, files }) => (flags, files.into_iter().map(|f| f.into_string().unwrap()).collect()),
            _ => panic!("{list:?} did not parse"),
        }
    }

    fn error(list: &[&str]) -> String {
        match parse(&args(list), false) {
            Err(e) => String::from_utf8(e).unwrap(),
            Ok(_) => panic!("{list:?} parsed"),
        }
    }

    #[test]
    fn permutes_unless_posixly_correct() {
        assert_eq!(
            run(&["f", "--tag", "-", "-bz"], false),
            (vec!["tag", "binary", "zero"], vec!["f".into(), "-".into()])
        );
        assert_eq!(run(&["-c", "f", "--tag"], true), (vec!["check"], vec!["f".into(), "--tag".into()]));
        assert_eq!(run(&["--", "-c", "--x"], false), (vec![], vec!["-c".into(), "--x".into()]));
    }

    #[test]
    fn abbreviations_and_mistakes() {
        assert_eq!(
            run(&["--ta", "--te", "--sta", "--stri", "--i"], false).0,
            ["tag", "text", "status", "strict", "ignore-missing"]
        );
        assert_eq!(error(&["--s"]), "option '--s' is ambiguous; possibilities: '--status' '--strict'");
        assert_eq!(error(&["--foo=1"]), "unrecognized option '--foo=1'");
        assert_eq!(error(&["--che=yes"]), "option '--check' doesn't allow an argument");
        assert_eq!(error(&["-bj"]), "invalid option -- 'j'");
        assert!(matches!(parse(&args(&["--he", "-x"]), false), Ok(Gnu::Help)));
        assert!(matches!(parse(&args(&["--v"]), false), Ok(Gnu::Version)));
    }
}
