//! Building the peer comparison (`bench/peers`, its own Cargo workspace):
//! how cargo is run on it (the SHA-NI-masked build included), with its
//! progress shown, and, when the full build fails, which optional parts
//! are left out and why.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The optional parts of `bench/peers` (its cargo features): what the
/// report calls each when it fails to build, and the peer family it is
/// (empty for our crates).
const PARTS: &[(&str, &str, &str)] = &[
    ("md5", "our md5 crate", ""),
    ("sha1", "our sha1 crate", ""),
    ("sha256", "our sha256 crate", ""),
    ("sha512", "our sha512 crate", ""),
    ("sha3", "our sha3 crate", ""),
    ("rustcrypto-0_10", "RustCrypto 0.10 line", "rustcrypto-0.10"),
    ("rustcrypto-new", "RustCrypto newest line", "rustcrypto-latest"),
    ("ring", "ring", "ring"),
    ("dropin", "our sha2 drop-in (dropin/sha2-0.10)", "ours-via-sha2-dropin"),
    ("dropin-0_11", "our sha2 0.11 drop-in (dropin/sha2-0.11)", "ours-via-sha2-0.11-dropin"),
    ("openssl", "OpenSSL loader (libloading)", "openssl"),
    ("merkle", "our Merkle trees (hash-core, sha256)", ""),
    ("hashtree", "hashtree-rs (prysm's hashtree, built with make and cc)", "hashtree-rs"),
    ("tape", "tape-sha256", "tape-sha256"),
    ("rs-merkle", "rs_merkle on sha2 0.10", "rs_merkle"),
    ("sha1dc", "our Sha1Dc beside sha1dc, sha1-checked and sha1collisiondetection", ""),
];

/// A part of `bench/peers` that did not build.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LeftOut {
    pub(crate) what: &'static str,
    /// The peer family, or empty for one of our crates.
    pub(crate) family: &'static str,
    /// The first error line of `cargo check`.
    pub(crate) why: String,
}

/// The features the peers binary was built with (`None`: the defaults,
/// everything) and the parts left out, with the first error line of each.
pub(super) struct Build {
    pub(super) features: Option<Vec<&'static str>>,
    pub(super) left_out: Vec<LeftOut>,
}

/// How cargo is run on `bench/peers`.
pub(super) struct PeerCargo {
    pub(super) cargo: String,
    pub(super) manifest: PathBuf,
    /// The SHA-NI-masked build (`--no-shani`).
    pub(super) no_shani: bool,
}

/// RustCrypto's 0.11 line reads these cfgs to build its software SHA-1 and
/// SHA-256 code only.
const RUSTCRYPTO_SOFT_CFGS: &str = r#"--cfg sha1_backend="soft" --cfg sha2_256_backend="soft""#;

impl PeerCargo {
    /// `cargo <verb> --release` on the peers with `features` (`None`: the
    /// defaults). The masked build adds the `no-shani` feature and the
    /// RustCrypto cfgs, in a target directory of its own so that the normal
    /// build is not redone each time.
    pub(super) fn command(&self, verb: &str, features: Option<&[&str]>) -> Command {
        let mut cmd = Command::new(&self.cargo);
        cmd.arg(verb).arg("--release").arg("--manifest-path").arg(&self.manifest);
        let mut features: Option<Vec<&str>> = features.map(<[&str]>::to_vec);
        if features.is_some() {
            cmd.arg("--no-default-features");
        }
        if self.no_shani {
            features.get_or_insert_with(Vec::new).push("no-shani");
            let target = self.manifest.parent().unwrap_or(Path::new(".")).join("target/no-shani");
            cmd.env("CARGO_TARGET_DIR", target);
            let flags = std::env::var("RUSTFLAGS").unwrap_or_default();
            cmd.env("RUSTFLAGS", format!("{flags} {RUSTCRYPTO_SOFT_CFGS}").trim_start());
        }
        if let Some(f) = features.filter(|f| !f.is_empty()) {
            cmd.arg("--features").arg(f.join(","));
        }
        cmd
    }
}

/// Run `cmd`, showing the top-level lines of its stderr (`Compiling ...`,
/// `error: ...`; not the indented detail) as they come; returns success and
/// the whole stderr text.
fn run_streamed(mut cmd: Command, show: bool) -> Result<(bool, String), String> {
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = cmd.spawn().map_err(|e| format!("cannot run cargo: {e}"))?;
    let mut log = String::new();
    if let Some(stderr) = child.stderr.take() {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if show && is_headline(&line) {
                eprintln!("      {line}");
            }
            log.push_str(&line);
            log.push('\n');
        }
    }
    let status = child.wait().map_err(|e| format!("cargo did not finish: {e}"))?;
    Ok((status.success(), log))
}

