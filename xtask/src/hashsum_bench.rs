//! `cargo xtask hashsum-bench`: `hashsum` against GNU coreutils on the
//! workloads of issue 12, ratios measured in one run.
//!
//! * 20,000 files of 0-16 KiB (sizes spread evenly, fixed seed): `hashsum
//!   -a sha256` (and md5) against GNU `sha256sum` over the same file list,
//!   and against `xargs -P N -n M sha256sum` with N = the number of CPUs and
//!   M = files / N (one GNU process per CPU, each with an equal share);
//! * one 1 GiB file: `hashsum -a sha256/md5/sha512` against GNU
//!   `sha256sum`/`md5sum`/`sha512sum`.
//!
//! The files live under `target/hashsum-bench/` (made once, kept) and are
//! read once before timing, so every run reads from the page cache. The
//! commands of one workload take turns within each round, and the median
//! round is reported, so a burst of load on the machine slows all alike.
//! Output goes to /dev/null.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: cargo xtask hashsum-bench [--files N] [--big-mib M] [--rounds R]

Times hashsum against GNU sha256sum, md5sum and sha512sum (and xargs -P N
sha256sum) on N small files of 0-16 KiB (default 20000) and one file of M MiB
(default 1024), median of R rounds (default 3), commands interleaved. Files are
made once under target/hashsum-bench/ (small-N/ and big-MMiB) and kept.";

struct Options {
    files: usize,
    big_mib: usize,
    rounds: usize,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut o = Options { files: 20_000, big_mib: 1024, rounds: 3 };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| -> Result<usize, String> {
            let v = it.next().ok_or(format!("{name} needs a value"))?;
            v.parse::<usize>().ok().filter(|&n| n > 0).ok_or(format!("{name}: `{v}` is not a positive number"))
        };
        match arg.as_str() {
            "--files" => o.files = value("--files")?,
            "--big-mib" => o.big_mib = value("--big-mib")?,
            "--rounds" => o.rounds = value("--rounds")?,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(o)
}

/// One command of a comparison.
struct Contender {
    label: String,
    cmd: Vec<String>,
    /// The file list goes to standard input (NUL-separated), for xargs.
    list_on_stdin: bool,
}

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let o = match parse_args(args) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return Ok(());
        }
        Err(e) => return Err(format!("{e}\n\n{USAGE}")),
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().ok_or("xtask has no parent directory")?.to_path_buf();
    let dir = root.join("target/hashsum-bench");
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    for tool in ["sha256sum", "md5sum", "sha512sum", "xargs"] {
        Command::new(tool)
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("`{tool}` is needed (GNU coreutils, findutils): {e}"))?;
    }

    eprintln!("[1/4] building hashsum (release profile)");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(&cargo)
        .args(["build", "--release", "-q", "-p", "hashsum"])
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build --release -p hashsum failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let hashsum = target.join("release/hashsum").display().to_string();

    eprintln!("[2/4] making the files under {} (once; kept for later runs)", dir.display());
    let small_dir = dir.join(format!("small-{}", o.files));
    let names = small_files(&small_dir, o.files)?;
    let big = big_file(&dir, o.big_mib)?;
    let list: Vec<u8> = names.iter().flat_map(|n| n.bytes().chain([0])).collect();
    let total_small: u64 = names.iter().map(|n| fs::metadata(small_dir.join(n)).map_or(0, |m| m.len())).sum();

    let per_proc = o.files.div_ceil(cpus).to_string();
    let cpus_s = cpus.to_string();
    let small = |alg: &str, gnu: &str| {
        let mut ours = vec![hashsum.clone(), "-a".into(), alg.into()];
        ours.extend(names.iter().cloned());
        let mut theirs = vec![gnu.to_string()];
        theirs.extend(names.iter().cloned());
        vec![
            Contender { label: format!("hashsum -a {alg}"), cmd: ours, list_on_stdin: false },
            Contender { label: gnu.to_string(), cmd: theirs, list_on_stdin: false },
            Contender {
                label: format!("xargs -P {cpus} -n {per_proc} {gnu}"),
                cmd: ["xargs", "-0", "-P", &cpus_s, "-n", &per_proc, gnu].map(String::from).to_vec(),
                list_on_stdin: true,
            },
        ]
    };
    let big_name = big.display().to_string();
    let large = |alg: &str, gnu: &str| {
        vec![
            Contender {
                label: format!("hashsum -a {alg}"),
                cmd: vec![hashsum.clone(), "-a".into(), alg.into(), big_name.clone()],
                list_on_stdin: false,
            },
            Contender { label: gnu.to_string(), cmd: vec![gnu.into(), big_name.clone()], list_on_stdin: false },
        ]
    };
    let workloads = [
        (format!("{} files of 0-16 KiB ({:.0} MiB), SHA-256", o.files, mib(total_small)), small("sha256", "sha256sum")),
        (format!("{} files of 0-16 KiB ({:.0} MiB), MD5", o.files, mib(total_small)), small("md5", "md5sum")),
        (format!("one {} MiB file, SHA-256", o.big_mib), large("sha256", "sha256sum")),
        (format!("one {} MiB file, MD5", o.big_mib), large("md5", "md5sum")),
        (format!("one {} MiB file, SHA-512", o.big_mib), large("sha512", "sha512sum")),
    ];

    eprintln!("[3/4] measuring: {} rounds, the commands of each workload interleaved, median reported", o.rounds);
    let started = Instant::now();
    let mut results = Vec::new();
    for (w, (title, contenders)) in workloads.iter().enumerate() {
        eprintln!("      [{}/{}] {title} ({:.0} s so far)", w + 1, workloads.len(), started.elapsed().as_secs_f64());
        // Warm-up: page cache, and a check that each command works.
        for c in contenders {
            time(c, &small_dir, &list)?;
        }
        let mut times = vec![Vec::new(); contenders.len()];
        for _ in 0..o.rounds {
            for (c, t) in contenders.iter().zip(times.iter_mut()) {
                t.push(time(c, &small_dir, &list)?);
            }
        }
        // Median wall time; CPU time summed over the rounds (the ticks are
        // coarse), shown per round.
        let medians: Vec<(Duration, Duration)> = times
            .into_iter()
            .map(|t: Vec<(Duration, Duration)>| {
                let mut wall: Vec<Duration> = t.iter().map(|&(w, _)| w).collect();
                wall.sort();
                let cpu: Duration = t.iter().map(|&(_, c)| c).sum();
                (wall[wall.len() / 2], cpu / t.len() as u32)
            })
            .collect();
        results.push((title, contenders, medians));
    }

    eprintln!("[4/4] results ({:.0} s)", started.elapsed().as_secs_f64());
    let cpu = fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let load = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let gnu_version = Command::new("sha256sum")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).lines().next().map(str::to_string))
        .unwrap_or_default();
    println!("hashsum against {gnu_version} on {cpu}, {cpus} CPUs (load average {})", load.trim());
    println!(
        "wall: median of {} rounds; ratio = the other's wall time / hashsum's (above 1.00x hashsum is faster);\n\
         cpu: user + system time of the command and its children, mean per round (less sensitive to load)\n",
        o.rounds
    );
    for (title, contenders, medians) in &results {
        println!("{title}");
        let (ours, ours_cpu) = (medians[0].0.as_secs_f64(), medians[0].1.as_secs_f64());
        for (i, (c, &(wall, cpu))) in contenders.iter().zip(medians).enumerate() {
            let (wall, cpu) = (wall.as_secs_f64(), cpu.as_secs_f64());
            let ratio = if i == 0 {
                String::new()
            } else {
                format!("  hashsum is {:.2}x (cpu {:.2}x)", wall / ours, cpu / ours_cpu.max(0.005))
            };
            println!("  {:<36} wall {wall:>7.3} s  cpu {cpu:>7.2} s{ratio}", c.label);
        }
    }
    Ok(())
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

