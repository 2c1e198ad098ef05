//! The batch sections of the speed report: `digest_many` batches, batches
//! of unequal lengths, and the Merkle level and root.

use std::fmt::Write as _;

use super::super::{Dc, Many, Merkle, Results, Uneven, rate_label, size_label};

/// `items` without repeats, each where it first appears (the report's
/// rows and columns keep the order things were measured in).
fn first_seen<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

pub(super) fn batches(w: &mut String, r: &Results) {
    if r.manys.is_empty() {
        return;
    }
    let _ = writeln!(w, "## Batches: `digest_many`\n");
    let _ = writeln!(
        w,
        "Aggregate throughput hashing a batch of `count x size` messages with `digest_many` \
         (`digest_xof_many`) on each backend, against the picked single-stream backend hashing the same \
         messages one by one (ratio in brackets; above 1.00x the batch API is faster; on the picked \
         backend a batch should never be slower). `engine` is the batch engine that \
         `Backend::batch_engine` names for a batch of that many messages on this CPU (SHA-256's SHA-NI \
         streams run short messages one by one).\n"
    );
    let mut shapes: Vec<(usize, usize)> = r.manys.iter().map(|m| (m.count, m.size)).collect();
    shapes.sort_unstable_by_key(|&(c, s)| (s, c));
    shapes.dedup();
    let head: String = shapes.iter().map(|(c, s)| format!(" {c} x {} |", size_label(*s))).collect();
    let _ = writeln!(w, "| algorithm | how | engine |{head}");
    let _ = writeln!(w, "|---|---|---|{}", "---:|".repeat(shapes.len()));
    for algo in &r.algos {
        let rows: Vec<&Many> = r.manys.iter().filter(|m| m.algo == algo.id).collect();
        let labels = first_seen(rows.iter().map(|m| m.label.as_str()));
        for (i, label) in labels.iter().enumerate() {
            let cells: String = shapes
                .iter()
                .map(|&(c, s)| {
                    let find = |pred: &dyn Fn(&Many) -> bool| {
                        rows.iter().copied().find(|m| m.count == c && m.size == s && pred(m))
                    };
                    match (find(&|m| m.label == *label), find(&|m| m.baseline)) {
                        (Some(m), Some(b)) => format!(" {} ({:.2}x) |", rate_label(m.rate()), m.rate() / b.rate()),
                        (Some(m), None) => format!(" {} |", rate_label(m.rate())),
                        _ => " – |".to_string(),
                    }
                })
                .collect();
            let name = if i == 0 { algo.name.as_str() } else { "" };
            let engines = first_seen(
                rows.iter().filter(|m| m.label == *label && !m.engine.is_empty()).map(|m| m.engine.as_str()),
            );
            let engine = if engines.is_empty() { "–".to_string() } else { engines.join(" / ") };
            let _ = writeln!(w, "| {name} | {label} | {engine} |{cells}");
        }
    }
    let _ = writeln!(w);
}

/// One row per algorithm: `digest_many` on the picked backend over a batch
/// of unequal lengths against an equal-length batch of the same total,
/// timed interleaved.
pub(super) fn uneven_batches(w: &mut String, r: &Results) {
    let Some(first) = r.unevens.first() else { return };
    let mean = first.total / first.count.max(1);
    let _ = writeln!(
        w,
        "## Batches of unequal lengths
"
    );
    let _ = writeln!(
        w,
        "`digest_many` on the picked backend over {n} messages of 0 to {max} (lengths drawn from a fixed seed, \
         `bench::uneven_lengths`; {total} in all, as in {n} x {mean}), timed interleaved with the same call on \
         {n} x {mean}. `uneven / equal` is the ratio of their throughputs (1.00x: unequal lengths cost nothing).\n",
        n = first.count,
        max = size_label(2 * mean),
        total = size_label(first.total),
        mean = size_label(mean),
    );
    let _ = writeln!(w, "| algorithm | how | engine | uneven | equal | uneven / equal |");
    let _ = writeln!(w, "|---|---|---|---:|---:|---:|");
    for algo in &r.algos {
        for u in r.unevens.iter().filter(|u| u.algo == algo.id) {
            let _ = writeln!(w, "{}", uneven_row(&algo.name, u));
        }
    }
    let _ = writeln!(w);
}

