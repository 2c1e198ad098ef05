//! `digest_many`'s detection engine for CPUs where the plain SHA-1 batches
//! run on the 16 AVX-512 lanes: sixteen messages at once, one per 32-bit
//! lane of the `zmm` registers, each block's rounds (FIPS 180-4 §6.1.2 in
//! every lane, as `backend::x86_avx512` runs them) and then its
//! unavoidable-bit-condition filter in the lanes.
//!
//! In the lanes a condition ("bit a of W[i] ⊕ bit b of W[j] is v", see
//! `detect::ubc_mask`) is a rotation that lines bit b of W[j] up with bit a
//! (none when a = b), an XOR, a `vptestmd`/`vptestnmd` of bit a into a mask
//! register (the lanes where the condition fails), and a masked `vpandnd`
//! that clears the DVs it rules out in those lanes: four instructions (three
//! for the 63 conditions with a = b) for sixteen blocks, where the packed
//! filter of the single-message path takes about five per eight
//! conditions of one block. The blocks whose masks keep a DV (one block in
//! twenty of random data) are queued (`super::queue`) and checked sixteen
//! at a time in the lanes ([`check_lanes`]: `detect::check`'s
//! recomputation, every lane along its own DV). On an Intel Xeon (model
//! 167): 0.38-0.41x the plain 16-lane batches with the scalar check lane by
//! lane, 0.41-0.47x checking all sixteen lanes whenever one kept a DV
//! (about half the steps), 0.51-0.54x with the queue.

use core::arch::x86_64::{
    __m512i, __mmask16, _mm512_add_epi32, _mm512_cmpeq_epi32_mask, _mm512_loadu_si512, _mm512_mask_andnot_epi32,
    _mm512_mask_blend_epi32, _mm512_mask_test_epi32_mask, _mm512_mask_testn_epi32_mask, _mm512_permutex2var_epi32,
    _mm512_rol_epi32, _mm512_rolv_epi32, _mm512_ror_epi32, _mm512_set1_epi32, _mm512_setzero_si512,
    _mm512_storeu_si512, _mm512_sub_epi32, _mm512_ternarylogic_epi32, _mm512_test_epi32_mask, _mm512_xor_si512,
};

use super::DcState;
use super::queue::CheckQueue;

use super::tables::{DVS, UBCS};
use crate::consts::K;

/// Lanes of the engine.
pub(crate) const LANES: usize = 16;

/// `vpternlogd` truth tables: a ⊕ b ⊕ c (Parity), a ? b : c (Ch), the
/// majority of three (Maj) (§4.1.1).
const XOR3: i32 = 0x96;
const CHOOSE: i32 = 0xca;
const MAJORITY: i32 = 0xe8;

use hash_core::arch::x86::load_be_words_16x16 as load_words;

/// The sixteen lanes of `v`.
#[inline]
#[target_feature(enable = "avx512f")]
fn lanes_of(v: __m512i) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    // SAFETY: `out` is 64 writable bytes; storeu has no alignment
    // requirement.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) };
    out
}

/// Lane `s` of each of five vectors: a chaining value or a state.
fn lane5(v: &[[u32; LANES]; 5], s: usize) -> [u32; 5] {
    [v[0][s], v[1][s], v[2][s], v[3][s], v[4][s]]
}

/// The filter on the sixteen lanes' W: lane s of the result has bit `d` set
/// if lane s's W meets every condition of DV `d` (`detect::ubc_mask`, lane
/// by lane).
#[inline]
#[target_feature(enable = "avx512f")]
fn ubc_lanes(w: &[__m512i; 80]) -> __m512i {
    let mut mask = _mm512_set1_epi32(-1);
    macro_rules! rows {
        ($($k:literal)*) => {$(
            let c = &UBCS[$k];
            let (wi, wj) = (w[usize::from(c.i)], w[usize::from(c.j)]);
            // Bit b of W[j] moved to bit a.
            let rot = (i32::from(c.a) - i32::from(c.b)).rem_euclid(32);
            let wj = if rot == 0 { wj } else { _mm512_rolv_epi32(wj, _mm512_set1_epi32(rot)) };
            let x = _mm512_xor_si512(wi, wj);
            let bit = _mm512_set1_epi32(1 << c.a);
            // The lanes where bit a of x is not the wanted value.
            let fail = if c.value == 1 { _mm512_mask_testn_epi32_mask(!0, x, bit) } else { _mm512_mask_test_epi32_mask(!0, x, bit) };
            mask = _mm512_mask_andnot_epi32(mask, fail, _mm512_set1_epi32(c.dvs as i32), mask);
        )*};
    }
    const { assert!(UBCS.len() == 156) };
    rows!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
          40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77
          78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111
          112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127 128 129 130 131 132 133 134 135 136 137 138 139 140
          141 142 143 144 145 146 147 148 149 150 151 152 153 154 155);
    mask
}

