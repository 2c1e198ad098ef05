//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! Every entry point here is reachable from safe public code with any
//! `Backend` value (`<algorithm::Sha512 as hash_core::Algorithm>::compress`
//! does not go through `with_backend`'s check), so each one checks, with
//! `cpufeatures`' cached flag, that the CPU has the backend's features
//! before it calls `#[target_feature]` code, and panics otherwise.

use hash_core::typenum::U128;
use hash_core::{Block, FixedAlgorithm};

hash_core::backend_table! {
    at crate::backend, panics "sha512";
    checks {
        // `cpufeatures`' "sha3", the first half of `detect_arm_sha512`.
        sha3 if (all(target_arch = "aarch64", feature = "arm-sha512")) cpu [features "sha3"];
    }
    /// A SHA-512 compression backend (shared by SHA-384, SHA-512/224 and
    /// SHA-512/256).
    ///
    /// [`Backend::detect`] picks the best one for this CPU (AVX-512, then
    /// AVX2, then portable); every hasher's `with_backend` forces one (it
    /// panics, naming the missing CPU features, if this CPU lacks them;
    /// `try_with_backend` returns the error instead). The same value selects both the
    /// single-message path and the batch engine of `digest_many`.
    ///
    /// Every variant exists in every build; one whose cargo feature is off, or
    /// that needs x86-64 on another target, reports `is_supported() == false`.
    pub enum Backend {
        /// AVX-512 (F, VL and BW) with AVX2, BMI1 and BMI2 (Intel Skylake-SP
        /// and later server cores, AMD Zen 4 and later).
        ///
        /// One message: the code of [`Backend::Avx2`] (the rounds of one
        /// message form a single dependency chain, best run on general
        /// registers), its message schedule with AVX-512VL rotations and
        /// three-way XORs. `digest_many`: eight messages at once, one per 64-bit
        /// lane of the `zmm` registers, with `vprorq` rotations and `vpternlogq`
        /// for Ch, Maj and the three-way XORs; the last few messages of a
        /// batch, once fewer than four lanes would be busy, go through the
        /// one-message path.
        ///
        /// Needs x86-64 with `avx512f`, `avx512vl`, `avx512bw`, `avx2`, `bmi1`,
        /// `bmi2` and the `avx512` cargo feature (on by default).
        Avx512 = "avx512" if (all(target_arch = "x86_64", feature = "avx512"))
            cpu [features "avx512f", "avx512vl", "avx512bw", "avx2", "bmi1", "bmi2"] requires [x86 "avx512"]
            in x86_avx512;
        /// AVX2, BMI1 and BMI2 (Intel Haswell and later, AMD Zen and later).
        ///
        /// One message: the message schedule of two blocks at once in the two
        /// 128-bit halves of `ymm` registers, `W + K` spilled to the stack, and
        /// the rounds on general registers with BMI2 `rorx` rotations.
        /// `digest_many`: five messages at once, four in the 64-bit lanes of
        /// `ymm` registers and the fifth on general registers in the same loop
        /// (the vector lanes are bound by the vector shift units, which leaves
        /// the integer ALUs free); the last few messages of a batch, once fewer
        /// than four lanes would be busy, go through the one-message path.
        ///
        /// Needs x86-64 with `avx2`, `bmi1`, `bmi2` and the `avx2` cargo feature
        /// (on by default).
        Avx2 = avx2 in x86_avx2;
        /// The Armv8.2 SHA512 instructions (`SHA512H`, `SHA512H2`, `SHA512SU0`,
        /// `SHA512SU1`): Apple M1 and later, Arm Neoverse V1/V2/N2 (AWS
        /// Graviton3/4), Cortex-A710/X2 and later.
        ///
        /// One message: four state vectors and eight schedule vectors, two
        /// rounds per `SHA512H`/`SHA512H2` pair, twelve instructions per two
        /// rounds. `digest_many`: two messages at once, their instruction
        /// streams interleaved step by step so that the second fills the
        /// latency of the first's round chain; a message left on its own goes
        /// through the one-message path.
        ///
        /// Needs aarch64 with both the SHA512 and the SHA3 extensions (Rust's
        /// `sha3` target feature, which the code is compiled with, covers
        /// both). Detection checks each one: on Linux and Android the
        /// `HWCAP_SHA512` and `HWCAP_SHA3` bits of `AT_HWCAP` (`cpufeatures`
        /// 0.2 alone reports `sha3` when either bit is set), on Apple platforms
        /// `hw.optional.armv8_2_sha512` and `hw.optional.armv8_2_sha3` (through
        /// `cpufeatures`); std's `is_aarch64_feature_detected!("sha3")` also
        /// requires both. Other operating systems report it unsupported.
        /// Cargo feature `arm-sha512` (on by default).
        ArmSha512 = "arm-sha512" if (all(target_arch = "aarch64", feature = "arm-sha512"))
            cpu [fn crate::backend::detect_arm_sha512]
            requires ["aarch64 with the SHA512 and SHA3 extensions (Linux, Android or Apple OS)" "arm-sha512"]
            in aarch64_sha512;
        /// Scalar aarch64 code for CPUs without the SHA512 instructions (Arm
        /// Cortex-A53/A72/A76, Neoverse N1 (AWS Graviton2), Raspberry Pi 4 and
        /// 5), arranged for aarch64's three-operand instructions with rotated
        /// operands (see `aarch64_scalar.rs`). `digest_many`: the messages one
        /// after another.
        ///
        /// Needs aarch64 (any; no extension) and the `aarch64` cargo feature
        /// (on by default).
        Aarch64 = aarch64 in aarch64_scalar;
        /// 32-bit x86 (i686) with SSE2: each 64-bit word in the low half of an
        /// `xmm` register, so that a 64-bit add is one `paddq` and a rotation
        /// two shifts and an OR, where the portable code needs register pairs
        /// (`add` + `adc`, four-instruction rotations) and spills its working
        /// variables from the seven free general registers (see
        /// `x86_sse2.rs`). One message at a time, also in `digest_many`.
        ///
        /// Needs a 32-bit x86 target with SSE2 enabled (every i686 target;
        /// not i586) and the `sse2` cargo feature (on by default); nothing to
        /// detect at run time.
        Sse2 = "sse2" if (all(target_arch = "x86", target_feature = "sse2", feature = "sse2"))
            cpu [always] requires ["32-bit x86 (i686) with SSE2" "sse2"] in x86_sse2;
        /// Safe, fully unrolled Rust; runs everywhere. One message: one block
        /// at a time. `digest_many`: the messages one after another.
        Portable = portable in portable;
    }
    batch_engine: crate::backend::batch_engine;
}

