//! What the measuring program says, as data: one-shot, batch and
//! uneven-batch timings, the crates' backends, the peers and notes, read
//! from its tab-separated lines; and the short labels sizes and rates are
//! shown with.

/// One algorithm as the measuring program names it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AlgoName {
    pub(crate) id: String,
    pub(crate) name: String,
}

/// One of our crates' backends on this CPU.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CrateLine {
    pub(crate) name: String,
    pub(crate) detected: String,
    pub(crate) available: String,
    pub(crate) unavailable: String,
}

/// A peer family and whether it ran.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PeerLine {
    pub(crate) family: String,
    pub(crate) ok: bool,
    pub(crate) text: String,
}

/// A remark about one implementation of one algorithm.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Note {
    pub(crate) algo: String,
    pub(crate) family: String,
    pub(crate) text: String,
}

/// One-shot timing of one implementation at one size.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Single {
    pub(crate) algo: String,
    pub(crate) family: String,
    pub(crate) variant: String,
    pub(crate) detected: bool,
    pub(crate) size: usize,
    /// Median nanoseconds per message.
    pub(crate) ns: f64,
    pub(crate) min: f64,
    pub(crate) max: f64,
}

impl Single {
    /// `ours sha-ni`, `openssl`, `rustcrypto-0.10`.
    pub(crate) fn label(&self) -> String {
        if self.family == "ours" { format!("ours {}", self.variant) } else { self.family.clone() }
    }

    /// Bytes per second.
    pub(crate) fn rate(&self) -> f64 {
        self.size as f64 * 1e9 / self.ns
    }
}

/// Batch timing: `count` messages of `size` bytes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Many {
    pub(crate) algo: String,
    pub(crate) label: String,
    pub(crate) baseline: bool,
    pub(crate) count: usize,
    pub(crate) size: usize,
    /// The engine the batch ran on (`Backend::batch_engine`), or empty
    /// when the measuring program did not say.
    pub(crate) engine: String,
    /// Median nanoseconds per batch.
    pub(crate) ns: f64,
    pub(crate) min: f64,
}

impl Many {
    /// Aggregate bytes per second.
    pub(crate) fn rate(&self) -> f64 {
        (self.count * self.size) as f64 * 1e9 / self.ns
    }
}

/// `digest_many` on the detected backend over a batch of `count` messages
/// of unequal lengths (0 to twice the mean, `bench::uneven_lengths`) and,
/// interleaved with it, over `count` equal messages of the same total.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Uneven {
    pub(crate) algo: String,
    pub(crate) label: String,
    pub(crate) count: usize,
    /// Bytes in either batch.
    pub(crate) total: usize,
    pub(crate) engine: String,
    /// Median and fastest nanoseconds per uneven batch.
    pub(crate) ns: f64,
    pub(crate) min: f64,
    /// The same for the equal-length batch.
    pub(crate) equal_ns: f64,
    pub(crate) equal_min: f64,
}

impl Uneven {
    /// Aggregate bytes per second of the uneven batch.
    pub(crate) fn rate(&self) -> f64 {
        self.total as f64 * 1e9 / self.ns
    }

    /// The same for the equal-length batch.
    pub(crate) fn equal_rate(&self) -> f64 {
        self.total as f64 * 1e9 / self.equal_ns
    }
}

/// A Merkle-section timing (`merkle` lines): one level of `items` SHA-256
/// pairs (`case` `pairs`) or one RFC 9162 root of `items` leaves (`root`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Merkle {
    pub(crate) case: String,
    pub(crate) label: String,
    pub(crate) baseline: bool,
    pub(crate) items: usize,
    /// Median nanoseconds per level or per root.
    pub(crate) ns: f64,
    pub(crate) min: f64,
}

/// A collision-detection timing (`dc` lines): `messages` messages of
/// `size` bytes, one at a time (`case` `one`, one message) or as a batch
/// (`many`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Dc {
    pub(crate) case: String,
    pub(crate) label: String,
    pub(crate) baseline: bool,
    pub(crate) messages: usize,
    pub(crate) size: usize,
    /// Median nanoseconds per message (`one`) or per batch (`many`).
    pub(crate) ns: f64,
    pub(crate) min: f64,
}

