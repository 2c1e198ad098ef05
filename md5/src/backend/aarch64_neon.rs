//! Multi-buffer MD5 (RFC 1321 §3.4) on NEON: 4 or 8 independent messages,
//! as groups of 4 whose 32-bit words sit in the lanes of 128-bit registers.
//!
//! NEON's bitwise select does a whole round function in one instruction
//! where F and G: `BSL` (`vbslq_u32(m, x, y)` = (m ∧ x) ∨ (¬m ∧ y)) gives
//! F(b,c,d) = bsl(b, c, d) and G(b,c,d) = bsl(d, b, c); I(b,c,d) =
//! c ⊕ (b ∨ ¬d) uses `ORN`. A rotation is a shift left and a shift right
//! and insert (`SHL`, `SRI`). One step of one group is then 6 to 7
//! instructions (plus the broadcast of T[t], shared by the groups), about
//! five of them in a chain, so a single group leaves the vector units idle
//! much of the time; wider batches run two groups written side by side,
//! step by step, for the CPU to overlap. (No aarch64 hardware was at hand:
//! the group count and the `min_active` thresholds in `mod.rs` follow from
//! this instruction count, not from a measurement.) Counted in the
//! disassembly of a release build (rustc 1.96): 594 instructions per four
//! blocks for one group, 1238 per eight for two.

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vbslq_u32, vdupq_n_u32, veorq_u32, vld1q_u32, vornq_u32, vreinterpretq_u32_u64,
    vreinterpretq_u64_u32, vshlq_n_u32, vsriq_n_u32, vst1q_u32, vtrn1q_u32, vtrn1q_u64, vtrn2q_u32, vtrn2q_u64,
};

use crate::consts::{T, md5_steps};

/// Four little-endian words from `bytes` (RFC 1321 §3.4, "Copy block i
/// into X": words are little-endian, as this target is).
#[inline]
#[target_feature(enable = "neon")]
fn load_le(bytes: &[u8; 16]) -> uint32x4_t {
    // SAFETY: `bytes` is a reference to 16 readable bytes, the width of the
    // unaligned load; NEON is enabled on this function.
    unsafe { vld1q_u32(bytes.as_ptr().cast()) }
}

/// Four words.
#[inline]
#[target_feature(enable = "neon")]
fn load4(words: &[u32; 4]) -> uint32x4_t {
    // SAFETY: `words` is a reference to four readable u32s, the width of
    // the load; NEON is enabled on this function.
    unsafe { vld1q_u32(words.as_ptr()) }
}

/// T (RFC 1321 §3.4) in memory, each word four times: one `ldr q` with
/// an immediate offset loads a step's constant in every lane.
static TABLE: [[u32; 4]; 64] = {
    let mut table = [[0; 4]; 64];
    let mut t = 0;
    while t < 64 {
        table[t] = [T[t]; 4];
        t += 1;
    }
    table
};

/// Store the four lanes of `v`.
#[inline]
#[target_feature(enable = "neon")]
fn store4(v: uint32x4_t) -> [u32; 4] {
    let mut out = [0u32; 4];
    // SAFETY: `out` is four writable u32s, the width of the store; NEON is
    // enabled on this function.
    unsafe { vst1q_u32(out.as_mut_ptr(), v) };
    out
}

/// Word `k` of each of the four `blocks` into `x[k]` (lane `i` of `x[k]`
/// is word `k` of `blocks[i]`): four 4×4 transpositions.
#[inline]
#[target_feature(enable = "neon")]
fn load_words(blocks: [&[u8; 64]; 4]) -> [uint32x4_t; 16] {
    let zero = vdupq_n_u32(0);
    let mut x = [zero; 16];
    for q in 0..4 {
        let r: [uint32x4_t; 4] =
            core::array::from_fn(|i| load_le(blocks[i][16 * q..16 * q + 16].try_into().expect("16 bytes")));
        // t0 = r0[0] r1[0] r0[2] r1[2], t1 = r0[1] r1[1] r0[3] r1[3], and
        // t2, t3 the same of r2, r3; then pairs of 64-bit halves.
        let (t0, t1) = (vtrn1q_u32(r[0], r[1]), vtrn2q_u32(r[0], r[1]));
        let (t2, t3) = (vtrn1q_u32(r[2], r[3]), vtrn2q_u32(r[2], r[3]));
        let lo = |a: uint32x4_t, b: uint32x4_t| {
            vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b)))
        };
        let hi = |a: uint32x4_t, b: uint32x4_t| {
            vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b)))
        };
        x[4 * q] = lo(t0, t2);
        x[4 * q + 1] = lo(t1, t3);
        x[4 * q + 2] = hi(t0, t2);
        x[4 * q + 3] = hi(t1, t3);
    }
    x
}

