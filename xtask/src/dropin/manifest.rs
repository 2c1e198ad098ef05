//! Reading a published (normalized) `Cargo.toml`: its `[section]` blocks
//! and its feature names, without a TOML parser.

use std::path::Path;

use super::read;

/// The `[section]` blocks of a normalized (published) `Cargo.toml`, as
/// (header, body) pairs in order.
pub(super) fn sections(manifest: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in manifest.lines() {
        // Published manifests put headers at the start of a line and
        // indent the items of multi-line arrays.
        if line.starts_with('[') {
            out.push((line.trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The keys of a `[features]` table (not `default`).
fn feature_names(manifest: &str) -> Vec<String> {
    sections(manifest)
        .into_iter()
        .filter(|(h, _)| h == "[features]")
        .flat_map(|(_, body)| {
            body.lines()
                .filter(|l| !l.starts_with([' ', '\t', ']']))
                .filter_map(|l| Some(l.split_once('=')?.0.trim().trim_matches('"').to_string()))
                .filter(|k| !k.is_empty())
                .collect::<Vec<_>>()
        })
        .filter(|k| k != "default")
        .collect()
}

pub(super) fn all_features(src: &Path) -> Result<Vec<String>, String> {
    let manifest = read(&src.join("Cargo.toml"))?;
    Ok(feature_names(&manifest))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"[package]
edition = "2018"
name = "x"

[features]
asm = ["sha2-asm"]
default = ["std"]
std = [
    "digest/std",
]

[[test]]
name = "mod"
path = "tests/mod.rs"

[dev-dependencies.digest]
version = "0.10.7"
features = ["dev"]
"#;

    #[test]
    fn reads_sections_and_features() {
        let s = sections(MANIFEST);
        let headers: Vec<&str> = s.iter().map(|(h, _)| h.as_str()).collect();
        assert_eq!(headers, ["[package]", "[features]", "[[test]]", "[dev-dependencies.digest]"]);
        assert_eq!(feature_names(MANIFEST), ["asm", "std"]);
    }
}
