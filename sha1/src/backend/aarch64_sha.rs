//! SHA-1 with the ARMv8 SHA1 instructions (FEAT_SHA1, Rust target feature
//! `sha2`, which covers SHA-1 and SHA-256): FIPS 180-4 §6.1.2, four rounds
//! per instruction.
//!
//! Register layout (as the instructions define it): a, b, c, d in lanes 0
//! to 3 of one vector register (so the state's first four words load
//! as they are), e in a 32-bit scalar register of its own. Message words
//! are byte-swapped per 32-bit word (big-endian, §3.1), W[t] in lane 0.
//!
//! Rounds come in twenty groups of four. Group g adds K (§4.2.1) to
//! W[4g..4g+4] and runs `sha1c` (Ch, rounds 0–19), `sha1p` (Parity, 20–39
//! and 60–79) or `sha1m` (Maj, 40–59) on (abcd, e); the e of the next group
//! is ROTL³⁰ of this group's a (`sha1h`), since e four rounds later is a
//! rotated by 30 (§6.1.2 step 3). While group g runs, the schedule (§6.1.2
//! step 1) produces the words of group g + 4: `sha1su0` XORs W[t-16],
//! W[t-14] and W[t-8], and `sha1su1` XORs W[t-3] and rotates by one,
//! including the words it is producing.
//!
//! The same code hashes `N` independent messages with their instruction
//! streams interleaved: each stream's `sha1c`/`sha1p`/`sha1m` chain is
//! bound by the instructions' latency, and the other streams fill the
//! gaps (Intel ISA-L's aarch64 multi-buffer code does the same). `N = 1`
//! is the single-stream backend.
//!
//! Two instructions are written as `asm!`, because LLVM cannot be asked
//! for them through intrinsics (rustc 1.96 / LLVM):
//! - the single stream loads its block with one post-indexed
//!   `ld1 {v0.16b-v3.16b}, [p], #64`: `vld1q_u8_x4` is a plain unaligned
//!   read in IR, which LLVM splits into two `ldp` plus a pointer `add`;
//! - the last group's `sha1h` writes its result as a vector (an `s`
//!   register write clears lanes 1–3), so step 4 adds e with one vector
//!   `add` and e stays in lane 0 of a vector across blocks; the intrinsic
//!   returns a `u32`, which LLVM carries in a general register (two
//!   `fmov` and a scalar `add` per block).
//!
//! The single-stream loop is then 102 instructions per block, as many as
//! OpenSSL's `sha1_block_armv8` (105 before); the vector e also takes the
//! `fmov`s out of the interleaved loops (2 streams: 211 instructions per
//! two blocks, from 215; 3 streams: 312 per three, from 318).

use core::arch::aarch64::{
    uint8x16_t, uint32x4_t, vaddq_u32, vdupq_n_u32, vgetq_lane_u32, vld1q_u8_x4, vld1q_u32, vreinterpretq_u32_u8,
    vrev32q_u8, vsetq_lane_u32, vsha1cq_u32, vsha1h_u32, vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32,
    vst1q_u32,
};
use core::arch::asm;

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::K;

/// Rounds 4G .. 4G+3 of the single stream as `asm!` lines: the next
/// group's e (`sha1h` of this group's a) into s`$eo`, the four rounds on
/// ABCD in v0 with this group's e from s`$ei` and W + K from v`$wk`, then
/// W + K of group G + 1 (v`$nw` + v`$nk`) into v`$nwk`, a group ahead as
/// OpenSSL does, and (`sched`) the words of group G + 4 in the register
/// just consumed.
macro_rules! group1 {
    (sched $op:literal, $ei:literal, $eo:literal, $wk:literal, $nwk:literal, $nk:literal, $nw:literal,
     $w0:literal, $w1:literal, $w2:literal, $w3:literal) => {
        concat!(
            group1!($op, $ei, $eo, $wk, $nwk, $nk, $nw),
            "sha1su0 v", $w0, ".4s, v", $w1, ".4s, v", $w2, ".4s\n",
            "sha1su1 v", $w0, ".4s, v", $w3, ".4s\n",
        )
    };
    ($op:literal, $ei:literal, $eo:literal, $wk:literal, $nwk:literal, $nk:literal, $nw:literal) => {
        concat!(
            group1!(last $op, $ei, $eo, $wk),
            "add v", $nwk, ".4s, v", $nk, ".4s, v", $nw, ".4s\n",
        )
    };
    (last $op:literal, $ei:literal, $eo:literal, $wk:literal) => {
        concat!("sha1h s", $eo, ", s0\n", "sha1", $op, " q0, s", $ei, ", v", $wk, ".4s\n")
    };
}

