//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].

use hash_core::typenum::U64;
use hash_core::{BackendKind, Block};

use crate::algorithm::Sha1;

hash_core::backend_table! {
    at crate::backend, panics "SHA-1";
    checks {
        // The 16-lane batch engine.
        avx512 if (all(target_arch = "x86_64", feature = "avx512")) cpu [features "avx512f", "avx512bw"] in x86_avx512;
    }
    /// A SHA-1 compression backend.
    ///
    /// [`Backend::detect`] picks the best one for this CPU; every hasher's
    /// `with_backend` forces one (it panics, naming the missing CPU features, if
    /// this CPU lacks them; `try_with_backend` returns the error instead).
    ///
    /// The value selects the code for one message; `digest_many` batches run
    /// on the engine that [`Backend::batch_engine`] names, chosen once per
    /// process among the engines this CPU has:
    ///
    /// | backend | CPU | batch engine |
    /// |---|---|---|
    /// | `sha-ni-avx512`, `sha-ni` | AMD (and Hygon) | 5 interleaved SHA-NI streams |
    /// | `sha-ni-avx512`, `sha-ni` | other vendors, with AVX-512F/BW | 16 AVX-512 lanes |
    /// | `sha-ni` | other vendors, with AVX2 only | 8 AVX2 lanes |
    /// | `avx2` | with AVX-512F/BW | 16 AVX-512 lanes |
    /// | `avx2` | without | 8 AVX2 lanes |
    /// | `portable` | any | one by one |
    ///
    /// Why: on AMD Zen cores `sha1rnds4` is latency-bound, so five interleaved
    /// streams run 2.6 times as fast as one (AMD EPYC, Zen 5); on Intel cores
    /// it is throughput-bound, and interleaving gained nothing (1.00x on an
    /// Intel Xeon, Sapphire Rapids class) while 8 AVX2 lanes ran 1.81 times
    /// and 16 AVX-512 lanes about 3 times as fast as one SHA-NI stream. In
    /// every case the last few messages of a batch, once too few lanes would
    /// be busy, finish on the single-stream code of the backend itself.
    pub enum Backend {
        /// The x86 SHA extensions with the message schedule on the AVX-512VL
        /// vector ALUs, picked by `detect()` off AMD (it is timed on Intel
        /// only; AMD keeps `sha-ni`). One message: `sha1rnds4` is the only instruction on
        /// the SHA unit; the schedule (FIPS 180-4 §6.1.2) and each group's `e`
        /// are computed with `vprold`, `vpternlogd` and masked `vpaddd` on
        /// `xmm` registers (1.23 times the `sha-ni` throughput on an Intel
        /// Xeon, Sapphire Rapids class, whose SHA unit `sha1msg2` keeps busy as
        /// long as a `sha1rnds4`). `digest_many`: as `sha-ni` (see the table
        /// above). Needs x86-64 with `sha`, `sse2`, `ssse3`, `sse4.1`,
        /// `avx512f`, `avx512vl`, and the `shani` and `avx512` cargo features
        /// (on by default).
        ShaNiAvx512 = "sha-ni-avx512" if (all(target_arch = "x86_64", feature = "shani", feature = "avx512"))
            cpu [features "sha", "sse2", "ssse3", "sse4.1", "avx512f", "avx512vl"] requires [x86 "shani" "avx512"];
        /// The x86 SHA extensions (`sha1rnds4` and friends: four rounds per
        /// instruction). One message: one instruction stream, bound by the
        /// latency of `sha1rnds4`. `digest_many`: see the table above; its
        /// own engine runs five messages at a time with their instruction
        /// streams interleaved, which keeps the SHA unit busy while each stream
        /// waits on its last round. Needs x86-64 with `sha`, `sse2`, `ssse3`,
        /// `sse4.1`, and the `shani` cargo feature (on by default).
        ShaNi = sha_ni in x86_shani;
        /// AVX2 and BMI. One message: the message schedule (W + K) computed
        /// with SIMD two blocks at a time ahead of the rounds, which run on
        /// scalar registers with `rorx` and `andn`. `digest_many`: eight
        /// messages at once, one in each 32-bit lane of the `ymm` registers
        /// (about 2.5 times the single-stream throughput), or sixteen in `zmm`
        /// lanes where the CPU has AVX-512 (see the table above). Needs x86-64
        /// with `avx2`, `bmi1`, `bmi2`, and the `avx2` cargo feature (on by
        /// default).
        Avx2 = avx2 in x86_avx2;
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
        // `sha2` covers FEAT_SHA1 and FEAT_SHA256 in Rust and LLVM; cpufeatures
        // tests Linux HWCAP_SHA2 (macOS: always present). The Arm architecture
        // requires FEAT_SHA1 wherever FEAT_SHA256 is implemented
        // (ID_AA64ISAR0_EL1.SHA2 is nonzero only if .SHA1 is).
        ArmSha = arm_sha "the SHA-1 and SHA-256 instructions" in aarch64_sha;
        /// Safe, fully unrolled Rust; runs everywhere. One message: scalar
        /// rounds. `digest_many`: the messages one after another.
        Portable = portable in portable;
    }
    choose: crate::backend::choose;
    batch_engine: crate::backend::batch_engine_name;
}