fn uneven_row(name: &str, u: &Uneven) -> String {
    let engine = if u.engine.is_empty() { "–" } else { u.engine.as_str() };
    format!(
        "| {name} | {} | {engine} | {} | {} | {:.2}x |",
        u.label,
        rate_label(u.rate()),
        rate_label(u.equal_rate()),
        u.rate() / u.equal_rate()
    )
}

/// The Merkle section (`--algo merkle`): one level of SHA-256 pairs and one
/// RFC 9162 root, each way timed interleaved with the others; the ratio is
/// the way's time over our `hash_pairs`' (or `MerkleTree`'s): how many
/// times faster ours is.
pub(super) fn merkle(w: &mut String, r: &Results) {
    if r.merkles.is_empty() {
        return;
    }
    let _ = writeln!(w, "## Merkle\n");
    let _ = writeln!(
        w,
        "SHA-256 of one tree level of 64-byte pairs of 32-byte nodes (`hash_pairs`, as in SSZ merkleization), and \
         the RFC 9162 root (`0x00 || leaf`, `0x01 || left || right`) of a tree of 64-byte leaves. Every way's \
         output was compared with SHA-256 one pair at a time (the level) or with our `MerkleTree` (the root) \
         before timing. `ours ÷ this`: this way's time over ours, above 1.00x we are faster.\n"
    );
    for (case, what, unit) in [("pairs", "pairs", "pair"), ("root", "leaves", "leaf")] {
        let rows: Vec<&Merkle> = r.merkles.iter().filter(|m| m.case == case).collect();
        let Some(first) = rows.first() else { continue };
        let base = rows.iter().find(|m| m.baseline).map(|m| m.ns);
        let title = if case == "pairs" { "one level" } else { "RFC 9162 root" };
        let _ = writeln!(w, "{title}, {} {what}:\n", first.items);
        let _ = writeln!(w, "{}", merkle_header(case));
        let _ = writeln!(w, "|---|---:|---:|---:|");
        for m in rows {
            let _ = writeln!(w, "{}", merkle_row(m, base, unit));
        }
        let _ = writeln!(w);
    }
    // The other algorithms' levels (`pairs:<algorithm>`), one table, each
    // algorithm's rows divided by its own `hash_pairs`.
    let algs = first_seen(r.merkles.iter().filter_map(|m| m.case.strip_prefix("pairs:")));
    let Some(first) = r.merkles.iter().find(|m| m.case.starts_with("pairs:")) else { return };
    let _ = writeln!(w, "the other pair engines, one level of {} pairs of digest-sized nodes:\n", first.items);
    let _ = writeln!(w, "| algorithm | how | per level | per pair | ours ÷ this |");
    let _ = writeln!(w, "|---|---|---:|---:|---:|");
    for alg in algs {
        let rows: Vec<&Merkle> = r.merkles.iter().filter(|m| m.case.strip_prefix("pairs:") == Some(alg)).collect();
        let base = rows.iter().find(|m| m.baseline).map(|m| m.ns);
        for m in rows {
            let _ = writeln!(w, "| {alg} {}", merkle_row(m, base, "pair"));
        }
    }
    let _ = writeln!(w);
}

