//! `peers`: times our crates beside OpenSSL, `ring` and RustCrypto, and
//! prints the results as tab-separated lines for `cargo xtask bench`, which
//! turns them into `target/speed-report/`.
//!
//! Method: for each algorithm and message size, every implementation hashes
//! the same message one-shot in a loop sized to take about `--round-ms`;
//! this is repeated `--rounds` times, going round-robin over the
//! implementations (each round starting one further along), and the median
//! time per message is kept. Interleaving means a burst of load from
//! another process slows every implementation alike, so the ratios stay
//! meaningful on a busy machine. Before timing, every implementation's
//! output is checked against ours; one that disagrees is left out and named.
//!
//! HMAC-SHA-256 (`hmac::Hmac<Sha256>` over our `compat` type, over the
//! `sha2` 0.10 and 0.11 drop-ins and over RustCrypto's `sha2` 0.10 and 0.11;
//! OpenSSL's `HMAC()`) is timed
//! the same way, as an algorithm of its own (`hmac-sha256`) right after
//! SHA-256 whenever SHA-256 is (`peers::beside`).
//!
//! Output lines (stdout), fields separated by tabs:
//!
//! ```text
//! cpu-features  <space-separated list>
//! masked  sha-ni  <what the SHA-NI-masked build (feature `no-shani`) changed>
//! crate   <crate> <detected backend> <available, comma-separated> <unavailable: "name (needs ...)", "; "-separated>
//! peer    <family> ok|absent <version or reason>
//! algo    <algorithm id> <name> <output bytes>
//! note    <algorithm> <family> <text>
//! plan    <number of measurements>
//! progress <n> <text>
//! single  <algorithm> <family> <variant> <detected 0|1> <bytes> <median ns> <min ns> <max ns> <rounds>
//! many    <algorithm> <label> <baseline 0|1> <messages> <bytes each> <median ns> <min ns> <max ns> <rounds> <engine>
//! uneven  <algorithm> <label> <messages> <total bytes> <median ns> <min ns> <equal median ns> <equal min ns> <rounds> <engine>
//! merkle  pairs|root|pairs:<algorithm> <label> <baseline 0|1> <pairs or leaves> <median ns> <min ns> <max ns> <rounds>
//! dc      one|many <label> <baseline 0|1> <messages> <bytes each> <median ns> <min ns> <max ns> <rounds>
//! done
//! ```
//!
//! `uneven` lines time `digest_many` on the detected backend over a batch
//! of `--uneven COUNTxBYTES` messages of unequal lengths, 0 to twice BYTES
//! each and `COUNT * BYTES` in total (`bench::uneven_lengths`, fixed seed),
//! interleaved with the same engine on the equal-length batch of that total
//! (`equal` fields), so that the ratio of the two holds on a busy machine.
//!
//! `merkle` lines (`--merkle PAIRS,LEAVES`, the report's Merkle section)
//! time one level of SHA-256 pairs and an RFC 9162 root; see `merkle.rs`.
//!
//! `dc` lines (`--dc SIZES`, the report's SHA-1 collision detection
//! section) time our `Sha1Dc` beside `sha1dc`, `sha1-checked`,
//! `sha1collisiondetection` and our plain `Sha1`; see `dc.rs`.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bench::{ALGOS, Algo, ManySubject, Subject, message};

use hashes_peers::peers;

const USAGE: &str = "usage: peers [--algo A,B|all|none] [--size N,M] [--backend B,C] [--rounds N] [--round-ms MS]
             [--many COUNTxBYTES,...|none] [--uneven COUNTxBYTES|none] [--merkle PAIRS,LEAVES|none]
             [--dc BYTES,...|none] [--info]

Normally run by `cargo xtask bench`, which builds this program, reads its
tab-separated output and writes target/speed-report/.";

struct Options {
    algos: Vec<&'static Algo>,
    sizes: Vec<usize>,
    backends: Option<Vec<String>>,
    rounds: usize,
    round: Duration,
    many: Vec<(usize, usize)>,
    uneven: Option<(usize, usize)>,
    /// The Merkle section: pairs in one level, leaves in the tree.
    merkle: Option<(usize, usize)>,
    /// The SHA-1 collision detection section: its message sizes.
    dc: Vec<usize>,
    info_only: bool,
}

