//! AVX2 + BMI2 SHA-512 (FIPS 180-4 §6.4.2), for x86-64 CPUs without SHA-512
//! instructions.
//!
//! One message ([`compress`]): blocks are taken two at a time. The message
//! schedule (§6.4.2 step 1) of both blocks is computed together in `ymm`
//! registers, block one in the low 128-bit half and block two in the high
//! half, two 64-bit words per half, so that `vpalignr` (which works within
//! each half) lines up `W[t-15]` and `W[t-7]` for both blocks at once. `W[t]` +
//! `K[t]` is spilled to the stack, and the 80 rounds (§6.4.2 step 3) run on
//! general-purpose registers with BMI2 `rorx` rotations and BMI1 `andn`:
//! block one's rounds interleaved with the vector schedule, then block
//! two's rounds from the stack. This is the layout of Intel's "Fast SHA-512
//! Implementations on Intel Architecture Processors" (rorx variant) and of
//! OpenSSL's `sha512-x86_64` AVX2 path.
//!
//! Many messages ([`digest_many`]): five messages at once, four in the
//! 64-bit lanes of the `ymm` registers and one on general registers (see
//! [`compress5`]), driven by `hash_core::multi`'s lane scheduler.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_epi8, _mm256_set_m128i,
    _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64, _mm256_xor_si256,
};
#[cfg(feature = "avx512")]
use core::arch::x86_64::{_mm256_ror_epi64, _mm256_ternarylogic_epi64};

use hash_core::Block;
use hash_core::typenum::U128;

use super::portable::{big_sigma0, big_sigma1, ch, maj, small_sigma0 as scalar_sigma0, small_sigma1 as scalar_sigma1};
use crate::consts::{K, PAD128_WK};

/// `vpshufb` control that reverses the bytes of each 64-bit word
/// (big-endian message words, §3.1 and §6.4.2 step 1).
#[inline]
#[target_feature(enable = "avx2")]
fn bswap64_mask() -> __m256i {
    _mm256_set_epi8(
        8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
    )
}

/// Bytes `16 * i .. 16 * i + 16` of `a` in the low half and of `b` in the
/// high half, each 64-bit word byte-swapped: words 2i and 2i+1 of both
/// blocks.
#[inline]
#[target_feature(enable = "avx2")]
fn load_pair(a: &Block<U128>, b: &Block<U128>, i: usize) -> __m256i {
    let a = &a[16 * i..16 * i + 16];
    let b = &b[16 * i..16 * i + 16];
    // SAFETY: `a` is a 16-byte slice (indexing checked it), and `loadu`
    // has no alignment requirement; sse2 is implied by avx2.
    let lo = unsafe { _mm_loadu_si128(a.as_ptr().cast::<__m128i>()) };
    // SAFETY: as above, for `b`.
    let hi = unsafe { _mm_loadu_si128(b.as_ptr().cast::<__m128i>()) };
    _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), bswap64_mask())
}

/// 40 groups of four words, aligned so that no 32-byte access to a group
/// straddles a cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Groups([[u64; 4]; 40]);

impl core::ops::Index<usize> for Groups {
    type Output = [u64; 4];
    #[inline(always)]
    fn index(&self, i: usize) -> &[u64; 4] {
        &self.0[i]
    }
}

impl core::ops::IndexMut<usize> for Groups {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut [u64; 4] {
        &mut self.0[i]
    }
}

/// `K[2i]`, `K[2i+1]`, `K[2i]`, `K[2i+1]` at index i: the round constants of a
/// pair of rounds for both blocks.
static K_PAIRS: Groups = {
    let mut out = [[0; 4]; 40];
    let mut i = 0;
    while i < 40 {
        out[i] = [K[2 * i], K[2 * i + 1], K[2 * i], K[2 * i + 1]];
        i += 1;
    }
    Groups(out)
};

/// `K[2i]`, `K[2i+1]` in both 128-bit halves.
#[inline]
#[target_feature(enable = "avx2")]
fn k_pair(i: usize) -> __m256i {
    let k = &K_PAIRS[i];
    // SAFETY: `k` is 32 readable bytes, and `loadu` has no alignment
    // requirement.
    unsafe { _mm256_loadu_si256(k.as_ptr().cast::<__m256i>()) }
}

