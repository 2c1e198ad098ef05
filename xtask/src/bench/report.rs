//! The Markdown speed report.

use std::fmt::Write as _;

use super::{LeftOut, Options, Results, Single, rate_label, size_label};

mod batches;

use batches::{batches, collision_detection, merkle, uneven_batches};

/// How the run went, beside the results.
pub(crate) struct Context {
    pub(crate) command: String,
    pub(crate) options: Options,
    pub(crate) build_secs: f64,
    pub(crate) measure_secs: f64,
    /// Parts of `bench/peers` that did not build, with the first error.
    pub(crate) left_out: Vec<LeftOut>,
    /// Peer crate versions from `bench/peers/Cargo.lock`.
    pub(crate) versions: Vec<(String, String)>,
    pub(crate) cpu: String,
    pub(crate) date: String,
    pub(crate) commit: String,
}

/// Ratios within this factor of 1 count as level: rounds on a shared
/// machine differ by a few per cent.
const LEVEL: f64 = 0.03;

const RC_FAMILIES: [&str; 2] = ["rustcrypto-0.10", "rustcrypto-latest"];

/// Ours through the `sha2` drop-in (`dropin/sha2-0.10`), RustCrypto's API
/// on our backends: issue 28 asks it to be at least RustCrypto's speed at
/// every size and within 3% of ours from 1 KiB up.
const DROPIN: &str = "ours-via-sha2-dropin";
/// Ours through the `sha2` 0.11 drop-in (`dropin/sha2-0.11`), with the
/// same aim.
const DROPIN_011: &str = "ours-via-sha2-0.11-dropin";

/// The measurements of one algorithm.
struct Table<'a> {
    singles: Vec<&'a Single>,
    sizes: Vec<usize>,
    /// Implementation labels in the measuring program's order (ours first,
    /// best backend first).
    labels: Vec<String>,
}

impl<'a> Table<'a> {
    fn new(r: &'a Results, algo: &str) -> Self {
        let singles: Vec<&Single> = r.singles.iter().filter(|s| s.algo == algo).collect();
        let mut sizes: Vec<usize> = singles.iter().map(|s| s.size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut labels: Vec<String> = Vec::new();
        for s in &singles {
            if !labels.contains(&s.label()) {
                labels.push(s.label());
            }
        }
        Table { singles, sizes, labels }
    }

    fn get(&self, label: &str, size: usize) -> Option<&'a Single> {
        self.singles.iter().copied().find(|s| s.size == size && s.label() == label)
    }

    /// Our reference implementation: the detected backend, or failing that
    /// (a `--backend` filter) the best of ours that ran.
    fn ours(&self) -> Option<String> {
        let ours = || self.singles.iter().filter(|s| s.family == "ours");
        ours().find(|s| s.detected).or_else(|| ours().next()).map(|s| s.label())
    }

    /// `(size, ours ÷ peer)` at each size where both ran; `peer` is a label,
    /// or `best-rustcrypto` for the faster RustCrypto line at each size.
    fn ratios(&self, peer: &str) -> Vec<(usize, f64)> {
        let Some(ours) = self.ours() else { return Vec::new() };
        self.ratios_of(&ours, peer)
    }

    /// `(size, mine ÷ peer)` as [`Table::ratios`], for the implementation
    /// labelled `mine` in place of ours.
    fn ratios_of(&self, mine: &str, peer: &str) -> Vec<(usize, f64)> {
        self.sizes
            .iter()
            .filter_map(|&size| {
                let mine = self.get(mine, size)?.rate();
                let theirs = if peer == "best-rustcrypto" {
                    RC_FAMILIES.iter().filter_map(|f| self.get(f, size)).map(Single::rate).reduce(f64::max)?
                } else {
                    self.get(peer, size)?.rate()
                };
                Some((size, mine / theirs))
            })
            .collect()
    }
}

