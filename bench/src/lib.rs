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

mod algos;
mod ours;
mod subject;

pub use algos::{ALGOS, Algo, Kind, MAX_OUT, find_algo};
pub use ours::{CrateBackends, crate_backends, crates_built, ours, ours_many, ours_streaming};
pub use subject::{ManySubject, OURS, StreamSubject, Subject};

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
    fn size_labels() {
        assert_eq!(size_label(16), "16 B");
        assert_eq!(size_label(1000), "1000 B");
        assert_eq!(size_label(8192), "8 KiB");
        assert_eq!(size_label(1 << 20), "1 MiB");
    }
}

/// The README's examples, compiled and run as doc tests
/// (`cargo test -p bench --doc`), so the README cannot drift from the API.
/// They use every algorithm crate, so they need every algorithm feature (the
/// default).
#[doc = include_str!("../../README.md")]
#[cfg(all(doctest, feature = "md5", feature = "sha1", feature = "sha256", feature = "sha512", feature = "sha3"))]
pub struct ReadmeDoctests;
