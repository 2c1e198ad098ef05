//! Known-answer test runner for the vector files under each crate's
//! `tests/data/` (written by `cargo xtask kat`; their headers describe the
//! format).
//!
//! An algorithm crate's `tests/kat.rs` is a few lines:
//!
//! ```text
//! use hash_core::testing::kat;
//!
//! const SHA256: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sha256.txt");
//!
//! #[test]
//! fn sha256_cavp() {
//!     kat::fixed::<sha256::algorithm::Sha256>(SHA256);
//! }
//!
//! #[test]
//! fn edited_vector_files_fail() {
//!     kat::guards_fixed::<sha256::algorithm::Sha256>(SHA256);
//! }
//! ```
//!
//! [`fixed`] and [`xof`] run every record of a file on every backend this
//! CPU supports (printing a SKIPPED line for the others): one-shot, streamed
//! in uneven `update` pieces, and in batches through the `digest_many` API;
//! Monte Carlo records as SHAVS (SHA-1, SHA-2: three-message chaining),
//! SHA3VS (SHA-3: single-message chaining) and SHA3VS §6.3.3 (SHAKE:
//! variable output lengths) specify them. They print one line per backend
//! with the number of records passed per section, and panic naming the file,
//! line, section, record number and backend of each failure. A file whose
//! sections hold a different number of records than its header's
//! `# records:` line states is rejected before anything runs.

use std::format;
use std::string::{String, ToString};
use std::vec;
use std::vec::Vec;

use generic_array::typenum::Unsigned;

use super::{say, testable_backends};
use crate::{BackendKind, FixedAlgorithm, Hasher, OutputBytes, Padding, Xof, XofAlgorithm};

/// Failures listed in a panic message, at most (the count covers all).
const SHOWN_FAILURES: usize = 12;

/// `update` piece sizes for the streaming runs, used in turn: around the
/// 64- and 128-byte blocks of MD5/SHA-1/SHA-2 and the 72- to 168-byte rates
/// of SHA-3, plus single bytes and long runs.
const PIECES: [usize; 16] = [1, 7, 63, 64, 65, 71, 72, 104, 127, 128, 129, 136, 137, 168, 1000, 4096];

/// Byte `i` of the pattern that the `[Pattern]` records hash: the top byte
/// of `i * 0x9E3779B1 mod 2^32` (the same rule as `cargo xtask kat`).
fn pattern_byte(i: usize) -> u8 {
    ((i as u32).wrapping_mul(0x9E37_79B1) >> 24) as u8
}

/// A parsed vector file.
#[derive(Clone, Debug)]
pub struct VectorFile {
    path: String,
    sections: Vec<Section>,
}

#[derive(Clone, Debug)]
struct Section {
    name: String,
    params: Vec<(String, String)>,
    records: Vec<Record>,
}

#[derive(Clone, Debug)]
struct Record {
    /// The line of the record's first field.
    line: usize,
    fields: Vec<(String, String)>,
}

/// One record of a [`VectorFile`], for crates whose functions need a
/// runner of their own (keys, customization strings, domain bytes): where
/// it is, its section's name and parameters, and its fields in file order.
#[derive(Clone, Debug)]
pub struct RecordView<'a> {
    /// `path:line: [Section] record n`, for failure messages.
    pub place: String,
    /// The section's name.
    pub section: &'a str,
    /// The section's `[Key = value]` parameters.
    pub params: &'a [(String, String)],
    /// The record's `Key = value` fields.
    pub fields: &'a [(String, String)],
}

impl RecordView<'_> {
    /// The value of field `key`, if present.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The hex field `key` as bytes.
    ///
    /// # Panics
    /// If the field is missing or not hex; the message names the record.
    pub fn hex(&self, key: &str) -> Vec<u8> {
        let value = self.field(key).unwrap_or_else(|| panic!("{}: the record has no `{key}` field", self.place));
        from_hex(value).unwrap_or_else(|| panic!("{}: `{key}` is not hex", self.place))
    }
}