/// The batch engine is the backend's own on every CPU (see the variants'
/// docs): on a CPU with AVX-512 the `avx512` backend is the detected one,
/// so forcing `avx2` there measures the AVX2 engine.
fn batch_engine(backend: Backend, messages: usize) -> &'static str {
    if !backend.is_supported() {
        return "one by one";
    }
    match backend {
        Backend::Avx512 if messages >= 4 => "avx512 8 lanes",
        Backend::Avx2 if messages >= 4 => "avx2 4 lanes + 1 scalar",
        Backend::ArmSha512 if messages >= 2 => "arm-sha512 2 streams",
        Backend::Avx512 | Backend::Avx2 | Backend::ArmSha512 | Backend::Aarch64 | Backend::Sse2 | Backend::Portable => {
            "one by one"
        }
    }
}

/// Whether this is aarch64 and the CPU has the SHA512 and SHA3 extensions
/// (see [`Backend::ArmSha512`]); the table caches the answer.
#[cfg(all(target_arch = "aarch64", feature = "arm-sha512"))]
#[cold]
fn detect_arm_sha512() -> bool {
    // `cpufeatures`' "sha3": on Apple platforms both sysctls
    // (`hw.optional.armv8_2_sha512` and `hw.optional.armv8_2_sha3`), on
    // Linux and Android `AT_HWCAP & (HWCAP_SHA3 | HWCAP_SHA512) != 0`, that
    // is either bit, so there each bit is checked below as well; elsewhere
    // false (unless the build enables `sha3` statically).
    if !backend_checked!(supported sha3) {
        return false;
    }
    // `getauxval_hwcap` is the (doc-hidden, public) helper that
    // `cpufeatures`' own macros call for `AT_HWCAP`; using it spares a
    // direct `libc` dependency and an `unsafe` call here. `cpufeatures`
    // leaves it out under Miri, where its "sha3" is false anyway.
    #[cfg(all(any(target_os = "linux", target_os = "android"), not(miri)))]
    {
        hwcap_has_sha512_and_sha3(cpufeatures::aarch64::getauxval_hwcap())
    }
    #[cfg(not(all(any(target_os = "linux", target_os = "android"), not(miri))))]
    {
        true
    }
}

