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

mod base64;
mod vectors;

use self::vectors::Place;
pub use self::vectors::{RecordView, VectorFile};
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

    #[test]
    fn shake_monte_lengths() {
        // Range 16..=140 bytes (125 values): 0x0102 = 258 -> 16 + 258 % 125.
        assert_eq!(next_shake_len(&[0xff, 0x01, 0x02], 16, 140), 16 + 8);
        assert_eq!(leftmost_128(&[1, 2]), [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    }
}