impl VectorFile {
    /// Every record, in file order (the header's counts already checked).
    pub fn records(&self) -> Vec<RecordView<'_>> {
        let mut all = Vec::new();
        for section in &self.sections {
            for (r, record) in section.records.iter().enumerate() {
                all.push(RecordView {
                    place: format!("{}:{}: [{}] record {}", self.path, record.line, section.name, r + 1),
                    section: &section.name,
                    params: &section.params,
                    fields: &record.fields,
                });
            }
        }
        all
    }

    /// Read and parse the vector file at `path`.
    ///
    /// # Panics
    /// If the file cannot be read or is malformed; the message says where.
    pub fn load(path: &str) -> VectorFile {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => panic!("cannot read the vector file {path}: {e} (generate it with `cargo xtask kat`)"),
        };
        match VectorFile::parse(path, &text) {
            Ok(file) => file,
            Err(e) => panic!("{e}"),
        }
    }

    /// Parse the text of the vector file `path`, and check that every
    /// section holds as many records as the header's `# records:` line says.
    pub fn parse(path: &str, text: &str) -> Result<VectorFile, String> {
        let mut file = VectorFile { path: path.to_string(), sections: Vec::new() };
        let mut declared: Option<Vec<(String, usize)>> = None;
        let mut open: Option<Record> = None;
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            let line = raw.trim();
            let at = || format!("{path}:{number}");
            if line.is_empty() || line.starts_with('#') {
                file.close(&mut open);
                if let Some(list) = line.strip_prefix('#').map(str::trim).and_then(|l| l.strip_prefix("records:")) {
                    if declared.is_some() || !file.sections.is_empty() {
                        return Err(format!("{}: a second `# records:` line, or one after the header", at()));
                    }
                    declared =
                        Some(parse_counts(list).ok_or_else(|| format!("{}: malformed `# records:` line", at()))?);
                }
                continue;
            }
            if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                file.close(&mut open);
                if let Some((key, value)) = inner.split_once('=') {
                    let section =
                        file.sections.last_mut().ok_or_else(|| format!("{}: a parameter before any section", at()))?;
                    section.params.push((key.trim().to_string(), value.trim().to_string()));
                } else {
                    let name = inner.trim().to_string();
                    if file.sections.iter().any(|s| s.name == name) {
                        return Err(format!("{}: a second [{name}] section", at()));
                    }
                    file.sections.push(Section { name, params: Vec::new(), records: Vec::new() });
                }
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(format!("{}: unrecognised line `{}`", at(), truncate(line)));
            };
            if file.sections.is_empty() {
                return Err(format!("{}: a record before any [section]", at()));
            }
            let record = open.get_or_insert_with(|| Record { line: number, fields: Vec::new() });
            let key = key.trim();
            if record.fields.iter().any(|(k, _)| k == key) {
                return Err(format!(
                    "{}: a second `{key}` in the record that starts at line {} (a blank line between records lost?)",
                    at(),
                    record.line
                ));
            }
            record.fields.push((key.to_string(), value.trim().to_string()));
        }
        file.close(&mut open);

        let declared = declared.ok_or_else(|| format!("{path}: no `# records:` line in the header"))?;
        for (name, count) in &declared {
            let Some(section) = file.sections.iter().find(|s| &s.name == name) else {
                return Err(format!(
                    "{path}: the header lists [{name}] ({count} records) but the file has no such section"
                ));
            };
            if section.records.len() != *count {
                return Err(format!(
                    "{path}: the header says [{name}] holds {count} records, but the file holds {}; \
                     the file was edited or truncated: regenerate it with `cargo xtask kat`",
                    section.records.len()
                ));
            }
        }
        if let Some(extra) = file.sections.iter().find(|s| !declared.iter().any(|(name, _)| *name == s.name)) {
            return Err(format!("{path}: section [{}] is not in the header's `# records:` line", extra.name));
        }
        Ok(file)
    }

    /// End the record being read, if any.
    fn close(&mut self, open: &mut Option<Record>) {
        if let Some(record) = open.take() {
            // A record is only opened inside a section.
            if let Some(section) = self.sections.last_mut() {
                section.records.push(record);
            }
        }
    }

    /// The label printed in reports: the file name without its extension.
    fn label(&self) -> &str {
        let name = self.path.rsplit(['/', '\\']).next().unwrap_or(&self.path);
        name.strip_suffix(".txt").unwrap_or(name)
    }
}

/// `ShortMsg 65, LongMsg 64, Monte 100`.
fn parse_counts(list: &str) -> Option<Vec<(String, usize)>> {
    list.split(',')
        .map(|item| {
            let (name, count) = item.trim().rsplit_once(' ')?;
            Some((name.trim().to_string(), count.parse().ok()?))
        })
        .collect()
}