/// Whether a Linux `AT_HWCAP` value has both `HWCAP_SHA3` and
/// `HWCAP_SHA512` (bits 17 and 21, Linux's
/// arch/arm64/include/uapi/asm/hwcap.h).
#[cfg(any(test, all(target_arch = "aarch64", feature = "arm-sha512")))]
fn hwcap_has_sha512_and_sha3(hwcap: u64) -> bool {
    const HWCAP_SHA3: u64 = 1 << 17;
    const HWCAP_SHA512: u64 = 1 << 21;
    hwcap & HWCAP_SHA3 != 0 && hwcap & HWCAP_SHA512 != 0
}

/// The digest of a final state: its words big-endian, the first `N` bytes
/// (FIPS 180-4 §6.4.2 step 4; SHA-384 and SHA-512/t keep the leftmost
/// bytes, §6.5-§6.7). What `FixedAlgorithm::output` gives, for the pair
/// engines that write digests themselves.
#[inline]
pub(crate) fn digest_bytes<const N: usize>(state: &[u64; 8], out: &mut [u8; N]) {
    for (bytes, word) in out.chunks_mut(8).zip(state) {
        bytes.copy_from_slice(&word.to_be_bytes()[..bytes.len()]);
    }
}

/// Compress `blocks` into `state` with `backend` (FIPS 180-4 §6.4.2).
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u64; 8], blocks: &[Block<U128>]) {
    backend_dispatch!(backend;
        // `compress_vl` needs avx2, bmi1, bmi2, avx512f and avx512vl.
        Avx512 => unsafe { x86_avx2::compress_vl(state, blocks) },
        // (arm-sha512: NEON is part of every aarch64 target.)
        // (sse2: the row's `cfg` requires the target to enable it.)
        Avx2 | ArmSha512 | Sse2 => unsafe_in_file { compress(state, blocks) },
        Aarch64 | Portable => safe_in_file { compress(state, blocks) },
    )
}

/// Whether `backend` takes the final padded block as
/// `hash_core::arch::x86::final_block` writes it (one 16-byte store per
/// row; see `hash_core::arch::compress_final_stored`, which the algorithm's
/// `compress_final` calls): the x86 backends do.
#[inline(always)]
pub(crate) fn has_compress_final(backend: Backend) -> bool {
    cfg!(target_arch = "x86_64") && matches!(backend, Backend::Avx512 | Backend::Avx2)
}