/// "ahead at all sizes", "behind at 16 B (0.90x); ahead elsewhere", ...
fn verdict(ratios: &[(usize, f64)]) -> String {
    if ratios.is_empty() {
        return "not measured".into();
    }
    // Judge the ratios as printed (two decimals), so that a printed 0.97x is
    // never called both level and behind.
    let rounded: Vec<(usize, f64)> = ratios.iter().map(|&(s, r)| (s, (r * 100.0).round() / 100.0)).collect();
    let ratios = &rounded[..];
    let list = |pick: &dyn Fn(f64) -> bool| {
        ratios
            .iter()
            .filter(|(_, r)| pick(*r))
            .map(|(s, r)| format!("{} ({r:.2}x)", size_label(*s)))
            .collect::<Vec<_>>()
    };
    let behind = list(&|r| r < 1.0 - LEVEL);
    let level = list(&|r| (1.0 - LEVEL..=1.0 + LEVEL).contains(&r));
    let ahead = ratios.iter().filter(|(_, r)| *r > 1.0 + LEVEL).count();
    let n = ratios.len();
    match (behind.len(), level.len()) {
        (0, 0) if n == 1 => "ahead".into(),
        (0, 0) => "ahead at all sizes".into(),
        (0, _) if ahead == 0 => "level at all sizes".into(),
        (0, _) => format!("ahead; level at {}", level.join(", ")),
        (b, _) if b == n => {
            let worst = ratios.iter().map(|(_, r)| *r).fold(f64::INFINITY, f64::min);
            let best = ratios.iter().map(|(_, r)| *r).fold(0.0, f64::max);
            if n == 1 {
                format!("behind ({worst:.2}x)")
            } else {
                format!("behind at all sizes ({worst:.2}x to {best:.2}x)")
            }
        }
        _ => {
            let mut s = format!("behind at {}", behind.join(", "));
            if !level.is_empty() {
                let _ = write!(s, "; level at {}", level.join(", "));
            }
            if ahead > 0 {
                s.push_str("; ahead elsewhere");
            }
            s
        }
    }
}

fn ratio_cells(ratios: &[(usize, f64)], sizes: &[usize]) -> String {
    sizes
        .iter()
        .map(|s| match ratios.iter().find(|(size, _)| size == s) {
            Some((_, r)) => format!(" {r:.2}x |"),
            None => " – |".to_string(),
        })
        .collect()
}

fn peer_name(r: &Results, family: &str) -> String {
    match family {
        "openssl" => r
            .peers
            .iter()
            .find(|p| p.family == "openssl" && p.ok)
            .and_then(|p| p.text.split_whitespace().nth(1))
            .map(|v| format!("OpenSSL {v}"))
            .unwrap_or_else(|| "OpenSSL".into()),
        "best-rustcrypto" => "best RustCrypto".into(),
        other => other.into(),
    }
}

pub(crate) fn render(r: &Results, c: &Context, plots: &[String]) -> String {
    let mut out = String::new();
    let o = &c.options;
    let w = &mut out;
    let _ = writeln!(w, "# Speed report\n");
    let _ = writeln!(w, "`{}` · {} · commit {}\n", c.command, c.date, c.commit);
    let _ = writeln!(
        w,
        "How to read it: each implementation hashes one message of each size, one-shot, in a loop; the figure is \
         the {} of {} rounds of ~{} ms, the implementations taking turns within each round, so a burst of load \
         on the machine slows them all alike. A **ratio** is our throughput divided by the peer's: above 1.00x we are \
         faster. \"ours\" is the backend our crate picks on this CPU (`Backend::detect()`, marked `*`). Ratios within \
         3% of 1.00x count as level. Every implementation's output was checked against ours before timing.\n",
        o.stat(),
        o.rounds,
        o.round_ms
    );

    machine(w, r, c);
    summary(w, r);
    sha256_vs_sha512(w, r);
    for algo in &r.algos {
        per_algorithm(w, r, &algo.id, &algo.name, plots);
    }
    batches(w, r);
    uneven_batches(w, r);
    merkle(w, r);
    collision_detection(w, r);
    left_out(w, r, c);
    out
}

