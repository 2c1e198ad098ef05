//! Backend selection and dispatch: the one place that picks a compression
//! function for a [`Backend`].
//!
//! `compress` and `digest_many` are reachable from safe code with any
//! `Backend` value (through `<md5::algorithm::Md5 as Algorithm>::compress`),
//! so each arm that runs `target_feature` code first checks, at run time,
//! that this CPU has those features.

use hash_core::Block;
use hash_core::typenum::U64;

// The X86 row's two files, one per setting of the `asm` feature (the
// table declares the others).
#[cfg(all(target_arch = "x86_64", feature = "x86", feature = "asm"))]
mod x86_asm;
#[cfg(all(target_arch = "x86_64", feature = "x86", not(feature = "asm")))]
mod x86_scalar;

#[cfg(all(target_arch = "x86_64", feature = "x86", feature = "asm"))]
use x86_asm as x86_single;
#[cfg(all(target_arch = "x86_64", feature = "x86", not(feature = "asm")))]
use x86_scalar as x86_single;

hash_core::backend_table! {
    at crate::backend, panics "MD5";
    checks {
        // NEON is enabled for the whole build on the standard aarch64
        // targets: nothing to check at run time.
        neon if (all(target_arch = "aarch64", target_endian = "little", feature = "aarch64", target_feature = "neon"))
            cpu [always] in aarch64_neon;
    }
    /// An MD5 compression backend.
    ///
    /// [`Backend::detect`] picks the best one for this CPU; every hasher's
    /// `with_backend` forces one (it panics, naming the missing CPU features, if
    /// this CPU lacks them; `try_with_backend` returns the error instead).
    ///
    /// Every variant exists on every target; the ones this build or CPU cannot
    /// run report `is_supported() == false`.
    pub enum Backend {
        /// AVX-512F and BMI1 (x86-64, cargo feature `avx512`). One message is
        /// hashed with the [`Backend::X86`] scalar code; `digest_many` hashes up
        /// to 64 messages at a time in the 32-bit lanes of AVX-512 registers, as
        /// 1, 2 or 4 interleaved groups of 16 lanes depending on the batch size
        /// (two messages or fewer go through the scalar code).
        Avx512 = "avx512" if (all(target_arch = "x86_64", feature = "avx512"))
            cpu [features "avx512f", "bmi1"] requires [x86 "avx512"] in x86_avx512;
        /// AVX2 and BMI1 (x86-64, cargo feature `avx2`). One message is hashed
        /// with the [`Backend::X86`] scalar code (MD5 is one long dependency
        /// chain, which SIMD cannot shorten); `digest_many` hashes up to 32
        /// messages at a time in the 32-bit lanes of AVX2 registers, as 1, 2 or
        /// 4 interleaved groups of 8 lanes depending on the batch size (two
        /// messages or fewer go through the scalar code).
        Avx2 = "avx2" if (all(target_arch = "x86_64", feature = "avx2"))
            cpu [features "avx2", "bmi1"] requires [x86 "avx2"] in x86_avx2;
        /// Scalar x86-64 with BMI1 (cargo feature `x86`), scheduled for a short
        /// critical path: inline assembly with the cargo feature `asm` (the
        /// default), else Rust. `digest_many` hashes the messages one after
        /// another.
        X86 = "x86" if (all(target_arch = "x86_64", feature = "x86"))
            cpu [features "bmi1"] requires [x86 "x86"];
        /// Scalar aarch64 (little-endian; no extension needed): inline
        /// assembly scheduled for a short critical path, with the round
        /// constants loaded in pairs and the message words kept in registers
        /// (see `aarch64_asm.rs`). `digest_many` hashes 4 or 8 messages at a
        /// time in the 32-bit lanes of NEON registers, as 1 or 2 interleaved
        /// groups of 4 depending on the batch size (two messages or fewer go
        /// through the scalar code). Cargo feature `aarch64` (on by default).
        Aarch64 = "aarch64" if (all(target_arch = "aarch64", target_endian = "little", feature = "aarch64"))
            cpu [always] requires ["little-endian aarch64" "aarch64"]
            in aarch64_asm;
        /// Safe, fully unrolled Rust; runs everywhere. `digest_many` hashes the
        /// messages one after another.
        Portable = portable in portable;
    }
    batch_engine: crate::backend::batch_engine;
}

