//! Finding a spec's loop in the disassembly: the loops of a function
//! (backward branches), the body of one pass with its inner loops
//! unrolled, the number of units (blocks, rounds) it does, and, for
//! OpenSSL's scalar code, the table its loop starts from.

use std::path::Path;
use std::process::Command;

use super::objdump::{Insn, address_in};
use super::output;
use super::specs::{Place, Spec};

/// A loop: the instructions from a backward branch's target to the branch.
#[derive(Clone, Copy, Debug)]
struct Span {
    pub(super) start: usize,
    pub(super) end: usize,
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
pub(super) struct Found {
    /// Instructions per pass.
    pub(super) asm: Vec<String>,
    /// Units (blocks or rounds) per pass, times the `per` divisor.
    pub(super) divisor: usize,
    /// Where it is: function and address range.
    pub(super) location: String,
}

/// Find `spec`'s loop in `functions`; `tables`: libcrypto's bytes and
/// its sections, for [`Place::OpenSslAfterTable`].
pub(super) fn find(spec: &Spec, functions: &[(String, Vec<Insn>)], tables: Option<&Image>) -> Result<Found, String> {
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
pub(super) struct Image {
    bytes: Vec<u8>,
    sections: Vec<(u64, u64, u64)>,
}

impl Image {
    pub(super) fn load(path: &Path) -> Result<Self, String> {
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

#[cfg(test)]
mod tests {
    use super::super::objdump::parse_objdump;
    use super::super::specs::{SHA256_ROUND, spec};
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
