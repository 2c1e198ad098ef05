//! `--check`: read checksum lines (GNU's two formats), hash the files they
//! name, and report as GNU coreutils 9 does (`digest.c`'s `digest_check`).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use crate::algo::COLLISION;
use crate::engine::{self, Source};
use crate::quote::{push_name, quotef, unescape_name};
use crate::{Options, Out, os_message};

/// How a checksum line is laid out; GNU refuses to mix the standard
/// `HASH  NAME` lines and the "BSD reversed" `HASH NAME` lines within one
/// process (a renamed file with a leading space could otherwise pass).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Unknown,
    Standard,
    Reversed,
}

/// The state `--check` keeps across checksum files.
pub(crate) struct Checker<'a> {
    opts: &'a Options,
    layout: Layout,
    /// `--progress`, across windows and checksum files.
    bar: Option<engine::Bar>,
}

/// One line of a checksum file.
enum Line {
    /// Not a checksum line for this algorithm (line number).
    Bad(u64),
    /// A file to hash and the hex digest it should have.
    Entry { hex: Vec<u8>, name: Vec<u8> },
}

fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl<'a> Checker<'a> {
    pub(crate) fn new(opts: &'a Options) -> Self {
        Checker { opts, layout: Layout::Unknown, bar: opts.progress.then(|| engine::Bar::new(None)) }
    }

    /// Whether `hex` is a digest of the right length: `2 * length`, or for
    /// an XOF without `-l`, an even length from [`XOF_MIN`] to [`XOF_MAX`]
    /// bytes (a shorter digest checks too little to pass unasked; a longer
    /// one would only cost memory).
    fn hex_ok(&self, hex: &[u8]) -> bool {
        let len_ok = match self.opts.len_fixed {
            true => hex.len() == 2 * self.opts.len,
            false => hex.len().is_multiple_of(2) && (2 * XOF_MIN..=2 * XOF_MAX).contains(&hex.len()),
        };
        len_ok && hex.iter().all(u8::is_ascii_hexdigit)
    }

    /// GNU `split_3`: the standard (`HASH  NAME`, `HASH *NAME`), BSD tagged
    /// (`TAG (NAME) = HASH`) and reversed (`HASH NAME`) layouts, each with
    /// an optional leading backslash announcing an escaped name.
    fn parse(&mut self, s: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
        let at = |i: usize| s.get(i).copied().unwrap_or(0);
        let mut i = 0;
        while is_white(at(i)) {
            i += 1;
        }
        let escaped = at(i) == b'\\';
        if escaped {
            i += 1;
        }
        let tag = self.opts.info.tag.as_bytes();
        if s[i..].starts_with(tag) {
            i += tag.len();
            if at(i) == b' ' {
                i += 1;
            }
            if at(i) != b'(' {
                return None;
            }
            return self.parse_tagged(&s[i + 1..], escaped);
        }
        // The digest's length: known, or for an XOF without `-l` the run
        // of hex digits.
        let hex_len = if self.opts.len_fixed {
            2 * self.opts.len
        } else {
            s[i..].iter().take_while(|b| b.is_ascii_hexdigit()).count()
        };
        let min_line = hex_len + 2;
        if s.len() - i < min_line + usize::from(at(i) == b'\\') {
            return None;
        }
        let hex = &s[i..i + hex_len];
        i += hex_len;
        if !is_white(at(i)) {
            return None;
        }
        i += 1;
        if !self.hex_ok(hex) {
            return None;
        }
        if s.len() - i == 1 || (at(i) != b' ' && at(i) != b'*') {
            if self.layout == Layout::Standard {
                return None;
            }
            self.layout = Layout::Reversed;
        } else if self.layout != Layout::Reversed {
            self.layout = Layout::Standard;
            i += 1;
        }
        let name = name_of(&s[i..], escaped)?;
        Some((hex.to_vec(), name))
    }

    /// GNU `bsd_split_3`, on what follows `TAG (`: the name runs to the last
    /// `)`, then ` = ` (blanks optional) and the digest to the end.
    fn parse_tagged(&self, s: &[u8], escaped: bool) -> Option<(Vec<u8>, Vec<u8>)> {
        let close = s.iter().rposition(|&b| b == b')')?;
        let name = name_of(&s[..close], escaped)?;
        let mut i = close + 1;
        while s.get(i).copied().is_some_and(is_white) {
            i += 1;
        }
        if s.get(i) != Some(&b'=') {
            return None;
        }
        i += 1;
        while s.get(i).copied().is_some_and(is_white) {
            i += 1;
        }
        let hex = &s[i..];
        // GNU compares up to a NUL byte, which ends the C string.
        let hex = &hex[..hex.iter().position(|&b| b == 0).unwrap_or(hex.len())];
        self.hex_ok(hex).then(|| (hex.to_vec(), name))
    }

    /// Check every line of one checksum file; true when all went well.
    ///
    /// The file is read as a stream, a window of lines at a time: up to
    /// [`WINDOW_LINES`] lines or [`WINDOW_BYTES`] bytes, and no more than
    /// the input has ready (a window ends when the reader's buffer runs dry,
    /// so lines arriving slowly are checked and reported as they come).
    /// Memory stays bounded whatever the input's size; a line longer than
    /// [`LINE_MAX`] counts as improperly formatted.
    pub(crate) fn check_file(&mut self, out: &mut Out, arg: &OsStr) -> bool {
        let opts = self.opts;
        let is_stdin = arg.as_bytes() == b"-";
        let display = if is_stdin { b"standard input".to_vec() } else { arg.as_bytes().to_vec() };
        let shown = quotef(&display);

        let input: Box<dyn Read + Send> = if is_stdin {
            match crate::sys::stdin() {
                Ok(r) => r,
                Err(_) => {
                    out.error(&[&shown, b": read error"]);
                    return false;
                }
            }
        } else {
            match File::open(arg) {
                Ok(f) => Box::new(f),
                Err(e) => {
                    out.error(&[&shown, b": ", os_message(&e).as_bytes()]);
                    return false;
                }
            }
        };
        let mut input = BufReader::with_capacity(64 << 10, input);

        let mut tally = Tally::default();
        let mut number = 0u64;
        let mut read_failed = false;
        let mut raw = Vec::new();
        let mut at_end = false;
        while !at_end && !read_failed {
            // Gather one window.
            let mut lines = Vec::new();
            let mut bytes = 0;
            while lines.len() < WINDOW_LINES && bytes < WINDOW_BYTES {
                let too_long = match read_line(&mut input, &mut raw) {
                    Ok(Some(too_long)) => too_long,
                    Ok(None) => {
                        at_end = true;
                        break;
                    }
                    Err(_) => {
                        read_failed = true;
                        break;
                    }
                };
                number += 1;
                bytes += raw.len();
                if raw.first() == Some(&b'#') {
                    continue;
                }
                let mut line = raw.strip_suffix(b"\n").unwrap_or(&raw);
                line = line.strip_suffix(b"\r").unwrap_or(line);
                if line.is_empty() {
                    continue;
                }
                match self.parse(line) {
                    Some((hex, name)) if !(too_long || is_stdin && name == b"-") => {
                        lines.push(Line::Entry { hex, name });
                        tally.entries += 1;
                    }
                    _ => {
                        lines.push(Line::Bad(number));
                        tally.bad_lines += 1;
                    }
                }
                if input.buffer().is_empty() {
                    break;
                }
            }
            self.check_window(out, &shown, &lines, &mut tally);
        }

        if read_failed {
            out.error(&[&shown, b": read error"]);
            return false;
        }
        let Tally { entries, bad_lines, mismatched, unreadable, matched } = tally;
        if entries == 0 {
            out.error(&[&shown, b": no properly formatted checksum lines found"]);
        } else if !opts.status {
            let plural = |n: u64, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
            if bad_lines != 0 {
                let verb = plural(bad_lines, "line is", "lines are");
                out.error(&[format!("WARNING: {bad_lines} {verb} improperly formatted").as_bytes()]);
            }
            if unreadable != 0 {
                let what = plural(unreadable, "listed file", "listed files");
                out.error(&[format!("WARNING: {unreadable} {what} could not be read").as_bytes()]);
            }
            if mismatched != 0 {
                let what = plural(mismatched, "computed checksum", "computed checksums");
                out.error(&[format!("WARNING: {mismatched} {what} did NOT match").as_bytes()]);
            }
            if opts.ignore_missing && !matched {
                out.error(&[&shown, b": no file was verified"]);
            }
        }
        entries > 0 && matched && mismatched == 0 && unreadable == 0 && (!opts.strict || bad_lines == 0)
    }

    /// Hash the files of one window of lines and report each line in order.
    fn check_window(&mut self, out: &mut Out, shown: &[u8], lines: &[Line], tally: &mut Tally) {
        let opts = self.opts;
        let sources: Vec<Source> = lines
            .iter()
            .filter_map(|l| match l {
                Line::Entry { name, .. } if name == b"-" => Some(Source::Stdin),
                Line::Entry { name, .. } => Some(Source::Path(PathBuf::from(OsStr::from_bytes(name)))),
                Line::Bad(_) => None,
            })
            .collect();
        let mut cursor = 0;
        let tag = opts.info.tag;
        // Report the lines before entry `upto` that were not checksum lines.
        let bad_until = |out: &mut Out, cursor: &mut usize, upto: Option<usize>| {
            while let Some(line) = lines.get(*cursor) {
                match line {
                    Line::Bad(number) => {
                        if opts.warn {
                            let message = format!(": {number}: improperly formatted {tag} checksum line").into_bytes();
                            out.error(&[shown, &message]);
                        }
                    }
                    Line::Entry { .. } if upto.is_some() => return,
                    Line::Entry { .. } => {}
                }
                *cursor += 1;
            }
        };
        let mut names = lines.iter().filter_map(|l| match l {
            Line::Entry { hex, name } => Some((hex, name)),
            Line::Bad(_) => None,
        });
        // An XOF checked without `-l` is hashed to the window's longest
        // digest (at most XOF_MAX bytes); shorter ones are its prefixes.
        let len = match opts.len_fixed {
            true => opts.len,
            false => names.clone().map(|(hex, _)| hex.len() / 2).max().unwrap_or(1),
        };
        if !sources.is_empty() {
            let prompt = out.is_terminal();
            let result =
                engine::hash_all(opts.algo, len, &sources, opts.jobs, prompt, self.bar.as_mut(), |_, result| {
                    bad_until(out, &mut cursor, Some(0));
                    cursor += 1;
                    let (hex, name) = names.next().expect("one result per entry");
                    // GNU escapes a name here only when it would break the line
                    // (a newline), to ease automatic processing of the lines.
                    let escape = !opts.status && name.contains(&b'\n');
                    let mut line = Vec::new();
                    match result {
                        Err(e) if opts.ignore_missing && e.kind() == io::ErrorKind::NotFound => return Ok(()),
                        Err(e) => {
                            out.error(&[&quotef(name), b": ", os_message(&e).as_bytes()]);
                            tally.unreadable += 1;
                            if !opts.status {
                                if escape {
                                    line.push(b'\\');
                                }
                                push_name(&mut line, name, escape);
                                line.extend_from_slice(b": FAILED open or read\n");
                            }
                        }
                        Ok(hashed) => {
                            if hashed.collision {
                                // Reported as a read error is (also with
                                // --status); the file fails whatever its line
                                // says, counted with the mismatches.
                                out.error(&[&quotef(name), b": ", COLLISION.as_bytes()]);
                            }
                            let ok = !hashed.collision
                                && hex.chunks_exact(2).zip(hashed.digest).all(|(pair, &byte)| {
                                    let hex_digit = |c: u8| (c as char).to_digit(16).unwrap_or(99) as u8;
                                    hex_digit(pair[0]) == byte >> 4 && hex_digit(pair[1]) == byte & 15
                                });
                            if ok {
                                tally.matched = true;
                            } else {
                                tally.mismatched += 1;
                            }
                            if !opts.status && (!ok || !opts.quiet) {
                                if escape {
                                    line.push(b'\\');
                                }
                                push_name(&mut line, name, escape);
                                line.extend_from_slice(if ok { b": OK\n" } else { b": FAILED\n" });
                            }
                        }
                    }
                    out.write(&line);
                    Ok(())
                });
            debug_assert!(result.is_ok(), "emit never fails");
        }
        bad_until(out, &mut cursor, None);
    }
}

