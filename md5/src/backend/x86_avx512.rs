//! Multi-buffer MD5 (RFC 1321 §3.4) on AVX-512F: 16, 32 or 64 independent
//! messages, as groups of 16 whose 32-bit words sit in the lanes of `zmm`
//! registers.
//!
//! AVX-512F gives each round function in one instruction (`vpternlogd`,
//! with the function's truth table as its immediate) and a rotate
//! (`vprold`), so a step is six operations on 16 lanes, of which four are
//! on the chain from `b` (round function, add, rotate, add). The groups
//! are written side by side, step by step, so that the CPU overlaps their
//! chains.

use core::arch::x86_64::{
    __m128i, __m512i, _mm_loadu_si128, _mm_storeu_si128, _mm512_add_epi32, _mm512_castsi128_si512,
    _mm512_castsi512_si128, _mm512_extracti32x4_epi32, _mm512_inserti32x4, _mm512_rol_epi32, _mm512_set1_epi32,
    _mm512_setzero_si512, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
};

use crate::consts::{T, md5_steps};

/// The round functions as `vpternlogd` truth tables: bit `4x + 2y + z` of
/// the immediate is the function's value at X = x, Y = y, Z = z (RFC 1321
/// §3.4).
mod table {
    /// F(X,Y,Z) = XY v not(X) Z.
    pub(super) const F: i32 = 0xca;
    /// G(X,Y,Z) = XZ v Y not(Z).
    pub(super) const G: i32 = 0xe4;
    /// H(X,Y,Z) = X xor Y xor Z.
    pub(super) const H: i32 = 0x96;
    /// I(X,Y,Z) = Y xor (X v not(Z)).
    pub(super) const I: i32 = 0x39;
}

use hash_core::arch::x86::opaque_m512i as opaque;

/// Transpose 16 rows of 4 words: word `j` of `rows[i]` goes to lane `i`
/// of vector `j`.
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_in(rows: [__m128i; 16]) -> [__m512i; 4] {
    // r[k] holds rows k, k + 4, k + 8 and k + 12, one per 128-bit chunk.
    let r: [__m512i; 4] = core::array::from_fn(|k| {
        let v = _mm512_castsi128_si512(rows[k]);
        let v = _mm512_inserti32x4::<1>(v, rows[k + 4]);
        let v = _mm512_inserti32x4::<2>(v, rows[k + 8]);
        _mm512_inserti32x4::<3>(v, rows[k + 12])
    });
    // Within each 128-bit chunk c: [w0 of rows 4c, 4c+1, w1 of rows 4c,
    // 4c+1], and so on.
    let t0 = _mm512_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm512_unpacklo_epi32(r[2], r[3]);
    let t2 = _mm512_unpackhi_epi32(r[0], r[1]);
    let t3 = _mm512_unpackhi_epi32(r[2], r[3]);
    // Chunk c: word j of rows 4c..4c+4, so rows 0..16 in order.
    [
        _mm512_unpacklo_epi64(t0, t1),
        _mm512_unpackhi_epi64(t0, t1),
        _mm512_unpacklo_epi64(t2, t3),
        _mm512_unpackhi_epi64(t2, t3),
    ]
}

/// The inverse of [`transpose_in`]: lane `i` of vector `j` goes to word `j`
/// of row `i`.
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_out(v: [__m512i; 4]) -> [__m128i; 16] {
    // The same unpacking, applied to the columns, leaves in chunk c of
    // u[k] the four words of row 4c + k.
    let t0 = _mm512_unpacklo_epi32(v[0], v[1]);
    let t1 = _mm512_unpacklo_epi32(v[2], v[3]);
    let t2 = _mm512_unpackhi_epi32(v[0], v[1]);
    let t3 = _mm512_unpackhi_epi32(v[2], v[3]);
    let u = [
        _mm512_unpacklo_epi64(t0, t1),
        _mm512_unpackhi_epi64(t0, t1),
        _mm512_unpacklo_epi64(t2, t3),
        _mm512_unpackhi_epi64(t2, t3),
    ];
    core::array::from_fn(|i| {
        let u = u[i % 4];
        match i / 4 {
            0 => _mm512_castsi512_si128(u),
            1 => _mm512_extracti32x4_epi32::<1>(u),
            2 => _mm512_extracti32x4_epi32::<2>(u),
            _ => _mm512_extracti32x4_epi32::<3>(u),
        }
    })
}

/// A lane's chaining value as a vector, A in the low word.
#[inline]
#[target_feature(enable = "avx512f")]
fn load_state(state: &[u32; 4]) -> __m128i {
    // SAFETY: `state` is 16 readable bytes, which is what `_mm_loadu_si128`
    // reads; it has no alignment requirement (and SSE2 is baseline x86-64).
    unsafe { _mm_loadu_si128(state.as_ptr().cast()) }
}

/// Store a vector made by [`load_state`] back.
#[inline]
#[target_feature(enable = "avx512f")]
fn store_state(state: &mut [u32; 4], v: __m128i) {
    // SAFETY: `state` is 16 writable bytes, which is what `_mm_storeu_si128`
    // writes; it has no alignment requirement (and SSE2 is baseline x86-64).
    unsafe { _mm_storeu_si128(state.as_mut_ptr().cast(), v) }
}

