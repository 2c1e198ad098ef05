//! Keccak-p\[1600, n_r\] (n_r = `ROUNDS`, 24 or 12; FIPS 202 §3.3) on one
//! state in five 512-bit registers with AVX-512F: the single-message code
//! of `Backend::Avx512` on the CPUs where it beats the scalar BMI
//! permutation (see the rule on `Backend::Avx512`).
//!
//! Each register ("slot") holds five lanes in elements 0..5 (elements 5..8
//! are don't-care). Which lanes sit where (the *layout*) changes from round
//! to round, chosen so that most steps need no data movement:
//!
//! * θ (§3.2.1) needs every slot to hold each column x once, at the same
//!   element f(x) ("vertical" layouts): then C = the XOR of the five slots
//!   (two `vpternlogq` 0x96), D\[x\] = C\[x-1\] ⊕ rot(C\[x+1\], 1) is two
//!   `vpermq` and a `vprolq`, and each slot takes one `vpternlogq` 0x96. A
//!   layout whose slot x holds column x ("horizontal") instead sums each slot
//!   across its elements: three `vpermq` per slot.
//! * ρ (§3.2.2) is one `vprolvq` per slot with a per-layout offset vector.
//! * π (§3.2.3) moves nothing: it renames the lanes of each slot, A\[x, y\]
//!   becoming B\[y, 2x + 3y\].
//! * χ (§3.2.4) is one `vpternlogq` 0xD2 per slot when each slot holds one
//!   lane of every row y, at the same element h(y), and the lanes x+1 and x+2
//!   of the same rows sit in two other slots (an "aligned" layout: one
//!   `vpermq` per slot puts B there); when π has gathered whole rows into the
//!   slots, χ takes three `vpermq` per slot instead.
//! * ι (§3.2.5) is one `vpxorq` of a per-round constant vector with RC at
//!   lane (0, 0)'s element, wherever that is.
//!
//! If a slot holds a line of lanes {(x0 + t, y0 + m·t)} (slope m, rows having
//! m = 0), π turns it into a line of slope 3 + 2/m (mod 5), and the sequence
//! of slopes is the six-cycle 0 → ∞ (columns) → 3 → 2 → 4 → 1 → 0. So the
//! rounds run in groups of six, starting and ending with rows in their
//! natural order (lane x + 5y at slot y, element x), which is also how the
//! state is loaded and stored with masked moves. Within a group each layout's
//! element order is free as long as the rules hold, and is chosen so that
//! slot 0 stays in place at every alignment. Per group of six rounds that
//! leaves 76 lane permutations (`vpermq`, port 5 on Intel cores, counted in
//! the compiled code) against about 160 for a row-by-row layout (two for D,
//! about fifteen for π's gather and ten for χ per round); the layouts and
//! every permutation index are derived at compile time by [`make_plan`] from
//! the rules above, and the derivation asserts that six rounds return to the
//! starting layout.
//!
//! [`absorb`] keeps the state in registers across every block of one call
//! (loaded once, stored once); each block's rate lanes are XORed in with
//! masked loads, one per row.

use core::arch::x86_64::{
    __m512i, _mm512_loadu_epi64, _mm512_mask_storeu_epi64, _mm512_maskz_loadu_epi64, _mm512_permutexvar_epi64,
    _mm512_rol_epi64, _mm512_rolv_epi64, _mm512_set_epi64, _mm512_setzero_si512, _mm512_ternarylogic_epi64,
    _mm512_xor_si512,
};

use crate::consts::{RC, RHO};

/// Which lane (index x + 5y) sits in each slot and element (0..5).
type Layout = [[u8; 5]; 5];

/// The layout of the state in memory and between groups of six rounds:
/// slot y holds row y, lane (x, y) at element x.
const ROWS: Layout = {
    let mut l = [[0u8; 5]; 5];
    let mut s = 0;
    while s < 5 {
        let mut p = 0;
        while p < 5 {
            l[s][p] = (p + 5 * s) as u8;
            p += 1;
        }
        s += 1;
    }
    l
};

