//! Backend selection and dispatch: the one place that picks a Keccak-f
//! implementation for a [`Backend`].

use hash_core::{BackendKind, DetectCache, FixedAlgorithm, Xof, XofAlgorithm};

#[cfg(any(test, all(target_arch = "aarch64", feature = "aarch64")))]
#[cfg_attr(not(all(target_arch = "aarch64", feature = "aarch64")), allow(dead_code))]
mod aarch64_keccak;
#[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
mod aarch64_sha3;
mod portable;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
mod x86_avx2;
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
mod x86_avx512;
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
mod x86_avx512_1x;
#[cfg(all(target_arch = "x86_64", feature = "x86"))]
mod x86_keccak;

#[cfg(all(target_arch = "x86_64", feature = "x86"))]
cpufeatures::new!(cpuid_bmi, "bmi1", "bmi2");
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
cpufeatures::new!(cpuid_avx2, "avx2", "bmi1", "bmi2");
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
cpufeatures::new!(cpuid_avx512, "avx512f", "avx2", "bmi1", "bmi2");

#[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
cpufeatures::new!(cpuid_sha3, "sha3");

/// Fewest busy lanes of the two-lane SHA3-extension engine worth running it
/// for: with one busy lane it costs the same as the single-message code.
#[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
const ARM_SHA3_MIN_ACTIVE: usize = 2;

/// Fewest busy lanes of the four-lane AVX2 engine for which it beats
/// hashing the remaining messages one by one with the scalar permutation.
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
const AVX2_MIN_ACTIVE: usize = 2;

/// Fewest busy lanes of the eight-lane AVX-512 engine for which it beats
/// hashing the remaining messages one by one with the single-message
/// permutation: three. On a Sapphire Rapids class Xeon the engine with one,
/// two and three busy lanes hashed 8 KiB messages at 0.61x, 1.22x and 1.79x
/// the scalar code one by one; there single messages now run the one-state
/// AVX-512 permutation, about 1.2x the scalar code, which makes two busy
/// lanes a tie (measured 0.95-1.00x at 1 KiB and 8 KiB) and three a win
/// (1.42-1.43x). On AMD (scalar single messages, Zen 4 splitting each
/// 512-bit operation into two passes, not timed here) three as well.
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
const AVX512_MIN_ACTIVE: usize = 3;

