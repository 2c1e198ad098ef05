//! SHA-1 collision detection, portable part: the compression that keeps
//! what the checks need, the unavoidable-bit-condition filter, and the
//! recomputation of the block that a disturbance vector's attack would pair
//! with this one (Stevens, "Counter-cryptanalysis", CRYPTO 2013; Stevens and
//! Shumow, USENIX Security 2017).
//!
//! An attack along disturbance vector (DV) `d` produces two blocks whose
//! expanded messages differ by `d.dm` (XOR) and whose internal states agree
//! at some step between the near-collision's start and its end. So for each
//! compressed block, and each DV whose unavoidable bit conditions the block
//! meets, the detection takes this block's state at the DV's step (58 or
//! 65), runs the rounds backward to step 0 and forward to step 80 with the
//! message XORed with `dm`, and asks whether the other block would end in
//! the same chaining value (a collision) or, for reduced-round detection,
//! start from the same one.
#![forbid(unsafe_code)]

use super::tables::{DVS, UBCS};
use crate::consts::K;

/// What the checks need from one compression: the expanded message and
/// the states at the two steps that DVs are recomputed from.
#[derive(Clone)]
pub(crate) struct Expanded {
    /// W[0..80] (FIPS 180-4 §6.1.2 step 1).
    pub(crate) w: [u32; 80],
    /// (a, b, c, d, e) before step 58.
    pub(crate) s58: [u32; 5],
    /// (a, b, c, d, e) before step 65.
    pub(crate) s65: [u32; 5],
}

impl Expanded {
    pub(crate) const ZERO: Expanded = Expanded { w: [0; 80], s58: [0; 5], s65: [0; 5] };
}

/// f_t (FIPS 180-4 §4.1.1) by round group: Ch, Parity, Maj, Parity.
#[inline(always)]
fn f(t: usize, b: u32, c: u32, d: u32) -> u32 {
    match t / 20 {
        0 => d ^ (b & (c ^ d)),
        2 => (b & c) | (d & (b | c)),
        _ => b ^ c ^ d,
    }
}

/// Step t forward on (a, b, c, d, e) (FIPS 180-4 §6.1.2 step 3).
#[inline(always)]
#[cfg_attr(not(all(target_arch = "x86_64", feature = "shani")), allow(dead_code))]
pub(crate) fn step(s: [u32; 5], t: usize, w: u32) -> [u32; 5] {
    let [a, b, c, d, e] = s;
    let tmp = a.rotate_left(5).wrapping_add(f(t, b, c, d)).wrapping_add(e).wrapping_add(K[t / 20]).wrapping_add(w);
    [tmp, a, b.rotate_left(30), c, d]
}

/// Steps `from..to` forward, all in round group `G` (so `f` and K are
/// fixed and the loop has no branch in it).
#[inline(always)]
fn steps_g<const G: usize>(mut s: [u32; 5], from: usize, to: usize, w: &[u32; 80]) -> [u32; 5] {
    for &wt in &w[from..to] {
        let [a, b, c, d, e] = s;
        let tmp = a.rotate_left(5).wrapping_add(f(20 * G, b, c, d)).wrapping_add(e).wrapping_add(K[G]).wrapping_add(wt);
        s = [tmp, a, b.rotate_left(30), c, d];
    }
    s
}

/// Steps `from..to` backward (from the state before step `to` to the
/// state before step `from`), all in round group `G`.
#[inline(always)]
fn unsteps_g<const G: usize>(mut s: [u32; 5], from: usize, to: usize, w: &[u32; 80]) -> [u32; 5] {
    for &wt in w[from..to].iter().rev() {
        let [a1, b1, c1, d1, e1] = s;
        let (a, b, c, d) = (b1, c1.rotate_right(30), d1, e1);
        let e = a1.wrapping_sub(a.rotate_left(5)).wrapping_sub(f(20 * G, b, c, d)).wrapping_sub(K[G]).wrapping_sub(wt);
        s = [a, b, c, d, e];
    }
    s
}

/// Steps `from..to` forward, within one round group.
#[inline(always)]
fn steps(s: [u32; 5], from: usize, to: usize, w: &[u32; 80]) -> [u32; 5] {
    match from / 20 {
        0 => steps_g::<0>(s, from, to, w),
        1 => steps_g::<1>(s, from, to, w),
        2 => steps_g::<2>(s, from, to, w),
        _ => steps_g::<3>(s, from, to, w),
    }
}