/// A `vpermq` index vector: element p takes element `idx[p]`; elements
/// 5..8 keep their own.
type Index = [i64; 8];

const IDENTITY: Index = [0, 1, 2, 3, 4, 5, 6, 7];

/// Everything one round type needs, derived by [`make_plan`].
#[derive(Clone, Copy)]
struct Plan {
    /// θ on a vertical layout (else horizontal: slot x holds column x).
    vertical: bool,
    /// Vertical θ: the permutations of C giving C\[x-1\] and C\[x+1\] at
    /// column x's element.
    theta_prev: Index,
    theta_next: Index,
    /// ρ's offsets per slot and element.
    rho: [Index; 5],
    /// χ on whole rows (three permutations per slot) rather than aligned.
    rows: bool,
    /// Aligned χ: the permutation that puts slot s's lane of row y at
    /// element y, and the slots holding lanes x+1 and x+2.
    align: [Index; 5],
    next1: [usize; 5],
    next2: [usize; 5],
    /// Row χ: `sel[j][s]` brings lane (x + j, y) of slot s's row to
    /// element x.
    sel: [[Index; 5]; 3],
    /// The slot χ's result for slot s is written to.
    out: [usize; 5],
    /// Where lane (0, 0) is after χ.
    iota_slot: usize,
    iota_elem: usize,
    /// The permutation after χ that makes the next round's layout
    /// vertical (identity where nothing moves).
    fix: [Index; 5],
}

const EMPTY_PLAN: Plan = Plan {
    vertical: false,
    theta_prev: IDENTITY,
    theta_next: IDENTITY,
    rho: [[0; 8]; 5],
    rows: false,
    align: [IDENTITY; 5],
    next1: [0; 5],
    next2: [0; 5],
    sel: [[IDENTITY; 5]; 3],
    out: [0, 1, 2, 3, 4],
    iota_slot: 0,
    iota_elem: 0,
    fix: [IDENTITY; 5],
};

const fn lane_x(lane: u8) -> usize {
    lane as usize % 5
}

const fn lane_y(lane: u8) -> usize {
    lane as usize / 5
}

/// The element of `slot` holding the one lane of column `v` (`column`) or
/// of row `v`; a plan whose slot holds none or two is a build error.
const fn position(slot: [u8; 5], v: usize, column: bool) -> usize {
    let mut p = 0;
    let mut found = 5;
    while p < 5 {
        let at = if column { lane_x(slot[p]) } else { lane_y(slot[p]) };
        if at == v {
            assert!(found == 5, "a slot holds two lanes of one row or column");
            found = p;
        }
        p += 1;
    }
    assert!(found < 5, "a slot misses a row or column");
    found
}

const fn lane(x: usize, y: usize) -> u8 {
    (x % 5 + 5 * (y % 5)) as u8
}

/// π (§3.2.3): A\[x, y\] moves to B\[y, 2x + 3y\] (the inverse reading of
/// A′\[x, y\] = A\[(x + 3y) mod 5, x\]).
const fn pi(l: u8) -> u8 {
    let (x, y) = (lane_x(l), lane_y(l));
    lane(y, 2 * x + 3 * y)
}

/// The element of `slot` that holds lane `l`.
const fn find(slot: &[u8; 5], l: u8) -> usize {
    let mut p = 0;
    while p < 5 {
        if slot[p] == l {
            return p;
        }
        p += 1;
    }
    panic!("lane not in slot")
}

