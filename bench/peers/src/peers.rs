//! The peers: RustCrypto's two lines, `ring` and OpenSSL, as [`Subject`]s.
#![forbid(unsafe_code)]

use bench::{Algo, Kind, Subject};

/// One-shot HMAC through `hmac` 0.12's `Mac` over the digest type `$d`:
/// keyed with [`HMAC_KEY`], updated with the message, finalized.
#[allow(unused_macros)]
macro_rules! hmac_subject {
    ($algo:expr, $family:expr, $variant:expr, $detected:expr, $d:ty) => {
        Subject::new($algo, $family, $variant, $detected, |data: &[u8], out: &mut [u8]| {
            use hmac_0_12::Mac as _;
            let mut mac =
                <hmac_0_12::Hmac<$d> as hmac_0_12::Mac>::new_from_slice(&HMAC_KEY).expect("HMAC takes any key length");
            mac.update(data);
            out.copy_from_slice(&mac.finalize().into_bytes())
        })
    };
}

/// One-shot HMAC through `hmac` 0.13's `Mac` (the digest 0.11 line) over
/// the digest type `$d`, as `hmac_subject!` does with `hmac` 0.12.
#[allow(unused_macros)]
macro_rules! hmac013_subject {
    ($algo:expr, $family:expr, $d:ty) => {
        Subject::new($algo, $family, "", false, |data: &[u8], out: &mut [u8]| {
            use hmac_0_13::{KeyInit as _, Mac as _};
            let mut mac = hmac_0_13::Hmac::<$d>::new_from_slice(&HMAC_KEY).expect("HMAC takes any key length");
            mac.update(data);
            out.copy_from_slice(&mac.finalize().into_bytes())
        })
    };
}

/// A peer family and whether it can run here.
pub struct Status {
    /// `"openssl"`, `"ring"`, [`RC_OLD`] or [`RC_NEW`].
    pub family: &'static str,
    /// `Ok(description)` or `Err(why not)`.
    pub state: Result<String, String>,
}

/// The peers of this build.
pub struct Peers {
    #[cfg(feature = "openssl")]
    openssl: Result<&'static crate::openssl::Api, String>,
}

/// RustCrypto's 0.10 line (sha2, sha1, md-5, sha3 0.10, k12 0.3).
pub const RC_OLD: &str = "rustcrypto-0.10";
/// RustCrypto's newest line (sha2, sha1, md-5 0.11, sha3 0.12, shake 0.1).
pub const RC_NEW: &str = "rustcrypto-latest";
/// Ours through the `sha2` 0.10 drop-in (`dropin/sha2-0.10`): RustCrypto's
/// `Digest` API on our backends.
pub const DROPIN: &str = "ours-via-sha2-dropin";
/// Ours through the `sha2` 0.11 drop-in (`dropin/sha2-0.11`): RustCrypto's
/// digest 0.11 API on our backends.
pub const DROPIN_011: &str = "ours-via-sha2-0.11-dropin";

/// HMAC-SHA-256 (RFC 2104 over SHA-256, with the 32-byte key
/// [`HMAC_KEY`]), timed as a table of its own right after SHA-256's
/// whenever SHA-256 is timed (see [`beside`]), one-shot as the other tables:
/// each message is keyed, updated and finalized (`Mac::new_from_slice`,
/// `update`, `finalize`). Not in `bench::ALGOS`: our crates have no HMAC
/// type of their own, so "ours" here is `hmac` 0.12's `Hmac` over our
/// `sha256::compat::Sha256` (what our README tells `hmac` users to write),
/// beside `Hmac<Sha256>` over the `sha2` 0.10 drop-in and over RustCrypto's
/// `sha2` 0.10 (`hmac` 0.12), over the `sha2` 0.11 drop-in and over
/// RustCrypto's `sha2` 0.11 (`hmac` 0.13), and OpenSSL's one-shot `HMAC()`.
pub static HMAC_SHA256: Algo = Algo {
    id: "hmac-sha256",
    name: "HMAC-SHA-256",
    crate_name: "sha256",
    out_len: 32,
    kind: Kind::Fixed,
    default: false,
};

/// The key of every HMAC subject.
pub const HMAC_KEY: [u8; 32] = *b"hashes bench peers HMAC key 0x20";

/// The table timed right after `algo`'s, if any: HMAC-SHA-256 after
/// SHA-256, where the drop-in (and with it `hmac` and our `sha256`) is in
/// this build. Not in the SHA-NI-masked build: `Hmac` over our `compat`
/// type and over the drop-in picks SHA-NI when the CPU has it.
pub fn beside(algo: &Algo) -> Option<&'static Algo> {
    (algo.id == "sha256" && cfg!(feature = "dropin") && !MASKED).then_some(&HMAC_SHA256)
}

