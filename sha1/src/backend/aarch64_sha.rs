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

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vdupq_n_u32, vgetq_lane_u32, vld1q_u8_x4, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8,
    vsha1cq_u32, vsha1h_u32, vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32, vst1q_u32,
};

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::K;

/// Compress `blocks` into `state` (one stream).
#[target_feature(enable = "sha2")]
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[Block<U64>]) {
    let mut states = [*state];
    interleaved::<1>(&mut states, blocks.len(), |_, k| as_array(&blocks[k]));
    *state = states[0];
}

/// Compress every block of `data[i]` into `states[i]`, for `N`
/// interleaved streams. Every `data[i]` has the same length, a whole
/// number of 64-byte blocks (the scheduler's contract).
#[target_feature(enable = "sha2")]
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

/// The block's sixteen message words W[0..16] as four vectors (one `ld1`
/// of 64 bytes, four byte swaps).
#[inline]
#[target_feature(enable = "sha2")]
fn load_block(block: &[u8; 64]) -> [uint32x4_t; 4] {
    // SAFETY: `block` is 64 readable bytes, what `vld1q_u8_x4` reads.
    let raw = unsafe { vld1q_u8_x4(block.as_ptr()) };
    [
        vreinterpretq_u32_u8(vrev32q_u8(raw.0)),
        vreinterpretq_u32_u8(vrev32q_u8(raw.1)),
        vreinterpretq_u32_u8(vrev32q_u8(raw.2)),
        vreinterpretq_u32_u8(vrev32q_u8(raw.3)),
    ]
}

/// The engine: `nblocks` blocks for each of the `N` streams, block `k` of
/// stream `i` being `block(i, k)`.
#[inline]
#[target_feature(enable = "sha2")]
fn interleaved<'a, const N: usize>(
    states: &mut [[u32; 5]; N],
    nblocks: usize,
    block: impl Fn(usize, usize) -> &'a [u8; 64],
) {
    let k = [vdupq_n_u32(K[0]), vdupq_n_u32(K[1]), vdupq_n_u32(K[2]), vdupq_n_u32(K[3])];

    let mut abcd: [uint32x4_t; N] = [vdupq_n_u32(0); N];
    let mut e0: [u32; N] = [0; N];
    for i in 0..N {
        let (head, _) = states[i].split_first_chunk::<4>().expect("the state has five words");
        // SAFETY: `head` is four readable u32, what `vld1q_u32` reads.
        abcd[i] = unsafe { vld1q_u32(head.as_ptr()) };
        e0[i] = states[i][4];
    }

    for b in 0..nblocks {
        let abcd_saved = abcd;
        let e_saved = e0;
        let mut m: [[uint32x4_t; 4]; N] = [[vdupq_n_u32(0); 4]; N];
        for (i, words) in m.iter_mut().enumerate() {
            *words = load_block(block(i, b));
        }
        // The e input of the current group.
        let mut e = e0;

        macro_rules! group {
            ($g:literal) => {
                for i in 0..N {
                    let wk = vaddq_u32(m[i][$g % 4], k[$g / 5]);
                    // e of the next group: ROTL³⁰(a) of this one's input.
                    let e_next = vsha1h_u32(vgetq_lane_u32::<0>(abcd[i]));
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
            e0[i] = e[i].wrapping_add(e_saved[i]);
        }
    }

    for i in 0..N {
        let (head, tail) = states[i].split_at_mut(4);
        // SAFETY: `head` is four writable u32, what `vst1q_u32` writes.
        unsafe { vst1q_u32(head.as_mut_ptr(), abcd[i]) };
        tail[0] = e0[i];
    }
}
