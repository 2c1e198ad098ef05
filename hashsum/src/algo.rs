//! The algorithms `hashsum` speaks, their names, and the two ways it hashes:
//! a batch of whole messages (`digest_many`, all SIMD lanes busy) and a
//! stream (one large file, the best single-stream backend).

use hash_core::{FixedAlgorithm, Hasher, OutputBytes, Xof, XofAlgorithm};

/// Output size of an algorithm: fixed, or chosen with `-l/--length`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Size {
    /// A fixed digest of this many bytes.
    Fixed(usize),
    /// An extendable-output function and its default length in bytes.
    Xof(usize),
}

/// One algorithm. To add one (the SHA-3 derived functions of SP 800-185 or
/// RFC 9861 once `sha3` has them), add a variant, a row in [`ALGOS`] and an
/// arm in [`Algo::digest_many`] and [`Algo::stream`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algo {
    Md5,
    Sha1,
    /// SHA-1 with collision detection (`sha1::Sha1Dc`): the SHA-1, or the
    /// reference's safe hash and a verdict for a detected attack.
    Sha1Dc,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    Sha512_224,
    Sha512_256,
    Sha3_224,
    Sha3_256,
    Sha3_384,
    Sha3_512,
    Keccak256,
    Shake128,
    Shake256,
    Kt128,
    Kt256,
    TurboShake128,
    TurboShake256,
}

/// An algorithm's row: `-a` name, the tag of `--tag` lines (GNU's
/// `DIGEST_TYPE_STRING` where GNU has the algorithm), the GNU tool that
/// `hashsum` imitates when invoked under its name, and the output size.
pub(crate) struct Info {
    pub(crate) algo: Algo,
    pub(crate) name: &'static str,
    pub(crate) tag: &'static str,
    pub(crate) gnu_tool: Option<&'static str>,
    pub(crate) size: Size,
}

pub(crate) const ALGOS: &[Info] = &[
    Info { algo: Algo::Md5, name: "md5", tag: "MD5", gnu_tool: Some("md5sum"), size: Size::Fixed(16) },
    Info { algo: Algo::Sha1, name: "sha1", tag: "SHA1", gnu_tool: Some("sha1sum"), size: Size::Fixed(20) },
    // SHA-1 lines (so `--tag` lists check with `sha1sum -c`); invoked as
    // `sha1dcsum`, the reference detection tool's name, behaves as
    // `sha1sum` with detection.
    Info { algo: Algo::Sha1Dc, name: "sha1dc", tag: "SHA1", gnu_tool: Some("sha1dcsum"), size: Size::Fixed(20) },
    Info { algo: Algo::Sha224, name: "sha224", tag: "SHA224", gnu_tool: Some("sha224sum"), size: Size::Fixed(28) },
    Info { algo: Algo::Sha256, name: "sha256", tag: "SHA256", gnu_tool: Some("sha256sum"), size: Size::Fixed(32) },
    Info { algo: Algo::Sha384, name: "sha384", tag: "SHA384", gnu_tool: Some("sha384sum"), size: Size::Fixed(48) },
    Info { algo: Algo::Sha512, name: "sha512", tag: "SHA512", gnu_tool: Some("sha512sum"), size: Size::Fixed(64) },
    // Perl's `shasum --tag` spelling of the truncated SHA-512 variants.
    Info { algo: Algo::Sha512_224, name: "sha512-224", tag: "SHA512/224", gnu_tool: None, size: Size::Fixed(28) },
    Info { algo: Algo::Sha512_256, name: "sha512-256", tag: "SHA512/256", gnu_tool: None, size: Size::Fixed(32) },
    // GNU `cksum -a sha3 --tag` writes `SHA3-256 (NAME) = ...`.
    Info { algo: Algo::Sha3_224, name: "sha3-224", tag: "SHA3-224", gnu_tool: None, size: Size::Fixed(28) },
    Info { algo: Algo::Sha3_256, name: "sha3-256", tag: "SHA3-256", gnu_tool: None, size: Size::Fixed(32) },
    Info { algo: Algo::Sha3_384, name: "sha3-384", tag: "SHA3-384", gnu_tool: None, size: Size::Fixed(48) },
    Info { algo: Algo::Sha3_512, name: "sha3-512", tag: "SHA3-512", gnu_tool: None, size: Size::Fixed(64) },
    Info { algo: Algo::Keccak256, name: "keccak256", tag: "KECCAK256", gnu_tool: None, size: Size::Fixed(32) },
    Info { algo: Algo::Shake128, name: "shake128", tag: "SHAKE128", gnu_tool: None, size: Size::Xof(32) },
    Info { algo: Algo::Shake256, name: "shake256", tag: "SHAKE256", gnu_tool: None, size: Size::Xof(64) },
    // RFC 9861: KangarooTwelve (KT128, KT256; empty customization string)
    // and TurboSHAKE (domain byte D = 0x1F, the RFC's default); default
    // lengths as the RFC's first test vectors.
    Info { algo: Algo::Kt128, name: "kt128", tag: "KT128", gnu_tool: None, size: Size::Xof(32) },
    Info { algo: Algo::Kt256, name: "kt256", tag: "KT256", gnu_tool: None, size: Size::Xof(64) },
    Info {
        algo: Algo::TurboShake128,
        name: "turboshake128",
        tag: "TurboSHAKE128",
        gnu_tool: None,
        size: Size::Xof(32),
    },
    Info {
        algo: Algo::TurboShake256,
        name: "turboshake256",
        tag: "TurboSHAKE256",
        gnu_tool: None,
        size: Size::Xof(64),
    },
];

