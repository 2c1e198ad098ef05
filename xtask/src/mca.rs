//! `cargo xtask mca`: cycles per block of every aarch64 backend's inner
//! loop, by LLVM's scheduling models of real cores (`llvm-mca`), beside the
//! same for OpenSSL's loops in Debian's arm64 `libcrypto`.
//!
//! A model, not a measurement: `llvm-mca` replays the loop body through a
//! core's published (or reverse-engineered) latencies, ports and widths,
//! with perfect branch prediction and every load hitting L1. What it sees
//! well is the dependency chain and port pressure of a loop; what it cannot
//! see (front-end, fusion, memory) it leaves out. `--x86` runs the same
//! procedure on our x86-64 loops with `-mcpu=znver3` beside cycles measured
//! on this machine, to show how far the model is to be trusted.
//!
//! Steps: cross-build `bench/peers`' `differential` program (every backend
//! of every crate, release profile) for `aarch64-unknown-linux-gnu` with
//! Debian's `rustc-web` into `target/aarch64`, as `.ci/aarch64` does; list
//! its functions with `llvm-objdump-19`; in each backend's function find the
//! loop (a backward branch) that holds the instruction that marks the
//! algorithm's round (`sha256h`, `bcax`, ...); count the rounds in it (so
//! the number of interleaved streams is read from the code, not assumed);
//! write the loop body out as assembly and run `llvm-mca-19 -iterations`.
//! OpenSSL's `libcrypto` has no symbols for its assembly, so its loops are
//! found by the same marks, or (scalar code) as the first loop after the
//! `adr` that loads the round-constant table, whose address is found by
//! searching the library for the constants (FIPS 180-4 §4.2.3, FIPS 202
//! §3.2.5).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const HELP: &str = "usage: cargo xtask mca [--no-build] [--iterations N] [--x86]

