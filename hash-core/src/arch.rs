//! Helpers that several algorithm crates' SIMD backends share: the one
//! module of hash-core that allows `unsafe` code (the rest of the crate
//! denies it).
//!
//! They live here, not in a crate of their own, because the algorithm
//! crates are published and could only depend on a helper crate that is
//! published too (a second crate to version, package and document for a
//! few dozen lines), and because every helper is `#[inline]`, so it is
//! compiled into the calling backend exactly as the copies it replaces
//! were. Not a stable API: for the `hashes` crates only.

/// `x`, unchanged, but opaque to the optimiser: the empty `asm!` block
/// makes LLVM treat the value as unknown, so it cannot reassociate a sum
/// across it and keeps additions in the order a backend wrote them.
/// (Elsewhere than x86-64 and aarch64: `x`.)
#[inline(always)]
pub fn opaque_u64(x: u64) -> u64 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut x = x;
        // SAFETY: the template is only a comment: no instruction is
        // emitted, no memory, stack or flag is touched, and `x`'s register
        // comes back as it went in.
        unsafe { core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags)) };
        x
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    x
}

/// [`FixedAlgorithm::compress_final`](crate::FixedAlgorithm::compress_final)
/// for an algorithm whose x86 backends take the final block as
/// [`x86::final_block`] writes it (`ROWS` rows of 16 bytes, `BYTES` in
/// all): on x86-64, where `A::has_compress_final(backend)`, that block,
/// compressed with `A::compress` (which checks `backend`); otherwise
/// [`compress_final_buffered`](crate::compress_final_buffered).
///
/// # Panics
/// If this CPU (or this build) does not support `backend`, or `tail` and
/// the padding do not fit in one block.
#[inline]
pub fn compress_final_stored<A: crate::FixedAlgorithm, const ROWS: usize, const BYTES: usize>(
    backend: A::Backend,
    state: &mut A::State,
    tail: &[u8],
    total: u128,
) {
    #[cfg(target_arch = "x86_64")]
    if A::has_compress_final(backend) {
        let block = x86::final_block::<ROWS, BYTES>(A::PADDING, tail, total);
        let block = crate::Block::<A::BlockSize>::from_slice(&block);
        return A::compress(backend, state, core::slice::from_ref(block));
    }
    crate::compress_final_buffered::<A>(backend, state, tail, total);
}

/// x86-64 helpers.
#[cfg(target_arch = "x86_64")]
pub mod x86 {
    use core::arch::x86_64::{
        __m256i, __m512i, _mm_set_epi64x, _mm_storeu_si128, _mm512_loadu_si512, _mm512_set_epi64, _mm512_setzero_si512,
        _mm512_shuffle_epi8, _mm512_shuffle_i32x4, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64, _mm512_unpacklo_epi32,
        _mm512_unpacklo_epi64,
    };

    use crate::Padding;

