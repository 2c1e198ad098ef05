//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! Every entry point here is reachable from safe public code with any
//! `Backend` value (`<algorithm::Sha256 as hash_core::Algorithm>::compress`
//! does not go through `with_backend`'s check), so each one checks, with
//! `cpufeatures`' cached flag, that the CPU has the backend's features
//! before it calls `#[target_feature]` code, and panics otherwise.

use hash_core::typenum::U64;
use hash_core::{BackendKind, Block, DetectCache};

#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
mod aarch64_sha;
mod portable;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
mod x86_avx2;
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
mod x86_avx512;
#[cfg(all(target_arch = "x86_64", feature = "shani"))]
mod x86_shani;

#[cfg(all(target_arch = "x86_64", feature = "shani"))]
cpufeatures::new!(cpu_shani, "sha", "sse2", "ssse3", "sse4.1");
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
cpufeatures::new!(cpu_avx2, "avx2", "bmi1", "bmi2");
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
cpufeatures::new!(cpu_avx512, "avx512f", "avx512bw");
// `sha2` is FEAT_SHA256 (Linux HWCAP_SHA2, on macOS always present). The
// Arm architecture requires FEAT_SHA1 wherever FEAT_SHA256 is implemented
// (ID_AA64ISAR0_EL1.SHA2 is nonzero only if .SHA1 is).
#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
cpufeatures::new!(cpu_arm_sha, "sha2");

/// A SHA-256 compression backend.
///
/// [`Backend::detect`] picks the best one for this CPU (SHA-NI, then AVX2,
/// then portable); every hasher's `with_backend` forces one (it panics,
/// naming the missing CPU features, if this CPU lacks them;
/// `try_with_backend` returns the error instead). The same value selects
/// both the single-message path and the batch engine of `digest_many`.
///
/// Every variant exists in every build; one whose cargo feature is off, or
/// that needs x86-64 on another target, reports `is_supported() == false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// The x86 SHA extensions (`sha256rnds2`, `sha256msg1`, `sha256msg2`;
    /// Intel Goldmont / Ice Lake and later, AMD Zen and later).
    ///
    /// One message: two rounds per `sha256rnds2`, the state kept in the
    /// instruction's ABEF/CDGH layout for the whole run of blocks.
    /// `digest_many`: four messages at once (two or three for batches of
    /// that size) as interleaved SHA-NI instruction streams, which hides
    /// part of `sha256rnds2`'s latency, for messages of 320 bytes or more
    /// on average (shorter ones run one by one, which is faster for them);
    /// but on a CPU that also has AVX-512F and AVX-512BW (and with the
    /// `avx512` cargo feature, on by default), sixteen messages at once in
    /// the 32-bit lanes of `zmm` registers for batches of 9 messages or
    /// more (11 or more for messages under 128 bytes on average), which
    /// measured 1.8x faster than the interleaved streams on an AMD Zen 5
    /// core (3.1x one SHA-NI stream, against 1.7x).
    ///
    /// Needs x86-64 with `sha`, `sse2`, `ssse3`, `sse4.1` and the `shani`
    /// cargo feature (on by default).
    ShaNi,
    /// AVX2 and BMI2, for x86-64 CPUs without SHA-NI (Intel Haswell to
    /// Skylake-derived cores).
    ///
    /// One message: the message schedule of two blocks at once in the two
    /// 128-bit halves of `ymm` registers, `W + K` spilled to the stack, and
    /// the rounds on general registers with BMI2 `rorx` rotations.
    /// `digest_many`: eight messages at once, one per 32-bit lane of the
    /// `ymm` registers; on a CPU that also has AVX-512F and AVX-512BW (and
    /// with the `avx512` cargo feature), batches of 4 messages or more run
    /// sixteen at once in `zmm` lanes, as for [`Backend::ShaNi`].
    ///
    /// Needs x86-64 with `avx2`, `bmi1`, `bmi2` and the `avx2` cargo feature
    /// (on by default).
    Avx2,
    /// The ARMv8 SHA-256 instructions (`sha256h`, `sha256h2`, `sha256su0`,
    /// `sha256su1`; FEAT_SHA256: every Apple M-series, AWS Graviton, Ampere,
    /// Cortex-A53 and later core that has the Cryptographic Extension).
    ///
    /// One message: four rounds per `sha256h` + `sha256h2` pair, the state
    /// in two vector registers (ABCD, EFGH) for the whole run of blocks.
    /// `digest_many`: three messages at once (two for a batch of two) as
    /// interleaved instruction streams, which fills the gaps in each
    /// stream's latency-bound `sha256h` chain, in the manner of ISA-L's
    /// aarch64 multi-buffer code; a lone last message runs as one stream.
    ///
    /// Needs aarch64 with `sha2` (detected through Linux hwcaps or, on
    /// macOS, always present) and the `arm-sha` cargo feature (on by
    /// default).
    ArmSha,
    /// Safe, fully unrolled Rust; runs everywhere. `digest_many` hashes the
    /// messages one after another.
    Portable,
}

