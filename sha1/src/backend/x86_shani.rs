//! SHA-1 with the x86 SHA extensions (`sha1rnds4`, `sha1nexte`,
//! `sha1msg1`, `sha1msg2`): FIPS 180-4 §6.1.2, four rounds per instruction.
//!
//! Register layout (as the SHA extensions define it): `abcd` holds the
//! working variables a, b, c, d in dwords 3, 2, 1, 0, and `e` lives in
//! dword 3 of its own register. Message words are byte-swapped into the
//! same order, W[t] in dword 3, W[t+3] in dword 0.
//!
//! Rounds come in twenty groups of four. Group g uses message register
//! `m[g % 4]` = W[4g..4g+4]; while it runs, the schedule (§6.1.2 step 1)
//! advances the three groups after it by one step each:
//!
//! * `sha1msg1` starts group g+3: W[t-16] ⊕ W[t-14],
//! * `pxor` adds W[t-8] (group g+2),
//! * `sha1msg2` finishes group g+1: ⊕ W[t-3] and ROTL¹.
//!
//! [`compress_vl`] is the `sha-ni-avx512` backend: one stream whose
//! schedule runs on the ordinary vector ALUs instead (see there).
//!
//! The same code hashes `N` independent messages with their instruction
//! streams interleaved: `sha1rnds4` has a latency of several cycles but
//! issues more often than that, so one stream leaves the SHA unit idle
//! most of the time. `N = 1` is the single-stream backend; the batch
//! engine (`digest_many`) runs several streams.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_extract_epi32, _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x, _mm_sha1msg1_epu32,
    _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32, _mm_shuffle_epi8, _mm_xor_si128,
};

use hash_core::Block;
use hash_core::typenum::U64;

/// Compress `blocks` into `state` (one stream).
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[Block<U64>]) {
    let mut states = [*state];
    interleaved::<1>(&mut states, blocks.len(), |_, k| as_array(&blocks[k]));
    *state = states[0];
}

/// Compress every block of `data[i]` into `states[i]`, for `N`
/// interleaved streams. Every `data[i]` has the same length, a whole
/// number of 64-byte blocks.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) fn compress_lanes<const N: usize>(states: &mut [[u32; 5]; N], data: [&[u8]; N]) {
    let len = data[0].len();
    assert!(len.is_multiple_of(64) && data.iter().all(|d| d.len() == len), "lanes of equal whole blocks");
    interleaved::<N>(states, len / 64, |i, k| as_array(&data[i][64 * k..64 * k + 64]));
}

/// A 64-byte slice as an array (one length check, folded away where the
/// length is known).
#[inline(always)]
fn as_array(block: &[u8]) -> &[u8; 64] {
    match block.try_into() {
        Ok(b) => b,
        Err(_) => unreachable!("blocks are 64 bytes"),
    }
}