/// The first supported backend of [`Backend::ALL`], except that AMD (and
/// Hygon) CPUs keep `sha-ni` for single messages: `sha-ni-avx512` was timed
/// only on an Intel Xeon, and on AMD Zen cores `sha1rnds4` is
/// latency-bound, where moving the schedule off the SHA unit is not known
/// to gain (`with_backend(Backend::ShaNiAvx512)` still forces it).
fn choose() -> Backend {
    let amd = hash_core::cpu::vendor() == hash_core::cpu::Vendor::Amd;
    let keep = |b: &Backend| b.is_supported() && !(amd && *b == Backend::ShaNiAvx512);
    Backend::ALL.iter().copied().find(keep).unwrap_or(Backend::Portable)
}

/// The engine a batch of `messages` long messages runs on (see
/// [`batch_engine`]).
fn batch_engine_name(backend: Backend, messages: usize) -> &'static str {
    batch_engine(backend, messages, usize::MAX).name()
}

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.1.2).
///
/// # Panics
/// If this CPU does not support `backend`: this function is reachable from
/// safe code with any backend value, so it checks before running code built
/// for CPU features the CPU may lack.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 5], blocks: &[Block<U64>]) {
    backend_dispatch!(backend;
        ShaNiAvx512 => unsafe { x86_shani::compress_vl(state, blocks) },
        ShaNi | Avx2 | ArmSha => unsafe_in_file { compress(state, blocks) },
        Portable => safe_in_file { compress(state, blocks) },
    )
}

/// Whether `backend` takes the final padded block as
/// `hash_core::arch::x86::final_block` writes it (one 16-byte store per
/// row; see `hash_core::arch::compress_final_stored`, which the algorithm's
/// `compress_final` calls): the x86 backends do.
#[inline(always)]
pub(crate) fn has_compress_final(backend: Backend) -> bool {
    cfg!(target_arch = "x86_64") && matches!(backend, Backend::ShaNiAvx512 | Backend::ShaNi | Backend::Avx2)
}

/// A multi-buffer engine behind `digest_many`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    /// Interleaved SHA-NI streams (`x86_shani`).
    ShaNiStreams,
    /// Eight AVX2 lanes (`x86_avx2`).
    Avx2Lanes,
    /// Sixteen AVX-512 lanes (`x86_avx512`).
    Avx512Lanes,
    /// Three interleaved ARMv8 SHA-1 streams (`aarch64_sha`; two for a
    /// batch of two).
    ArmShaStreams,
    /// One message after another with the single-stream code.
    OneByOne,
}

impl Engine {
    const ALL: &'static [Engine] =
        &[Engine::ShaNiStreams, Engine::Avx2Lanes, Engine::Avx512Lanes, Engine::ArmShaStreams, Engine::OneByOne];