/// `vpshufb` control that rotates each 64-bit word right by 8 bits.
#[inline]
#[target_feature(enable = "avx2")]
fn rotr8_mask() -> __m256i {
    _mm256_set_epi8(
        8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1, 8, 15, 14, 13, 12, 11, 10, 9, 0, 7, 6, 5, 4, 3, 2, 1,
    )
}

/// σ0 (§4.1.3, (4.12)) of every 64-bit lane: ROTR 1 ⊕ ROTR 8 ⊕ SHR 7, with
/// ROTR 8 as one byte shuffle.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    let r = _mm256_xor_si256(_mm256_srli_epi64::<1>(x), _mm256_slli_epi64::<63>(x));
    let r = _mm256_xor_si256(r, _mm256_shuffle_epi8(x, rotr8_mask()));
    _mm256_xor_si256(r, _mm256_srli_epi64::<7>(x))
}

/// σ1 (4.13) of every 64-bit lane: ROTR 19 ⊕ ROTR 61 ⊕ SHR 6.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    let r = _mm256_xor_si256(_mm256_srli_epi64::<19>(x), _mm256_slli_epi64::<45>(x));
    let r = _mm256_xor_si256(r, _mm256_srli_epi64::<61>(x));
    let r = _mm256_xor_si256(r, _mm256_slli_epi64::<3>(x));
    _mm256_xor_si256(r, _mm256_srli_epi64::<6>(x))
}

/// The next two schedule words of both blocks (§6.4.2 step 1):
/// `W[t]` = σ1(`W[t-2]`) + `W[t-7]` + σ0(`W[t-15]`) + `W[t-16]`, and the same one
/// further for `W[t+1]`. The arguments hold, for each block, the words
/// t-16 and t-15 (`w16`), t-14 and t-13 (`w14`), t-8 and t-7 (`w8`), t-6
/// and t-5 (`w6`), t-2 and t-1 (`w2`). Neither new word needs the other:
/// σ1's inputs `W[t-2]`, `W[t-1]` are both in `w2`.
#[inline]
#[target_feature(enable = "avx2")]
fn schedule_pair(w16: __m256i, w14: __m256i, w8: __m256i, w6: __m256i, w2: __m256i) -> __m256i {
    // W[t-15], W[t-14] and W[t-7], W[t-6]: `vpalignr` shifts within each
    // 128-bit half, so each block stays in its own half.
    let w15 = _mm256_alignr_epi8::<8>(w14, w16);
    let w7 = _mm256_alignr_epi8::<8>(w6, w8);
    let s = _mm256_add_epi64(w16, small_sigma0(w15));
    let s = _mm256_add_epi64(s, w7);
    _mm256_add_epi64(s, small_sigma1(w2))
}

/// σ0 of every lane with AVX-512VL: two `vprorq`, a shift and one
/// three-way XOR (`vpternlogq`).
#[cfg(feature = "avx512")]
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn small_sigma0_vl(x: __m256i) -> __m256i {
    _mm256_ternarylogic_epi64::<0x96>(_mm256_ror_epi64::<1>(x), _mm256_ror_epi64::<8>(x), _mm256_srli_epi64::<7>(x))
}

/// σ1 of every lane with AVX-512VL.
#[cfg(feature = "avx512")]
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn small_sigma1_vl(x: __m256i) -> __m256i {
    _mm256_ternarylogic_epi64::<0x96>(_mm256_ror_epi64::<19>(x), _mm256_ror_epi64::<61>(x), _mm256_srli_epi64::<6>(x))
}

/// [`schedule_pair`] with AVX-512VL rotations (the `Avx512` backend).
#[cfg(feature = "avx512")]
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn schedule_pair_vl(w16: __m256i, w14: __m256i, w8: __m256i, w6: __m256i, w2: __m256i) -> __m256i {
    let w15 = _mm256_alignr_epi8::<8>(w14, w16);
    let w7 = _mm256_alignr_epi8::<8>(w6, w8);
    let s = _mm256_add_epi64(w16, small_sigma0_vl(w15));
    let s = _mm256_add_epi64(s, w7);
    _mm256_add_epi64(s, small_sigma1_vl(w2))
}

/// Store `v` to `out` (the W + K spill area).
#[inline]
#[target_feature(enable = "avx2")]
fn store(out: &mut [u64; 4], v: __m256i) {
    // SAFETY: `out` is 32 writable bytes, and `storeu` has no alignment
    // requirement.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast::<__m256i>(), v) }
}

use hash_core::arch::opaque_u64 as opaque;

