//! `llvm-objdump`'s disassembly as data: functions (demangled names less
//! their hash) and their instructions, with the branch targets and the
//! assembly text that `llvm-mca` reads back.

/// One disassembled instruction.
#[derive(Clone, Debug)]
pub(super) struct Insn {
    pub(super) addr: u64,
    pub(super) mnemonic: String,
    pub(super) operands: String,
}

impl Insn {
    /// The target of a branch back to `addr` or before.
    pub(super) fn backward_target(&self) -> Option<u64> {
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
    pub(super) fn assembly(&self) -> String {
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
pub(super) fn address_in(operands: &str) -> Option<u64> {
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
pub(super) fn parse_objdump(text: &str) -> Vec<(String, Vec<Insn>)> {
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