static DETECTED: DetectCache = DetectCache::new();

impl BackendKind for Backend {
    const ALL: &'static [Backend] = &[Backend::ShaNi, Backend::Avx2, Backend::ArmSha, Backend::Portable];

    fn name(self) -> &'static str {
        match self {
            Backend::ShaNi => "sha-ni",
            Backend::Avx2 => "avx2",
            Backend::ArmSha => "arm-sha",
            Backend::Portable => "portable",
        }
    }

    fn requires(self) -> &'static str {
        match self {
            Backend::ShaNi => "x86-64 with sha, sse2, ssse3, sse4.1 and the `shani` cargo feature",
            Backend::Avx2 => "x86-64 with avx2, bmi1, bmi2 and the `avx2` cargo feature",
            Backend::ArmSha => "aarch64 with sha2 (the SHA-256 instructions) and the `arm-sha` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            Backend::ShaNi => shani_supported(),
            Backend::Avx2 => avx2_supported(),
            Backend::ArmSha => arm_sha_supported(),
            Backend::Portable => true,
        }
    }

    #[inline]
    fn detect() -> Self {
        DETECTED.get()
    }

    fn batch_engine(self, messages: usize) -> &'static str {
        if messages < 2 || !self.is_supported() {
            return "one by one";
        }
        // For long messages: batches of short ones may run one by one
        // instead (`engine`).
        match engine(self, messages, usize::MAX) {
            Engine::ShaNiStreams => match messages {
                2 => "sha-ni 2 streams",
                3 => "sha-ni 3 streams",
                _ => "sha-ni 4 streams",
            },
            // The AVX2 lanes run from three busy lanes on (`x86_avx2`).
            Engine::Avx2Lanes if messages < 3 => "one by one",
            Engine::Avx2Lanes => "avx2 8 lanes",
            Engine::Avx512Lanes => "avx512 16 lanes",
            Engine::Avx512LanesLean => "avx512 16 lanes, lean rounds",
            Engine::ArmShaStreams => match messages {
                0 | 1 => "one by one",
                2 => "arm-sha 2 streams",
                _ if arm_streams() == 2 => "arm-sha 2 streams",
                _ => "arm-sha 3 streams",
            },
            Engine::OneByOne => "one by one",
        }
    }
}

hash_core::backend_api!(Backend);

/// Whether the SHA-NI backend is compiled in and this CPU can run it.
#[inline]
fn shani_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "shani"))]
    {
        cpu_shani::get()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "shani")))]
    {
        false
    }
}

/// Whether the AVX2 backend is compiled in and this CPU can run it.
#[inline]
fn avx2_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    {
        cpu_avx2::get()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "avx2")))]
    {
        false
    }
}

/// Whether the ARMv8 SHA-256 backend is compiled in and this CPU can run it.
#[inline]
fn arm_sha_supported() -> bool {
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
    {
        cpu_arm_sha::get()
    }
    #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha")))]
    {
        false
    }
}

