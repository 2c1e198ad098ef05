//! Benchmark subjects: every algorithm of the `hashes` crates, once per
//! backend this CPU supports, as closures with one calling convention.
//!
//! Two programs measure them:
//!
//! * the criterion benches of this crate (`cargo bench -p bench`), which
//!   time our crates alone, every algorithm x backend x message size;
//! * the peer comparison in `bench/peers` (a separate Cargo workspace, so
//!   that RustCrypto's `sha1` and `sha3` never enter this workspace's
//!   dependency graph), which adds OpenSSL, `ring` and RustCrypto's crates
//!   beside these subjects and is driven by `cargo xtask bench`.
//!
//! Each algorithm crate sits behind a cargo feature of the same name (all on
//! by default), so the peer comparison can leave out a crate that does not
//! build and still report the others.
#![forbid(unsafe_code)]

use std::hint::black_box;

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

/// The family name of our own crates in reports.
pub const OURS: &str = "ours";

type HashFn = dyn Fn(&[u8], &mut [u8]);
type RunFn = dyn Fn(&[u8], u64) -> u8;
type ManyRunFn = dyn Fn(&[&[u8]], u64) -> u8;
type ManyHashFn = dyn Fn(&[&[u8]], &mut [Vec<u8>]);
type PiecesFn = dyn Fn(&[&[u8]], &mut [u8]);

/// One implementation of one algorithm, ready to be timed.
pub struct Subject {
    /// The algorithm.
    pub algo: &'static Algo,
    /// Who wrote it: [`OURS`], `"openssl"`, `"ring"`, `"rustcrypto-0.10"`, ...
    pub family: &'static str,
    /// Our backend's name, or the peer's version; may be empty.
    pub variant: String,
    /// For our subjects: this is the backend `Backend::detect()` picks.
    pub detected: bool,
    hash: Box<HashFn>,
    run: Box<RunFn>,
}

impl Subject {
    /// A subject whose one-shot hash of `data` writes exactly `out.len()`
    /// (= `algo.out_len`) bytes into `out`.
    ///
    /// The timing loop is monomorphised over `f`, so timing costs no
    /// indirect call per message.
    pub fn new<F>(algo: &'static Algo, family: &'static str, variant: impl Into<String>, detected: bool, f: F) -> Self
    where
        F: Fn(&[u8], &mut [u8]) + Copy + 'static,
    {
        let out_len = algo.out_len;
        let run = move |data: &[u8], iters: u64| {
            let mut out = [0u8; MAX_OUT];
            let out = &mut out[..out_len];
            let mut fold = 0u8;
            for _ in 0..iters {
                f(black_box(data), out);
                fold ^= black_box(&*out)[0];
            }
            fold
        };
        Subject { algo, family, variant: variant.into(), detected, hash: Box::new(f), run: Box::new(run) }
    }

    /// `"ours sha-ni"`, `"openssl"`, `"rustcrypto-0.10"`.
    pub fn label(&self) -> String {
        if self.variant.is_empty() || self.family != OURS {
            self.family.to_string()
        } else {
            format!("{} {}", self.family, self.variant)
        }
    }

    /// The digest of `data` (`algo.out_len` bytes), to check the subject
    /// against the others before timing it.
    pub fn digest(&self, data: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; self.algo.out_len];
        (self.hash)(data, &mut out);
        out
    }

    /// Hash `data` `iters` times; returns a byte of the results so that
    /// the work cannot be optimised away.
    #[inline]
    pub fn run(&self, data: &[u8], iters: u64) -> u8 {
        (self.run)(data, iters)
    }
}

/// A batch subject: hashes a set of messages at once (`digest_many`), or
/// one by one with the detected single-stream backend (the baseline).
pub struct ManySubject {
    /// The algorithm.
    pub algo: &'static Algo,
    /// `"digest_many <backend>"` or `"one by one <backend>"`.
    pub label: String,
    /// Whether this is the one-by-one baseline.
    pub baseline: bool,
    /// Whether this is `digest_many` on the backend `Backend::detect`
    /// picks (what a caller gets by default).
    pub detected: bool,
    run: Box<ManyRunFn>,
    hash: Box<ManyHashFn>,
    engine: Box<dyn Fn(usize) -> &'static str>,
}

