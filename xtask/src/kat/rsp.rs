//! Reading NIST CAVP response files (`.rsp`) and RFC 1321's suite, and the
//! hex and base64 encodings of the vector files.
//!
//! A response file is a sequence of lines: `# comment`, `[Key = value]` or
//! `[Text]` (a parameter of what follows), `Key = value` (a field of the
//! current record) and blank lines, which end a record.

use std::path::Path;

/// One parsed response file.
pub(crate) struct Rsp {
    /// The path relative to the vectors folder (`SHA2/SHA256ShortMsg.rsp`),
    /// for messages and file headers.
    pub(crate) name: String,
    /// `[Key = value]` parameters, in file order (`[Text]` has an empty value).
    pub(crate) params: Vec<(String, String)>,
    /// The records, in file order.
    pub(crate) records: Vec<Record>,
}

/// A block of `Key = value` lines.
pub(crate) struct Record {
    /// The file's name, for error messages.
    pub(crate) file: String,
    /// The 1-based line of the record's first field.
    pub(crate) line: usize,
    pub(crate) fields: Vec<(String, String)>,
}

impl Rsp {
    /// Read and parse `dir/name`.
    pub(crate) fn read(dir: &Path, name: &str) -> Result<Rsp, String> {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Rsp::parse(name, &text)
    }

    /// Parse the text of the file called `name`.
    pub(crate) fn parse(name: &str, text: &str) -> Result<Rsp, String> {
        let mut rsp = Rsp { name: name.to_string(), params: Vec::new(), records: Vec::new() };
        let mut current: Option<Record> = None;
        for (index, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let number = index + 1;
            if line.is_empty() || line.starts_with('#') {
                if line.is_empty() {
                    rsp.records.extend(current.take());
                }
                continue;
            }
            if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                rsp.records.extend(current.take());
                let (key, value) = inner.split_once('=').unwrap_or((inner, ""));
                rsp.params.push((key.trim().to_string(), value.trim().to_string()));
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                return Err(format!("{name}:{number}: unrecognised line `{line}`"));
            };
            let record =
                current.get_or_insert_with(|| Record { file: name.to_string(), line: number, fields: Vec::new() });
            record.fields.push((key.trim().to_string(), value.trim().to_string()));
        }
        rsp.records.extend(current);
        Ok(rsp)
    }

    /// The value of the parameter `[key = value]`.
    pub(crate) fn param(&self, key: &str) -> Result<&str, String> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| format!("{}: no `[{key} = ...]` parameter", self.name))
    }

    /// A parameter that holds a number.
    pub(crate) fn param_number(&self, key: &str) -> Result<usize, String> {
        let value = self.param(key)?;
        value.parse().map_err(|_| format!("{}: parameter `{key}` is `{value}`, not a number", self.name))
    }
}

impl Record {
    /// Whether the record has the field `key`.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.fields.iter().any(|(k, _)| k == key)
    }

    /// The value of the field `key`.
    pub(crate) fn get(&self, key: &str) -> Result<&str, String> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| format!("{}: the record has no `{key}` field", self.at()))
    }

    /// A field that holds a number.
    pub(crate) fn number(&self, key: &str) -> Result<usize, String> {
        let value = self.get(key)?;
        value.parse().map_err(|_| format!("{}: `{key} = {value}` is not a number", self.at()))
    }

    /// A field that holds hex bytes.
    pub(crate) fn hex(&self, key: &str) -> Result<Vec<u8>, String> {
        let value = self.get(key)?;
        from_hex(value).ok_or_else(|| format!("{}: `{key}` is not hex", self.at()))
    }

    /// The message of a `Len`/`Msg` record: `Len` bits of `Msg` (CAVP writes
    /// the empty message as `Len = 0`, `Msg = 00`). `None` when `Len` is not a
    /// whole number of bytes (a bit-oriented record).
    pub(crate) fn message(&self, len_key: &str) -> Result<Option<Vec<u8>>, String> {
        let bits = self.number(len_key)?;
        if !bits.is_multiple_of(8) {
            return Ok(None);
        }
        let mut msg = self.hex("Msg")?;
        if bits == 0 && msg == [0] {
            msg.clear();
        }
        if msg.len() * 8 != bits {
            return Err(format!("{}: `{len_key} = {bits}` but `Msg` holds {} bytes", self.at(), msg.len()));
        }
        Ok(Some(msg))
    }

    /// `file:line`, for error messages.
    pub(crate) fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Lower-case hex.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// Decode hex (either case); `None` if malformed.
pub(crate) fn from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    text.chunks_exact(2).map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?)).collect()
}

/// Base64 with padding (RFC 4648 §4), which the vector files use for long
/// messages: a third smaller than hex.
pub(crate) fn to_base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(chunk.get(1).copied().unwrap_or(0)) << 8)
            | u32::from(chunk.get(2).copied().unwrap_or(0));
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> shift) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_examples() {
        // RFC 4648 §10.
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(to_base64(plain.as_bytes()), encoded, "{plain:?}");
        }
    }

    #[test]
    fn hex_round_trip_and_rejects() {
        assert_eq!(to_hex(&[0x00, 0xab, 0x7f]), "00ab7f");
        assert_eq!(from_hex("00AB7f"), Some(vec![0x00, 0xab, 0x7f]));
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("zz"), None);
    }

    #[test]
    fn parses_params_records_and_the_empty_message() {
        let text = "# comment\n[L = 32]\n\nLen = 0\nMsg = 00\nMD = ab\n\nLen = 8\nMsg = 61\nMD = cd\n";
        let rsp = Rsp::parse("x.rsp", text).unwrap();
        assert_eq!(rsp.param_number("L").unwrap(), 32);
        assert_eq!(rsp.records.len(), 2);
        assert_eq!(rsp.records[0].line, 4);
        assert_eq!(rsp.records[0].message("Len").unwrap(), Some(vec![]));
        assert_eq!(rsp.records[1].message("Len").unwrap(), Some(vec![0x61]));
        assert!(Rsp::parse("x.rsp", "garbage\n").is_err());
    }
}