/// Steps `from..to` backward, within one round group.
#[inline(always)]
fn unsteps(s: [u32; 5], from: usize, to: usize, w: &[u32; 80]) -> [u32; 5] {
    match from / 20 {
        0 => unsteps_g::<0>(s, from, to, w),
        1 => unsteps_g::<1>(s, from, to, w),
        2 => unsteps_g::<2>(s, from, to, w),
        _ => unsteps_g::<3>(s, from, to, w),
    }
}

/// Step t backward: the state before step t from the state after it.
#[cfg(test)]
fn unstep(s: [u32; 5], t: usize, w: u32) -> [u32; 5] {
    let mut ws = [0u32; 80];
    ws[t] = w;
    unsteps(s, t, t + 1, &ws)
}

/// W[0..80] of a block.
///
/// W[16..32] by the recurrence of FIPS 180-4 §6.1.2, W[32..80] by the same
/// recurrence applied to itself, W[t] = ROTL²(W[t-6] ⊕ W[t-16] ⊕ W[t-28] ⊕
/// W[t-32]) (ROTL¹ distributes over ⊕ and the terms that appear twice
/// cancel): its nearest term is six words back, not three, so the
/// compiler runs it four words at a time in vector registers.
/// (Used by the tests; the detection paths expand W as they compress.)
#[cfg(test)]
pub(crate) fn expand(block: &[u8; 64], w: &mut [u32; 80]) {
    for (wt, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
        *wt = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    for t in 16..32 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    for t in 32..80 {
        w[t] = (w[t - 6] ^ w[t - 16] ^ w[t - 28] ^ w[t - 32]).rotate_left(2);
    }
}

/// Compress one block, storing W[0..80] and the states before steps 58
/// and 65 into `x`. Returns the new chaining value.
///
/// Fully unrolled, as the portable `Sha1` backend: each round names the
/// five variables in rotated order, so that its result lands in the one
/// that plays `a` next, and the schedule runs in a 16-word ring just ahead
/// of the rounds (see `backend::portable`); each word is also stored into
/// `x.w`, which nothing here reads back.
#[inline(always)]
pub(crate) fn compress_block(ihv: [u32; 5], block: &[u8; 64], x: &mut Expanded) -> [u32; 5] {
    let mut ring = [0u32; 16];
    for (wt, bytes) in ring.iter_mut().zip(block.chunks_exact(4)) {
        *wt = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    x.w[..16].copy_from_slice(&ring);
    let [mut a, mut b, mut c, mut d, mut e] = ihv;
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $t:expr) => {
            if $t >= 16 {
                let v =
                    (ring[($t - 3) & 15] ^ ring[($t - 8) & 15] ^ ring[($t - 14) & 15] ^ ring[$t & 15]).rotate_left(1);
                ring[$t & 15] = v;
                x.w[$t] = v;
            }
            $e = $e
                .wrapping_add(K[$t / 20])
                .wrapping_add(ring[$t & 15])
                .wrapping_add(f($t, $b, $c, $d))
                .wrapping_add($a.rotate_left(5));
            $b = $b.rotate_left(30);
        };
    }
    macro_rules! five {
        ($t:expr) => {
            round!(a, b, c, d, e, $t);
            round!(e, a, b, c, d, $t + 1);
            round!(d, e, a, b, c, $t + 2);
            round!(c, d, e, a, b, $t + 3);
            round!(b, c, d, e, a, $t + 4);
        };
    }
    five!(0);
    five!(5);
    five!(10);
    five!(15);
    five!(20);
    five!(25);
    five!(30);
    five!(35);
    five!(40);
    five!(45);
    five!(50);
    // Steps 55..58; then the state (a, b, c, d, e) is held by (c, d, e, a, b).
    round!(a, b, c, d, e, 55);
    round!(e, a, b, c, d, 56);
    round!(d, e, a, b, c, 57);
    x.s58 = [c, d, e, a, b];
    round!(c, d, e, a, b, 58);
    round!(b, c, d, e, a, 59);
    five!(60);
    x.s65 = [a, b, c, d, e];
    five!(65);
    five!(70);
    five!(75);
    add(ihv, [a, b, c, d, e])
}