impl ManySubject {
    /// A batch subject that hashes `inputs[i]` into `outputs[i]`, an
    /// `N`-byte digest (`N` is `algo.out_len`). The outputs are made once
    /// per timed run and written in place: a batch's timing holds nothing
    /// but the hashing (no buffer to clear or copy per batch, which for a
    /// batch of two 16-byte messages cost as much as a third of it).
    ///
    /// # Panics
    /// If `N` differs from `algo.out_len`.
    pub fn new<const N: usize, F>(algo: &'static Algo, label: String, baseline: bool, f: F) -> Self
    where
        F: Fn(&[&[u8]], &mut [[u8; N]]) + Copy + 'static,
    {
        assert_eq!(N, algo.out_len, "{}: a {N}-byte batch subject for {}-byte digests", algo.name, algo.out_len);
        let run = move |inputs: &[&[u8]], iters: u64| {
            let mut outs = vec![[0u8; N]; inputs.len()];
            let mut fold = 0u8;
            for _ in 0..iters {
                f(black_box(inputs), &mut outs);
                fold ^= black_box(&outs)[0][0];
            }
            fold
        };
        let hash = move |inputs: &[&[u8]], outs: &mut [Vec<u8>]| {
            let mut raw = vec![[0u8; N]; inputs.len()];
            f(inputs, &mut raw);
            for (o, r) in outs.iter_mut().zip(&raw) {
                *o = r.to_vec();
            }
        };
        let engine = Box::new(move |_: usize| if baseline { "one by one" } else { "-" });
        ManySubject { algo, label, baseline, detected: false, run: Box::new(run), hash: Box::new(hash), engine }
    }

    /// Mark this as `digest_many` on the detected backend (or not).
    pub fn with_detected(mut self, detected: bool) -> Self {
        self.detected = detected;
        self
    }

    /// Name the engine a batch of a given size runs on
    /// (`Backend::batch_engine`).
    pub fn with_engine(mut self, engine: impl Fn(usize) -> &'static str + 'static) -> Self {
        self.engine = Box::new(engine);
        self
    }

    /// The engine a batch of `messages` runs on (`"avx512 16 lanes"`).
    pub fn engine(&self, messages: usize) -> &'static str {
        (self.engine)(messages)
    }

    /// Hash the batch `iters` times.
    #[inline]
    pub fn run(&self, inputs: &[&[u8]], iters: u64) -> u8 {
        (self.run)(inputs, iters)
    }

    /// The digests of the batch, to check against one-by-one hashing.
    pub fn digests(&self, inputs: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut outs = vec![Vec::new(); inputs.len()];
        (self.hash)(inputs, &mut outs);
        outs
    }
}

/// One of our backends hashing a message that arrives in pieces: one
/// `update` per piece, then (for an XOF) the output read in two parts. For
/// differential tests of the streaming path; not timed.
pub struct StreamSubject {
    /// The algorithm.
    pub algo: &'static Algo,
    /// The backend's name.
    pub backend: &'static str,
    hash: Box<PiecesFn>,
}

impl StreamSubject {
    /// The digest (for an XOF, `algo.out_len` bytes of output) of the
    /// concatenation of `pieces`.
    pub fn digest(&self, pieces: &[&[u8]]) -> Vec<u8> {
        let mut out = vec![0u8; self.algo.out_len];
        (self.hash)(pieces, &mut out);
        out
    }
}

/// The backends of one of our crates on this CPU.
#[derive(Clone, Debug)]
pub struct CrateBackends {
    /// The crate (`"sha256"`).
    pub crate_name: &'static str,
    /// What `Backend::detect()` picks.
    pub detected: &'static str,
    /// `Backend::available()`, best first.
    pub available: Vec<&'static str>,
    /// Backends compiled in but not runnable here, with the reason.
    pub unavailable: Vec<(&'static str, String)>,
}

/// Our crates compiled into this build (see the crate features).
pub fn crates_built() -> Vec<&'static str> {
    let mut v = Vec::new();
    if cfg!(feature = "md5") {
        v.push("md5");
    }
    if cfg!(feature = "sha1") {
        v.push("sha1");
    }
    if cfg!(feature = "sha256") {
        v.push("sha256");
    }
    if cfg!(feature = "sha512") {
        v.push("sha512");
    }
    if cfg!(feature = "sha3") {
        v.push("sha3");
    }
    v
}