/// The plan of one round on layout `a`, and the layout it leaves for the
/// next round.
const fn make_plan(a: Layout) -> (Plan, Layout) {
    let mut plan = EMPTY_PLAN;
    // θ: vertical (column x at the same element f(x) in every slot) or
    // horizontal (slot x = column x).
    let (mut vertical, mut horizontal) = (true, true);
    let mut f = [0usize; 5];
    let mut s = 0;
    while s < 5 {
        let mut p = 0;
        while p < 5 {
            if s == 0 {
                f[lane_x(a[0][p])] = p;
            }
            vertical &= f[lane_x(a[s][p])] == p;
            horizontal &= lane_x(a[s][p]) == s;
            p += 1;
        }
        s += 1;
    }
    assert!(vertical || horizontal, "θ needs a vertical or horizontal layout");
    plan.vertical = vertical;
    // Element f(x) of θ's D operands: C[x - 1], and C[x + 1] (rotated).
    let mut x = 0;
    while x < 5 {
        plan.theta_prev[f[x]] = f[(x + 4) % 5] as i64;
        plan.theta_next[f[x]] = f[(x + 1) % 5] as i64;
        x += 1;
    }
    // ρ before π, on A's lanes; then π renames them: b[s][p].
    let mut b = [[0u8; 5]; 5];
    let mut rows = true;
    s = 0;
    while s < 5 {
        let mut p = 0;
        while p < 5 {
            plan.rho[s][p] = RHO[a[s][p] as usize] as i64;
            b[s][p] = pi(a[s][p]);
            rows &= lane_y(b[s][p]) == lane_y(b[s][0]);
            p += 1;
        }
        s += 1;
    }
    plan.rows = rows;
    // χ, and the layout e it leaves (before `out`'s reordering).
    let mut e = [[0u8; 5]; 5];
    if !rows {
        // Aligned: row y at element h(y) in every slot, with h chosen so
        // that slot 0 stays where it is.
        let mut h = [0usize; 5];
        let mut p = 0;
        while p < 5 {
            h[lane_y(b[0][p])] = p;
            p += 1;
        }
        s = 0;
        while s < 5 {
            let mut y = 0;
            while y < 5 {
                let found = position(b[s], y, false);
                plan.align[s][h[y]] = found as i64;
                e[s][h[y]] = b[s][found];
                y += 1;
            }
            s += 1;
        }
        // The slot holding lanes (x + 1, y) for all of slot s's (x, y).
        s = 0;
        while s < 5 {
            let want = lane(lane_x(e[s][0]) + 1, lane_y(e[s][0]));
            let mut t = 0;
            while e[t][0] != want {
                t += 1;
            }
            let mut y = 0;
            while y < 5 {
                assert!(e[t][y] == lane(lane_x(e[s][y]) + 1, lane_y(e[s][y])), "χ's neighbours are not aligned");
                y += 1;
            }
            plan.next1[s] = t;
            s += 1;
        }
        s = 0;
        while s < 5 {
            plan.next2[s] = plan.next1[plan.next1[s]];
            s += 1;
        }
    } else {
        s = 0;
        while s < 5 {
            let y = lane_y(b[s][0]);
            let mut j = 0;
            while j < 3 {
                let mut x = 0;
                while x < 5 {
                    plan.sel[j][s][x] = find(&b[s], lane(x + j, y)) as i64;
                    x += 1;
                }
                j += 1;
            }
            let mut x = 0;
            while x < 5 {
                e[s][x] = lane(x, y);
                x += 1;
            }
            s += 1;
        }
    }
    // Reorder the slots (free: it only names χ's destinations): columns
    // to slot x for a horizontal θ next, rows to slot y.
    let mut columns = true;
    s = 0;
    while s < 5 {
        let mut p = 0;
        while p < 5 {
            columns &= lane_x(e[s][p]) == lane_x(e[s][0]);
            p += 1;
        }
        s += 1;
    }
    let mut next = [[0u8; 5]; 5];
    s = 0;
    while s < 5 {
        plan.out[s] = if columns {
            lane_x(e[s][0])
        } else if rows {
            lane_y(e[s][0])
        } else {
            s
        };
        next[plan.out[s]] = e[s];
        s += 1;
    }
    s = 0;
    while s < 5 {
        let mut p = 0;
        while p < 5 {
            if next[s][p] == 0 {
                plan.iota_slot = s;
                plan.iota_elem = p;
            }
            p += 1;
        }
        s += 1;
    }
    // Make the next layout vertical unless it is the horizontal one:
    // column x at element g(x) in every slot, g chosen so that slot 0
    // stays where it is (rows keep g(x) = x: the layout between groups).
    if !columns {
        let mut g = [0usize, 1, 2, 3, 4];
        if !rows {
            let mut p = 0;
            while p < 5 {
                g[lane_x(next[0][p])] = p;
                p += 1;
            }
        }
        s = 0;
        while s < 5 {
            let mut x = 0;
            let mut moved = [0u8; 5];
            while x < 5 {
                let found = position(next[s], x, true);
                plan.fix[s][g[x]] = found as i64;
                moved[g[x]] = next[s][found];
                x += 1;
            }
            next[s] = moved;
            s += 1;
        }
    }
    (plan, next)
}