/// The engine: `nblocks` blocks for each of the `N` streams, block `k` of
/// stream `i` being `block(i, k)`.
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn interleaved<'a, const N: usize>(
    states: &mut [[u32; 5]; N],
    nblocks: usize,
    block: impl Fn(usize, usize) -> &'a [u8; 64],
) {
    // Reverses the 16 bytes: big-endian words (§3.1), W[t] in dword 3.
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);

    let mut abcd: [__m128i; N] = [_mm_set_epi32(0, 0, 0, 0); N];
    let mut e0: [__m128i; N] = [_mm_set_epi32(0, 0, 0, 0); N];
    for i in 0..N {
        let s = &states[i];
        abcd[i] = _mm_set_epi32(s[0] as i32, s[1] as i32, s[2] as i32, s[3] as i32);
        e0[i] = _mm_set_epi32(s[4] as i32, 0, 0, 0);
    }

    // One stream: block k's message words are loaded during block k - 1's
    // last rounds (software pipelining: the loads and byte swaps run
    // ahead of the `sha1rnds4` chain; about 2% at 8 KiB and 1 MiB on an
    // Intel Xeon, Sapphire Rapids class). Interleaved streams load at the
    // top of each block instead: their registers would not hold two
    // blocks' words at once.
    let mut next: [__m128i; 4] = [_mm_set_epi32(0, 0, 0, 0); 4];
    macro_rules! load_next {
        ($k:expr) => {
            for j in 0..4 {
                let bytes: &[u8] = &block(0, $k)[16 * j..16 * j + 16];
                // SAFETY: `bytes` is 16 readable bytes (sliced from a
                // 64-byte array); `loadu` has no alignment requirement.
                let raw = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
                next[j] = _mm_shuffle_epi8(raw, bswap);
            }
        };
    }
    if N == 1 && nblocks > 0 {
        load_next!(0);
    }
    for k in 0..nblocks {
        let abcd_saved = abcd;
        let e_saved = e0;
        let mut m: [[__m128i; 4]; N] = [[_mm_set_epi32(0, 0, 0, 0); 4]; N];
        if N == 1 {
            m[0] = next;
        }
        // `e` is the e-plus-W input of the current group; `prev` the abcd
        // value before the previous group, whose a (rotated by 30) is the
        // e of the current one.
        let mut e = e0;
        let mut prev = abcd;

        // W[16j..16j+16] of block k, for group j < 4.
        // (Interleaved streams only; one stream has them in `next`.)
        macro_rules! load {
            ($j:literal) => {
                if N > 1 {
                    for i in 0..N {
                        let bytes: &[u8] = &block(i, k)[16 * $j..16 * $j + 16];
                        // SAFETY: `bytes` is 16 readable bytes (sliced from a
                        // 64-byte array); `loadu` has no alignment requirement.
                        let raw = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
                        m[i][$j] = _mm_shuffle_epi8(raw, bswap);
                    }
                }
            };
        }
        macro_rules! group {
            ($g:literal) => {
                for i in 0..N {
                    // Group 0 adds W to the state's e; later groups derive e
                    // from the a of four rounds ago and add W in one step.
                    e[i] = if $g == 0 {
                        _mm_add_epi32(e0[i], m[i][0])
                    } else {
                        _mm_sha1nexte_epu32(prev[i], m[i][$g % 4])
                    };
                    prev[i] = abcd[i];
                    // f and K: Ch, Parity, Maj, Parity for rounds 0–19,
                    // 20–39, 40–59, 60–79 (§4.1.1, §4.2.1).
                    abcd[i] = _mm_sha1rnds4_epu32::<{ $g / 5 }>(abcd[i], e[i]);
                    if $g >= 3 && $g < 19 {
                        m[i][($g + 1) % 4] = _mm_sha1msg2_epu32(m[i][($g + 1) % 4], m[i][$g % 4]);
                    }
                    if $g >= 2 && $g < 18 {
                        m[i][($g + 2) % 4] = _mm_xor_si128(m[i][($g + 2) % 4], m[i][$g % 4]);
                    }
                    if $g >= 1 && $g < 17 {
                        m[i][($g + 3) % 4] = _mm_sha1msg1_epu32(m[i][($g + 3) % 4], m[i][$g % 4]);
                    }
                }
            };
        }
        load!(0);
        group!(0);
        load!(1);
        group!(1);
        load!(2);
        group!(2);
        load!(3);
        group!(3);
        group!(4);
        group!(5);
        group!(6);
        group!(7);
        group!(8);
        group!(9);
        group!(10);
        group!(11);
        group!(12);
        group!(13);
        group!(14);
        group!(15);
        if N == 1 && k + 1 < nblocks {
            load_next!(k + 1);
        }
        group!(16);
        group!(17);
        group!(18);
        group!(19);

        // Step 4: H(i) = H(i-1) + (a, b, c, d, e); the last e is the a of
        // four rounds before the end, rotated by 30.
        for i in 0..N {
            e0[i] = _mm_sha1nexte_epu32(prev[i], e_saved[i]);
            abcd[i] = _mm_add_epi32(abcd[i], abcd_saved[i]);
        }
    }

    for i in 0..N {
        let s = &mut states[i];
        let v = abcd[i];
        s[0] = _mm_extract_epi32::<3>(v) as u32;
        s[1] = _mm_extract_epi32::<2>(v) as u32;
        s[2] = _mm_extract_epi32::<1>(v) as u32;
        s[3] = _mm_extract_epi32::<0>(v) as u32;
        s[4] = _mm_extract_epi32::<3>(e0[i]) as u32;
    }
}

