//! Finding the CAVP vectors: an unpacked folder given with `--vectors`, or
//! the `cryptography-vectors` wheel fetched with pip into `target/`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The PyPI package and version the vector files are generated from.
pub(crate) const PACKAGE: &str = "cryptography-vectors==50.0.2";

/// The folder inside `dir` that holds `SHA1/`, `SHA2/`, `SHA3/`, `SHAKE/`
/// and `MD5/`: `dir` itself, or the `hashes` folder of the package's layout
/// below it.
pub(crate) fn locate(dir: &Path) -> Result<PathBuf, String> {
    let candidates = [
        dir.to_path_buf(),
        dir.join("hashes"),
        dir.join("cryptography_vectors/hashes"),
        dir.join("vectors/cryptography_vectors/hashes"),
    ];
    for candidate in &candidates {
        if candidate.join("SHA2").is_dir() && candidate.join("SHA1").is_dir() {
            return Ok(candidate.clone());
        }
    }
    let tried: Vec<String> = candidates.iter().map(|c| format!("  {}", c.display())).collect();
    Err(format!(
        "no CAVP vectors under {}: looked for a folder holding SHA1/, SHA2/, SHA3/, SHAKE/ and MD5/ at\n{}\n\
         (pass the `hashes` folder of the `{PACKAGE}` package, or run `cargo xtask kat` without --vectors \
         to fetch it with pip)",
        dir.display(),
        tried.join("\n")
    ))
}

/// Fetch the wheel into `target/kat-download` with pip (unless it is
/// already unpacked there), unpack it, and return its `hashes` folder.
pub(crate) fn download(root: &Path) -> Result<PathBuf, String> {
    let dir = root.join("target").join("kat-download");
    let unpacked = dir.join("unpacked");
    if let Ok(found) = locate(&unpacked) {
        eprintln!("kat: using the vectors unpacked earlier in {} (delete that folder to fetch again)", dir.display());
        return Ok(found);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;

    if find_wheel(&dir).is_none() {
        eprintln!("kat: fetching {PACKAGE} with `python3 -m pip download --no-deps` into {}", dir.display());
        let status = Command::new("python3")
            .args(["-m", "pip", "download", "--no-deps", "--only-binary=:all:", PACKAGE, "-d"])
            .arg(&dir)
            .status()
            .map_err(|e| {
                format!(
                    "cannot run `python3 -m pip` ({e}).\n{}",
                    download_help("python3 with pip is needed to fetch the vectors")
                )
            })?;
        if !status.success() {
            return Err(format!("`python3 -m pip download` failed ({status}).\n{}", download_help("pip failed")));
        }
    }
    let wheel = find_wheel(&dir).ok_or_else(|| format!("pip left no {PACKAGE} wheel in {}", dir.display()))?;

    eprintln!("kat: unpacking {}", wheel.display());
    let unzip = Command::new("unzip").arg("-q").arg("-o").arg(&wheel).arg("-d").arg(&unpacked).status();
    let unpacked_ok = match unzip {
        Ok(status) if status.success() => true,
        _ => {
            eprintln!("kat: `unzip` is not available or failed; trying `python3 -m zipfile -e`");
            let status = Command::new("python3").args(["-m", "zipfile", "-e"]).arg(&wheel).arg(&unpacked).status();
            matches!(status, Ok(s) if s.success())
        }
    };
    if !unpacked_ok {
        return Err(format!(
            "cannot unpack {}: neither `unzip` nor `python3 -m zipfile` worked; install one of them, \
             or unpack the wheel (a zip file) yourself and pass its folder with --vectors",
            wheel.display()
        ));
    }
    locate(&unpacked)
}

fn find_wheel(dir: &Path) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    entries.filter_map(Result::ok).map(|e| e.path()).find(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        name.starts_with("cryptography_vectors-") && name.ends_with(".whl")
    })
}

fn download_help(what: &str) -> String {
    format!(
        "{what}. Either make `python3 -m pip download --no-deps {PACKAGE}` work (network access to PyPI), \
         or download and unpack that package yourself and run `cargo xtask kat --vectors DIR` with DIR \
         its `cryptography_vectors/hashes` folder."
    )
}
