//! scratch
use std::hint::black_box;
use std::time::Instant;
fn main() {
    let n = 1 << 20;
    let mut x = 0x1234_5678_9abc_def0u64;
    let random: Vec<u8> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let block: Vec<u8> = random[..64].to_vec();
    let repeated: Vec<u8> = block.iter().cycle().take(n).copied().collect();
    for (name, data) in [("random", &random), ("repeated", &repeated)] {
        let (mut a, mut b) = (f64::MAX, f64::MAX);
        for _ in 0..30 {
            let t = Instant::now();
            black_box(sha1::Sha1::digest(black_box(data)));
            a = a.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let _ = black_box(sha1::Sha1Dc::digest(black_box(data)));
            b = b.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name:9} plain {:6.0} MB/s  dc {:6.0} MB/s  ratio {:.3}",
            n as f64 / a / 1e6,
            n as f64 / b / 1e6,
            a / b
        );
    }
}