/// Cargo's status lines (`   Compiling ring v0.17.14`, right-aligned) and
/// the first line of each diagnostic (`error: ...`, `warning: ...`).
fn is_headline(line: &str) -> bool {
    const STATUS: &[&str] = &[
        "Compiling",
        "Checking",
        "Finished",
        "Updating",
        "Downloading",
        "Downloaded",
        "Locking",
        "Adding",
        "Blocking",
    ];
    line.starts_with("error")
        || line.starts_with("warning")
        || STATUS.contains(&line.split_whitespace().next().unwrap_or(""))
}

fn first_error(log: &str) -> String {
    let line = log.lines().find(|l| l.trim_start().starts_with("error")).unwrap_or("(no error line; see the log)");
    // Backticks would break the report's inline code spans.
    line.trim().replace('`', "'")
}

pub(super) fn build_peers(peers: &PeerCargo) -> Result<Build, String> {
    let (ok, log) = run_streamed(peers.command("build", None), true)?;
    if ok {
        return Ok(Build { features: None, left_out: Vec::new() });
    }
    eprintln!("      the full build failed ({}); checking each part on its own", first_error(&log));
    let mut kept = Vec::new();
    let mut left_out = Vec::new();
    for &(feature, what, family) in PARTS {
        eprint!("      checking {what} (feature `{feature}`) ... ");
        let (ok, log) = run_streamed(peers.command("check", Some(&[feature])), false)?;
        if ok {
            eprintln!("ok");
            kept.push(feature);
        } else {
            let why = first_error(&log);
            eprintln!("left out: {why}");
            left_out.push(LeftOut { what, family, why });
        }
    }
    let (ok, log) = run_streamed(peers.command("build", Some(&kept)), true)?;
    if !ok {
        eprintln!("{log}");
        return Err(format!(
            "bench/peers does not build even without the failing parts ({}): {}",
            left_out.iter().map(|l| l.what).collect::<Vec<_>>().join(", "),
            first_error(&log)
        ));
    }
    Ok(Build { features: Some(kept), left_out })
}

#[cfg(test)]
mod tests {
    use super::super::options::parse_args;
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn no_shani_option() {
        let o = parse_args(&args("--quick --no-shani")).unwrap();
        assert!(o.no_shani && !o.batches);
        assert!(!parse_args(&args("--quick")).unwrap().no_shani);
        let masked =
            PeerCargo { cargo: "cargo".into(), manifest: PathBuf::from("/r/bench/peers/Cargo.toml"), no_shani: true };
        let cmd = masked.command("build", None);
        let argv: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(argv[argv.len() - 2..], ["--features".to_string(), "no-shani".to_string()]);
        assert!(!argv.contains(&"--no-default-features".to_string()));
        let env: Vec<(String, String)> = cmd
            .get_envs()
            .filter_map(|(k, v)| Some((k.to_string_lossy().into_owned(), v?.to_string_lossy().into_owned())))
            .collect();
        assert!(env.iter().any(|(k, v)| k == "CARGO_TARGET_DIR" && v.ends_with("bench/peers/target/no-shani")));
        assert!(env.iter().any(|(k, v)| k == "RUSTFLAGS" && v.contains(r#"sha2_256_backend="soft""#)));
        let argv: Vec<_> =
            masked.command("check", Some(&["sha256"])).get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert!(argv.contains(&"--no-default-features".to_string()) && argv.contains(&"sha256,no-shani".to_string()));
        let plain = PeerCargo { no_shani: false, ..masked };
        let cmd = plain.command("build", None);
        assert_eq!(cmd.get_envs().count(), 0);
        assert!(!cmd.get_args().any(|a| a == "--features"));
    }

    #[test]
    fn build_headlines() {
        assert!(is_headline("   Compiling ring v0.17.14"));
        assert!(is_headline("    Finished `release` profile [optimized] target(s) in 35.78s"));
        assert!(is_headline("error: failed to run custom build command for `ring v0.17.14`"));
        assert!(!is_headline("  --> src/main.rs:3:5"));
        assert!(!is_headline("        cargo:rerun-if-env-changed=CC"));
        assert!(!is_headline(""));
    }
}