impl Dc {
    /// Bytes per second.
    pub(crate) fn rate(&self) -> f64 {
        (self.messages * self.size) as f64 * 1e9 / self.ns
    }
}

/// Everything the measuring program said.
#[derive(Debug, Default)]
pub(crate) struct Results {
    pub(crate) cpu_features: String,
    /// What the SHA-NI-masked build changed (`--no-shani`), if it was one.
    pub(crate) masked: Option<String>,
    pub(crate) crates: Vec<CrateLine>,
    pub(crate) peers: Vec<PeerLine>,
    pub(crate) algos: Vec<AlgoName>,
    pub(crate) notes: Vec<Note>,
    pub(crate) singles: Vec<Single>,
    pub(crate) manys: Vec<Many>,
    pub(crate) unevens: Vec<Uneven>,
    pub(crate) merkles: Vec<Merkle>,
    pub(crate) dcs: Vec<Dc>,
}

impl Results {
    /// Take in one output line (already split at tabs); unknown lines are
    /// ignored.
    pub(crate) fn parse_line(&mut self, f: &[&str]) {
        let num = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
        let int = |s: &str| s.parse::<usize>().unwrap_or(0);
        let s = |s: &str| s.to_string();
        match *f {
            ["cpu-features", list] => self.cpu_features = s(list),
            ["masked", "sha-ni", text] => self.masked = Some(s(text)),
            ["crate", name, detected, available, unavailable] => self.crates.push(CrateLine {
                name: s(name),
                detected: s(detected),
                available: s(available),
                unavailable: s(unavailable),
            }),
            ["peer", family, state, text] => {
                self.peers.push(PeerLine { family: s(family), ok: state == "ok", text: s(text) })
            }
            ["algo", id, name, _] => self.algos.push(AlgoName { id: s(id), name: s(name) }),
            ["note", algo, family, text] => self.notes.push(Note { algo: s(algo), family: s(family), text: s(text) }),
            ["single", algo, family, variant, detected, size, ns, min, max, _] => self.singles.push(Single {
                algo: s(algo),
                family: s(family),
                variant: if variant == "-" { String::new() } else { s(variant) },
                detected: detected == "1",
                size: int(size),
                ns: num(ns),
                min: num(min),
                max: num(max),
            }),
            ["many", algo, label, baseline, count, size, ns, min, _, _, ref engine @ ..] => self.manys.push(Many {
                algo: s(algo),
                label: s(label),
                baseline: baseline == "1",
                count: int(count),
                size: int(size),
                engine: engine.first().map_or(String::new(), |e| s(e)),
                ns: num(ns),
                min: num(min),
            }),
            ["uneven", algo, label, count, total, ns, min, equal_ns, equal_min, _, ref engine @ ..] => {
                self.unevens.push(Uneven {
                    algo: s(algo),
                    label: s(label),
                    count: int(count),
                    total: int(total),
                    engine: engine.first().map_or(String::new(), |e| s(e)),
                    ns: num(ns),
                    min: num(min),
                    equal_ns: num(equal_ns),
                    equal_min: num(equal_min),
                })
            }
            ["merkle", case, label, baseline, items, ns, min, _, _] => self.merkles.push(Merkle {
                case: s(case),
                label: s(label),
                baseline: baseline == "1",
                items: int(items),
                ns: num(ns),
                min: num(min),
            }),
            ["dc", case, label, baseline, messages, size, ns, min, _, _] => self.dcs.push(Dc {
                case: s(case),
                label: s(label),
                baseline: baseline == "1",
                messages: int(messages),
                size: int(size),
                ns: num(ns),
                min: num(min),
            }),
            _ => {}
        }
    }
}

impl Results {
    /// Replace every median by the fastest round (`--best`).
    pub(crate) fn use_fastest_round(&mut self) {
        for s in &mut self.singles {
            s.ns = s.min;
        }
        for m in &mut self.manys {
            m.ns = m.min;
        }
        for u in &mut self.unevens {
            u.ns = u.min;
            u.equal_ns = u.equal_min;
        }
        for m in &mut self.merkles {
            m.ns = m.min;
        }
        for d in &mut self.dcs {
            d.ns = d.min;
        }
    }
}