/// Compress `blocks` into `state` with `backend` (RFC 1321 §3.4).
///
/// # Panics
/// If this CPU or build does not support `backend`.
#[inline]
pub(crate) fn compress(backend: Backend, state: &mut [u32; 4], blocks: &[Block<U64>]) {
    backend_dispatch!(backend;
        // The scalar code needs BMI1, which every x86 row checks.
        Avx512 | Avx2 | X86 => unsafe { x86_single::compress(state, blocks) },
        // Baseline aarch64: nothing to check at run time.
        Aarch64 => safe { aarch64_asm::compress(state, blocks) },
        Portable => safe { portable::compress(state, blocks) },
    )
}

/// Run `compress::<M>` on the first `M` of the `N` lanes.
#[cfg(all(target_arch = "x86_64", any(feature = "avx2", feature = "avx512")))]
#[inline(always)]
fn first_lanes<'d, const M: usize, const N: usize>(
    states: &mut [[u32; 4]; N],
    data: [&'d [u8]; N],
    compress: impl FnOnce(&mut [[u32; 4]; M], [&'d [u8]; M]),
) {
    let Some((head, _)) = states.split_first_chunk_mut::<M>() else { unreachable!("M <= N lanes") };
    compress(head, core::array::from_fn(|i| data[i]))
}

/// The AVX2 batch engine: up to four interleaved groups of 8 lanes, as many
/// as the busy lanes need (see [`digest_many`]).
///
/// # Safety
/// The CPU must have AVX2 (`Backend::Avx2`'s check).
#[cfg(all(target_arch = "x86_64", feature = "avx2"))]
unsafe fn digest_many_avx2(inputs: &[&[u8]], outputs: &mut [[u8; 16]]) {
    hash_core::multi::digest_many_lanes_narrowing::<crate::algorithm::Md5, 32>(
        Backend::Avx2,
        inputs,
        outputs,
        MIN_ACTIVE,
        |states, data, busy| {
            match busy {
                0..=8 => first_lanes::<8, 32>(states, data, |s, d| {
                    // SAFETY: AVX2, this function's contract.
                    unsafe { x86_avx2::compress_lanes::<8>(s, d) }
                }),
                9..=16 => first_lanes::<16, 32>(states, data, |s, d| {
                    // SAFETY: AVX2, this function's contract.
                    unsafe { x86_avx2::compress_lanes::<16>(s, d) }
                }),
                // SAFETY: AVX2, this function's contract.
                _ => unsafe { x86_avx2::compress_lanes::<32>(states, data) },
            }
        },
    );
}

/// The AVX-512 batch engine: up to `N / 16` interleaved groups of 16
/// lanes, as many as the busy lanes need (see [`digest_many`]).
///
/// # Safety
/// The CPU must have AVX-512F (`Backend::Avx512`'s check).
#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
unsafe fn digest_many_avx512<const N: usize>(inputs: &[&[u8]], outputs: &mut [[u8; 16]]) {
    hash_core::multi::digest_many_lanes_narrowing::<crate::algorithm::Md5, N>(
        Backend::Avx512,
        inputs,
        outputs,
        MIN_ACTIVE,
        |states, data, busy| {
            match busy {
                0..=16 => first_lanes::<16, N>(states, data, |s, d| {
                    // SAFETY: AVX-512F, this function's contract.
                    unsafe { x86_avx512::compress_lanes::<16>(s, d) }
                }),
                17..=32 if N > 32 => first_lanes::<32, N>(states, data, |s, d| {
                    // SAFETY: AVX-512F, this function's contract.
                    unsafe { x86_avx512::compress_lanes::<32>(s, d) }
                }),
                // SAFETY: AVX-512F, this function's contract.
                _ => unsafe { x86_avx512::compress_lanes::<N>(states, data) },
            }
        },
    );
}

/// The NEON batch engine for `N` lanes: `N / 4` groups of 4 interleaved.
/// `min_active` is the fewest busy lanes for which it
/// beats the scalar code once the batch has run dry.
///
/// # Safety
/// The CPU must have NEON (the `neon` check: this build enables it).
#[cfg(all(target_arch = "aarch64", target_endian = "little", feature = "aarch64", target_feature = "neon"))]
unsafe fn digest_many_neon<const N: usize>(inputs: &[&[u8]], outputs: &mut [[u8; 16]], min_active: usize) {
    hash_core::multi::digest_many_lanes::<crate::algorithm::Md5, N>(
        Backend::Aarch64,
        inputs,
        outputs,
        min_active,
        |states, data| {
            // SAFETY: NEON, this function's contract.
            unsafe { aarch64_neon::compress_lanes::<N>(states, data) }
        },
    );
}

/// How many interleaved groups of 16 lanes the AVX-512 engine runs at
/// most: four on AMD, two elsewhere, decided once per process (see
/// [`digest_many`]).
fn avx512_groups() -> usize {
    static CHOSEN: hash_core::cpu::EngineCache<1> = hash_core::cpu::EngineCache::new();
    CHOSEN.get(0, &[2, 4], || if hash_core::cpu::vendor() == hash_core::cpu::Vendor::Amd { 4 } else { 2 })
}

/// The fewest busy lanes for which a SIMD step beats the scalar code once
/// the batch has run dry: one step of the narrowest (8- or 16-lane) engine
/// costs about 2.5 (AVX2) or 1.8 (AVX-512) scalar blocks on AMD Zen 5.
#[cfg(all(target_arch = "x86_64", any(feature = "avx2", feature = "avx512")))]
const MIN_ACTIVE: usize = 3;

/// The engine a batch of `messages` runs on with `backend` (see
/// [`digest_many`]).
pub(crate) fn batch_engine(backend: Backend, messages: usize) -> &'static str {
    if messages < 3 || !backend.is_supported() {
        return "one by one";
    }
    match backend {
        Backend::Avx512 => match messages {
            0..=16 => "avx512 16 lanes",
            17..=32 => "avx512 2x16 lanes, narrowing",
            _ if avx512_groups() == 4 => "avx512 4x16 lanes, narrowing",
            _ => "avx512 2x16 lanes, narrowing",
        },
        Backend::Avx2 => match messages {
            0..=8 => "avx2 8 lanes",
            9..=16 => "avx2 2x8 lanes, narrowing",
            _ => "avx2 4x8 lanes, narrowing",
        },
        Backend::Aarch64 if backend_checked!(supported neon) => match messages {
            0..=4 => "neon 4 lanes",
            _ => "neon 2x4 lanes",
        },
        Backend::Aarch64 | Backend::X86 | Backend::Portable => "one by one",
    }
}

/// Hash each of `inputs` into the matching `outputs` slot with `backend`.
///
/// The SIMD engines run up to four interleaved groups of lanes (4 x 8 for
/// AVX2, 4 x 16 for AVX-512 on AMD, 2 x 16 for AVX-512 elsewhere), and
/// each step runs only as many groups as hold busy lanes, which the
/// scheduler keeps at the front: a batch of 20 messages runs two groups,
/// and a batch of uneven lengths drops to fewer groups as its messages
/// finish (the scheduler also starts the longest messages first when a
/// batch has more messages than lanes). One MD5 step is a chain of four to
/// six dependent vector operations. On CPUs where those take two cycles
/// each (AMD Zen 5, as measured here) a single group leaves the vector
/// units mostly idle, hence four groups: one round of the AVX2 8-, 16- and
/// 32-lane engines costs about 2.5, 2.7 and 3.3 scalar blocks there, and
/// of the AVX-512 16-, 32- and 64-lane engines about 1.8, 2.1 and 2.9. On
/// Intel cores 512-bit operations take one cycle but issue on two ports
/// only (0 and 5), so one group of 16 lanes already runs at 10.3 GB/s,
/// two at 11.3 and four at 10.4 (Intel Xeon, Sapphire Rapids class): two
/// groups, which let the longest-first order balance a batch of 64 uneven
/// messages over 32 lanes. Batches of one or two messages, and the last
/// one or two of any batch, run on the scalar code. [`Backend::batch_engine`]
/// names the engine.
///
/// # Panics
/// If this CPU or build does not support `backend` (or the slices differ in
/// length; the callers have checked that).
pub(crate) fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [[u8; 16]]) {
    // Every engine ends in a `hash_core::multi` function, which checks
    // that the slices pair up.
    let one_by_one = |inputs: &[&[u8]], outputs: &mut [[u8; 16]]| {
        hash_core::multi::digest_one_by_one::<crate::algorithm::Md5>(backend, inputs, outputs)
    };
    backend_dispatch!(backend;
        Avx512 => unsafe {
            match avx512_groups() {
                4 => digest_many_avx512::<64>(inputs, outputs),
                _ => digest_many_avx512::<32>(inputs, outputs),
            }
        },
        Avx2 => unsafe { digest_many_avx2(inputs, outputs) },
        // The widths and `min_active` are estimates on paper (see
        // `aarch64_neon.rs`), not measurements.
        Aarch64 => safe {
            backend_checked!(neon, else one_by_one(inputs, outputs), unsafe {
                match inputs.len() {
                    0..=4 => digest_many_neon::<4>(inputs, outputs, 3),
                    _ => digest_many_neon::<8>(inputs, outputs, 3),
                }
            })
        },
        X86 | Portable => safe { one_by_one(inputs, outputs) },
    )
}