fn parse_list<T>(value: &str, what: &str, f: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| f(s).ok_or_else(|| format!("bad {what} `{s}`")))
        .collect()
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        algos: ALGOS.iter().filter(|a| a.default).collect(),
        sizes: vec![16, 64, 256, 1024, 8192, 16384],
        backends: None,
        rounds: 7,
        round: Duration::from_millis(20),
        many: vec![(2, 16), (8, 256), (64, 64), (64, 1024), (64, 8192)],
        uneven: Some((64, 8192)),
        merkle: None,
        dc: Vec::new(),
        info_only: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--algo" => {
                let v = value()?;
                o.algos = match v.as_str() {
                    "all" => ALGOS.iter().collect(),
                    "none" => Vec::new(),
                    _ => parse_list(v, "algorithm", bench::find_algo)?,
                };
            }
            "--size" => o.sizes = parse_list(value()?, "size", |s| s.parse().ok().filter(|&n| n > 0))?,
            "--backend" => o.backends = Some(parse_list(value()?, "backend", |s| Some(s.to_string()))?),
            "--rounds" => o.rounds = value()?.parse().ok().filter(|&n| n > 0).ok_or("bad --rounds")?,
            "--round-ms" => {
                o.round = Duration::from_millis(value()?.parse().ok().filter(|&n| n > 0).ok_or("bad --round-ms")?)
            }
            "--many" => {
                let v = value()?;
                o.many = if v == "none" {
                    Vec::new()
                } else {
                    parse_list(v, "batch shape", |s| {
                        let (n, b) = s.split_once('x')?;
                        Some((n.parse().ok().filter(|&n| n > 0)?, b.parse().ok()?))
                    })?
                };
            }
            "--uneven" => {
                let v = value()?;
                o.uneven = if v == "none" {
                    None
                } else {
                    let (n, b) = v.split_once('x').ok_or_else(|| format!("bad uneven batch shape `{v}`"))?;
                    let n = n.parse().ok().filter(|&n| n > 0);
                    let b = b.parse().ok().filter(|&b| b > 0);
                    Some(n.zip(b).ok_or_else(|| format!("bad uneven batch shape `{v}`"))?)
                };
            }
            "--merkle" => {
                let v = value()?;
                o.merkle = if v == "none" {
                    None
                } else {
                    let (p, l) = v.split_once(',').ok_or_else(|| format!("bad --merkle `{v}`: PAIRS,LEAVES"))?;
                    let p = p.parse().ok().filter(|&n| n > 0);
                    let l = l.parse().ok().filter(|&n| n > 0);
                    Some(p.zip(l).ok_or_else(|| format!("bad --merkle `{v}`: PAIRS,LEAVES"))?)
                };
            }
            "--dc" => {
                let v = value()?;
                o.dc = if v == "none" {
                    Vec::new()
                } else {
                    parse_list(v, "collision detection size", |s| s.parse().ok().filter(|&n| n > 0))?
                };
            }
            "--info" => o.info_only = true,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if (o.algos.is_empty() && o.merkle.is_none() && o.dc.is_empty()) || o.sizes.is_empty() {
        return Err("nothing to measure".into());
    }
    // Batches compare with our picked backend one by one, which may be SHA-NI.
    if peers::MASKED {
        o.many.clear();
        o.uneven = None;
        o.merkle = None;
        o.dc.clear();
    }
    Ok(o)
}

/// Print one output line (fields joined by tabs).
macro_rules! emit {
    ($($field:expr),+ $(,)?) => {{
        let fields: Vec<String> = vec![$($field.to_string()),+];
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", fields.join("\t"));
        let _ = out.flush();
    }};
}

/// A way that writes its results into a slice (one per message, pair or
/// node): its label, whether the others' ratios are to it, and the run.
type FillWay<'a, T> = (String, bool, Box<dyn Fn(&mut [T]) + 'a>);

/// Run each of `ways` once into a slice of `blank`s and keep those whose
/// results equal `want`, a `note` of `section` (`differs` its text) naming
/// each other one; then time the kept ways interleaved, each on its own
/// slice: each kept way's label and baseline flag, and its (median, min,
/// max) ns per call. The Merkle levels and the collision-detection section
/// time their ways this way.
fn checked_interleaved<'a, T: Copy + PartialEq + AsRef<[u8]>>(
    section: &str,
    ways: Vec<FillWay<'a, T>>,
    want: &[T],
    blank: T,
    differs: &str,
    rounds: usize,
    round: Duration,
) -> Vec<(String, bool, (f64, f64, f64))> {
    let ways: Vec<FillWay<'a, T>> = ways
        .into_iter()
        .filter(|(label, _, run)| {
            let mut out = vec![blank; want.len()];
            run(&mut out);
            let ok = out == want;
            if !ok {
                emit!("note", section, label, differs);
            }
            ok
        })
        .collect();
    let times = {
        let outs: Vec<std::cell::RefCell<Vec<T>>> =
            ways.iter().map(|_| std::cell::RefCell::new(vec![blank; want.len()])).collect();
        let runs: Vec<Box<dyn Fn(u64) -> u8 + '_>> = ways
            .iter()
            .zip(&outs)
            .map(|((_, _, run), out)| {
                Box::new(move |iters: u64| {
                    let mut out = out.borrow_mut();
                    for _ in 0..iters {
                        run(std::hint::black_box(&mut out[..]));
                    }
                    out.first().map_or(0, |o| o.as_ref()[0])
                }) as Box<dyn Fn(u64) -> u8>
            })
            .collect();
        let refs: Vec<&dyn Fn(u64) -> u8> = runs.iter().map(|b| b.as_ref()).collect();
        interleaved(&refs, rounds, round)
    };
    ways.into_iter().zip(times).map(|((label, baseline, _), t)| (label, baseline, t)).collect()
}

