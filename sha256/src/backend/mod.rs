//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! Every entry point here is reachable from safe public code with any
//! `Backend` value (`<algorithm::Sha256 as hash_core::Algorithm>::compress`
//! does not go through `with_backend`'s check), so each one checks, with
//! `cpufeatures`' cached flag, that the CPU has the backend's features
//! before it calls `#[target_feature]` code, and panics otherwise.

use hash_core::Block;
use hash_core::typenum::U64;

hash_core::backend_table! {
    at crate::backend, panics "sha256";
    checks {
        // The 16-lane batch engine.
        avx512 if (all(target_arch = "x86_64", feature = "avx512")) cpu [features "avx512f", "avx512bw"] in x86_avx512;
    }
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
        ShaNi = sha_ni in x86_shani;
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
        Avx2 = avx2 in x86_avx2;
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
        // `sha2` is FEAT_SHA256 (Linux HWCAP_SHA2, on macOS always present).
        // The Arm architecture requires FEAT_SHA1 wherever FEAT_SHA256 is
        // implemented (ID_AA64ISAR0_EL1.SHA2 is nonzero only if .SHA1 is).
        ArmSha = arm_sha "the SHA-256 instructions" in aarch64_sha;
        /// Safe, fully unrolled Rust; runs everywhere. `digest_many` hashes the
        /// messages one after another.
        Portable = portable in portable;
    }
    batch_engine: crate::backend::batch_engine;
}

/// The engine a batch of `messages` runs on with `backend`
/// ([`Backend::batch_engine`]).
fn batch_engine(backend: Backend, messages: usize) -> &'static str {
    if messages < 2 || !backend.is_supported() {
        return "one by one";
    }
    // For long messages: batches of short ones may run one by one
    // instead (`engine`).
    match engine(backend, messages, usize::MAX) {
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
        CHOSEN.get(0, &[2usize, 3], || {
            if cfg!(target_os = "macos") { 3 } else { arm::streams(hash_core::arch::aarch64::midr()) }
        })
    }
    #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha")))]
    {
        3
    }
}

/// The per-core rule of [`arm_streams`].
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

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.2.2).
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 8], blocks: &[Block<U64>]) {
    backend_dispatch!(backend;
        ShaNi | Avx2 | ArmSha => unsafe_in_file { compress(state, blocks) },
        Portable => safe_in_file { compress(state, blocks) },
    )
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
/// written by `hash_core::arch::x86::final_block`, with the portable backend in a buffer.
///
/// # Panics
/// If this CPU (or this build) does not support `backend`, or `tail` and
/// the padding do not fit in one block (SHA-NI), or `tail` is a block long.
#[inline]
pub(crate) fn compress_final<A>(backend: Backend, state: &mut [u32; 8], tail: &[u8], total: u128)
where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    backend_dispatch!(backend;
        ShaNi => unsafe { x86_shani::compress_final(state, tail, total) },
        // The block as `hash_core::arch::x86::final_block` writes it (one
        // 16-byte store per row, which the AVX2 code's 16-byte loads
        // forward from).
        Avx2 => safe { hash_core::arch::compress_final_stored::<A, 4, 64>(backend, state, tail, total) },
        ArmSha | Portable => safe { hash_core::compress_final_buffered::<A>(backend, state, tail, total) },
    )
}

/// A multi-buffer engine behind `digest_many`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    /// Interleaved SHA-NI streams (`x86_shani`).
    ShaNiStreams,
    /// Eight AVX2 lanes (`x86_avx2`).
    Avx2Lanes,
    /// Sixteen AVX-512 lanes (`x86_avx512`), rounds shaped for latency
    /// (AMD).
    Avx512Lanes,
    /// Sixteen AVX-512 lanes, rounds in the fewest instructions (Intel and
    /// other vendors).
    Avx512LanesLean,
    /// Interleaved ARMv8 SHA-256 streams (`aarch64_sha`).
    ArmShaStreams,
    /// One message after another with the single-stream code.
    OneByOne,
}