    fn name(self) -> &'static str {
        match self {
            Engine::ShaNiStreams => "sha-ni 5 streams",
            Engine::Avx2Lanes => "avx2 8 lanes",
            Engine::Avx512Lanes => "avx512 16 lanes",
            Engine::ArmShaStreams => "arm-sha 3 streams",
            Engine::OneByOne => "one by one",
        }
    }

    /// Whether this build and CPU can run the engine.
    fn is_supported(self) -> bool {
        match self {
            Engine::ShaNiStreams => Backend::ShaNi.is_supported(),
            Engine::Avx2Lanes => Backend::Avx2.is_supported(),
            Engine::Avx512Lanes => backend_checked!(supported avx512),
            Engine::ArmShaStreams => Backend::ArmSha.is_supported(),
            Engine::OneByOne => true,
        }
    }

    /// The fewest busy lanes for which one step of the engine beats
    /// finishing the messages one at a time on `single`. Measured on an
    /// Intel Xeon (Sapphire Rapids class): one 16-lane AVX-512 step costs
    /// about as much as 5 SHA-NI blocks or 3 AVX2 blocks, one 8-lane AVX2
    /// step about 4.4 SHA-NI blocks; a `sha-ni-avx512` block takes 1/1.23
    /// of a SHA-NI block there, so those steps cost about 6.2 and 5.4 of
    /// its blocks. On the AMD development machine a 5-stream SHA-NI step
    /// costs about two single-stream blocks, and an 8-lane step 3.2 AVX2
    /// blocks.
    fn min_active(self, single: Backend) -> usize {
        match (self, single) {
            (Engine::ShaNiStreams, _) => 2,
            (Engine::ArmShaStreams, _) => 2,
            (Engine::Avx2Lanes, Backend::ShaNiAvx512) => 6,
            (Engine::Avx2Lanes, Backend::ShaNi) => 5,
            (Engine::Avx2Lanes, _) => 4,
            (Engine::Avx512Lanes, Backend::ShaNiAvx512) => 7,
            (Engine::Avx512Lanes, Backend::ShaNi) => 6,
            (Engine::Avx512Lanes, _) => 4,
            (Engine::OneByOne, _) => usize::MAX,
        }
    }
}

/// The engine `backend`'s batches use on this CPU (see the table in
/// [`Backend`]'s docs), decided once per process.
fn cpu_engine(backend: Backend) -> Engine {
    static CHOSEN: hash_core::cpu::EngineCache<{ <Backend as BackendKind>::ALL.len() }> =
        hash_core::cpu::EngineCache::new();
    let slot = Backend::ALL.iter().position(|&b| b == backend).unwrap_or(0);
    CHOSEN.get(slot, Engine::ALL, || {
        let amd = hash_core::cpu::vendor() == hash_core::cpu::Vendor::Amd;
        let prefer: &[Engine] = match backend {
            Backend::ShaNi | Backend::ShaNiAvx512 if amd => &[Engine::ShaNiStreams],
            Backend::ShaNi | Backend::ShaNiAvx512 => &[Engine::Avx512Lanes, Engine::Avx2Lanes, Engine::ShaNiStreams],
            Backend::Avx2 => &[Engine::Avx512Lanes, Engine::Avx2Lanes],
            Backend::ArmSha => &[Engine::ArmShaStreams],
            Backend::Portable => &[],
        };
        prefer.iter().copied().find(|e| e.is_supported()).unwrap_or(Engine::OneByOne)
    })
}

/// The engine a batch of `messages` of `mean` bytes on average runs on:
/// [`cpu_engine`], unless the batch is too small for it ever to run (then
/// one by one).
///
/// Messages of 64 to 119 bytes are one whole block and a one-block padded
/// tail: two steps of one block each, whose fixed costs (transposes, the
/// tails padded in memory) weigh most. With 7 of the 16 AVX-512 lanes busy
/// they ran at 0.91-0.93x of `sha-ni-avx512` one by one (8 lanes:
/// 1.03-1.04x; 7 lanes on 60- or 120-byte messages: 1.31x, 1.02x; Intel
/// Xeon, Sapphire Rapids class), so such batches need one more message to
/// leave `sha-ni-avx512`, and likewise `sha-ni` (not measured; its
/// threshold is already one message lower, its single stream slower).
fn batch_engine(backend: Backend, messages: usize, mean: usize) -> Engine {
    let engine = cpu_engine(backend);
    let two_single_steps = (64..120).contains(&mean)
        && engine == Engine::Avx512Lanes
        && matches!(backend, Backend::ShaNiAvx512 | Backend::ShaNi);
    let fewest = engine.min_active(backend) + usize::from(two_single_steps);
    if messages >= fewest { engine } else { Engine::OneByOne }
}