/// Hash each of `inputs` into the matching `outputs` slot with `backend`'s
/// batch engine (see the variants' docs); `A` is one of the SHA-512 family.
///
/// # Panics
/// If this CPU (or this build) does not support `backend`.
pub(crate) fn digest_many<A>(backend: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<Backend = Backend, State = [u64; 8], BlockSize = U128>,
{
    // Every engine ends in a `hash_core::multi` function, which checks
    // that the slices pair up.
    backend_dispatch!(backend;
        Avx512 => unsafe { x86_avx512::digest_many::<A>(inputs, outputs) },
        Avx2 => unsafe { x86_avx2::digest_many::<A>(inputs, outputs) },
        ArmSha512 => unsafe { aarch64_sha512::digest_many::<A>(inputs, outputs) },
        Aarch64 | Sse2 | Portable => safe { hash_core::multi::digest_one_by_one::<A>(backend, inputs, outputs) },
    )
}

/// `hash_pairs` for the SHA-512 family: `out[i]` = the hash of
/// `nodes[2i] || nodes[2i + 1]`. On the `avx512` backend, SHA-512's
/// 128-byte pairs run eight at a time on the pair engine
/// (`x86_avx512::hash_pairs128`: the padding block's schedule a constant)
/// when there are at least as many as the batch engine's lanes, and on the
/// `avx2` backend five at a time on its five lanes
/// (`x86_avx2::hash_pairs128`, likewise); on `arm-sha512`, all of them on
/// two streams of the SHA-512 instructions (`aarch64_sha512::hash_pairs128`,
/// likewise); the rest, and everything else, is gathered for `digest_many`'s engines
/// (`hash_core::hash_pairs_gathered`, which checks the lengths and the
/// backend).
///
/// # Panics
/// If `nodes.len() != 2 * out.len()`, or this CPU (or this build) does not
/// support `backend`.
pub(crate) fn hash_pairs<A, const N: usize>(backend: Backend, nodes: &[[u8; N]], out: &mut [[u8; N]])
where
    A: FixedAlgorithm<Backend = Backend, State = [u64; 8], BlockSize = U128, Output = [u8; N]>,
{
    #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
    // N = 64: SHA-512 (the other types' nodes are shorter). Eight pairs at
    // a time on the AVX-512 lanes, five on the AVX2 engine's (four vector
    // lanes and one on the general registers).
    let (nodes, out) = if N == 64 && matches!(backend, Backend::Avx512 | Backend::Avx2) {
        hash_core::assert_pairs::<A>(nodes.len(), out.len());
        let pairs = nodes.as_flattened().as_chunks::<128>().0;
        let digests = out.as_flattened_mut().as_chunks_mut::<64>().0;
        let done = match backend {
            #[cfg(feature = "avx512")]
            Backend::Avx512 => backend_checked!(Avx512, else unsupported(Backend::Avx512), unsafe {
                x86_avx512::hash_pairs128(&A::INIT, pairs, digests)
            }),
            Backend::Avx2 => backend_checked!(Avx2, else unsupported(Backend::Avx2), unsafe {
                x86_avx2::hash_pairs128(&A::INIT, pairs, digests)
            }),
            // `avx512` not built: the gathering below says so.
            _ => 0,
        };
        (&nodes[2 * done..], &mut out[done..])
    } else {
        (nodes, out)
    };
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha512"))]
    if N == 64 && backend == Backend::ArmSha512 {
        // Two streams of the SHA-512 instructions, the padding block's
        // W + K a constant.
        hash_core::assert_pairs::<A>(nodes.len(), out.len());
        let pairs = nodes.as_flattened().as_chunks::<128>().0;
        let digests = out.as_flattened_mut().as_chunks_mut::<64>().0;
        backend_checked!(ArmSha512, else unsupported(Backend::ArmSha512), unsafe {
            aarch64_sha512::hash_pairs128(&A::INIT, pairs, digests)
        });
        return;
    }
    hash_core::hash_pairs_gathered::<A>(backend, nodes, out);
}

#[cfg(test)]
mod tests {
    use super::hwcap_has_sha512_and_sha3;

    /// Either extension alone is not enough (`cpufeatures` 0.2's "sha3"
    /// accepts either bit); the hwcaps of qemu 7.2's `-cpu max` (both) and
    /// `-cpu cortex-a72` (neither) give the expected answers.
    #[test]
    fn sha512_backend_needs_both_hwcaps() {
        assert!(!hwcap_has_sha512_and_sha3(0));
        assert!(!hwcap_has_sha512_and_sha3(1 << 17), "SHA3 alone");
        assert!(!hwcap_has_sha512_and_sha3(1 << 21), "SHA512 alone");
        assert!(hwcap_has_sha512_and_sha3((1 << 17) | (1 << 21)));
        assert!(hwcap_has_sha512_and_sha3(0xecff_fffb), "qemu -cpu max");
        assert!(!hwcap_has_sha512_and_sha3(0x8fb), "qemu -cpu cortex-a72");
    }
}