mod dc;
mod merkle;

fn cpu_features() -> Vec<&'static str> {
    let mut v = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($f:tt),+) => {$(
                if std::is_x86_feature_detected!($f) {
                    v.push($f);
                }
            )+};
        }
        probe!("sse2", "ssse3", "sse4.1", "avx", "avx2", "bmi1", "bmi2", "sha", "avx512f", "avx512vl", "avx512bw");
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! probe {
            ($($f:tt),+) => {$(
                if std::arch::is_aarch64_feature_detected!($f) {
                    v.push($f);
                }
            )+};
        }
        probe!("neon", "sha2", "sha3");
    }
    v
}

/// Iterations of `f` that take about `target`; the calls double as warm-up.
///
/// A first call is made and thrown away: it pays one-time costs (lazy
/// initialisation inside a library, page faults) that would otherwise make
/// the loop far too short. Each estimate is then checked by a run of that
/// length; a run much shorter than `target` (the estimate came from a
/// disturbed measurement) gives a new estimate, a few times at most.
fn calibrate(f: &dyn Fn(u64) -> u8, target: Duration) -> u64 {
    let time = |iters: u64| {
        let start = Instant::now();
        std::hint::black_box(f(iters));
        start.elapsed()
    };
    time(1);
    let mut iters = 1u64;
    let mut took = time(iters);
    while took < target / 8 && iters < 1 << 40 {
        iters = if took < target / 100 { iters * 10 } else { iters * 2 };
        took = time(iters);
    }
    for _ in 0..4 {
        let next = ((iters as f64 * target.as_secs_f64() / took.as_secs_f64().max(1e-9)) as u64).max(1);
        let check = time(next);
        iters = next;
        if check >= target / 2 {
            break;
        }
        took = check;
    }
    iters
}

/// Median, min and max of `samples` (nanoseconds per operation).
fn stats(samples: &mut [f64]) -> (f64, f64, f64) {
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    let median = if n % 2 == 1 { samples[n / 2] } else { (samples[n / 2 - 1] + samples[n / 2]) / 2.0 };
    (median, samples[0], samples[n - 1])
}

/// Time every closure of `runs` for `rounds` rounds, round-robin, each
/// round starting one implementation further along; nanoseconds per call.
fn interleaved(runs: &[&dyn Fn(u64) -> u8], rounds: usize, round: Duration) -> Vec<(f64, f64, f64)> {
    let iters: Vec<u64> = runs.iter().map(|f| calibrate(*f, round)).collect();
    let mut samples = vec![Vec::with_capacity(rounds); runs.len()];
    for r in 0..rounds {
        for k in 0..runs.len() {
            let i = (k + r) % runs.len();
            let start = Instant::now();
            std::hint::black_box(runs[i](iters[i]));
            samples[i].push(start.elapsed().as_secs_f64() * 1e9 / iters[i] as f64);
        }
    }
    samples.iter_mut().map(|s| stats(s)).collect()
}

/// Keep the subjects whose output equals the first one's on messages around
/// the block sizes; name the others.
fn verified(algo: &Algo, subjects: Vec<Subject>) -> Vec<Subject> {
    let lens = [0usize, 1, 55, 64, 111, 136, 200, 1000, 5000];
    let msgs: Vec<Vec<u8>> = lens.iter().map(|&n| message(n, 7 + n as u64)).collect();
    let Some(reference) = subjects.first() else { return subjects };
    let expected: Vec<Vec<u8>> = msgs.iter().map(|m| reference.digest(m)).collect();
    let reference_label = reference.label();
    subjects
        .into_iter()
        .filter(|s| {
            let bad = msgs.iter().zip(&expected).find(|(m, e)| &s.digest(m) != *e);
            if let Some((m, _)) = bad {
                emit!(
                    "note",
                    algo.id,
                    s.label(),
                    format!("left out: its output differs from {reference_label}'s for a {}-byte message", m.len())
                );
            }
            bad.is_none()
        })
        .collect()
}