/// The AVX-512VL message schedule step of `sha-ni-avx512`, for the
/// collision detection's rounds (`dc::x86`).
#[cfg(all(target_arch = "x86_64", feature = "shani", feature = "avx512"))]
pub(crate) use x86_shani::{plus_e, schedule_vl};

/// The `avx2` backend's pipeline keeping what the collision detection
/// needs (`dc::x86::process_avx2`).
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
pub(crate) use x86_avx2::{Kept, compress_pairs_kept};

/// Whether a batch of `messages` of `mean` bytes on `backend` runs on the
/// 16 AVX-512 lanes here (then this CPU has avx512f and avx512bw): where
/// `Sha1Dc::digest_many` runs its batches on its own 16-lane engine.
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
pub(crate) fn batch_on_avx512_lanes(backend: Backend, messages: usize, mean: usize) -> bool {
    backend.is_supported() && batch_engine(backend, messages, mean) == Engine::Avx512Lanes
}

/// The fewest busy lanes for which a step of the 16 AVX-512 lanes beats
/// finishing the messages one at a time on `single`.
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
pub(crate) fn avx512_lanes_min_active(single: Backend) -> usize {
    Engine::Avx512Lanes.min_active(single)
}

/// Hash each of `inputs` into the matching slot of `outputs` with
/// `backend`'s batch engine (see [`Backend`]).
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
#[inline]
pub(crate) fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 20]]) {
    // Every engine ends in a `hash_core::multi` function, which checks
    // that the slices pair up.
    if !backend.is_supported() {
        unsupported(backend)
    }
    let engine = batch_engine(backend, inputs.len(), hash_core::multi::mean_len(inputs));
    run_engine(engine, backend, inputs, outputs);
}

/// Run `engine`, finishing stragglers with the single-stream `backend`,
/// which the caller has checked.
///
/// # Panics
/// If this CPU (or this build) does not support `engine`.
pub(crate) fn run_engine(engine: Engine, backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 20]]) {
    match engine {
        Engine::ShaNiStreams => backend_checked!(ShaNi, else engine_missing(engine), unsafe {
            hash_core::multi::digest_many_lanes::<Sha1, SHANI_STREAMS>(
                backend,
                inputs,
                outputs,
                engine.min_active(backend),
                |states, data| x86_shani::compress_lanes(states, data),
            )
        }),
        Engine::Avx2Lanes => backend_checked!(Avx2, else engine_missing(engine), unsafe {
            hash_core::multi::digest_many_lanes::<Sha1, 8>(
                backend,
                inputs,
                outputs,
                engine.min_active(backend),
                |states, data| x86_avx2::compress_lanes(states, data),
            )
        }),
        Engine::Avx512Lanes => backend_checked!(avx512, else engine_missing(engine), unsafe {
            hash_core::multi::digest_many_lanes::<Sha1, { x86_avx512::LANES }>(
                backend,
                inputs,
                outputs,
                engine.min_active(backend),
                |states, data| x86_avx512::compress_lanes(states, data),
            )
        }),
        Engine::ArmShaStreams => backend_checked!(ArmSha, else engine_missing(engine), unsafe {
            if inputs.len() == 2 {
                hash_core::multi::digest_many_lanes::<Sha1, 2>(backend, inputs, outputs, 2, |states, data| {
                    aarch64_sha::compress_lanes(states, data)
                })
            } else {
                hash_core::multi::digest_many_lanes::<Sha1, ARM_SHA_STREAMS>(
                    backend,
                    inputs,
                    outputs,
                    ARM_SHA_MIN_STREAMS,
                    |states, data| aarch64_sha::compress_lanes(states, data),
                )
            }
        }),
        Engine::OneByOne => hash_core::multi::digest_one_by_one::<Sha1>(backend, inputs, outputs),
    }
}