#[allow(unused_macros)]
macro_rules! crate_backends {
    ($krate:literal, $backend:ty) => {{
        type B = $backend;
        CrateBackends {
            crate_name: $krate,
            detected: B::detect().name(),
            available: B::available().map(B::name).collect(),
            unavailable: B::all()
                .iter()
                .filter_map(|b| b.check().err().map(|e| (b.name(), format!("needs {}", e.requires))))
                .collect(),
        }
    }};
}

/// Backend information for every crate in [`crates_built`].
pub fn crate_backends() -> Vec<CrateBackends> {
    #[allow(unused_mut)]
    let mut v = Vec::new();
    #[cfg(feature = "md5")]
    v.push(crate_backends!("md5", md5::Backend));
    #[cfg(feature = "sha1")]
    v.push(crate_backends!("sha1", sha1::Backend));
    #[cfg(feature = "sha256")]
    v.push(crate_backends!("sha256", sha256::Backend));
    #[cfg(feature = "sha512")]
    v.push(crate_backends!("sha512", sha512::Backend));
    #[cfg(feature = "sha3")]
    v.push(crate_backends!("sha3", sha3::Backend));
    v
}

/// Our fixed-output hasher `$ty` with backend enum `$backend`: one subject
/// per available backend.
#[allow(unused_macros)]
macro_rules! fixed_subjects {
    ($algo:expr, $ty:ty, $backend:ty) => {{
        let detected = <$backend>::detect();
        <$backend>::available()
            .map(|b| {
                Subject::new($algo, OURS, b.name(), b == detected, move |data: &[u8], out: &mut [u8]| {
                    out.copy_from_slice(&<$ty>::digest_with_backend(b, data))
                })
            })
            .collect::<Vec<_>>()
    }};
}

#[allow(unused_macros)]
macro_rules! xof_subjects {
    ($algo:expr, $ty:ty, $backend:ty) => {{
        let detected = <$backend>::detect();
        <$backend>::available()
            .map(|b| {
                Subject::new($algo, OURS, b.name(), b == detected, move |data: &[u8], out: &mut [u8]| {
                    <$ty>::digest_xof_with_backend(b, data, out)
                })
            })
            .collect::<Vec<_>>()
    }};
}

/// Subjects of a function that is not a plain `Xof`, one per backend:
/// `$run(backend, data, out)`.
#[allow(unused_macros)]
macro_rules! custom_subjects {
    ($algo:expr, $run:expr) => {{
        let detected = sha3::Backend::detect();
        sha3::Backend::available()
            .map(|b| {
                Subject::new($algo, OURS, b.name(), b == detected, move |data: &[u8], out: &mut [u8]| {
                    $run(b, data, out)
                })
            })
            .collect::<Vec<_>>()
    }};
}

/// Batch subjects of a fixed-output hasher: `digest_many` per available
/// backend, then the detected backend hashing one message at a time.
#[allow(unused_macros)]
macro_rules! fixed_many {
    ($algo:expr, $ty:ty, $backend:ty, $n:literal) => {{
        let detected = <$backend>::detect();
        let mut v = Vec::new();
        for b in <$backend>::available() {
            v.push(
                ManySubject::new(
                    $algo,
                    format!("digest_many {}", b.name()),
                    false,
                    move |inputs: &[&[u8]], outs: &mut [[u8; $n]]| {
                        <$ty>::digest_many_with_backend(b, inputs, outs);
                    },
                )
                .with_engine(move |messages| b.batch_engine(messages))
                .with_detected(b == detected),
            );
        }
        v.push(ManySubject::new(
            $algo,
            format!("one by one {}", detected.name()),
            true,
            move |inputs: &[&[u8]], outs: &mut [[u8; $n]]| {
                for (i, o) in inputs.iter().zip(outs.iter_mut()) {
                    *o = <$ty>::digest_with_backend(detected, i);
                }
            },
        ));
        v
    }};
}