const fn same_layout(a: &Layout, b: &Layout) -> bool {
    let mut s = 0;
    while s < 5 {
        let mut p = 0;
        while p < 5 {
            if a[s][p] != b[s][p] {
                return false;
            }
            p += 1;
        }
        s += 1;
    }
    true
}

/// The six round types, starting from [`ROWS`]; the sixth leaves [`ROWS`]
/// again (checked here, at compile time).
const PLANS: [Plan; 6] = {
    let mut plans = [EMPTY_PLAN; 6];
    let mut layout = ROWS;
    let mut k = 0;
    while k < 6 {
        let (plan, next) = make_plan(layout);
        plans[k] = plan;
        layout = next;
        k += 1;
    }
    assert!(same_layout(&layout, &ROWS), "six rounds must return to the row layout");
    plans
};

/// ι (§3.2.5) as one XOR of a whole vector per round (rather than a
/// masked XOR of a broadcast, which LLVM lowers to three instructions):
/// for round i of Keccak-p\[1600, `ROUNDS`\], RC at the element that
/// holds lane (0, 0) after χ, zeros elsewhere.
const fn iota_vectors<const ROUNDS: usize>() -> [Index; ROUNDS] {
    let mut t = [[0i64; 8]; ROUNDS];
    let mut i = 0;
    while i < ROUNDS {
        t[i][PLANS[i % 6].iota_elem] = RC[24 - ROUNDS + i] as i64;
        i += 1;
    }
    t
}

/// A constant index or offset vector.
macro_rules! vector {
    ($v:expr) => {{
        let v: Index = $v;
        _mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
    }};
}

/// `vpermq` by a constant index vector (LLVM drops the identity ones).
macro_rules! permute {
    ($x:expr, $idx:expr) => {
        _mm512_permutexvar_epi64(vector!($idx), $x)
    };
}

/// One round of type `$k` (an index into [`PLANS`]) on the slots `$a`.
macro_rules! round {
    ($a:ident, $k:literal, $iota:expr) => {{
        const P: Plan = PLANS[$k];
        const ROT1: Index = [1, 2, 3, 4, 0, 5, 6, 7];
        const ROT2: Index = [2, 3, 4, 0, 1, 5, 6, 7];
        const ROT4: Index = [4, 0, 1, 2, 3, 5, 6, 7];
        // θ (§3.2.1).
        if P.vertical {
            let c =
                _mm512_ternarylogic_epi64::<0x96>(_mm512_ternarylogic_epi64::<0x96>($a[0], $a[1], $a[2]), $a[3], $a[4]);
            // Element x: C[x - 1], and C[x + 1] rotated by one.
            let prev = permute!(c, P.theta_prev);
            let next = _mm512_rol_epi64::<1>(permute!(c, P.theta_next));
            for s in 0..5 {
                $a[s] = _mm512_ternarylogic_epi64::<0x96>($a[s], prev, next);
            }
        } else {
            // Slot x holds column x: C[x] in every element of `sums[x]`.
            let sums: [__m512i; 5] = core::array::from_fn(|x| {
                let u = _mm512_xor_si512($a[x], permute!($a[x], ROT1));
                _mm512_ternarylogic_epi64::<0x96>(u, permute!(u, ROT2), permute!($a[x], ROT4))
            });
            for x in 0..5 {
                $a[x] = _mm512_ternarylogic_epi64::<0x96>(
                    $a[x],
                    sums[(x + 4) % 5],
                    _mm512_rol_epi64::<1>(sums[(x + 1) % 5]),
                );
            }
        }
        // ρ (§3.2.2); π (§3.2.3) only renames the lanes.
        for s in 0..5 {
            $a[s] = _mm512_rolv_epi64($a[s], vector!(P.rho[s]));
        }
        // χ (§3.2.4): E[x, y] = B[x, y] ⊕ (¬B[x+1, y] ∧ B[x+2, y]).
        let mut e = [_mm512_setzero_si512(); 5];
        if P.rows {
            for s in 0..5 {
                let b0 = permute!($a[s], P.sel[0][s]);
                let b1 = permute!($a[s], P.sel[1][s]);
                let b2 = permute!($a[s], P.sel[2][s]);
                e[P.out[s]] = _mm512_ternarylogic_epi64::<0xd2>(b0, b1, b2);
            }
        } else {
            let b: [__m512i; 5] = core::array::from_fn(|s| permute!($a[s], P.align[s]));
            for s in 0..5 {
                e[P.out[s]] = _mm512_ternarylogic_epi64::<0xd2>(b[s], b[P.next1[s]], b[P.next2[s]]);
            }
        }
        // ι (§3.2.5).
        let iota: &Index = $iota;
        // SAFETY: an `Index` is eight i64, in bounds (a reference).
        let iota = unsafe { _mm512_loadu_epi64(iota.as_ptr()) };
        e[P.iota_slot] = _mm512_xor_si512(e[P.iota_slot], iota);
        for s in 0..5 {
            $a[s] = permute!(e[s], P.fix[s]);
        }
    }};
}