fn truncate(text: &str) -> &str {
    match text.char_indices().nth(60) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// Where a record is, for messages: `path:line: [Section] record n`.
#[derive(Clone, Debug)]
struct Place {
    section: usize,
    text: String,
}

impl Record {
    fn get(&self, key: &str, place: &Place) -> &str {
        match self.fields.iter().find(|(k, _)| k == key) {
            Some((_, v)) => v,
            None => panic!("{}: the record has no `{key}` field", place.text),
        }
    }

    fn number(&self, key: &str, place: &Place) -> usize {
        let value = self.get(key, place);
        value.parse().unwrap_or_else(|_| panic!("{}: `{key} = {value}` is not a number", place.text))
    }

    fn hex(&self, key: &str, place: &Place) -> Vec<u8> {
        let value = self.get(key, place);
        from_hex(value).unwrap_or_else(|| panic!("{}: `{key}` is not hex", place.text))
    }

    /// The message of a `Len` + `Msg` (hex) or `MsgBase64` record, checked
    /// against `Len`.
    fn message(&self, place: &Place) -> Vec<u8> {
        let bits = self.number("Len", place);
        let msg = if self.fields.iter().any(|(k, _)| k == "MsgBase64") {
            let value = self.get("MsgBase64", place);
            from_base64(value).unwrap_or_else(|| panic!("{}: `MsgBase64` is not base64", place.text))
        } else {
            self.hex("Msg", place)
        };
        assert!(msg.len() * 8 == bits, "{}: `Len = {bits}` but the message holds {} bytes", place.text, msg.len());
        msg
    }
}

impl Section {
    fn param(&self, key: &str, path: &str) -> usize {
        let value = match self.params.iter().find(|(k, _)| k == key) {
            Some((_, v)) => v,
            None => panic!("{path}: section [{}] has no `[{key} = ...]` parameter", self.name),
        };
        value.parse().unwrap_or_else(|_| panic!("{path}: [{}]: `[{key} = {value}]` is not a number", self.name))
    }
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    text.chunks_exact(2).map(|pair| Some((digit(pair[0])? << 4) | digit(pair[1])?)).collect()
}

/// Base64 with padding (RFC 4648 §4).
fn from_base64(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let quads = text.len() / 4;
    for (index, quad) in text.chunks_exact(4).enumerate() {
        let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && index + 1 != quads) {
            return None;
        }
        let mut n = 0u32;
        for &c in &quad[..4 - pad] {
            n = (n << 6) | value(c)?;
        }
        n <<= 6 * pad as u32;
        out.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    Some(out)
}

fn to_hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 * bytes.len());
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// `got` against `want`, shortened for messages.
fn differ(got: &[u8], want: &[u8]) -> String {
    let cut = |b: &[u8]| {
        let h = to_hex(b);
        if h.len() > 80 { format!("{}...", &h[..80]) } else { h }
    };
    let first = got.iter().zip(want).position(|(g, w)| g != w).unwrap_or(got.len().min(want.len()));
    format!(
        "got {} ({} bytes), want {} ({} bytes), first difference at byte {first}",
        cut(got),
        got.len(),
        cut(want),
        want.len()
    )
}

/// Failures found on one backend, and passes per section.
struct Tally {
    backend: &'static str,
    passed: Vec<usize>,
    failed_records: Vec<bool>,
    messages: Vec<String>,
    /// The report line, once finished.
    summary: String,
}

impl Tally {
    fn new(backend: &'static str, cases: usize, sections: usize) -> Tally {
        Tally {
            backend,
            passed: vec![0; sections],
            failed_records: vec![false; cases],
            messages: Vec::new(),
            summary: String::new(),
        }
    }

    fn fail(&mut self, case: usize, place: &Place, what: String) {
        self.failed_records[case] = true;
        self.messages.push(format!("{} on backend [{}]: {what}", place.text, self.backend));
    }

    /// Write the report line; the count of each section is the records
    /// that passed every check.
    fn finish(&mut self, file: &VectorFile, places: &[Place]) {
        for (case, place) in places.iter().enumerate() {
            if !self.failed_records[case] {
                self.passed[place.section] += 1;
            }
        }
        let counts: Vec<String> =
            file.sections.iter().zip(&self.passed).map(|(s, n)| format!("{} {n}", s.name)).collect();
        let failed = self.failed_records.iter().filter(|&&f| f).count();
        let mut line = format!("{} [{}] {}", file.label(), self.backend, counts.join(", "));
        if failed > 0 {
            line.push_str(&format!("; {failed} records FAILED"));
        }
        self.summary = line;
    }
}

/// Print the tally's report line (past the harness's capture).
fn report(tally: Tally) -> Tally {
    say(format_args!("{}", tally.summary));
    tally
}

/// Panic listing the failures of every backend, if there are any.
fn conclude(file: &VectorFile, tallies: Vec<Tally>) {
    let all: Vec<String> = tallies.into_iter().flat_map(|t| t.messages).collect();
    if all.is_empty() {
        return;
    }
    let shown: Vec<&str> = all.iter().take(SHOWN_FAILURES).map(String::as_str).collect();
    panic!(
        "{}: {} known-answer check(s) failed{}:\n  {}",
        file.path,
        all.len(),
        if all.len() > shown.len() { format!(" (the first {} shown)", shown.len()) } else { String::new() },
        shown.join("\n  ")
    );
}