/// Compress `blocks` into `state` (one stream).
///
/// The loop is inline assembly: compiled from the intrinsics (the
/// `interleaved::<1>` engine), LLVM ends each block by adding the saved
/// state into a register other than the one `sha1c` accumulates in and
/// copies it back at the next block's start, a `mov` on the chain from
/// one block to the next; `llvm-mca` (LLVM 19) models that loop 1 cycle
/// per block slower than OpenSSL's `sha1_block_armv8` on every core it
/// was run on (145 / 103 / 103 / 103 / 143 / 143 against 144 / 102 / 102
/// / 102 / 142 / 142 on Cortex-A72 / Neoverse N1 / V1 / V2 / Apple M1 /
/// M4). Here ABCD accumulates in v0 across blocks (step 4 adds the saved
/// copy, v22, into v0 itself) and e stays in lane 0 of v1; the next
/// group's e alternates between s3 and s2; the four K vectors stay in
/// v16..v19, W + K in v20/v21 (computed a group ahead), the message words
/// in v4..v7. Modelled: 143 / 102 / 102 / 102 / 142 / 142, at or below
/// OpenSSL's on every core.
#[target_feature(enable = "sha2")]
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[Block<U64>]) {
    if blocks.is_empty() {
        return;
    }
    // SAFETY: `state` holds at least four u32; `vld1q_u32` reads four.
    let mut abcd = unsafe { vld1q_u32(state.as_ptr()) };
    let mut e = vsetq_lane_u32::<0>(state[4], vdupq_n_u32(0));
    // SAFETY: `p` points at `n` = `blocks.len()` >= 1 whole 64-byte blocks
    // (a `Block<U64>` is 64 bytes with no padding), which the loop reads in
    // order, 64 bytes per pass, `n` passes; nothing else is read or
    // written in memory. The assembly writes only the registers it
    // declares; it needs FEAT_SHA1, which this function's `target_feature`
    // (`sha2`) makes its callers guarantee.
    unsafe {
        asm!(
            "2:",
            hash_core::aarch64_load_block_be32_v4_v7!(),
            "mov v22.16b, v0.16b",
            "add v20.4s, v16.4s, v4.4s",
            group1!(sched "c", "1", "3", "20", "21", "16", "5", "4", "5", "6", "7"),
            group1!(sched "c", "3", "2", "21", "20", "16", "6", "5", "6", "7", "4"),
            group1!(sched "c", "2", "3", "20", "21", "16", "7", "6", "7", "4", "5"),
            group1!(sched "c", "3", "2", "21", "20", "16", "4", "7", "4", "5", "6"),
            group1!(sched "c", "2", "3", "20", "21", "17", "5", "4", "5", "6", "7"),
            group1!(sched "p", "3", "2", "21", "20", "17", "6", "5", "6", "7", "4"),
            group1!(sched "p", "2", "3", "20", "21", "17", "7", "6", "7", "4", "5"),
            group1!(sched "p", "3", "2", "21", "20", "17", "4", "7", "4", "5", "6"),
            group1!(sched "p", "2", "3", "20", "21", "17", "5", "4", "5", "6", "7"),
            group1!(sched "p", "3", "2", "21", "20", "18", "6", "5", "6", "7", "4"),
            group1!(sched "m", "2", "3", "20", "21", "18", "7", "6", "7", "4", "5"),
            group1!(sched "m", "3", "2", "21", "20", "18", "4", "7", "4", "5", "6"),
            group1!(sched "m", "2", "3", "20", "21", "18", "5", "4", "5", "6", "7"),
            group1!(sched "m", "3", "2", "21", "20", "18", "6", "5", "6", "7", "4"),
            group1!(sched "m", "2", "3", "20", "21", "19", "7", "6", "7", "4", "5"),
            group1!(sched "p", "3", "2", "21", "20", "19", "4", "7", "4", "5", "6"),
            group1!("p", "2", "3", "20", "21", "19", "5"),
            group1!("p", "3", "2", "21", "20", "19", "6"),
            group1!("p", "2", "3", "20", "21", "19", "7"),
            group1!(last "p", "3", "2", "21"),
            "add v0.4s, v0.4s, v22.4s",
            "add v1.4s, v1.4s, v2.4s",
            "subs {n}, {n}, #1",
            "b.ne 2b",
            p = inout(reg) blocks.as_ptr().cast::<u8>() => _,
            n = inout(reg) blocks.len() => _,
            inout("v0") abcd,
            inout("v1") e,
            in("v16") vdupq_n_u32(K[0]),
            in("v17") vdupq_n_u32(K[1]),
            in("v18") vdupq_n_u32(K[2]),
            in("v19") vdupq_n_u32(K[3]),
            out("v2") _, out("v3") _, out("v4") _, out("v5") _, out("v6") _, out("v7") _,
            out("v20") _, out("v21") _, out("v22") _,
            options(nostack, readonly),
        );
    }
    let (lo, hi) = state.split_at_mut(4);
    // SAFETY: `lo` holds four u32; `vst1q_u32` writes four.
    unsafe { vst1q_u32(lo.as_mut_ptr(), abcd) };
    hi[0] = vgetq_lane_u32::<0>(e);
}