impl Engine {
    /// Every engine, in the order of the variants.
    #[cfg(test)]
    const ALL: &'static [Engine] = &[
        Engine::ShaNiStreams,
        Engine::Avx2Lanes,
        Engine::Avx512Lanes,
        Engine::Avx512LanesLean,
        Engine::ArmShaStreams,
        Engine::OneByOne,
    ];

    /// Whether this build and CPU can run the engine.
    #[cfg(test)]
    fn is_supported(self) -> bool {
        match self {
            Engine::ShaNiStreams => Backend::ShaNi.is_supported(),
            Engine::Avx2Lanes => Backend::Avx2.is_supported(),
            Engine::Avx512Lanes | Engine::Avx512LanesLean => backend_checked!(supported avx512),
            Engine::ArmShaStreams => Backend::ArmSha.is_supported(),
            Engine::OneByOne => true,
        }
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
        Backend::ShaNi if messages >= lanes_from && backend_checked!(supported avx512) => avx512_engine(),
        Backend::Avx2 if messages >= 4 && backend_checked!(supported avx512) => avx512_engine(),
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

/// `hash_pairs` for SHA-256 and SHA-224: `out[i]` = the hash of
/// `nodes[2i] || nodes[2i + 1]`, on pair engines whose second block is a
/// constant padding block (its schedule precomputed, [`pair_padding`]):
/// the 16 AVX-512 lanes (`x86_avx512::hash_pairs`) where `digest_many`
/// would pick them for the level, for whole groups of sixteen (without
/// AVX-512, SHA-256's pairs on the 8 AVX2 lanes where `digest_many` would
/// run those, `x86_avx2::hash_pairs64`); the rest, on the SHA-NI backend,
/// two SHA-NI streams (`x86_shani::hash_pairs`);
/// on `arm-sha`, two or three streams of the SHA-256 instructions
/// (`aarch64_sha::hash_pairs`). Everything else is gathered for
/// `digest_many`'s engines (`hash_core::hash_pairs_gathered`, which checks
/// the lengths and the backend).
///
/// # Panics
/// If `nodes.len() != 2 * out.len()`, or this CPU (or this build) does not
/// support `backend`.
pub(crate) fn hash_pairs<A, const N: usize>(backend: Backend, nodes: &[[u8; N]], out: &mut [[u8; N]])
where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend, Output = [u8; N]>,
{
    // N = 32: SHA-256; 28: SHA-224.
    #[cfg(target_arch = "x86_64")]
    let (nodes, out) = if matches!(backend, Backend::ShaNi | Backend::Avx2) {
        hash_core::assert_pairs::<A>(nodes.len(), out.len());
        if !backend.is_supported() {
            unsupported(backend)
        }
        // Where `digest_many` would run this level's messages on the 16
        // AVX-512 lanes, whole groups of sixteen pairs run on the 16-lane
        // pair engine. Measured on an Intel Xeon (model 167, Ice Lake
        // class), 1024 pairs (`cargo xtask bench --algo merkle`): SHA-NI
        // streams 57-61 ns a pair, `digest_many`'s 16 lanes 43-45 ns, the
        // pair engine 27 ns. The rest (fewer than sixteen) as below.
        let done = match engine(backend, out.len(), 2 * N) {
            Engine::Avx512Lanes => backend_checked!(avx512, else avx512_missing(), unsafe {
                x86_avx512::hash_pairs::<false, N>(&A::INIT, nodes, out)
            }),
            Engine::Avx512LanesLean => backend_checked!(avx512, else avx512_missing(), unsafe {
                x86_avx512::hash_pairs::<true, N>(&A::INIT, nodes, out)
            }),
            // Without AVX-512, SHA-256's pairs eight at a time on the AVX2
            // lanes, the padding block's W + K again a constant.
            #[cfg(feature = "avx2")]
            Engine::Avx2Lanes if N == 32 => backend_checked!(Avx2, else unsupported(Backend::Avx2), unsafe {
                let pairs = nodes.as_flattened().as_chunks::<64>().0;
                x86_avx2::hash_pairs64(&A::INIT, pairs, out.as_flattened_mut().as_chunks_mut::<32>().0)
            }),
            _ => 0,
        };
        let (nodes, out) = (&nodes[2 * done..], &mut out[done..]);
        #[cfg(feature = "shani")]
        if backend == Backend::ShaNi {
            // The rest on the SHA-NI pair engine.
            backend_checked!(ShaNi, else unsupported(Backend::ShaNi), unsafe {
                x86_shani::hash_pairs::<N>(&A::INIT, nodes, out)
            });
            return;
        }
        (nodes, out)
    } else {
        (nodes, out)
    };
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
    if backend == Backend::ArmSha {
        // Interleaved pair streams.
        hash_core::assert_pairs::<A>(nodes.len(), out.len());
        backend_checked!(ArmSha, else unsupported(Backend::ArmSha), unsafe {
            aarch64_sha::hash_pairs::<N>(&A::INIT, nodes, out, arm_streams())
        });
        return;
    }
    hash_core::hash_pairs_gathered::<A>(backend, nodes, out);
}

/// The digest of a final state: its words big-endian, the first `N` bytes
/// (FIPS 180-4 §6.2.2 step 4; SHA-224 keeps seven words, §6.3). What
/// `FixedAlgorithm::output` gives, for the engines that write digests
/// themselves.
#[inline]
pub(crate) fn digest_bytes<const N: usize>(state: &[u32; 8], out: &mut [u8; N]) {
    for (bytes, word) in out.chunks_mut(4).zip(state) {
        bytes.copy_from_slice(&word.to_be_bytes()[..bytes.len()]);
    }
}

/// `W + K` of the block that follows a pair's first block: the same for
/// every pair of `NODE`-byte nodes (FIPS 180-4 §5.1.1), 64-byte pairs of
/// SHA-256's nodes ([`crate::consts::PAD64_WK`]) or 56-byte pairs of SHA-224's
/// ([`crate::consts::PAD56_WK`]).
#[cfg(any(
    all(target_arch = "x86_64", any(feature = "shani", feature = "avx512")),
    all(target_arch = "aarch64", feature = "arm-sha")
))]
fn pair_padding<const NODE: usize>() -> &'static [u32; 64] {
    match NODE {
        32 => &crate::consts::PAD64_WK,
        28 => &crate::consts::PAD56_WK,
        _ => unreachable!("SHA-256's and SHA-224's pair engines take 32- and 28-byte nodes"),
    }
}

