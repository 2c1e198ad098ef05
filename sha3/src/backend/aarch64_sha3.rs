//! Keccak-p\[1600, n_r\] with the ARMv8.2 SHA3 extension (FIPS 202 §3.3),
//! the `ArmSha3` backend: two Keccak states at once, one per 64-bit half
//! of each 128-bit NEON register.
//!
//! The extension's four instructions are a Keccak round's building blocks:
//!
//! * `EOR3` (a ⊕ b ⊕ c): θ's column parities C\[x\] in two per column
//!   (§3.2.1);
//! * `RAX1` (a ⊕ (b ⋘ 1)): D\[x\] = C\[x-1\] ⊕ (C\[x+1\] ⋘ 1), one each;
//! * `XAR` ((a ⊕ b) ⋙ k): θ's XOR with D and ρ's rotation (§3.2.2) of one
//!   lane in one instruction (plain `EOR` for lane (0, 0), whose offset is
//!   0); π (§3.2.3) is only the choice of source lanes;
//! * `BCAX` (a ⊕ (b ∧ ¬c)): χ (§3.2.4), one per lane.
//!
//! With ι (§3.2.5) a round is 10 + 5 + 25 + 25 + 1 = 66 vector instructions
//! plus loading the round constant, for both states: the same count as
//! OpenSSL's `KeccakF1600_ce`, which runs one state in the low halves.
//! Single messages ([`permute`], [`absorb`]) run the same code with their
//! state in the low halves; the `digest_many` engine ([`absorb2`]) fills
//! both.
//!
//! The intrinsics are safe inside functions compiled with the `sha3` target
//! feature; this file needs no `unsafe`.

use core::arch::aarch64::{
    uint64x2_t, vbcaxq_u64, vcombine_u64, vcreate_u64, vdupq_n_u64, veor3q_u64, veorq_u64, vgetq_lane_u64, vrax1q_u64,
    vxarq_u64,
};

use crate::consts::RC;

/// θ's XOR with D and ρ for the five lanes B\[0..5\] of output plane y, one
/// `XAR` each (`[source column right-rotation]`, the right rotation being
/// 64 minus the ρ offset of Table 2; the sources and offsets are
/// `portable::round`'s).
macro_rules! plane_b {
    ($a:ident, $d:ident, [$s0:literal $d0:literal $r0:tt] [$s1:literal $d1:literal $r1:literal]
     [$s2:literal $d2:literal $r2:literal] [$s3:literal $d3:literal $r3:literal]
     [$s4:literal $d4:literal $r4:literal]) => {
        [
            plane_b!(@b0 $a, $d, $s0, $d0, $r0),
            vxarq_u64::<$r1>($a[$s1], $d[$d1]),
            vxarq_u64::<$r2>($a[$s2], $d[$d2]),
            vxarq_u64::<$r3>($a[$s3], $d[$d3]),
            vxarq_u64::<$r4>($a[$s4], $d[$d4]),
        ]
    };
    // Lane (0, 0): ρ offset 0, so only θ's XOR.
    (@b0 $a:ident, $d:ident, $s:literal, $c:literal, -) => {
        veorq_u64($a[$s], $d[$c])
    };
    (@b0 $a:ident, $d:ident, $s:literal, $c:literal, $r:literal) => {
        vxarq_u64::<$r>($a[$s], $d[$c])
    };
}

/// χ for output plane y, one `BCAX` per lane:
/// E\[x\] = B\[x\] ⊕ (B\[x+2\] ∧ ¬B\[x+1\]).
macro_rules! plane_chi {
    ($e:ident, $y:literal, $b:expr) => {
        let [b0, b1, b2, b3, b4] = $b;
        $e[5 * $y] = vbcaxq_u64(b0, b2, b1);
        $e[5 * $y + 1] = vbcaxq_u64(b1, b3, b2);
        $e[5 * $y + 2] = vbcaxq_u64(b2, b4, b3);
        $e[5 * $y + 3] = vbcaxq_u64(b3, b0, b4);
        $e[5 * $y + 4] = vbcaxq_u64(b4, b1, b0);
    };
}