/// One round (§6.4.2 step 3) with the variables named in rotated order:
/// T1 = h + Σ1(e) + Ch(e, f, g) + `K[t]` + `W[t]` goes into d (the next e) and
/// T1 + T2 into h (the next a). `wk` is `K[t]` + `W[t]`.
///
/// The sums are ordered so that each of the two dependency chains is four
/// operations long per round rather than five:
/// - next e = ((d + h + `wk`) + Ch(e, f, g)) + Σ1(e): d + h + `wk` is ready
///   before e, Ch(e, f, g) = ((f ⊕ g) ∧ e) ⊕ g (equal to (4.8)) is two
///   operations after e and Σ1(e) three.
/// - next a = ((next e − d + (b ∧ c)) + (a ∧ (b ⊕ c))) + Σ0(a): next e − d is
///   T1, and Maj(a, b, c) (4.9) = (a ∧ (b ⊕ c)) + (b ∧ c) (the two terms have
///   no bit in common), so a itself goes through one AND, an addition and
///   Σ0 (three deep) before the last addition.
///
/// Left alone, the optimiser regroups the sums by its own ranking, which
/// puts Σ1 and Σ0 in the middle of the chains (five deep each, measured
/// about 7% slower on an Intel Sapphire Rapids core); `opaque` pins the
/// grouping.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $wk:expr) => {
        // d + h + K[t] + W[t], then + Ch(e, f, g), then + Σ1(e): the next e.
        let dhw = opaque($d.wrapping_add($h).wrapping_add($wk));
        let e_new = opaque(opaque(dhw.wrapping_add((($f ^ $g) & $e) ^ $g)).wrapping_add(big_sigma1($e)));
        // T1 + (b ∧ c), then + (a ∧ (b ⊕ c)) (so + Maj), then + Σ0(a): the next a.
        let t = opaque(opaque(e_new.wrapping_sub($d).wrapping_add($b & $c)).wrapping_add($a & ($b ^ $c)));
        $h = t.wrapping_add(big_sigma0($a));
        $d = e_new;
    };
}

/// Eight rounds reading W + K from `wk[t / 2][half + t % 2]`.
macro_rules! eight_rounds {
    ($v:ident, $wk:ident, $half:expr, $t:expr) => {
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        round!(a, b, c, d, e, f, g, h, $wk[$t / 2][$half]);
        round!(h, a, b, c, d, e, f, g, $wk[$t / 2][$half + 1]);
        round!(g, h, a, b, c, d, e, f, $wk[$t / 2 + 1][$half]);
        round!(f, g, h, a, b, c, d, e, $wk[$t / 2 + 1][$half + 1]);
        round!(e, f, g, h, a, b, c, d, $wk[$t / 2 + 2][$half]);
        round!(d, e, f, g, h, a, b, c, $wk[$t / 2 + 2][$half + 1]);
        round!(c, d, e, f, g, h, a, b, $wk[$t / 2 + 3][$half]);
        round!(b, c, d, e, f, g, h, a, $wk[$t / 2 + 3][$half + 1]);
        $v = [a, b, c, d, e, f, g, h];
    };
}

