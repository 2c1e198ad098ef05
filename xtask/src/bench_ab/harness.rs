//! The program `cargo xtask bench-ab` builds (not part of xtask's own
//! build: xtask writes it into target/bench-ab/ beside a Cargo.toml that
//! links the `bench` crate twice, as `before` from a checkout of the
//! revision given and as `after` from this tree).
//!
//! For every single-message subject of `bench::ours` and every batch
//! subject of `bench::ours_many` present in both, at the sizes and batch
//! shapes of `cargo xtask bench --quick`, it times the two versions in
//! alternating turns (the order swapped every round) and keeps each one's
//! fastest turn. Pass 1 and pass 2 time every row; the rows under the
//! threshold in both passes are timed again with three times the rounds
//! in three more passes, and a row is reported slower only if it is under
//! the threshold in all of them.

use std::hint::black_box;
use std::time::Instant;

const SIZES: [usize; 4] = [16, 64, 1024, 8192];
const BATCHES: [(usize, usize); 5] = [(2, 16), (8, 256), (64, 64), (64, 1024), (64, 8192)];

struct Options {
    rounds: usize,
    round_ms: f64,
    threshold: f64,
    algos: Vec<String>,
}

fn parse() -> Result<Options, String> {
    let mut o = Options { rounds: 21, round_ms: 10.0, threshold: 0.98, algos: Vec::new() };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--rounds" => o.rounds = value()?.parse().map_err(|e| format!("--rounds: {e}"))?,
            "--round-ms" => o.round_ms = value()?.parse().map_err(|e| format!("--round-ms: {e}"))?,
            "--threshold" => o.threshold = value()?.parse().map_err(|e| format!("--threshold: {e}"))?,
            "--algo" => o.algos = value()?.split(',').map(String::from).collect(),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.rounds == 0 || !(o.round_ms > 0.0) {
        return Err("--rounds and --round-ms must be positive".into());
    }
    Ok(o)
}

/// Iterations of `f` that take about `ms` milliseconds.
fn calibrate(f: &dyn Fn(u64) -> u8, ms: f64) -> u64 {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        black_box(f(n));
        let e = t.elapsed().as_secs_f64() * 1e3;
        if e > ms / 4.0 || n >= 1 << 40 {
            return ((n as f64) * ms / e.max(1e-9)).max(1.0) as u64;
        }
        n *= 2;
    }
}

/// The fastest turn of `before` and of `after`, in ns per call.
fn ab(before: &dyn Fn(u64) -> u8, after: &dyn Fn(u64) -> u8, rounds: usize, ms: f64) -> (f64, f64) {
    let n = calibrate(before, ms);
    let (mut b, mut a) = (f64::MAX, f64::MAX);
    for r in 0..rounds {
        for k in 0..2 {
            let is_before = (r + k) % 2 == 0;
            let t = Instant::now();
            black_box(if is_before { before(n) } else { after(n) });
            let ns = t.elapsed().as_secs_f64() * 1e9 / n as f64;
            if is_before {
                b = b.min(ns);
            } else {
                a = a.min(ns);
            }
        }
    }
    (b, a)
}

/// One row: its name and a way to time it.
struct Row<'a> {
    name: String,
    time: Box<dyn Fn(usize, f64) -> (f64, f64) + 'a>,
}