/// How many interleaved `arm-sha` streams a batch of three or more runs
/// on, by core, decided once per process. Cycles per block modelled by
/// `cargo xtask mca` (`llvm-mca` of LLVM 19, 2 / 3 streams): Cortex-A72
/// 100 / 101, Neoverse N1 57.0 / 57.4, Neoverse V2 56 / 56, Neoverse V1
/// 49 / 44, Apple M1 and M4 65 / 56.4 (one stream: 131 / 82 / 82 / 82 /
/// 114). So three streams on Apple cores (macOS, or MIDR implementer
/// 0x61) and Neoverse V1 (0x41, part 0xd40), and on cores the models do
/// not cover (the third stream costs at most 1% where it does not pay);
/// two on Cortex-A72 (0xd08), Neoverse N1 (0xd0c) and V2 (0xd4f), where a
/// third gains nothing and a batch must be one message longer to use it.
/// Modelled, not measured: no aarch64 hardware was at hand.
fn arm_streams() -> usize {
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
    {
        static CHOSEN: hash_core::cpu::EngineCache<1> = hash_core::cpu::EngineCache::new();
        CHOSEN.get(0, &[2usize, 3], || if cfg!(target_os = "macos") { 3 } else { arm::streams(arm::midr()) })
    }
    #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha")))]
    {
        3
    }
}

/// The core's MIDR_EL1, for [`arm_streams`].
#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
mod arm {
    /// Streams for a core with this MIDR_EL1 value (`None`: unknown).
    pub(super) fn streams(midr: Option<u64>) -> usize {
        let Some(midr) = midr else { return 3 };
        let (implementer, part) = ((midr >> 24) & 0xff, (midr >> 4) & 0xfff);
        match (implementer, part) {
            // Cortex-A72, Neoverse N1, Neoverse V2.
            (0x41, 0xd08 | 0xd0c | 0xd4f) => 2,
            _ => 3,
        }
    }

    /// MIDR_EL1 of the core this thread runs on. Linux and Android trap
    /// EL0's `mrs` of the ID registers and emulate it where the kernel
    /// says so with `HWCAP_CPUID` (Linux 4.11 and later; qemu-user too).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(super) fn midr() -> Option<u64> {
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
    pub(super) fn midr() -> Option<u64> {
        None
    }

    #[cfg(test)]
    mod tests {
        use super::streams;

        /// MIDR values of real cores and qemu's: two streams where the
        /// models find the third gains nothing, three elsewhere.
        #[test]
        fn streams_per_core() {
            // Cortex-A72 r0p3, Neoverse N1 r3p1, Neoverse V2 r0p0.
            for midr in [0x410f_d083, 0x413f_d0c1, 0x410f_d4f0] {
                assert_eq!(streams(Some(midr)), 2, "{midr:#x}");
            }
            // Neoverse V1, Apple M1 Icestorm / Firestorm, M2, qemu -cpu max.
            for midr in [0x411f_d400, 0x611f_0220, 0x611f_0230, 0x611f_0320, 0x000f_0510] {
                assert_eq!(streams(Some(midr)), 3, "{midr:#x}");
            }
            assert_eq!(streams(None), 3, "unknown cores keep three");
        }
    }
}

/// The 64 bytes of `block` as an array (a `Block<U64>` is exactly that).
#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
#[inline(always)]
fn block_bytes(block: &Block<U64>) -> &[u8; 64] {
    let (arrays, _) = block[..].as_chunks::<64>();
    &arrays[0]
}