/// A Keccak-f\[1600\] backend, shared by every SHA-3, SHAKE and Keccak-256
/// type of this crate.
///
/// [`Backend::detect`] picks the best one for this CPU; every hasher's
/// `with_backend` forces one (it panics, naming the missing CPU features, if
/// this CPU lacks them; `try_with_backend` returns the error instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// One message (every SHA-3, SHAKE, Keccak-256, SP 800-185 and
    /// TurboSHAKE type, and KangarooTwelve's final node): on Intel CPUs, a
    /// one-state AVX-512 permutation (the 25 lanes in five 512-bit
    /// registers whose layout changes from round to round in a cycle of
    /// six, so that π moves nothing and χ needs no lane permutations in
    /// four rounds of six; about 13 `vpermq` per round);
    /// elsewhere the same scalar permutation as [`Backend::X86`]. Measured
    /// on an Intel Xeon (Sapphire Rapids class, 2 shared cores, under load;
    /// fastest of 63 interleaved rounds): 1.17-1.19x the scalar code for
    /// TurboSHAKE128 and SHAKE128 and 1.21-1.24x for SHA3-256 from 1 KiB up
    /// (1.05-1.18x at 16 and 64 bytes). AMD CPUs keep the scalar code:
    /// Zen 4 and Zen 5 have not been timed, and Zen 4 runs each 512-bit
    /// permutation as two 256-bit halves, so the win there is an open
    /// question (the rule is `avx512_one_state` in `backend/mod.rs`).
    /// Batches (`digest_many` / `digest_xof_many`), KangarooTwelve leaves
    /// and ParallelHash blocks: eight Keccak states at once, one per 64-bit
    /// element of the AVX-512 registers, with `vprolq` rotations and
    /// `vpternlogq` for θ's parities and χ; once fewer than three are left
    /// they go one by one through the single-message permutation. Needs AVX-512F,
    /// AVX2, BMI1 and BMI2 and the `avx512` cargo feature (on by default).
    /// [`Backend::detect`] picks it on every CPU with AVX-512F: there the
    /// eight-lane engine does twice the work of the AVX2 one per
    /// instruction, with fewer instructions per round (Intel since Skylake-SP,
    /// AMD since Zen 4, where 512-bit operations take two 256-bit passes but
    /// the rotates and ternary logic still save a third of the work).
    Avx512,
    /// One message: the same scalar permutation as [`Backend::X86`].
    /// `digest_many` / `digest_xof_many` batches: four messages at once,
    /// one Keccak state per 64-bit element of the AVX2 registers; once
    /// fewer than two messages are left, the rest go one by one through the
    /// scalar permutation. KangarooTwelve leaves and ParallelHash blocks
    /// use the same four-lane engine. Needs AVX2, BMI1 and BMI2 and the `avx2` cargo
    /// feature (on by default).
    Avx2,
    /// Scalar x86-64 Keccak-f compiled with BMI1 (`andn` for χ) and BMI2
    /// (`rorx` for ρ), for one message and for each message of a
    /// `digest_many` batch in turn. The fastest single-message backend on
    /// Zen 3 and Haswell. Needs the `x86` cargo feature (on by
    /// default).
    X86,
    /// The ARMv8.2 SHA3 extension (`EOR3`, `RAX1`, `XAR`, `BCAX`): one
    /// Keccak round in 66 vector instructions plus the round constant's
    /// load, the state held in registers across the rounds and the blocks
    /// of a call (1632 instructions per 24-round permutation, 1663 per
    /// SHA3-256 block, against OpenSSL's 1660 and 1724; 840 per 12-round
    /// TurboSHAKE128 block; counted in the disassembly, not timed).
    /// Single messages run in the low halves of the NEON registers;
    /// `digest_many` / `digest_xof_many` batches run two messages at once,
    /// one per half, down to the last message. Needs aarch64 with the `sha3` feature (SHA3 and SHA512:
    /// Apple M1 and later, Neoverse V1/V2/N2, Cortex-A710 and later) and
    /// the `arm-sha3` cargo feature (on by default).
    /// [`Backend::detect`] picks it only on Apple cores (macOS, or Linux
    /// with MIDR implementer Apple), as OpenSSL does; on the Neoverse and
    /// Cortex cores the scalar code is preferred, as in OpenSSL and
    /// aws-lc (not yet timed on hardware here).
    ArmSha3,
    /// Scalar aarch64 Keccak-f with lazy rotations: every ρ and θ rotation
    /// is the free rotated operand of an `EOR` or `BIC` (101 instructions
    /// per round, χ's and-not one `BIC`), all rounds written out. One
    /// message at a time, also in `digest_many`. Runs on every aarch64 CPU
    /// and is [`Backend::detect`]'s choice on all but Apple cores. Needs the
    /// `aarch64` cargo feature (on by default).
    Aarch64,
    /// Safe Rust (rounds written out with constant lane indices, using the
    /// lane-complementing transform); runs everywhere. One message at a
    /// time, also in `digest_many`.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] =
        &[Backend::Avx512, Backend::Avx2, Backend::X86, Backend::ArmSha3, Backend::Aarch64, Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::Avx512 => "avx512",
            Backend::Avx2 => "avx2",
            Backend::X86 => "x86",
            Backend::ArmSha3 => "arm-sha3",
            Backend::Aarch64 => "aarch64",
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::Avx512 => "x86-64 with avx512f, avx2, bmi1, bmi2 and the `avx512` cargo feature",
            Backend::Avx2 => "x86-64 with avx2, bmi1, bmi2 and the `avx2` cargo feature",
            Backend::X86 => "x86-64 with bmi1, bmi2 and the `x86` cargo feature",
            Backend::ArmSha3 => "aarch64 with the sha3 extension (sha3 and sha512) and the `arm-sha3` cargo feature",
            Backend::Aarch64 => "aarch64 and the `aarch64` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            #[cfg(all(target_arch = "x86_64", feature = "x86"))]
            Backend::X86 => cpuid_bmi::get(),
            #[cfg(not(all(target_arch = "x86_64", feature = "x86")))]
            Backend::X86 => false,
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            Backend::Avx2 => cpuid_avx2::get(),
            #[cfg(not(all(target_arch = "x86_64", feature = "avx2")))]
            Backend::Avx2 => false,
            #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
            Backend::Avx512 => cpuid_avx512::get(),
            #[cfg(not(all(target_arch = "x86_64", feature = "avx512")))]
            Backend::Avx512 => false,
            #[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
            Backend::ArmSha3 => cpuid_sha3::get(),
            #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha3")))]
            Backend::ArmSha3 => false,
            #[cfg(all(target_arch = "aarch64", feature = "aarch64"))]
            Backend::Aarch64 => true,
            #[cfg(not(all(target_arch = "aarch64", feature = "aarch64")))]
            Backend::Aarch64 => false,
            Backend::Portable => true,
        }
    }

    /// The lane engine of `digest_many` / `digest_xof_many` for a
    /// batch of `messages` (the single-message code below its busy-lane
    /// threshold).
    fn batch_engine(self, messages: usize) -> &'static str {
        // Unused in builds without lane engines.
        let _ = messages;
        match self {
            #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
            Backend::Avx512 if self.is_supported() && messages >= AVX512_MIN_ACTIVE => "avx512 8 lanes",
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            Backend::Avx2 if self.is_supported() && messages >= AVX2_MIN_ACTIVE => "avx2 4 lanes",
            #[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
            Backend::ArmSha3 if self.is_supported() && messages >= ARM_SHA3_MIN_ACTIVE => "arm-sha3 2 lanes",
            _ => "one by one",
        }
    }

    /// On aarch64 the best backend depends on the core, not only on its
    /// features (see `arm::choose`).
    #[inline]
    fn detect() -> Self {
        #[cfg(target_arch = "aarch64")]
        return DETECTED.get_or(arm::choose);
        #[cfg(not(target_arch = "aarch64"))]
        DETECTED.get()
    }
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
    use super::Backend;

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

    /// MIDR_EL1 of the core this thread runs on. Linux and Android trap
    /// EL0's `mrs` of the ID registers and emulate it where the kernel
    /// says so with `HWCAP_CPUID` (Linux 4.11 and later; qemu-user too).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn midr() -> Option<u64> {
        const AT_HWCAP: core::ffi::c_ulong = 16;
        const HWCAP_CPUID: core::ffi::c_ulong = 1 << 11;
        unsafe extern "C" {
            // glibc, musl and bionic all provide it; cpufeatures calls it
            // too.
            fn getauxval(kind: core::ffi::c_ulong) -> core::ffi::c_ulong;
        }
        // SAFETY: getauxval only reads the process's auxiliary vector and
        // is thread-safe.
        if unsafe { getauxval(AT_HWCAP) } & HWCAP_CPUID == 0 {
            return None;
        }
        let midr: u64;
        // SAFETY: HWCAP_CPUID, checked just above, says the kernel emulates
        // `mrs` of MIDR_EL1 at EL0; it touches no memory or flags.
        unsafe { core::arch::asm!("mrs {}, MIDR_EL1", out(reg) midr, options(nomem, nostack, preserves_flags)) };
        Some(midr)
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn midr() -> Option<u64> {
        None
    }

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