/// The diagnostic for a file in which `sha1dc` detected a SHA-1 collision
/// attack (after the program's and the file's names).
pub(crate) const COLLISION: &str = "SHA-1 collision attack detected";

/// The longest output `-l/--length` accepts, in bytes.
pub(crate) const MAX_XOF_LEN: usize = 1 << 16;

impl Algo {
    pub(crate) fn info(self) -> &'static Info {
        ALGOS.iter().find(|i| i.algo == self).expect("every Algo has a row in ALGOS")
    }

    pub(crate) fn by_name(name: &str) -> Option<Algo> {
        ALGOS.iter().find(|i| i.name.eq_ignore_ascii_case(name)).map(|i| i.algo)
    }

    pub(crate) fn by_gnu_tool(tool: &str) -> Option<Algo> {
        ALGOS.iter().find(|i| i.gnu_tool == Some(tool)).map(|i| i.algo)
    }

    pub(crate) fn names() -> String {
        ALGOS.iter().map(|i| i.name).collect::<Vec<_>>().join(", ")
    }

    /// Hash every message of `inputs`; digest `i` goes to
    /// `out[i * len..(i + 1) * len]` (`len` is the output length: the fixed
    /// size, or the XOF length chosen). `collided[i]` is set when a SHA-1
    /// collision attack was detected in message `i` (`sha1dc` only; its
    /// digest is then the safe hash); the other entries are left alone.
    pub(crate) fn digest_many(self, inputs: &[&[u8]], len: usize, out: &mut [u8], collided: &mut [bool]) {
        debug_assert_eq!(out.len(), inputs.len() * len);
        debug_assert_eq!(collided.len(), inputs.len());
        match self {
            Algo::Md5 => fixed_many::<md5::algorithm::Md5>(inputs, out),
            Algo::Sha1 => fixed_many::<sha1::algorithm::Sha1>(inputs, out),
            Algo::Sha1Dc => {
                let mut results = vec![Ok([0u8; 20]); inputs.len()];
                sha1::Sha1Dc::digest_many(inputs, &mut results);
                for ((slot, result), flag) in out.chunks_exact_mut(20).zip(results).zip(collided) {
                    let (digest, found) = dc_output(result);
                    slot.copy_from_slice(&digest);
                    *flag = found;
                }
            }
            Algo::Sha224 => fixed_many::<sha256::algorithm::Sha224>(inputs, out),
            Algo::Sha256 => fixed_many::<sha256::algorithm::Sha256>(inputs, out),
            Algo::Sha384 => fixed_many::<sha512::algorithm::Sha384>(inputs, out),
            Algo::Sha512 => fixed_many::<sha512::algorithm::Sha512>(inputs, out),
            Algo::Sha512_224 => fixed_many::<sha512::algorithm::Sha512_224>(inputs, out),
            Algo::Sha512_256 => fixed_many::<sha512::algorithm::Sha512_256>(inputs, out),
            Algo::Sha3_224 => fixed_many::<sha3::algorithm::Sha3_224>(inputs, out),
            Algo::Sha3_256 => fixed_many::<sha3::algorithm::Sha3_256>(inputs, out),
            Algo::Sha3_384 => fixed_many::<sha3::algorithm::Sha3_384>(inputs, out),
            Algo::Sha3_512 => fixed_many::<sha3::algorithm::Sha3_512>(inputs, out),
            Algo::Keccak256 => fixed_many::<sha3::algorithm::Keccak256>(inputs, out),
            Algo::Shake128 => xof_many::<sha3::algorithm::Shake128>(inputs, len, out),
            Algo::Shake256 => xof_many::<sha3::algorithm::Shake256>(inputs, len, out),
            Algo::TurboShake128 => xof_many::<sha3::algorithm::TurboShake128>(inputs, len, out),
            Algo::TurboShake256 => xof_many::<sha3::algorithm::TurboShake256>(inputs, len, out),
            // A tree hash: each message on its own (its leaves use the
            // multi-lane engine when it is long enough to have several).
            Algo::Kt128 => {
                for (input, slot) in inputs.iter().zip(out.chunks_exact_mut(len)) {
                    sha3::KangarooTwelve::digest_xof(b"", input, slot);
                }
            }
            Algo::Kt256 => {
                for (input, slot) in inputs.iter().zip(out.chunks_exact_mut(len)) {
                    sha3::Kt256::digest_xof(b"", input, slot);
                }
            }
        }
    }

    /// A streaming hasher for one long message.
    pub(crate) fn stream(self) -> Box<dyn Stream> {
        match self {
            Algo::Md5 => Box::new(md5::Md5::new()),
            Algo::Sha1 => Box::new(sha1::Sha1::new()),
            Algo::Sha1Dc => Box::new(sha1::Sha1Dc::new()),
            Algo::Sha224 => Box::new(sha256::Sha224::new()),
            Algo::Sha256 => Box::new(sha256::Sha256::new()),
            Algo::Sha384 => Box::new(sha512::Sha384::new()),
            Algo::Sha512 => Box::new(sha512::Sha512::new()),
            Algo::Sha512_224 => Box::new(sha512::Sha512_224::new()),
            Algo::Sha512_256 => Box::new(sha512::Sha512_256::new()),
            Algo::Sha3_224 => Box::new(sha3::Sha3_224::new()),
            Algo::Sha3_256 => Box::new(sha3::Sha3_256::new()),
            Algo::Sha3_384 => Box::new(sha3::Sha3_384::new()),
            Algo::Sha3_512 => Box::new(sha3::Sha3_512::new()),
            Algo::Keccak256 => Box::new(sha3::Keccak256::new()),
            Algo::Shake128 => Box::new(sha3::Shake128::new()),
            Algo::Shake256 => Box::new(sha3::Shake256::new()),
            Algo::TurboShake128 => Box::new(hash_core::Xof::<sha3::algorithm::TurboShake128>::new()),
            Algo::TurboShake256 => Box::new(hash_core::Xof::<sha3::algorithm::TurboShake256>::new()),
            Algo::Kt128 => Box::new(sha3::KangarooTwelve::new(b"")),
            Algo::Kt256 => Box::new(sha3::Kt256::new(b"")),
        }
    }
}