/// A pair's first block: the pair itself for 32-byte nodes; for SHA-224's
/// 28-byte nodes the 56 bytes, 0x80 and seven zeros, built in `buf`.
#[cfg(any(all(target_arch = "x86_64", feature = "shani"), all(target_arch = "aarch64", feature = "arm-sha")))]
fn pair_block<'a, const NODE: usize>(pair: &'a [[u8; NODE]], buf: &'a mut [u8; 64]) -> &'a [u8; 64] {
    let bytes = pair.as_flattened();
    if let Ok(block) = <&[u8; 64]>::try_from(bytes) {
        return block;
    }
    // 56 bytes: 48 as they are, and the last 16 (8 of the pair, 0x80,
    // seven zeros) as one 16-byte store, which the block's 16-byte loads
    // can take straight from the store buffer.
    let (head, tail) = bytes.split_at(48);
    buf[..48].copy_from_slice(head);
    let tail = u128::from(u64::from_le_bytes(tail.try_into().expect("a 56-byte pair"))) | 0x80 << 64;
    buf[48..].copy_from_slice(&tail.to_le_bytes());
    buf
}

/// The first blocks of `N` pairs (`group` holds their `2 * N` nodes), each
/// as [`pair_block`] gives it (built in `bufs` for SHA-224's nodes).
#[cfg(any(all(target_arch = "x86_64", feature = "shani"), all(target_arch = "aarch64", feature = "arm-sha")))]
fn pair_blocks<'a, const N: usize, const NODE: usize>(
    group: &'a [[u8; NODE]],
    bufs: &'a mut [[u8; 64]; N],
) -> [&'a [u8; 64]; N] {
    let mut blocks: [&[u8; 64]; N] = [&[0; 64]; N];
    for ((block, buf), pair) in blocks.iter_mut().zip(bufs.iter_mut()).zip(group.chunks_exact(2)) {
        *block = pair_block(pair, buf);
    }
    blocks
}