/// The panic for a backend that was not checked with `Backend::check`.
#[cold]
#[inline(never)]
#[track_caller]
fn unsupported(backend: Backend) -> ! {
    hash_core::unsupported("sha256", backend)
}

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.2.2).
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 8], blocks: &[Block<U64>]) {
    match backend {
        Backend::ShaNi => {
            #[cfg(all(target_arch = "x86_64", feature = "shani"))]
            if cpu_shani::get() {
                // SAFETY: `cpu_shani::get()` just confirmed that this CPU has
                // sha, sse2, ssse3 and sse4.1, the features `compress` enables.
                unsafe { x86_shani::compress(state, blocks) };
                return;
            }
            unsupported(backend)
        }
        Backend::Avx2 => {
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            if cpu_avx2::get() {
                // SAFETY: `cpu_avx2::get()` just confirmed that this CPU has
                // avx2, bmi1 and bmi2, the features `compress` enables.
                unsafe { x86_avx2::compress(state, blocks) };
                return;
            }
            unsupported(backend)
        }
        Backend::ArmSha => {
            #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
            if cpu_arm_sha::get() {
                // SAFETY: `cpu_arm_sha::get()` just confirmed that this CPU
                // has sha2, the feature `compress` enables.
                unsafe { aarch64_sha::compress(state, blocks) };
                return;
            }
            unsupported(backend)
        }
        Backend::Portable => portable::compress(state, blocks),
    }
}

/// Whether `backend` builds the final padded block from registers (see
/// `hash_core::FixedAlgorithm::compress_final`): the x86 backends do.
#[inline(always)]
pub(crate) fn has_compress_final(backend: Backend) -> bool {
    cfg!(target_arch = "x86_64") && matches!(backend, Backend::ShaNi | Backend::Avx2)
}

/// Compress the final padded block of a `total`-byte message whose last
/// `tail.len()` bytes fit in one block with the padding (FIPS 180-4
/// §5.1.1): with SHA-NI the block is built in registers, with AVX2 it is
/// written by [`final_block`], with the portable backend in a buffer.
///
/// # Panics
/// If this CPU (or this build) does not support `backend`, or `tail` and
/// the padding do not fit in one block (SHA-NI), or `tail` is a block long.
#[inline]
pub(crate) fn compress_final<A>(backend: Backend, state: &mut [u32; 8], tail: &[u8], total: u128)
where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    match backend {
        Backend::ShaNi => {
            #[cfg(all(target_arch = "x86_64", feature = "shani"))]
            if cpu_shani::get() {
                // SAFETY: `cpu_shani::get()` just confirmed that this CPU has
                // sha, sse2, ssse3 and sse4.1, the features `compress_final`
                // enables.
                unsafe { x86_shani::compress_final(state, tail, total) };
                return;
            }
            unsupported(backend)
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            // SAFETY: SSE2, which `final_block` enables, is part of x86-64.
            let block: Block<U64> = unsafe { final_block(tail, total) }.into();
            compress(backend, state, core::slice::from_ref(&block));
        }
        _ => hash_core::compress_final_buffered::<A>(backend, state, tail, total),
    }
}

/// The final padded block (`hash_core::padded_rows`) written with one
/// 16-byte store per row. The AVX2 code reads the block with 16-byte loads,
/// which the store buffer forwards from stores of the same 16 bytes; from
/// the byte-wise stores of padding in a buffer it cannot, and a one-block
/// message's schedule would wait for those to retire.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "sse2")]
fn final_block(tail: &[u8], total: u128) -> [u8; 64] {
    use core::arch::x86_64::{_mm_set_epi64x, _mm_storeu_si128};
    let rows = hash_core::padded_rows::<4>(hash_core::Padding::Be64, tail, total);
    let mut block = [0u8; 64];
    for (dst, row) in block.chunks_exact_mut(16).zip(rows) {
        let v = _mm_set_epi64x((row >> 64) as i64, row as i64);
        // SAFETY: `dst` is 16 writable bytes; `storeu` has no alignment
        // requirement.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) };
    }
    block
}

/// A multi-buffer engine behind `digest_many`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Engine {
    /// Interleaved SHA-NI streams (`x86_shani`).
    ShaNiStreams,
    /// Eight AVX2 lanes (`x86_avx2`).
    Avx2Lanes,
    /// Sixteen AVX-512 lanes (`x86_avx512`), rounds shaped for latency
    /// (AMD).
    Avx512Lanes,
    /// Interleaved ARMv8 SHA-256 streams (`aarch64_sha`).
    ArmShaStreams,
    /// Sixteen AVX-512 lanes, rounds in the fewest instructions (Intel and
    /// other vendors).
    Avx512LanesLean,
    /// One message after another with the single-stream code.
    OneByOne,
}