/// A message hashed piece by piece.
pub(crate) trait Stream: Send {
    fn update(&mut self, data: &[u8]);
    /// Write the digest (or, for an XOF, `out.len()` bytes of output).
    /// True when a SHA-1 collision attack was detected (`sha1dc` only; the
    /// digest written is then the safe hash).
    fn finish(self: Box<Self>, out: &mut [u8]) -> bool;
}

/// What `sha1dc` outputs for a message: the SHA-1, or on a detected attack
/// the safe hash (what the reference `sha1dcsum` and git print) and true.
fn dc_output(result: Result<[u8; 20], sha1::Collision>) -> ([u8; 20], bool) {
    match result {
        Ok(digest) => (digest, false),
        Err(collision) => (collision.safe_digest(), true),
    }
}

impl Stream for sha1::Sha1Dc {
    fn update(&mut self, data: &[u8]) {
        sha1::Sha1Dc::update(self, data);
    }

    fn finish(self: Box<Self>, out: &mut [u8]) -> bool {
        let (digest, found) = dc_output(self.finalize());
        out.copy_from_slice(&digest);
        found
    }
}

impl<A: FixedAlgorithm> Stream for Hasher<A>
where
    A::Backend: Send,
    A::State: Send,
{
    fn update(&mut self, data: &[u8]) {
        Hasher::update(self, data);
    }

    fn finish(self: Box<Self>, out: &mut [u8]) -> bool {
        out.copy_from_slice(self.finalize().as_ref());
        false
    }
}