/// The filter of [`ubc_lanes`] on one W, in lane 0 (the tests compare it
/// with the table-driven filter).
#[cfg(test)]
#[target_feature(enable = "avx512f")]
pub(crate) fn ubc_lane0(w: &[u32; 80]) -> u32 {
    let v: [__m512i; 80] = core::array::from_fn(|t| _mm512_set1_epi32(w[t] as i32));
    lanes_of(ubc_lanes(&v))[0]
}

/// Compress one block of every lane, from the chaining values `h`: returns
/// the new ones, and stores every lane's W[0..80] into `w` and the states
/// before steps 58 and 65 into `s58`, `s65`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn rounds(
    h: [__m512i; 5],
    lanes: &[*const u8; LANES],
    at: usize,
    w: &mut [__m512i; 80],
    s58: &mut [__m512i; 5],
    s65: &mut [__m512i; 5],
) -> [__m512i; 5] {
    // SAFETY: the caller (`compress_lanes`) checked that every lane holds
    // `at + 64` readable bytes.
    let first = unsafe { load_words(lanes, at) };
    w[..16].copy_from_slice(&first);
    let [mut a, mut b, mut c, mut d, mut e] = h;
    // §6.1.2 step 1 for t >= 16, and step 3; the names rotate as in
    // `detect::compress_block`.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $t:expr) => {
            if $t >= 16 {
                let x = _mm512_ternarylogic_epi32::<XOR3>(w[$t - 3], w[$t - 8], w[$t - 14]);
                w[$t] = _mm512_rol_epi32::<1>(_mm512_xor_si512(x, w[$t - 16]));
            }
            let f = match $t / 20 {
                0 => _mm512_ternarylogic_epi32::<CHOOSE>($b, $c, $d),
                2 => _mm512_ternarylogic_epi32::<MAJORITY>($b, $c, $d),
                _ => _mm512_ternarylogic_epi32::<XOR3>($b, $c, $d),
            };
            $e = _mm512_add_epi32($e, _mm512_add_epi32(w[$t], _mm512_set1_epi32(K[$t / 20] as i32)));
            $e = _mm512_add_epi32($e, f);
            $e = _mm512_add_epi32($e, _mm512_rol_epi32::<5>($a));
            $b = _mm512_rol_epi32::<30>($b);
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
    round!(a, b, c, d, e, 55);
    round!(e, a, b, c, d, 56);
    round!(d, e, a, b, c, 57);
    // Before step 58 the state (a, b, c, d, e) is held by (c, d, e, a, b).
    *s58 = [c, d, e, a, b];
    round!(c, d, e, a, b, 58);
    round!(b, c, d, e, a, 59);
    five!(60);
    *s65 = [a, b, c, d, e];
    five!(65);
    five!(70);
    five!(75);
    // Step 4.
    [
        _mm512_add_epi32(h[0], a),
        _mm512_add_epi32(h[1], b),
        _mm512_add_epi32(h[2], c),
        _mm512_add_epi32(h[3], d),
        _mm512_add_epi32(h[4], e),
    ]
}

/// The DVs' message differences by word: `DM_BY_WORD[t]` holds word t of
/// DVs 0..32, for a `vpermt2d` to pick each lane's.
const DM_BY_WORD: [[u32; 32]; 80] = {
    let mut out = [[0u32; 32]; 80];
    let mut t = 0;
    while t < 80 {
        let mut d = 0;
        while d < 32 {
            out[t][d] = DVS[d].dm[t];
            d += 1;
        }
        t += 1;
    }
    out
};

/// Sixteen u32 into a register.
#[inline]
#[target_feature(enable = "avx512f")]
fn load16(x: &[u32]) -> __m512i {
    assert!(x.len() >= LANES);
    // SAFETY: `x` holds at least 16 readable u32 (checked just above);
    // loadu has no alignment requirement.
    unsafe { _mm512_loadu_si512(x.as_ptr().cast()) }
}

