//! `cargo xtask bench`'s command line: the options, their defaults
//! (`--quick` or not) and the algorithm ids the measuring program knows.

/// Algorithm ids the measuring program knows (`bench::ALGOS`); kept here so
/// that a typo is reported before the build.
const ALGO_IDS: &[&str] = &[
    "md5",
    "sha1",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "sha512-224",
    "sha512-256",
    "sha3-224",
    "sha3-256",
    "sha3-384",
    "sha3-512",
    "keccak256",
    "shake128",
    "shake256",
    "kt128",
    "kt256",
    "turboshake128",
    "turboshake256",
];

/// What the user asked for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Options {
    pub(crate) quick: bool,
    pub(crate) algos: Option<Vec<String>>,
    pub(crate) sizes: Vec<usize>,
    pub(crate) backends: Option<Vec<String>>,
    pub(crate) rounds: usize,
    pub(crate) round_ms: u64,
    pub(crate) batches: bool,
    /// Report the fastest round rather than the median.
    pub(crate) best: bool,
    /// Time as on a CPU without SHA-NI (`--no-shani`).
    pub(crate) no_shani: bool,
    /// The Merkle section (`--algo merkle`): SHA-256 pairs and an RFC 9162
    /// root, beside hashtree, tape-sha256 and rs_merkle.
    pub(crate) merkle: bool,
    /// The SHA-1 collision detection section (`--algo sha1dc`): our
    /// `Sha1Dc` beside `sha1dc`, `sha1-checked`, `sha1collisiondetection`
    /// and our plain `Sha1`.
    pub(crate) dc: bool,
}

/// Message sizes of the collision detection section (one message at a
/// time; the batch is 64 x 8 KiB).
pub(crate) const DC_SIZES: &str = "64,1024,8192,65536";

/// Pairs in the Merkle section's level (1024 pairs of 32-byte nodes).
pub(crate) const MERKLE_PAIRS: usize = 1024;

impl Options {
    /// Leaves of the Merkle section's RFC 9162 tree: 2^20 of 64 bytes, or
    /// 2^16 with `--quick`.
    pub(crate) fn merkle_leaves(&self) -> usize {
        if self.quick { 1 << 16 } else { 1 << 20 }
    }
}

impl Options {
    /// `"median"` or `"fastest"`: which round the figures are.
    pub(crate) fn stat(&self) -> &'static str {
        if self.best { "fastest" } else { "median" }
    }
}

/// Parse a size: `16`, `1K`, `1KiB`, `8k`, `1M`, `1MiB`.
fn parse_size(s: &str) -> Option<usize> {
    let lower = s.trim().to_ascii_lowercase();
    let (digits, scale) = if let Some(d) = lower.strip_suffix("kib").or_else(|| lower.strip_suffix('k')) {
        (d, 1 << 10)
    } else if let Some(d) = lower.strip_suffix("mib").or_else(|| lower.strip_suffix('m')) {
        (d, 1 << 20)
    } else {
        (lower.strip_suffix('b').unwrap_or(&lower), 1)
    };
    let n: usize = digits.trim().parse().ok()?;
    n.checked_mul(scale).filter(|&n| n > 0 && n <= 1 << 30)
}

