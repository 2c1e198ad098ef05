//! MD5 digests from an independent implementation: Python's `hashlib`
//! (which wraps OpenSSL's or CPython's own MD5), run as `python3`.

use std::io::Write as _;
use std::process::{Command, Stdio};

/// How the vector file header names the oracle.
pub(crate) const NAME: &str = "Python 3 hashlib.md5, run as `python3 -c` by cargo xtask kat";

/// Reads the data on stdin, then prints the hex MD5 of `data[start:end]`
/// for each `start:end` argument, one per line.
const SCRIPT: &str = r#"
import hashlib, sys
def md5(m):
    try:
        return hashlib.new("md5", m, usedforsecurity=False)
    except TypeError:
        return hashlib.md5(m)
data = sys.stdin.buffer.read()
out = []
for arg in sys.argv[1:]:
    a, b = arg.split(":")
    out.append(md5(data[int(a):int(b)]).hexdigest())
sys.stdout.write("\n".join(out) + "\n")
"#;

/// The MD5 digest of `data[start..end]` for each range, in order.
pub(crate) fn md5(data: &[u8], ranges: &[(usize, usize)]) -> Result<Vec<[u8; 16]>, String> {
    let help = "python3 is the independent MD5 oracle of `cargo xtask kat` (and of `--check`): \
                install Python 3 and make sure `python3` is on PATH";
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .args(ranges.iter().map(|(a, b)| format!("{a}:{b}")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run python3 ({e}); {help}"))?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Python reads all of stdin before it writes anything, so writing
    // first and then collecting the output cannot deadlock.
    let written = stdin.write_all(data);
    drop(stdin);
    let output = child.wait_with_output().map_err(|e| format!("python3 failed: {e}; {help}"))?;
    if !output.status.success() || written.is_err() {
        return Err(format!(
            "the python3 MD5 oracle failed ({}): {}\n{help}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let text = String::from_utf8(output.stdout).map_err(|_| "python3 printed non-UTF-8 output".to_string())?;
    let digests: Vec<[u8; 16]> = text
        .lines()
        .map(|line| super::rsp::from_hex(line.trim()).and_then(|v| <[u8; 16]>::try_from(v).ok()))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("the python3 MD5 oracle printed something other than digests: {text:.200}"))?;
    if digests.len() != ranges.len() {
        return Err(format!("the python3 MD5 oracle gave {} digests for {} messages", digests.len(), ranges.len()));
    }
    Ok(digests)
}