hash_core::backend_api!(Backend);

/// Whether `Backend::Avx512` hashes single messages with the one-state
/// AVX-512 permutation (`x86_avx512_1x`) rather than the scalar BMI one:
/// on Intel CPUs with AVX-512F (the rule and what it rests
/// on are in [`Backend::Avx512`]'s documentation). Decided once per
/// process.
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
#[inline]
fn avx512_one_state() -> bool {
    static CHOSEN: hash_core::cpu::EngineCache<1> = hash_core::cpu::EngineCache::new();
    CHOSEN.get(0, &[false, true], || cpuid_avx512::get() && hash_core::cpu::vendor() == hash_core::cpu::Vendor::Intel)
}

/// Refuse a backend this CPU or build cannot run. The dispatch functions are
/// reachable from safe code (`<algorithm::Sha3_256 as Algorithm>::compress`)
/// with any backend value, so they check before running target-feature code.
#[cold]
#[track_caller]
fn unsupported(backend: Backend) -> ! {
    hash_core::unsupported("sha3", backend)
}

/// Absorb `blocks` (each `RATE` bytes) into `state` with `backend`
/// (FIPS 202 §4 Algorithm 8 step 6), each block followed by
/// Keccak-p\[1600, `ROUNDS`\] (24 for SHA-3, SHAKE, cSHAKE; 12 for
/// TurboSHAKE and KangarooTwelve).
#[inline]
pub(crate) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(
    backend: Backend,
    state: &mut [u64; 25],
    blocks: &[B],
) {
    match backend {
        Backend::Portable => portable::absorb::<RATE, ROUNDS, B>(state, blocks),
        #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
        Backend::Avx512 if avx512_one_state() => {
            // SAFETY: `avx512_one_state()` is true only where
            // `cpuid_avx512::get()` (this backend's `is_supported()`)
            // confirmed AVX-512F, the target feature
            // `x86_avx512_1x::absorb` is compiled with.
            unsafe { x86_avx512_1x::absorb::<RATE, ROUNDS, B>(state, blocks) }
        }
        #[cfg(all(target_arch = "x86_64", feature = "x86"))]
        Backend::X86 | Backend::Avx2 | Backend::Avx512 => {
            // `Avx2` and `Avx512` imply BMI1 and BMI2 too (and their cargo
            // features imply `x86`), so this one check covers all three.
            if !backend.is_supported() || !cpuid_bmi::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_bmi::get()` just confirmed BMI1 and BMI2, the
            // target features `x86_keccak::absorb` is compiled with.
            unsafe { x86_keccak::absorb::<RATE, ROUNDS, B>(state, blocks) }
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "x86")))]
        Backend::X86 | Backend::Avx2 | Backend::Avx512 => unsupported(backend),
        #[cfg(all(target_arch = "aarch64", feature = "aarch64"))]
        Backend::Aarch64 => aarch64_keccak::absorb::<RATE, ROUNDS, B>(state, blocks),
        #[cfg(not(all(target_arch = "aarch64", feature = "aarch64")))]
        Backend::Aarch64 => unsupported(backend),
        #[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
        Backend::ArmSha3 => {
            if !cpuid_sha3::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_sha3::get()` just confirmed the SHA3 (and
            // SHA512) extension, the target feature `aarch64_sha3::absorb`
            // is compiled with.
            unsafe { aarch64_sha3::absorb::<RATE, ROUNDS, B>(state, blocks) }
        }
        #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha3")))]
        Backend::ArmSha3 => unsupported(backend),
    }
}

/// Apply Keccak-p\[1600, `ROUNDS`\] (FIPS 202 §3.3) once with `backend`.
#[inline]
pub(crate) fn permute<const ROUNDS: usize>(backend: Backend, state: &mut [u64; 25]) {
    match backend {
        Backend::Portable => portable::permute::<ROUNDS>(state),
        #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
        Backend::Avx512 if avx512_one_state() => {
            // SAFETY: `avx512_one_state()` is true only where
            // `cpuid_avx512::get()` (this backend's `is_supported()`)
            // confirmed AVX-512F, the target feature
            // `x86_avx512_1x::permute` is compiled with.
            unsafe { x86_avx512_1x::permute::<ROUNDS>(state) }
        }
        #[cfg(all(target_arch = "x86_64", feature = "x86"))]
        Backend::X86 | Backend::Avx2 | Backend::Avx512 => {
            if !backend.is_supported() || !cpuid_bmi::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_bmi::get()` just confirmed BMI1 and BMI2, the
            // target features `x86_keccak::permute` is compiled with.
            unsafe { x86_keccak::permute::<ROUNDS>(state) }
        }
        #[cfg(not(all(target_arch = "x86_64", feature = "x86")))]
        Backend::X86 | Backend::Avx2 | Backend::Avx512 => unsupported(backend),
        #[cfg(all(target_arch = "aarch64", feature = "aarch64"))]
        Backend::Aarch64 => aarch64_keccak::permute::<ROUNDS>(state),
        #[cfg(not(all(target_arch = "aarch64", feature = "aarch64")))]
        Backend::Aarch64 => unsupported(backend),
        #[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
        Backend::ArmSha3 => {
            if !cpuid_sha3::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_sha3::get()` just confirmed the SHA3 extension,
            // the target feature `aarch64_sha3::permute` is compiled with.
            unsafe { aarch64_sha3::permute::<ROUNDS>(state) }
        }
        #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha3")))]
        Backend::ArmSha3 => unsupported(backend),
    }
}

/// Hash a batch of fixed-output messages with `backend`: eight at a time
/// on the AVX-512 engine, four on the AVX2 one, else one by one.
pub(crate) fn digest_many<A, const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    inputs: &[&[u8]],
    outputs: &mut [A::Output],
) where
    A: FixedAlgorithm<State = [u64; 25], Backend = Backend>,
{
    hash_core::check_batch(inputs.len(), outputs.len());
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    if backend == Backend::Avx512 {
        if !cpuid_avx512::get() {
            unsupported(backend);
        }
        hash_core::multi::digest_many_lanes::<A, 8>(backend, inputs, outputs, AVX512_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_avx512::get()` confirmed AVX-512F above, the
            // target feature `x86_avx512::absorb8` is compiled with.
            unsafe { x86_avx512::absorb8::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    if backend == Backend::Avx2 {
        if !cpuid_avx2::get() {
            unsupported(backend);
        }
        hash_core::multi::digest_many_lanes::<A, 4>(backend, inputs, outputs, AVX2_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_avx2::get()` confirmed AVX2 above, the target
            // feature `x86_avx2::absorb4` is compiled with.
            unsafe { x86_avx2::absorb4::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
    if backend == Backend::ArmSha3 {
        if !cpuid_sha3::get() {
            unsupported(backend);
        }
        hash_core::multi::digest_many_lanes::<A, 2>(backend, inputs, outputs, ARM_SHA3_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_sha3::get()` confirmed the SHA3 extension
            // above, the target feature `aarch64_sha3::absorb2` is compiled
            // with.
            unsafe { aarch64_sha3::absorb2::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    hash_core::multi::digest_one_by_one::<A>(backend, inputs, outputs);
}

/// Absorb each of a batch of XOF messages and fill its output slot: the
/// absorbing four at a time on the AVX2 engine, else one by one.
pub(crate) fn digest_xof_many<A, const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    inputs: &[&[u8]],
    outputs: &mut [&mut [u8]],
) where
    A: XofAlgorithm<Backend = Backend>,
{
    hash_core::check_batch(inputs.len(), outputs.len());
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    if backend == Backend::Avx512 {
        if !cpuid_avx512::get() {
            unsupported(backend);
        }
        hash_core::multi::digest_xof_many_lanes::<A, 8>(backend, inputs, outputs, AVX512_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_avx512::get()` confirmed AVX-512F above, the
            // target feature `x86_avx512::absorb8` is compiled with.
            unsafe { x86_avx512::absorb8::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    if backend == Backend::Avx2 {
        if !cpuid_avx2::get() {
            unsupported(backend);
        }
        hash_core::multi::digest_xof_many_lanes::<A, 4>(backend, inputs, outputs, AVX2_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_avx2::get()` confirmed AVX2 above, the target
            // feature `x86_avx2::absorb4` is compiled with.
            unsafe { x86_avx2::absorb4::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
    if backend == Backend::ArmSha3 {
        if !cpuid_sha3::get() {
            unsupported(backend);
        }
        hash_core::multi::digest_xof_many_lanes::<A, 2>(
            backend,
            inputs,
            outputs,
            ARM_SHA3_MIN_ACTIVE,
            |states, data| {
                // SAFETY: `cpuid_sha3::get()` confirmed the SHA3 extension
                // above, the target feature `aarch64_sha3::absorb2` is compiled
                // with.
                unsafe { aarch64_sha3::absorb2::<RATE, ROUNDS>(states, data) }
            },
        );
        return;
    }
    for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
        Xof::<A>::digest_xof_with_backend(backend, input, output);
    }
}

/// Hash each of the `data.len() / len` consecutive `len`-byte chunks of
/// `data` as its own sponge (rate `RATE`, Keccak-p\[1600, `ROUNDS`\],
/// padding byte `domain` then `pad10*1`'s last bit) and write the first
/// `cv` bytes of chunk i's output to `out[i * cv..]`: the leaves of
/// KangarooTwelve (RFC 9861 §3.2) and ParallelHash (SP 800-185 §6.3).
/// Multi-lane backends hash `N` chunks at once.
///
/// # Panics
/// If `len` is 0, `cv > RATE`, or `out.len()` is not `cv` per chunk.
pub(crate) fn hash_chunks<const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    data: &[u8],
    len: usize,
    domain: u8,
    out: &mut [u8],
    cv: usize,
) {
    assert!(len > 0 && cv <= RATE && out.len() == data.len() / len * cv, "hash_chunks: bad chunk or output sizes");
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    if backend == Backend::Avx512 {
        if !cpuid_avx512::get() {
            unsupported(backend);
        }
        chunks_on_lanes::<8, RATE, ROUNDS>(backend, data, len, domain, out, cv, AVX512_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_avx512::get()` confirmed AVX-512F above, the
            // target feature `x86_avx512::absorb8` is compiled with.
            unsafe { x86_avx512::absorb8::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    if backend == Backend::Avx2 {
        if !cpuid_avx2::get() {
            unsupported(backend);
        }
        chunks_on_lanes::<4, RATE, ROUNDS>(backend, data, len, domain, out, cv, AVX2_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_avx2::get()` confirmed AVX2 above, the target
            // feature `x86_avx2::absorb4` is compiled with.
            unsafe { x86_avx2::absorb4::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha3"))]
    if backend == Backend::ArmSha3 {
        if !cpuid_sha3::get() {
            unsupported(backend);
        }
        chunks_on_lanes::<2, RATE, ROUNDS>(backend, data, len, domain, out, cv, ARM_SHA3_MIN_ACTIVE, |states, data| {
            // SAFETY: `cpuid_sha3::get()` confirmed the SHA3 extension
            // above, the target feature `aarch64_sha3::absorb2` is compiled
            // with.
            unsafe { aarch64_sha3::absorb2::<RATE, ROUNDS>(states, data) }
        });
        return;
    }
    for (chunk, cv_out) in data.chunks_exact(len).zip(out.chunks_exact_mut(cv)) {
        hash_chunk::<RATE, ROUNDS>(backend, chunk, domain, cv_out);
    }
}

/// One chunk of [`hash_chunks`] on the single-stream permutation.
fn hash_chunk<const RATE: usize, const ROUNDS: usize>(backend: Backend, chunk: &[u8], domain: u8, out: &mut [u8]) {
    let mut state = [0u64; 25];
    let (blocks, tail) = chunk.as_chunks::<RATE>();
    absorb::<RATE, ROUNDS, [u8; RATE]>(backend, &mut state, blocks);
    let last = padded_tail::<RATE>(tail, domain);
    absorb::<RATE, ROUNDS, [u8; RATE]>(backend, &mut state, &[last]);
    squeeze_into(&state, out);
}

/// A final block: `tail` (shorter than the rate), the domain byte, zeros,
/// and `pad10*1`'s last bit (FIPS 202 §5.1, §B.2).
#[inline]
fn padded_tail<const RATE: usize>(tail: &[u8], domain: u8) -> [u8; RATE] {
    let mut block = [0u8; RATE];
    block[..tail.len()].copy_from_slice(tail);
    block[tail.len()] ^= domain;
    block[RATE - 1] ^= 0x80;
    block
}

/// The first `out.len()` (at most the rate) output bytes of a padded state.
#[inline]
fn squeeze_into(state: &[u64; 25], out: &mut [u8]) {
    for (bytes, lane) in out.chunks_mut(8).zip(state) {
        bytes.copy_from_slice(&lane.to_le_bytes()[..bytes.len()]);
    }
}

/// [`hash_chunks`] on an `N`-lane engine `absorb_lanes` (the contract of
/// every lane engine: `absorb::<RATE, ROUNDS>(states, data)` with every
/// `data[i]` the same whole number of `RATE`-byte blocks). Chunks go `N`
/// at a time; a last group of fewer than `min_active` chunks goes through
/// the single-stream permutation, a larger one fills its idle lanes with
/// copies of a busy lane whose results are dropped.
#[cfg(any(all(target_arch = "x86_64", feature = "avx2"), all(target_arch = "aarch64", feature = "arm-sha3")))]
#[allow(clippy::too_many_arguments)]
fn chunks_on_lanes<const N: usize, const RATE: usize, const ROUNDS: usize>(
    backend: Backend,
    data: &[u8],
    len: usize,
    domain: u8,
    out: &mut [u8],
    cv: usize,
    min_active: usize,
    mut absorb_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N]),
) {
    let n = data.len() / len;
    let whole = len - len % RATE;
    let mut first = 0;
    while first < n {
        let busy = (n - first).min(N);
        if busy < min_active {
            for i in first..n {
                hash_chunk::<RATE, ROUNDS>(
                    backend,
                    &data[i * len..(i + 1) * len],
                    domain,
                    &mut out[i * cv..(i + 1) * cv],
                );
            }
            return;
        }
        let chunk = |lane: usize| {
            let i = first + lane.min(busy - 1);
            &data[i * len..(i + 1) * len]
        };
        let mut states = [[0u64; 25]; N];
        if whole > 0 {
            absorb_lanes(&mut states, core::array::from_fn(|lane| &chunk(lane)[..whole]));
        }
        let tails: [[u8; RATE]; N] = core::array::from_fn(|lane| padded_tail::<RATE>(&chunk(lane)[whole..], domain));
        absorb_lanes(&mut states, core::array::from_fn(|lane| &tails[lane][..]));
        for (lane, state) in states.iter().take(busy).enumerate() {
            let i = first + lane;
            squeeze_into(state, &mut out[i * cv..(i + 1) * cv]);
        }
        first += busy;
    }
}

/// The x86 lane engines against the portable sponge, called directly: every
/// rate of this crate (SHA3-512's 72 bytes up to SHAKE128's and
/// TurboSHAKE128's 168), Keccak-f (24 rounds) and the 12-round Keccak-p of
/// TurboSHAKE and KangarooTwelve, 0 to 3 blocks, a different random state
/// and message in every lane, and messages at every offset from an aligned
/// address, so that each rate's transposed loads (whole 64-byte groups and
/// the overlapping last one) and the state's loads and stores are all
/// checked lane by lane.
#[cfg(all(test, target_arch = "x86_64", any(feature = "avx2", feature = "avx512")))]
mod lane_engine_tests {
    extern crate std;
    use std::vec::Vec;

    use hash_core::testing::{Rng, say};

    /// `absorb(states, data)` on `N` lanes equals `portable::absorb` lane by
    /// lane.
    fn check<const N: usize, const RATE: usize, const ROUNDS: usize>(
        name: &str,
        absorb: impl Fn(&mut [[u64; 25]; N], [&[u8]; N]),
    ) {
        let mut rng = Rng::new(0x1a4e_0000 + (RATE * 100 + ROUNDS) as u64);
        for blocks in 0..=3 {
            for offset in 0..8 {
                let start: [[u64; 25]; N] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()));
                let buffers: [Vec<u8>; N] = core::array::from_fn(|lane| rng.bytes(blocks * RATE + 8 + lane));
                let data: [&[u8]; N] =
                    core::array::from_fn(|lane| &buffers[lane][(offset + lane) % 8..][..blocks * RATE]);
                let mut want = start;
                for (state, msg) in want.iter_mut().zip(data) {
                    let chunks: Vec<&[u8]> = msg.chunks(RATE).collect();
                    super::portable::absorb::<RATE, ROUNDS, &[u8]>(state, &chunks);
                }
                let mut got = start;
                absorb(&mut got, data);
                for lane in 0..N {
                    assert_eq!(
                        got[lane], want[lane],
                        "{name}::<{RATE}, {ROUNDS}>: lane {lane}, {blocks} blocks, offset {offset}"
                    );
                }
            }
        }
    }

    /// [`check`] for every rate and both round counts; `$call` names the
    /// engine, run inside `unsafe` (the caller checked its CPU features).
    macro_rules! every_rate {
        ($n:literal, $name:literal, $module:ident :: $engine:ident) => {
            every_rate!(@each $n, $name, $module::$engine, 72, 104, 136, 144, 168);
        };
        (@each $n:literal, $name:literal, $module:ident :: $engine:ident, $($rate:literal),*) => {
            $(
                // SAFETY: the caller checked the engine's CPU features.
                check::<$n, $rate, 24>($name, |s, d| unsafe { super::$module::$engine::<$rate, 24>(s, d) });
                // SAFETY: as above.
                check::<$n, $rate, 12>($name, |s, d| unsafe { super::$module::$engine::<$rate, 12>(s, d) });
            )*
        };
    }

    #[cfg(feature = "avx512")]
    #[test]
    fn avx512_engine_matches_portable() {
        if !super::cpuid_avx512::get() {
            say(format_args!("sha3: SKIPPED the avx512 lane engine test: this CPU has no AVX-512F"));
            return;
        }
        every_rate!(8, "absorb8", x86_avx512::absorb8);
    }

    #[cfg(feature = "avx2")]
    #[test]
    fn avx2_engine_matches_portable() {
        if !super::cpuid_avx2::get() {
            say(format_args!("sha3: SKIPPED the avx2 lane engine test: this CPU has no AVX2"));
            return;
        }
        every_rate!(4, "absorb4", x86_avx2::absorb4);
    }
}
