//! The loops `cargo xtask mca` models: for each of our aarch64 backends
//! and each OpenSSL routine it is compared with, where the loop lives, the
//! instruction that marks it and what one pass of it does.

use super::objdump::Insn;

/// An instruction that marks a loop: its mnemonic (empty: any), and text
/// its operands must contain (empty: any).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mark(pub(super) &'static str, pub(super) &'static str);

impl Mark {
    pub(super) fn matches(&self, insn: &Insn) -> bool {
        (self.0.is_empty() || insn.mnemonic == self.0) && insn.operands.contains(self.1)
    }
}

/// Where a loop lives.
#[derive(Clone, Copy, Debug)]
pub(super) enum Place {
    /// In our binary: a function whose demangled name, less its `::h<hash>`
    /// suffix, is this.
    Ours(&'static str),
    /// In OpenSSL's libcrypto, anywhere.
    OpenSsl,
    /// In OpenSSL's libcrypto: the first loop after the `adr` of the table
    /// that starts with these 8 bytes (little-endian constants).
    OpenSslAfterTable(&'static [u8]),
}

/// How the loop is chosen and what one pass of it does.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spec {
    /// Row title.
    pub(super) title: &'static str,
    pub(super) place: Place,
    /// The innermost loop holding this instruction (or, with `outer`, the
    /// outermost); `None` with `OpenSslAfterTable`.
    pub(super) mark: Option<Mark>,
    pub(super) outer: bool,
    /// Units (blocks, rounds) per pass: the count of this instruction in
    /// the loop divided by the second field; `None`: one.
    pub(super) unit: Option<(Mark, usize)>,
    /// Which instance, when several functions match: the one with this many
    /// units per pass.
    pub(super) units: Option<usize>,
    /// Divisor for results per state or lane on top of units (2 Keccak
    /// states in one register).
    pub(super) per: usize,
    /// Passes of each loop nested in the chosen one, per pass of it.
    pub(super) inner_trips: usize,
    /// No loop: the whole function is one pass (code unrolled by LLVM).
    pub(super) whole: bool,
    /// The OpenSSL row this one is compared with (its title), if any.
    pub(super) versus: Option<&'static str>,
}

pub(super) const fn spec(title: &'static str, place: Place, mark: Option<Mark>) -> Spec {
    Spec {
        title,
        place,
        mark,
        outer: false,
        unit: None,
        units: None,
        per: 1,
        inner_trips: 0,
        whole: false,
        versus: None,
    }
}

/// K512[0..1] (FIPS 180-4 §4.2.3) and Keccak's RC[0..1] (FIPS 202
/// §3.2.5), little-endian: the tables OpenSSL's scalar loops start from.
const K512_HEAD: &[u8] = &0x428a_2f98_d728_ae22_u64.to_le_bytes();

const IOTA_HEAD: &[u8] = &[1, 0, 0, 0, 0, 0, 0, 0, 0x82, 0x80, 0, 0, 0, 0, 0, 0];

const SHA1_ROUND: Mark = Mark("sha1h", "");

pub(super) const SHA256_ROUND: Mark = Mark("sha256h", "");

const SHA512_ROUND: Mark = Mark("sha512h", "");

const CHI: Mark = Mark("bcax", "");

const SCALAR_CHI: Mark = Mark("bic", "");

const O_SHA1: &str = "SHA-1 OpenSSL `sha1_block_armv8`";

const O_SHA256: &str = "SHA-256 OpenSSL `sha256_block_armv8`";

const O_SHA512: &str = "SHA-512 OpenSSL `sha512_block_armv8`";

const O_SHA512_SCALAR: &str = "SHA-512 OpenSSL `sha512_block_data_order` (scalar)";

const O_MD5: &str = "MD5 OpenSSL `md5_block_data_order` (C, no aarch64 assembly in 3.0)";

const O_KECCAK: &str = "Keccak round OpenSSL `KeccakF1600_ce`";

const O_KECCAK_SCALAR: &str = "Keccak round OpenSSL `KeccakF1600_int` (scalar)";

/// Every row of the table, OpenSSL's first in each group.
pub(super) fn specs() -> Vec<Spec> {
    let ours = |title, function, mark, unit: (Mark, usize), units, versus| Spec {
        unit: Some(unit),
        units: Some(units),
        versus: Some(versus),
        ..spec(title, Place::Ours(function), Some(mark))
    };
    let sha1 = "sha1::backend::aarch64_sha::";
    let sha256 = "sha256::backend::aarch64_sha::";
    let sha512 = "sha512::backend::aarch64_sha512::";
    let md5_lanes = Place::Ours("md5::backend::aarch64_neon::compress_lanes");
    // A rotation is `shl` + `sri`, which LLVM turns into `shl` + `usra`
    // (the halves do not overlap); 60 per group of 4 lanes per block, the 4
    // rotations by 16 being `rev32 .8h`.
    let rotate = Mark("usra", "");
    vec![
        Spec { unit: Some((SHA1_ROUND, 20)), ..spec(O_SHA1, Place::OpenSsl, Some(SHA1_ROUND)) },
        ours("SHA-1 `arm-sha`, 1 stream", leak(sha1, "compress"), SHA1_ROUND, (SHA1_ROUND, 20), 1, O_SHA1),
        ours(
            "SHA-1 `arm-sha`, 2 streams, per block",
            leak(sha1, "compress_lanes"),
            SHA1_ROUND,
            (SHA1_ROUND, 20),
            2,
            O_SHA1,
        ),
        ours(
            "SHA-1 `arm-sha`, 3 streams, per block",
            leak(sha1, "compress_lanes"),
            SHA1_ROUND,
            (SHA1_ROUND, 20),
            3,
            O_SHA1,
        ),
        Spec { unit: Some((SHA256_ROUND, 16)), ..spec(O_SHA256, Place::OpenSsl, Some(SHA256_ROUND)) },
        ours("SHA-256 `arm-sha`, 1 stream", leak(sha256, "compress"), SHA256_ROUND, (SHA256_ROUND, 16), 1, O_SHA256),
        ours(
            "SHA-256 `arm-sha`, 2 streams, per block",
            leak(sha256, "compress_lanes"),
            SHA256_ROUND,
            (SHA256_ROUND, 16),
            2,
            O_SHA256,
        ),
        ours(
            "SHA-256 `arm-sha`, 3 streams, per block",
            leak(sha256, "compress_lanes"),
            SHA256_ROUND,
            (SHA256_ROUND, 16),
            3,
            O_SHA256,
        ),
        Spec { unit: Some((SHA512_ROUND, 40)), ..spec(O_SHA512, Place::OpenSsl, Some(SHA512_ROUND)) },
        ours("SHA-512 `arm-sha512`, 1 stream", leak(sha512, "compress"), SHA512_ROUND, (SHA512_ROUND, 40), 1, O_SHA512),
        ours(
            "SHA-512 `arm-sha512`, 2 streams, per block",
            leak(sha512, "compress2"),
            SHA512_ROUND,
            (SHA512_ROUND, 40),
            2,
            O_SHA512,
        ),
        Spec { inner_trips: 4, ..spec(O_SHA512_SCALAR, Place::OpenSslAfterTable(K512_HEAD), None) },
        Spec {
            outer: true,
            inner_trips: 4,
            versus: Some(O_SHA512_SCALAR),
            ..spec(
                "SHA-512 `aarch64` (scalar)",
                Place::Ours("sha512::backend::aarch64_scalar::compress"),
                Some(Mark("ror", "")),
            )
        },
        Spec { outer: true, ..spec(O_MD5, Place::OpenSsl, Some(Mark("movk", "#0xd76a, lsl #16"))) },
        Spec {
            outer: true,
            versus: Some(O_MD5),
            ..spec(
                "MD5 `aarch64` (scalar asm)",
                Place::Ours("md5::backend::aarch64_asm::compress"),
                Some(Mark("ror", "")),
            )
        },
        Spec {
            unit: Some((rotate, 60)),
            units: Some(1),
            per: 4,
            versus: Some(O_MD5),
            ..spec("MD5 `aarch64` NEON, 4 lanes, per block", md5_lanes, Some(rotate))
        },
        Spec {
            unit: Some((rotate, 60)),
            units: Some(2),
            per: 4,
            versus: Some(O_MD5),
            ..spec("MD5 `aarch64` NEON, 8 lanes, per block", md5_lanes, Some(rotate))
        },
        Spec { unit: Some((CHI, 25)), ..spec(O_KECCAK, Place::OpenSsl, Some(CHI)) },
        Spec {
            unit: Some((CHI, 25)),
            units: Some(2),
            versus: Some(O_KECCAK),
            ..spec("Keccak round `arm-sha3`, 1 state", Place::Ours("sha3::backend::aarch64_sha3::permute"), Some(CHI))
        },
        Spec {
            unit: Some((CHI, 25)),
            units: Some(2),
            per: 2,
            versus: Some(O_KECCAK),
            ..spec(
                "Keccak round `arm-sha3`, 2 states, per state",
                Place::Ours("sha3::backend::aarch64_sha3::absorb2"),
                Some(CHI),
            )
        },
        Spec { unit: Some((SCALAR_CHI, 25)), ..spec(O_KECCAK_SCALAR, Place::OpenSslAfterTable(IOTA_HEAD), None) },
        Spec {
            whole: true,
            unit: Some((SCALAR_CHI, 25)),
            units: Some(24),
            versus: Some(O_KECCAK_SCALAR),
            ..spec(
                "Keccak round `aarch64` (scalar: the whole unrolled 24-round `permute`)",
                Place::Ours("sha3::backend::aarch64_keccak::permute"),
                None,
            )
        },
    ]
}

/// `module` + `name`, as a `'static` string (a handful, once per run).
fn leak(module: &str, name: &str) -> &'static str {
    Box::leak(format!("{module}{name}").into_boxed_str())
}