    /// [`super::opaque_u64`] for a 32-bit value.
    #[inline(always)]
    pub fn opaque_u32(mut x: u32) -> u32 {
        // SAFETY: the template is only a comment: no instruction is
        // emitted, no memory, stack or flag is touched, and `x`'s register
        // comes back as it went in.
        unsafe { core::arch::asm!("/* {0:e} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags)) };
        x
    }

    /// [`super::opaque_u64`] for a `ymm` register.
    ///
    /// # Safety
    /// Outside code compiled with AVX2 the CPU must have it (a safe call
    /// from such code).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub fn opaque_m256i(mut x: __m256i) -> __m256i {
        // SAFETY: as in `opaque_u32`; the caller's AVX2 (this function's
        // target feature) gives the `ymm` register.
        unsafe { core::arch::asm!("/* {0} */", inout(ymm_reg) x, options(pure, nomem, nostack, preserves_flags)) };
        x
    }

    /// [`super::opaque_u64`] for a `zmm` register.
    ///
    /// # Safety
    /// Outside code compiled with AVX-512F the CPU must have it (a safe
    /// call from such code).
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub fn opaque_m512i(mut x: __m512i) -> __m512i {
        // SAFETY: as in `opaque_u32`; the caller's AVX-512F (this
        // function's target feature) gives the `zmm` register.
        unsafe { core::arch::asm!("/* {0} */", inout(zmm_reg) x, options(pure, nomem, nostack, preserves_flags)) };
        x
    }

    /// The final padded block of a `total`-byte message whose last
    /// `tail.len()` bytes fit in one `BYTES`-byte block with the padding
    /// ([`crate::padded_rows`] with `BYTES / 16` rows), written with one
    /// 16-byte store per row.
    ///
    /// The backends read the block with 16- or 32-byte loads, which the
    /// store buffer forwards from stores of the same bytes (Intel cores
    /// forward a 32-byte load from two 16-byte stores); from the byte-wise
    /// stores of padding in a buffer it cannot, and a one-block message's
    /// rounds would wait for those to retire (58 against 39 ns for 16 bytes
    /// of SHA-256 with SHA-NI on an Intel Xeon, Sapphire Rapids class).
    ///
    /// # Panics
    /// If `ROWS * 16 != BYTES`, or `tail` and the padding do not fit in one
    /// block.
    ///
    /// Always inlined, so that `padding` and the row count are constants
    /// in the caller's code (out of line, one shared copy chose its padding
    /// at run time, and one-block SHA-1 messages on the AVX2 backend took
    /// 7% longer, AMD EPYC Zen 3). SSE2 is part of every x86-64 target, so
    /// this needs no `target_feature` of its own.
    #[inline(always)]
    pub fn final_block<const ROWS: usize, const BYTES: usize>(
        padding: Padding,
        tail: &[u8],
        total: u128,
    ) -> [u8; BYTES] {
        const { assert!(ROWS * 16 == BYTES, "a block is 16 bytes per row") };
        let rows = crate::padded_rows::<ROWS>(padding, tail, total);
        let mut block = [0u8; BYTES];
        for (dst, row) in block.chunks_exact_mut(16).zip(rows) {
            // SAFETY: SSE2, the intrinsic's feature, is part of every x86-64
            // target (this module's cfg).
            let v = unsafe { _mm_set_epi64x((row >> 64) as i64, row as i64) };
            // SAFETY: as above; `dst` is 16 writable bytes, and `storeu` has
            // no alignment requirement.
            unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) };
        }
        block
    }

    /// Transpose the 16 x 16 matrix of 32-bit words whose rows are `r`.
    ///
    /// # Safety
    /// Outside code compiled with AVX-512F and AVX-512BW the CPU must have
    /// them (a safe call from such code).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub fn transpose_16x16_epi32(r: &[__m512i; 16]) -> [__m512i; 16] {
        // Within each 128-bit lane: pairs of rows, then quadruples, so that
        // u[4k + m] holds, in 128-bit lane L, word 4L + m of rows 4k..4k+4.
        let mut t = [_mm512_setzero_si512(); 16];
        for k in 0..8 {
            t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
            t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
        }
        let mut u = [_mm512_setzero_si512(); 16];
        for k in 0..4 {
            u[4 * k] = _mm512_unpacklo_epi64(t[4 * k], t[4 * k + 2]);
            u[4 * k + 1] = _mm512_unpackhi_epi64(t[4 * k], t[4 * k + 2]);
            u[4 * k + 2] = _mm512_unpacklo_epi64(t[4 * k + 1], t[4 * k + 3]);
            u[4 * k + 3] = _mm512_unpackhi_epi64(t[4 * k + 1], t[4 * k + 3]);
        }
        // For each m, a 4 x 4 transpose of 128-bit lanes across u[m],
        // u[4 + m], u[8 + m], u[12 + m] gives words m, 4 + m, 8 + m, 12 + m.
        let mut out = [_mm512_setzero_si512(); 16];
        for m in 0..4 {
            let (v0, v1, v2, v3) = (u[m], u[4 + m], u[8 + m], u[12 + m]);
            let x0 = _mm512_shuffle_i32x4::<0x44>(v0, v1);
            let x1 = _mm512_shuffle_i32x4::<0xee>(v0, v1);
            let x2 = _mm512_shuffle_i32x4::<0x44>(v2, v3);
            let x3 = _mm512_shuffle_i32x4::<0xee>(v2, v3);
            out[m] = _mm512_shuffle_i32x4::<0x88>(x0, x2);
            out[4 + m] = _mm512_shuffle_i32x4::<0xdd>(x0, x2);
            out[8 + m] = _mm512_shuffle_i32x4::<0x88>(x1, x3);
            out[12 + m] = _mm512_shuffle_i32x4::<0xdd>(x1, x3);
        }
        out
    }

    /// The 64-byte block at byte `at` of each of 16 lanes as sixteen
    /// big-endian 32-bit message words (SHA-1 and SHA-256: FIPS 180-4
    /// §3.1, §5.2.1), one word of all lanes per register: register `j`
    /// holds word `j` of every lane.
    ///
    /// The lanes come as pointers and the sixteen loads are written out:
    /// from a loop over slices, LLVM kept a bounds check per lane and block
    /// and bounced the rows through a zeroed stack array.
    ///
    /// # Safety
    /// Every pointer in `lanes` must be valid for reads of `at + 64` bytes,
    /// and outside code compiled with AVX-512F and AVX-512BW the CPU must
    /// have them.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn load_be_words_16x16(lanes: &[*const u8; 16], at: usize) -> [__m512i; 16] {
        let swap = 0x0c0d_0e0f_0809_0a0b;
        let lo = 0x0405_0607_0001_0203;
        let swap = _mm512_set_epi64(swap, lo, swap, lo, swap, lo, swap, lo);
        macro_rules! rows {
            ($($lane:literal)*) => {[$(
                // SAFETY: the caller guarantees 64 readable bytes at `at` in
                // every lane; loadu has no alignment requirement.
                _mm512_shuffle_epi8(unsafe { _mm512_loadu_si512(lanes[$lane].add(at).cast()) }, swap),
            )*]};
        }
        transpose_16x16_epi32(&rows!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15))
    }
}

