//! The 16-lane batch engine: sixteen messages at once, one per 32-bit lane
//! of the `zmm` registers (FIPS 180-4 §6.2.2 in every lane).
//!
//! A block of one message is exactly one `zmm` register, so the sixteen
//! lanes' blocks are loaded as sixteen rows and transposed into the message
//! words W[0..16], one word of every lane per register. AVX-512F gives true
//! rotations (`vprord`) and three-input logic (`vpternlogd`), so Σ0, Σ1,
//! σ0 and σ1 each take four instructions and Ch and Maj one each.
//!
//! This engine serves `digest_many` for [`Backend::ShaNi`] and
//! [`Backend::Avx2`] on CPUs that also have AVX-512F and AVX-512BW (see
//! `super::engine`): measured on an AMD Zen 5 core, 64 messages of 8 KiB
//! hash 3.1 times as fast as one SHA-NI stream, against 1.7 times for
//! interleaved SHA-NI streams, whose `sha256rnds2` issues only every other
//! cycle.
//!
//! On Intel cores (an Intel Xeon, Sapphire Rapids class) 512-bit operations
//! issue on ports 0 and 5 only, and rotations and shifts on port 0 alone:
//! a block of all sixteen lanes is about 1,800 such operations (576
//! `vprord`, 96 `vpsrld`, 352 `vpternlogd`, 600 `vpaddd` in the lean
//! rounds), so the engine is bound by instruction count at about 900
//! cycles per 16 blocks. The lean round shape (`round_lean!`, chosen off
//! AMD) drops two additions a round against the latency-shaped one: 2.1
//! times one SHA-NI stream there, against 2.0; loading the sixteen rows
//! straight into registers (`load_words`) took it to 2.2-2.3 times (64 x
//! 8 KiB, measured under load). That is about the ports' bound: some
//! 1,740 port-0/5 operations per 16 blocks, of which the transposes and
//! byte swaps are 112 (`vpermt2d` transposes, 80, measured 3% slower).
//!
//! Running extra lanes with SHA-NI in the same loop does not pay there:
//! `sha256rnds2` issues beside port-0/5 work without slowing it, but a
//! block's other SHA-NI operations (`sha256msg1`, `sha256msg2`, `palignr`,
//! `paddd`, `pshufd`: about 80) take ports 0 and 5 too: in a
//! microbenchmark, four SHA-NI rounds (one `sha256msg1`/`sha256msg2`
//! schedule step, two `sha256rnds2`) between every four 16-lane rounds
//! added 19% to their time for 6% more work, and scalar rounds on the
//! general registers (`rorx`) 14%. 64 equal messages would also still
//! take four rounds of 17 lanes. Legacy-SSE `sha256rnds2` also stalls for hundreds of
//! cycles while the upper halves of `zmm0`-`zmm15` are dirty, so the vector
//! work would have to stay in `zmm16`-`zmm31` (hand-written assembly).

use core::arch::x86_64::{
    __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_add_epi32, _mm512_castsi512_si256,
    _mm512_set_epi64, _mm512_set1_epi32, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_ternarylogic_epi32,
    _mm512_zextsi256_si512,
};

use hash_core::FixedAlgorithm;

use super::Backend;
use crate::consts::K;
#[cfg(doc)]
use crate::consts::{PAD56_WK, PAD64_WK};

/// Lanes of the engine.
const LANES: usize = 16;

/// The fewest busy lanes for which the engine beats finishing the rest one
/// at a time with the single-stream backend `single`. One 16-lane step
/// costs about as much as 5 SHA-NI blocks or 2 AVX2 blocks (measured on an
/// AMD Zen 5 core).
fn min_active(single: Backend) -> usize {
    match single {
        Backend::ShaNi => 6,
        Backend::Avx2 | Backend::ArmSha | Backend::Portable => 2,
    }
}

/// `vpternlogd` truth tables (bit `4a + 2b + c` is the result for inputs
/// `a`, `b`, `c`; the σ and Σ functions' three-way XOR is 0x96): `a ? b : c`: Ch (4.2).
const CHOOSE: i32 = 0xca;
/// The majority of three: Maj (4.3).
const MAJORITY: i32 = 0xe8;

use hash_core::arch::x86::transpose_16x16_epi32 as transpose;