fn machine(w: &mut String, r: &Results, c: &Context) {
    let _ = writeln!(w, "## Machine\n");
    let _ = writeln!(w, "- CPU: {}", c.cpu);
    let _ = writeln!(
        w,
        "- CPU features detected at run time: {}",
        if r.cpu_features.is_empty() { "(none probed)" } else { &r.cpu_features }
    );
    if let Some(masked) = &r.masked {
        let _ = writeln!(w, "- **SHA-NI masked** (`--no-shani`): {masked}");
    }
    let star = if r.masked.is_some() {
        "the best backend without SHA-NI, which stands for ours in this run"
    } else {
        "picked by `Backend::detect()`"
    };
    let _ = writeln!(w, "- Backends of our crates (`*` = {star}):\n");
    let _ = writeln!(w, "  | crate | picked | supported here | compiled in, not supported here |");
    let _ = writeln!(w, "  |---|---|---|---|");
    for k in &r.crates {
        let unsupported = if k.unavailable.is_empty() { "–" } else { &k.unavailable };
        let _ =
            writeln!(w, "  | {} | {}* | {} | {} |", k.name, k.detected, k.available.replace(',', ", "), unsupported);
    }
    let _ = writeln!(w, "\n- Peers:\n");
    let version = |name: &str, line: &str| {
        c.versions.iter().filter(|(n, v)| n == name && v.starts_with(line)).map(|(n, v)| format!("{n} {v}")).next()
    };
    let join = |items: Vec<Option<String>>| items.into_iter().flatten().collect::<Vec<_>>().join(", ");
    for p in &r.peers {
        let build_failure = c.left_out.iter().find(|l| l.family == p.family);
        let what = match (p.family.as_str(), p.ok) {
            (_, false) => match build_failure {
                Some(l) => format!("**not measured**: did not build (`{}`)", l.why),
                None => format!("**not measured**: {}", p.text),
            },
            ("openssl", true) => format!("{} (EVP one-shot; libcrypto loaded at run time)", p.text),
            ("rustcrypto-0.10", true) => {
                let v = join(vec![
                    version("md-5", "0.10"),
                    version("sha1", "0.10"),
                    version("sha2", "0.10"),
                    version("sha3", "0.10"),
                ]);
                if v.is_empty() { p.text.clone() } else { v }
            }
            ("rustcrypto-latest", true) => {
                let v = join(vec![
                    version("md-5", "0.11"),
                    version("sha1", "0.11"),
                    version("sha2", "0.11"),
                    version("sha3", "0.12"),
                    version("shake", ""),
                ]);
                if v.is_empty() { p.text.clone() } else { v }
            }
            ("ring", true) => version("ring", "").unwrap_or_else(|| p.text.clone()),
            (_, true) => p.text.clone(),
        };
        let _ = writeln!(w, "  - {}: {what}", p.family);
    }
    let _ = writeln!(w, "\n- Time: building bench/peers {:.0} s, measuring {:.0} s.\n", c.build_secs, c.measure_secs);
}