/// The SHA-1 collision detection section (`--algo sha1dc`): our `Sha1Dc`
/// one message at a time beside the other ways at each size, and
/// `Sha1Dc::digest_many` beside `Sha1::digest_many`; each cell is the way's
/// throughput and `Sha1Dc`'s over it (above 1.00x `Sha1Dc` is faster; the
/// plain SHA-1 rows say what detection costs).
pub(super) fn collision_detection(w: &mut String, r: &Results) {
    if r.dcs.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "## SHA-1 collision detection
"
    );
    let _ = writeln!(
        w,
        "Our `Sha1Dc` (SHA-1 with the reference's collision detection) beside our plain `Sha1` and the crates \
         with collision detection, on pseudo-random messages (about one block in twenty passes the filter to the \
         costly check). Every way's digests were compared with SHA-1 before timing. Each cell: the way's \
         throughput, and `Sha1Dc`'s over it in brackets (above 1.00x `Sha1Dc` is faster; below, on the plain \
         SHA-1 rows, what detection costs).\n"
    );
    for (case, title) in [("one", "one message at a time"), ("many", "`digest_many`")] {
        let rows: Vec<&Dc> = r.dcs.iter().filter(|d| d.case == case).collect();
        if rows.is_empty() {
            continue;
        }
        // Columns: the message shapes, in the order measured; rows: the
        // ways, each marked as its first row is.
        let shapes = first_seen(rows.iter().map(|d| (d.messages, d.size)));
        let labels: Vec<(&str, bool)> = first_seen(rows.iter().map(|d| d.label.as_str()))
            .into_iter()
            .map(|l| (l, rows.iter().find(|d| d.label == l).is_some_and(|d| d.baseline)))
            .collect();
        let _ = writeln!(
            w,
            "{title}:
"
        );
        let head: Vec<String> = shapes
            .iter()
            .map(|&(n, size)| if n == 1 { size_label(size) } else { format!("{n} x {}", size_label(size)) })
            .collect();
        let _ = writeln!(w, "| way | {} |", head.join(" | "));
        let _ = writeln!(w, "|---|{}", "---:|".repeat(shapes.len()));
        for (label, baseline) in labels {
            let cells: Vec<String> = shapes
                .iter()
                .map(|&shape| {
                    let at = |d: &&Dc| (d.messages, d.size) == shape;
                    let this = rows.iter().find(|d| at(d) && d.label == label);
                    let ours = rows.iter().find(|d| at(d) && d.baseline);
                    match (this, ours) {
                        (Some(t), Some(o)) => format!("{} ({:.2}x)", rate_label(t.rate()), o.rate() / t.rate()),
                        (Some(t), None) => rate_label(t.rate()),
                        _ => "–".into(),
                    }
                })
                .collect();
            let _ = writeln!(w, "| {label}{} | {} |", if baseline { " *" } else { "" }, cells.join(" | "));
        }
        let _ = writeln!(w);
    }
}

fn merkle_header(case: &str) -> &'static str {
    if case == "pairs" {
        "| how | per level | per pair | ours ÷ this |"
    } else {
        "| how | per root | per leaf | ours ÷ this |"
    }
}

fn merkle_row(m: &Merkle, base: Option<f64>, unit: &str) -> String {
    let ratio = base.map_or("–".to_string(), |b| format!("{:.2}x", m.ns / b));
    format!(
        "| {}{} | {} | {:.1} ns/{unit} | {ratio} |",
        m.label,
        if m.baseline { " *" } else { "" },
        time_label(m.ns),
        m.ns / m.items.max(1) as f64
    )
}