impl<A: XofAlgorithm> Stream for Xof<A>
where
    A::Backend: Send,
{
    fn update(&mut self, data: &[u8]) {
        Xof::update(self, data);
    }

    fn finish(self: Box<Self>, out: &mut [u8]) -> bool {
        self.finalize_xof().read(out);
        false
    }
}

impl Stream for sha3::KangarooTwelve<'static> {
    fn update(&mut self, data: &[u8]) {
        sha3::KangarooTwelve::update(self, data);
    }

    fn finish(self: Box<Self>, out: &mut [u8]) -> bool {
        self.finalize_xof().read(out);
        false
    }
}

impl Stream for sha3::Kt256<'static> {
    fn update(&mut self, data: &[u8]) {
        sha3::Kt256::update(self, data);
    }

    fn finish(self: Box<Self>, out: &mut [u8]) -> bool {
        self.finalize_xof().read(out);
        false
    }
}

fn fixed_many<A: FixedAlgorithm>(inputs: &[&[u8]], out: &mut [u8]) {
    let mut digests = vec![A::Output::zeroed(); inputs.len()];
    Hasher::<A>::digest_many(inputs, &mut digests);
    let len = out.len() / inputs.len().max(1);
    for (slot, digest) in out.chunks_exact_mut(len.max(1)).zip(&digests) {
        slot.copy_from_slice(digest.as_ref());
    }
}

fn xof_many<A: XofAlgorithm>(inputs: &[&[u8]], len: usize, out: &mut [u8]) {
    let mut slots: Vec<&mut [u8]> = out.chunks_exact_mut(len).collect();
    Xof::<A>::digest_xof_many(inputs, &mut slots);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batch path and the streaming path agree for every algorithm, on
    /// messages around the block sizes, split at odd places.
    #[test]
    fn batch_matches_stream() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        let lens = [0usize, 1, 55, 56, 63, 64, 111, 112, 127, 128, 135, 136, 167, 168, 999];
        for info in ALGOS {
            let len = match info.size {
                Size::Fixed(n) => n,
                Size::Xof(_) => 100,
            };
            let inputs: Vec<&[u8]> = lens.iter().map(|&n| &data[..n]).collect();
            let mut batch = vec![0u8; inputs.len() * len];
            let mut collided = vec![false; inputs.len()];
            info.algo.digest_many(&inputs, len, &mut batch, &mut collided);
            assert!(collided.iter().all(|&c| !c), "{}: no collision attack in these messages", info.name);
            for (i, input) in inputs.iter().enumerate() {
                let mut s = info.algo.stream();
                let (a, b) = input.split_at(input.len() / 3);
                s.update(a);
                s.update(b);
                let mut one = vec![0u8; len];
                assert!(!s.finish(&mut one));
                assert_eq!(one, batch[i * len..(i + 1) * len], "{} at {} bytes", info.name, input.len());
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for info in ALGOS {
            assert_eq!(Algo::by_name(info.name), Some(info.algo));
            assert_eq!(info.algo.info().name, info.name);
        }
        assert_eq!(Algo::by_gnu_tool("sha256sum"), Some(Algo::Sha256));
        assert_eq!(Algo::by_gnu_tool("b2sum"), None);
    }

    /// RFC 9861's first vectors (empty message; KT with an empty
    /// customization string, TurboSHAKE with D = 0x1F), through both paths.
    #[test]
    fn rfc9861_empty_message() {
        let cases = [
            (Algo::Kt128, "1ac2d450fc3b4205d19da7bfca1b37513c0803577ac7167f06fe2ce1f0ef39e5"),
            (Algo::TurboShake128, "1e415f1c5983aff2169217277d17bb538cd945a397ddec541f1ce41af2c1b74c"),
        ];
        for (algo, hex) in cases {
            let mut batch = [0u8; 32];
            algo.digest_many(&[b""], 32, &mut batch, &mut [false]);
            let mut one = [0u8; 32];
            assert!(!algo.stream().finish(&mut one));
            let got: String = batch.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(got, hex, "{algo:?}");
            assert_eq!(one, batch, "{algo:?}");
        }
    }
}