#[allow(unused_macros)]
macro_rules! xof_many {
    ($algo:expr, $ty:ty, $backend:ty, $n:literal) => {{
        let detected = <$backend>::detect();
        let mut v = Vec::new();
        for b in <$backend>::available() {
            v.push(
                ManySubject::new(
                    $algo,
                    format!("digest_xof_many {}", b.name()),
                    false,
                    move |inputs: &[&[u8]], outs: &mut [[u8; $n]]| {
                        // The output slices, in chunks of 8 or 64 on the
                        // stack: no allocation in the timed loop, and no 64
                        // slots to set up for a small batch.
                        fn run<const C: usize>(b: $backend, inputs: &[&[u8]], outs: &mut [[u8; $n]]) {
                            for (ins, outs) in inputs.chunks(C).zip(outs.chunks_mut(C)) {
                                let mut slots: [&mut [u8]; C] = std::array::from_fn(|_| &mut [][..]);
                                let n = outs.len();
                                for (slot, o) in slots.iter_mut().zip(outs.iter_mut()) {
                                    *slot = &mut o[..];
                                }
                                <$ty>::digest_xof_many_with_backend(b, ins, &mut slots[..n]);
                            }
                        }
                        if inputs.len() <= 8 { run::<8>(b, inputs, outs) } else { run::<64>(b, inputs, outs) }
                    },
                )
                .with_engine(move |messages| b.batch_engine(messages))
                .with_detected(b == detected),
            );
        }
        v.push(ManySubject::new(
            $algo,
            format!("one by one {}", detected.name()),
            true,
            move |inputs: &[&[u8]], outs: &mut [[u8; $n]]| {
                for (i, o) in inputs.iter().zip(outs.iter_mut()) {
                    <$ty>::digest_xof_with_backend(detected, i, o);
                }
            },
        ));
        v
    }};
}

#[allow(unused_macros)]
macro_rules! fixed_stream {
    ($algo:expr, $ty:ty, $backend:ty) => {{
        <$backend>::available()
            .map(|b| StreamSubject {
                algo: $algo,
                backend: b.name(),
                hash: Box::new(move |pieces: &[&[u8]], out: &mut [u8]| {
                    let mut h = <$ty>::with_backend(b);
                    for p in pieces {
                        h.update(p);
                    }
                    out.copy_from_slice(&h.finalize());
                }),
            })
            .collect::<Vec<_>>()
    }};
}

#[allow(unused_macros)]
macro_rules! xof_stream {
    ($algo:expr, $ty:ty, $backend:ty) => {{
        <$backend>::available()
            .map(|b| StreamSubject {
                algo: $algo,
                backend: b.name(),
                hash: Box::new(move |pieces: &[&[u8]], out: &mut [u8]| {
                    let mut h = <$ty>::with_backend(b);
                    for p in pieces {
                        h.update(p);
                    }
                    let mut reader = h.finalize_xof();
                    let (first, rest) = out.split_at_mut(out.len() / 3);
                    reader.read(first);
                    reader.read(rest);
                }),
            })
            .collect::<Vec<_>>()
    }};
}

/// Streaming subjects of a sha3 hasher built by `$new(backend)` (the
/// KangarooTwelve and TurboSHAKE types, whose constructors take arguments).
#[allow(unused_macros)]
macro_rules! custom_stream {
    ($algo:expr, $new:expr) => {{
        sha3::Backend::available()
            .map(|b| StreamSubject {
                algo: $algo,
                backend: b.name(),
                hash: Box::new(move |pieces: &[&[u8]], out: &mut [u8]| {
                    let mut h = $new(b);
                    for p in pieces {
                        h.update(p);
                    }
                    let mut reader = h.finalize_xof();
                    let (first, rest) = out.split_at_mut(out.len() / 3);
                    reader.read(first);
                    reader.read(rest);
                }),
            })
            .collect::<Vec<_>>()
    }};
}