/// Define SHA-2's `small_sigma0`, `small_sigma1`, `big_sigma0` and
/// `big_sigma1` on every 32-bit (`epi32`: SHA-256, FIPS 180-4 (4.4) to
/// (4.7)) or 64-bit (`epi64`: SHA-512, (4.10) to (4.13)) lane of a `zmm`
/// register, each one `vpternlog` (three-way XOR) of two rotations and a
/// shift (σ: `[rotr, rotr, shr]`) or three rotations (Σ:
/// `[rotr, rotr, rotr]`), compiled with the target features `$features`
/// (AVX-512F at least): `sha2_sigmas_avx512!(epi32, "avx512f", [σ0] [σ1]
/// [Σ0] [Σ1])`. For the `hashes` crates' AVX-512 lane engines, which
/// differ only in the lane width and the counts.
#[cfg(target_arch = "x86_64")]
#[macro_export]
macro_rules! sha2_sigmas_avx512 {
    (epi32, $features:literal, $($counts:tt)+) => {
        $crate::sha2_sigmas_avx512!(@all $features
            [_mm512_ternarylogic_epi32 _mm512_ror_epi32 _mm512_srli_epi32] $($counts)+);
    };
    (epi64, $features:literal, $($counts:tt)+) => {
        $crate::sha2_sigmas_avx512!(@all $features
            [_mm512_ternarylogic_epi64 _mm512_ror_epi64 _mm512_srli_epi64] $($counts)+);
    };
    (@all $features:literal [$t:ident $r:ident $s:ident]
        [$($s0:literal),+] [$($s1:literal),+] [$($b0:literal),+] [$($b1:literal),+]
    ) => {
        $crate::sha2_sigmas_avx512!(@fn $features $t $r small_sigma0 $s $($s0)+);
        $crate::sha2_sigmas_avx512!(@fn $features $t $r small_sigma1 $s $($s1)+);
        $crate::sha2_sigmas_avx512!(@fn $features $t $r big_sigma0 $r $($b0)+);
        $crate::sha2_sigmas_avx512!(@fn $features $t $r big_sigma1 $r $($b1)+);
    };
    (@fn $features:literal $t:ident $r:ident $name:ident $last:ident $a:literal $b:literal $c:literal) => {
        #[inline]
        #[target_feature(enable = $features)]
        fn $name(x: ::core::arch::x86_64::__m512i) -> ::core::arch::x86_64::__m512i {
            use ::core::arch::x86_64 as x86;
            x86::$t::<0x96>(x86::$r::<$a>(x), x86::$r::<$b>(x), x86::$last::<$c>(x))
        }
    };
}

/// aarch64 helpers.
#[cfg(target_arch = "aarch64")]
pub mod aarch64 {
    /// MIDR_EL1 of the core this thread runs on (implementer in bits
    /// 24..32, part number in bits 4..16), for the per-core choices of the
    /// backends. Linux and Android trap EL0's `mrs` of the ID registers and
    /// emulate it where the kernel says so with `HWCAP_CPUID` (Linux 4.11
    /// and later; qemu-user too); `None` elsewhere.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub fn midr() -> Option<u64> {
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

    /// MIDR_EL1 is not readable here: `None`.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub fn midr() -> Option<u64> {
        None
    }
}

/// For `asm!` on aarch64: the template that loads the next 64-byte block
/// from the operand `{p}` (post-incremented by 64) into `v4`..`v7` as
/// big-endian 32-bit words (FIPS 180-4 §3.1), one `ld1` of four registers
/// and a `rev32` each: how the SHA-1 and SHA-256 crypto-extension loops of
/// `sha1` and `sha256` start a block. One string, so that it can stand as
/// one of `asm!`'s template pieces.
#[macro_export]
macro_rules! aarch64_load_block_be32_v4_v7 {
    () => {
        concat!(
            "ld1 {{v4.16b-v7.16b}}, [{p}], #64\n",
            "rev32 v4.16b, v4.16b\n",
            "rev32 v5.16b, v5.16b\n",
            "rev32 v6.16b, v6.16b\n",
            "rev32 v7.16b, v7.16b",
        )
    };
}