/// Compress every block of `data[i]` into `states[i]`, for `N`
/// interleaved streams. Every `data[i]` has the same length, a whole
/// number of 64-byte blocks (the scheduler's contract).
#[target_feature(enable = "sha2")]
pub(crate) fn compress_lanes<const N: usize>(states: &mut [[u32; 5]; N], data: [&[u8]; N]) {
    let len = data[0].len();
    assert!(len.is_multiple_of(64) && data.iter().all(|d| d.len() == len), "lanes of equal whole blocks");
    interleaved::<N>(states, len / 64, |i, k| load_block(as_array(&data[i][64 * k..64 * k + 64])));
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

/// The block's sixteen message words W[0..16] as four vectors (one `ld1`
/// of 64 bytes, four byte swaps).
#[inline]
#[target_feature(enable = "sha2")]
fn load_block(block: &[u8; 64]) -> [uint32x4_t; 4] {
    // SAFETY: `block` is 64 readable bytes, what `vld1q_u8_x4` reads.
    let raw = unsafe { vld1q_u8_x4(block.as_ptr()) };
    swap_words([raw.0, raw.1, raw.2, raw.3])
}

/// Four vectors of bytes as big-endian 32-bit words (§3.1): `rev32` each.
#[inline]
#[target_feature(enable = "sha2")]
fn swap_words(raw: [uint8x16_t; 4]) -> [uint32x4_t; 4] {
    raw.map(|r| vreinterpretq_u32_u8(vrev32q_u8(r)))
}

/// `sha1h` as a vector: ROTL³⁰ of lane 0 of `abcd` (a, §6.1.2 step 3) in
/// lane 0, lanes 1–3 zero.
#[inline]
#[target_feature(enable = "sha2")]
fn sha1h_vector(abcd: uint32x4_t) -> uint32x4_t {
    let e: uint32x4_t;
    // SAFETY: `sha1h` reads and writes registers only (no memory, stack or
    // flags); FEAT_SHA1 is enabled here (`sha2`), as for every caller.
    unsafe {
        asm!(
            "sha1h {e:s}, {abcd:s}",
            e = lateout(vreg) e,
            abcd = in(vreg) abcd,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    e
}

/// The engine: `nblocks` blocks for each of the `N` streams, the message
/// words of block `k` of stream `i` being `load(i, k)`. Contract (the
/// single stream's loader relies on it): `load` is called exactly once per
/// (i, k), k = 0, 1, ... in increasing order.
#[inline]
#[target_feature(enable = "sha2")]
fn interleaved<const N: usize>(
    states: &mut [[u32; 5]; N],
    nblocks: usize,
    mut load: impl FnMut(usize, usize) -> [uint32x4_t; 4],
) {
    let k = [vdupq_n_u32(K[0]), vdupq_n_u32(K[1]), vdupq_n_u32(K[2]), vdupq_n_u32(K[3])];

    let mut abcd: [uint32x4_t; N] = [vdupq_n_u32(0); N];
    // e in lane 0 (the other lanes are never read).
    let mut e0: [uint32x4_t; N] = [vdupq_n_u32(0); N];
    for i in 0..N {
        let (head, _) = states[i].split_first_chunk::<4>().expect("the state has five words");
        // SAFETY: `head` is four readable u32, what `vld1q_u32` reads.
        abcd[i] = unsafe { vld1q_u32(head.as_ptr()) };
        e0[i] = vsetq_lane_u32::<0>(states[i][4], vdupq_n_u32(0));
    }

    for b in 0..nblocks {
        let abcd_saved = abcd;
        let mut m: [[uint32x4_t; 4]; N] = [[vdupq_n_u32(0); 4]; N];
        for (i, words) in m.iter_mut().enumerate() {
            *words = load(i, b);
        }
        // The e input of the current group; after group 19, the e of step 4.
        let mut e: [u32; N] = e0.map(|v| vgetq_lane_u32::<0>(v));
        let mut e_last: [uint32x4_t; N] = [vdupq_n_u32(0); N];

        macro_rules! group {
            ($g:literal) => {
                for i in 0..N {
                    let wk = vaddq_u32(m[i][$g % 4], k[$g / 5]);
                    // e of the next group: ROTL³⁰(a) of this one's input;
                    // after the last group as a vector, for step 4's add.
                    // (Computed before the group overwrites abcd.)
                    let mut e_next = e[i];
                    if $g < 19 {
                        e_next = vsha1h_u32(vgetq_lane_u32::<0>(abcd[i]));
                    } else {
                        e_last[i] = sha1h_vector(abcd[i]);
                    }
                    // f: Ch, Parity, Maj, Parity for rounds 0–19, 20–39,
                    // 40–59, 60–79 (§4.1.1).
                    abcd[i] = match $g / 5 {
                        0 => vsha1cq_u32(abcd[i], e[i], wk),
                        2 => vsha1mq_u32(abcd[i], e[i], wk),
                        _ => vsha1pq_u32(abcd[i], e[i], wk),
                    };
                    e[i] = e_next;
                    if $g < 16 {
                        // W[t] = ROTL¹(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]),
                        // t = 4(g+4) .. 4(g+4)+3, into the vector of group g.
                        let x = vsha1su0q_u32(m[i][$g % 4], m[i][($g + 1) % 4], m[i][($g + 2) % 4]);
                        m[i][$g % 4] = vsha1su1q_u32(x, m[i][($g + 3) % 4]);
                    }
                }
            };
        }
        group!(0);
        group!(1);
        group!(2);
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
        group!(16);
        group!(17);
        group!(18);
        group!(19);

        // Step 4: H(i) = H(i-1) + (a, b, c, d, e).
        for i in 0..N {
            abcd[i] = vaddq_u32(abcd[i], abcd_saved[i]);
            e0[i] = vaddq_u32(e0[i], e_last[i]);
        }
    }

    for i in 0..N {
        let (head, tail) = states[i].split_at_mut(4);
        // SAFETY: `head` is four writable u32, what `vst1q_u32` writes.
        unsafe { vst1q_u32(head.as_mut_ptr(), abcd[i]) };
        tail[0] = vgetq_lane_u32::<0>(e0[i]);
    }
}