/// Compress one block given its expanded message (the safe hash's extra
/// compressions).
#[inline]
pub(crate) fn compress_w(ihv: [u32; 5], w: &[u32; 80]) -> [u32; 5] {
    let mut s = steps(ihv, 0, 20, w);
    s = steps(s, 20, 40, w);
    s = steps(s, 40, 60, w);
    s = steps(s, 60, 80, w);
    add(ihv, s)
}

#[inline(always)]
fn add(x: [u32; 5], y: [u32; 5]) -> [u32; 5] {
    [
        x[0].wrapping_add(y[0]),
        x[1].wrapping_add(y[1]),
        x[2].wrapping_add(y[2]),
        x[3].wrapping_add(y[3]),
        x[4].wrapping_add(y[4]),
    ]
}

/// The unavoidable-bit-condition filter: bit `i` of the result is set if
/// W meets every condition of DV `i` (only those DVs are recomputed).
///
/// One condition at a time from the table; the SIMD backends have their own
/// (checked against this one in the tests).
pub(crate) fn ubc_mask(w: &[u32; 80]) -> u32 {
    let mut mask = !0u32;
    // Unrolled, so that each condition's word indices and shifts are
    // constants. The table is ordered to rule out DVs soonest: on random
    // messages the mask is empty after a few dozen conditions, so check
    // for that every eight.
    macro_rules! rows {
        ($($k:literal)*) => {
            $(
                let c = &UBCS[$k];
                let bit = ((w[usize::from(c.i)] >> c.a) ^ (w[usize::from(c.j)] >> c.b)) & 1;
                // All ones if the condition holds, else the DVs it rules
                // out cleared.
                mask &= !(c.dvs & (bit ^ u32::from(c.value)).wrapping_neg());
            )*
        };
    }
    const { assert!(UBCS.len() == 156) };
    rows!(0 1 2 3 4 5 6 7);
    if mask == 0 {
        return 0;
    }
    rows!(8 9 10 11 12 13 14 15);
    if mask == 0 {
        return 0;
    }
    rows!(16 17 18 19 20 21 22 23);
    if mask == 0 {
        return 0;
    }
    rows!(24 25 26 27 28 29 30 31);
    if mask == 0 {
        return 0;
    }
    rows!(32 33 34 35 36 37 38 39);
    if mask == 0 {
        return 0;
    }
    rows!(40 41 42 43 44 45 46 47);
    if mask == 0 {
        return 0;
    }
    rows!(48 49 50 51 52 53 54 55);
    if mask == 0 {
        return 0;
    }
    rows!(56 57 58 59 60 61 62 63);
    if mask == 0 {
        return 0;
    }
    rows!(64 65 66 67 68 69 70 71);
    if mask == 0 {
        return 0;
    }
    rows!(72 73 74 75 76 77 78 79);
    if mask == 0 {
        return 0;
    }
    rows!(80 81 82 83 84 85 86 87);
    if mask == 0 {
        return 0;
    }
    rows!(88 89 90 91 92 93 94 95);
    if mask == 0 {
        return 0;
    }
    rows!(96 97 98 99 100 101 102 103);
    if mask == 0 {
        return 0;
    }
    rows!(104 105 106 107 108 109 110 111);
    if mask == 0 {
        return 0;
    }
    rows!(112 113 114 115 116 117 118 119);
    if mask == 0 {
        return 0;
    }
    rows!(120 121 122 123 124 125 126 127);
    if mask == 0 {
        return 0;
    }
    rows!(128 129 130 131 132 133 134 135);
    if mask == 0 {
        return 0;
    }
    rows!(136 137 138 139 140 141 142 143);
    if mask == 0 {
        return 0;
    }
    rows!(144 145 146 147 148 149 150 151);
    if mask == 0 {
        return 0;
    }
    rows!(152 153 154 155);
    mask
}