use hash_core::arch::x86::load_be_words_16x16 as load_words;

// σ0, σ1 (4.6), (4.7) and Σ0, Σ1 (4.4), (4.5) of every lane.
hash_core::sha2_sigmas_avx512!(epi32, "avx512f,avx512bw", [7, 18, 3] [17, 19, 10] [2, 13, 22] [6, 11, 25]);

/// W[t] + K[t] for round `t` of every lane; from t = 16 on, W[t] first
/// replaces W[t-16] in the ring `w` (§6.2.2 step 1).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn wk(w: &mut [__m512i; 16], t: usize) -> __m512i {
    if t >= 16 {
        let s1 = _mm512_add_epi32(small_sigma1(w[(t - 2) % 16]), w[(t - 7) % 16]);
        let s0 = _mm512_add_epi32(small_sigma0(w[(t - 15) % 16]), w[t % 16]);
        w[t % 16] = _mm512_add_epi32(s1, s0);
    }
    _mm512_add_epi32(w[t % 16], _mm512_set1_epi32(K[t] as i32))
}

use hash_core::arch::x86::opaque_m512i as opaque;

/// One round of every lane (§6.2.2 step 3), with the working variables
/// named in rotated order: T1 is added into `d` (the next `e`) and `h`
/// becomes the next `a`.
///
/// Vector instructions take about three cycles here (AMD Zen 5), so the
/// round is shaped for latency, not instruction count. `h + W + K` and
/// `d + h + W + K` are ready early (h and d are known three rounds ahead),
/// Ch is one instruction after `e` and Σ1 two, so the new `e` is three
/// deep from `e`; the new `a`, T1 + Maj + Σ0(a) with Σ0 added last, is
/// three deep from `a`. That costs two more additions than T1 computed
/// once, which the core has the throughput for.
macro_rules! round {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $wk:expr) => {
        let hk = opaque(_mm512_add_epi32($h, $wk));
        let dhk = opaque(_mm512_add_epi32($d, hk));
        let ch = _mm512_ternarylogic_epi32::<CHOOSE>($e, $f, $g);
        let s1 = big_sigma1($e);
        // e' = d + T1 = (d + h + W + K + Ch) + Σ1.
        $d = _mm512_add_epi32(opaque(_mm512_add_epi32(dhk, ch)), s1);
        // T1 = (h + W + K + Ch) + Σ1.
        let t1 = _mm512_add_epi32(opaque(_mm512_add_epi32(hk, ch)), s1);
        // a' = (T1 + Maj) + Σ0.
        let t1_maj = opaque(_mm512_add_epi32(t1, _mm512_ternarylogic_epi32::<MAJORITY>($a, $b, $c)));
        $h = _mm512_add_epi32(t1_maj, big_sigma0($a));
    };
}

/// One round of every lane (§6.2.2 step 3) in the fewest instructions,
/// for cores where 512-bit operations take one cycle but issue on two ports
/// only (Intel: ports 0 and 5, the rotations and shifts on port 0 alone),
/// so that the instruction count, not latency, bounds the engine: T1 = h +
/// (W + K) + Ch + Σ1 once, e' = d + T1, a' = T1 + Maj + Σ0, six additions
/// against the eight of [`round!`].
macro_rules! round_lean {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $wk:expr) => {
        let ch = _mm512_ternarylogic_epi32::<CHOOSE>($e, $f, $g);
        let t1 = _mm512_add_epi32(_mm512_add_epi32(_mm512_add_epi32($h, $wk), ch), big_sigma1($e));
        $d = _mm512_add_epi32($d, t1);
        let maj = _mm512_ternarylogic_epi32::<MAJORITY>($a, $b, $c);
        $h = _mm512_add_epi32(_mm512_add_epi32(t1, maj), big_sigma0($a));
    };
}