/// Our subjects that `bench::ours` does not know: `Hmac` over our
/// `sha256::compat::Sha256` for [`HMAC_SHA256`], on the backend our crate
/// picks (`compat` has no choice of backend).
pub fn ours(algo: &'static Algo) -> Vec<Subject> {
    match algo.id {
        #[cfg(feature = "dropin")]
        "hmac-sha256" => {
            vec![hmac_subject!(algo, bench::OURS, ours256::Backend::detect().name(), true, ours256::compat::Sha256)]
        }
        _ => Vec::new(),
    }
}

impl Peers {
    /// Find the peers (loads OpenSSL's libcrypto, where that is built in).
    pub fn load() -> Self {
        Peers {
            #[cfg(feature = "openssl")]
            openssl: crate::openssl::load(),
        }
    }

    /// One line per peer family: what it is, or why it is absent.
    pub fn statuses(&self) -> Vec<Status> {
        let built = |on: bool, what: &str| if on { Ok(what.to_string()) } else { Err("not in this build".to_string()) };
        #[cfg(feature = "openssl")]
        let openssl = self.openssl.as_ref().map(|api| format!("{} ({})", api.version, api.path)).map_err(Clone::clone);
        #[cfg(not(feature = "openssl"))]
        let openssl = Err("not in this build".to_string());
        vec![
            Status { family: "openssl", state: openssl },
            Status {
                family: RC_OLD,
                state: built(cfg!(feature = "rustcrypto-0_10"), "sha2, sha1, md-5, sha3 0.10, k12 0.3"),
            },
            Status {
                family: RC_NEW,
                state: built(cfg!(feature = "rustcrypto-new"), "sha2, sha1, md-5 0.11, sha3 0.12, shake 0.1"),
            },
            Status {
                family: DROPIN,
                state: built(cfg!(feature = "dropin"), "dropin/sha2-0.10 (sha2 0.10.9 API on our sha256/sha512)"),
            },
            Status {
                family: DROPIN_011,
                state: built(cfg!(feature = "dropin-0_11"), "dropin/sha2-0.11 (sha2 0.11.1 API on our sha256/sha512)"),
            },
            Status {
                family: "ring",
                state: built(cfg!(feature = "ring"), "ring 0.17 (SHA-1, SHA-256/384/512, SHA-512/256)"),
            },
        ]
    }

    /// Every peer implementation of `algo`, and notes on the peers that
    /// could have one but do not (`(family, why)`).
    pub fn subjects(&self, algo: &'static Algo) -> (Vec<Subject>, Vec<(&'static str, String)>) {
        #[allow(unused_mut)]
        let mut subjects: Vec<Subject> = Vec::new();
        #[allow(unused_mut)]
        let mut notes: Vec<(&'static str, String)> = Vec::new();
        #[cfg(feature = "openssl")]
        if let Ok(api) = &self.openssl {
            let subject = if algo.id == HMAC_SHA256.id {
                crate::openssl::hmac_subject(api, algo, &HMAC_KEY)
            } else {
                crate::openssl::subject(api, algo)
            };
            match subject {
                Ok(s) => subjects.push(s),
                Err(e) => notes.push(("openssl", e)),
            }
        }
        #[cfg(feature = "rustcrypto-0_10")]
        subjects.extend(rustcrypto_0_10(algo));
        #[cfg(feature = "rustcrypto-new")]
        subjects.extend(rustcrypto_new(algo));
        #[cfg(feature = "ring")]
        subjects.extend(ring(algo));
        #[cfg(feature = "dropin")]
        subjects.extend(dropin(algo));
        #[cfg(feature = "dropin-0_11")]
        subjects.extend(dropin_0_11(algo));
        if MASKED {
            subjects.retain(|s| match masked_out(s.family, algo.id) {
                Some(why) => {
                    notes.push((s.family, why.to_string()));
                    false
                }
                None => true,
            });
        }
        let _ = &mut notes;
        (subjects, notes)
    }
}

/// Whether this is the SHA-NI-masked build (`cargo xtask bench --no-shani`,
/// the `no-shani` feature): OpenSSL runs with `OPENSSL_ia32cap` clearing
/// its SHA bit, and RustCrypto's SHA-1 and SHA-256 are built with their
/// software code (sha1/sha2 0.10: the `force-soft` feature; sha1/sha2 0.11:
/// `--cfg sha1_backend="soft"`, `--cfg sha2_256_backend="soft"`).
pub const MASKED: bool = cfg!(feature = "no-shani");