/// The checks of one block of every lane (`detect::check` in the lanes):
/// for each lane, the DVs its filter kept (`masks`), lowest first, one DV
/// per lane at a time, recomputed along that DV from the lane's state at
/// the DV's step (`s58`, `s65`) backward to step 0 and forward to step 80
/// with the lane's W XOR the DV's difference. Returns the lanes where one
/// leads to a collision (or, for the lanes in `reduced`, starts from the
/// same chaining value `h`), the reference's verdict.
#[inline]
#[target_feature(enable = "avx512f")]
fn check_lanes(
    w: &[__m512i; 80],
    h: &[__m512i; 5],
    next: &[__m512i; 5],
    s58: &[__m512i; 5],
    s65: &[__m512i; 5],
    mut masks: [u32; LANES],
    reduced: __mmask16,
) -> __mmask16 {
    let mut found: __mmask16 = 0;
    loop {
        // Each lane's lowest remaining DV (lanes with none recompute DV 0,
        // unread).
        let mut busy: __mmask16 = 0;
        let mut from58: __mmask16 = 0;
        let mut index = [0u32; LANES];
        for (s, m) in masks.iter_mut().enumerate() {
            if *m != 0 {
                let d = m.trailing_zeros();
                *m &= *m - 1;
                busy |= 1 << s;
                index[s] = d;
                if DVS[d as usize].step == 58 {
                    from58 |= 1 << s;
                }
            }
        }
        if busy == 0 {
            return found;
        }
        let index = load16(&index);
        let f = |t: usize, b: __m512i, c: __m512i, d: __m512i| match t / 20 {
            0 => _mm512_ternarylogic_epi32::<CHOOSE>(b, c, d),
            2 => _mm512_ternarylogic_epi32::<MAJORITY>(b, c, d),
            _ => _mm512_ternarylogic_epi32::<XOR3>(b, c, d),
        };
        // W XOR the lane's DV difference, plus K (each step's own, off the
        // steps' dependency chain).
        let wk = |t: usize| {
            let dm = _mm512_permutex2var_epi32(load16(&DM_BY_WORD[t][..16]), index, load16(&DM_BY_WORD[t][16..]));
            _mm512_add_epi32(_mm512_xor_si512(w[t], dm), _mm512_set1_epi32(K[t / 20] as i32))
        };
        // Backward from step 65 (the lanes whose DV starts at 58 take
        // their state there) to 0: the state before step t from the state
        // after it.
        let [mut a, mut b, mut c, mut d, mut e] = *s65;
        macro_rules! back {
            ($t:literal) => {
                if $t == 57 {
                    // The state before step 58 is the one we hold now.
                    [a, b, c, d, e] =
                        core::array::from_fn(|j| _mm512_mask_blend_epi32(from58, [a, b, c, d, e][j], s58[j]));
                }
                let (pa, pb, pc, pd) = (b, _mm512_ror_epi32::<30>(c), d, e);
                let x = _mm512_add_epi32(_mm512_rol_epi32::<5>(pa), f($t, pb, pc, pd));
                let pe = _mm512_sub_epi32(_mm512_sub_epi32(a, x), wk($t));
                [a, b, c, d, e] = [pa, pb, pc, pd, pe];
            };
        }
        steps_back_from_64!(back);
        let back = [a, b, c, d, e];
        // Forward from step 58 (the lanes whose DV starts at 65 take their
        // state there) to 80.
        [a, b, c, d, e] = *s58;
        macro_rules! forward {
            ($t:literal) => {
                if $t == 65 {
                    [a, b, c, d, e] =
                        core::array::from_fn(|j| _mm512_mask_blend_epi32(!from58, [a, b, c, d, e][j], s65[j]));
                }
                let x = _mm512_add_epi32(
                    _mm512_add_epi32(_mm512_rol_epi32::<5>(a), f($t, b, c, d)),
                    _mm512_add_epi32(e, wk($t)),
                );
                [a, b, c, d, e] = [x, a, _mm512_rol_epi32::<30>(b), c, d];
            };
        }
        steps_forward_from_58!(forward);
        let mut out_eq: __mmask16 = busy;
        let mut in_eq: __mmask16 = busy & reduced;
        for (j, v) in [a, b, c, d, e].into_iter().enumerate() {
            out_eq &= _mm512_cmpeq_epi32_mask(_mm512_add_epi32(back[j], v), next[j]);
            in_eq &= _mm512_cmpeq_epi32_mask(back[j], h[j]);
        }
        found |= out_eq | in_eq;
    }
}

