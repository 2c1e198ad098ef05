//! The vector files' format: a parser that reads a file into sections,
//! their `[Key = value]` parameters and their records, and checks the
//! header's `# records:` counts, with the accessors the runners read
//! records through.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use super::base64::from_base64;

/// A parsed vector file.
#[derive(Clone, Debug)]
pub struct VectorFile {
    pub(super) path: String,
    pub(super) sections: Vec<Section>,
}

#[derive(Clone, Debug)]
pub(super) struct Section {
    pub(super) name: String,
    pub(super) params: Vec<(String, String)>,
    pub(super) records: Vec<Record>,
}

#[derive(Clone, Debug)]
pub(super) struct Record {
    /// The line of the record's first field.
    pub(super) line: usize,
    pub(super) fields: Vec<(String, String)>,
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
    pub(super) fn label(&self) -> &str {
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
pub(super) struct Place {
    pub(super) section: usize,
    pub(super) text: String,
}

impl Record {
    pub(super) fn get(&self, key: &str, place: &Place) -> &str {
        match self.fields.iter().find(|(k, _)| k == key) {
            Some((_, v)) => v,
            None => panic!("{}: the record has no `{key}` field", place.text),
        }
    }

    pub(super) fn number(&self, key: &str, place: &Place) -> usize {
        let value = self.get(key, place);
        value.parse().unwrap_or_else(|_| panic!("{}: `{key} = {value}` is not a number", place.text))
    }

    pub(super) fn hex(&self, key: &str, place: &Place) -> Vec<u8> {
        let value = self.get(key, place);
        from_hex(value).unwrap_or_else(|| panic!("{}: `{key}` is not hex", place.text))
    }

    /// The message of a `Len` + `Msg` (hex) or `MsgBase64` record, checked
    /// against `Len`.
    pub(super) fn message(&self, place: &Place) -> Vec<u8> {
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
    pub(super) fn param(&self, key: &str, path: &str) -> usize {
        let value = match self.params.iter().find(|(k, _)| k == key) {
            Some((_, v)) => v,
            None => panic!("{path}: section [{}] has no `[{key} = ...]` parameter", self.name),
        };
        value.parse().unwrap_or_else(|_| panic!("{path}: [{}]: `[{key} = {value}]` is not a number", self.name))
    }
}

pub(super) fn from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.as_bytes();
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    text.chunks_exact(2).map(|pair| Some((digit(pair[0])? << 4) | digit(pair[1])?)).collect()
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
}