/// `hash_prefixed_many` for SHA-256 and SHA-224: `out[i]` = the hash of
/// `prefix || bodies[i]`. With a one-byte prefix and 64-byte bodies (RFC
/// 9162's nodes and 64-byte leaves; `MerkleTree` hashes both this way):
/// for SHA-256, where `digest_many` would run this many 65-byte messages
/// on the 16 AVX-512 lanes, each group of sixteen bodies that are all 64
/// bytes long runs on the 65-byte lanes engine
/// (`x86_avx512::hash_prefixed65`: bodies read in place, the second
/// block's fourteen zero words folded); on the SHA-NI backend the rest
/// (all of them without AVX-512) run two at a time on interleaved SHA-NI
/// streams, both blocks built in registers from the body read in place
/// (`x86_shani::hash_prefixed65`); on `arm-sha`, likewise on two or three
/// streams of the SHA-256 instructions (`aarch64_sha::hash_prefixed65`).
/// Every other body and batch is gathered for `digest_many`'s engines
/// (`hash_core::hash_prefixed_gathered`, which checks the lengths and the
/// backend).
///
/// # Panics
/// If `bodies.len() != out.len()`, or this CPU (or this build) does not
/// support `backend`.
pub(crate) fn hash_prefixed_many<A, const N: usize>(
    backend: Backend,
    prefix: &[u8],
    bodies: &[&[u8]],
    out: &mut [[u8; N]],
) where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend, Output = [u8; N]>,
{
    #[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx512")))]
    if let [p] = prefix
        && matches!(backend, Backend::ShaNi | Backend::Avx2)
    {
        hash_core::assert_prefixed::<A>(bodies.len(), out.len());
        if !backend.is_supported() {
            unsupported(backend)
        }
        #[cfg(feature = "avx512")]
        let (bodies, out) = {
            let done = if N == 32 {
                match engine(backend, bodies.len(), 65) {
                    Engine::Avx512Lanes => prefixed65_lanes::<A, N, false>(backend, *p, bodies, out),
                    Engine::Avx512LanesLean => prefixed65_lanes::<A, N, true>(backend, *p, bodies, out),
                    _ => 0,
                }
            } else {
                0
            };
            (&bodies[done..], &mut out[done..])
        };
        #[cfg(feature = "shani")]
        if backend == Backend::ShaNi {
            // The rest: 64-byte bodies two at a time on SHA-NI streams,
            // built in registers.
            prefixed_in_streams::<A, N>(backend, *p, bodies, out, 2, |whole, out| match (whole, out) {
                ([a, b], [x, y]) => backend_checked!(ShaNi, else unsupported(Backend::ShaNi), unsafe {
                    x86_shani::hash_prefixed65::<2, N>(&A::INIT, *p, [a, b], [x, y])
                }),
                ([a], [x]) => backend_checked!(ShaNi, else unsupported(Backend::ShaNi), unsafe {
                    x86_shani::hash_prefixed65::<1, N>(&A::INIT, *p, [a], [x])
                }),
                _ => unreachable!("one or two bodies"),
            });
            return;
        }
        hash_core::hash_prefixed_gathered::<A>(backend, prefix, bodies, out);
        return;
    }
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
    if let ([p], Backend::ArmSha) = (prefix, backend) {
        // As on SHA-NI: 64-byte bodies on interleaved streams, three at a
        // time (or two, as `digest_many` picks), then two, then one.
        hash_core::assert_prefixed::<A>(bodies.len(), out.len());
        prefixed_in_streams::<A, N>(backend, *p, bodies, out, arm_streams(), |whole, out| match (whole, out) {
            ([a, b, c], [x, y, z]) => backend_checked!(ArmSha, else unsupported(Backend::ArmSha), unsafe {
                aarch64_sha::hash_prefixed65::<3, N>(&A::INIT, *p, [a, b, c], [x, y, z])
            }),
            ([a, b], [x, y]) => backend_checked!(ArmSha, else unsupported(Backend::ArmSha), unsafe {
                aarch64_sha::hash_prefixed65::<2, N>(&A::INIT, *p, [a, b], [x, y])
            }),
            ([a], [x]) => backend_checked!(ArmSha, else unsupported(Backend::ArmSha), unsafe {
                aarch64_sha::hash_prefixed65::<1, N>(&A::INIT, *p, [a], [x])
            }),
            _ => unreachable!("one to three bodies"),
        });
        return;
    }
    hash_core::hash_prefixed_gathered::<A>(backend, prefix, bodies, out);
}

