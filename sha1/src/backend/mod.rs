//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].

use hash_core::typenum::U64;
use hash_core::{BackendKind, Block, DetectCache};

use crate::algorithm::Sha1;

#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
mod aarch64_sha;
mod portable;
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
mod x86_avx2;
#[cfg(all(target_arch = "x86_64", feature = "shani"))]
mod x86_shani;

#[cfg(all(target_arch = "x86_64", feature = "shani"))]
cpufeatures::new!(cpuid_shani, "sha", "sse2", "ssse3", "sse4.1");
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
cpufeatures::new!(cpuid_avx2, "avx2", "bmi1", "bmi2");
// `sha2` covers FEAT_SHA1 and FEAT_SHA256 in Rust and LLVM; cpufeatures
// tests Linux HWCAP_SHA2 (macOS: always present). The Arm architecture
// requires FEAT_SHA1 wherever FEAT_SHA256 is implemented
// (ID_AA64ISAR0_EL1.SHA2 is nonzero only if .SHA1 is).
#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
cpufeatures::new!(cpu_arm_sha, "sha2");

/// A SHA-1 compression backend.
///
/// [`Backend::detect`] picks the best one for this CPU; every hasher's
/// `with_backend` forces one (it panics, naming the missing CPU features, if
/// this CPU lacks them; `try_with_backend` returns the error instead). The
/// same value selects the engine for one message and for `digest_many`
/// batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// The x86 SHA extensions (`sha1rnds4` and friends: four rounds per
    /// instruction). One message: one instruction stream, bound by the
    /// latency of `sha1rnds4`. `digest_many`: five messages at a time with
    /// their instruction streams interleaved, which keeps the SHA unit busy
    /// while each stream waits on its last round (about 2.6 times the
    /// single-stream throughput); the last message of a batch, once it runs
    /// alone, finishes as a single stream. Needs x86-64 with `sha`, `sse2`, `ssse3`, `sse4.1`, and the `shani`
    /// cargo feature (on by default).
    ShaNi,
    /// AVX2 and BMI. One message: the message schedule (W + K) computed
    /// with SIMD two blocks at a time ahead of the rounds, which run on
    /// scalar registers with `rorx` and `andn`. `digest_many`: eight
    /// messages at once, one in each 32-bit lane of the `ymm` registers
    /// (about 2.5 times the single-stream throughput); once the batch runs
    /// dry and fewer than four lanes are busy, those messages finish on the
    /// single-stream path. Needs x86-64 with `avx2`, `bmi1`, `bmi2`, and the `avx2` cargo
    /// feature (on by default).
    Avx2,
    /// The ARMv8 SHA1 instructions (`sha1c`, `sha1p`, `sha1m`, `sha1h`,
    /// `sha1su0`, `sha1su1`: four rounds per instruction; every Apple
    /// M-series, AWS Graviton, Ampere, Cortex-A53 and later core with the
    /// Cryptographic Extension). One message: one instruction stream, a,
    /// b, c, d in one vector register and e in a scalar one. `digest_many`:
    /// three messages at a time (two for a batch of two) with their
    /// instruction streams interleaved, in the manner of ISA-L's aarch64
    /// multi-buffer code; a lone last message finishes as a single stream.
    /// Needs aarch64 with `sha2` (Linux hwcaps; always present on macOS)
    /// and the `arm-sha` cargo feature (on by default).
    ArmSha,
    /// Safe, fully unrolled Rust; runs everywhere. One message: scalar
    /// rounds. `digest_many`: the messages one after another.
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
            Backend::ArmSha => "aarch64 with sha2 (the SHA-1 and SHA-256 instructions) and the `arm-sha` cargo feature",
            Backend::Portable => "",
        }
    }

    #[inline]
    fn is_supported(self) -> bool {
        match self {
            #[cfg(all(target_arch = "x86_64", feature = "shani"))]
            Backend::ShaNi => cpuid_shani::get(),
            #[cfg(not(all(target_arch = "x86_64", feature = "shani")))]
            Backend::ShaNi => false,
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            Backend::Avx2 => cpuid_avx2::get(),
            #[cfg(not(all(target_arch = "x86_64", feature = "avx2")))]
            Backend::Avx2 => false,
            #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
            Backend::ArmSha => cpu_arm_sha::get(),
            #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha")))]
            Backend::ArmSha => false,
            Backend::Portable => true,
        }
    }

    #[inline]
    fn detect() -> Self {
        DETECTED.get()
    }
}