/// Feed `msg` to `update` in the pieces of [`PIECES`], starting at `start`.
fn in_pieces(msg: &[u8], start: usize, mut update: impl FnMut(&[u8])) {
    let mut rest = msg;
    let mut turn = start;
    while !rest.is_empty() {
        let n = PIECES[turn % PIECES.len()].min(rest.len());
        update(&rest[..n]);
        rest = &rest[n..];
        turn += 1;
    }
}

// ---------------------------------------------------------------------------
// Fixed-output hashes.

enum FixedCase {
    /// Hash `msg`, expect `md`.
    Message { msg: Vec<u8>, md: Vec<u8> },
    /// One Monte Carlo checkpoint from `seed`.
    Monte { seed: Vec<u8>, md: Vec<u8> },
}

/// Turn the records of `file` into checks for a hash with `out`-byte
/// digests.
fn fixed_cases(file: &VectorFile, out: usize) -> (Vec<Place>, Vec<FixedCase>) {
    let (mut places, mut cases) = (Vec::new(), Vec::new());
    for (s, section) in file.sections.iter().enumerate() {
        let mut previous: Option<Vec<u8>> = None;
        for (r, record) in section.records.iter().enumerate() {
            let mut place = Place {
                section: s,
                text: format!("{}:{}: [{}] record {}", file.path, record.line, section.name, r + 1),
            };
            let case = match section.name.as_str() {
                "ShortMsg" | "LongMsg" | "RFC1321" => {
                    let msg = record.message(&place);
                    place.text.push_str(&format!(" (Len = {})", msg.len() * 8));
                    FixedCase::Message { msg, md: record.hex("MD", &place) }
                }
                "Pattern" => {
                    let bits = record.number("Len", &place);
                    assert!(bits.is_multiple_of(8), "{}: Len is not a whole number of bytes", place.text);
                    place.text.push_str(&format!(" (pattern, Len = {bits})"));
                    let msg = (0..bits / 8).map(pattern_byte).collect();
                    FixedCase::Message { msg, md: record.hex("MD", &place) }
                }
                "Monte" => {
                    assert_eq!(record.number("COUNT", &place), r, "{}: COUNT out of sequence", place.text);
                    place.text.push_str(&format!(" (COUNT = {r})"));
                    let seed = record.hex("Seed", &place);
                    if let Some(previous) = &previous {
                        assert!(*previous == seed, "{}: Seed is not the previous record's MD", place.text);
                    }
                    let md = record.hex("MD", &place);
                    assert_eq!(seed.len(), out, "{}: Seed is not a digest long", place.text);
                    previous = Some(md.clone());
                    FixedCase::Monte { seed, md }
                }
                other => panic!("{}: unknown section [{other}] for a fixed-output hash", file.path),
            };
            let (FixedCase::Message { md, .. } | FixedCase::Monte { md, .. }) = &case;
            assert_eq!(md.len(), out, "{}: the expected digest is {} bytes, not {out}", place.text, md.len());
            places.push(place);
            cases.push(case);
        }
    }
    (places, cases)
}

/// Run every record of the vector file at `path` against the fixed-output
/// hash `A`, on every backend this CPU supports; print one line per backend
/// with the records passed per section.
///
/// # Panics
/// If the file is malformed, holds fewer or more records than its header
/// says, or any check fails; the message names the file, line, section,
/// record number and backend of each failure.
pub fn fixed<A: FixedAlgorithm>(path: &str) {
    let file = VectorFile::load(path);
    let backends = testable_backends::<A::Backend>(&format!("{} known-answer tests", file.label()));
    // Parse and check the records once; run them on every backend.
    let (places, cases) = fixed_cases(&file, A::OutputSize::USIZE);
    let tallies: Vec<Tally> = backends.into_iter().map(|b| report(run_fixed::<A>(&file, &places, &cases, b))).collect();
    conclude(&file, tallies);
}