/// The message size as a short label: `16 B`, `1 KiB`, `1 MiB`.
pub(crate) fn size_label(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 10 && bytes.is_multiple_of(1 << 10) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}

/// A rate in bytes per second as `1.95 GB/s` / `850 MB/s` (decimal units,
/// as `openssl speed`).
pub(crate) fn rate_label(rate: f64) -> String {
    if rate >= 1e9 {
        format!("{:.2} GB/s", rate / 1e9)
    } else if rate >= 1e6 {
        format!("{:.0} MB/s", rate / 1e6)
    } else {
        format!("{:.0} kB/s", rate / 1e3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_parse() {
        let mut r = Results::default();
        r.parse_line(&["single", "sha256", "ours", "sha-ni", "1", "1024", "500", "480", "600", "7"]);
        r.parse_line(&["single", "sha256", "openssl", "-", "0", "1024", "1000", "900", "1100", "7"]);
        r.parse_line(&["many", "sha256", "digest_many sha-ni", "0", "64", "64", "6400", "6000", "7000", "7"]);
        r.parse_line(&[
            "many",
            "sha256",
            "digest_many sha-ni",
            "0",
            "64",
            "1024",
            "64000",
            "60000",
            "70000",
            "7",
            "avx512 16 lanes",
        ]);
        r.parse_line(&["garbage"]);
        assert_eq!(r.masked, None);
        r.parse_line(&["masked", "sha-ni", "our SHA-NI backends left out"]);
        assert_eq!(r.masked.as_deref(), Some("our SHA-NI backends left out"));
        assert_eq!(r.singles.len(), 2);
        assert_eq!(r.singles[0].label(), "ours sha-ni");
        assert_eq!(r.singles[1].label(), "openssl");
        assert_eq!(r.singles[1].variant, "");
        assert!((r.singles[0].rate() - 1024.0 * 2e6).abs() < 1.0);
        assert!((r.manys[0].rate() - 64.0 * 64.0 * 1e9 / 6400.0).abs() < 1.0);
        // An older measuring program names no engine.
        assert_eq!((r.manys[0].engine.as_str(), r.manys[1].engine.as_str()), ("", "avx512 16 lanes"));
        let uneven = ["uneven", "md5", "digest_many avx512", "64", "524288", "50000", "45000", "40000", "39000", "9"];
        r.parse_line(&[&uneven[..], &["avx512 2x16 lanes, narrowing"]].concat());
        let u = &r.unevens[0];
        assert_eq!((u.count, u.total, u.engine.as_str()), (64, 524288, "avx512 2x16 lanes, narrowing"));
        assert!((u.rate() / u.equal_rate() - 0.8).abs() < 1e-9);
        r.parse_line(&[
            "merkle",
            "pairs",
            "ours Sha256::hash_pairs (sha-ni)",
            "1",
            "1024",
            "40000",
            "38000",
            "50000",
            "9",
        ]);
        assert_eq!((r.merkles[0].case.as_str(), r.merkles[0].items, r.merkles[0].baseline), ("pairs", 1024, true));
        r.parse_line(&[
            "dc",
            "many",
            "ours Sha1Dc::digest_many (sha-ni)",
            "1",
            "64",
            "8192",
            "200000",
            "190000",
            "0",
            "9",
        ]);
        let d = &r.dcs[0];
        assert_eq!((d.case.as_str(), d.baseline, d.messages, d.size), ("many", true, 64, 8192));
        assert!((d.rate() - 64.0 * 8192.0 * 1e9 / 200000.0).abs() < 1.0);
        r.use_fastest_round();
        assert_eq!((r.unevens[0].ns, r.unevens[0].equal_ns), (45000.0, 39000.0));
        assert_eq!((r.merkles[0].ns, r.dcs[0].ns), (38000.0, 190000.0));
    }

    #[test]
    fn labels() {
        assert_eq!(size_label(16), "16 B");
        assert_eq!(size_label(16384), "16 KiB");
        assert_eq!(size_label(1 << 20), "1 MiB");
        assert_eq!(rate_label(1.954e9), "1.95 GB/s");
        assert_eq!(rate_label(850.2e6), "850 MB/s");
    }
}