/// Compress the equal-length whole blocks of `data[i]` into `states[i]`
/// for all `N` lanes (`N` = 4 or 8: one or two groups of 4).
///
/// # Panics
/// If the lanes' data differ in length or are not whole blocks (the
/// scheduler's contract).
#[target_feature(enable = "neon")]
#[inline(never)] // a symbol of its own: `cargo xtask mca` models its loop
pub(super) fn compress_lanes<const N: usize>(states: &mut [[u32; 4]; N], data: [&[u8]; N]) {
    const { assert!(N == 4 || N == 8) };
    let groups = N / 4;
    let len = data[0].len();
    assert!(
        data.iter().all(|d| d.len() == len) && len.is_multiple_of(64),
        "md5 neon: lanes of unequal or partial blocks"
    );

    // The chaining values: a[g] lane i is word 0 of states[4g + i], etc.
    let zero = vdupq_n_u32(0);
    let (mut a, mut b, mut c, mut d) = ([zero; 2], [zero; 2], [zero; 2], [zero; 2]);
    for g in 0..groups {
        let gather = |w: usize| {
            let lanes: [u32; 4] = core::array::from_fn(|i| states[4 * g + i][w]);
            // SAFETY: `lanes` is four readable u32s, the width of the load;
            // NEON is enabled on this function.
            unsafe { vld1q_u32(lanes.as_ptr()) }
        };
        (a[g], b[g], c[g], d[g]) = (gather(0), gather(1), gather(2), gather(3));
    }

    // `black_box` hides the table's contents from the optimiser, which
    // would otherwise build each T[t] as an immediate (`mov`, `movk`) and
    // broadcast it (`dup`): up to three instructions where one load does.
    // It affects speed only, never results.
    let table: &[[u32; 4]; 64] = core::hint::black_box(&TABLE);
    let mut x = [[zero; 16]; 2];
    for offset in (0..len).step_by(64) {
        for (g, xg) in x.iter_mut().enumerate().take(groups) {
            *xg = load_words(core::array::from_fn(|i| {
                data[4 * g + i][offset..offset + 64].try_into().expect("64-byte block")
            }));
        }
        let (aa, bb, cc, dd) = (a, b, c, d);

        // One step on every group: a = b + ((a + X[k] + T[t] + fun) <<< s),
        // with X[k] + T[t] added to `a` first (it does not wait for b).
        macro_rules! step {
            ($fun:ident, $a:ident, $b:ident, $c:ident, $d:ident, $k:literal, $s:literal, $t:literal) => {
                let konst = load4(&table[$t]);
                for g in 0..groups {
                    let early = vaddq_u32($a[g], vaddq_u32(x[g][$k], konst));
                    let sum = vaddq_u32(early, $fun!($b[g], $c[g], $d[g]));
                    let rotated = vsriq_n_u32::<{ 32 - $s }>(vshlq_n_u32::<$s>(sum), sum);
                    $a[g] = vaddq_u32($b[g], rotated);
                }
            };
        }
        // F(b,c,d) = (b ∧ c) ∨ (¬b ∧ d): select c where b is set, else d.
        macro_rules! fun_f {
            ($b:expr, $c:expr, $d:expr) => {
                vbslq_u32($b, $c, $d)
            };
        }
        // G(b,c,d) = (b ∧ d) ∨ (c ∧ ¬d): select b where d is set, else c.
        macro_rules! fun_g {
            ($b:expr, $c:expr, $d:expr) => {
                vbslq_u32($d, $b, $c)
            };
        }
        // H(b,c,d) = b ⊕ c ⊕ d, c ⊕ d first.
        macro_rules! fun_h {
            ($b:expr, $c:expr, $d:expr) => {
                veorq_u32($b, veorq_u32($c, $d))
            };
        }
        // I(b,c,d) = c ⊕ (b ∨ ¬d).
        macro_rules! fun_i {
            ($b:expr, $c:expr, $d:expr) => {
                veorq_u32($c, vornq_u32($b, $d))
            };
        }
        macro_rules! f {
            ($($arg:tt)*) => { step!(fun_f, $($arg)*); };
        }
        macro_rules! g {
            ($($arg:tt)*) => { step!(fun_g, $($arg)*); };
        }
        macro_rules! h {
            ($($arg:tt)*) => { step!(fun_h, $($arg)*); };
        }
        macro_rules! i {
            ($($arg:tt)*) => { step!(fun_i, $($arg)*); };
        }
        macro_rules! steps {
            ($($fun:ident($($arg:tt)*))*) => { $($fun!($($arg)*);)* };
        }
        md5_steps!(steps!(f, g, h, i, a, b, c, d));

        // "Then perform the following additions" (§3.4).
        for g in 0..groups {
            a[g] = vaddq_u32(a[g], aa[g]);
            b[g] = vaddq_u32(b[g], bb[g]);
            c[g] = vaddq_u32(c[g], cc[g]);
            d[g] = vaddq_u32(d[g], dd[g]);
        }
    }

    for g in 0..groups {
        let words = [store4(a[g]), store4(b[g]), store4(c[g]), store4(d[g])];
        for i in 0..4 {
            states[4 * g + i] = [words[0][i], words[1][i], words[2][i], words[3][i]];
        }
    }
}