fn run_fixed<A: FixedAlgorithm>(
    file: &VectorFile,
    places: &[Place],
    cases: &[FixedCase],
    backend: A::Backend,
) -> Tally {
    let mut tally = Tally::new(backend.name(), cases.len(), file.sections.len());
    for (index, (place, case)) in places.iter().zip(cases).enumerate() {
        match case {
            FixedCase::Message { msg, md } => {
                let got = Hasher::<A>::digest_with_backend(backend, msg);
                if got.as_ref() != &md[..] {
                    tally.fail(index, place, format!("one-shot digest: {}", differ(got.as_ref(), md)));
                }
                let mut h = Hasher::<A>::with_backend(backend);
                h.update(msg);
                let got = h.finalize();
                if got.as_ref() != &md[..] {
                    tally.fail(index, place, format!("one update call: {}", differ(got.as_ref(), md)));
                }
                let mut h = Hasher::<A>::with_backend(backend);
                in_pieces(msg, index, |piece| h.update(piece));
                let got = h.finalize();
                if got.as_ref() != &md[..] {
                    tally.fail(index, place, format!("streamed in uneven pieces: {}", differ(got.as_ref(), md)));
                }
            }
            FixedCase::Monte { seed, md } => {
                let got = monte_fixed::<A>(backend, seed, index % 2 == 1);
                if got.as_ref() != &md[..] {
                    tally.fail(index, place, format!("Monte Carlo checkpoint: {}", differ(got.as_ref(), md)));
                }
            }
        }
    }

    // The batch API: each section's messages in one call, then every
    // message of the file in one call, in reverse order.
    let messages: Vec<usize> = (0..cases.len()).filter(|&i| matches!(cases[i], FixedCase::Message { .. })).collect();
    let mut batches: Vec<(String, Vec<usize>)> = (0..file.sections.len())
        .map(|s| {
            let members = messages.iter().copied().filter(|&i| places[i].section == s).collect();
            (format!("digest_many over the [{}] section", file.sections[s].name), members)
        })
        .collect();
    batches.push(("digest_many over every message of the file".to_string(), messages.iter().rev().copied().collect()));
    for (what, members) in batches.iter().filter(|(_, m)| !m.is_empty()) {
        let inputs: Vec<&[u8]> = members
            .iter()
            .map(|&i| match &cases[i] {
                FixedCase::Message { msg, .. } => &msg[..],
                FixedCase::Monte { .. } => unreachable!("only messages are batched"),
            })
            .collect();
        let mut outputs = vec![A::Output::zeroed(); inputs.len()];
        Hasher::<A>::digest_many_with_backend(backend, &inputs, &mut outputs);
        for (&i, got) in members.iter().zip(&outputs) {
            if let FixedCase::Message { md, .. } = &cases[i]
                && got.as_ref() != &md[..]
            {
                tally.fail(i, &places[i], format!("{what}: {}", differ(got.as_ref(), md)));
            }
        }
    }

    tally.finish(file, places);
    tally
}

/// One Monte Carlo checkpoint from `seed`: SHA3VS's single-message chaining
/// for SHA-3 (Keccak padding), else SHAVS's three-message chaining. With
/// `streamed`, each message goes through `update` calls rather than the
/// one-shot path.
fn monte_fixed<A: FixedAlgorithm>(backend: A::Backend, seed: &[u8], streamed: bool) -> A::Output {
    let mut start = A::Output::zeroed();
    start.as_mut().copy_from_slice(seed);
    let hash = |parts: &[&[u8]], buf: &mut Vec<u8>| {
        if streamed {
            let mut h = Hasher::<A>::with_backend(backend);
            parts.iter().for_each(|p| h.update(p));
            h.finalize()
        } else {
            buf.clear();
            parts.iter().for_each(|p| buf.extend_from_slice(p));
            Hasher::<A>::digest_with_backend(backend, buf)
        }
    };
    let mut buf = Vec::new();
    match A::PADDING {
        // SHA3VS: MD_0 = Seed; MD_i = SHA3(MD_(i-1)) for i = 1..=1000.
        Padding::Keccak(_) => {
            let mut md = start;
            for _ in 0..1000 {
                md = hash(&[md.as_ref()], &mut buf);
            }
            md
        }
        // SHAVS: MD_0 = MD_1 = MD_2 = Seed; for i = 3..=1002,
        // MD_i = SHA(MD_(i-3) || MD_(i-2) || MD_(i-1)).
        _ => {
            let mut md = [start; 3];
            for _ in 0..1000 {
                let next = hash(&[md[0].as_ref(), md[1].as_ref(), md[2].as_ref()], &mut buf);
                md = [md[1], md[2], next];
            }
            md[2]
        }
    }
}

// ---------------------------------------------------------------------------
// Extendable-output functions.

enum XofCase {
    /// Absorb `msg`, expect `output` (of its length).
    Message { msg: Vec<u8>, output: Vec<u8> },
    /// One SHAKE Monte Carlo checkpoint: 1000 iterations from `msg` with a
    /// first output of `start` bytes, then lengths in `min..=max` bytes.
    Monte { msg: Vec<u8>, start: usize, min: usize, max: usize, output: Vec<u8> },
}