fn summary(w: &mut String, r: &Results) {
    let mut sizes: Vec<usize> = r.singles.iter().map(|s| s.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    if sizes.is_empty() {
        let _ = writeln!(w, "## Summary\n\nNothing was measured.\n");
        return;
    }
    let _ = writeln!(w, "## Summary: ours ÷ peer throughput\n");
    let head: String = sizes.iter().map(|s| format!(" {} |", size_label(*s))).collect();
    let _ = writeln!(w, "| algorithm | ours | against |{head} verdict |");
    let _ = writeln!(w, "|---|---|---|{}---|", "---:|".repeat(sizes.len()));
    for algo in &r.algos {
        let t = Table::new(r, &algo.id);
        let Some(ours) = t.ours() else {
            let _ = writeln!(w, "| {} | not measured | | {} |", algo.name, " |".repeat(sizes.len()));
            continue;
        };
        let mut first = true;
        for peer in ["openssl", "best-rustcrypto"] {
            let ratios = t.ratios(peer);
            let (name, ours_cell) =
                if first { (algo.name.as_str(), ours.trim_start_matches("ours ")) } else { ("", "") };
            first = false;
            let _ = writeln!(
                w,
                "| {name} | {ours_cell} | {} |{} {} |",
                peer_name(r, peer),
                ratio_cells(&ratios, &sizes),
                verdict(&ratios)
            );
        }
    }
    let _ = writeln!(w);
}

fn sha256_vs_sha512(w: &mut String, r: &Results) {
    let _ = writeln!(w, "## SHA-256 or SHA-512: which is faster per byte here?\n");
    let (a, b) = (Table::new(r, "sha256"), Table::new(r, "sha512"));
    let common: Vec<usize> = a.sizes.iter().copied().filter(|s| b.sizes.contains(s)).collect();
    let (Some(&size), Some(oa), Some(ob)) = (common.last(), a.ours(), b.ours()) else {
        let _ = writeln!(w, "Not measured: run with both `--algo sha256,sha512`.\n");
        return;
    };
    let line = |la: &str, lb: &str, who: &str| -> Option<String> {
        let (ra, rb) = (a.get(la, size)?.rate(), b.get(lb, size)?.rate());
        let (faster, ratio) = if ra >= rb { ("SHA-256", ra / rb) } else { ("SHA-512", rb / ra) };
        Some(format!(
            "- {who}: SHA-256 {} vs SHA-512 {} on {} messages: **{faster} is {ratio:.2}x faster per byte**.",
            rate_label(ra),
            rate_label(rb),
            size_label(size)
        ))
    };
    let ours_line =
        line(&oa, &ob, &format!("ours ({} / {})", oa.trim_start_matches("ours "), ob.trim_start_matches("ours ")));
    let _ = writeln!(w, "{}", ours_line.unwrap_or_default());
    if let Some(l) = line("openssl", "openssl", &peer_name(r, "openssl")) {
        let _ = writeln!(w, "{l}");
    }
    let _ = writeln!(
        w,
        "\n(SHA-512 does 80 rounds on 128-byte blocks with 64-bit words, SHA-256 64 rounds on 64-byte blocks: without \
         SHA extensions SHA-512 is usually faster per byte on 64-bit CPUs; the SHA-NI instructions cover SHA-256 only.)\n"
    );
}

fn per_algorithm(w: &mut String, r: &Results, id: &str, name: &str, plots: &[String]) {
    let t = Table::new(r, id);
    let _ = writeln!(w, "## {name}\n");
    if id == "hmac-sha256" {
        let _ = writeln!(
            w,
            "`Hmac<Sha256>`, one-shot with a 32-byte key (`new_from_slice`, `update`, `finalize` per message): \
             \"ours\" is `hmac` 0.12's `Hmac<sha256::compat::Sha256>`; {DROPIN} is `hmac` 0.12 over the `sha2` 0.10 \
             drop-in and rustcrypto-0.10 `hmac` 0.12 over RustCrypto's `sha2` 0.10; {DROPIN_011} is `hmac` 0.13 \
             over the `sha2` 0.11 drop-in and rustcrypto-latest `hmac` 0.13 over RustCrypto's `sha2` 0.11; OpenSSL \
             is its one-shot `HMAC()`.\n"
        );
    }
    let plot = format!("{id}.svg");
    if plots.contains(&plot) {
        let _ = writeln!(w, "![{name}: throughput against message size]({plot})\n");
    }
    if t.singles.is_empty() {
        let _ = writeln!(w, "Nothing measured.\n");
    } else {
        let ours = t.ours();
        let label = |l: &str| if Some(l) == ours.as_deref() { format!("{l} *") } else { l.to_string() };
        let width = t.labels.iter().map(|l| label(l).len()).max().unwrap_or(4).max(4) + 2;
        let col = 14;
        let header: String = t.sizes.iter().map(|s| format!("{:>col$}", format!("{s} bytes"))).collect();
        let _ = writeln!(w, "The 'numbers' are in 1000s of bytes per second processed (as `openssl speed`):\n");
        let _ = writeln!(w, "```text\n{:<width$}{header}", "type");
        for l in &t.labels {
            let cells: String = t
                .sizes
                .iter()
                .map(|&s| match t.get(l, s) {
                    Some(x) => format!("{:>col$}", format!("{:.2}k", x.rate() / 1e3)),
                    None => format!("{:>col$}", "–"),
                })
                .collect();
            let _ = writeln!(w, "{:<width$}{cells}", label(l));
        }
        let _ = writeln!(w, "```\n\nHashes per second:\n");
        let _ = writeln!(w, "```text\n{:<width$}{header}", "type");
        for l in &t.labels {
            let cells: String = t
                .sizes
                .iter()
                .map(|&s| match t.get(l, s) {
                    Some(x) => format!("{:>col$}", format!("{:.0}", 1e9 / x.ns)),
                    None => format!("{:>col$}", "–"),
                })
                .collect();
            let _ = writeln!(w, "{:<width$}{cells}", label(l));
        }
        let _ = writeln!(w, "```\n");
        if let Some(ours) = &ours {
            let head: String = t.sizes.iter().map(|s| format!(" {} |", size_label(*s))).collect();
            let _ = writeln!(w, "| {ours} against |{head} verdict |");
            let _ = writeln!(w, "|---|{}---|", "---:|".repeat(t.sizes.len()));
            let mut peers: Vec<String> = vec!["openssl".into(), "best-rustcrypto".into()];
            peers.extend(t.labels.iter().filter(|l| !l.starts_with("ours ") && *l != "openssl").cloned());
            for p in &peers {
                let ratios = t.ratios(p);
                if !ratios.is_empty() {
                    let _ =
                        writeln!(w, "| {} |{} {} |", peer_name(r, p), ratio_cells(&ratios, &t.sizes), verdict(&ratios));
                }
            }
            let _ = writeln!(w);
            dropin_rows(w, r, &t, ours);
        }
        // How much the rounds varied: (max - min) / median per cell.
        let mut spreads: Vec<(f64, &Single)> = t.singles.iter().map(|s| ((s.max - s.min) / s.ns, *s)).collect();
        spreads.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((worst, s)) = spreads.last() {
            let median = spreads[spreads.len() / 2].0;
            let _ = writeln!(
                w,
                "Spread between rounds ((slowest − fastest) ÷ median): {:.0}% typical, {:.0}% at worst ({} at {}).\n",
                median * 100.0,
                worst * 100.0,
                s.label(),
                size_label(s.size)
            );
        }
    }
    for n in r.notes.iter().filter(|n| n.algo == id) {
        let _ = writeln!(w, "- {}: {}", n.family, n.text);
    }
    if r.notes.iter().any(|n| n.algo == id) {
        let _ = writeln!(w);
    }
}

/// Each drop-in (the `sha2` 0.10 and 0.11 lines) against RustCrypto and
/// against ours, where the table has it (SHA-2 and HMAC-SHA-256): drop-in ÷
/// peer. In the SHA-2 tables the peer is the faster RustCrypto line; in the
/// HMAC table, where each line has its own `hmac` (0.12, 0.13), it is
/// RustCrypto's `sha2` under the same `hmac`, since swapping `sha2` under a
/// dependent cannot change which `hmac` it uses.
fn dropin_rows(w: &mut String, r: &Results, t: &Table<'_>, ours: &str) {
    let dropins: Vec<(&str, &str)> = [(DROPIN, RC_FAMILIES[0]), (DROPIN_011, RC_FAMILIES[1])]
        .into_iter()
        .filter(|(d, _)| t.labels.iter().any(|l| l == d))
        .collect();
    if dropins.is_empty() {
        return;
    }
    let hmac = t.singles.first().is_some_and(|s| s.algo == "hmac-sha256");
    let head: String = t.sizes.iter().map(|s| format!(" {} |", size_label(*s))).collect();
    for (i, (dropin, line)) in dropins.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(w);
        }
        let _ = writeln!(w, "| {dropin} against |{head} verdict |");
        let _ = writeln!(w, "|---|{}---|", "---:|".repeat(t.sizes.len()));
        for p in [if hmac { line } else { "best-rustcrypto" }, ours] {
            let ratios = t.ratios_of(dropin, p);
            if !ratios.is_empty() {
                let _ = writeln!(w, "| {} |{} {} |", peer_name(r, p), ratio_cells(&ratios, &t.sizes), verdict(&ratios));
            }
        }
    }
    let _ = writeln!(
        w,
        "\n(The drop-in's aim: at least RustCrypto's speed at every size, level with ours from 1 KiB up.{})\n",
        if hmac { " Each drop-in is set against RustCrypto's `sha2` under the same `hmac` release." } else { "" }
    );
}

