//! aarch64 code for collision detection: the compression with the ARMv8
//! SHA1 instructions that also keeps the expanded message and the states
//! the checks need, and the unavoidable-bit-condition filter in NEON.
//!
//! The rounds are those of the `arm-sha` backend (`backend::aarch64_sha`:
//! `sha1c`/`sha1p`/`sha1m` four rounds at a time, `sha1h` for the next
//! group's e, `sha1su0`/`sha1su1` for the schedule), written here with
//! intrinsics; the schedule registers hold W[4g..4g+4] with W[4g] in lane
//! 0, so each is stored as it is. The filter takes the packed conditions
//! (`tables::PACKED`) four to a `q` register, as the x86 filters take them
//! eight to a `ymm` register.

use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vandq_u32, vdupq_n_u32, veorq_u32, vextq_u32, vgetq_lane_u32, vld1q_u8, vld1q_u32,
    vorrq_u32, vreinterpretq_s32_u32, vreinterpretq_u32_s32, vreinterpretq_u32_u8, vrev32q_u8, vsha1cq_u32, vsha1h_u32,
    vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32, vshlq_u32, vshrq_n_s32, vst1q_u32,
};

use super::detect::{self, Expanded};
use super::tables::{PACKED, PACKED_FIRST, PACKED_W};
use crate::consts::K;

/// Four words into a `q` register.
#[inline]
#[target_feature(enable = "neon")]
fn load4(x: &[u32]) -> uint32x4_t {
    assert!(x.len() >= 4);
    // SAFETY: `x` holds at least 4 readable u32 (checked just above, a
    // check the callers' constant lengths fold away); `ld1` needs no
    // alignment beyond the element's, which a `u32` slice has.
    unsafe { vld1q_u32(x.as_ptr()) }
}

/// A `q` register into four words.
#[inline]
#[target_feature(enable = "neon")]
fn store4(x: &mut [u32], v: uint32x4_t) {
    assert!(x.len() >= 4);
    // SAFETY: `x` holds at least 4 writable u32 (checked just above).
    unsafe { vst1q_u32(x.as_mut_ptr(), v) }
}

/// One block with the SHA1 instructions (FIPS 180-4 §6.1.2), from `ihv`:
/// returns the new chaining value and fills `x` (all of W, the states
/// before steps 58 and 65).
#[target_feature(enable = "neon,sha2")]
pub(crate) fn compress_arm(ihv: [u32; 5], block: &[u8; 64], x: &mut Expanded) -> [u32; 5] {
    let mut w = [vdupq_n_u32(0); 20];
    for (wj, bytes) in w.iter_mut().zip(block.chunks_exact(16)) {
        // SAFETY: `bytes` is 16 readable bytes (a chunk of a 64-byte
        // array); `ld1` of bytes has no alignment requirement.
        let raw = unsafe { vld1q_u8(bytes.as_ptr()) };
        // Big-endian words (§3.1).
        *wj = vreinterpretq_u32_u8(vrev32q_u8(raw));
    }
    let abcd0 = load4(&ihv[..4]);
    let mut abcd = abcd0;
    let mut e = ihv[4];
    // The `abcd` values after groups 12 to 15.
    let mut saved = [[0u32; 4]; 4];
    macro_rules! group {
        ($g:literal) => {
            if $g >= 4 {
                // §6.1.2 step 1.
                w[$g] = vsha1su1q_u32(vsha1su0q_u32(w[$g - 4], w[$g - 3], w[$g - 2]), w[$g - 1]);
            }
            store4(&mut x.w[4 * $g..4 * $g + 4], w[$g]);
            let wk = vaddq_u32(w[$g], vdupq_n_u32(K[$g / 5]));
            // e four rounds on is this group's a rotated by 30 (step 3).
            let next_e = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
            abcd = match $g / 5 {
                0 => vsha1cq_u32(abcd, e, wk),
                2 => vsha1mq_u32(abcd, e, wk),
                _ => vsha1pq_u32(abcd, e, wk),
            };
            e = next_e;
            if (12..16).contains(&$g) {
                store4(&mut saved[($g as usize).wrapping_sub(12) % 4], abcd);
            }
        };
    }
    macro_rules! groups {
        ($($g:literal)*) => {
            $(group!($g);)*
        };
    }
    groups!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
    // The states before steps 56 and 64 (after groups 13 and 15, e being
    // ROTL³⁰ of the a a group earlier), then two and one scalar steps.
    let state = |v: [u32; 4], before: [u32; 4]| [v[0], v[1], v[2], v[3], before[0].rotate_left(30)];
    let s56 = state(saved[1], saved[0]);
    let s64 = state(saved[3], saved[2]);
    x.s58 = detect::step(detect::step(s56, 56, x.w[56]), 57, x.w[57]);
    x.s65 = detect::step(s64, 64, x.w[64]);
    // Step 4.
    let mut out = [0u32; 5];
    store4(&mut out[..4], vaddq_u32(abcd, abcd0));
    out[4] = ihv[4].wrapping_add(e);
    out
}

/// The packed conditions `k...` on `w`, four lanes at a time, the failing
/// lanes' DVs ORed into `fail`: per half vector two variable shifts that
/// move each lane's two bits to bit 31, the XORs with the other bit and
/// the wanted value, an arithmetic shift that spreads bit 31, and the
/// failing lanes' DVs ORed in.
macro_rules! neon_vectors {
    ($fail:ident, $w:ident; $($k:literal)*) => {
        $(
            let p = &PACKED[$k];
            let (s, d) = (usize::from(p.s), usize::from(p.d));
            for h in [0, 4] {
                let (wi, wj) = (load4(&$w[s + h..s + h + 4]), load4(&$w[s + d + h..s + d + h + 4]));
                let sa = vreinterpretq_s32_u32(load4(&p.sa[h..h + 4]));
                let sb = vreinterpretq_s32_u32(load4(&p.sb[h..h + 4]));
                let x = veorq_u32(veorq_u32(vshlq_u32(wi, sa), vshlq_u32(wj, sb)), load4(&p.value[h..h + 4]));
                // All ones in a lane whose condition fails.
                let failing = vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(x)));
                $fail = vorrq_u32($fail, vandq_u32(failing, load4(&p.dvs[h..h + 4])));
            }
        )*
    };
}

/// The OR of the four lanes.
#[inline]
#[target_feature(enable = "neon")]
fn or_lanes(v: uint32x4_t) -> u32 {
    let v = vorrq_u32(v, vextq_u32::<2>(v, v));
    vgetq_lane_u32::<0>(v) | vgetq_lane_u32::<1>(v)
}

/// The filter (see `detect::ubc_mask`) in NEON, with the x86 filters'
/// vectors and stages (`ubc_stages!`).
#[target_feature(enable = "neon")]
pub(crate) fn ubc_neon(w: &[u32; 80]) -> u32 {
    ubc_stages!(neon_vectors, w, vdupq_n_u32(0), or_lanes)
}

/// Process `blocks` with the SHA1 instructions and the NEON filter: the
/// `arm-sha` backend's detection.
#[target_feature(enable = "neon,sha2")]
pub(crate) fn process_arm(st: &mut super::DcState, blocks: &[[u8; 64]]) {
    super::process_with(st, blocks, |ihv, b, x| compress_arm(ihv, b, x), |w| ubc_neon(w));
}