/// Our streaming subjects for `algo`, one per backend this CPU supports,
/// best first; empty if the crate is not in this build.
pub fn ours_streaming(algo: &'static Algo) -> Vec<StreamSubject> {
    match algo.id {
        #[cfg(feature = "md5")]
        "md5" => fixed_stream!(algo, md5::Md5, md5::Backend),
        #[cfg(feature = "sha1")]
        "sha1" => fixed_stream!(algo, sha1::Sha1, sha1::Backend),
        #[cfg(feature = "sha256")]
        "sha224" => fixed_stream!(algo, sha256::Sha224, sha256::Backend),
        #[cfg(feature = "sha256")]
        "sha256" => fixed_stream!(algo, sha256::Sha256, sha256::Backend),
        #[cfg(feature = "sha512")]
        "sha384" => fixed_stream!(algo, sha512::Sha384, sha512::Backend),
        #[cfg(feature = "sha512")]
        "sha512" => fixed_stream!(algo, sha512::Sha512, sha512::Backend),
        #[cfg(feature = "sha512")]
        "sha512-224" => fixed_stream!(algo, sha512::Sha512_224, sha512::Backend),
        #[cfg(feature = "sha512")]
        "sha512-256" => fixed_stream!(algo, sha512::Sha512_256, sha512::Backend),
        #[cfg(feature = "sha3")]
        "sha3-224" => fixed_stream!(algo, sha3::Sha3_224, sha3::Backend),
        #[cfg(feature = "sha3")]
        "sha3-256" => fixed_stream!(algo, sha3::Sha3_256, sha3::Backend),
        #[cfg(feature = "sha3")]
        "sha3-384" => fixed_stream!(algo, sha3::Sha3_384, sha3::Backend),
        #[cfg(feature = "sha3")]
        "sha3-512" => fixed_stream!(algo, sha3::Sha3_512, sha3::Backend),
        #[cfg(feature = "sha3")]
        "keccak256" => fixed_stream!(algo, sha3::Keccak256, sha3::Backend),
        #[cfg(feature = "sha3")]
        "shake128" => xof_stream!(algo, sha3::Shake128, sha3::Backend),
        #[cfg(feature = "sha3")]
        "shake256" => xof_stream!(algo, sha3::Shake256, sha3::Backend),
        #[cfg(feature = "sha3")]
        "kt128" => custom_stream!(algo, |b| sha3::KangarooTwelve::with_backend(b, b"")),
        #[cfg(feature = "sha3")]
        "kt256" => custom_stream!(algo, |b| sha3::Kt256::with_backend(b, b"")),
        #[cfg(feature = "sha3")]
        "turboshake128" => custom_stream!(algo, |b| sha3::TurboShake128::with_backend(b, 0x1f)),
        #[cfg(feature = "sha3")]
        "turboshake256" => custom_stream!(algo, |b| sha3::TurboShake256::with_backend(b, 0x1f)),
        _ => Vec::new(),
    }
}

/// Our subjects for `algo`, one per backend this CPU supports, best first;
/// empty if the crate is not in this build.
pub fn ours(algo: &'static Algo) -> Vec<Subject> {
    match algo.id {
        #[cfg(feature = "md5")]
        "md5" => fixed_subjects!(algo, md5::Md5, md5::Backend),
        #[cfg(feature = "sha1")]
        "sha1" => fixed_subjects!(algo, sha1::Sha1, sha1::Backend),
        #[cfg(feature = "sha256")]
        "sha224" => fixed_subjects!(algo, sha256::Sha224, sha256::Backend),
        #[cfg(feature = "sha256")]
        "sha256" => fixed_subjects!(algo, sha256::Sha256, sha256::Backend),
        #[cfg(feature = "sha512")]
        "sha384" => fixed_subjects!(algo, sha512::Sha384, sha512::Backend),
        #[cfg(feature = "sha512")]
        "sha512" => fixed_subjects!(algo, sha512::Sha512, sha512::Backend),
        #[cfg(feature = "sha512")]
        "sha512-224" => fixed_subjects!(algo, sha512::Sha512_224, sha512::Backend),
        #[cfg(feature = "sha512")]
        "sha512-256" => fixed_subjects!(algo, sha512::Sha512_256, sha512::Backend),
        #[cfg(feature = "sha3")]
        "sha3-224" => fixed_subjects!(algo, sha3::Sha3_224, sha3::Backend),
        #[cfg(feature = "sha3")]
        "sha3-256" => fixed_subjects!(algo, sha3::Sha3_256, sha3::Backend),
        #[cfg(feature = "sha3")]
        "sha3-384" => fixed_subjects!(algo, sha3::Sha3_384, sha3::Backend),
        #[cfg(feature = "sha3")]
        "sha3-512" => fixed_subjects!(algo, sha3::Sha3_512, sha3::Backend),
        #[cfg(feature = "sha3")]
        "keccak256" => fixed_subjects!(algo, sha3::Keccak256, sha3::Backend),
        #[cfg(feature = "sha3")]
        "shake128" => xof_subjects!(algo, sha3::Shake128, sha3::Backend),
        #[cfg(feature = "sha3")]
        "shake256" => xof_subjects!(algo, sha3::Shake256, sha3::Backend),
        #[cfg(feature = "sha3")]
        "kt128" => custom_subjects!(algo, |b, data: &[u8], out: &mut [u8]| {
            sha3::KangarooTwelve::digest_xof_with_backend(b, b"", data, out)
        }),
        #[cfg(feature = "sha3")]
        "kt256" => custom_subjects!(algo, |b, data: &[u8], out: &mut [u8]| {
            sha3::Kt256::digest_xof_with_backend(b, b"", data, out)
        }),
        #[cfg(feature = "sha3")]
        "turboshake128" => custom_subjects!(algo, |b, data: &[u8], out: &mut [u8]| {
            let mut h = sha3::TurboShake128::with_backend(b, 0x1f);
            h.update(data);
            h.finalize_xof().read(out)
        }),
        #[cfg(feature = "sha3")]
        "turboshake256" => custom_subjects!(algo, |b, data: &[u8], out: &mut [u8]| {
            let mut h = sha3::TurboShake256::with_backend(b, 0x1f);
            h.update(data);
            h.finalize_xof().read(out)
        }),
        _ => Vec::new(),
    }
}