fn left_out(w: &mut String, r: &Results, c: &Context) {
    // Peers absent for a reason other than a failed build (which is listed
    // from `c.left_out`).
    let absent: Vec<_> = r.peers.iter().filter(|p| !p.ok && !c.left_out.iter().any(|l| l.family == p.family)).collect();
    if c.left_out.is_empty() && absent.is_empty() && r.notes.is_empty() {
        let _ = writeln!(w, "## Left out\n\nNothing: every part built and every peer ran.");
        return;
    }
    let _ = writeln!(w, "## Left out\n");
    for l in &c.left_out {
        let _ = writeln!(w, "- {}: did not build (`{}`); measured without it.", l.what, l.why);
    }
    for p in absent {
        let _ = writeln!(w, "- {}: {}", p.family, p.text);
    }
    for n in &r.notes {
        let _ = writeln!(w, "- {} ({}): {}", n.family, n.algo, n.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts() {
        assert_eq!(verdict(&[(16, 1.2), (64, 1.5)]), "ahead at all sizes");
        assert_eq!(verdict(&[(16, 0.9), (64, 1.5)]), "behind at 16 B (0.90x); ahead elsewhere");
        assert_eq!(verdict(&[(16, 0.5), (64, 0.8)]), "behind at all sizes (0.50x to 0.80x)");
        assert_eq!(verdict(&[(16, 1.01), (64, 0.99)]), "level at all sizes");
        assert_eq!(verdict(&[(16, 1.01), (64, 1.2)]), "ahead; level at 16 B (1.01x)");
        assert_eq!(verdict(&[(16, 0.5)]), "behind (0.50x)");
        assert_eq!(verdict(&[(16, 1.5)]), "ahead");
        assert_eq!(verdict(&[]), "not measured");
        // 0.9699 prints as 0.97x, which is level.
        assert_eq!(verdict(&[(16, 0.9699), (64, 0.9649)]), "behind at 64 B (0.96x); level at 16 B (0.97x)");
    }

    fn single(algo: &str, family: &str, variant: &str, detected: bool, size: usize, ns: f64) -> Single {
        Single {
            algo: algo.into(),
            family: family.into(),
            variant: variant.into(),
            detected,
            size,
            ns,
            min: ns * 0.9,
            max: ns * 1.1,
        }
    }

    #[test]
    fn ratios_use_the_picked_backend_and_the_faster_rustcrypto_line() {
        let r = Results {
            singles: vec![
                single("sha256", "ours", "sha-ni", true, 64, 100.0),
                single("sha256", "ours", "portable", false, 64, 400.0),
                single("sha256", "openssl", "", false, 64, 200.0),
                single("sha256", "rustcrypto-0.10", "", false, 64, 300.0),
                single("sha256", "rustcrypto-latest", "", false, 64, 150.0),
            ],
            ..Results::default()
        };
        let t = Table::new(&r, "sha256");
        assert_eq!(t.ours().as_deref(), Some("ours sha-ni"));
        assert_eq!(t.ratios("openssl"), vec![(64, 2.0)]);
        assert_eq!(t.ratios("best-rustcrypto"), vec![(64, 1.5)]);
        assert_eq!(t.ratios("ring"), vec![]);
    }

    #[test]
    fn dropin_rows_divide_the_dropin_by_rustcrypto_and_by_ours() {
        let mut r = Results {
            singles: vec![
                single("hmac-sha256", "ours", "sha-ni", true, 1024, 100.0),
                single("hmac-sha256", "rustcrypto-0.10", "", false, 1024, 300.0),
                single("hmac-sha256", DROPIN, "", false, 1024, 125.0),
            ],
            ..Results::default()
        };
        let mut w = String::new();
        dropin_rows(&mut w, &r, &Table::new(&r, "hmac-sha256"), "ours sha-ni");
        assert!(w.contains(&format!("| {DROPIN} against | 1 KiB | verdict |")), "{w}");
        assert!(w.contains("| rustcrypto-0.10 | 2.40x | ahead |"), "{w}");
        assert!(w.contains("| ours sha-ni | 0.80x | behind (0.80x) |"), "{w}");
        assert!(!w.contains(DROPIN_011), "{w}");
        // The 0.11 drop-in gets a table of its own, after the 0.10 one; in
        // the HMAC table each drop-in is set against its own line (its
        // `hmac` release), in the SHA-2 tables against the faster line.
        r.singles.push(single("hmac-sha256", "rustcrypto-latest", "", false, 1024, 200.0));
        r.singles.push(single("hmac-sha256", DROPIN_011, "", false, 1024, 250.0));
        let mut w = String::new();
        dropin_rows(&mut w, &r, &Table::new(&r, "hmac-sha256"), "ours sha-ni");
        let (old, new) = w.split_once(&format!("| {DROPIN_011} against | 1 KiB | verdict |")).expect(&w);
        assert!(old.contains("| rustcrypto-0.10 | 2.40x | ahead |"), "{w}");
        assert!(new.contains("| rustcrypto-latest | 0.80x | behind (0.80x) |"), "{w}");
        assert!(new.contains("| ours sha-ni | 0.40x | behind (0.40x) |"), "{w}");
        assert_eq!(w.matches("The drop-in's aim").count(), 1, "{w}");
        assert!(w.contains("under the same `hmac` release"), "{w}");
        let sha: Vec<Single> = r.singles.iter().map(|s| Single { algo: "sha256".into(), ..s.clone() }).collect();
        let r2 = Results { singles: sha, ..Results::default() };
        let mut w = String::new();
        dropin_rows(&mut w, &r2, &Table::new(&r2, "sha256"), "ours sha-ni");
        let (old, new) = w.split_once(&format!("| {DROPIN_011} against | 1 KiB | verdict |")).expect(&w);
        assert!(old.contains("| best RustCrypto | 1.60x | ahead |"), "{w}");
        assert!(new.contains("| best RustCrypto | 0.80x | behind (0.80x) |"), "{w}");
        assert!(!w.contains("under the same `hmac` release"), "{w}");
        // No drop-in in the table: no rows.
        r.singles.retain(|s| s.family != DROPIN && s.family != DROPIN_011);
        let mut w = String::new();
        dropin_rows(&mut w, &r, &Table::new(&r, "hmac-sha256"), "ours sha-ni");
        assert_eq!(w, "");
    }
}