/// Eight rounds on the working variables `$a..$h` (named in rotated order,
/// as [`round!`] and [`round_lean!`] take them), W + K of round t from
/// `$wk(t)`.
macro_rules! eight_rounds {
    ($round:ident, $wk:ident, $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident, $($t:literal)*) => {$(
        $round!($a, $b, $c, $d, $e, $f, $g, $h, $wk($t));
        $round!($h, $a, $b, $c, $d, $e, $f, $g, $wk($t + 1));
        $round!($g, $h, $a, $b, $c, $d, $e, $f, $wk($t + 2));
        $round!($f, $g, $h, $a, $b, $c, $d, $e, $wk($t + 3));
        $round!($e, $f, $g, $h, $a, $b, $c, $d, $wk($t + 4));
        $round!($d, $e, $f, $g, $h, $a, $b, $c, $wk($t + 5));
        $round!($c, $d, $e, $f, $g, $h, $a, $b, $wk($t + 6));
        $round!($b, $c, $d, $e, $f, $g, $h, $a, $wk($t + 7));
    )*};
}

/// The 64 rounds (§6.2.2 step 3) of every lane from the working variables
/// `$v`, W + K of round t from `$wk(t)` (called for t = 0..64 in order):
/// the working variables after them, before step 4. [`round_lean!`] if
/// `$lean`, else [`round!`]. Fully unrolled, so that a schedule ring's
/// indices are constants and the ring stays in registers.
macro_rules! rounds64 {
    ($lean:expr, $v:expr, $wk:expr) => {{
        let wk_of = &mut $wk;
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        if $lean {
            eight_rounds!(round_lean, wk_of, a b c d e f g h, 0 8 16 24 32 40 48 56);
        } else {
            eight_rounds!(round, wk_of, a b c d e f g h, 0 8 16 24 32 40 48 56);
        }
        [a, b, c, d, e, f, g, h]
    }};
}

/// Compress `data[s]` into `states[s]` for all sixteen lanes; the slices
/// have equal lengths, a whole number of blocks (the scheduler's contract).
/// `LEAN` picks [`round_lean!`] over the latency-shaped [`round!`].
#[target_feature(enable = "avx512f,avx512bw")]
fn compress_lanes<const LEAN: bool>(states: &mut [[u32; 8]; LANES], data: [&[u8]; LANES]) {
    // The state transposed: `v[j]` is working variable j of every lane. Each
    // state fills the low half of a row; the high halves are zero.
    let mut rows = [_mm512_setzero_si512(); 16];
    for (row, state) in rows.iter_mut().zip(states.iter()) {
        // SAFETY: `state` is eight u32 (32 bytes); loadu has no alignment requirement.
        *row = _mm512_zextsi256_si512(unsafe { _mm256_loadu_si256(state.as_ptr().cast()) });
    }
    let columns = transpose(&rows);
    let mut v = [_mm512_setzero_si512(); 8];
    v.copy_from_slice(&columns[..8]);
    assert!(
        data.iter().all(|d| d.len() == data[0].len() && d.len() % 64 == 0),
        "the scheduler hands every lane the same whole number of blocks"
    );
    let lanes = data.map(<[u8]>::as_ptr);
    for at in (0..data[0].len()).step_by(64) {
        // SAFETY: every lane is `data[0].len()` bytes long (the assert
        // above), a whole number of blocks, and `at` is the start of one.
        let mut w = unsafe { load_words(&lanes, at) };
        let s = rounds64!(LEAN, v, |t| wk(&mut w, t));
        // Step 4.
        for (x, y) in v.iter_mut().zip(s) {
            *x = _mm512_add_epi32(*x, y);
        }
    }
    let mut columns = [_mm512_setzero_si512(); 16];
    columns[..8].copy_from_slice(&v);
    let rows = transpose(&columns);
    for (state, row) in states.iter_mut().zip(rows) {
        let low = _mm512_castsi512_si256(row);
        // SAFETY: `state` is eight u32 (32 bytes); storeu has no alignment requirement.
        unsafe { _mm256_storeu_si256(state.as_mut_ptr().cast(), low) };
    }
}