Cross-builds bench/peers' `differential` program for aarch64-unknown-linux-gnu
(Debian's rustc-web, target/aarch64, as .ci/aarch64 does), finds every aarch64
backend's per-block loop and OpenSSL's in Debian's arm64 libcrypto, and prints
cycles per block (per round for Keccak) by llvm-mca-19's models of Cortex-A72,
Neoverse N1, V1, V2, Apple M1 and M4: a model, not a measurement.

options:
  --no-build      use the binary already in target/aarch64
  --iterations N  llvm-mca iterations of each loop (default 200)
  --x86           also model our x86-64 loops with -mcpu=znver3 beside cycles
                  measured on this machine (builds the native release program)
  -h, --help      this text

Needs (Debian/Ubuntu; installed with apt-get when run as root): rustc-web,
libstd-rust-web-dev:arm64, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross,
llvm-19, libssl3:arm64.";

/// The core models: `llvm-mca` CPU name, its column title, and the
/// extensions the real core has that LLVM does not switch on by default for
/// it (the crypto extensions are optional in Arm's cores; these are the
/// ones shipped in the parts people run: Graviton 2 = N1, Graviton 3 = V1,
/// Graviton 4 = V2, Raspberry Pi 4 = A72 without them, most A72 boards with
/// SHA-2). Cortex-A72 and Neoverse N1 have no SHA-512 or SHA-3 instructions.
const CPUS: &[(&str, &str, &str)] = &[
    ("cortex-a72", "Cortex-A72", "+sha2"),
    ("neoverse-n1", "Neoverse N1", "+sha2"),
    ("neoverse-v1", "Neoverse V1", "+sha2,+sha3"),
    ("neoverse-v2", "Neoverse V2", "+sha2,+sha3"),
    ("apple-m1", "Apple M1", ""),
    ("apple-m4", "Apple M4", ""),
];

const TARGET: &str = "aarch64-unknown-linux-gnu";
const LIBCRYPTO: &str = "/usr/lib/aarch64-linux-gnu/libcrypto.so.3";
const OBJDUMP: &str = "llvm-objdump-19";
const MCA: &str = "llvm-mca-19";

/// An instruction that marks a loop: its mnemonic (empty: any), and text
/// its operands must contain (empty: any).
#[derive(Clone, Copy, Debug)]
struct Mark(&'static str, &'static str);

impl Mark {
    fn matches(&self, insn: &Insn) -> bool {
        (self.0.is_empty() || insn.mnemonic == self.0) && insn.operands.contains(self.1)
    }
}

/// Where a loop lives.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// In our binary: a function whose demangled name, less its `::h<hash>`
    /// suffix, is this.
    Ours(&'static str),
    /// In OpenSSL's libcrypto, anywhere.
    OpenSsl,
    /// In OpenSSL's libcrypto: the first loop after the `adr` of the table
    /// that starts with these 8 bytes (little-endian constants).
    OpenSslAfterTable(&'static [u8]),
}

/// How the loop is chosen and what one pass of it does.
#[derive(Clone, Copy, Debug)]
struct Spec {
    /// Row title.
    title: &'static str,
    place: Place,
    /// The innermost loop holding this instruction (or, with `outer`, the
    /// outermost); `None` with `OpenSslAfterTable`.
    mark: Option<Mark>,
    outer: bool,
    /// Units (blocks, rounds) per pass: the count of this instruction in
    /// the loop divided by the second field; `None`: one.
    unit: Option<(Mark, usize)>,
    /// Which instance, when several functions match: the one with this many
    /// units per pass.
    units: Option<usize>,
    /// Divisor for results per state or lane on top of units (2 Keccak
    /// states in one register).
    per: usize,
    /// Passes of each loop nested in the chosen one, per pass of it.
    inner_trips: usize,
    /// No loop: the whole function is one pass (code unrolled by LLVM).
    whole: bool,
    /// The OpenSSL row this one is compared with (its title), if any.
    versus: Option<&'static str>,
}

const fn spec(title: &'static str, place: Place, mark: Option<Mark>) -> Spec {
    Spec {
        title,
        place,
        mark,
        outer: false,
        unit: None,
        units: None,
        per: 1,
        inner_trips: 0,
        whole: false,
        versus: None,
    }
}

/// K512[0..1] (FIPS 180-4 §4.2.3) and Keccak's RC[0..1] (FIPS 202
/// §3.2.5), little-endian: the tables OpenSSL's scalar loops start from.
const K512_HEAD: &[u8] = &0x428a_2f98_d728_ae22_u64.to_le_bytes();
const IOTA_HEAD: &[u8] = &[1, 0, 0, 0, 0, 0, 0, 0, 0x82, 0x80, 0, 0, 0, 0, 0, 0];

const SHA1_ROUND: Mark = Mark("sha1h", "");
const SHA256_ROUND: Mark = Mark("sha256h", "");
const SHA512_ROUND: Mark = Mark("sha512h", "");
const CHI: Mark = Mark("bcax", "");
const SCALAR_CHI: Mark = Mark("bic", "");

const O_SHA1: &str = "SHA-1 OpenSSL `sha1_block_armv8`";
const O_SHA256: &str = "SHA-256 OpenSSL `sha256_block_armv8`";
const O_SHA512: &str = "SHA-512 OpenSSL `sha512_block_armv8`";
const O_SHA512_SCALAR: &str = "SHA-512 OpenSSL `sha512_block_data_order` (scalar)";
const O_MD5: &str = "MD5 OpenSSL `md5_block_data_order` (C, no aarch64 assembly in 3.0)";
const O_KECCAK: &str = "Keccak round OpenSSL `KeccakF1600_ce`";
const O_KECCAK_SCALAR: &str = "Keccak round OpenSSL `KeccakF1600_int` (scalar)";

/// Every row of the table, OpenSSL's first in each group.
fn specs() -> Vec<Spec> {
    let ours = |title, function, mark, unit: (Mark, usize), units, versus| Spec {
        unit: Some(unit),
        units: Some(units),
        versus: Some(versus),
        ..spec(title, Place::Ours(function), Some(mark))
    };
    let sha1 = "sha1::backend::aarch64_sha::";
    let sha256 = "sha256::backend::aarch64_sha::";
    let sha512 = "sha512::backend::aarch64_sha512::";
    let md5_lanes = Place::Ours("md5::backend::aarch64_neon::compress_lanes");
    // A rotation is `shl` + `sri`, which LLVM turns into `shl` + `usra`
    // (the halves do not overlap); 60 per group of 4 lanes per block, the 4
    // rotations by 16 being `rev32 .8h`.
    let rotate = Mark("usra", "");
    vec![
        Spec { unit: Some((SHA1_ROUND, 20)), ..spec(O_SHA1, Place::OpenSsl, Some(SHA1_ROUND)) },
        ours("SHA-1 `arm-sha`, 1 stream", leak(sha1, "compress"), SHA1_ROUND, (SHA1_ROUND, 20), 1, O_SHA1),
        ours(
            "SHA-1 `arm-sha`, 2 streams, per block",
            leak(sha1, "compress_lanes"),
            SHA1_ROUND,
            (SHA1_ROUND, 20),
            2,
            O_SHA1,
        ),
        ours(
            "SHA-1 `arm-sha`, 3 streams, per block",
            leak(sha1, "compress_lanes"),
            SHA1_ROUND,
            (SHA1_ROUND, 20),
            3,
            O_SHA1,
        ),
        Spec { unit: Some((SHA256_ROUND, 16)), ..spec(O_SHA256, Place::OpenSsl, Some(SHA256_ROUND)) },
        ours("SHA-256 `arm-sha`, 1 stream", leak(sha256, "compress"), SHA256_ROUND, (SHA256_ROUND, 16), 1, O_SHA256),
        ours(
            "SHA-256 `arm-sha`, 2 streams, per block",
            leak(sha256, "compress_lanes"),
            SHA256_ROUND,
            (SHA256_ROUND, 16),
            2,
            O_SHA256,
        ),
        ours(
            "SHA-256 `arm-sha`, 3 streams, per block",
            leak(sha256, "compress_lanes"),
            SHA256_ROUND,
            (SHA256_ROUND, 16),
            3,
            O_SHA256,
        ),
        Spec { unit: Some((SHA512_ROUND, 40)), ..spec(O_SHA512, Place::OpenSsl, Some(SHA512_ROUND)) },
        ours("SHA-512 `arm-sha512`, 1 stream", leak(sha512, "compress"), SHA512_ROUND, (SHA512_ROUND, 40), 1, O_SHA512),
        ours(
            "SHA-512 `arm-sha512`, 2 streams, per block",
            leak(sha512, "compress2"),
            SHA512_ROUND,
            (SHA512_ROUND, 40),
            2,
            O_SHA512,
        ),
        Spec { inner_trips: 4, ..spec(O_SHA512_SCALAR, Place::OpenSslAfterTable(K512_HEAD), None) },
        Spec {
            outer: true,
            inner_trips: 4,
            versus: Some(O_SHA512_SCALAR),
            ..spec(
                "SHA-512 `aarch64` (scalar)",
                Place::Ours("sha512::backend::aarch64_scalar::compress"),
                Some(Mark("ror", "")),
            )
        },
        Spec { outer: true, ..spec(O_MD5, Place::OpenSsl, Some(Mark("movk", "#0xd76a, lsl #16"))) },
        Spec {
            outer: true,
            versus: Some(O_MD5),
            ..spec(
                "MD5 `aarch64` (scalar asm)",
                Place::Ours("md5::backend::aarch64_asm::compress"),
                Some(Mark("ror", "")),
            )
        },
        Spec {
            unit: Some((rotate, 60)),
            units: Some(1),
            per: 4,
            versus: Some(O_MD5),
            ..spec("MD5 `aarch64` NEON, 4 lanes, per block", md5_lanes, Some(rotate))
        },
        Spec {
            unit: Some((rotate, 60)),
            units: Some(2),
            per: 4,
            versus: Some(O_MD5),
            ..spec("MD5 `aarch64` NEON, 8 lanes, per block", md5_lanes, Some(rotate))
        },
        Spec { unit: Some((CHI, 25)), ..spec(O_KECCAK, Place::OpenSsl, Some(CHI)) },
        Spec {
            unit: Some((CHI, 25)),
            units: Some(2),
            versus: Some(O_KECCAK),
            ..spec("Keccak round `arm-sha3`, 1 state", Place::Ours("sha3::backend::aarch64_sha3::permute"), Some(CHI))
        },
        Spec {
            unit: Some((CHI, 25)),
            units: Some(2),
            per: 2,
            versus: Some(O_KECCAK),
            ..spec(
                "Keccak round `arm-sha3`, 2 states, per state",
                Place::Ours("sha3::backend::aarch64_sha3::absorb2"),
                Some(CHI),
            )
        },
        Spec { unit: Some((SCALAR_CHI, 25)), ..spec(O_KECCAK_SCALAR, Place::OpenSslAfterTable(IOTA_HEAD), None) },
        Spec {
            whole: true,
            unit: Some((SCALAR_CHI, 25)),
            units: Some(24),
            versus: Some(O_KECCAK_SCALAR),
            ..spec(
                "Keccak round `aarch64` (scalar: the whole unrolled 24-round `permute`)",
                Place::Ours("sha3::backend::aarch64_keccak::permute"),
                None,
            )
        },
    ]
}

/// `module` + `name`, as a `'static` string (a handful, once per run).
fn leak(module: &str, name: &str) -> &'static str {
    Box::leak(format!("{module}{name}").into_boxed_str())
}

/// One disassembled instruction.
#[derive(Clone, Debug)]
struct Insn {
    addr: u64,
    mnemonic: String,
    operands: String,
}

impl Insn {
    /// The target of a branch back to `addr` or before.
    fn backward_target(&self) -> Option<u64> {
        let m = self.mnemonic.as_str();
        let branch =
            m == "b" || m.starts_with("b.") || matches!(m, "cbz" | "cbnz" | "tbz" | "tbnz") || m.starts_with('j');
        if !branch {
            return None;
        }
        let t = address_in(&self.operands)?;
        (t <= self.addr).then_some(t)
    }

    /// The line `llvm-mca` gets: addresses (branch targets, `adr`) become
    /// the label `.Ltop`, objdump's comments go.
    fn assembly(&self) -> String {
        if self.operands.contains('%') || self.mnemonic.starts_with('j') {
            return self.assembly_x86();
        }
        let ops = self.operands.split("//").next().unwrap_or("").trim();
        let mut out = String::new();
        let mut rest = ops;
        while let Some(i) = rest.find("0x") {
            let hashed = rest[..i].ends_with('#') || rest[..i].ends_with("#-");
            out.push_str(&rest[..i]);
            let end = rest[i + 2..].find(|c: char| !c.is_ascii_hexdigit()).map_or(rest.len(), |e| i + 2 + e);
            if hashed {
                out.push_str(&rest[i..end]);
                rest = &rest[end..];
            } else {
                out.push_str(".Ltop");
                rest = rest[end..].trim_start();
                if rest.starts_with('<') {
                    rest = rest.find('>').map_or("", |e| &rest[e + 1..]);
                }
            }
        }
        out.push_str(rest);
        format!("{}\t{}", self.mnemonic, out.trim_end())
    }

    /// An x86-64 line (AT&T syntax): the comment (`# 0x...`) goes, and a
    /// jump's target becomes `.Ltop`; displacements stay.
    fn assembly_x86(&self) -> String {
        let ops = self.operands.split('#').next().unwrap_or("").trim();
        if self.mnemonic.starts_with('j') {
            format!("{}\t.Ltop", self.mnemonic)
        } else {
            format!("{}\t{ops}", self.mnemonic).trim_end().to_string()
        }
    }
}

/// The first `0x...` address not preceded by `#` in objdump's operands.
fn address_in(operands: &str) -> Option<u64> {
    let mut rest = operands;
    while let Some(i) = rest.find("0x") {
        let hex: String = rest[i + 2..].chars().take_while(char::is_ascii_hexdigit).collect();
        if !rest[..i].ends_with('#') && !rest[..i].ends_with("#-") {
            return u64::from_str_radix(&hex, 16).ok();
        }
        rest = &rest[i + 2 + hex.len()..];
    }
    None
}

/// `llvm-objdump -d` text split into functions (symbol name less the
/// `::h<hash>` suffix, and its instructions). libcrypto has no symbols: one
/// function per section then.
fn parse_objdump(text: &str) -> Vec<(String, Vec<Insn>)> {
    let mut out: Vec<(String, Vec<Insn>)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_suffix(">:").and_then(|l| l.split_once(" <")).map(|(_, n)| n) {
            out.push((strip_hash(name).to_string(), Vec::new()));
            continue;
        }
        let Some((addr, rest)) = line.trim_start().split_once(':') else { continue };
        let Ok(addr) = u64::from_str_radix(addr, 16) else { continue };
        let mut parts = rest.trim().splitn(2, char::is_whitespace);
        let Some(mnemonic) = parts.next().filter(|m| !m.is_empty()) else { continue };
        let operands = parts.next().unwrap_or("").trim().to_string();
        if let Some((_, insns)) = out.last_mut() {
            insns.push(Insn { addr, mnemonic: mnemonic.to_string(), operands });
        }
    }
    out
}