/// `w` plus ROTL³⁰ of `prev` in dword 3 only (`k` holds 0b1000): a group's
/// W + e, `e` the ROTL³⁰ of the `a` two groups back (what `sha1nexte`
/// forms, §6.1.2 step 3 over four rounds). One `vprold` and one masked
/// `vpaddd`, in `asm!` because LLVM turns `_mm_mask_add_epi32` into a
/// `vpaddd` and a `vpblendd`: one more vector instruction per group, which
/// on an Intel Xeon (model 167, `sha-ni-avx512`, 1 MiB) cost 8-9% of plain
/// SHA-1's speed and 7% of collision detection's.
#[cfg(feature = "avx512")]
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) fn plus_e(w: __m128i, prev: __m128i, k: core::arch::x86_64::__mmask8) -> __m128i {
    let mut out = w;
    let r = core::arch::x86_64::_mm_rol_epi32::<30>(prev);
    // SAFETY: the masked EVEX `vpaddd` on `xmm` needs AVX-512F and
    // AVX-512VL, this function's target features; it reads and writes
    // registers only.
    unsafe {
        core::arch::asm!(
            "vpaddd {o}{{{k}}}, {o}, {r}",
            o = inout(xmm_reg) out, r = in(xmm_reg) r, k = in(kreg) k,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    out
}

/// W[4g..4g+4] into `$w[g]` (W[4g] in dword 3) from the groups before it,
/// in AVX-512VL (FIPS 180-4 §6.1.2 step 1), in a function with the
/// `avx512f` and `avx512vl` target features; `$g` from 4 to 19. The two
/// forms of the recurrence are those of [`compress_vl`]'s docs:
///
/// * g < 8 (t = 16..31): W[t-14..t-10] is the low half of group g-4 and the
///   high half of g-3; W[t-3..t] is group g-1 moved up a dword with 0 for
///   W[t], and the missing ROTL¹(W[t]) term of W[t+3] is ROTL²(y[t]) moved
///   to its dword.
/// * g ≥ 8 (t = 32..79): W[t-6..t-2] is the low half of group g-2 and the
///   high half of g-1.
///
/// Shared with the collision detection's rounds (`dc::x86::rounds_vl`).
#[cfg(feature = "avx512")]
macro_rules! schedule_vl {
    ($w:ident, $g:literal) => {{
        use core::arch::x86_64::{
            _mm_alignr_epi8, _mm_rol_epi32, _mm_slli_si128, _mm_srli_si128, _mm_ternarylogic_epi32, _mm_xor_si128,
        };
        /// `vpternlogd` truth table of a ⊕ b ⊕ c.
        const XOR3: i32 = 0x96;
        if $g < 8 {
            let w14 = _mm_alignr_epi8::<8>($w[$g - 4], $w[$g - 3]);
            let x = _mm_ternarylogic_epi32::<XOR3>($w[$g - 4], w14, $w[$g - 2]);
            let y = _mm_xor_si128(x, _mm_slli_si128::<4>($w[$g - 1]));
            let fix = _mm_rol_epi32::<2>(_mm_srli_si128::<12>(y));
            $w[$g] = _mm_xor_si128(_mm_rol_epi32::<1>(y), fix);
        } else {
            let w6 = _mm_alignr_epi8::<8>($w[$g - 2], $w[$g - 1]);
            let x = _mm_ternarylogic_epi32::<XOR3>(w6, $w[$g - 4], $w[$g - 7]);
            $w[$g] = _mm_rol_epi32::<2>(_mm_xor_si128(x, $w[$g - 8]));
        }
    }};
}
#[cfg(feature = "avx512")]
pub(crate) use schedule_vl;

/// Compress `blocks` into `state` (one stream), with the message schedule
/// and the `e` of each group computed on the ordinary vector ALUs with
/// AVX-512VL (`vprold`, `vpternlogd`, masked `vpaddd` on `xmm`): the SHA
/// unit runs only the twenty `sha1rnds4` per block.
///
/// Why: on Intel cores the SHA unit is throughput-bound, and `sha1msg2`
/// holds it about as long as a `sha1rnds4` does, so the `sha1msg1`/
/// `sha1msg2` schedule of [`compress`] delays the `sha1rnds4` chain
/// (measured on an Intel Xeon, Sapphire Rapids class: 55.8 against 68.5
/// TSC ticks per block, 1.23x; with a one-instruction `e` it would take
/// about 47). The path from one group's result through `e` into the group
/// after next is what remains above the `sha1rnds4` chain: `vprold` and a
/// masked `vpaddd` take 2 cycles on it, `sha1nexte` 3 (about 2% slower
/// there). Not measured on AMD cores, whose single stream is bound by the
/// `sha1rnds4` latency, which leaves room for both paths.
///
/// The schedule (FIPS 180-4 §6.1.2 step 1), four words per group in the
/// layout of [`compress`] (W[t] in dword 3, W[t+3] in dword 0):
///
/// * t = 16..31: W[t] = ROTL¹(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]).
///   W[t+3] depends on W[t] of the same group: the group is computed with
///   0 in place of W[t], which leaves ROTL¹(W[t]) missing from W[t+3]; as
///   W[t] = ROTL¹(y[t]) for the partial sum y[t], the fix is ROTL²(y[t])
///   moved to W[t+3]'s dword (the approach of OpenSSL's SSSE3/AVX SHA-1).
/// * t = 32..79: W[t] = ROTL²(W[t-6] ⊕ W[t-16] ⊕ W[t-28] ⊕ W[t-32]):
///   the recurrence substituted into each of its own four terms (ROTL¹
///   distributes over ⊕; the terms that appear twice cancel). W[t+3-6] is
///   in an earlier group, so no group depends on itself.
///
/// `e` of group g ≥ 1 is ROTL³⁰ of the `a` two groups back (the value
/// `sha1nexte` forms) added to W[4g] in dword 3 only: `vprold` and a
/// masked `vpaddd` ([`plus_e`]; written with the intrinsic, LLVM made the
/// masked add a `vpaddd` and a `vpblendd`: one `xmm` instruction more per
/// group, and 8-9% slower on an Intel Xeon, model 167).
#[cfg(feature = "avx512")]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx512f,avx512vl")]
pub(crate) fn compress_vl(state: &mut [u32; 5], blocks: &[Block<U64>]) {
    /// The mask of dword 3, where `e` goes.
    const E_DWORD: u8 = 0b1000;
    // Reverses the 16 bytes: big-endian words (§3.1), W[t] in dword 3.
    let bswap = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    let s = *state;
    let mut abcd = _mm_set_epi32(s[0] as i32, s[1] as i32, s[2] as i32, s[3] as i32);
    let mut e0 = _mm_set_epi32(s[4] as i32, 0, 0, 0);
    for block in blocks {
        let block = as_array(block);
        let abcd_saved = abcd;
        let e_saved = e0;
        // w[g] = W[4g..4g+4].
        let mut w = [_mm_set_epi32(0, 0, 0, 0); 20];
        for (wj, bytes) in w.iter_mut().zip(block.chunks_exact(16)) {
            // SAFETY: `bytes` is 16 readable bytes (a chunk of a 64-byte
            // array); `loadu` has no alignment requirement.
            let raw = unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) };
            *wj = _mm_shuffle_epi8(raw, bswap);
        }
        // The abcd value before the previous group (see `interleaved`).
        let mut prev = abcd;
        // Rounds 4g..4g+4; f and K by round (§4.1.1, §4.2.1), as in
        // `interleaved`.
        macro_rules! rounds {
            ($g:literal) => {
                let e = if $g == 0 {
                    _mm_add_epi32(e0, w[0])
                } else {
                    plus_e(w[$g], prev, E_DWORD)
                };
                prev = abcd;
                abcd = _mm_sha1rnds4_epu32::<{ $g / 5 }>(abcd, e);
            };
        }
        rounds!(0);
        rounds!(1);
        rounds!(2);
        rounds!(3);
        schedule_vl!(w, 4);
        rounds!(4);
        schedule_vl!(w, 5);
        rounds!(5);
        schedule_vl!(w, 6);
        rounds!(6);
        schedule_vl!(w, 7);
        rounds!(7);
        schedule_vl!(w, 8);
        rounds!(8);
        schedule_vl!(w, 9);
        rounds!(9);
        schedule_vl!(w, 10);
        rounds!(10);
        schedule_vl!(w, 11);
        rounds!(11);
        schedule_vl!(w, 12);
        rounds!(12);
        schedule_vl!(w, 13);
        rounds!(13);
        schedule_vl!(w, 14);
        rounds!(14);
        schedule_vl!(w, 15);
        rounds!(15);
        schedule_vl!(w, 16);
        rounds!(16);
        schedule_vl!(w, 17);
        rounds!(17);
        schedule_vl!(w, 18);
        rounds!(18);
        schedule_vl!(w, 19);
        rounds!(19);
        // Step 4: H(i) = H(i-1) + (a, b, c, d, e); e in dword 3, the other
        // dwords of `e0` stay 0.
        e0 = plus_e(e_saved, prev, E_DWORD);
        abcd = _mm_add_epi32(abcd, abcd_saved);
    }
    state[0] = _mm_extract_epi32::<3>(abcd) as u32;
    state[1] = _mm_extract_epi32::<2>(abcd) as u32;
    state[2] = _mm_extract_epi32::<1>(abcd) as u32;
    state[3] = _mm_extract_epi32::<0>(abcd) as u32;
    state[4] = _mm_extract_epi32::<3>(e0) as u32;
}
