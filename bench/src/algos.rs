//! The algorithms of the workspace as the benchmarks and reports name
//! them: ids, standard names, crates, output lengths.

/// Whether an algorithm has a fixed-size digest or is an XOF.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A fixed-size digest (`T::digest`).
    Fixed,
    /// An extendable-output function (`T::digest_xof`); the benchmarks read
    /// [`Algo::out_len`] bytes of output.
    Xof,
}

/// An algorithm, as the benchmarks and reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Algo {
    /// Short id used on command lines and in file names (`"sha512-256"`).
    pub id: &'static str,
    /// The standard name (`"SHA-512/256"`).
    pub name: &'static str,
    /// Our crate that implements it.
    pub crate_name: &'static str,
    /// Digest length in bytes; for an XOF, the output length the benchmarks
    /// read: twice the security strength (FIPS 202 §A.2), 32 bytes for
    /// SHAKE128 and 64 for SHAKE256.
    pub out_len: usize,
    /// Fixed digest or XOF.
    pub kind: Kind,
    /// Part of the default benchmark set (the others run on request,
    /// `--algo sha3-224`).
    pub default: bool,
}

const fn algo(id: &'static str, name: &'static str, crate_name: &'static str, out_len: usize, default: bool) -> Algo {
    Algo { id, name, crate_name, out_len, kind: Kind::Fixed, default }
}

/// Every algorithm of the workspace, in report order.
pub const ALGOS: &[Algo] = &[
    algo("md5", "MD5", "md5", 16, true),
    algo("sha1", "SHA-1", "sha1", 20, true),
    algo("sha224", "SHA-224", "sha256", 28, true),
    algo("sha256", "SHA-256", "sha256", 32, true),
    algo("sha384", "SHA-384", "sha512", 48, true),
    algo("sha512", "SHA-512", "sha512", 64, true),
    algo("sha512-224", "SHA-512/224", "sha512", 28, false),
    algo("sha512-256", "SHA-512/256", "sha512", 32, true),
    algo("sha3-224", "SHA3-224", "sha3", 28, false),
    algo("sha3-256", "SHA3-256", "sha3", 32, true),
    algo("sha3-384", "SHA3-384", "sha3", 48, false),
    algo("sha3-512", "SHA3-512", "sha3", 64, true),
    algo("keccak256", "Keccak-256", "sha3", 32, false),
    Algo { id: "shake128", name: "SHAKE128", crate_name: "sha3", out_len: 32, kind: Kind::Xof, default: true },
    Algo { id: "shake256", name: "SHAKE256", crate_name: "sha3", out_len: 64, kind: Kind::Xof, default: true },
    // RFC 9861: KangarooTwelve (empty customization) and TurboSHAKE (D = 0x1F).
    Algo { id: "kt128", name: "KT128", crate_name: "sha3", out_len: 32, kind: Kind::Xof, default: true },
    Algo { id: "kt256", name: "KT256", crate_name: "sha3", out_len: 64, kind: Kind::Xof, default: false },
    Algo {
        id: "turboshake128",
        name: "TurboSHAKE128",
        crate_name: "sha3",
        out_len: 32,
        kind: Kind::Xof,
        default: true,
    },
    Algo {
        id: "turboshake256",
        name: "TurboSHAKE256",
        crate_name: "sha3",
        out_len: 64,
        kind: Kind::Xof,
        default: false,
    },
];

/// The algorithm with this id, if any.
pub fn find_algo(id: &str) -> Option<&'static Algo> {
    ALGOS.iter().find(|a| a.id == id)
}

/// The longest output of any algorithm here.
pub const MAX_OUT: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn algo_ids_are_unique_and_found() {
        for a in ALGOS {
            assert_eq!(find_algo(a.id), Some(a));
            assert!(a.out_len <= MAX_OUT);
        }
        assert_eq!(find_algo("sha-256"), None);
    }
}
