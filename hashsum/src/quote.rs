//! How GNU coreutils writes file names: the backslash escaping of checksum
//! lines (`digest.c`'s `print_filename`) and the shell quoting of names in
//! error messages (gnulib `quotearg.c`, `shell_escape_quoting_style` with
//! `:` quoted too, which is what coreutils' `quotef` uses).

use std::sync::OnceLock;

/// Whether a checksum line for `name` needs GNU's leading backslash: the
/// name holds a backslash, a newline or a carriage return.
pub(crate) fn problematic(name: &[u8]) -> bool {
    name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r'))
}

/// Append `name` to `out`, with `\\`, `\n` and `\r` written as two-character
/// escapes when `escape` is set (GNU `print_filename`).
pub(crate) fn push_name(out: &mut Vec<u8>, name: &[u8], escape: bool) {
    if !escape {
        out.extend_from_slice(name);
        return;
    }
    for &b in name {
        match b {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            _ => out.push(b),
        }
    }
}

/// Reverse of [`push_name`] for a name read from a checksum line that began
/// with a backslash: only `\\`, `\n` and `\r` are valid escapes; anything
/// else (or a trailing lone backslash, or a NUL) makes the line invalid
/// (GNU `filename_unescape`).
pub(crate) fn unescape_name(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut it = name.iter();
    while let Some(&b) = it.next() {
        match b {
            b'\\' => match it.next() {
                Some(b'n') => out.push(b'\n'),
                Some(b'r') => out.push(b'\r'),
                Some(b'\\') => out.push(b'\\'),
                _ => return None,
            },
            0 => return None,
            _ => out.push(b),
        }
    }
    Some(out)
}

/// Whether the character type locale is UTF-8 (then printable multibyte
/// characters stay as they are in quoted names; in the C locale every byte
/// above 0x7f is escaped, as GNU does).
fn utf8_locale() -> bool {
    static UTF8: OnceLock<bool> = OnceLock::new();
    *UTF8.get_or_init(|| {
        let value = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .unwrap_or_default()
            .to_ascii_lowercase();
        value.contains("utf-8") || value.contains("utf8")
    })
}

/// One character of the name: its bytes, and whether it is printable in the
/// locale.
fn chars(name: &[u8]) -> Vec<(&[u8], bool)> {
    let mut out = Vec::with_capacity(name.len());
    let utf8 = utf8_locale();
    let mut i = 0;
    while i < name.len() {
        let b = name[i];
        if b < 0x80 {
            out.push((&name[i..i + 1], (0x20..0x7f).contains(&b)));
            i += 1;
            continue;
        }
        if utf8 {
            let width = match b {
                0xc2..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf4 => 4,
                _ => 0,
            };
            if width > 0
                && let Some(seq) = name.get(i..i + width)
                && let Ok(s) = std::str::from_utf8(seq)
            {
                let printable = !s.chars().next().is_some_and(char::is_control);
                out.push((seq, printable));
                i += width;
                continue;
            }
        }
        out.push((&name[i..i + 1], false));
        i += 1;
    }
    out
}

/// `name` as GNU's `quotef` writes it in diagnostics: unchanged when it is
/// harmless, else in single quotes with `'$'\n''`-style escapes, or in double
/// quotes when its only special character is an apostrophe.
pub(crate) fn quotef(name: &[u8]) -> Vec<u8> {
    let cs = chars(name);
    let needs_quotes = cs.is_empty()
        || cs.iter().enumerate().any(|(i, &(bytes, printable))| {
            if !printable {
                return true;
            }
            if bytes.len() > 1 {
                return false;
            }
            match bytes[0] {
                b'{' | b'}' => name.len() == 1,
                b'#' | b'~' => i == 0,
                b' ' | b'!' | b'"' | b'$' | b'&' | b'(' | b')' | b'*' | b';' | b'<' | b'=' | b'>' | b'[' | b'^'
                | b'`' | b'|' | b'\'' | b'?' | b'\\' | b':' => true,
                _ => false,
            }
        });
    if !needs_quotes {
        return name.to_vec();
    }
    // The apostrophe-only case: every character is "compatible" with both
    // C and shell quoting, so GNU switches to C-style double quotes.
    let has_apostrophe = name.contains(&b'\'');
    let all_compat = cs.iter().enumerate().all(|(i, &(bytes, printable))| {
        printable
            && (bytes.len() > 1
                || match bytes[0] {
                    b'{' | b'}' => name.len() == 1,
                    b'#' | b'~' => i == 0,
                    b'!' | b'"' | b'$' | b'&' | b'(' | b')' | b'*' | b';' | b'<' | b'=' | b'>' | b'[' | b'^' | b'`'
                    | b'|' | b'?' | b'\\' => false,
                    _ => true,
                })
    });
    if has_apostrophe && all_compat {
        let mut out = Vec::with_capacity(name.len() + 2);
        out.push(b'"');
        out.extend_from_slice(name);
        out.push(b'"');
        return out;
    }
    let mut out = vec![b'\''];
    let mut in_escape = false;
    for (bytes, printable) in cs {
        let esc = match bytes[0] {
            b'\n' => Some(b'n'),
            b'\r' => Some(b'r'),
            b'\t' => Some(b't'),
            0x07 => Some(b'a'),
            0x08 => Some(b'b'),
            0x0c => Some(b'f'),
            0x0b => Some(b'v'),
            _ => None,
        };
        if esc.is_some() || !printable {
            if !in_escape {
                out.extend_from_slice(b"'$'");
                in_escape = true;
            }
            match esc {
                Some(e) => out.extend_from_slice(&[b'\\', e]),
                None => {
                    for &b in bytes {
                        out.extend_from_slice(&[b'\\', b'0' + (b >> 6), b'0' + ((b >> 3) & 7), b'0' + (b & 7)]);
                    }
                }
            }
            continue;
        }
        if in_escape {
            out.extend_from_slice(b"''");
            in_escape = false;
        }
        if bytes == b"'" {
            out.extend_from_slice(b"'\\''");
        } else {
            out.extend_from_slice(bytes);
        }
    }
    out.push(b'\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        for name in [&b"plain"[..], b"a\\b", b"n\nl", b"c\rr", b"\\\n\r\\"] {
            let mut out = Vec::new();
            push_name(&mut out, name, problematic(name));
            let back = if problematic(name) { unescape_name(&out).unwrap() } else { out };
            assert_eq!(back, name);
        }
        assert_eq!(unescape_name(b"a\\x"), None);
        assert_eq!(unescape_name(b"a\\"), None);
    }

    /// Cases taken from GNU sha256sum 9.1's own messages (the differential
    /// tests compare the rest with the real tool).
    #[test]
    fn quotef_matches_gnu() {
        assert_eq!(quotef(b"d"), b"d");
        assert_eq!(quotef(b"no file"), b"'no file'");
        assert_eq!(quotef(b"no\nfile"), b"'no'$'\\n''file'");
        assert_eq!(quotef(b"it's"), b"\"it's\"");
        assert_eq!(quotef(b""), b"''");
        assert_eq!(quotef(b"a:b"), b"'a:b'");
    }
}