/// [`hash_prefixed_many`]'s interleaved streams (SHA-NI, `arm-sha`): the
/// bodies in order, up to `streams` (at most 3) 64-byte ones at a time to
/// `run` (as many as come in a row: fewer at the end or before a body of
/// another length), each other body gathered on its own.
#[cfg(any(all(target_arch = "x86_64", feature = "shani"), all(target_arch = "aarch64", feature = "arm-sha")))]
fn prefixed_in_streams<A, const N: usize>(
    backend: Backend,
    prefix: u8,
    bodies: &[&[u8]],
    out: &mut [[u8; N]],
    streams: usize,
    mut run: impl FnMut(&[&[u8; 64]], &mut [[u8; N]]),
) where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend, Output = [u8; N]>,
{
    let mut whole: [&[u8; 64]; 3] = [&[0; 64]; 3];
    let mut i = 0;
    while i < bodies.len() {
        let mut n = 0;
        while n < streams.min(3)
            && let Some(Ok(body)) = bodies.get(i + n).map(|b| <&[u8; 64]>::try_from(*b))
        {
            whole[n] = body;
            n += 1;
        }
        if n == 0 {
            hash_core::hash_prefixed_gathered::<A>(backend, &[prefix], &bodies[i..i + 1], &mut out[i..i + 1]);
            i += 1;
        } else {
            run(&whole[..n], &mut out[i..i + n]);
            i += n;
        }
    }
}