/// `digest_many`'s engine: sixteen messages' blocks at once (see the
/// module docs). Each of `data` holds the same number of whole blocks, the
/// next blocks of the message in the matching state. A lane whose check
/// detects an attack stops there (its registers run on, unread), and that
/// block and the rest of its data go to `single` (the single-message
/// detection on the backend it was called with) at the end, as does all
/// the data of a state already past a detection.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn compress_lanes(
    sts: &mut [DcState; LANES],
    data: [&[u8]; LANES],
    single: &mut dyn FnMut(&mut DcState, &[[u8; 64]]),
) {
    let len = data[0].len();
    assert!(len.is_multiple_of(64) && data.iter().all(|d| d.len() == len), "lanes of equal whole blocks");
    let nblocks = len / 64;
    let mut stop = [nblocks; LANES];
    let mut live = [true; LANES];
    for s in 0..LANES {
        if sts[s].found {
            stop[s] = 0;
            live[s] = false;
        }
    }
    let mut h = [_mm512_setzero_si512(); 5];
    for (j, hj) in h.iter_mut().enumerate() {
        let column: [u32; LANES] = core::array::from_fn(|s| sts[s].ihv[j]);
        // SAFETY: `column` is 64 readable bytes; loadu has no alignment
        // requirement.
        *hj = unsafe { _mm512_loadu_si512(column.as_ptr().cast()) };
    }
    let lanes = data.map(<[u8]>::as_ptr);
    let mut w = [_mm512_setzero_si512(); 80];
    let (mut s58, mut s65) = ([_mm512_setzero_si512(); 5], [_mm512_setzero_si512(); 5]);
    // The checks of the blocks whose filter keeps a DV, queued (index
    // `LANES * k + s` for message s's block k) and run sixteen at a time
    // in the lanes, a lane per block: about one lane in twenty has one, so
    // a check of all the lanes whenever one has (as this engine ran before)
    // recomputed sixteen lanes for one or two.
    let mut queue = CheckQueue::<LANES>::EMPTY;
    // Check the queued blocks; a message with a detection stops at its
    // first such block.
    let flush = |queue: &mut CheckQueue<LANES>,
                 sts: &mut [DcState; LANES],
                 live: &mut [bool; LANES],
                 stop: &mut [usize; LANES]| {
        queue.flush_streams(sts, live, stop, |q, r| check_queued(q, r));
    };
    for k in 0..nblocks {
        let next = rounds(h, &lanes, 64 * k, &mut w, &mut s58, &mut s65);
        let mask = ubc_lanes(&w);
        let hits = _mm512_test_epi32_mask(mask, mask);
        if hits != 0 {
            let masks = lanes_of(mask);
            let [hs, ns, a58, a65] =
                [&h, &next, &s58, &s65].map(|v| -> [[u32; LANES]; 5] { core::array::from_fn(|j| lanes_of(v[j])) });
            for s in 0..LANES {
                if hits >> s & 1 == 0 || !live[s] {
                    continue;
                }
                let data: &[u8; 64] = match data[s][64 * k..64 * k + 64].try_into() {
                    Ok(b) => b,
                    Err(_) => unreachable!("blocks are 64 bytes"),
                };
                let (hi, ni) = (lane5(&hs, s), lane5(&ns, s));
                if queue.push(LANES * k + s, data, masks[s], hi, ni, lane5(&a58, s), lane5(&a65, s)) {
                    flush(&mut queue, sts, &mut live, &mut stop);
                }
            }
        }
        h = next;
    }
    flush(&mut queue, sts, &mut live, &mut stop);
    let ends: [[u32; LANES]; 5] = core::array::from_fn(|j| lanes_of(h[j]));
    for s in 0..LANES {
        if live[s] {
            sts[s].ihv = lane5(&ends, s);
            sts[s].plain = sts[s].ihv;
        } else {
            single(&mut sts[s], data[s][64 * stop[s]..].as_chunks::<64>().0);
        }
    }
}

/// The queued checks (`super::queue`) in the sixteen lanes, for the
/// `sha-ni-avx512` path and this engine: W expanded from the queued
/// W[0..16], then [`check_lanes`] (with reduced-round detection in the
/// lanes set in `reduced`). Returns the lanes with a detection.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) fn check_queued(q: &CheckQueue<LANES>, reduced: u32) -> u32 {
    let mut w = [_mm512_setzero_si512(); 80];
    for (wt, row) in w.iter_mut().zip(&q.w16) {
        *wt = load16(row);
    }
    // FIPS 180-4 §6.1.2 step 1.
    macro_rules! expand {
        ($t:literal) => {
            let x = _mm512_ternarylogic_epi32::<XOR3>(w[$t - 3], w[$t - 8], w[$t - 14]);
            w[$t] = _mm512_rol_epi32::<1>(_mm512_xor_si512(x, w[$t - 16]));
        };
    }
    steps_16_to_79!(expand);
    let vectors = |v: &[[u32; LANES]; 5]| -> [__m512i; 5] { core::array::from_fn(|j| load16(&v[j])) };
    let (h, next) = (vectors(&q.h), vectors(&q.next));
    let (s58, s65) = (vectors(&q.s58), vectors(&q.s65));
    u32::from(check_lanes(&w, &h, &next, &s58, &s65, q.masks, reduced as __mmask16))
}
