//! `cargo xtask kat`: write (or check) the known-answer vector files under
//! each algorithm crate's `tests/data/`, from the NIST CAVP response files
//! and, for MD5, RFC 1321's suite plus an independent oracle.
//!
//! The vector files are read by `hash_core::testing::kat`; this generator is
//! their only writer. Their format is described in each file's header.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod derived;
mod fetch;
mod oracle;
mod rsp;

use rsp::{Record, Rsp, to_base64, to_hex};

const HELP: &str = "usage: cargo xtask kat [--vectors DIR] [--check]

Writes one known-answer vector file per algorithm into <crate>/tests/data/,
from the NIST CAVP response files (SHA-1, SHA-2, SHA-3, SHAKE: ShortMsg,
LongMsg, Monte, VariableOut) and, for MD5, RFC 1321's suite plus digests of a
fixed byte pattern computed by python3's hashlib (an independent oracle).
The sha3 crate's cSHAKE, KMAC, TupleHash, ParallelHash, TurboSHAKE and
KangarooTwelve files come from xtask/src/kat/sha3_derived.py (NIST SP 800-185
examples, RFC 9861 vectors, pycryptodome), run with python3 on pinned
pycryptodome packages that pip installs into target/kat-python.

options:
  --vectors DIR  read the .rsp files from DIR: the `hashes` folder of the PyPI
                 package cryptography-vectors 50.0.2 (holding SHA1/, SHA2/,
                 SHA3/, SHAKE/, MD5/), or a folder above it. Without this
                 option the package is fetched with `python3 -m pip download`
                 into target/kat-download and unpacked (with unzip, or
                 python3 -m zipfile).
  --check        generate in memory and fail if any committed file differs
  -h, --help     this text

Needs python3 (the MD5 oracle) in every mode.";

/// Run `cargo xtask kat` with the arguments after the command name.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let mut vectors: Option<PathBuf> = None;
    let mut check = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--vectors" => {
                let dir = args.next().ok_or("--vectors needs a folder")?;
                vectors = Some(PathBuf::from(dir));
            }
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(());
            }
            other => return Err(format!("unknown option `{other}`\n\n{HELP}")),
        }
    }

    let root = workspace_root();
    let dir = match vectors {
        Some(dir) => fetch::locate(&dir)?,
        None => fetch::download(&root)?,
    };
    eprintln!("kat: reading the vectors in {}", dir.display());

    let mut differing = Vec::new();
    let mut total_bytes = 0;
    let python = derived::packages(&root)?;
    let jobs = TARGETS
        .iter()
        .map(|target| (target.krate, target.file, Some(target)))
        .chain(derived::FILES.iter().map(|&file| ("sha3", file, None)));
    for (krate, file, target) in jobs {
        let text = match target {
            Some(target) => generate(target, &dir)?,
            None => {
                eprintln!("kat: running xtask/src/kat/sha3_derived.py {file}");
                derived::generate(&root, &python, file)?
            }
        };
        total_bytes += text.len();
        let relative = format!("{krate}/tests/data/{file}");
        let path = root.join(&relative);
        if check {
            match std::fs::read_to_string(&path) {
                Ok(old) if old.replace("\r\n", "\n") == text => eprintln!("kat: {relative} is up to date"),
                Ok(old) => {
                    let line = old
                        .lines()
                        .zip(text.lines())
                        .position(|(a, b)| a != b)
                        .map_or_else(|| old.lines().count().min(text.lines().count()) + 1, |index| index + 1);
                    eprintln!("kat: {relative} DIFFERS from the generator's output (first at line {line})");
                    differing.push(format!("{relative} (first difference at line {line})"));
                }
                Err(e) => {
                    eprintln!("kat: {relative} cannot be read: {e}");
                    differing.push(format!("{relative} (cannot be read: {e})"));
                }
            }
        } else {
            let folder = path.parent().expect("a file in tests/data");
            std::fs::create_dir_all(folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
            std::fs::write(&path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("kat: wrote {relative} ({} KiB)", text.len().div_ceil(1024));
        }
    }
    eprintln!(
        "kat: {} files, {:.1} MiB in all",
        TARGETS.len() + derived::FILES.len(),
        total_bytes as f64 / (1024.0 * 1024.0)
    );
    if differing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} vector file(s) differ from what `cargo xtask kat` generates:\n  {}\n\
             They are generated files: regenerate them with `cargo xtask kat --vectors DIR` \
             (or `cargo xtask kat`) instead of editing them.",
            differing.len(),
            differing.join("\n  ")
        ))
    }
}

