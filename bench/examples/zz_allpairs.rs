//! scratch
use hash_core::{BackendKind, FixedAlgorithm};
use std::hint::black_box;
use std::time::Instant;

fn time<A: FixedAlgorithm<Output = [u8; N]>, const N: usize>(pairs: usize) {
    for &backend in A::Backend::ALL {
        if !backend.is_supported() {
            continue;
        }
        let nodes: Vec<[u8; N]> = (0..2 * pairs).map(|i| core::array::from_fn(|j| (i * 7 + j * 13) as u8)).collect();
        let mut out = vec![[0u8; N]; pairs];
        let mut out2 = vec![[0u8; N]; pairs];
        let (mut a, mut b) = (f64::MAX, f64::MAX);
        for _ in 0..200 {
            let t = Instant::now();
            hash_core::Hasher::<A>::hash_pairs_with_backend(backend, black_box(&nodes), &mut out);
            a = a.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            hash_core::hash_pairs_gathered::<A>(backend, black_box(&nodes), &mut out2);
            b = b.min(t.elapsed().as_secs_f64());
        }
        assert_eq!(out, out2);
        println!(
            "{:12} {:14} {pairs:5}: pairs {:6.1} ns/pair, gathered {:6.1} ns/pair, {:.2}x",
            A::NAME,
            backend.name(),
            a * 1e9 / pairs as f64,
            b * 1e9 / pairs as f64,
            b / a
        );
    }
}

fn main() {
    time::<md5::algorithm::Md5, 16>(1024);
    time::<sha1::algorithm::Sha1, 20>(1024);
    time::<sha512::algorithm::Sha384, 48>(1024);
    time::<sha512::algorithm::Sha512, 64>(1024);
    time::<sha512::algorithm::Sha512_256, 32>(1024);
}