/// `out[i]` = SHA-256 or SHA-224 (from `init`) of `nodes[2i] ||
/// nodes[2i + 1]` for sixteen pairs in the lanes: the pair's block with
/// its schedule, then the padding block, which is the same for every pair,
/// with `W + K` a constant (no schedule, a broadcast per round). A pair of
/// 32-byte nodes is a whole block and the padding block starts with 0x80
/// ([`PAD64_WK`]); a pair of SHA-224's 28-byte nodes is 56 bytes, padded
/// in the lanes with 0x80 and seven zeros (word 14 = 0x8000_0000), and the
/// second block holds only the length ([`PAD56_WK`]). `LEAN` as for
/// [`compress_lanes`].
#[target_feature(enable = "avx512f,avx512bw")]
fn pairs_lanes<const LEAN: bool, const NODE: usize>(
    init: &[u32; 8],
    nodes: &[[u8; NODE]; 2 * LANES],
    out: &mut [[u8; NODE]; LANES],
) {
    let bytes = nodes.as_flattened();
    let pad_wk = super::pair_padding::<NODE>();
    let mut w = match NODE {
        32 => {
            let lanes: [*const u8; LANES] = core::array::from_fn(|s| bytes[64 * s..64 * s + 64].as_ptr());
            // SAFETY: every lane points at 64 readable bytes (the slice
            // index checks).
            unsafe { load_words(&lanes, 0) }
        }
        28 => {
            let mut w = load_words56(bytes);
            w[14] = _mm512_set1_epi32(0x8000_0000_u32 as i32);
            w
        }
        _ => unreachable!("pairs_lanes: SHA-256's and SHA-224's nodes only"),
    };
    let v0: [__m512i; 8] = core::array::from_fn(|j| _mm512_set1_epi32(init[j] as i32));
    // The pair's block, then step 4.
    let first = rounds64!(LEAN, v0, |t| wk(&mut w, t));
    let v: [__m512i; 8] = core::array::from_fn(|j| _mm512_add_epi32(v0[j], first[j]));
    // The padding block; its step 4 as the digests are stored.
    let second = rounds64!(LEAN, v, |t: usize| _mm512_set1_epi32(pad_wk[t] as i32));
    store_digests(v, second, out);
}

/// Sixteen 56-byte messages, lane `s` at `bytes[56 * s..]`, as big-endian
/// words (words 14 and 15 zero), one word of all lanes per register.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn load_words56(bytes: &[u8]) -> [__m512i; 16] {
    use core::arch::x86_64::_mm512_maskz_loadu_epi32;
    let swap = 0x0c0d_0e0f_0809_0a0b;
    let lo = 0x0405_0607_0001_0203;
    let swap = _mm512_set_epi64(swap, lo, swap, lo, swap, lo, swap, lo);
    let rows: [__m512i; 16] = core::array::from_fn(|s| {
        let row = &bytes[56 * s..56 * s + 56];
        // SAFETY: `row` is 56 readable bytes (the slice index checks); the
        // load reads only the 14 words its mask selects (masked-off ones are
        // not accessed and do not fault) and needs no alignment.
        _mm512_shuffle_epi8(unsafe { _mm512_maskz_loadu_epi32(0x3fff, row.as_ptr().cast()) }, swap)
    });
    transpose(&rows)
}

/// `out[i]` = SHA-256 (from `init`) of `prefix || bodies[i]`, one byte and
/// 64 bytes (RFC 9162's leaves of 64 bytes and its nodes: `0x00 || leaf`,
/// `0x01 || left || right`), for sixteen messages in the lanes, read in
/// place. The 65 bytes are two blocks: the prefix and the body's first 63
/// bytes, then the body's last byte, 0x80, zeros and the length (520 bits)
/// (FIPS 180-4 §5.1.1). With the body's big-endian words B[0..16] in the
/// lanes, the first block's word j is `B[j] >> 8 | B[j-1] << 24` (the
/// prefix for B[-1]), and the second block has one word that varies, `B[15]
/// << 24 | 0x0080_0000`: its other fifteen are constants (fourteen zeros),
/// which the compiler folds through the schedule. `LEAN` as for
/// [`compress_lanes`].
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn hash_prefixed65<const LEAN: bool>(init: &[u32; 8], prefix: u8, bodies: &[&[u8; 64]; LANES], out: &mut [[u8; 32]; LANES]) {
    use core::arch::x86_64::{_mm512_or_si512, _mm512_slli_epi32, _mm512_srli_epi32};
    let lanes: [*const u8; LANES] = core::array::from_fn(|s| bodies[s].as_ptr());
    // SAFETY: every lane points at a 64-byte array: 64 readable bytes at
    // offset 0.
    let body = unsafe { load_words(&lanes, 0) };
    let mut w = [_mm512_setzero_si512(); 16];
    let mut before = _mm512_set1_epi32(i32::from(prefix));
    for (wj, &bj) in w.iter_mut().zip(&body) {
        *wj = _mm512_or_si512(_mm512_srli_epi32::<8>(bj), _mm512_slli_epi32::<24>(before));
        before = bj;
    }
    let mut pad = [_mm512_setzero_si512(); 16];
    pad[0] = _mm512_or_si512(_mm512_slli_epi32::<24>(body[15]), _mm512_set1_epi32(0x0080_0000));
    pad[15] = _mm512_set1_epi32(65 * 8);
    let v0: [__m512i; 8] = core::array::from_fn(|j| _mm512_set1_epi32(init[j] as i32));
    let first = rounds64!(LEAN, v0, |t| wk(&mut w, t));
    let v1: [__m512i; 8] = core::array::from_fn(|j| _mm512_add_epi32(v0[j], first[j]));
    let second = rounds64!(LEAN, v1, |t| wk(&mut pad, t));
    store_digests(v1, second, out);
}