/// Keccak-p\[1600, `ROUNDS`\] (the last `ROUNDS` rounds, in groups of
/// six) on the state in [`ROWS`] layout.
#[target_feature(enable = "avx512f")]
#[inline]
fn keccak_p<const ROUNDS: usize>(a: &mut [__m512i; 5]) {
    const { assert!(ROUNDS.is_multiple_of(6), "the one-state AVX-512 rounds run in groups of six") };
    let iota: &'static [Index; ROUNDS] = &const { iota_vectors::<ROUNDS>() };
    for six in iota.chunks_exact(6) {
        round!(a, 0, &six[0]);
        round!(a, 1, &six[1]);
        round!(a, 2, &six[2]);
        round!(a, 3, &six[3]);
        round!(a, 4, &six[4]);
        round!(a, 5, &six[5]);
    }
}

/// Mask of the lanes of row y below `lanes` (lane index x + 5y).
const fn row_mask(lanes: usize, y: usize) -> u8 {
    let n = lanes.saturating_sub(5 * y);
    if n >= 5 { 0x1f } else { (1u8 << n) - 1 }
}

/// Load the state, row y into slot y.
#[target_feature(enable = "avx512f")]
#[inline]
fn load(state: &[u64; 25]) -> [__m512i; 5] {
    core::array::from_fn(|y| {
        // SAFETY: the mask selects lanes 5y..5y + 5 of `state`, which are
        // in bounds; masked-off elements are not read (nor can fault).
        unsafe { _mm512_maskz_loadu_epi64(0x1f, state[5 * y..].as_ptr().cast()) }
    })
}

/// Store the state back from [`ROWS`] layout.
#[target_feature(enable = "avx512f")]
#[inline]
fn store(a: &[__m512i; 5], state: &mut [u64; 25]) {
    for (y, row) in a.iter().enumerate() {
        // SAFETY: the mask selects lanes 5y..5y + 5 of `state`, which are
        // in bounds; masked-off elements are not written.
        unsafe { _mm512_mask_storeu_epi64(state[5 * y..].as_mut_ptr().cast(), 0x1f, *row) }
    }
}