/// The output length in bytes that follows `output` in the SHAKE Monte
/// Carlo test: `min + (rightmost 16 bits of output) mod (max - min + 1)`.
fn next_shake_len(output: &[u8], min: usize, max: usize) -> usize {
    let r = usize::from(u16::from_be_bytes([output[output.len() - 2], output[output.len() - 1]]));
    min + r % (max - min + 1)
}

/// The leftmost 128 bits of `output`, zero-padded.
fn leftmost_128(output: &[u8]) -> [u8; 16] {
    let mut msg = [0; 16];
    let n = output.len().min(16);
    msg[..n].copy_from_slice(&output[..n]);
    msg
}

fn xof_cases(file: &VectorFile) -> (Vec<Place>, Vec<XofCase>) {
    let (mut places, mut cases) = (Vec::new(), Vec::new());
    for (s, section) in file.sections.iter().enumerate() {
        let mut previous: Option<Vec<u8>> = None;
        for (r, record) in section.records.iter().enumerate() {
            let mut place = Place {
                section: s,
                text: format!("{}:{}: [{}] record {}", file.path, record.line, section.name, r + 1),
            };
            let (case, bits) = match section.name.as_str() {
                "ShortMsg" | "LongMsg" => {
                    let msg = record.message(&place);
                    place.text.push_str(&format!(" (Len = {})", msg.len() * 8));
                    let bits = section.param("Outputlen", &file.path);
                    (XofCase::Message { msg, output: record.hex("Output", &place) }, bits)
                }
                "VariableOut" => {
                    let count = record.number("COUNT", &place);
                    let bits = record.number("Outputlen", &place);
                    place.text.push_str(&format!(" (COUNT = {count}, Outputlen = {bits})"));
                    (XofCase::Message { msg: record.hex("Msg", &place), output: record.hex("Output", &place) }, bits)
                }
                "Monte" => {
                    assert_eq!(record.number("COUNT", &place), r, "{}: COUNT out of sequence", place.text);
                    place.text.push_str(&format!(" (COUNT = {r})"));
                    let min = section.param("Minimum Output Length (bits)", &file.path) / 8;
                    let max = section.param("Maximum Output Length (bits)", &file.path) / 8;
                    assert!(2 <= min && min <= max, "{}: unusable output length range", place.text);
                    let msg = record.hex("Msg", &place);
                    let start_bits = record.number("Startlen", &place);
                    let start = start_bits / 8;
                    assert!(msg.len() == 16, "{}: Msg is not 128 bits", place.text);
                    assert!(
                        start_bits.is_multiple_of(8) && (min..=max).contains(&start),
                        "{}: Startlen out of range",
                        place.text
                    );
                    match &previous {
                        Some(previous) => {
                            assert!(
                                msg == leftmost_128(previous) && start == next_shake_len(previous, min, max),
                                "{}: Msg and Startlen do not follow from the previous record's Output",
                                place.text
                            );
                        }
                        None => assert_eq!(start, max, "{}: the first Startlen is not the maximum", place.text),
                    }
                    let output = record.hex("Output", &place);
                    previous = Some(output.clone());
                    let bits = record.number("Outputlen", &place);
                    (XofCase::Monte { msg, start, min, max, output }, bits)
                }
                other => panic!("{}: unknown section [{other}] for an XOF", file.path),
            };
            let (XofCase::Message { output, .. } | XofCase::Monte { output, .. }) = &case;
            assert!(
                bits.is_multiple_of(8) && output.len() * 8 == bits,
                "{}: Output holds {} bytes, not the stated {bits} bits",
                place.text,
                output.len()
            );
            places.push(place);
            cases.push(case);
        }
    }
    (places, cases)
}

/// Run every record of the vector file at `path` against the XOF `A`, on
/// every backend this CPU supports; print one line per backend with the
/// records passed per section.
///
/// # Panics
/// As [`fixed`].
pub fn xof<A: XofAlgorithm>(path: &str) {
    let file = VectorFile::load(path);
    let backends = testable_backends::<A::Backend>(&format!("{} known-answer tests", file.label()));
    let (places, cases) = xof_cases(&file);
    let tallies: Vec<Tally> = backends.into_iter().map(|b| report(run_xof::<A>(&file, &places, &cases, b))).collect();
    conclude(&file, tallies);
}