/// Step 4 of the last block, `v + y` (word j of every lane in `v[j]`,
/// `y[j]`), as the sixteen lanes' digests: each word big-endian (§6.2.2,
/// final step), the first `NODE` bytes (32 for SHA-256, 28 for SHA-224) of
/// lane s into `out[s]`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn store_digests<const NODE: usize>(v: [__m512i; 8], y: [__m512i; 8], out: &mut [[u8; NODE]; LANES]) {
    let swap = 0x0c0d_0e0f_0809_0a0b;
    let lo = 0x0405_0607_0001_0203;
    let swap = _mm512_set_epi64(swap, lo, swap, lo, swap, lo, swap, lo);
    let mut columns = [_mm512_setzero_si512(); 16];
    for (x, (v, y)) in columns.iter_mut().zip(v.iter().zip(y)) {
        *x = _mm512_shuffle_epi8(_mm512_add_epi32(*v, y), swap);
    }
    // Lane s's digest in the low half of row s.
    let rows = transpose(&columns);
    for (digest, row) in out.iter_mut().zip(rows) {
        let (mut bytes, low) = ([0u8; 32], _mm512_castsi512_si256(row));
        // SAFETY: `bytes` is 32 writable bytes; storeu has no alignment
        // requirement.
        unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), low) };
        digest.copy_from_slice(&bytes[..NODE]);
    }
}

/// `out[i]` = SHA-256 or SHA-224 (from `init`) of `nodes[2i] ||
/// nodes[2i + 1]` for every whole group of sixteen pairs (see
/// [`pairs_lanes`]; `NODE` is 32 or 28); returns how many pairs that was,
/// for the caller to finish the rest another way.
///
/// # Safety
/// The CPU must support avx512f and avx512bw.
pub(super) unsafe fn hash_pairs<const LEAN: bool, const NODE: usize>(
    init: &[u32; 8],
    nodes: &[[u8; NODE]],
    out: &mut [[u8; NODE]],
) -> usize {
    assert_eq!(nodes.len(), 2 * out.len(), "hash_pairs: one output slot per pair of nodes");
    let (groups, _) = nodes.as_chunks::<{ 2 * LANES }>();
    let (slots, _) = out.as_chunks_mut::<LANES>();
    for (group, slot) in groups.iter().zip(slots.iter_mut()) {
        // SAFETY: the caller guarantees the CPU features `pairs_lanes`
        // enables.
        unsafe { pairs_lanes::<LEAN, NODE>(init, group, slot) };
    }
    slots.len().min(groups.len()) * LANES
}

/// Hash each of `inputs` into the matching `outputs` slot, sixteen
/// messages at a time (see `hash_core::multi`); the last few messages are
/// finished with `single`, a single-stream backend. `LEAN` selects the
/// round shape (see [`compress_lanes`]).
///
/// # Safety
/// The CPU must support avx512f and avx512bw, and `single` must be
/// supported.
pub(super) unsafe fn digest_many<A, const LEAN: bool>(single: Backend, inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    hash_core::multi::digest_many_lanes::<A, LANES>(single, inputs, outputs, min_active(single), |states, data| {
        // SAFETY: the caller of `digest_many` guarantees the CPU features
        // that `compress_lanes` enables.
        unsafe { compress_lanes::<LEAN>(states, data) }
    });
}