/// `a::b::h0123456789abcdef` → `a::b`.
fn strip_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((head, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => head,
        _ => name,
    }
}

/// A loop: the instructions from a backward branch's target to the branch.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    end: usize,
}

/// Every loop in `insns`, as index ranges.
fn loops(insns: &[Insn]) -> Vec<Span> {
    let mut out = Vec::new();
    for (end, insn) in insns.iter().enumerate() {
        if let Some(t) = insn.backward_target()
            && let Ok(start) = insns.binary_search_by_key(&t, |i| i.addr)
        {
            out.push(Span { start, end });
        }
    }
    out
}

/// The loop body of one pass, inner loops unrolled `trips` times, as
/// instructions (the first an anchor for the `.Ltop` label).
fn trace<'a>(insns: &'a [Insn], span: Span, all: &[Span], trips: usize) -> Result<Vec<&'a Insn>, String> {
    let inner: Vec<Span> =
        all.iter().copied().filter(|l| l.start >= span.start && l.end < span.end && l.start > span.start).collect();
    if !inner.is_empty() && trips == 0 {
        return Err(format!("{} inner loop(s) where none was expected", inner.len()));
    }
    let mut out = Vec::new();
    let mut i = span.start;
    while i <= span.end {
        if let Some(l) = inner.iter().find(|l| l.start == i) {
            let body = &insns[l.start..=l.end];
            for _ in 0..trips {
                out.extend(body.iter());
            }
            i = l.end + 1;
        } else {
            out.push(&insns[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// A found loop, ready for `llvm-mca`.
#[derive(Debug)]
struct Found {
    /// Instructions per pass.
    asm: Vec<String>,
    /// Units (blocks or rounds) per pass, times the `per` divisor.
    divisor: usize,
    /// Where it is: function and address range.
    location: String,
}

/// Find `spec`'s loop in `functions`; `tables`: libcrypto's bytes and
/// its sections, for [`Place::OpenSslAfterTable`].
fn find(spec: &Spec, functions: &[(String, Vec<Insn>)], tables: Option<&Image>) -> Result<Found, String> {
    let candidates: Vec<&(String, Vec<Insn>)> = match spec.place {
        Place::Ours(name) => functions.iter().filter(|(n, _)| n == name).collect(),
        Place::OpenSsl | Place::OpenSslAfterTable(_) => functions.iter().collect(),
    };
    if candidates.is_empty() {
        return Err("no such function in the binary".into());
    }
    let mut seen = Vec::new();
    for (name, insns) in candidates {
        let all = loops(insns);
        let spans: Vec<Span> = match (spec.place, spec.mark) {
            (_, _) if spec.whole => vec![Span { start: 0, end: insns.len().saturating_sub(1) }],
            (Place::OpenSslAfterTable(head), _) => {
                let image = tables.ok_or("no libcrypto image")?;
                let table = image.find(head).ok_or("round-constant table not found in libcrypto")?;
                let Some(adr) =
                    insns.iter().position(|i| i.mnemonic == "adr" && address_in(&i.operands) == Some(table))
                else {
                    continue;
                };
                // The outermost loop starting first after the `adr`.
                let first = all.iter().filter(|l| l.start > adr).map(|l| l.start).min();
                first
                    .into_iter()
                    .filter_map(|f| all.iter().copied().filter(|l| l.start == f).max_by_key(|l| l.end))
                    .collect()
            }
            (_, Some(mark)) => {
                // Indexes of the marking instructions, to test each loop
                // with a binary search (libcrypto has 600 000 instructions).
                let marks: Vec<usize> = (0..insns.len()).filter(|&k| mark.matches(&insns[k])).collect();
                let holding = |l: &&Span| {
                    let k = marks.partition_point(|&m| m < l.start);
                    marks.get(k).is_some_and(|&m| m <= l.end)
                };
                let mut spans: Vec<Span> = all.iter().filter(holding).copied().collect();
                spans.sort_by_key(|l| l.end - l.start);
                if spec.outer {
                    spans.reverse();
                }
                spans
            }
            (_, None) => return Err("a spec with neither mark nor table".into()),
        };
        for span in spans {
            let trips = if spec.whole { 1 } else { spec.inner_trips };
            let body = if spec.whole {
                insns.iter().collect()
            } else {
                match trace(insns, span, &all, trips) {
                    Ok(body) => body,
                    Err(_) => continue,
                }
            };
            let units = match spec.unit {
                Some((mark, per_unit)) => {
                    let n = body.iter().filter(|i| mark.matches(i)).count();
                    if n == 0 || n % per_unit != 0 {
                        seen.push(n as f64 / per_unit as f64);
                        continue;
                    }
                    n / per_unit
                }
                None => 1,
            };
            if spec.units.is_some_and(|u| u != units) {
                seen.push(units as f64);
                continue;
            }
            let location = format!(
                "{name} {:#x}..{:#x}, {} instructions per pass",
                insns[span.start].addr,
                insns[span.end].addr,
                body.len()
            );
            return Ok(Found { asm: body.iter().map(|i| i.assembly()).collect(), divisor: units * spec.per, location });
        }
    }
    Err(match spec.units {
        Some(u) => format!("no loop of {u} units per pass (found loops of {seen:?} units)"),
        None => "no loop holding the marking instruction".into(),
    })
}

/// A file's bytes and its sections' (address, file offset, size), to turn
/// a place in the file into an address.
struct Image {
    bytes: Vec<u8>,
    sections: Vec<(u64, u64, u64)>,
}

impl Image {
    fn load(path: &Path) -> Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        // `llvm-readelf -S`: [Nr] Name Type Address Off Size ...
        let text = output(Command::new("llvm-readelf-19").arg("-SW").arg(path))?;
        let mut sections = Vec::new();
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix('[').and_then(|l| l.split_once(']')).map(|(_, r)| r) else {
                continue;
            };
            let f: Vec<&str> = rest.split_whitespace().collect();
            if f.len() >= 5
                && let (Ok(a), Ok(o), Ok(s)) =
                    (u64::from_str_radix(f[2], 16), u64::from_str_radix(f[3], 16), u64::from_str_radix(f[4], 16))
                && a != 0
            {
                sections.push((a, o, s));
            }
        }
        Ok(Image { bytes, sections })
    }

    /// The address of the first occurrence of `needle`, 8-byte aligned.
    fn find(&self, needle: &[u8]) -> Option<u64> {
        let off = (0..self.bytes.len().saturating_sub(needle.len()))
            .step_by(8)
            .find(|&i| self.bytes[i..].starts_with(needle))? as u64;
        self.sections.iter().find(|&&(_, o, s)| off >= o && off < o + s).map(|&(a, o, _)| a + off - o)
    }
}

/// Run `cmd`, its stdout as text, or an error naming it.
fn output(cmd: &mut Command) -> Result<String, String> {
    let shown = format!("{cmd:?}");
    let out = cmd.stderr(Stdio::piped()).output().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{shown} failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Cycles per pass of `asm` on `cpu` by `llvm-mca` (`Total Cycles` over
/// the iterations), or why there is none (an instruction the core lacks).
fn mca(asm: &[String], cpu: &str, attrs: &str, triple: &str, iterations: u32, file: &Path) -> Result<f64, String> {
    let mut text = String::from(".Ltop:\n");
    for line in asm {
        text.push_str(line);
        text.push('\n');
    }
    std::fs::write(file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut cmd = Command::new(MCA);
    cmd.arg(format!("-mtriple={triple}")).arg(format!("-mcpu={cpu}")).arg(format!("-iterations={iterations}"));
    if !attrs.is_empty() {
        cmd.arg(format!("-mattr={attrs}"));
    }
    let out = cmd.arg(file).output().map_err(|e| format!("cannot run {MCA}: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(match err.lines().find(|l| l.contains("instruction requires:")) {
            Some(l) => format!("no {}", l.rsplit("requires:").next().unwrap_or("").trim()),
            None => format!("{MCA} failed: {}", err.lines().next().unwrap_or("").trim()),
        });
    }
    let total: f64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Total Cycles:"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or("no `Total Cycles` in llvm-mca's output")?;
    Ok(total / f64::from(iterations))
}

/// Whether `tool` runs.
fn have(tool: &str, arg: &str) -> bool {
    Command::new(tool).arg(arg).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Install the Debian packages not yet installed (as root), or say which
/// are missing.
fn ensure_packages(packages: &[&str]) -> Result<(), String> {
    let missing: Vec<&str> = packages
        .iter()
        .copied()
        .filter(|p| {
            !Command::new("dpkg-query")
                .args(["-W", "-f=${Status}", p])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("ok installed"))
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let is_root = output(Command::new("id").arg("-u")).is_ok_and(|u| u.trim() == "0");
    if !is_root {
        return Err(format!(
            "missing Debian packages: {}; install them with\n  sudo dpkg --add-architecture arm64 && sudo apt-get update && sudo apt-get install {}",
            missing.join(" "),
            missing.join(" ")
        ));
    }
    eprintln!("mca: installing {}", missing.join(" "));
    let foreign = output(Command::new("dpkg").arg("--print-foreign-architectures")).unwrap_or_default();
    if !foreign.lines().any(|l| l == "arm64") {
        output(Command::new("dpkg").args(["--add-architecture", "arm64"]))?;
    }
    output(Command::new("apt-get").args(["update", "-qq"]))?;
    output(
        Command::new("apt-get").args(["install", "-y", "-qq"]).args(&missing).env("DEBIAN_FRONTEND", "noninteractive"),
    )?;
    Ok(())
}

struct Options {
    build: bool,
    iterations: u32,
    x86: bool,
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut opts = Options { build: true, iterations: 200, x86: false };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--no-build" => opts.build = false,
            "--x86" => opts.x86 = true,
            "--iterations" => {
                let n = args.next().ok_or("--iterations needs a number")?;
                opts.iterations = match n.parse() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(format!("--iterations: `{n}` is not a positive whole number")),
                };
            }
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(None);
            }
            other => return Err(format!("unknown option `{other}`\n\n{HELP}")),
        }
    }
    Ok(Some(opts))
}

/// The workspace root (xtask's parent).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// The features of `bench/peers` the `differential` program is built with
/// (as `.ci/aarch64` builds it, so that each reuses the other's build).
const PEER_FEATURES: &str = "md5,sha1,sha256,sha512,sha3,openssl";

/// Cross-build the `differential` program for aarch64; its path.
fn build_aarch64(root: &Path, build: bool) -> Result<PathBuf, String> {
    let target_dir = root.join("target/aarch64");
    let bin = target_dir.join(TARGET).join("release/differential");
    if !build {
        return if bin.exists() { Ok(bin) } else { Err(format!("--no-build: {} does not exist", bin.display())) };
    }
    eprintln!("mca: cross-building bench/peers' differential program for {TARGET} (Debian rustc-web, target/aarch64)");
    let status = Command::new("cargo")
        .current_dir(root)
        .args(["build", "--release", "--target", TARGET, "--manifest-path", "bench/peers/Cargo.toml"])
        .args(["--no-default-features", "--features", PEER_FEATURES, "--bin", "differential"])
        .env("RUSTC", "/usr/bin/rustc")
        .env("RUSTDOC", "/usr/bin/rustdoc")
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", "aarch64-linux-gnu-gcc")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("the aarch64 build of the differential program failed (see above)".into());
    }
    Ok(bin)
}

/// Disassemble `path` (Rust names demangled) into functions.
fn disassemble(path: &Path) -> Result<Vec<(String, Vec<Insn>)>, String> {
    eprintln!("mca: disassembling {}", path.display());
    let text = output(Command::new(OBJDUMP).args(["-d", "-C", "--no-show-raw-insn"]).arg(path))?;
    Ok(parse_objdump(&text))
}

/// A result row: its title, where the loop is, and per core model the
/// cycles per unit or why there are none.
struct Row {
    spec: Spec,
    location: Result<String, String>,
    cells: Vec<Result<f64, String>>,
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let Some(opts) = parse_args(args)? else { return Ok(()) };
    ensure_packages(&[
        "rustc-web",
        "libstd-rust-web-dev:arm64",
        "gcc-aarch64-linux-gnu",
        "libc6-dev-arm64-cross",
        "llvm-19",
        "libssl3:arm64",
    ])?;
    if !have(MCA, "--version") || !have(OBJDUMP, "--version") {
        return Err(format!("{MCA} and {OBJDUMP} must be on PATH (Debian package llvm-19)"));
    }
    let root = root();
    let bin = build_aarch64(&root, opts.build)?;
    let ours = disassemble(&bin)?;
    // libcrypto's assembly has no symbols of its own (objdump names each
    // instruction after the nearest exported one): one function it is.
    let theirs =
        vec![("libcrypto".to_string(), disassemble(Path::new(LIBCRYPTO))?.into_iter().flat_map(|(_, i)| i).collect())];
    let image = Image::load(Path::new(LIBCRYPTO))?;
    let dir = root.join("target/mca");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;

    let mut rows = Vec::new();
    for spec in specs() {
        let functions = if matches!(spec.place, Place::Ours(_)) { &ours } else { &theirs };
        let found = find(&spec, functions, Some(&image));
        eprintln!(
            "mca: {}: {}",
            spec.title,
            match &found {
                Ok(f) => f.location.clone(),
                Err(e) => format!("not found: {e}"),
            }
        );
        let cells = CPUS
            .iter()
            .map(|&(cpu, _, attrs)| match &found {
                Ok(f) => mca(&f.asm, cpu, attrs, "aarch64", opts.iterations, &dir.join(slug(spec.title)))
                    .map(|c| c / f.divisor as f64),
                Err(_) => Err("–".into()),
            })
            .collect();
        rows.push(Row { spec, location: found.map(|f| f.location), cells });
    }
    let table = render(&rows, opts.iterations);
    println!("{table}");
    std::fs::write(dir.join("table.md"), &table).map_err(|e| format!("target/mca/table.md: {e}"))?;
    eprintln!("mca: written to target/mca/table.md");
    let missing: Vec<&str> = rows.iter().filter(|r| r.location.is_err()).map(|r| r.spec.title).collect();
    if opts.x86 {
        x86(&root, opts.iterations, &dir)?;
    }
    if !missing.is_empty() {
        return Err(format!("loops not found: {}", missing.join("; ")));
    }
    Ok(())
}

/// The table in Markdown: cycles per block (per round for Keccak), and for
/// our rows the ratio to OpenSSL's.
fn render(rows: &[Row], iterations: u32) -> String {
    let by_title: BTreeMap<&str, &Row> = rows.iter().map(|r| (r.spec.title, r)).collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Modelled cycles per block (per round for Keccak) by `llvm-mca-19 -iterations={iterations}`; \
         ours as `cycles (ratio to OpenSSL's)`; `–`: the core has no such instructions (no SHA-512 or SHA-3 \
         extension). A model, not a measurement.\n"
    );
    s.push_str("| loop |");
    for (_, title, _) in CPUS {
        let _ = write!(s, " {title} |");
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(CPUS.len()));
    s.push('\n');
    for row in rows {
        let _ = write!(s, "| {} |", row.spec.title);
        if row.location.is_err() {
            s.push_str(&" not found |".repeat(CPUS.len()));
            s.push('\n');
            continue;
        }
        let base = row.spec.versus.and_then(|t| by_title.get(t));
        for (i, cell) in row.cells.iter().enumerate() {
            let text = match (cell, base.map(|b| &b.cells[i])) {
                (Ok(c), Some(Ok(b))) => format!("{} ({:.2})", fmt_cycles(*c), c / b),
                (Ok(c), _) => fmt_cycles(*c),
                (Err(e), _) if e == "–" || e.starts_with("no ") => "–".to_string(),
                (Err(e), _) => format!("– ({e})"),
            };
            let _ = write!(s, " {text} |");
        }
        s.push('\n');
    }
    s
}

