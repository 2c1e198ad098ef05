//! Backend selection and dispatch: the one place that picks a Keccak-f
//! implementation for a [`Backend`].
//!
//! The table (below) and the single-message dispatch live here; the
//! per-CPU rules in `vendor.rs`, the batch engines of `digest_many` and
//! `digest_xof_many` in `batch.rs`, and the KangarooTwelve and ParallelHash
//! leaves with the sponge helpers in `chunks.rs`.

#[cfg(any(test, all(target_arch = "aarch64", feature = "aarch64")))]
#[cfg_attr(not(all(target_arch = "aarch64", feature = "aarch64")), allow(dead_code))]
mod aarch64_keccak;

/// Fewest busy lanes of the two-lane SHA3-extension engine worth running it
/// for: with one busy lane it costs the same as the single-message code.
const ARM_SHA3_MIN_ACTIVE: usize = 2;

/// Fewest busy lanes of the four-lane AVX2 engine for which it beats
/// hashing the remaining messages one by one with the scalar permutation.
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
const AVX512_MIN_ACTIVE: usize = 3;

hash_core::backend_table! {
    at crate::backend, panics "sha3";
    /// A Keccak-f\[1600\] backend, shared by every SHA-3, SHAKE and Keccak-256
    /// type of this crate.
    ///
    /// [`Backend::detect`] picks the best one for this CPU; every hasher's
    /// `with_backend` forces one (it panics, naming the missing CPU features, if
    /// this CPU lacks them; `try_with_backend` returns the error instead).
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
        Avx512 = "avx512" if (all(target_arch = "x86_64", feature = "avx512"))
            cpu [features "avx512f", "avx2", "bmi1", "bmi2"] requires [x86 "avx512"]
            in x86_avx512, x86_avx512_1x;
        /// One message: the same scalar permutation as [`Backend::X86`].
        /// `digest_many` / `digest_xof_many` batches: four messages at once,
        /// one Keccak state per 64-bit element of the AVX2 registers; once
        /// fewer than two messages are left, the rest go one by one through the
        /// scalar permutation. KangarooTwelve leaves and ParallelHash blocks
        /// use the same four-lane engine. Needs AVX2, BMI1 and BMI2 and the `avx2` cargo
        /// feature (on by default).
        Avx2 = avx2 in x86_avx2;
        /// Scalar x86-64 Keccak-f compiled with BMI1 (`andn` for χ) and BMI2
        /// (`rorx` for ρ), for one message and for each message of a
        /// `digest_many` batch in turn. The fastest single-message backend on
        /// Zen 3 and Haswell. Needs the `x86` cargo feature (on by
        /// default).
        X86 = "x86" if (all(target_arch = "x86_64", feature = "x86"))
            cpu [features "bmi1", "bmi2"] requires [x86 "x86"] in x86_keccak;
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
        ArmSha3 = "arm-sha3" if (all(target_arch = "aarch64", feature = "arm-sha3"))
            cpu [features "sha3"] requires ["aarch64 with the sha3 extension (sha3 and sha512)" "arm-sha3"]
            in aarch64_sha3;
        /// Scalar aarch64 Keccak-f with lazy rotations: every ρ and θ rotation
        /// is the free rotated operand of an `EOR` or `BIC` (101 instructions
        /// per round, χ's and-not one `BIC`), all rounds written out. One
        /// message at a time, also in `digest_many`. Runs on every aarch64 CPU
        /// and is [`Backend::detect`]'s choice on all but Apple cores. Needs the
        /// `aarch64` cargo feature (on by default).
        Aarch64 = aarch64;
        /// Safe Rust (rounds written out with constant lane indices, using the
        /// lane-complementing transform); runs everywhere. One message at a
        /// time, also in `digest_many`.
        Portable = portable in portable;
    }
    choose: crate::backend::vendor::choose;
    batch_engine: crate::backend::batch_engine;
}

// After the table: these use its `backend_dispatch!` and `backend_checked!`.
mod batch;
mod chunks;
#[cfg(all(test, target_arch = "x86_64", any(feature = "avx2", feature = "avx512")))]
mod lane_tests;
mod vendor;

pub(crate) use batch::{digest_many, digest_xof_many, hash_pairs};
pub(crate) use chunks::hash_chunks;

/// The lane engine of `digest_many` / `digest_xof_many` for a batch of
/// `messages` (the single-message code below its busy-lane threshold).
fn batch_engine(backend: Backend, messages: usize) -> &'static str {
    if !backend.is_supported() {
        return "one by one";
    }
    match backend {
        Backend::Avx512 if messages >= AVX512_MIN_ACTIVE => "avx512 8 lanes",
        Backend::Avx2 if messages >= AVX2_MIN_ACTIVE => "avx2 4 lanes",
        Backend::ArmSha3 if messages >= ARM_SHA3_MIN_ACTIVE => "arm-sha3 2 lanes",
        Backend::Avx512 | Backend::Avx2 | Backend::X86 | Backend::ArmSha3 | Backend::Aarch64 | Backend::Portable => {
            "one by one"
        }
    }
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
    backend_dispatch!(backend;
        // One row's check covers both: the one-state permutation needs
        // AVX-512F, the scalar one BMI1 and BMI2.
        Avx512 => unsafe {
            if vendor::avx512_one_state() {
                x86_avx512_1x::absorb::<RATE, ROUNDS, B>(state, blocks)
            } else {
                x86_keccak::absorb::<RATE, ROUNDS, B>(state, blocks)
            }
        },
        // `Avx2` and `X86` need BMI1 and BMI2 for the scalar permutation.
        Avx2 | X86 => unsafe { x86_keccak::absorb::<RATE, ROUNDS, B>(state, blocks) },
        ArmSha3 => unsafe { aarch64_sha3::absorb::<RATE, ROUNDS, B>(state, blocks) },
        Aarch64 => safe { aarch64_keccak::absorb::<RATE, ROUNDS, B>(state, blocks) },
        Portable => safe { portable::absorb::<RATE, ROUNDS, B>(state, blocks) },
    )
}

/// Apply Keccak-p\[1600, `ROUNDS`\] (FIPS 202 §3.3) once with `backend`.
#[inline]
pub(crate) fn permute<const ROUNDS: usize>(backend: Backend, state: &mut [u64; 25]) {
    backend_dispatch!(backend;
        Avx512 => unsafe {
            if vendor::avx512_one_state() {
                x86_avx512_1x::permute::<ROUNDS>(state)
            } else {
                x86_keccak::permute::<ROUNDS>(state)
            }
        },
        Avx2 | X86 => unsafe { x86_keccak::permute::<ROUNDS>(state) },
        ArmSha3 => unsafe { aarch64_sha3::permute::<ROUNDS>(state) },
        Aarch64 => safe { aarch64_keccak::permute::<ROUNDS>(state) },
        Portable => safe { portable::permute::<ROUNDS>(state) },
    )
}