/// One round (FIPS 202 §3.3: ι ∘ χ ∘ π ∘ ρ ∘ θ) on both states of `a`,
/// with round constant `rc`. A macro rather than a function so that the
/// intrinsics expand inside the caller's `sha3` target feature.
macro_rules! round {
    ($a:ident, $rc:expr) => {{
        // θ (§3.2.1): column parities, then D[x] = C[x-1] ⊕ (C[x+1] ⋘ 1).
        let c: [uint64x2_t; 5] =
            core::array::from_fn(|x| veor3q_u64(veor3q_u64($a[x], $a[x + 5], $a[x + 10]), $a[x + 15], $a[x + 20]));
        let d = [
            vrax1q_u64(c[4], c[1]),
            vrax1q_u64(c[0], c[2]),
            vrax1q_u64(c[1], c[3]),
            vrax1q_u64(c[2], c[4]),
            vrax1q_u64(c[3], c[0]),
        ];
        // Right rotations 64 - ρ (Table 2) for the lanes of
        // `portable::round`'s planes: [0 0 0] [6 1 44] [12 2 43] ... there.
        // Every B first, then every χ: the order in which the 25 source
        // lanes die as their B lanes appear, so that the state, D and the
        // temporaries fit the 32 vector registers (as in OpenSSL's
        // `KeccakF1600_ce`).
        let b0 = plane_b!($a, d, [0 0 -] [6 1 20] [12 2 21] [18 3 43] [24 4 50]);
        let b1 = plane_b!($a, d, [3 3 36] [9 4 44] [10 0 61] [16 1 19] [22 2 3]);
        let b2 = plane_b!($a, d, [1 1 63] [7 2 58] [13 3 39] [19 4 56] [20 0 46]);
        let b3 = plane_b!($a, d, [4 4 37] [5 0 28] [11 1 54] [17 2 49] [23 3 8]);
        let b4 = plane_b!($a, d, [2 2 2] [8 3 9] [14 4 25] [15 0 23] [21 1 62]);
        plane_chi!($a, 0, b0);
        plane_chi!($a, 1, b1);
        plane_chi!($a, 2, b2);
        plane_chi!($a, 3, b3);
        plane_chi!($a, 4, b4);
        // ι (§3.2.5), the same constant for both states.
        $a[0] = veorq_u64($a[0], vdupq_n_u64($rc));
    }};
}

/// Keccak-p\[1600, `ROUNDS`\] on both halves: the last `ROUNDS` of
/// Keccak-f's rounds (FIPS 202 §3.3), all written out (about 6.5 KB for
/// 24): as a loop, LLVM shuffles the 25 loop-carried lanes between
/// registers with `MOV`s and spills (75 instructions per round).
#[target_feature(enable = "sha3")]
#[inline(never)]
fn keccak_p2<const ROUNDS: usize>(state: &mut [uint64x2_t; 25]) {
    const { assert!(ROUNDS <= 24, "Keccak-p[1600] has at most 24 rounds") };
    let mut a = *state;
    macro_rules! rounds {
        ($($r:literal)*) => {
            $(
                if $r < ROUNDS {
                    round!(a, RC[24 - ROUNDS + $r]);
                }
            )*
        };
    }
    rounds!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);
    *state = a;
}

/// Two lanes in one register: `lo` in the low half, `hi` in the high half.
#[target_feature(enable = "sha3")]
#[inline]
fn pair(lo: u64, hi: u64) -> uint64x2_t {
    vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))
}

/// Little-endian 64-bit word `j` of `block` (FIPS 202 §B.1).
#[inline(always)]
fn word(block: &[u8], j: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&block[8 * j..8 * j + 8]);
    u64::from_le_bytes(w)
}

/// Apply Keccak-p\[1600, `ROUNDS`\] once to one state (in the low halves).
#[target_feature(enable = "sha3")]
pub(super) fn permute<const ROUNDS: usize>(state: &mut [u64; 25]) {
    let mut a: [uint64x2_t; 25] = core::array::from_fn(|i| pair(state[i], 0));
    keccak_p2::<ROUNDS>(&mut a);
    for (lane, v) in state.iter_mut().zip(a) {
        *lane = vgetq_lane_u64::<0>(v);
    }
}