/// Nanoseconds as `850 ns`, `41.2 µs`, `182 ms`.
fn time_label(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.1} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merkle_rows_divide_each_way_by_ours() {
        let m = |label: &str, baseline: bool, ns: f64| Merkle {
            case: "pairs".into(),
            label: label.into(),
            baseline,
            items: 1024,
            ns,
            min: ns,
        };
        let r = Results {
            merkles: vec![m("ours Sha256::hash_pairs (sha-ni)", true, 40_960.0), m("hashtree-rs", false, 61_440.0)],
            ..Results::default()
        };
        let mut w = String::new();
        merkle(&mut w, &r);
        assert!(w.contains("## Merkle"), "{w}");
        assert!(w.contains("| ours Sha256::hash_pairs (sha-ni) * | 41.0 µs | 40.0 ns/pair | 1.00x |"), "{w}");
        assert!(w.contains("| hashtree-rs | 61.4 µs | 60.0 ns/pair | 1.50x |"), "{w}");
        assert!(!w.contains("RFC 9162 root,"), "no root rows, no root table: {w}");
        assert!(!w.contains("other pair engines"), "no other levels, no table: {w}");
        let other = |alg: &str, label: &str, baseline: bool, ns: f64| Merkle {
            case: format!("pairs:{alg}"),
            ..m(label, baseline, ns)
        };
        let r = Results {
            merkles: vec![
                other("SHA-512", "ours hash_pairs", true, 10_240.0),
                other("SHA-512", "peer", false, 20_480.0),
                other("SHA3-256", "ours hash_pairs", true, 2_048.0),
                other("SHA3-256", "peer", false, 3_072.0),
            ],
            ..Results::default()
        };
        let mut w = String::new();
        merkle(&mut w, &r);
        assert!(w.contains("| SHA-512 | peer | 20.5 µs | 20.0 ns/pair | 2.00x |"), "{w}");
        assert!(w.contains("| SHA3-256 | peer | 3.1 µs | 3.0 ns/pair | 1.50x |"), "{w}");
        assert!(!w.contains("one level,"), "no SHA-256 rows, no SHA-256 table: {w}");
        assert_eq!(time_label(182e6), "182.0 ms");
    }

    #[test]
    fn collision_detection_cells_give_sha1dc_over_each_way() {
        let d = |case: &str, label: &str, baseline: bool, messages: usize, size: usize, ns: f64| Dc {
            case: case.into(),
            label: label.into(),
            baseline,
            messages,
            size,
            ns,
            min: ns,
        };
        let r = Results {
            dcs: vec![
                d("one", "ours Sha1Dc (sha-ni)", true, 1, 1024, 1024.0),
                d("one", "ours Sha1 (sha-ni)", false, 1, 1024, 512.0),
                d("one", "sha1dc 0.1", false, 1, 1024, 2048.0),
                d("one", "ours Sha1Dc (sha-ni)", true, 1, 64, 100.0),
                d("one", "sha1dc 0.1", false, 1, 64, 120.0),
                d("many", "ours Sha1Dc::digest_many", true, 64, 8192, 262_144.0),
                d("many", "ours Sha1::digest_many", false, 64, 8192, 131_072.0),
            ],
            ..Results::default()
        };
        let mut w = String::new();
        collision_detection(&mut w, &r);
        assert!(w.contains("## SHA-1 collision detection"), "{w}");
        assert!(w.contains("| way | 1 KiB | 64 B |"), "{w}");
        assert!(w.contains("| ours Sha1Dc (sha-ni) * | 1.00 GB/s (1.00x) | 640 MB/s (1.00x) |"), "{w}");
        assert!(w.contains("| ours Sha1 (sha-ni) | 2.00 GB/s (0.50x) | – |"), "{w}");
        assert!(w.contains("| sha1dc 0.1 | 500 MB/s (2.00x) | 533 MB/s (1.20x) |"), "{w}");
        assert!(w.contains("| way | 64 x 8 KiB |"), "{w}");
        assert!(w.contains("| ours Sha1::digest_many | 4.00 GB/s (0.50x) |"), "{w}");
        let mut w = String::new();
        collision_detection(&mut w, &Results::default());
        assert!(w.is_empty(), "no dc lines, no section: {w}");
    }

    #[test]
    fn uneven_rows_give_the_ratio_to_the_equal_batch() {
        let u = Uneven {
            algo: "md5".into(),
            label: "digest_many avx512".into(),
            count: 64,
            total: 64 * 8192,
            engine: "avx512 2x16 lanes, narrowing".into(),
            ns: 50_000.0,
            min: 45_000.0,
            equal_ns: 40_000.0,
            equal_min: 39_000.0,
        };
        let row = uneven_row("MD5", &u);
        assert!(row.starts_with("| MD5 | digest_many avx512 | avx512 2x16 lanes, narrowing |"), "{row}");
        assert!(row.ends_with("| 0.80x |"), "{row}");
        let mut w = String::new();
        let r = Results { unevens: vec![u], ..Results::default() };
        uneven_batches(&mut w, &r);
        assert!(w.contains("64 messages of 0 to 16 KiB") && w.contains("512 KiB in all, as in 64 x 8 KiB"), "{w}");
    }
}