/// Absorb `blocks` into `state` (FIPS 202 §4 Algorithm 8 step 6): each
/// block's `RATE / 8` lanes, little-endian words (§B.1), XORed into the
/// rows with masked loads, then Keccak-p\[1600, `ROUNDS`\]. The state stays
/// in registers for the whole call.
#[target_feature(enable = "avx512f")]
pub(super) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    const { assert!(RATE.is_multiple_of(8) && RATE < 200) };
    let mut a = load(state);
    for block in blocks {
        let block = &block.as_ref()[..RATE];
        for (y, row) in a.iter_mut().enumerate() {
            let mask = row_mask(RATE / 8, y);
            if mask != 0 {
                // SAFETY: the mask selects words 5y.. of `block` below
                // RATE / 8, all inside its RATE bytes; masked-off elements
                // are not read (nor can fault). x86-64 is little-endian,
                // as §B.1 reads the words.
                let words = unsafe { _mm512_maskz_loadu_epi64(mask, block[40 * y..].as_ptr().cast()) };
                *row = _mm512_xor_si512(*row, words);
            }
        }
        keccak_p::<ROUNDS>(&mut a);
    }
    store(&a, state);
}

/// Apply Keccak-p\[1600, `ROUNDS`\] once (the XOF's squeeze).
#[target_feature(enable = "avx512f")]
pub(super) fn permute<const ROUNDS: usize>(state: &mut [u64; 25]) {
    let mut a = load(state);
    keccak_p::<ROUNDS>(&mut a);
    store(&a, state);
}

#[cfg(test)]
mod tests {
    use super::super::{Backend, portable};
    use super::{absorb, permute};

    /// xorshift64 pseudo-random lanes.
    fn random_state(seed: &mut u64) -> [u64; 25] {
        core::array::from_fn(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed
        })
    }

    /// The six-round-group layouts give Keccak-p\[1600, 12\] and \[1600,
    /// 24\] exactly as the portable rounds do, on random states, and absorb
    /// (state held in registers across blocks, rate lanes XORed in with
    /// masked loads) equals the portable absorb at every rate this crate
    /// uses.
    #[test]
    fn matches_portable_on_random_states() {
        if !Backend::Avx512.is_supported() {
            hash_core::testing::say(format_args!(
                "sha3: x86_avx512_1x: this CPU lacks AVX-512F, one-state AVX-512 permutation not tested"
            ));
            return;
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for trial in 0..200 {
            let start = if trial == 0 { [0; 25] } else { random_state(&mut seed) };
            let (mut want, mut got) = (start, start);
            portable::permute::<24>(&mut want);
            // SAFETY: `Backend::Avx512.is_supported()` confirmed AVX-512F above.
            unsafe { permute::<24>(&mut got) };
            assert_eq!(got, want, "Keccak-p[1600, 24], trial {trial}");
            let (mut want, mut got) = (start, start);
            portable::permute::<12>(&mut want);
            // SAFETY: as above.
            unsafe { permute::<12>(&mut got) };
            assert_eq!(got, want, "Keccak-p[1600, 12], trial {trial}");
        }
        let data: [u8; 168 * 5] = core::array::from_fn(|i| (i * 131 + 7) as u8);
        macro_rules! check_rate {
            ($rate:literal) => {
                for blocks in 0..=5 {
                    let all: [&[u8]; 5] = core::array::from_fn(|i| &data[i * $rate..(i + 1) * $rate]);
                    let chunks = &all[..blocks];
                    let start = random_state(&mut seed);
                    let (mut want, mut got) = (start, start);
                    portable::absorb::<$rate, 24, &[u8]>(&mut want, chunks);
                    // SAFETY: as above.
                    unsafe { absorb::<$rate, 24, &[u8]>(&mut got, chunks) };
                    assert_eq!(got, want, "absorb rate {} x {blocks}, 24 rounds", $rate);
                    let (mut want, mut got) = (start, start);
                    portable::absorb::<$rate, 12, &[u8]>(&mut want, chunks);
                    // SAFETY: as above.
                    unsafe { absorb::<$rate, 12, &[u8]>(&mut got, chunks) };
                    assert_eq!(got, want, "absorb rate {} x {blocks}, 12 rounds", $rate);
                }
            };
        }
        check_rate!(168);
        check_rate!(144);
        check_rate!(136);
        check_rate!(104);
        check_rate!(72);
    }
}