/// [`hash_prefixed_many`]'s groups of sixteen bodies on the 16 AVX-512
/// lanes (`x86_avx512::hash_prefixed65`) where they are all 64 bytes long
/// (each other group gathered); returns how many bodies that was (the
/// whole groups), for the caller to finish the rest.
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
fn prefixed65_lanes<A, const N: usize, const LEAN: bool>(
    backend: Backend,
    prefix: u8,
    bodies: &[&[u8]],
    out: &mut [[u8; N]],
) -> usize
where
    A: hash_core::FixedAlgorithm<State = [u32; 8], Backend = Backend, Output = [u8; N]>,
{
    // The engine's lanes.
    const LANES: usize = 16;
    let (groups, _) = bodies.as_chunks::<LANES>();
    let (slots, _) = out.as_chunks_mut::<LANES>();
    for (group, slot) in groups.iter().zip(slots.iter_mut()) {
        let mut whole: [&[u8; 64]; LANES] = [&[0; 64]; LANES];
        let all_64 = whole.iter_mut().zip(group).all(|(w, b)| match <&[u8; 64]>::try_from(*b) {
            Ok(b) => {
                *w = b;
                true
            }
            Err(_) => false,
        });
        let digests = slot.as_flattened_mut().as_chunks_mut::<32>().0;
        match (all_64, <&mut [[u8; 32]; LANES]>::try_from(digests)) {
            (true, Ok(digests)) => backend_checked!(avx512, else avx512_missing(), unsafe {
                x86_avx512::hash_prefixed65::<LEAN>(&A::INIT, prefix, &whole, digests)
            }),
            _ => hash_core::hash_prefixed_gathered::<A>(backend, &[prefix], group, slot),
        }
    }
    groups.len() * LANES
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
    // Every engine ends in a `hash_core::multi` function, which checks
    // that the slices pair up.
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
        Engine::ShaNiStreams => backend_checked!(ShaNi, else unsupported(Backend::ShaNi), unsafe {
            x86_shani::digest_many::<A>(inputs, outputs)
        }),
        Engine::Avx2Lanes => backend_checked!(Avx2, else unsupported(Backend::Avx2), unsafe {
            x86_avx2::digest_many::<A>(inputs, outputs)
        }),
        // `x86_avx512::digest_many` finishes stragglers on `backend`, which
        // must be supported too.
        Engine::Avx512Lanes | Engine::Avx512LanesLean if !backend.is_supported() => unsupported(backend),
        Engine::Avx512Lanes => backend_checked!(avx512, else avx512_missing(), unsafe {
            x86_avx512::digest_many::<A, false>(backend, inputs, outputs)
        }),
        Engine::Avx512LanesLean => backend_checked!(avx512, else avx512_missing(), unsafe {
            x86_avx512::digest_many::<A, true>(backend, inputs, outputs)
        }),
        Engine::ArmShaStreams => backend_checked!(ArmSha, else unsupported(Backend::ArmSha), unsafe {
            aarch64_sha::digest_many::<A>(inputs, outputs, arm_streams())
        }),
        Engine::OneByOne => hash_core::multi::digest_one_by_one::<A>(backend, inputs, outputs),
    }
}

#[cold]
#[track_caller]
fn avx512_missing() -> ! {
    panic!("sha256: the AVX-512 batch engine needs x86-64 with avx512f, avx512bw and the `avx512` cargo feature")
}

#[cfg(test)]
mod tests {
    use super::{Backend, Engine, run_engine};
    use crate::algorithm::{Sha224, Sha256};
    use hash_core::testing::check_engine;
    use std::format;

    /// The rule for short messages, on whichever CPU runs it: a batch that
    /// no engine would speed up runs one by one.
    #[test]
    fn short_batches_run_one_by_one() {
        use super::{LANES_MIN_SHORT, LANES_SHORT_MEAN, STREAMS_MIN_MEAN, avx512_engine, engine};
        let lanes = |fallback| if backend_checked!(supported avx512) { avx512_engine() } else { fallback };
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

    /// Every batch engine this CPU runs, whichever one `digest_many` picks
    /// here, with every single-stream backend to finish on, against
    /// one-by-one portable hashing.
    #[test]
    fn every_batch_engine_matches_portable() {
        const BATCHES: &[usize] = &[1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64];
        for &engine in Engine::ALL {
            for &single in Backend::all() {
                let name = format!("{engine:?} (single {single})");
                let supported = engine.is_supported() && single.is_supported();
                check_engine::<Sha256>("sha256", &name, supported, 0x5eed_e261, BATCHES, |i, o| {
                    run_engine::<Sha256>(engine, single, i, o)
                });
                if supported {
                    check_engine::<Sha224>("sha256", &name, supported, 0x5eed_e261, BATCHES, |i, o| {
                        run_engine::<Sha224>(engine, single, i, o)
                    });
                }
            }
        }
    }
}