fn run_xof<A: XofAlgorithm>(file: &VectorFile, places: &[Place], cases: &[XofCase], backend: A::Backend) -> Tally {
    let rate = A::BlockSize::USIZE;
    let mut tally = Tally::new(backend.name(), cases.len(), file.sections.len());
    for (index, (place, case)) in places.iter().zip(cases).enumerate() {
        match case {
            XofCase::Message { msg, output } => {
                let mut got = vec![0; output.len()];
                Xof::<A>::digest_xof_with_backend(backend, msg, &mut got);
                if got != *output {
                    tally.fail(index, place, format!("one-shot: {}", differ(&got, output)));
                }
                // Absorb in uneven pieces and squeeze in pieces of 1, 7,
                // rate - 1, rate + 1, ... bytes.
                let mut x = Xof::<A>::with_backend(backend);
                in_pieces(msg, index, |piece| x.update(piece));
                let mut reader = x.finalize_xof();
                let mut got = vec![0; output.len()];
                let reads = [1, 7, rate - 1, rate + 1, rate, 3];
                let mut turn = index;
                let mut rest = &mut got[..];
                while !rest.is_empty() {
                    let n = reads[turn % reads.len()].min(rest.len());
                    let (head, tail) = rest.split_at_mut(n);
                    reader.read(head);
                    rest = tail;
                    turn += 1;
                }
                if got != *output {
                    tally.fail(index, place, format!("streamed in uneven pieces: {}", differ(&got, output)));
                }
            }
            XofCase::Monte { msg, start, min, max, output } => {
                let (len, got) = monte_shake::<A>(backend, msg, *start, *min, *max);
                if len != output.len() || got != *output {
                    tally.fail(index, place, format!("Monte Carlo checkpoint: {}", differ(&got, output)));
                }
            }
        }
    }

    let messages: Vec<usize> = (0..cases.len()).filter(|&i| matches!(cases[i], XofCase::Message { .. })).collect();
    let mut batches: Vec<(String, Vec<usize>)> = (0..file.sections.len())
        .map(|s| {
            let members = messages.iter().copied().filter(|&i| places[i].section == s).collect();
            (format!("digest_xof_many over the [{}] section", file.sections[s].name), members)
        })
        .collect();
    batches
        .push(("digest_xof_many over every message of the file".to_string(), messages.iter().rev().copied().collect()));
    for (what, members) in batches.iter().filter(|(_, m)| !m.is_empty()) {
        let pairs: Vec<(&[u8], &[u8])> = members
            .iter()
            .map(|&i| match &cases[i] {
                XofCase::Message { msg, output } => (&msg[..], &output[..]),
                XofCase::Monte { .. } => unreachable!("only messages are batched"),
            })
            .collect();
        let inputs: Vec<&[u8]> = pairs.iter().map(|p| p.0).collect();
        let mut buffers: Vec<Vec<u8>> = pairs.iter().map(|p| vec![0; p.1.len()]).collect();
        let mut outputs: Vec<&mut [u8]> = buffers.iter_mut().map(|b| &mut b[..]).collect();
        Xof::<A>::digest_xof_many_with_backend(backend, &inputs, &mut outputs);
        for ((&i, got), (_, want)) in members.iter().zip(&buffers).zip(&pairs) {
            if got[..] != want[..] {
                tally.fail(i, &places[i], format!("{what}: {}", differ(got, want)));
            }
        }
    }

    tally.finish(file, places);
    tally
}

/// One SHAKE Monte Carlo checkpoint (SHA3VS §6.3.3): 1000 iterations, each
/// hashing the leftmost 128 bits of the previous output (zero-padded) to an
/// output whose length follows from the previous output's rightmost 16
/// bits. Returns the last output and its length in bytes.
fn monte_shake<A: XofAlgorithm>(
    backend: A::Backend,
    msg: &[u8],
    start: usize,
    min: usize,
    max: usize,
) -> (usize, Vec<u8>) {
    let mut output = msg.to_vec();
    let mut len = start;
    let mut used = len;
    for _ in 0..1000 {
        let m = leftmost_128(&output);
        output.clear();
        output.resize(len, 0);
        Xof::<A>::digest_xof_with_backend(backend, &m, &mut output);
        used = len;
        len = next_shake_len(&output, min, max);
    }
    (used, output)
}

// ---------------------------------------------------------------------------
// Guards: edited vector files must not pass.

/// The vector file at `path` with its last record removed, and with one hex
/// digit of its first record's expected value changed, must both be caught:
/// the first by the header's record count, the second by a failure that
/// names the file and the record's line.
///
/// # Panics
/// If either edit goes unnoticed.
pub fn guards_fixed<A: FixedAlgorithm>(path: &str) {
    let portable = portable::<A::Backend>();
    guards(path, "MD", |file| {
        let (places, cases) = fixed_cases(file, A::OutputSize::USIZE);
        run_fixed::<A>(file, &places, &cases, portable)
    });
}

/// [`guards_fixed`] for an XOF's vector file.
///
/// # Panics
/// If either edit goes unnoticed.
pub fn guards_xof<A: XofAlgorithm>(path: &str) {
    let portable = portable::<A::Backend>();
    guards(path, "Output", |file| {
        let (places, cases) = xof_cases(file);
        run_xof::<A>(file, &places, &cases, portable)
    });
}

