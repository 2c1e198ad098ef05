//! What `cargo xtask dropin` proves the drop-ins against: the published
//! crates they replace (whose own suites run on them) and the published
//! dependents built on top of them.

/// A published crate that a package under `dropin/` replaces.
pub(super) struct Replaced {
    /// The package name on crates.io (`md-5`).
    pub(super) name: &'static str,
    /// The release whose suite runs: the drop-in's own version.
    pub(super) version: &'static str,
    /// The drop-in's folder under `dropin/`.
    pub(super) dir: &'static str,
    /// The key of its `[patch.crates-io]` line: the package name for the
    /// first line of a crate, `NAME-LINE` with `package = NAME` for the
    /// next, so that one `[patch]` section serves a tree that mixes lines.
    pub(super) patch_key: &'static str,
}

pub(super) const REPLACED: &[Replaced] = &[
    Replaced { name: "sha2", version: "0.10.9", dir: "sha2-0.10", patch_key: "sha2" },
    Replaced { name: "sha1", version: "0.10.7", dir: "sha1-0.10", patch_key: "sha1" },
    Replaced { name: "md-5", version: "0.10.6", dir: "md-5-0.10", patch_key: "md-5" },
    Replaced { name: "sha3", version: "0.10.9", dir: "sha3-0.10", patch_key: "sha3" },
    // The old name of `sha1` (hmac 0.12's tests use it).
    Replaced { name: "sha-1", version: "0.10.1", dir: "sha-1-0.10", patch_key: "sha-1" },
    Replaced { name: "sha2", version: "0.11.1", dir: "sha2-0.11", patch_key: "sha2-011" },
    Replaced { name: "sha1", version: "0.11.0", dir: "sha1-0.11", patch_key: "sha1-011" },
    Replaced { name: "md-5", version: "0.11.0", dir: "md-5-0.11", patch_key: "md-5-011" },
    Replaced { name: "sha3", version: "0.11.0", dir: "sha3-0.11", patch_key: "sha3-011" },
    Replaced { name: "sha3", version: "0.12.0", dir: "sha3-0.12", patch_key: "sha3-012" },
];

/// A published crate built on the replaced ones, whose own test suite runs
/// with the drop-ins underneath.
pub(super) struct Dependent {
    pub(super) name: &'static str,
    pub(super) version: &'static str,
    /// Features to turn on (the test suite's `#[cfg(feature = ...)]` code
    /// sees them as the scratch package's own).
    pub(super) features: &'static [&'static str],
    /// The drop-ins (package, version) that it depends on (not counting
    /// dev-dependencies), which `cargo tree -i` must show under it.
    pub(super) uses: &'static [(&'static str, &'static str)],
    /// Test targets left out, with the reason (printed on every run).
    pub(super) skip: &'static [(&'static str, &'static str)],
}

pub(super) const DEPENDENTS: &[Dependent] = &[
    // hmac and hkdf are generic over the hash: their test suites reach the
    // drop-ins through their dev-dependencies.
    Dependent { name: "hmac", version: "0.12.1", features: &["std"], uses: &[], skip: &[] },
    Dependent { name: "hkdf", version: "0.12.4", features: &["std"], uses: &[], skip: &[] },
    Dependent {
        name: "pbkdf2",
        version: "0.12.2",
        features: &["hmac", "sha1", "sha2", "simple", "std"],
        uses: &[("sha1", "0.10.7"), ("sha2", "0.10.9")],
        skip: &[],
    },
    // HTTP Digest authentication: MD5 and SHA-256 (its tests are unit tests
    // in src/, so the whole published package is what runs).
    Dependent {
        name: "digest_auth",
        version: "0.3.1",
        features: &[],
        uses: &[("md-5", "0.10.6"), ("sha2", "0.10.9")],
        skip: &[],
    },
    // The digest 0.11 line.
    Dependent { name: "hmac", version: "0.13.0", features: &[], uses: &[], skip: &[] },
    Dependent { name: "hkdf", version: "0.13.0", features: &[], uses: &[], skip: &[] },
    // ML-KEM (FIPS 203): SHA3-256 and SHA3-512 through sha3 0.12 (its SHAKE
    // comes from RustCrypto's `shake` crate, which is not replaced).
    Dependent {
        name: "ml-kem",
        version: "0.3.4",
        features: &["pkcs8", "pem"],
        uses: &[("sha3", "0.12.0")],
        skip: &[("wycheproof", "its JSON vectors are a git submodule, not in the published package")],
    },
];

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn every_dropin_folder_exists() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for r in REPLACED {
            let manifest = std::fs::read_to_string(root.join("dropin").join(r.dir).join("Cargo.toml")).unwrap();
            assert!(manifest.contains(&format!("name = {:?}", r.name)), "{}", r.dir);
            assert!(manifest.contains(&format!("version = {:?}", r.version)), "{}", r.dir);
        }
    }
}