/// The name of our SHA-NI backends, which the masked build leaves out.
const SHA_NI: &str = "sha-ni";

/// Whether our backend `name` needs SHA-NI: `sha-ni` and its variants
/// (sha1's `sha-ni-avx512`).
fn is_sha_ni(name: &str) -> bool {
    name == SHA_NI || name.starts_with("sha-ni-")
}

fn keep_backend(backends: &Option<Vec<String>>, name: &str) -> bool {
    backends.as_ref().is_none_or(|list| list.iter().any(|b| b == name))
}

fn run(o: &Options) -> Result<(), String> {
    emit!("cpu-features", cpu_features().join(" "));
    let mut crates = bench::crate_backends();
    if peers::MASKED {
        emit!(
            "masked",
            "sha-ni",
            format!(
                "our SHA-NI backends left out; OpenSSL run with OPENSSL_ia32cap={}; RustCrypto's SHA-1 and SHA-256 \
                 built with their software code",
                std::env::var("OPENSSL_ia32cap").unwrap_or_else(|_| "(unset: OpenSSL NOT masked)".into())
            )
        );
        // Our reference becomes the best backend that does not need SHA-NI.
        for c in &mut crates {
            c.available.retain(|&b| !is_sha_ni(b));
            if is_sha_ni(c.detected) {
                c.detected = c.available.first().copied().unwrap_or("portable");
            }
        }
    }
    for c in &crates {
        let unavailable: Vec<String> = c.unavailable.iter().map(|(n, why)| format!("{n} ({why})")).collect();
        emit!("crate", c.crate_name, c.detected, c.available.join(","), unavailable.join("; "));
    }
    if let Some(list) = &o.backends {
        let known: Vec<&str> = crates
            .iter()
            .flat_map(|c| c.available.iter().chain(c.unavailable.iter().map(|(n, _)| n)))
            .copied()
            .collect();
        for b in list {
            if !known.contains(&b.as_str()) {
                let mut known = known.clone();
                known.sort_unstable();
                known.dedup();
                return Err(format!("unknown backend `{b}`; our crates have: {}", known.join(", ")));
            }
        }
    }
    let peers = peers::Peers::load();
    for s in peers.statuses() {
        match s.state {
            Ok(what) => emit!("peer", s.family, "ok", what),
            Err(why) => emit!("peer", s.family, "absent", why),
        }
    }
    if o.info_only {
        emit!("done");
        return Ok(());
    }

    // Assemble and check every subject first, so a failure shows at once.
    let mut plan: Vec<(&'static Algo, Vec<Subject>, Vec<ManySubject>)> = Vec::new();
    // Each algorithm asked for, and the table timed beside it (HMAC-SHA-256
    // after SHA-256, `peers::beside`).
    let algos: Vec<&'static Algo> =
        o.algos.iter().flat_map(|&algo| std::iter::once(algo).chain(peers::beside(algo))).collect();
    for algo in algos {
        let mut ours: Vec<Subject> = bench::ours(algo)
            .into_iter()
            .chain(peers::ours(algo))
            .filter(|s| keep_backend(&o.backends, &s.variant) && !(peers::MASKED && is_sha_ni(&s.variant)))
            .collect();
        if peers::MASKED
            && !ours.iter().any(|s| s.detected)
            && let Some(best) = ours.first_mut()
        {
            best.detected = true;
        }
        if !bench::crates_built().contains(&algo.crate_name) {
            emit!("note", algo.id, "ours", format!("our crate `{}` is not in this build", algo.crate_name));
        }
        let (theirs, notes) = peers.subjects(algo);
        for (family, why) in notes {
            emit!("note", algo.id, family, why);
        }
        let subjects = verified(algo, ours.into_iter().chain(theirs).collect());
        let many = if o.many.is_empty() && o.uneven.is_none() {
            Vec::new()
        } else {
            let many: Vec<ManySubject> = bench::ours_many(algo)
                .into_iter()
                .filter(|m| m.baseline || keep_backend(&o.backends, m.label.rsplit(' ').next().unwrap_or("")))
                .collect();
            let msgs: Vec<Vec<u8>> = (0..37).map(|i| message(i * 29, i as u64)).collect();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let expected = many.iter().find(|m| m.baseline).map(|m| m.digests(&refs));
            many.into_iter()
                .filter(|m| {
                    let ok = Some(m.digests(&refs)) == expected;
                    if !ok {
                        emit!("note", algo.id, &m.label, "left out: its digests differ from one-by-one hashing");
                    }
                    ok
                })
                .collect()
        };
        emit!("algo", algo.id, algo.name, algo.out_len);
        plan.push((algo, subjects, many));
    }
    let total: usize = plan
        .iter()
        .map(|(_, s, m)| {
            o.sizes.len() * usize::from(!s.is_empty())
                + o.many.len() * usize::from(!m.is_empty())
                + usize::from(o.uneven.is_some() && m.iter().any(|m| m.detected))
        })
        .sum::<usize>()
        + o.merkle.map_or(0, |_| merkle::plan())
        + if o.dc.is_empty() { 0 } else { dc::plan(&o.dc) };
    emit!("plan", total);

    let mut n = 0;
    for (algo, subjects, _) in &plan {
        if subjects.is_empty() {
            continue;
        }
        for &size in &o.sizes {
            n += 1;
            emit!(
                "progress",
                n,
                format!("{} at {}: {} implementations", algo.name, bench::size_label(size), subjects.len())
            );
            let data = message(size, size as u64);
            let runs: Vec<Box<dyn Fn(u64) -> u8 + '_>> =
                subjects.iter().map(|s| Box::new(|iters| s.run(&data, iters)) as Box<dyn Fn(u64) -> u8>).collect();
            let refs: Vec<&dyn Fn(u64) -> u8> = runs.iter().map(|b| b.as_ref()).collect();
            for (s, (median, min, max)) in subjects.iter().zip(interleaved(&refs, o.rounds, o.round)) {
                let variant = if s.variant.is_empty() { "-" } else { s.variant.as_str() };
                emit!("single", algo.id, s.family, variant, u8::from(s.detected), size, median, min, max, o.rounds);
            }
        }
    }
    for (algo, _, many) in &plan {
        if many.is_empty() {
            continue;
        }
        for &(count, size) in &o.many {
            n += 1;
            emit!(
                "progress",
                n,
                format!("{} batches of {count} x {}: {} ways", algo.name, bench::size_label(size), many.len())
            );
            let msgs: Vec<Vec<u8>> = (0..count).map(|i| message(size, i as u64)).collect();
            let inputs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            let runs: Vec<Box<dyn Fn(u64) -> u8 + '_>> =
                many.iter().map(|m| Box::new(|iters| m.run(&inputs, iters)) as Box<dyn Fn(u64) -> u8>).collect();
            let refs: Vec<&dyn Fn(u64) -> u8> = runs.iter().map(|b| b.as_ref()).collect();
            for (m, (median, min, max)) in many.iter().zip(interleaved(&refs, o.rounds, o.round)) {
                let engine = m.engine(count);
                emit!("many", algo.id, &m.label, u8::from(m.baseline), count, size, median, min, max, o.rounds, engine);
            }
        }
        let (Some((count, size)), Some(m)) = (o.uneven, many.iter().find(|m| m.detected)) else { continue };
        n += 1;
        emit!(
            "progress",
            n,
            format!(
                "{} uneven batch of {count} x 0-{} against {count} x {}",
                algo.name,
                bench::size_label(2 * size),
                bench::size_label(size)
            )
        );
        let uneven: Vec<Vec<u8>> =
            bench::uneven_lengths(count, size).iter().enumerate().map(|(i, &len)| message(len, i as u64)).collect();
        let equal: Vec<Vec<u8>> = (0..count).map(|i| message(size, i as u64)).collect();
        let uneven: Vec<&[u8]> = uneven.iter().map(Vec::as_slice).collect();
        let equal: Vec<&[u8]> = equal.iter().map(Vec::as_slice).collect();
        let (run_uneven, run_equal) = (|iters| m.run(&uneven, iters), |iters| m.run(&equal, iters));
        let times = interleaved(&[&run_uneven, &run_equal], o.rounds, o.round);
        let ((median, min, _), (equal_median, equal_min, _)) = (times[0], times[1]);
        let engine = m.engine(count);
        emit!("uneven", algo.id, &m.label, count, count * size, median, min, equal_median, equal_min, o.rounds, engine);
    }
    if let Some((pairs, leaves)) = o.merkle {
        merkle::run(pairs, leaves, o.rounds, o.round, &mut n);
    }
    if !o.dc.is_empty() {
        dc::run(&o.dc, o.rounds, o.round, &mut n);
    }
    emit!("done");
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