hash_core::backend_api!(Backend);

/// The panic for a backend that reached dispatch without being supported
/// (only possible through `Algorithm::compress` called directly).
#[cold]
#[inline(never)]
#[track_caller]
fn unsupported(backend: Backend) -> ! {
    hash_core::unsupported("SHA-1", backend)
}

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.1.2).
///
/// # Panics
/// If this CPU does not support `backend`: this function is reachable from
/// safe code with any backend value, so it checks before running code built
/// for CPU features the CPU may lack.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 5], blocks: &[Block<U64>]) {
    match backend {
        #[cfg(all(target_arch = "x86_64", feature = "shani"))]
        Backend::ShaNi => {
            if !cpuid_shani::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_shani::get()` just confirmed the `sha`, `sse2`,
            // `ssse3` and `sse4.1` features that `x86_shani::compress` is
            // compiled with.
            unsafe { x86_shani::compress(state, blocks) }
        }
        #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
        Backend::Avx2 => {
            if !cpuid_avx2::get() {
                unsupported(backend);
            }
            // SAFETY: `cpuid_avx2::get()` just confirmed the `avx2`, `bmi1`
            // and `bmi2` features that `x86_avx2::compress` is compiled with.
            unsafe { x86_avx2::compress(state, blocks) }
        }
        #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
        Backend::ArmSha => {
            if !cpu_arm_sha::get() {
                unsupported(backend);
            }
            // SAFETY: `cpu_arm_sha::get()` just confirmed the `sha2` feature
            // that `aarch64_sha::compress` is compiled with.
            unsafe { aarch64_sha::compress(state, blocks) }
        }
        Backend::Portable => portable::compress(state, blocks),
        #[allow(unreachable_patterns)]
        _ => unsupported(backend),
    }
}

/// Whether `backend` builds the final padded block from registers (see
/// `hash_core::FixedAlgorithm::compress_final`): the x86 backends do.
#[inline(always)]
pub(crate) fn has_compress_final(backend: Backend) -> bool {
    cfg!(target_arch = "x86_64") && !matches!(backend, Backend::Portable)
}

/// Compress the final padded block of a `total`-byte message whose last
/// `tail.len()` bytes fit in one block with the padding (FIPS 180-4
/// §5.1.1). The x86 backends get the block as written by [`final_block`];
/// the portable one pads in a buffer.
///
/// # Panics
/// If this CPU (or this build) does not support `backend`, or `tail` and
/// the padding do not fit in one block.
#[inline]
pub(crate) fn compress_final(backend: Backend, state: &mut [u32; 5], tail: &[u8], total: u128) {
    #[cfg(target_arch = "x86_64")]
    if has_compress_final(backend) {
        // SAFETY: SSE2, which `final_block` enables, is part of x86-64.
        let block: Block<U64> = unsafe { final_block(tail, total) }.into();
        return compress(backend, state, core::slice::from_ref(&block));
    }
    hash_core::compress_final_buffered::<Sha1>(backend, state, tail, total);
}

/// The final padded block (`hash_core::padded_rows`) written with one
/// 16-byte store per row. The backends read the block with 16-byte loads,
/// which the store buffer forwards from stores of the same 16 bytes; from
/// the byte-wise stores of padding in a buffer it cannot, and a one-block
/// message's rounds would wait for those to retire (58 against 39 ns for
/// 16 bytes of SHA-256 with SHA-NI on an Intel Xeon, Sapphire Rapids class).
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

/// Hash each of `inputs` into the matching slot of `outputs` with
/// `backend`'s batch engine.
#[inline]
pub(crate) fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 20]]) {
    hash_core::check_batch(inputs.len(), outputs.len());
    match backend {
        #[cfg(all(target_arch = "x86_64", feature = "shani"))]
        Backend::ShaNi => {
            if !cpuid_shani::get() {
                unsupported(backend);
            }
            hash_core::multi::digest_many_lanes::<Sha1, SHANI_STREAMS>(
                backend,
                inputs,
                outputs,
                SHANI_MIN_STREAMS,
                |states, data| {
                    // SAFETY: `cpuid_shani::get()` confirmed the features of
                    // `x86_shani::compress_lanes` above, before the scheduler
                    // started.
                    unsafe { x86_shani::compress_lanes(states, data) }
                },
            );
        }
        #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
        Backend::Avx2 => {
            if !cpuid_avx2::get() {
                unsupported(backend);
            }
            hash_core::multi::digest_many_lanes::<Sha1, 8>(backend, inputs, outputs, AVX2_MIN_LANES, |states, data| {
                // SAFETY: `cpuid_avx2::get()` confirmed the `avx2` feature
                // of `x86_avx2::compress_lanes` above, before the scheduler
                // started.
                unsafe { x86_avx2::compress_lanes(states, data) }
            });
        }
        #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
        Backend::ArmSha => {
            if !cpu_arm_sha::get() {
                unsupported(backend);
            }
            if inputs.len() == 2 {
                hash_core::multi::digest_many_lanes::<Sha1, 2>(backend, inputs, outputs, 2, |states, data| {
                    // SAFETY: `cpu_arm_sha::get()` confirmed the `sha2`
                    // feature of `aarch64_sha::compress_lanes` above, before
                    // the scheduler started.
                    unsafe { aarch64_sha::compress_lanes(states, data) }
                });
            } else {
                hash_core::multi::digest_many_lanes::<Sha1, ARM_SHA_STREAMS>(
                    backend,
                    inputs,
                    outputs,
                    ARM_SHA_MIN_STREAMS,
                    |states, data| {
                        // SAFETY: `cpu_arm_sha::get()` confirmed the `sha2`
                        // feature of `aarch64_sha::compress_lanes` above,
                        // before the scheduler started.
                        unsafe { aarch64_sha::compress_lanes(states, data) }
                    },
                );
            }
        }
        _ => {
            for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
                *output = hash_core::Hasher::<Sha1>::digest_with_backend(backend, input);
            }
        }
    }
}

/// Interleaved streams of the SHA-NI batch engine. Measured on the
/// development machine (AMD EPYC, 64 messages of 8 KiB, throughput over
/// the single stream): 2 streams 1.75x, 3 2.0x, 4 2.4x, 5 2.6x, 6 2.55x,
/// 8 2.65x (spilling registers); 5 it is. A 5-stream step then costs about
/// two single-stream blocks, so it pays from two busy streams on.
#[cfg(all(target_arch = "x86_64", feature = "shani"))]
const SHANI_STREAMS: usize = 5;
/// The fewest busy streams for which the SHA-NI batch engine runs.
#[cfg(all(target_arch = "x86_64", feature = "shani"))]
const SHANI_MIN_STREAMS: usize = 2;

/// The fewest busy lanes for which the 8-lane AVX2 engine beats the
/// single-stream AVX2 backend: measured on the development machine, one
/// 8-lane step costs as much as about 3.2 single-stream blocks.
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
const AVX2_MIN_LANES: usize = 4;

/// Interleaved streams of the ARMv8 batch engine. No aarch64 hardware was
/// at hand to measure; this follows ISA-L's aarch64 multi-buffer SHA-1,
/// which runs up to three crypto-extension streams: one stream is bound by
/// the latency of its `sha1c`/`sha1p`/`sha1m` chain (20 dependent
/// instructions per block), and three streams fit the 32 vector registers
/// without spilling.
#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
const ARM_SHA_STREAMS: usize = 3;
/// The fewest busy streams for which the ARMv8 batch engine runs; a lone
/// last message finishes as a single stream.
#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
const ARM_SHA_MIN_STREAMS: usize = 2;
