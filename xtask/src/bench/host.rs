//! Facts about the machine and the checkout that the report states: the
//! CPU model, the peers' versions from their lock file, the commit and the
//! date.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// `(package, version)` of the registry packages in the peers' lock file
/// that are peers.
pub(super) fn lock_versions(lock: &Path) -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string(lock) else { return Vec::new() };
    let mut out = Vec::new();
    for block in text.split("[[package]]") {
        let field = |key: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(key).map(|v| v.trim().trim_start_matches('=').trim().trim_matches('"')))
        };
        let (Some(name), Some(version)) = (field("name "), field("version ")) else { continue };
        let from_registry = field("source ").is_some_and(|s| s.starts_with("registry+"));
        if from_registry && ["md-5", "sha1", "sha2", "sha3", "shake", "ring", "libloading"].contains(&name) {
            out.push((name.to_string(), version.to_string()));
        }
    }
    out
}

/// `"AMD EPYC 7B13 (2 logical CPUs available)"`: from /proc/cpuinfo's
/// `model name` on x86; on Linux aarch64, whose /proc/cpuinfo has no model
/// name, from the MIDR implementer and part numbers (`"ARM Neoverse-N1"`),
/// with the board's `Model` line where there is one (Raspberry Pi); on
/// macOS from `sysctl machdep.cpu.brand_string` (`"Apple M1"`).
pub(super) fn cpu_model() -> String {
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        cpuinfo
            .lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let model = if let Some(name) = field("model name") {
        if cfg!(target_arch = "aarch64") && field("vendor_id").is_some() {
            // qemu-user shows the host's /proc/cpuinfo.
            Some(format!("aarch64 emulated (qemu-user?) on {name}"))
        } else {
            Some(name)
        }
    } else if let (Some(implementer), Some(part)) = (field("CPU implementer"), field("CPU part")) {
        let name = arm_core_name(&implementer, &part);
        Some(match field("Model") {
            Some(board) => format!("{name} ({board})"),
            None => name,
        })
    } else if cfg!(target_os = "macos") {
        Command::new("sysctl")
            .args(["-n", "machdep.cpu.brand_string"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    } else {
        field("Model").or_else(|| field("Hardware"))
    };
    format!(
        "{} ({cpus} logical CPUs available)",
        model.unwrap_or_else(|| format!("unknown {} CPU", std::env::consts::ARCH))
    )
}

/// The core named by a MIDR implementer and part number, as Linux prints
/// them in /proc/cpuinfo (`0x41`, `0xd0c`): the common server, desktop and
/// board cores, else the raw numbers.
fn arm_core_name(implementer: &str, part: &str) -> String {
    let parse = |s: &str| u32::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    let name = match (parse(implementer), parse(part)) {
        (Some(0x41), Some(p)) => match p {
            0xd03 => Some("ARM Cortex-A53"),
            0xd04 => Some("ARM Cortex-A35"),
            0xd05 => Some("ARM Cortex-A55"),
            0xd07 => Some("ARM Cortex-A57"),
            0xd08 => Some("ARM Cortex-A72"),
            0xd09 => Some("ARM Cortex-A73"),
            0xd0a => Some("ARM Cortex-A75"),
            0xd0b => Some("ARM Cortex-A76"),
            0xd0c => Some("ARM Neoverse-N1"),
            0xd0d => Some("ARM Cortex-A77"),
            0xd40 => Some("ARM Neoverse-V1"),
            0xd41 => Some("ARM Cortex-A78"),
            0xd44 => Some("ARM Cortex-X1"),
            0xd46 => Some("ARM Cortex-A510"),
            0xd47 => Some("ARM Cortex-A710"),
            0xd48 => Some("ARM Cortex-X2"),
            0xd49 => Some("ARM Neoverse-N2"),
            0xd4f => Some("ARM Neoverse-V2"),
            0xd80 => Some("ARM Cortex-A520"),
            0xd81 => Some("ARM Cortex-A720"),
            0xd82 => Some("ARM Cortex-X4"),
            0xd84 => Some("ARM Neoverse-V3"),
            0xd8e => Some("ARM Neoverse-N3"),
            _ => None,
        },
        (Some(0x61), Some(p)) => match p {
            0x022 | 0x023 => Some("Apple M1"),
            0x024 | 0x025 | 0x028 | 0x029 => Some("Apple M1 Pro/Max"),
            0x032 | 0x033 => Some("Apple M2"),
            _ => Some("Apple"),
        },
        (Some(0xc0), Some(0xac3)) => Some("Ampere AmpereOne"),
        (Some(0x48), Some(0xd01)) => Some("HiSilicon Kunpeng 920"),
        (Some(0x46), Some(0x001)) => Some("Fujitsu A64FX"),
        _ => None,
    };
    match name {
        Some(n) => n.to_string(),
        None => format!("aarch64 CPU implementer {implementer} part {part}"),
    }
}

/// The short commit id, marked when the tree has changes.
pub(super) fn git_commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(id) => match git(&["status", "--porcelain", "--untracked-files=no"]) {
            Some(s) if !s.is_empty() => format!("{id} with uncommitted changes"),
            _ => id,
        },
        None => "unknown (not a git checkout)".to_string(),
    }
}

/// `YYYY-MM-DD HH:MM UTC`, from the system clock (civil-from-days, as in
/// Howard Hinnant's date algorithms).
pub(super) fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let mut s = String::new();
    let _ = write!(s, "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC", rem / 3600, rem % 3600 / 60);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arm_cores_are_named() {
        assert_eq!(arm_core_name("0x41", "0xd0c"), "ARM Neoverse-N1");
        assert_eq!(arm_core_name("0x41", "0xd40"), "ARM Neoverse-V1");
        assert_eq!(arm_core_name("0x61", "0x023"), "Apple M1");
        assert_eq!(arm_core_name("0x41", "0xfff"), "aarch64 CPU implementer 0x41 part 0xfff");
        assert_eq!(arm_core_name("junk", "0xd0c"), "aarch64 CPU implementer junk part 0xd0c");
        assert!(cpu_model().ends_with("logical CPUs available)"));
    }

    #[test]
    fn lock_file_versions() {
        let dir = std::env::temp_dir().join(format!("xtask-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let lock = dir.join("Cargo.lock");
        std::fs::write(
            &lock,
            "[[package]]\nname = \"sha2\"\nversion = \"0.10.9\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\n\n\
             [[package]]\nname = \"sha1\"\nversion = \"0.1.0\"\n\n\
             [[package]]\nname = \"serde\"\nversion = \"1.0.0\"\nsource = \"registry+x\"\n",
        )
        .unwrap();
        assert_eq!(lock_versions(&lock), vec![("sha2".to_string(), "0.10.9".to_string())]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates() {
        let d = utc_now();
        assert_eq!(d.len(), "2026-11-30 05:00 UTC".len(), "{d}");
        assert!(d.starts_with("20"), "{d}");
    }
}