/// A file name for a row's loop: `target/mca/<slug>.s`.
fn slug(title: &str) -> String {
    let mut s: String =
        title.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    while s.contains("--") {
        s = s.replace("--", "-");
    }
    format!("{}.s", s.trim_matches('-'))
}

/// Cycles with one decimal below 100, whole above.
fn fmt_cycles(c: f64) -> String {
    if c < 100.0 { format!("{c:.1}") } else { format!("{c:.0}") }
}

/// An x86 row: title, function, unit, `cycles` subject.
type X86Row = (&'static str, &'static str, Option<(Mark, usize)>, &'static str);

/// The x86 rows: our function, the marking instruction (or the outermost
/// loop of the function), units per block, and the `cycles` example's
/// `ALGO:BACKEND` that times the same code.
const X86: &[X86Row] = &[
    ("SHA-256 `sha-ni`", "sha256::backend::x86_shani::compress", Some((Mark("sha256rnds2", ""), 32)), "sha256:sha-ni"),
    ("SHA-1 `sha-ni`", "sha1::backend::x86_shani::compress", Some((Mark("sha1rnds4", ""), 20)), "sha1:sha-ni"),
    ("MD5 `x86` (scalar)", "md5::backend::x86_asm::compress", None, "md5:x86"),
];

/// The x86 check: our x86-64 loops in the `cycles` example program by
/// `llvm-mca -mcpu=znver3`, beside what the same program measures.
fn x86(root: &Path, iterations: u32, dir: &Path) -> Result<(), String> {
    eprintln!("mca: building the `cycles` example (native, release)");
    let status = Command::new("cargo")
        .current_dir(root)
        .args(["build", "--release", "-p", "bench", "--example", "cycles"])
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("the build of the cycles example failed (see above)".into());
    }
    let bin = root.join("target/release/examples/cycles");
    let functions = disassemble(&bin)?;
    eprintln!("mca: timing {} subjects on this CPU (a few seconds each)", X86.len());
    let measured = output(Command::new(&bin).args(X86.iter().map(|r| r.3)))?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "x86-64 check on this machine ({}): `llvm-mca-19 -mcpu=znver3` cycles per block of our loops beside cycles \
         measured (`cargo run --release -p bench --example cycles`: time × the clock measured by a chain of dependent \
         squarings, 64 KiB messages, best of 5).\n",
        cpu_name()
    );
    s.push_str("| loop | modelled (znver3) | measured | model / measured |\n|---|---:|---:|---:|\n");
    for &(title, function, unit, subject) in X86 {
        let spec = Spec {
            unit,
            outer: unit.is_none(),
            ..spec(title, Place::Ours(function), Some(unit.map_or(Mark("", ""), |u| u.0)))
        };
        let model = find(&spec, &functions, None).and_then(|f| {
            mca(&f.asm, "znver3", "", "x86_64", iterations, &dir.join(format!("x86-{}", slug(title))))
                .map(|c| c / f.divisor as f64)
        });
        let meas: Option<f64> = measured.lines().find_map(|l| {
            l.strip_prefix(subject).and_then(|r| r.split_whitespace().next()).and_then(|v| v.parse().ok())
        });
        let _ = writeln!(
            s,
            "| {title} | {} | {} | {} |",
            model.as_ref().map_or_else(|e| format!("– ({e})"), |c| fmt_cycles(*c)),
            meas.map_or("–".into(), fmt_cycles),
            match (&model, meas) {
                (Ok(m), Some(x)) => format!("{:.2}", m / x),
                _ => "–".into(),
            }
        );
    }
    println!("{s}");
    std::fs::write(dir.join("x86.md"), &s).map_err(|e| format!("target/mca/x86.md: {e}"))?;
    Ok(())
}