/// Whether the 16-lane AVX-512 engine is compiled in and this CPU can run it.
#[inline]
fn avx512_supported() -> bool {
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    {
        cpu_avx512::get()
    }
    #[cfg(not(all(target_arch = "x86_64", feature = "avx512")))]
    {
        false
    }
}

/// The engine `digest_many` uses for `backend` on this CPU and a batch of
/// `messages` of `mean` bytes on average ([`Backend::batch_engine`] names
/// it, for long messages): the backend's own, unless the CPU also has
/// AVX-512 and the batch is large enough to fill enough of its 16 lanes,
/// or one by one where the messages are too short for either to gain (see
/// [`STREAMS_MIN_MEAN`] and [`LANES_SHORT_MEAN`]). The rule is the same on
/// every vendor. Measured on an AMD Zen 5 core, the 16-lane engine with
/// `k` busy lanes gives about 0.2k times the throughput of one SHA-NI
/// stream, the 4 interleaved SHA-NI streams 1.7 times, and the 8 AVX2
/// lanes 0.78 times: break-even at about 9 and 4 messages. On an Intel
/// Xeon (Sapphire Rapids class) the 16 lanes (lean rounds) give about
/// 0.14k times one SHA-NI stream (2.2-2.3x with all 16 busy), and
/// `sha256rnds2` is throughput-bound there, so interleaved streams gain
/// little: break-even at about 7 messages against one stream.
fn engine(backend: Backend, messages: usize, mean: usize) -> Engine {
    let lanes_from = if mean < LANES_SHORT_MEAN { LANES_MIN_SHORT } else { 9 };
    match backend {
        Backend::ShaNi if messages >= lanes_from && avx512_supported() => avx512_engine(),
        Backend::Avx2 if messages >= 4 && avx512_supported() => avx512_engine(),
        Backend::ShaNi if mean < STREAMS_MIN_MEAN => Engine::OneByOne,
        Backend::ShaNi => Engine::ShaNiStreams,
        Backend::Avx2 => Engine::Avx2Lanes,
        Backend::ArmSha => Engine::ArmShaStreams,
        Backend::Portable => Engine::OneByOne,
    }
}

/// The shape of the 16-lane rounds for this CPU, decided once per process:
/// latency-shaped on AMD (three-cycle vector latency on Zen 5), fewest
/// instructions elsewhere (Intel cores issue 512-bit operations on ports
/// 0 and 5 only, their rotations and shifts on port 0 alone).
fn avx512_engine() -> Engine {
    static CHOSEN: hash_core::cpu::EngineCache<1> = hash_core::cpu::EngineCache::new();
    CHOSEN.get(0, &[Engine::Avx512Lanes, Engine::Avx512LanesLean], || {
        if hash_core::cpu::vendor() == hash_core::cpu::Vendor::Amd {
            Engine::Avx512Lanes
        } else {
            Engine::Avx512LanesLean
        }
    })
}

/// Hash each of `inputs` into the matching `outputs` slot with `backend`'s
/// batch engine (see the variants' docs); `A` is SHA-256 or SHA-224.
///
/// # Panics
/// If this CPU (or this build) does not support `backend`, or the slices
/// differ in length (reachable through the `FixedAlgorithm` trait, which
/// does not check).
pub(crate) fn digest_many<A>(backend: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    hash_core::check_batch(inputs.len(), outputs.len());
    if !backend.is_supported() {
        unsupported(backend)
    }
    let engine = engine(backend, inputs.len(), hash_core::multi::mean_len(inputs));
    run_engine::<A>(engine, backend, inputs, outputs);
}

/// The shortest mean message length (bytes) at which a batch runs on
/// interleaved SHA-NI streams; shorter messages run one by one, where a
/// message of up to 55 bytes is one block built in registers
/// (`compress_final`) while the streams' scheduler pads every tail in
/// memory. Measured on an Intel Xeon (Sapphire Rapids class), streams over
/// one by one: 2 messages of 16 bytes 0.70x, of 128 bytes 0.85x, of 256
/// bytes 0.97x, of 320 bytes 1.00x, of 1 KiB 1.15x; 4 messages of 128
/// bytes 0.97x, of 256 bytes 1.04x. Not measured on AMD, where the streams
/// gain more on long messages; the same rule keeps short batches from
/// losing there too.
const STREAMS_MIN_MEAN: usize = 320;