/// CPU time (user + system) of this process's waited-for descendants, from
/// `/proc/self/stat` (`cutime` + `cstime`, in ticks of 1/100 s, Linux's
/// `USER_HZ`); zero where there is no `/proc`.
fn children_cpu() -> Duration {
    let stat = fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = after_name.split_whitespace().map(|f| f.parse().unwrap_or(0)).collect();
    let ticks = fields.get(13).copied().unwrap_or(0) + fields.get(14).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// Run one command to completion, output to /dev/null; its wall time and
/// the CPU time it (and its children) used.
fn time(c: &Contender, dir: &Path, list: &[u8]) -> Result<(Duration, Duration), String> {
    let cpu_before = children_cpu();
    let mut cmd = Command::new(&c.cmd[0]);
    cmd.args(&c.cmd[1..]).current_dir(dir).stdout(Stdio::null());
    cmd.stdin(if c.list_on_stdin { Stdio::piped() } else { Stdio::null() });
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("cannot run {}: {e}", c.label))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(list).map_err(|e| format!("{}: {e}", c.label))?;
    }
    let status = child.wait().map_err(|e| format!("{}: {e}", c.label))?;
    let elapsed = start.elapsed();
    if !status.success() {
        return Err(format!("`{}` failed ({status})", c.label));
    }
    Ok((elapsed, children_cpu().saturating_sub(cpu_before)))
}

/// Deterministic bytes (xorshift64), fast enough for a gigabyte.
fn fill(buf: &mut [u8], seed: &mut u64) {
    for chunk in buf.chunks_mut(8) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        chunk.copy_from_slice(&seed.to_le_bytes()[..chunk.len()]);
    }
}

/// `count` files of 0 to 16 KiB, sizes spread evenly; their names.
fn small_files(dir: &Path, count: usize) -> Result<Vec<String>, String> {
    let names: Vec<String> = (0..count).map(|i| format!("f{i:05}")).collect();
    let stamp = dir.join(format!(".complete-{count}"));
    if stamp.exists() {
        return Ok(names);
    }
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut seed = 0x243f_6a88_85a3_08d3u64;
    let mut buf = vec![0u8; 16 << 10];
    for (i, name) in names.iter().enumerate() {
        fill(&mut buf, &mut seed);
        let len = (seed % ((16 << 10) + 1)) as usize;
        fs::write(dir.join(name), &buf[..len]).map_err(|e| format!("{name}: {e}"))?;
        if (i + 1) % 5000 == 0 {
            eprintln!("      {} of {count} small files", i + 1);
        }
    }
    fs::write(&stamp, b"").map_err(|e| format!("{}: {e}", stamp.display()))?;
    Ok(names)
}

/// One file of `mib` MiB.
fn big_file(dir: &Path, mib: usize) -> Result<PathBuf, String> {
    let path = dir.join(format!("big-{mib}MiB"));
    if fs::metadata(&path).is_ok_and(|m| m.len() == (mib as u64) << 20) {
        return Ok(path);
    }
    eprintln!("      writing {}", path.display());
    let file = fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BufWriter::new(file);
    let mut seed = 0x1319_8a2e_0370_7344u64;
    let mut buf = vec![0u8; 1 << 20];
    for _ in 0..mib {
        fill(&mut buf, &mut seed);
        out.write_all(&buf).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    out.flush().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}