/// The one-message code, generated for two feature sets: `$schedule` is
/// the function that computes two schedule words of both blocks.
macro_rules! single_stream {
    ($(#[$doc:meta])* $compress:ident, $pair:ident, $features:literal, $schedule:ident) => {
        $(#[$doc])*
        #[target_feature(enable = $features)]
        pub(super) fn $compress(state: &mut [u64; 8], blocks: &[Block<U128>]) {
    // W[t] + K[t] of both blocks of a pair: `wk[t / 2]` is [first's W+K
    // for t, t+1 (t even), second's for t, t+1]. Every entry is written
    // before it is read; zeroing it once per call keeps this safe code.
    let mut wk = Groups([[0u64; 4]; 40]);
    let mut pairs = blocks.chunks_exact(2);
    for pair in &mut pairs {
        $pair(state, &mut wk, &pair[0], Some(&pair[1]));
    }
    if let [last] = pairs.remainder() {
        $pair(state, &mut wk, last, None);
    }
}

        /// Compress `first`, then `second` if there is one.
        #[inline]
        #[target_feature(enable = $features)]
        fn $pair(state: &mut [u64; 8], wk: &mut Groups, first: &Block<U128>, second: Option<&Block<U128>>) {
    let other = second.unwrap_or(first);
    // The 16-word window of the schedule, two words of each block per
    // register.
    let mut x: [__m256i; 8] = core::array::from_fn(|i| load_pair(first, other, i));
    for (i, xi) in x.iter().enumerate() {
        store(&mut wk[i], _mm256_add_epi64(*xi, k_pair(i)));
    }

    // Rounds 0..63 of the first block, while the schedule runs 16 words
    // ahead: rounds 8i..8i+7 are matched by words 8i+16..8i+23. The loop
    // (rather than full unrolling) keeps each batch of vector work next to
    // the rounds it overlaps with: code generation moves vector work freely
    // within a basic block, and a long run of it ahead of the rounds would
    // stall the scalar pipeline.
    let mut v = *state;
    for i in 0..8 {
        // `y[j]` holds words 8i+2j, 8i+2j+1; `y[8..12]` are the new ones.
        let mut y = [x[0]; 12];
        y[..8].copy_from_slice(&x);
        for j in 0..4 {
            y[8 + j] = $schedule(y[j], y[j + 1], y[j + 4], y[j + 5], y[j + 7]);
            store(&mut wk[4 * i + 8 + j], _mm256_add_epi64(y[8 + j], k_pair(4 * i + 8 + j)));
        }
        x.copy_from_slice(&y[4..]);
        eight_rounds!(v, wk, 0, 8 * i);
    }
    eight_rounds!(v, wk, 0, 64);
    eight_rounds!(v, wk, 0, 72);
    for (s, w) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(w);
    }

    if second.is_some() {
        let mut v = *state;
        eight_rounds!(v, wk, 2, 0);
        eight_rounds!(v, wk, 2, 8);
        eight_rounds!(v, wk, 2, 16);
        eight_rounds!(v, wk, 2, 24);
        eight_rounds!(v, wk, 2, 32);
        eight_rounds!(v, wk, 2, 40);
        eight_rounds!(v, wk, 2, 48);
        eight_rounds!(v, wk, 2, 56);
        eight_rounds!(v, wk, 2, 64);
        eight_rounds!(v, wk, 2, 72);
        for (s, w) in state.iter_mut().zip(v) {
            *s = s.wrapping_add(w);
        }
    }
}

    };
}

single_stream!(
    /// Compress each block in turn: pairs of blocks share one vector
    /// message schedule; an odd last block is scheduled alongside itself.
    compress,
    compress_pair,
    "avx2,bmi1,bmi2",
    schedule_pair
);

#[cfg(feature = "avx512")]
single_stream!(
    /// [`compress`] with the message schedule's rotations done by
    /// AVX-512VL `vprorq` and its XORs by `vpternlogq`: fewer vector
    /// instructions to interleave with the rounds.
    compress_vl,
    compress_pair_vl,
    "avx2,bmi1,bmi2,avx512f,avx512vl",
    schedule_pair_vl
);

/// Transpose a 4×4 matrix of 64-bit words held as four rows: word `j` of
/// row `i` moves to word `i` of row `j`.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose4(r: [__m256i; 4]) -> [__m256i; 4] {
    // [r0.0, r1.0, r0.2, r1.2], [r0.1, r1.1, r0.3, r1.3], and the same for
    // rows 2 and 3.
    let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    [
        _mm256_permute2x128_si256::<0x20>(t0, t2),
        _mm256_permute2x128_si256::<0x20>(t1, t3),
        _mm256_permute2x128_si256::<0x31>(t0, t2),
        _mm256_permute2x128_si256::<0x31>(t1, t3),
    ]
}

/// 32 bytes at `bytes[at..at + 32]`.
#[inline]
#[target_feature(enable = "avx2")]
fn load32(bytes: &[u8], at: usize) -> __m256i {
    let chunk = &bytes[at..at + 32];
    // SAFETY: `chunk` is 32 readable bytes (indexing checked it), and
    // `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()) }
}

/// `x` rotated right by `R` bits in every 64-bit lane (`L` = 64 - `R`).
#[inline]
#[target_feature(enable = "avx2")]
fn rotr<const R: i32, const L: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi64::<R>(x), _mm256_slli_epi64::<L>(x))
}

/// Σ0 (4.10) of every lane: ROTR 28 ⊕ ROTR 34 ⊕ ROTR 39.
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma0_x4(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(rotr::<28, 36>(x), rotr::<34, 30>(x)), rotr::<39, 25>(x))
}