/// Below this mean message length (bytes), a batch needs
/// [`LANES_MIN_SHORT`] messages, not 9, to leave the SHA-NI backend for the
/// 16 AVX-512 lanes: the lanes' fixed costs per message (the padded tail in
/// memory, the transposes) weigh most on one- and two-block messages.
/// Measured on an Intel Xeon (Sapphire Rapids class), lanes over one by
/// one: 9 messages of 0, 64, 100 and 128 bytes 0.88x, 0.94x, 0.94x, 1.01x;
/// 10 messages 0.97x, 1.03x, 1.04x, 1.12x; 11 messages 1.05x and more.
const LANES_SHORT_MEAN: usize = 128;

/// See [`LANES_SHORT_MEAN`].
const LANES_MIN_SHORT: usize = 11;

/// Run `engine`, finishing stragglers with the single-stream `backend`,
/// which the caller has checked.
///
/// # Panics
/// If this CPU (or this build) does not support `engine`.
fn run_engine<A>(engine: Engine, backend: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    match engine {
        Engine::ShaNiStreams => {
            #[cfg(all(target_arch = "x86_64", feature = "shani"))]
            if cpu_shani::get() {
                // SAFETY: `cpu_shani::get()` just confirmed that this CPU has
                // sha, sse2, ssse3 and sse4.1, which `digest_many` requires.
                return unsafe { x86_shani::digest_many::<A>(inputs, outputs) };
            }
            unsupported(Backend::ShaNi)
        }
        Engine::Avx2Lanes => {
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            if cpu_avx2::get() {
                // SAFETY: `cpu_avx2::get()` just confirmed that this CPU has
                // avx2, bmi1 and bmi2, which `digest_many` requires.
                return unsafe { x86_avx2::digest_many::<A>(inputs, outputs) };
            }
            unsupported(Backend::Avx2)
        }
        Engine::Avx512Lanes | Engine::Avx512LanesLean => {
            #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
            if cpu_avx512::get() && backend.is_supported() {
                return if engine == Engine::Avx512LanesLean {
                    // SAFETY: `cpu_avx512::get()` just confirmed that this
                    // CPU has avx512f and avx512bw, and
                    // `backend.is_supported()` that it runs `backend`: what
                    // `digest_many` requires.
                    unsafe { x86_avx512::digest_many::<A, true>(backend, inputs, outputs) }
                } else {
                    // SAFETY: as above.
                    unsafe { x86_avx512::digest_many::<A, false>(backend, inputs, outputs) }
                };
            }
            panic!(
                "sha256: the AVX-512 batch engine needs x86-64 with avx512f, avx512bw and the `avx512` cargo feature"
            )
        }
        Engine::ArmShaStreams => {
            #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
            if cpu_arm_sha::get() {
                // SAFETY: `cpu_arm_sha::get()` just confirmed that this CPU
                // has sha2, which `digest_many` requires.
                return unsafe { aarch64_sha::digest_many::<A>(inputs, outputs, arm_streams()) };
            }
            unsupported(Backend::ArmSha)
        }
        Engine::OneByOne => {
            hash_core::multi::digest_one_by_one::<A>(backend, inputs, outputs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Backend, Engine, run_engine};
    use crate::algorithm::{Sha224, Sha256};
    use hash_core::testing::{Rng, say};
    use hash_core::{FixedAlgorithm, Hasher, OutputBytes};
    use std::vec;
    use std::vec::Vec;

    /// Every batch engine this CPU runs, whichever one `digest_many` picks
    /// here, against one-by-one portable hashing: batches of mixed lengths,
    /// and of equal lengths that keep every lane busy.
    fn check_engine<A: FixedAlgorithm<State = [u32; 8], Backend = Backend>>(engine: Engine, single: Backend) {
        let mut rng = Rng::new(0x5eed_e261);
        let lens = [0usize, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 4096, 8192];
        for batch in [1usize, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64] {
            for equal in [false, true] {
                let common = lens[rng.below(lens.len())];
                let msgs: Vec<Vec<u8>> = (0..batch)
                    .map(|_| {
                        let len = if equal {
                            common
                        } else if rng.below(2) == 0 {
                            lens[rng.below(lens.len())]
                        } else {
                            rng.below(5000)
                        };
                        rng.bytes(len)
                    })
                    .collect();
                let inputs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
                let mut got = vec![A::Output::zeroed(); batch];
                run_engine::<A>(engine, single, &inputs, &mut got);
                for (i, (m, d)) in msgs.iter().zip(&got).enumerate() {
                    let want = Hasher::<A>::digest_with_backend(Backend::Portable, m);
                    assert_eq!(
                        *d,
                        want,
                        "{} {engine:?} (single {single}): batch {batch}, message {i}, len {}",
                        A::NAME,
                        m.len()
                    );
                }
            }
        }
    }

    /// The rule for short messages, on whichever CPU runs it: a batch that
    /// no engine would speed up runs one by one.
    #[test]
    fn short_batches_run_one_by_one() {
        use super::{LANES_MIN_SHORT, LANES_SHORT_MEAN, STREAMS_MIN_MEAN, avx512_engine, avx512_supported, engine};
        let lanes = |fallback| if avx512_supported() { avx512_engine() } else { fallback };
        let shani = Backend::ShaNi;
        assert_eq!(engine(shani, 2, 16), Engine::OneByOne);
        assert_eq!(engine(shani, 8, STREAMS_MIN_MEAN - 1), Engine::OneByOne);
        assert_eq!(engine(shani, 4, STREAMS_MIN_MEAN), Engine::ShaNiStreams);
        assert_eq!(engine(shani, LANES_MIN_SHORT - 1, LANES_SHORT_MEAN - 1), Engine::OneByOne);
        assert_eq!(engine(shani, LANES_MIN_SHORT, 0), lanes(Engine::OneByOne));
        assert_eq!(engine(shani, 9, LANES_SHORT_MEAN), lanes(Engine::OneByOne));
        assert_eq!(engine(shani, 9, STREAMS_MIN_MEAN), lanes(Engine::ShaNiStreams));
        // The report's engine names describe long messages.
        assert_eq!(engine(shani, 2, usize::MAX), Engine::ShaNiStreams);
        assert_eq!(engine(Backend::Avx2, 2, 16), Engine::Avx2Lanes);
        assert_eq!(engine(Backend::Portable, 64, 8192), Engine::OneByOne);
    }

    #[test]
    fn every_batch_engine_matches_portable() {
        let engines = [
            (Engine::ShaNiStreams, Backend::ShaNi, super::shani_supported()),
            (Engine::Avx2Lanes, Backend::Avx2, super::avx2_supported()),
            (Engine::Avx512Lanes, Backend::ShaNi, super::avx512_supported() && super::shani_supported()),
            (Engine::Avx512Lanes, Backend::Avx2, super::avx512_supported() && super::avx2_supported()),
            (Engine::Avx512Lanes, Backend::Portable, super::avx512_supported()),
            (Engine::ArmShaStreams, Backend::ArmSha, super::arm_sha_supported()),
            (Engine::Avx512LanesLean, Backend::ShaNi, super::avx512_supported() && super::shani_supported()),
            (Engine::Avx512LanesLean, Backend::Portable, super::avx512_supported()),
            (Engine::OneByOne, Backend::Portable, true),
        ];
        for (engine, single, supported) in engines {
            if supported {
                check_engine::<Sha256>(engine, single);
                check_engine::<Sha224>(engine, single);
            } else {
                say(format_args!(
                    "sha256: SKIPPED batch engine {engine:?} with [{single}]: this CPU or build lacks it"
                ));
            }
        }
    }
}