#[cold]
#[track_caller]
fn engine_missing(engine: Engine) -> ! {
    panic!("SHA-1: the {} batch engine is not supported on this CPU or build", engine.name())
}

/// Interleaved streams of the SHA-NI batch engine. Measured on the
/// development machine (AMD EPYC, 64 messages of 8 KiB, throughput over
/// the single stream): 2 streams 1.75x, 3 2.0x, 4 2.4x, 5 2.6x, 6 2.55x,
/// 8 2.65x (spilling registers); 5 it is.
#[cfg(all(target_arch = "x86_64", feature = "shani"))]
const SHANI_STREAMS: usize = 5;

/// Interleaved streams of the ARMv8 batch engine. No aarch64 hardware was
/// at hand to measure; this follows ISA-L's aarch64 multi-buffer SHA-1,
/// which runs up to three crypto-extension streams: one stream is bound by
/// the latency of its `sha1c`/`sha1p`/`sha1m` chain (20 dependent
/// instructions per block), and three streams fit the 32 vector registers
/// without spilling. The same on every core: cycles per block modelled by
/// `cargo xtask mca` (`llvm-mca` of LLVM 19, 2 / 3 streams) are Cortex-A72
/// 78.1 / 76.4, Neoverse N1 72.1 / 72.4, V1 56 / 56, V2 72 / 72, Apple M1
/// and M4 75.1 / 72.7: three is best or within 0.4% of two on each, so no
/// per-core choice (one stream: 143 / 102 / 102 / 102 / 142).
#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
const ARM_SHA_STREAMS: usize = 3;
/// The fewest busy streams for which the ARMv8 batch engine runs; a lone
/// last message finishes as a single stream.
#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
const ARM_SHA_MIN_STREAMS: usize = 2;

#[cfg(test)]
mod tests {
    use super::{Backend, Engine, run_engine};
    use crate::algorithm::Sha1;
    use hash_core::testing::{check_engine, say};
    use std::format;

    /// Every batch engine this CPU runs, whichever one `digest_many` picks
    /// here, with every single-stream backend to finish on, against
    /// one-by-one portable hashing.
    #[test]
    fn every_batch_engine_matches_portable() {
        const BATCHES: &[usize] = &[1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 70];
        for &engine in Engine::ALL {
            for &single in Backend::all() {
                let name = format!("{} (single {single})", engine.name());
                let supported = engine.is_supported() && single.is_supported();
                check_engine::<Sha1>("sha1", &name, supported, 0x5eed_05a1, BATCHES, |i, o| {
                    run_engine(engine, single, i, o)
                });
            }
        }
    }

    #[test]
    fn batch_engine_is_supported_and_named() {
        for b in Backend::available() {
            let engine = super::cpu_engine(b);
            assert!(engine.is_supported(), "{b}: {engine:?}");
            say(format_args!("sha1: [{b}] batches of 64 run on {}", b.batch_engine(64)));
            assert_eq!(b.batch_engine(1), "one by one", "{b}");
        }
        assert_eq!(Backend::Portable.batch_engine(64), "one by one");
    }

    /// Messages of one whole block and a one-block tail need one more busy
    /// lane to leave a SHA-NI backend for the AVX-512 lanes (see
    /// `batch_engine`), on whichever CPU runs this.
    #[test]
    fn two_step_messages_need_one_more_lane() {
        use super::batch_engine;
        for b in [Backend::ShaNiAvx512, Backend::ShaNi] {
            let engine = super::cpu_engine(b);
            if !b.is_supported() || engine != Engine::Avx512Lanes {
                say(format_args!(
                    "sha1: [{b}] SKIPPED the two-step rule: its batches do not use the AVX-512 lanes here"
                ));
                continue;
            }
            let fewest = engine.min_active(b);
            assert_eq!(batch_engine(b, fewest, 56), engine, "{b}");
            assert_eq!(batch_engine(b, fewest, 64), Engine::OneByOne, "{b}");
            assert_eq!(batch_engine(b, fewest, 119), Engine::OneByOne, "{b}");
            assert_eq!(batch_engine(b, fewest + 1, 100), engine, "{b}");
            assert_eq!(batch_engine(b, fewest, 120), engine, "{b}");
        }
    }
}
