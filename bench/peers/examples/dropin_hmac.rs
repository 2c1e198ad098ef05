//! Speed through the `sha2` 0.10 drop-in (`dropin/sha2-0.10`) beside our own
//! API and RustCrypto's `sha2` 0.10, for `Digest::digest` on SHA-256 and
//! SHA-512 and for `hmac::Hmac<Sha256>` (key set up once, then
//! `clone`/`update`/`finalize` per message, as a server verifying tags does).
//!
//! `cargo run --release --manifest-path bench/peers/Cargo.toml --example dropin_hmac`
//!
//! The speed report (`cargo xtask bench --algo sha256`) has the same
//! comparisons as rows: `ours-via-sha2-dropin` in the SHA-2 tables, and an
//! HMAC-SHA-256 table that keys each message afresh (one-shot); this
//! example keeps the keyed-once `clone` path and the 1 MiB size.
//!
//! Interleaved rounds: each round times every implementation once per size
//! for about 20 ms; the table gives the median rate and the ratios of the
//! medians. A measurement, not a test: it asserts nothing.

use std::hint::black_box;
use std::time::{Duration, Instant};

use hmac_0_12::{Hmac, Mac};

const SIZES: [usize; 7] = [16, 64, 256, 1024, 8192, 16384, 1 << 20];
const ROUNDS: usize = 11;

type Job<'a> = (&'static str, Box<dyn Fn(&[u8]) -> u8 + 'a>);

/// Seconds per call of `f` on `data`, over about `target` of calls.
fn time(f: &dyn Fn(&[u8]) -> u8, data: &[u8], target: Duration) -> f64 {
    let mut n = 1u64;
    loop {
        let start = Instant::now();
        let mut acc = 0u8;
        for _ in 0..n {
            acc ^= f(black_box(data));
        }
        black_box(acc);
        let took = start.elapsed();
        if took >= target || n >= 1 << 30 {
            return took.as_secs_f64() / n as f64;
        }
        n *= if took < target / 16 { 8 } else { 2 };
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn table(title: &str, jobs: &[Job<'_>]) {
    println!("\n{title} (MB/s, median of {ROUNDS} interleaved rounds)");
    print!("{:>8}", "size");
    for (name, _) in jobs {
        print!(" {name:>22}");
    }
    println!(" {:>16} {:>16}", "drop-in/ours", "drop-in/RustCrypto");
    for size in SIZES {
        let data: Vec<u8> = (0..size).map(|i| (i * 131 + 7) as u8).collect();
        let mut samples = vec![Vec::new(); jobs.len()];
        for _ in 0..ROUNDS {
            for (j, (_, f)) in jobs.iter().enumerate() {
                samples[j].push(size as f64 / time(f.as_ref(), &data, Duration::from_millis(20)) / 1e6);
            }
        }
        let rates: Vec<f64> = samples.iter_mut().map(|s| median(s)).collect();
        print!("{size:>8}");
        for r in &rates {
            print!(" {r:>22.1}");
        }
        println!(" {:>15.3}x {:>15.3}x", rates[0] / rates[1], rates[0] / rates[2]);
    }
}

fn main() {
    println!("backends: sha256 {:?}, sha512 {:?}", ours256::Backend::detect(), ours512::Backend::detect());
    use sha2_dropin::Digest as _;
    table(
        "SHA-256 one-shot Digest::digest",
        &[
            ("drop-in", Box::new(|d: &[u8]| sha2_dropin::Sha256::digest(d)[0])),
            ("ours sha256::Sha256", Box::new(|d: &[u8]| ours256::Sha256::digest(d)[0])),
            ("RustCrypto sha2 0.10", Box::new(|d: &[u8]| sha2_0_10::Sha256::digest(d)[0])),
        ],
    );
    table(
        "SHA-512 one-shot Digest::digest",
        &[
            ("drop-in", Box::new(|d: &[u8]| sha2_dropin::Sha512::digest(d)[0])),
            ("ours sha512::Sha512", Box::new(|d: &[u8]| ours512::Sha512::digest(d)[0])),
            ("RustCrypto sha2 0.10", Box::new(|d: &[u8]| sha2_0_10::Sha512::digest(d)[0])),
        ],
    );
    let key = [0x0bu8; 32];
    let drop_in = <Hmac<sha2_dropin::Sha256> as Mac>::new_from_slice(&key).unwrap();
    let ours = <Hmac<ours256::compat::Sha256> as Mac>::new_from_slice(&key).unwrap();
    let theirs = <Hmac<sha2_0_10::Sha256> as Mac>::new_from_slice(&key).unwrap();
    table(
        "HMAC-SHA-256 (hmac 0.12, keyed once; clone, update, finalize)",
        &[
            (
                "drop-in",
                Box::new(move |d: &[u8]| {
                    let mut m = drop_in.clone();
                    m.update(d);
                    m.finalize().into_bytes()[0]
                }),
            ),
            (
                "ours compat::Sha256",
                Box::new(move |d: &[u8]| {
                    let mut m = ours.clone();
                    m.update(d);
                    m.finalize().into_bytes()[0]
                }),
            ),
            (
                "RustCrypto sha2 0.10",
                Box::new(move |d: &[u8]| {
                    let mut m = theirs.clone();
                    m.update(d);
                    m.finalize().into_bytes()[0]
                }),
            ),
        ],
    );
}