/// What `--check` counts over one checksum file.
#[derive(Default)]
struct Tally {
    entries: u64,
    bad_lines: u64,
    mismatched: u64,
    unreadable: u64,
    matched: bool,
}

/// Most lines checked together (one `hash_all` call).
const WINDOW_LINES: usize = 256;
/// Most bytes of lines gathered in one window.
const WINDOW_BYTES: usize = 1 << 20;
/// The longest checksum line kept; longer ones are improperly formatted
/// (no file name is this long: `PATH_MAX` is 4096 bytes on Linux).
pub(crate) const LINE_MAX: usize = 1 << 20;
/// An XOF digest checked without `-l`: at least 16 bytes (128 bits), at
/// most 1 KiB.
pub(crate) const XOF_MIN: usize = 16;
/// See [`XOF_MIN`].
pub(crate) const XOF_MAX: usize = 1 << 10;

/// Read one line (with its newline, if any) into `line`. `Ok(None)` at the
/// end of the input; `Ok(Some(true))` when the line was longer than
/// [`LINE_MAX`]: its first `LINE_MAX` bytes are kept, the rest is skipped.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<bool>> {
    line.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (&buf[..=at], true),
            None => (buf, false),
        };
        let room = LINE_MAX.saturating_sub(line.len());
        if chunk.len() > room {
            too_long = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        input.consume(used);
        if done {
            return Ok(Some(too_long));
        }
    }
}

/// The file name of a checksum line: unescaped when the line began with a
/// backslash, else as it is up to a NUL byte (where GNU's C string ends).
fn name_of(raw: &[u8], escaped: bool) -> Option<Vec<u8>> {
    if escaped {
        unescape_name(raw)
    } else {
        Some(raw[..raw.iter().position(|&b| b == 0).unwrap_or(raw.len())].to_vec())
    }
}