/// Our batch subjects for `algo`: `digest_many` (or `digest_xof_many`) per
/// backend this CPU supports, then the one-by-one baseline with the detected
/// backend; empty if the crate is not in this build.
pub fn ours_many(algo: &'static Algo) -> Vec<ManySubject> {
    match algo.id {
        #[cfg(feature = "md5")]
        "md5" => fixed_many!(algo, md5::Md5, md5::Backend, 16),
        #[cfg(feature = "sha1")]
        "sha1" => fixed_many!(algo, sha1::Sha1, sha1::Backend, 20),
        #[cfg(feature = "sha256")]
        "sha224" => fixed_many!(algo, sha256::Sha224, sha256::Backend, 28),
        #[cfg(feature = "sha256")]
        "sha256" => fixed_many!(algo, sha256::Sha256, sha256::Backend, 32),
        #[cfg(feature = "sha512")]
        "sha384" => fixed_many!(algo, sha512::Sha384, sha512::Backend, 48),
        #[cfg(feature = "sha512")]
        "sha512" => fixed_many!(algo, sha512::Sha512, sha512::Backend, 64),
        #[cfg(feature = "sha512")]
        "sha512-224" => fixed_many!(algo, sha512::Sha512_224, sha512::Backend, 28),
        #[cfg(feature = "sha512")]
        "sha512-256" => fixed_many!(algo, sha512::Sha512_256, sha512::Backend, 32),
        #[cfg(feature = "sha3")]
        "sha3-224" => fixed_many!(algo, sha3::Sha3_224, sha3::Backend, 28),
        #[cfg(feature = "sha3")]
        "sha3-256" => fixed_many!(algo, sha3::Sha3_256, sha3::Backend, 32),
        #[cfg(feature = "sha3")]
        "sha3-384" => fixed_many!(algo, sha3::Sha3_384, sha3::Backend, 48),
        #[cfg(feature = "sha3")]
        "sha3-512" => fixed_many!(algo, sha3::Sha3_512, sha3::Backend, 64),
        #[cfg(feature = "sha3")]
        "keccak256" => fixed_many!(algo, sha3::Keccak256, sha3::Backend, 32),
        #[cfg(feature = "sha3")]
        "shake128" => xof_many!(algo, sha3::Shake128, sha3::Backend, 32),
        #[cfg(feature = "sha3")]
        "shake256" => xof_many!(algo, sha3::Shake256, sha3::Backend, 64),
        _ => Vec::new(),
    }
}

/// A deterministic message of `len` bytes (a simple LCG), the same in every
/// program, so that all subjects hash the same bytes.
pub fn message(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 56) as u8
        })
        .collect()
}