/// Whether the newest RustCrypto line was built with its SHA-1 and SHA-256
/// software code (the `--cfg` flags `cargo xtask bench --no-shani` passes).
const NEW_LINE_SOFT: bool = cfg!(all(sha1_backend = "soft", sha2_256_backend = "soft"));

/// Why a peer cannot stand for "this algorithm without SHA-NI" in the
/// masked build, or `None` if it can.
fn masked_out(family: &str, algo: &str) -> Option<&'static str> {
    let sha_ni_algo = matches!(algo, "sha1" | "sha224" | "sha256");
    match family {
        // `force-soft` also turns off sha2 0.10's AVX2 SHA-512 code, which
        // a CPU without SHA-NI still runs: that line would be too slow.
        RC_OLD if algo.starts_with("sha384") || algo.starts_with("sha512") => {
            Some("left out of the SHA-NI-masked run: sha2 0.10's `force-soft` also turns off its AVX2 SHA-512 code")
        }
        RC_NEW if sha_ni_algo && !NEW_LINE_SOFT => Some(
            "left out of the SHA-NI-masked run: built without `--cfg sha1_backend=\"soft\"` and \
             `--cfg sha2_256_backend=\"soft\"`, so it may use SHA-NI",
        ),
        // The drop-in detects our best backend, SHA-NI included.
        DROPIN | DROPIN_011 if sha_ni_algo => {
            Some("left out of the SHA-NI-masked run: the drop-in picks SHA-NI when the CPU has it")
        }
        // ring's SHA-1 is portable Rust; its SHA-256 picks SHA-NI by CPUID.
        "ring" if algo == "sha256" => Some("left out of the SHA-NI-masked run: ring's use of SHA-NI cannot be masked"),
        _ => None,
    }
}

/// `$krate::$ty::digest(data)` through the crate's own `Digest` trait.
#[allow(unused_macros)]
macro_rules! rc_fixed {
    ($algo:expr, $family:expr, $krate:ident :: $ty:ident) => {
        Subject::new($algo, $family, "", false, |data: &[u8], out: &mut [u8]| {
            out.copy_from_slice(&<$krate::$ty as $krate::Digest>::digest(data))
        })
    };
}

/// SHAKE through the crate's `ExtendableOutput` (absorb, then read).
#[allow(unused_macros)]
macro_rules! rc_xof {
    ($algo:expr, $family:expr, $krate:ident :: $ty:ident) => {
        Subject::new($algo, $family, "", false, |data: &[u8], out: &mut [u8]| {
            use $krate::digest::{ExtendableOutput, Update, XofReader};
            let mut h = <$krate::$ty>::default();
            h.update(data);
            h.finalize_xof().read(out);
        })
    };
}

#[cfg(feature = "rustcrypto-0_10")]
fn rustcrypto_0_10(algo: &'static Algo) -> Option<Subject> {
    Some(match algo.id {
        #[cfg(feature = "dropin")]
        "hmac-sha256" => hmac_subject!(algo, RC_OLD, "", false, sha2_0_10::Sha256),
        "md5" => rc_fixed!(algo, RC_OLD, md5_0_10::Md5),
        "sha1" => rc_fixed!(algo, RC_OLD, sha1_0_10::Sha1),
        "sha224" => rc_fixed!(algo, RC_OLD, sha2_0_10::Sha224),
        "sha256" => rc_fixed!(algo, RC_OLD, sha2_0_10::Sha256),
        "sha384" => rc_fixed!(algo, RC_OLD, sha2_0_10::Sha384),
        "sha512" => rc_fixed!(algo, RC_OLD, sha2_0_10::Sha512),
        "sha512-224" => rc_fixed!(algo, RC_OLD, sha2_0_10::Sha512_224),
        "sha512-256" => rc_fixed!(algo, RC_OLD, sha2_0_10::Sha512_256),
        "sha3-224" => rc_fixed!(algo, RC_OLD, sha3_0_10::Sha3_224),
        "sha3-256" => rc_fixed!(algo, RC_OLD, sha3_0_10::Sha3_256),
        "sha3-384" => rc_fixed!(algo, RC_OLD, sha3_0_10::Sha3_384),
        "sha3-512" => rc_fixed!(algo, RC_OLD, sha3_0_10::Sha3_512),
        "keccak256" => rc_fixed!(algo, RC_OLD, sha3_0_10::Keccak256),
        "shake128" => rc_xof!(algo, RC_OLD, sha3_0_10::Shake128),
        "shake256" => rc_xof!(algo, RC_OLD, sha3_0_10::Shake256),
        // k12 0.3's hasher borrows its customization string (empty here).
        "kt128" => Subject::new(algo, RC_OLD, "", false, |data: &[u8], out: &mut [u8]| {
            use k12_0_3::digest::{ExtendableOutput, Update, XofReader};
            let mut h = k12_0_3::KangarooTwelve::<'static>::default();
            h.update(data);
            h.finalize_xof().read(out);
        }),
        _ => return None,
    })
}

