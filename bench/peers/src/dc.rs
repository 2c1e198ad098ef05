//! The report's SHA-1 collision detection section (`--dc SIZES`): our
//! `Sha1Dc` one message at a time beside our plain `Sha1` and the crates
//! with collision detection, `sha1dc`, `sha1-checked` (RustCrypto) and
//! `sha1collisiondetection` (the reference's Rust port); then
//! `Sha1Dc::digest_many` beside `Sha1::digest_many` over 64 messages of
//! 8 KiB (and `Sha1Dc` one message after another), the batch of #20.
//!
//! The messages are pseudo-random bytes (`bench::message`): the filter lets
//! about one random block in twenty through to the costly check, and a
//! short-period pattern would pass it less often. Every way's digests are
//! compared with our plain SHA-1 on the portable backend before timing
//! (none of these messages is an attack, so all agree); one that differs is
//! left out with a note. The ways are then timed interleaved.
//!
//! Output lines: `dc <case> <label> <baseline 0|1> <messages> <bytes each>
//! <median ns> <min ns> <max ns> <rounds>`, `case` being `one` (a message
//! at a time; ns per message) or `many` (ns per batch).

use std::io::Write;
use std::time::Duration;

#[cfg(feature = "sha1dc")]
use crate::{FillWay, checked_interleaved};

/// A way to hash: the SHA-1 of each message of a set into `out`.
#[cfg(feature = "sha1dc")]
type Way<'a> = (String, bool, Box<dyn Fn(&[&[u8]], &mut [[u8; 20]]) + 'a>);

/// How many measurements the section makes (for the plan line).
pub(crate) fn plan(sizes: &[usize]) -> usize {
    sizes.len() + 1
}

/// The batch: 64 messages of 8 KiB.
#[cfg(feature = "sha1dc")]
const BATCH: (usize, usize) = (64, 8192);

/// Measure one message of each of `sizes`, then the batch.
pub(crate) fn run(sizes: &[usize], rounds: usize, round: Duration, n: &mut usize) {
    #[cfg(feature = "sha1dc")]
    {
        let backend = ours1::Backend::detect().name();
        for &size in sizes {
            *n += 1;
            emit!("progress", *n, format!("SHA-1 collision detection, one message of {}", bench::size_label(size)));
            let one: Vec<Way<'_>> = vec![
                (
                    format!("ours Sha1Dc ({backend})"),
                    true,
                    Box::new(|m, out| out[0] = ours1::Sha1Dc::digest(m[0]).unwrap_or_else(|c| c.digest())),
                ),
                (format!("ours Sha1 ({backend})"), false, Box::new(|m, out| out[0] = ours1::Sha1::digest(m[0]))),
                (
                    "sha1dc 0.1".into(),
                    false,
                    Box::new(|m, out| out[0] = sha1dc::digest(m[0]).map_or([0; 20], sha1dc::Digest::to_bytes)),
                ),
                (
                    "sha1-checked 0.10".into(),
                    false,
                    Box::new(|m, out| {
                        let r = sha1_checked::Sha1::try_digest(m[0]);
                        out[0].copy_from_slice(&r.hash()[..]);
                    }),
                ),
                (
                    "sha1collisiondetection 0.3".into(),
                    false,
                    Box::new(|m, out| {
                        let mut h = sha1collisiondetection::Sha1CD::default();
                        h.update(m[0]);
                        out[0] = h.finalize_cd().map_or([0; 20], |d| d[..].try_into().unwrap_or([0; 20]));
                    }),
                ),
            ];
            measure("one", &[bench::message(size, size as u64)], one, rounds, round);
        }
        *n += 1;
        let (count, size) = BATCH;
        emit!(
            "progress",
            *n,
            format!("SHA-1 collision detection, digest_many of {count} x {}", bench::size_label(size))
        );
        let many: Vec<Way<'_>> = vec![
            (
                format!("ours Sha1Dc::digest_many ({backend})"),
                true,
                Box::new(|m, out| {
                    let mut r = vec![Ok([0u8; 20]); m.len()];
                    ours1::Sha1Dc::digest_many(m, &mut r);
                    for (o, r) in out.iter_mut().zip(r) {
                        *o = r.unwrap_or_else(|c| c.digest());
                    }
                }),
            ),
            (format!("ours Sha1::digest_many ({backend})"), false, Box::new(|m, out| ours1::Sha1::digest_many(m, out))),
            (
                format!("ours Sha1Dc, one message at a time ({backend})"),
                false,
                Box::new(|m, out| {
                    for (o, m) in out.iter_mut().zip(m) {
                        *o = ours1::Sha1Dc::digest(m).unwrap_or_else(|c| c.digest());
                    }
                }),
            ),
        ];
        let messages: Vec<Vec<u8>> = (0..count).map(|i| bench::message(size, 0x6463 + i as u64)).collect();
        measure("many", &messages, many, rounds, round);
    }
    #[cfg(not(feature = "sha1dc"))]
    {
        let _ = (sizes, rounds, round, n);
        emit!("note", "sha1dc", "dc", "our Sha1Dc and its peers are not in this build (feature `sha1dc` off)");
    }
}

/// Check every way on `messages` against our portable SHA-1, then time the
/// ways that agree, interleaved (`crate::checked_interleaved`).
#[cfg(feature = "sha1dc")]
fn measure(case: &str, messages: &[Vec<u8>], ways: Vec<Way<'_>>, rounds: usize, round: Duration) {
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let want: Vec<[u8; 20]> = refs.iter().map(|m| reference_sha1(m)).collect();
    let refs = &refs;
    let ways: Vec<FillWay<'_, [u8; 20]>> = ways
        .into_iter()
        .map(|(label, baseline, run)| {
            let fill = move |out: &mut [[u8; 20]]| run(std::hint::black_box(refs), out);
            (label, baseline, Box::new(fill) as Box<dyn Fn(&mut [[u8; 20]])>)
        })
        .collect();
    let size = messages.first().map_or(0, Vec::len);
    let differs = "left out: its output differs from SHA-1's";
    for (label, baseline, (median, min, max)) in
        checked_interleaved("sha1dc", ways, &want, [0u8; 20], differs, rounds, round)
    {
        emit!("dc", case, &label, u8::from(baseline), messages.len(), size, median, min, max, rounds);
    }
}

/// SHA-1 of one message on our portable backend (an engine independent of
/// the ones timed).
#[cfg(feature = "sha1dc")]
fn reference_sha1(msg: &[u8]) -> [u8; 20] {
    use hash_core::BackendKind;
    let portable = *ours1::Backend::ALL.last().expect("portable is last");
    ours1::Sha1::digest_with_backend(portable, msg)
}