#[cfg(test)]
mod tests {
    use hash_core::testing::check_engine;

    use crate::algorithm::Md5;

    /// Every lane engine at every width this CPU runs (whichever one this
    /// CPU's rule picks), on batches of mixed and of equal lengths, against
    /// the portable backend.
    #[test]
    fn every_lane_engine_matches_portable() {
        const BATCHES: &[usize] = &[1, 2, 3, 5, 8, 9, 16, 17, 20, 33, 40, 64, 65, 100];
        type Run<'a> = &'a dyn Fn(&[&[u8]], &mut [[u8; 16]]);
        let check =
            |name, supported, run: Run<'_>| check_engine::<Md5>("md5", name, supported, 0x5eed_0d05, BATCHES, run);
        let skip = |_: &[&[u8]], _: &mut [[u8; 16]]| unreachable!("not run: unsupported");
        check(
            "avx512 2x16",
            backend_checked!(supported Avx512),
            &|i, o| backend_checked!(Avx512, else skip(i, o), unsafe { super::digest_many_avx512::<32>(i, o) }),
        );
        check(
            "avx512 4x16",
            backend_checked!(supported Avx512),
            &|i, o| backend_checked!(Avx512, else skip(i, o), unsafe { super::digest_many_avx512::<64>(i, o) }),
        );
        check(
            "avx2 4x8",
            backend_checked!(supported Avx2),
            &|i, o| backend_checked!(Avx2, else skip(i, o), unsafe { super::digest_many_avx2(i, o) }),
        );
        check(
            "neon 4",
            backend_checked!(supported neon),
            &|i, o| backend_checked!(neon, else skip(i, o), unsafe { super::digest_many_neon::<4>(i, o, 3) }),
        );
        check(
            "neon 2x4",
            backend_checked!(supported neon),
            &|i, o| backend_checked!(neon, else skip(i, o), unsafe { super::digest_many_neon::<8>(i, o, 3) }),
        );
    }
}
