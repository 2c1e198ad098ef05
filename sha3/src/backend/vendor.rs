//! The per-CPU rules of the sha3 backends, beyond their feature flags.

use super::Backend;

/// The best backend for this CPU (the table's `choose` rule): on aarch64
/// the core decides, not only its features (see `arm::choose`); elsewhere
/// the first supported backend of `Backend::ALL`.
#[cold]
pub(super) fn choose() -> Backend {
    #[cfg(target_arch = "aarch64")]
    return arm::choose();
    #[cfg(not(target_arch = "aarch64"))]
    Backend::all().iter().copied().find(|b| b.is_supported()).unwrap_or(Backend::Portable)
}

/// Whether `Backend::Avx512` hashes single messages with the one-state
/// AVX-512 permutation (`x86_avx512_1x`) rather than the scalar BMI one:
/// on Intel CPUs with AVX-512F (the rule and what it rests
/// on are in [`Backend::Avx512`]'s documentation). Decided once per
/// process.
#[cfg_attr(not(all(target_arch = "x86_64", feature = "avx512")), allow(dead_code))]
#[inline]
pub(super) fn avx512_one_state() -> bool {
    static CHOSEN: hash_core::cpu::EngineCache<1> = hash_core::cpu::EngineCache::new();
    CHOSEN.get(0, &[false, true], || {
        Backend::Avx512.is_supported() && hash_core::cpu::vendor() == hash_core::cpu::Vendor::Intel
    })
}

/// The aarch64 choice between the SHA3 extension and the scalar code, made
/// once per process.
///
/// OpenSSL (`ARMV8_HAVE_SHA3_AND_WORTH_USING`, set for Apple cores only)
/// and aws-lc (scalar on Neoverse) run the SHA3-extension Keccak only on
/// Apple cores, their measurements having found the scalar code faster on
/// the Neoverse and Cortex cores even where those have the extension
/// (this crate has no aarch64 hardware to time either; both backends stay
/// forceable). The core is known from macOS
/// (Apple silicon only) or, on Linux and Android, from MIDR_EL1's
/// implementer field (0x61, 'a', for Apple, as under Asahi Linux).
#[cfg(target_arch = "aarch64")]
mod arm {
    use super::super::Backend;

    /// The SHA3 extension on Apple cores, else the scalar code (the portable
    /// one with both aarch64 cargo features off).
    #[cold]
    pub(super) fn choose() -> Backend {
        let sha3 = Backend::ArmSha3.is_supported() && (cfg!(target_os = "macos") || midr().is_some_and(prefers_sha3));
        if sha3 {
            Backend::ArmSha3
        } else if Backend::Aarch64.is_supported() {
            Backend::Aarch64
        } else {
            Backend::Portable
        }
    }

    /// Whether a core with this MIDR_EL1 value runs the SHA3-extension
    /// Keccak faster than the scalar one: Apple's (implementer 0x61).
    pub(super) fn prefers_sha3(midr: u64) -> bool {
        (midr >> 24) & 0xff == 0x61
    }

    use hash_core::arch::aarch64::midr;

    #[cfg(test)]
    mod tests {
        use super::prefers_sha3;

        /// MIDR values of real cores: Apple's pick the SHA3 extension,
        /// Arm's Neoverse and Cortex and qemu's `max` do not.
        #[test]
        fn sha3_extension_only_on_apple_cores() {
            // Apple M1 Icestorm / Firestorm, M2 Avalanche.
            for midr in [0x611f_0220, 0x611f_0230, 0x611f_0320] {
                assert!(prefers_sha3(midr), "{midr:#x}");
            }
            // Neoverse N1, V1, N2, V2, Cortex-A72, qemu -cpu max.
            for midr in [0x413f_d0c1, 0x411f_d400, 0x410f_d490, 0x410f_d4f0, 0x410f_d083, 0x000f_0510] {
                assert!(!prefers_sha3(midr), "{midr:#x}");
            }
        }
    }
}