fn split(list: &str) -> Vec<String> {
    list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

pub(crate) fn parse_args(args: &[String]) -> Result<Options, String> {
    let quick = args.iter().any(|a| a == "--quick");
    let mut o = Options {
        quick,
        algos: None,
        sizes: if quick { vec![16, 64, 1024, 8192] } else { vec![16, 64, 256, 1024, 8192, 16384, 1 << 20] },
        backends: None,
        rounds: if quick { 9 } else { 21 },
        round_ms: if quick { 10 } else { 40 },
        batches: true,
        best: false,
        no_shani: false,
        merkle: false,
        dc: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        // `--opt=value` or `--opt value`.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it.next().cloned().ok_or_else(|| format!("`{name}` needs a value")),
            }
        };
        match name {
            "--quick" => {}
            "--no-batches" => o.batches = false,
            "--best" => o.best = true,
            "--no-shani" => {
                o.no_shani = true;
                o.batches = false;
            }
            "--algo" | "--algos" => {
                let mut list = split(&value()?);
                if list.is_empty() {
                    return Err("`--algo` needs at least one algorithm".into());
                }
                // `merkle` and `sha1dc` are sections of their own, not
                // algorithms.
                let before = list.len();
                list.retain(|a| a != "merkle");
                o.merkle = list.len() < before;
                let before = list.len();
                list.retain(|a| a != "sha1dc");
                o.dc = list.len() < before;
                if list.is_empty() {
                    o.algos = Some(Vec::new());
                } else if list.iter().any(|a| a == "all") {
                    o.algos = Some(ALGO_IDS.iter().map(|s| s.to_string()).collect());
                } else {
                    for a in &list {
                        if !ALGO_IDS.contains(&a.as_str()) {
                            return Err(format!("unknown algorithm `{a}`; known: {}", ALGO_IDS.join(", ")));
                        }
                    }
                    o.algos = Some(list);
                }
            }
            "--size" | "--sizes" => {
                let v = value()?;
                let list = split(&v);
                if list.is_empty() {
                    return Err("`--size` needs at least one size".into());
                }
                o.sizes = list
                    .iter()
                    .map(|s| {
                        parse_size(s).ok_or_else(|| {
                            format!("bad size `{s}`: give bytes (16, 1024), or 1K/1KiB, 1M/1MiB, up to 1G")
                        })
                    })
                    .collect::<Result<_, _>>()?;
                o.sizes.sort_unstable();
                o.sizes.dedup();
            }
            "--backend" | "--backends" => {
                let list = split(&value()?);
                if list.is_empty() {
                    return Err("`--backend` needs at least one backend name".into());
                }
                o.backends = Some(list);
            }
            "--rounds" => {
                let v = value()?;
                o.rounds = v.parse().ok().filter(|&n| (1..=1000).contains(&n)).ok_or(format!("bad --rounds `{v}`"))?;
            }
            "--round-ms" => {
                let v = value()?;
                o.round_ms =
                    v.parse().ok().filter(|&n| (1..=10_000).contains(&n)).ok_or(format!("bad --round-ms `{v}`"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("16"), Some(16));
        assert_eq!(parse_size("16B"), Some(16));
        assert_eq!(parse_size("1K"), Some(1024));
        assert_eq!(parse_size("8KiB"), Some(8192));
        assert_eq!(parse_size("1m"), Some(1 << 20));
        assert_eq!(parse_size("0"), None);
        assert_eq!(parse_size("-3"), None);
        assert_eq!(parse_size("12Q"), None);
        assert_eq!(parse_size("2G"), None);
    }

    #[test]
    fn options_parse() {
        let o = parse_args(&args("--quick --algo sha256,md5 --size 16,1K --backend portable")).unwrap();
        assert!(o.quick);
        assert_eq!(o.algos, Some(vec!["sha256".to_string(), "md5".to_string()]));
        assert_eq!(o.sizes, vec![16, 1024]);
        assert_eq!(o.backends, Some(vec!["portable".to_string()]));
        assert_eq!(o.rounds, 9);
        let o = parse_args(&args("--size=64 --rounds=3 --no-batches")).unwrap();
        assert_eq!((o.sizes, o.rounds, o.batches, o.quick), (vec![64], 3, false, false));
        assert_eq!(parse_args(&args("--algo all")).unwrap().algos.unwrap().len(), ALGO_IDS.len());
    }

    #[test]
    fn bad_options_are_errors() {
        for bad in ["--algo sha-256", "--size 0", "--size", "--rounds x", "--frobnicate", "--backend ,", "--round-ms 0"]
        {
            let e = parse_args(&args(bad)).unwrap_err();
            assert!(!e.is_empty(), "{bad}");
        }
        assert!(parse_args(&args("--algo sha-256")).unwrap_err().contains("unknown algorithm `sha-256`"));
        // `merkle` alone: that section only; beside algorithms: both.
        let o = parse_args(&args("--algo merkle")).unwrap();
        assert_eq!((o.merkle, o.merkle_leaves(), o.algos), (true, 1 << 20, Some(vec![])));
        let o = parse_args(&args("--quick --algo sha256,merkle")).unwrap();
        assert_eq!((o.merkle, o.merkle_leaves(), o.algos), (true, 1 << 16, Some(vec!["sha256".to_string()])));
        assert!(!parse_args(&args("--algo all")).unwrap().merkle);
        // `sha1dc` likewise.
        let o = parse_args(&args("--algo sha1dc")).unwrap();
        assert_eq!((o.dc, o.merkle, o.algos), (true, false, Some(vec![])));
        let o = parse_args(&args("--algo sha1,sha1dc,merkle")).unwrap();
        assert_eq!((o.dc, o.merkle, o.algos), (true, true, Some(vec!["sha1".to_string()])));
        assert!(!parse_args(&args("--algo all")).unwrap().dc);
        assert_eq!(parse_args(&args("--help")).unwrap_err(), "");
    }
}