fn main() {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bench-ab harness: {e}");
            std::process::exit(2);
        }
    };
    let wanted = |id: &str| o.algos.iter().any(|a| a == id);
    let algos: Vec<_> = after::ALGOS
        .iter()
        .filter(|a| if o.algos.is_empty() { a.default } else { wanted(a.id) })
        .filter_map(|a| before::ALGOS.iter().find(|b| b.id == a.id).map(|b| (b, a)))
        .collect();
    let messages: Vec<Vec<u8>> = SIZES.iter().map(|&s| after::message(s, s as u64)).collect();
    let batches: Vec<Vec<Vec<u8>>> =
        BATCHES.iter().map(|&(count, size)| (0..count).map(|i| after::message(size, i as u64)).collect()).collect();
    let batch_refs: Vec<Vec<&[u8]>> = batches.iter().map(|b| b.iter().map(Vec::as_slice).collect()).collect();
    let singles: Vec<_> = algos.iter().map(|&(b, a)| (before::ours(b), after::ours(a))).collect();
    let manys: Vec<_> = algos.iter().map(|&(b, a)| (before::ours_many(b), after::ours_many(a))).collect();
    let mut rows: Vec<Row> = Vec::new();
    let mut unmatched = Vec::new();
    for ((_, algo), (olds, news)) in algos.iter().zip(&singles) {
        for new in news {
            let Some(old) = olds.iter().find(|o| o.variant == new.variant) else {
                unmatched.push(format!("{} {}", algo.id, new.variant));
                continue;
            };
            for (&size, data) in SIZES.iter().zip(&messages) {
                assert_eq!(
                    old.digest(data),
                    new.digest(data),
                    "{} {}: the two versions' digests differ",
                    algo.id,
                    new.variant
                );
                rows.push(Row {
                    name: format!("{} {} {} B", algo.id, new.variant, size),
                    time: Box::new(move |rounds, ms| ab(&|n| old.run(data, n), &|n| new.run(data, n), rounds, ms)),
                });
            }
        }
    }
    for ((_, algo), (olds, news)) in algos.iter().zip(&manys) {
        for new in news {
            let Some(old) = olds.iter().find(|o| o.label == new.label) else {
                unmatched.push(format!("{} {}", algo.id, new.label));
                continue;
            };
            for (&(count, size), inputs) in BATCHES.iter().zip(&batch_refs) {
                rows.push(Row {
                    name: format!("{} {} {}x{} B", algo.id, new.label, count, size),
                    time: Box::new(move |rounds, ms| ab(&|n| old.run(inputs, n), &|n| new.run(inputs, n), rounds, ms)),
                });
            }
        }
    }
    for u in &unmatched {
        println!("not in the revision before: {u}");
    }
    println!("{} rows; two passes of {} rounds of {} ms turns each", rows.len(), o.rounds, o.round_ms);
    // ratio = after's speed / before's = before's ns / after's ns.
    let mut ratios: Vec<Vec<f64>> = vec![Vec::new(); rows.len()];
    for pass in 1..=2 {
        for (i, row) in rows.iter().enumerate() {
            eprint!("\rpass {pass}/2: row {}/{}   ", i + 1, rows.len());
            let (b, a) = (row.time)(o.rounds, o.round_ms);
            ratios[i].push(b / a);
        }
        eprintln!();
    }
    let suspects: Vec<usize> = (0..rows.len()).filter(|&i| ratios[i].iter().all(|&r| r < o.threshold)).collect();
    println!(
        "{} rows under {:.2} in both passes; timing them again, three passes of {} rounds",
        suspects.len(),
        o.threshold,
        3 * o.rounds
    );
    for pass in 1..=3 {
        for (k, &i) in suspects.iter().enumerate() {
            eprint!("\rre-timing pass {pass}/3: row {}/{}   ", k + 1, suspects.len());
            let (b, a) = (rows[i].time)(3 * o.rounds, o.round_ms);
            ratios[i].push(b / a);
        }
        eprintln!();
    }
    let mut all: Vec<(f64, usize)> =
        (0..rows.len()).map(|i| (ratios[i].iter().copied().fold(f64::MAX, f64::min), i)).collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    println!("\n| row | after / before speed, each pass |");
    println!("|---|---|");
    for &(_, i) in all.iter().take(15) {
        let list: Vec<String> = ratios[i].iter().map(|r| format!("{r:.3}")).collect();
        println!("| {} | {} |", rows[i].name, list.join(" "));
    }
    let slower: Vec<usize> = suspects.iter().copied().filter(|&i| ratios[i].iter().all(|&r| r < o.threshold)).collect();
    let geo = (ratios.iter().map(|r| r[..2].iter().map(|x| x.ln()).sum::<f64>() / 2.0).sum::<f64>()
        / rows.len() as f64)
        .exp();
    println!("\ngeometric mean of after / before over the {} rows (passes 1-2): {geo:.3}", rows.len());
    if slower.is_empty() {
        println!("no row under {:.2} in all five passes", o.threshold);
    } else {
        println!("under {:.2} in all five passes ({}):", o.threshold, slower.len());
        for i in slower {
            let list: Vec<String> = ratios[i].iter().map(|r| format!("{r:.3}")).collect();
            println!("  {}: {}", rows[i].name, list.join(" "));
        }
    }
}