/// Σ1 (4.11) of every lane: ROTR 14 ⊕ ROTR 18 ⊕ ROTR 41.
#[inline]
#[target_feature(enable = "avx2")]
fn big_sigma1_x4(x: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(rotr::<14, 50>(x), rotr::<18, 46>(x)), rotr::<41, 23>(x))
}

/// The 80 rounds (§6.4.2 step 3) and step 4 of one block of every stream:
/// the vector lanes' working variables in `$v` (word j of streams 0 to 3
/// in `$v[j]`), the scalar lane's in `$v5`. `data`: W[0..16] of the block
/// are in `$w` / `$w5`, W[16..80] are computed there as the rounds go, and
/// W + K is formed per round; `pad`: the block is the constant one that
/// pads a 128-byte message, whose W + K is [`PAD128_WK`] (no schedule).
macro_rules! rounds5 {
    (@wk data, $w:ident, $u:expr) => { _mm256_add_epi64($w[$u], _mm256_set1_epi64x(K[$u] as i64)) };
    (@wk pad, $w:ident, $u:expr) => { _mm256_set1_epi64x(PAD128_WK[$u] as i64) };
    (@wk5 data, $w5:ident, $u:expr) => { K[$u].wrapping_add($w5[$u]) };
    (@wk5 pad, $w5:ident, $u:expr) => { PAD128_WK[$u] };
    (@schedule data) => { true };
    (@schedule pad) => { false };
    ($mode:ident, $v:ident, $v5:ident, $w:ident, $w5:ident) => {{
        let mut sv = $v;
        let mut s5 = $v5;
        // Eight rounds of every stream per iteration (so that the variable
        // names come back to where they started), with both schedules 16
        // words ahead: the next eight words of every stream at the top of
        // each of the first eight iterations.
        macro_rules! iteration {
            ($t:expr, $schedule:expr) => {
                let t = $t;
                if $schedule {
                    // W[t+16..t+24] = σ1(W[u-2]) + W[u-7] + σ0(W[u-15]) + W[u-16].
                    for u in t + 16..t + 24 {
                        $w[u] = _mm256_add_epi64(
                            _mm256_add_epi64(small_sigma1($w[u - 2]), $w[u - 7]),
                            _mm256_add_epi64(small_sigma0($w[u - 15]), $w[u - 16]),
                        );
                        $w5[u] = scalar_sigma1($w5[u - 2])
                            .wrapping_add($w5[u - 7])
                            .wrapping_add(scalar_sigma0($w5[u - 15]))
                            .wrapping_add($w5[u - 16]);
                    }
                }
                let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = sv;
                let [mut a5, mut b5, mut c5, mut d5, mut e5, mut f5, mut g5, mut h5] = s5;
                macro_rules! round {
                    (
                        $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident,
                        $a5:ident, $b5:ident, $c5:ident, $d5:ident, $e5:ident, $f5:ident, $g5:ident, $h5:ident,
                        $i:expr
                    ) => {
                        // Vector lanes: T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t],
                        // T2 = Σ0(a) + Maj(a, b, c).
                        let wk = rounds5!(@wk $mode, $w, t + $i);
                        // Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g) (4.8).
                        let vch = _mm256_xor_si256(_mm256_and_si256($e, $f), _mm256_andnot_si256($e, $g));
                        let t1 = _mm256_add_epi64(_mm256_add_epi64($h, wk), _mm256_add_epi64(vch, big_sigma1_x4($e)));
                        // Maj(a, b, c) = b ⊕ ((a ⊕ b) ∧ (b ⊕ c)) (4.9).
                        let vmaj = _mm256_xor_si256(
                            $b,
                            _mm256_and_si256(_mm256_xor_si256($a, $b), _mm256_xor_si256($b, $c)),
                        );
                        $d = _mm256_add_epi64($d, t1);
                        $h = _mm256_add_epi64(t1, _mm256_add_epi64(big_sigma0_x4($a), vmaj));

                        // Scalar lane: the same round.
                        let u = t + $i;
                        let t1 = $h5
                            .wrapping_add(rounds5!(@wk5 $mode, $w5, u))
                            .wrapping_add(ch($e5, $f5, $g5))
                            .wrapping_add(big_sigma1($e5));
                        $d5 = $d5.wrapping_add(t1);
                        $h5 = t1.wrapping_add(maj($a5, $b5, $c5)).wrapping_add(big_sigma0($a5));
                    };
                }
                round!(a, b, c, d, e, f, g, h, a5, b5, c5, d5, e5, f5, g5, h5, 0);
                round!(h, a, b, c, d, e, f, g, h5, a5, b5, c5, d5, e5, f5, g5, 1);
                round!(g, h, a, b, c, d, e, f, g5, h5, a5, b5, c5, d5, e5, f5, 2);
                round!(f, g, h, a, b, c, d, e, f5, g5, h5, a5, b5, c5, d5, e5, 3);
                round!(e, f, g, h, a, b, c, d, e5, f5, g5, h5, a5, b5, c5, d5, 4);
                round!(d, e, f, g, h, a, b, c, d5, e5, f5, g5, h5, a5, b5, c5, 5);
                round!(c, d, e, f, g, h, a, b, c5, d5, e5, f5, g5, h5, a5, b5, 6);
                round!(b, c, d, e, f, g, h, a, b5, c5, d5, e5, f5, g5, h5, a5, 7);
                sv = [a, b, c, d, e, f, g, h];
                s5 = [a5, b5, c5, d5, e5, f5, g5, h5];
            };
        }
        // One loop over all ten iterations, the schedule behind one
        // well-predicted branch. Three loops (vector schedule only, both,
        // scalar only) tripled the code to about 12 KiB and ran 3-4%
        // slower; the scalar schedule in step with its rounds (a branch a
        // round) ran 2% slower (64 x 8 KiB on an Intel Sapphire Rapids
        // core, AVX2 code only).
        for t in (0..80).step_by(8) {
            iteration!(t, rounds5!(@schedule $mode) && t < 64);
        }

        // Step 4: the intermediate hash value.
        for (x, y) in $v.iter_mut().zip(sv) {
            *x = _mm256_add_epi64(*x, y);
        }
        for (x, y) in $v5.iter_mut().zip(s5) {
            *x = x.wrapping_add(y);
        }
    }};
}