/// Recompute, from this block's state `s` before step `step`, the pair
/// block along a DV: returns (its input chaining value, its output).
#[inline]
fn recompress(m2: &[u32; 80], at: usize, s: [u32; 5]) -> ([u32; 5], [u32; 5]) {
    let mut back = s;
    let mut t = at;
    while t > 0 {
        let lo = (t - 1) / 20 * 20;
        back = unsteps(back, lo, t, m2);
        t = lo;
    }
    let mut fwd = s;
    let mut t = at;
    while t < 80 {
        let hi = (t / 20 + 1) * 20;
        fwd = steps(fwd, t, hi, m2);
        t = hi;
    }
    (back, add(back, fwd))
}

/// The checks for a block compressed from `ihv_in` to `ihv_out` with `x`,
/// given the filter's `mask`: whether one of the DVs whose bit is set
/// leads to a collision (or, with `reduced`, a reduced-round collision).
pub(crate) fn check(ihv_in: [u32; 5], ihv_out: [u32; 5], x: &Expanded, mask: u32, reduced: bool) -> bool {
    if mask == 0 {
        return false;
    }
    let mut m2 = [0u32; 80];
    for (i, dv) in DVS.iter().enumerate() {
        if mask >> i & 1 == 0 {
            continue;
        }
        for ((m, &w), &dm) in m2.iter_mut().zip(&x.w).zip(&dv.dm) {
            *m = w ^ dm;
        }
        let s = if dv.step == 58 { x.s58 } else { x.s65 };
        let (pair_in, pair_out) = recompress(&m2, usize::from(dv.step), s);
        if pair_out == ihv_out || (reduced && pair_in == ihv_in) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dc::DvType;

    fn rotl(x: u32, n: u32) -> u32 {
        x.rotate_left(n)
    }

    /// The DV table's message masks follow from (type, K, b) as the
    /// generator derives them (Manuel's classification): checked here
    /// independently of the generator.
    #[test]
    fn dv_masks_follow_from_type_k_b() {
        for dv in &DVS {
            // DV[t] for t = -5..80, stored at t + 5.
            let mut v = [0u32; 85];
            let k = usize::from(dv.k) + 5;
            v[k + 15] = 1 << dv.b;
            if dv.kind == DvType::II {
                v[k + 1] = 1 << ((dv.b + 31) % 32);
                v[k + 3] = 1 << ((dv.b + 31) % 32);
            }
            for t in k + 16..85 {
                v[t] = rotl(v[t - 3] ^ v[t - 8] ^ v[t - 14] ^ v[t - 16], 1);
            }
            for t in (16..k + 16).rev() {
                v[t - 16] = v[t].rotate_right(1) ^ v[t - 3] ^ v[t - 8] ^ v[t - 14];
            }
            for t in 0..80 {
                let u = t + 5;
                let dm = v[u] ^ rotl(v[u - 1], 5) ^ v[u - 2] ^ rotl(v[u - 3] ^ v[u - 4] ^ v[u - 5], 30);
                assert_eq!(dm, dv.dm[t], "DV {:?}({}, {}) word {t}", dv.kind, dv.k, dv.b);
            }
            // The masks obey the message expansion, as any difference of
            // two expanded messages does.
            for t in 16..80 {
                assert_eq!(dv.dm[t], rotl(dv.dm[t - 3] ^ dv.dm[t - 8] ^ dv.dm[t - 14] ^ dv.dm[t - 16], 1));
            }
            assert!(dv.step == 58 || dv.step == 65);
        }
    }

    #[test]
    fn unstep_inverts_step() {
        let mut s = [0x0123_4567, 0x89ab_cdef, 0xfedc_ba98, 0x7654_3210, 0xf0e1_d2c3];
        for t in 0..80 {
            let w = (t as u32).wrapping_mul(0x9e37_79b9);
            let n = step(s, t, w);
            assert_eq!(unstep(n, t, w), s, "step {t}");
            s = n;
        }
    }

    /// Recomputing with no difference gives back this block's own input and
    /// output (so a DV with an all-zero mask would always "collide").
    #[test]
    fn recompress_without_difference_is_identity() {
        let block: [u8; 64] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let ihv = crate::consts::H0;
        let mut x = Expanded::ZERO;
        let out = compress_block(ihv, &block, &mut x);
        assert_eq!(recompress(&x.w, 58, x.s58), (ihv, out));
        assert_eq!(recompress(&x.w, 65, x.s65), (ihv, out));
    }
}