/// Load word `k` (0..16) of the block at byte `at` of each of the 16
/// `lanes` into `x[k]`, lane `i` of the vector holding word `k` of lane
/// `i`'s block (as [`transpose_in`] does for four words, written out so
/// that each load feeds its insert).
///
/// The lanes come as pointers: from slices, LLVM kept a bounds check per
/// lane and block, and for 32 and 64 lanes a loop over the groups.
///
/// # Safety
/// Every pointer in `lanes` must be valid for reads of `at + 64` bytes.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load_words(x: &mut [__m512i; 16], lanes: &[*const u8; 16], at: usize) {
    for quarter in 0..4 {
        // Row r (r in 0..4) holds words 4q..4q+4 of lanes r, r + 4, r + 8
        // and r + 12, one lane per 128-bit chunk.
        let at = at + 16 * quarter;
        macro_rules! load {
            ($lane:expr) => {
                // SAFETY: the caller guarantees 64 readable bytes at the
                // block's start in every lane, and these 16 are within
                // them; loadu has no alignment requirement.
                unsafe { _mm_loadu_si128(lanes[$lane].add(at).cast()) }
            };
        }
        macro_rules! row {
            ($r:literal) => {{
                let v = _mm512_castsi128_si512(load!($r));
                let v = _mm512_inserti32x4::<1>(v, load!($r + 4));
                let v = _mm512_inserti32x4::<2>(v, load!($r + 8));
                _mm512_inserti32x4::<3>(v, load!($r + 12))
            }};
        }
        let (r0, r1, r2, r3) = (row!(0), row!(1), row!(2), row!(3));
        let t0 = _mm512_unpacklo_epi32(r0, r1);
        let t1 = _mm512_unpacklo_epi32(r2, r3);
        let t2 = _mm512_unpackhi_epi32(r0, r1);
        let t3 = _mm512_unpackhi_epi32(r2, r3);
        x[4 * quarter] = _mm512_unpacklo_epi64(t0, t1);
        x[4 * quarter + 1] = _mm512_unpackhi_epi64(t0, t1);
        x[4 * quarter + 2] = _mm512_unpacklo_epi64(t2, t3);
        x[4 * quarter + 3] = _mm512_unpackhi_epi64(t2, t3);
    }
}

/// Compress `data[i]` into `states[i]` for each of the `N` lanes (`N` a
/// multiple of 16, at most 64: `N / 16` groups of 16 lanes, interleaved).
/// Every `data[i]` must have the same length, a multiple of 64 bytes.
///
/// # Panics
/// If the lengths differ or are not whole blocks.
#[target_feature(enable = "avx512f")]
pub(crate) fn compress_lanes<const N: usize>(states: &mut [[u32; 4]; N], data: [&[u8]; N]) {
    const { assert!(N.is_multiple_of(16) && N <= 64) };
    let groups = N / 16;
    let len = data[0].len();
    assert!(
        data.iter().all(|d| d.len() == len) && len.is_multiple_of(64),
        "md5 avx512: lanes of unequal or partial blocks"
    );

    // The chaining values: a[g] lane i is word 0 of states[16g + i], etc.
    let zero = _mm512_setzero_si512();
    let (mut a, mut b, mut c, mut d) = ([zero; 4], [zero; 4], [zero; 4], [zero; 4]);
    for g in 0..groups {
        let rows: &[[u32; 4]; 16] = (&states[16 * g..16 * g + 16]).try_into().expect("16 lanes per group");
        [a[g], b[g], c[g], d[g]] = transpose_in(rows.each_ref().map(|row| load_state(row)));
    }

    let mut x = [[zero; 16]; 4];
    let lanes = data.map(<[u8]>::as_ptr);
    let (lane_groups, _) = lanes.as_chunks::<16>();
    for offset in (0..len).step_by(64) {
        for (xg, group) in x.iter_mut().zip(lane_groups) {
            // SAFETY: every lane is `len` bytes long (the assert above), a
            // whole number of blocks, and `offset` is the start of one.
            unsafe { load_words(xg, group, offset) };
        }
        let (aa, bb, cc, dd) = (a, b, c, d);

        // One step on every group: a = b + ((a + X[k] + T[t] + fun(b,c,d)) <<< s).
        macro_rules! step {
            ($table:expr, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
                let konst = _mm512_set1_epi32(T[$t] as i32);
                for g in 0..groups {
                    // a + X[k] + T[t] first, behind `opaque`, so that LLVM
                    // cannot re-associate the sum and put the round
                    // function of b (the newest value) first.
                    let early = opaque(_mm512_add_epi32(_mm512_add_epi32(x[g][$k], konst), $a[g]));
                    let t = _mm512_add_epi32(early, _mm512_ternarylogic_epi32::<{ $table }>($b[g], $c[g], $d[g]));
                    $a[g] = _mm512_add_epi32($b[g], _mm512_rol_epi32::<$s>(t));
                }
            };
        }
        macro_rules! f {
            ($($arg:tt)*) => { step!(table::F, $($arg)*); };
        }
        macro_rules! g {
            ($($arg:tt)*) => { step!(table::G, $($arg)*); };
        }
        macro_rules! h {
            ($($arg:tt)*) => { step!(table::H, $($arg)*); };
        }
        macro_rules! i {
            ($($arg:tt)*) => { step!(table::I, $($arg)*); };
        }
        macro_rules! steps {
            ($($fun:ident($($arg:tt)*))*) => { $($fun!($($arg)*);)* };
        }
        md5_steps!(steps!(f, g, h, i, a, b, c, d));

        // Add the chaining value in (end of RFC 1321 §3.4's block loop).
        for g in 0..groups {
            a[g] = _mm512_add_epi32(a[g], aa[g]);
            b[g] = _mm512_add_epi32(b[g], bb[g]);
            c[g] = _mm512_add_epi32(c[g], cc[g]);
            d[g] = _mm512_add_epi32(d[g], dd[g]);
        }
    }

    for g in 0..groups {
        let rows = transpose_out([a[g], b[g], c[g], d[g]]);
        for (state, row) in states[16 * g..16 * g + 16].iter_mut().zip(rows) {
            store_state(state, row);
        }
    }
}