/// Compress five independent streams at once (FIPS 180-4 §6.4.2 on each):
/// `data[i]` into `states[i]`. All `data[i]` have the same length, a whole
/// number of 128-byte blocks.
///
/// Streams 0 to 3 run in the four 64-bit lanes of `ymm` registers; stream 4
/// runs on general-purpose registers in the same loop. The vector lanes
/// are limited by the vector shift units (AVX2 has no 64-bit rotate, so
/// each rotation is two shifts and an OR), which leaves the integer ALUs
/// idle: the fifth, scalar stream uses them.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn compress5(states: &mut [[u64; 8]; 5], data: [&[u8]; 5]) {
    let len = data[0].len();
    assert!(data.iter().all(|d| d.len() == len) && len.is_multiple_of(128), "lanes get equal whole blocks");

    // Vector lanes: the state transposed, `v[j]` holding working variable
    // j of streams 0 to 3.
    let rows = |half: usize| core::array::from_fn(|i| load_state(&states[i], half));
    let [a, b, c, d] = transpose4(rows(0));
    let [e, f, g, h] = transpose4(rows(1));
    let mut v = [a, b, c, d, e, f, g, h];
    // Scalar lane.
    let mut v5 = states[4];

    let bswap = bswap64_mask();
    // W[t] of the vector lanes and of the scalar lane (the whole schedule
    // of one block each, indexed alike).
    let mut w = [_mm256_setzero_si256(); 80];
    let mut w5 = [0u64; 80];
    for at in (0..len).step_by(128) {
        // Exactly one block per vector lane: with the length a constant,
        // LLVM proves every load below in bounds.
        let block = [&data[0][at..at + 128], &data[1][at..at + 128], &data[2][at..at + 128], &data[3][at..at + 128]];
        // W[0..16] (§6.4.2 step 1): four words of each lane per load,
        // transposed so that `w[t]` holds word t of every lane.
        for k in 0..4 {
            let rows = core::array::from_fn(|i| _mm256_shuffle_epi8(load32(block[i], 32 * k), bswap));
            w[4 * k..4 * k + 4].copy_from_slice(&transpose4(rows));
        }
        for (word, bytes) in w5.iter_mut().zip(data[4][at..at + 128].chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(bytes);
            *word = u64::from_be_bytes(b);
        }

        rounds5!(data, v, v5, w, w5);
    }

    let [r0, r1, r2, r3] = transpose4([v[0], v[1], v[2], v[3]]);
    let [r4, r5, r6, r7] = transpose4([v[4], v[5], v[6], v[7]]);
    for (state, (lo, hi)) in states.iter_mut().zip([(r0, r4), (r1, r5), (r2, r6), (r3, r7)]) {
        store_state(state, 0, lo);
        store_state(state, 1, hi);
    }
    states[4] = v5;
}