/// The `model name` of /proc/cpuinfo.
fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objdump_lines_parse() {
        let text = "\
0000000000001000 <sha256::backend::aarch64_sha::compress::h0123456789abcdef>:
    1000:      \tld1\t{ v0.16b, v1.16b }, [x1], #32
    1004:      \tsha256h\tq0, q1, v16.4s
    1008:      \tmov\tw3, #0xa478             // =42104
    100c:      \tadr\tx3, 0x2000 <foo+0x10>
    1010:      \tb.ne\t0x1000 <sha256::backend::aarch64_sha::compress::h0123456789abcdef>
    1014:      \tret
";
        let f = parse_objdump(text);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].0, "sha256::backend::aarch64_sha::compress");
        let insns = &f[0].1;
        assert_eq!(insns.len(), 6);
        assert_eq!(insns[4].backward_target(), Some(0x1000));
        assert_eq!(insns[5].backward_target(), None);
        assert_eq!(insns[2].assembly(), "mov\tw3, #0xa478");
        assert_eq!(insns[3].assembly(), "adr\tx3, .Ltop");
        assert_eq!(insns[4].assembly(), "b.ne\t.Ltop");
        let l = loops(insns);
        assert_eq!(l.len(), 1);
        assert_eq!((l[0].start, l[0].end), (0, 4));
        let spec = Spec { unit: Some((SHA256_ROUND, 1)), ..spec("t", Place::Ours("x"), Some(SHA256_ROUND)) };
        let found = find(&spec, &[("x".into(), insns.clone())], None).expect("the loop is found");
        assert_eq!(found.asm.len(), 5);
        assert_eq!(found.divisor, 1);
    }

    #[test]
    fn inner_loops_unroll() {
        let insn = |addr, m: &str, o: &str| Insn { addr, mnemonic: m.into(), operands: o.into() };
        let insns = vec![
            insn(0, "add", "x0, x0, #1"),
            insn(4, "add", "x1, x1, #1"),
            insn(8, "b.ne", "0x4"),
            insn(12, "b.ne", "0x0"),
        ];
        let all = loops(&insns);
        let t = trace(&insns, all[1], &all, 3).expect("one inner loop");
        assert_eq!(t.len(), 1 + 2 * 3 + 1);
        assert!(trace(&insns, all[1], &all, 0).is_err(), "an unexpected inner loop is an error");
    }
}