/// Absorb `blocks` (each `RATE` bytes) into one state (FIPS 202 §4
/// Algorithm 8 step 6), kept in the low halves across blocks.
#[target_feature(enable = "sha3")]
pub(super) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    let mut a: [uint64x2_t; 25] = core::array::from_fn(|i| pair(state[i], 0));
    for block in blocks {
        let block = &block.as_ref()[..RATE];
        for (j, lane) in a.iter_mut().take(RATE / 8).enumerate() {
            *lane = veorq_u64(*lane, pair(word(block, j), 0));
        }
        keccak_p2::<ROUNDS>(&mut a);
    }
    for (lane, v) in state.iter_mut().zip(a) {
        *lane = vgetq_lane_u64::<0>(v);
    }
}

/// Absorb `data[i]` into `states[i]` for both lanes (FIPS 202 §4 Algorithm
/// 8 step 6). Both slices have the same length, a whole number of
/// `RATE`-byte blocks (the multi-buffer scheduler's contract).
#[target_feature(enable = "sha3")]
pub(super) fn absorb2<const RATE: usize, const ROUNDS: usize>(states: &mut [[u64; 25]; 2], data: [&[u8]; 2]) {
    assert!(data[0].len() == data[1].len() && data[0].len().is_multiple_of(RATE), "absorb2: equal whole blocks");
    let mut a: [uint64x2_t; 25] = core::array::from_fn(|i| pair(states[0][i], states[1][i]));
    for (m0, m1) in data[0].chunks_exact(RATE).zip(data[1].chunks_exact(RATE)) {
        for (j, lane) in a.iter_mut().take(RATE / 8).enumerate() {
            *lane = veorq_u64(*lane, pair(word(m0, j), word(m1, j)));
        }
        keccak_p2::<ROUNDS>(&mut a);
    }
    for (i, v) in a.iter().enumerate() {
        states[0][i] = vgetq_lane_u64::<0>(*v);
        states[1][i] = vgetq_lane_u64::<1>(*v);
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::{absorb, absorb2, permute};
    use crate::backend::aarch64_keccak::tests::{spec_keccak_p, states};

    /// Both entry points against the spec permutation, for Keccak-f (24
    /// rounds) and the 12-round Keccak-p of TurboSHAKE and KangarooTwelve;
    /// the two-lane engine with different states and data in its lanes.
    #[test]
    fn sha3_extension_rounds_match_the_spec() {
        if !std::arch::is_aarch64_feature_detected!("sha3") {
            hash_core::testing::say(format_args!("sha3: SKIPPED arm-sha3 unit tests: this CPU has no SHA3 extension"));
            return;
        }
        fn check<const ROUNDS: usize>() {
            let all: Vec<[u64; 25]> = states(17).collect();
            for (trial, pair) in all.windows(2).enumerate() {
                let (s0, s1) = (pair[0], pair[1]);
                let mut want0 = s0;
                spec_keccak_p(&mut want0, ROUNDS);
                let mut got = s0;
                // SAFETY: the SHA3 extension was detected above.
                unsafe { permute::<ROUNDS>(&mut got) };
                assert_eq!(got, want0, "permute::<{ROUNDS}>, trial {trial}");

                // Two blocks of rate 136 into two different states.
                let data: [Vec<u8>; 2] =
                    core::array::from_fn(|l| (0..272).map(|i| (i * 7 + l * 13 + trial) as u8).collect());
                let mut want = [s0, s1];
                for (state, msg) in want.iter_mut().zip(&data) {
                    for block in msg.chunks(136) {
                        crate::backend::portable::xor_block(state, block);
                        spec_keccak_p(state, ROUNDS);
                    }
                }
                let mut got = [s0, s1];
                // SAFETY: as above.
                unsafe { absorb2::<136, ROUNDS>(&mut got, [&data[0], &data[1]]) };
                assert_eq!(got, want, "absorb2::<136, {ROUNDS}>, trial {trial}");
                let mut one = s0;
                let blocks: Vec<&[u8]> = data[0].chunks(136).collect();
                // SAFETY: as above.
                unsafe { absorb::<136, ROUNDS, &[u8]>(&mut one, &blocks) };
                assert_eq!(one, want[0], "absorb::<136, {ROUNDS}>, trial {trial}");
            }
        }
        check::<24>();
        check::<12>();
    }
}
