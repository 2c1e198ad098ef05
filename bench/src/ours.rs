//! Our crates as subjects: which are built (cargo features), their
//! backends on this CPU, and one subject per algorithm and available
//! backend, one-shot, batched and streamed.

use crate::{Algo, ManySubject, StreamSubject, Subject};

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
                Subject::new($algo, crate::OURS, b.name(), b == detected, move |data: &[u8], out: &mut [u8]| {
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
                Subject::new($algo, crate::OURS, b.name(), b == detected, move |data: &[u8], out: &mut [u8]| {
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
                Subject::new($algo, crate::OURS, b.name(), b == detected, move |data: &[u8], out: &mut [u8]| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ALGOS, message};

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