/// `out[i]` = SHA-512 (from `init`) of `pairs[i]`, a 128-byte message (two
/// 64-byte nodes), for five pairs: four in the vector lanes and one on the
/// general registers, as [`compress5`] runs them: the pair's block with
/// its schedule, then the padding block, the same for every 128-byte
/// message, with W + K a constant ([`PAD128_WK`]: no schedule).
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn pairs5(init: &[u64; 8], pairs: &[[u8; 128]; 5], out: &mut [[u8; 64]; 5]) {
    let bswap = bswap64_mask();
    let mut w = [_mm256_setzero_si256(); 80];
    let mut w5 = [0u64; 80];
    for k in 0..4 {
        let rows = core::array::from_fn(|i| _mm256_shuffle_epi8(load32(&pairs[i], 32 * k), bswap));
        w[4 * k..4 * k + 4].copy_from_slice(&transpose4(rows));
    }
    for (word, bytes) in w5.iter_mut().zip(pairs[4].chunks_exact(8)) {
        *word = u64::from_be_bytes(bytes.try_into().expect("8-byte chunk"));
    }
    let mut v: [__m256i; 8] = core::array::from_fn(|j| _mm256_set1_epi64x(init[j] as i64));
    let mut v5 = *init;
    rounds5!(data, v, v5, w, w5);
    rounds5!(pad, v, v5, w, w5);
    let [r0, r1, r2, r3] = transpose4([v[0], v[1], v[2], v[3]]);
    let [r4, r5, r6, r7] = transpose4([v[4], v[5], v[6], v[7]]);
    for (digest, (lo, hi)) in out.iter_mut().zip([(r0, r4), (r1, r5), (r2, r6), (r3, r7)]) {
        let mut state = [0u64; 8];
        store_state(&mut state, 0, lo);
        store_state(&mut state, 1, hi);
        super::digest_bytes(&state, digest);
    }
    super::digest_bytes(&v5, &mut out[4]);
}

/// `out[i]` = SHA-512 (from `init`) of `pairs[i]` for every whole group of
/// five pairs ([`pairs5`]); returns how many pairs that was, for the
/// caller to finish the rest another way.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn hash_pairs128(init: &[u64; 8], pairs: &[[u8; 128]], out: &mut [[u8; 64]]) -> usize {
    assert_eq!(pairs.len(), out.len(), "hash_pairs128: one output slot per 128-byte message");
    let (groups, _) = pairs.as_chunks::<5>();
    let (slots, _) = out.as_chunks_mut::<5>();
    for (group, slot) in groups.iter().zip(slots.iter_mut()) {
        pairs5(init, group, slot);
    }
    groups.len() * 5
}

/// Words `4 * half .. 4 * half + 4` of `state`.
#[inline]
#[target_feature(enable = "avx2")]
fn load_state(state: &[u64; 8], half: usize) -> __m256i {
    let words = &state[4 * half..4 * half + 4];
    // SAFETY: `words` is 32 readable bytes (indexing checked it), and
    // `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(words.as_ptr().cast::<__m256i>()) }
}

/// Store `x` to words `4 * half .. 4 * half + 4` of `state`.
#[inline]
#[target_feature(enable = "avx2")]
fn store_state(state: &mut [u64; 8], half: usize, x: __m256i) {
    let words = &mut state[4 * half..4 * half + 4];
    // SAFETY: `words` is 32 writable bytes (indexing checked it), and
    // `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast::<__m256i>(), x) }
}

/// Hash each of `inputs` into the matching slot of `outputs`, five
/// messages at a time on [`compress5`]; once fewer than four lanes would
/// be busy, the rest go through the one-message [`compress`]. A five-lane
/// step costs about 3.1 one-message blocks on an Intel Xeon (Sapphire
/// Rapids class, AVX2 code), so three busy lanes about break even.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn digest_many<A>(inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: hash_core::FixedAlgorithm<Backend = super::Backend, State = [u64; 8], BlockSize = U128>,
{
    hash_core::multi::digest_many_lanes::<A, 5>(super::Backend::Avx2, inputs, outputs, 4, |states, data| {
        compress5(states, data)
    });
}