/// The workspace root: the folder above this crate's.
fn workspace_root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().unwrap_or(xtask).to_path_buf()
}

/// One vector file.
struct Target {
    /// The crate folder (`sha256`).
    krate: &'static str,
    /// The file name in `<krate>/tests/data/`.
    file: &'static str,
    /// The algorithm and its specification, for the header.
    title: &'static str,
    /// The digest length in bytes (0 for an XOF).
    digest: usize,
    sections: &'static [(&'static str, Source)],
}

/// Where a section's records come from and how they are laid out.
#[derive(Clone, Copy)]
enum Source {
    /// `Len`/`Msg`/`MD` records of a fixed-output hash.
    Msg(&'static str),
    /// `Len`/`Msg`/`Output` records of an XOF, with `[Outputlen = bits]`.
    XofMsg(&'static str),
    /// SHAVS Monte Carlo (SHA-1, SHA-2): three-message chaining.
    ShavsMonte(&'static str),
    /// SHA3VS Monte Carlo (SHA-3): single-message chaining.
    Sha3vsMonte(&'static str),
    /// SHA3VS SHAKE Monte Carlo: variable output lengths.
    ShakeMonte(&'static str),
    /// SHA3VS SHAKE VariableOut: `Outputlen`/`Msg`/`Output`.
    VariableOut(&'static str),
    /// RFC 1321 §A.5's suite, as `Len`/`Msg`/`MD` records.
    Rfc1321(&'static str),
    /// MD5 of prefixes of a fixed byte pattern, from the oracle.
    Md5Pattern,
}

/// The sections of a SHA-1 or SHA-2 file: the .rsp files `DIR/STEM*.rsp`.
macro_rules! shavs {
    ($dir:literal, $stem:literal) => {
        &[
            ("ShortMsg", Source::Msg(concat!($dir, "/", $stem, "ShortMsg.rsp"))),
            ("LongMsg", Source::Msg(concat!($dir, "/", $stem, "LongMsg.rsp"))),
            ("Monte", Source::ShavsMonte(concat!($dir, "/", $stem, "Monte.rsp"))),
        ]
    };
}

/// The sections of a SHA-3 file.
macro_rules! sha3vs {
    ($stem:literal) => {
        &[
            ("ShortMsg", Source::Msg(concat!("SHA3/", $stem, "ShortMsg.rsp"))),
            ("LongMsg", Source::Msg(concat!("SHA3/", $stem, "LongMsg.rsp"))),
            ("Monte", Source::Sha3vsMonte(concat!("SHA3/", $stem, "Monte.rsp"))),
        ]
    };
}

/// The sections of a SHAKE file.
macro_rules! shake {
    ($stem:literal) => {
        &[
            ("ShortMsg", Source::XofMsg(concat!("SHAKE/", $stem, "ShortMsg.rsp"))),
            ("LongMsg", Source::XofMsg(concat!("SHAKE/", $stem, "LongMsg.rsp"))),
            ("VariableOut", Source::VariableOut(concat!("SHAKE/", $stem, "VariableOut.rsp"))),
            ("Monte", Source::ShakeMonte(concat!("SHAKE/", $stem, "Monte.rsp"))),
        ]
    };
}

/// Every vector file, in the order they are written.
const TARGETS: &[Target] = &[
    Target {
        krate: "md5",
        file: "md5.txt",
        title: "MD5 (RFC 1321)",
        digest: 16,
        sections: &[("RFC1321", Source::Rfc1321("MD5/rfc-1321.txt")), ("Pattern", Source::Md5Pattern)],
    },
    Target {
        krate: "sha1",
        file: "sha1.txt",
        title: "SHA-1 (FIPS 180-4 §6.1)",
        digest: 20,
        sections: shavs!("SHA1", "SHA1"),
    },
    Target {
        krate: "sha256",
        file: "sha224.txt",
        title: "SHA-224 (FIPS 180-4 §6.3)",
        digest: 28,
        sections: shavs!("SHA2", "SHA224"),
    },
    Target {
        krate: "sha256",
        file: "sha256.txt",
        title: "SHA-256 (FIPS 180-4 §6.2)",
        digest: 32,
        sections: shavs!("SHA2", "SHA256"),
    },
    Target {
        krate: "sha512",
        file: "sha384.txt",
        title: "SHA-384 (FIPS 180-4 §6.5)",
        digest: 48,
        sections: shavs!("SHA2", "SHA384"),
    },
    Target {
        krate: "sha512",
        file: "sha512.txt",
        title: "SHA-512 (FIPS 180-4 §6.4)",
        digest: 64,
        sections: shavs!("SHA2", "SHA512"),
    },
    Target {
        krate: "sha512",
        file: "sha512_224.txt",
        title: "SHA-512/224 (FIPS 180-4 §6.6)",
        digest: 28,
        sections: shavs!("SHA2", "SHA512_224"),
    },
    Target {
        krate: "sha512",
        file: "sha512_256.txt",
        title: "SHA-512/256 (FIPS 180-4 §6.7)",
        digest: 32,
        sections: shavs!("SHA2", "SHA512_256"),
    },
    Target {
        krate: "sha3",
        file: "sha3_224.txt",
        title: "SHA3-224 (FIPS 202 §6.1)",
        digest: 28,
        sections: sha3vs!("SHA3_224"),
    },
    Target {
        krate: "sha3",
        file: "sha3_256.txt",
        title: "SHA3-256 (FIPS 202 §6.1)",
        digest: 32,
        sections: sha3vs!("SHA3_256"),
    },
    Target {
        krate: "sha3",
        file: "sha3_384.txt",
        title: "SHA3-384 (FIPS 202 §6.1)",
        digest: 48,
        sections: sha3vs!("SHA3_384"),
    },
    Target {
        krate: "sha3",
        file: "sha3_512.txt",
        title: "SHA3-512 (FIPS 202 §6.1)",
        digest: 64,
        sections: sha3vs!("SHA3_512"),
    },
    Target {
        krate: "sha3",
        file: "shake128.txt",
        title: "SHAKE128 (FIPS 202 §6.2)",
        digest: 0,
        sections: shake!("SHAKE128"),
    },
    Target {
        krate: "sha3",
        file: "shake256.txt",
        title: "SHAKE256 (FIPS 202 §6.2)",
        digest: 0,
        sections: shake!("SHAKE256"),
    },
];

/// A generated section.
struct Section {
    /// `[Name]`, the comment lines, parameters and records.
    text: String,
    records: usize,
    /// Bit-oriented records left out.
    skipped: usize,
    /// Where the records came from, for the header.
    source: String,
}

impl Section {
    fn new(name: &str, source: String, comment: &str) -> Section {
        let mut text = format!("[{name}]\n");
        for line in comment.lines() {
            text.push_str(if line.is_empty() { "#" } else { "# " });
            text.push_str(line);
            text.push('\n');
        }
        Section { text, records: 0, skipped: 0, source }
    }

    fn param(&mut self, key: &str, value: impl std::fmt::Display) {
        let _ = writeln!(self.text, "[{key} = {value}]");
    }

    /// Append a record of `Key = value` fields.
    fn record(&mut self, fields: &[(&str, String)]) {
        self.text.push('\n');
        for (key, value) in fields {
            if value.is_empty() {
                let _ = writeln!(self.text, "{key} =");
            } else {
                let _ = writeln!(self.text, "{key} = {value}");
            }
        }
        self.records += 1;
    }
}

/// The full text of `target`'s vector file.
fn generate(target: &Target, dir: &Path) -> Result<String, String> {
    let mut sections = Vec::new();
    for &(name, source) in target.sections {
        let section = generate_section(target, name, source, dir)?;
        eprintln!(
            "kat: {:<14} [{name}] {} records from {}{}",
            target.file,
            section.records,
            section.source,
            if section.skipped > 0 { format!(" ({} bit-oriented skipped)", section.skipped) } else { String::new() }
        );
        sections.push((name, section));
    }

    let mut text = String::new();
    let _ = writeln!(text, "# {} known-answer vectors.", target.title);
    text.push_str(
        "#\n\
         # Generated by `cargo xtask kat`: do not edit. Regenerate from the workspace root with\n\
         #     cargo xtask kat --vectors DIR\n\
         # where DIR is the `hashes` folder of the PyPI package cryptography-vectors 50.0.2 (the\n\
         # NIST CAVP response files), or with plain `cargo xtask kat`, which fetches that package\n\
         # with pip; `cargo xtask kat --check` fails if this file differs from the generator's.\n\
         #\n\
         # Sources:\n",
    );
    for (name, section) in &sections {
        let _ = writeln!(text, "#     [{name}] {}", section.source);
    }
    text.push_str(
        "# Where each source comes from, and its licence: THIRD-PARTY.md at the workspace root.\n\
         #\n\
         # Format: `[Name]` starts a section, `[Key = value]` is a parameter of the section, and\n\
         # each record is a block of `Key = value` lines ended by a blank line. Lengths (Len,\n\
         # Outputlen, ...) are in bits; Msg, MD, Seed and Output are hex; MsgBase64 is a message\n\
         # in base64 (RFC 4648 §4, with padding), a third smaller than hex, for long messages.\n\
         # The test runner (hash_core::testing::kat) fails if a section holds a different number\n\
         # of records than the `records:` line below says.\n\
         #\n",
    );
    let counts: Vec<String> = sections.iter().map(|(name, s)| format!("{name} {}", s.records)).collect();
    let _ = writeln!(text, "# records: {}", counts.join(", "));
    let skipped: usize = sections.iter().map(|(_, s)| s.skipped).sum();
    let _ = writeln!(text, "# bit-oriented records skipped (length not a whole number of bytes): {skipped}");
    for (_, section) in &sections {
        text.push('\n');
        text.push_str(&section.text);
    }
    Ok(text)
}

fn generate_section(target: &Target, name: &str, source: Source, dir: &Path) -> Result<Section, String> {
    match source {
        Source::Msg(file) | Source::Rfc1321(file) => {
            let rsp = Rsp::read(dir, file)?;
            let comment = if matches!(source, Source::Rfc1321(_)) {
                format!("{file}: the test suite of RFC 1321 §A.5.")
            } else {
                format!("{file}.")
            };
            let mut section = Section::new(name, file.to_string(), &comment);
            for record in &rsp.records {
                let Some(msg) = record.message("Len")? else {
                    section.skipped += 1;
                    continue;
                };
                let md = record.hex("MD")?;
                if md.len() != target.digest {
                    return Err(format!("{}: MD has {} bytes, not {}", record.at(), md.len(), target.digest));
                }
                section.record(&[("Len", (msg.len() * 8).to_string()), message_field(name, &msg), ("MD", to_hex(&md))]);
            }
            Ok(section)
        }
        Source::XofMsg(file) => {
            let rsp = Rsp::read(dir, file)?;
            let bits = rsp.param_number("Outputlen")?;
            if !bits.is_multiple_of(8) {
                return Err(format!("{file}: Outputlen {bits} is not a whole number of bytes"));
            }
            let mut section = Section::new(name, file.to_string(), &format!("{file}; every output is Outputlen bits."));
            section.param("Outputlen", bits);
            for record in &rsp.records {
                let Some(msg) = record.message("Len")? else {
                    section.skipped += 1;
                    continue;
                };
                let output = record.hex("Output")?;
                if output.len() * 8 != bits {
                    return Err(format!("{}: Output has {} bytes, not {}", record.at(), output.len(), bits / 8));
                }
                section.record(&[
                    ("Len", (msg.len() * 8).to_string()),
                    message_field(name, &msg),
                    ("Output", to_hex(&output)),
                ]);
            }
            Ok(section)
        }
        Source::VariableOut(file) => {
            let rsp = Rsp::read(dir, file)?;
            let input_bits = rsp.param_number("Input Length")?;
            let mut section = Section::new(name, file.to_string(), &format!("{file}: Outputlen bits of output."));
            for record in &rsp.records {
                let bits = record.number("Outputlen")?;
                if !bits.is_multiple_of(8) || !input_bits.is_multiple_of(8) {
                    section.skipped += 1;
                    continue;
                }
                check_count(record, section.records + section.skipped)?;
                let msg = record.hex("Msg")?;
                let output = record.hex("Output")?;
                if msg.len() * 8 != input_bits || output.len() * 8 != bits {
                    return Err(format!("{}: Msg or Output length disagrees with the stated lengths", record.at()));
                }
                section.record(&[
                    ("COUNT", record.get("COUNT")?.to_string()),
                    ("Outputlen", bits.to_string()),
                    ("Msg", to_hex(&msg)),
                    ("Output", to_hex(&output)),
                ]);
            }
            Ok(section)
        }
        Source::ShavsMonte(file) | Source::Sha3vsMonte(file) => {
            let rsp = Rsp::read(dir, file)?;
            let comment = if matches!(source, Source::ShavsMonte(_)) {
                format!(
                    "{file}: the SHAVS Monte Carlo test (SHAVS, the pseudorandomly generated messages\n\
                     test, Figure 1). One record per checkpoint: with MD_0 = MD_1 = MD_2 = Seed, for i = 3\n\
                     to 1002, M_i = MD_(i-3) || MD_(i-2) || MD_(i-1) and MD_i = SHA(M_i); the record's MD\n\
                     is MD_1002, which is the next record's Seed. The .rsp file states only the first\n\
                     Seed; the generator copies each later one from the record before."
                )
            } else {
                format!(
                    "{file}: the SHA3VS Monte Carlo test. One record per checkpoint: with\n\
                     MD_0 = Seed, MD_i = SHA3(MD_(i-1)) for i = 1 to 1000; the record's MD is MD_1000,\n\
                     which is the next record's Seed. The .rsp file states only the first Seed; the\n\
                     generator copies each later one from the record before."
                )
            };
            let mut section = Section::new(name, file.to_string(), &comment);
            let mut seed = monte_start(&rsp, "Seed")?.hex("Seed")?;
            for record in rsp.records.iter().filter(|r| r.has("COUNT")) {
                check_count(record, section.records)?;
                let md = record.hex("MD")?;
                if md.len() != target.digest || seed.len() != target.digest {
                    return Err(format!("{}: Seed or MD is not {} bytes", record.at(), target.digest));
                }
                section.record(&[("COUNT", section.records.to_string()), ("Seed", to_hex(&seed)), ("MD", to_hex(&md))]);
                seed = md;
            }
            Ok(section)
        }
        Source::ShakeMonte(file) => {
            let rsp = Rsp::read(dir, file)?;
            let min_bits = rsp.param_number("Minimum Output Length (bits)")?;
            let max_bits = rsp.param_number("Maximum Output Length (bits)")?;
            if !min_bits.is_multiple_of(8) || !max_bits.is_multiple_of(8) || min_bits == 0 || min_bits > max_bits {
                return Err(format!("{file}: unusable output length range {min_bits}..={max_bits} bits"));
            }
            let comment = format!(
                "{file}: the SHAKE Monte Carlo test (SHA3VS §6.3.3), one record per checkpoint of 1000\n\
                 iterations. With Output_0 = Msg and a first output length of Startlen bits, iteration i\n\
                 hashes the leftmost 128 bits of Output_(i-1) (zero-padded if shorter) to Output_i of the\n\
                 current length; the next length in bytes is Min + (R mod (Max - Min + 1)), where R is\n\
                 the rightmost 16 bits of Output_i as a big-endian number and Min, Max are the\n\
                 parameters below in bytes. Outputlen and Output are those of iteration 1000. The next\n\
                 record's Msg and Startlen follow from this record's Output; the .rsp file states only\n\
                 the first Msg (the first Startlen is the maximum), and the generator derives the rest."
            );
            let mut section = Section::new(name, file.to_string(), &comment);
            section.param("Minimum Output Length (bits)", min_bits);
            section.param("Maximum Output Length (bits)", max_bits);
            let (min, max) = (min_bits / 8, max_bits / 8);
            let mut msg = monte_start(&rsp, "Msg")?.hex("Msg")?;
            if msg.len() != 16 {
                return Err(format!("{file}: the first Msg is not 128 bits"));
            }
            let mut start = max;
            for record in rsp.records.iter().filter(|r| r.has("COUNT")) {
                check_count(record, section.records)?;
                let bits = record.number("Outputlen")?;
                let output = record.hex("Output")?;
                if !bits.is_multiple_of(8) || output.len() * 8 != bits || !(min..=max).contains(&output.len()) {
                    return Err(format!("{}: Output is not Outputlen = {bits} bits within the range", record.at()));
                }
                section.record(&[
                    ("COUNT", section.records.to_string()),
                    ("Msg", to_hex(&msg)),
                    ("Startlen", (start * 8).to_string()),
                    ("Outputlen", bits.to_string()),
                    ("Output", to_hex(&output)),
                ]);
                msg = output.iter().copied().chain(std::iter::repeat(0)).take(16).collect();
                let r = usize::from(u16::from_be_bytes([output[output.len() - 2], output[output.len() - 1]]));
                start = min + r % (max - min + 1);
            }
            Ok(section)
        }
        Source::Md5Pattern => md5_pattern(name, dir),
    }
}

/// `Msg` in hex, or `MsgBase64` in the LongMsg sections.
fn message_field(section: &str, msg: &[u8]) -> (&'static str, String) {
    if section == "LongMsg" { ("MsgBase64", to_base64(msg)) } else { ("Msg", to_hex(msg)) }
}

/// The record that holds the Monte Carlo start value `key`, before the
/// first `COUNT` record.
fn monte_start<'a>(rsp: &'a Rsp, key: &str) -> Result<&'a Record, String> {
    rsp.records
        .iter()
        .take_while(|r| !r.has("COUNT"))
        .find(|r| r.has(key))
        .ok_or_else(|| format!("{}: no `{key} = ...` before the first COUNT", rsp.name))
}

/// The record's `COUNT` is `expected` (records are numbered 0, 1, ...).
fn check_count(record: &Record, expected: usize) -> Result<(), String> {
    let count = record.number("COUNT")?;
    if count == expected { Ok(()) } else { Err(format!("{}: COUNT = {count}, expected {expected}", record.at())) }
}

/// Byte `i` of the MD5 pattern: bits 24..32 of `i * 0x9E3779B1 mod 2^32`.
/// `hash_core::testing::kat` rebuilds the messages with the same rule.
fn pattern_byte(i: usize) -> u8 {
    ((i as u32).wrapping_mul(0x9E37_79B1) >> 24) as u8
}

/// Pattern message lengths in bytes: every length 0..=1024, then a few
/// multi-megabyte ones (a whole number of blocks, and lengths whose padding
/// does and does not spill into an extra block).
fn pattern_lengths() -> Vec<usize> {
    let mut lengths: Vec<usize> = (0..=1024).collect();
    lengths.extend([1 << 20, (2 << 20) + 56, (4 << 20) - 9]);
    lengths
}

fn md5_pattern(name: &str, dir: &Path) -> Result<Section, String> {
    let lengths = pattern_lengths();
    let longest = lengths.iter().copied().max().unwrap_or(0);
    let mut data: Vec<u8> = (0..longest).map(pattern_byte).collect();
    let mut ranges: Vec<(usize, usize)> = lengths.iter().map(|&n| (0, n)).collect();

    // Check the oracle on RFC 1321's own suite first.
    let rfc = Rsp::read(dir, "MD5/rfc-1321.txt")?;
    let mut expected = Vec::new();
    for record in &rfc.records {
        if let Some(msg) = record.message("Len")? {
            ranges.push((data.len(), data.len() + msg.len()));
            data.extend_from_slice(&msg);
            expected.push((record, record.hex("MD")?));
        }
    }
    eprintln!("kat: asking the MD5 oracle ({}) for {} digests", oracle::NAME, ranges.len());
    let digests = oracle::md5(&data, &ranges)?;
    for ((record, want), got) in expected.iter().zip(&digests[lengths.len()..]) {
        if want[..] != got[..] {
            return Err(format!(
                "{}: the MD5 oracle disagrees with RFC 1321 ({} vs {}): fix the oracle before trusting it",
                record.at(),
                to_hex(got),
                to_hex(want)
            ));
        }
    }

    let comment = format!(
        "MD5 of the first Len/8 bytes of the pattern P, computed by the oracle\n\
         {}. Byte i of P (i = 0, 1, 2, ...) is\n\
         (i * 0x9E3779B1 mod 2^32) >> 24, the top byte of a 32-bit Weyl sequence; the records\n\
         have no Msg field (the test rebuilds each message from P). Every length from 0 to 1024\n\
         bytes, then {} multi-megabyte messages. The oracle was first checked against the\n\
         RFC1321 section above.",
        oracle::NAME,
        lengths.len() - 1025
    );
    let mut section = Section::new(name, format!("oracle: {}", oracle::NAME), &comment);
    for (&len, digest) in lengths.iter().zip(&digests) {
        section.record(&[("Len", (len * 8).to_string()), ("MD", to_hex(digest))]);
    }
    Ok(section)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_starts_as_documented() {
        // 0x9E3779B1 * 1 = 0x9E3779B1; * 2 = 0x13C6EF362 -> 0x3C6EF362.
        assert_eq!([pattern_byte(0), pattern_byte(1), pattern_byte(2)], [0x00, 0x9e, 0x3c]);
    }

    #[test]
    fn targets_name_distinct_files() {
        let mut names: Vec<String> = TARGETS.iter().map(|t| format!("{}/{}", t.krate, t.file)).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TARGETS.len());
    }
}