fn portable<B: BackendKind>() -> B {
    *B::ALL.last().expect("the portable backend is last in ALL")
}

fn guards(path: &str, expected_key: &str, run: impl Fn(&VectorFile) -> Tally) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    // A checkout with CRLF line ends reads the same.
    let text = text.replace("\r\n", "\n");
    VectorFile::parse(path, &text).unwrap_or_else(|e| panic!("{e}"));

    // Drop the last record: the header's count must catch it.
    let body = text.trim_end();
    let cut = body.rfind("\n\n").expect("the file has records");
    match VectorFile::parse(path, &body[..cut + 1]) {
        Ok(_) => panic!("{path}: a copy without its last record was accepted"),
        Err(e) => assert!(e.contains("the header says"), "{path}: unexpected error for a missing record: {e}"),
    }

    // Change one hex digit of the first expected value: running that record
    // must fail and name the line.
    let prefix = format!("\n{expected_key} = ");
    let at = text.find(&prefix).unwrap_or_else(|| panic!("{path}: no `{expected_key} = ` line"));
    let digit = at + prefix.len();
    let line = text[..digit].lines().count();
    let mut edited = text.clone().into_bytes();
    edited[digit] = if edited[digit] == b'0' { b'1' } else { b'0' };
    let edited = String::from_utf8(edited).expect("hex digits are ASCII");
    let mut file = VectorFile::parse(path, &edited).unwrap_or_else(|e| panic!("{e}"));
    // Keep only the edited record (the last one that starts before the
    // edited line), so that the check is quick.
    let (_, s, r) = file
        .sections
        .iter()
        .enumerate()
        .flat_map(|(s, section)| section.records.iter().enumerate().map(move |(r, record)| (record.line, s, r)))
        .filter(|&(start, _, _)| start <= line)
        .max()
        .expect("the edited line is in a record");
    let mut kept = file.sections.swap_remove(s);
    kept.records = vec![kept.records.swap_remove(r)];
    file.sections = vec![kept];
    let tally = run(&file);
    let want = format!("{path}:");
    assert!(
        !tally.messages.is_empty() && tally.messages.iter().all(|m| m.starts_with(&want)),
        "{path}: a changed digit on line {line} was not reported with the file and line: {:?}",
        tally.messages
    );
    say(format_args!(
        "{}: a digit changed on line {line} is caught: {}",
        file.label(),
        tally.messages.first().map_or("", String::as_str)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "# records: A 2, B 1\n[A]\n[P = 3]\n\nLen = 0\nMsg =\n\nLen = 8\nMsg = 61\n[B]\nX = 1\n";

    #[test]
    fn parses_sections_params_and_records() {
        let file = VectorFile::parse("t.txt", FILE).unwrap();
        assert_eq!(file.sections.len(), 2);
        assert_eq!(file.sections[0].params, [("P".to_string(), "3".to_string())]);
        assert_eq!(file.sections[0].records.len(), 2);
        assert_eq!(file.sections[0].records[1].line, 8);
        assert_eq!(file.sections[1].records[0].fields, [("X".to_string(), "1".to_string())]);
    }

    #[test]
    fn rejects_wrong_counts_and_merged_records() {
        let short = FILE.replace("A 2", "A 3");
        assert!(VectorFile::parse("t.txt", &short).unwrap_err().contains("the header says [A] holds 3"));
        let merged = FILE.replace("Msg =\n\n", "Msg =\n");
        assert!(VectorFile::parse("t.txt", &merged).unwrap_err().contains("t.txt:7: a second `Len`"));
        let unlisted = FILE.replace(", B 1", "");
        assert!(VectorFile::parse("t.txt", &unlisted).is_err());
        assert!(VectorFile::parse("t.txt", "[A]\nX = 1\n").is_err());
    }

    #[test]
    fn base64_decodes_rfc4648_examples() {
        for (plain, encoded) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            assert_eq!(from_base64(encoded).unwrap(), plain.as_bytes(), "{encoded}");
        }
        assert!(from_base64("Zg=").is_none());
        assert!(from_base64("Zg==Zm9v").is_none());
        assert!(from_base64("Z!==").is_none());
    }

    #[test]
    fn shake_monte_lengths() {
        // Range 16..=140 bytes (125 values): 0x0102 = 258 -> 16 + 258 % 125.
        assert_eq!(next_shake_len(&[0xff, 0x01, 0x02], 16, 140), 16 + 8);
        assert_eq!(leftmost_128(&[1, 2]), [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
}