/// The lengths of the uneven batch that `cargo xtask bench` sets beside
/// `count` messages of `mean` bytes: `count` lengths, each between 0 and
/// `2 * mean` bytes, summing to exactly `count * mean` (the same total
/// bytes). The first `count - 1` are drawn uniformly from a generator with
/// a fixed seed and the last is what makes up the total; a draw whose last
/// length falls outside `0..=2 * mean` is thrown away and the next one
/// taken, so the lengths are the same in every run and on every machine.
/// For 64 x 8 KiB: 64 lengths of 0 to 16 KiB totalling 512 KiB.
///
/// # Panics
/// If `count` is 0.
pub fn uneven_lengths(count: usize, mean: usize) -> Vec<usize> {
    assert!(count > 0, "an uneven batch needs at least one message");
    let total = count * mean;
    let mut x: u64 = 0x5eed_0e7e_4b47_c4e5;
    let mut next = move || {
        // SplitMix64 (Steele, Lea and Flood 2014).
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    loop {
        let mut lens: Vec<usize> = (1..count).map(|_| (next() % (2 * mean as u64 + 1)) as usize).collect();
        let sum: usize = lens.iter().sum();
        if sum <= total && total - sum <= 2 * mean {
            lens.push(total - sum);
            return lens;
        }
    }
}

/// `16 B`, `1 KiB`, `1 MiB`.
pub fn size_label(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uneven_lengths_keep_the_total_and_the_range() {
        let lens = uneven_lengths(64, 8192);
        assert_eq!((lens.len(), lens.iter().sum::<usize>()), (64, 64 * 8192));
        assert!(lens.iter().all(|&l| l <= 16384));
        // Spread out, not a near-equal batch: some short and some long.
        assert!(lens.iter().any(|&l| l < 2048) && lens.iter().any(|&l| l > 14336));
        assert_eq!(lens, uneven_lengths(64, 8192), "the same lengths every time");
        assert_eq!(uneven_lengths(1, 100), [100]);
    }

    #[test]
    fn algo_ids_are_unique_and_found() {
        for a in ALGOS {
            assert_eq!(find_algo(a.id), Some(a));
            assert!(a.out_len <= MAX_OUT);
        }
        assert_eq!(find_algo("sha-256"), None);
    }

    #[test]
    fn size_labels() {
        assert_eq!(size_label(16), "16 B");
        assert_eq!(size_label(1000), "1000 B");
        assert_eq!(size_label(8192), "8 KiB");
        assert_eq!(size_label(1 << 20), "1 MiB");
    }

    /// Every backend of every built crate agrees with the others, one-shot
    /// and in batches, on messages around the block sizes.
    #[test]
    fn subjects_agree() {
        let lens = [0usize, 1, 55, 56, 64, 127, 128, 135, 136, 168, 1000];
        let msgs: Vec<Vec<u8>> = lens.iter().map(|&n| message(n, n as u64)).collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        for algo in ALGOS {
            let subjects = ours(algo);
            if !crates_built().contains(&algo.crate_name) {
                assert!(subjects.is_empty());
                continue;
            }
            assert!(!subjects.is_empty(), "{}", algo.id);
            assert_eq!(subjects.iter().filter(|s| s.detected).count(), 1, "{}", algo.id);
            let expected: Vec<Vec<u8>> = msgs.iter().map(|m| subjects[0].digest(m)).collect();
            for s in &subjects {
                for (m, e) in msgs.iter().zip(&expected) {
                    assert_eq!(&s.digest(m), e, "{} {} at {} bytes", algo.id, s.label(), m.len());
                }
            }
            for many in ours_many(algo) {
                assert_eq!(many.digests(&refs), expected, "{} {}", algo.id, many.label);
            }
            let streams = ours_streaming(algo);
            assert_eq!(streams.len(), subjects.len(), "{}", algo.id);
            for st in &streams {
                for (m, e) in msgs.iter().zip(&expected) {
                    let (a, b) = m.split_at(m.len() / 3);
                    assert_eq!(&st.digest(&[a, b]), e, "{} {} streaming at {} bytes", algo.id, st.backend, m.len());
                }
            }
        }
    }
}

/// The README's examples, compiled and run as doc tests
/// (`cargo test -p bench --doc`), so the README cannot drift from the API.
/// They use every algorithm crate, so they need every algorithm feature (the
/// default).
#[doc = include_str!("../../README.md")]
#[cfg(all(doctest, feature = "md5", feature = "sha1", feature = "sha256", feature = "sha512", feature = "sha3"))]
pub struct ReadmeDoctests;