#[cfg(feature = "rustcrypto-new")]
fn rustcrypto_new(algo: &'static Algo) -> Option<Subject> {
    Some(match algo.id {
        #[cfg(feature = "dropin-0_11")]
        "hmac-sha256" => hmac013_subject!(algo, RC_NEW, sha2_new::Sha256),
        "md5" => rc_fixed!(algo, RC_NEW, md5_new::Md5),
        "sha1" => rc_fixed!(algo, RC_NEW, sha1_new::Sha1),
        "sha224" => rc_fixed!(algo, RC_NEW, sha2_new::Sha224),
        "sha256" => rc_fixed!(algo, RC_NEW, sha2_new::Sha256),
        "sha384" => rc_fixed!(algo, RC_NEW, sha2_new::Sha384),
        "sha512" => rc_fixed!(algo, RC_NEW, sha2_new::Sha512),
        "sha512-224" => rc_fixed!(algo, RC_NEW, sha2_new::Sha512_224),
        "sha512-256" => rc_fixed!(algo, RC_NEW, sha2_new::Sha512_256),
        "sha3-224" => rc_fixed!(algo, RC_NEW, sha3_new::Sha3_224),
        "sha3-256" => rc_fixed!(algo, RC_NEW, sha3_new::Sha3_256),
        "sha3-384" => rc_fixed!(algo, RC_NEW, sha3_new::Sha3_384),
        "sha3-512" => rc_fixed!(algo, RC_NEW, sha3_new::Sha3_512),
        "keccak256" => rc_fixed!(algo, RC_NEW, sha3_new::Keccak256),
        "shake128" => rc_xof!(algo, RC_NEW, shake_new::Shake128),
        "shake256" => rc_xof!(algo, RC_NEW, shake_new::Shake256),
        _ => return None,
    })
}

#[cfg(feature = "dropin")]
fn dropin(algo: &'static Algo) -> Option<Subject> {
    Some(match algo.id {
        "sha224" => rc_fixed!(algo, DROPIN, sha2_dropin::Sha224),
        "sha256" => rc_fixed!(algo, DROPIN, sha2_dropin::Sha256),
        "hmac-sha256" => hmac_subject!(algo, DROPIN, "", false, sha2_dropin::Sha256),
        "sha384" => rc_fixed!(algo, DROPIN, sha2_dropin::Sha384),
        "sha512" => rc_fixed!(algo, DROPIN, sha2_dropin::Sha512),
        "sha512-224" => rc_fixed!(algo, DROPIN, sha2_dropin::Sha512_224),
        "sha512-256" => rc_fixed!(algo, DROPIN, sha2_dropin::Sha512_256),
        _ => return None,
    })
}

#[cfg(feature = "dropin-0_11")]
fn dropin_0_11(algo: &'static Algo) -> Option<Subject> {
    Some(match algo.id {
        "sha224" => rc_fixed!(algo, DROPIN_011, sha2_dropin_0_11::Sha224),
        "sha256" => rc_fixed!(algo, DROPIN_011, sha2_dropin_0_11::Sha256),
        "hmac-sha256" => hmac013_subject!(algo, DROPIN_011, sha2_dropin_0_11::Sha256),
        "sha384" => rc_fixed!(algo, DROPIN_011, sha2_dropin_0_11::Sha384),
        "sha512" => rc_fixed!(algo, DROPIN_011, sha2_dropin_0_11::Sha512),
        "sha512-224" => rc_fixed!(algo, DROPIN_011, sha2_dropin_0_11::Sha512_224),
        "sha512-256" => rc_fixed!(algo, DROPIN_011, sha2_dropin_0_11::Sha512_256),
        _ => return None,
    })
}

#[cfg(feature = "ring")]
fn ring(algo: &'static Algo) -> Option<Subject> {
    use ring::digest;
    let alg: &'static digest::Algorithm = match algo.id {
        "sha1" => &digest::SHA1_FOR_LEGACY_USE_ONLY,
        "sha256" => &digest::SHA256,
        "sha384" => &digest::SHA384,
        "sha512" => &digest::SHA512,
        "sha512-256" => &digest::SHA512_256,
        _ => return None,
    };
    Some(Subject::new(algo, "ring", "", false, move |data: &[u8], out: &mut [u8]| {
        out.copy_from_slice(digest::digest(alg, data).as_ref())
    }))
}
