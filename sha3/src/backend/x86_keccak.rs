//! Keccak-p\[1600, n_r\] (n_r = `ROUNDS`, 24 or 12) for x86-64 with BMI1 and BMI2 (FIPS 202 §3.3).
//!
//! The round code is the portable module's spec-form round
//! (`portable::round`: constant lane indices, plane-by-plane schedule, two
//! rounds per loop pass), inlined here into functions compiled with BMI1
//! and BMI2, so that χ's ¬B\[x+1\] ∧ B\[x+2\] is one `andn` (no NOTs at
//! all; the portable backend's lane-complementing transform only gets down
//! to 5 per round) and ρ's rotations are `rorx`, which writes a fresh
//! register and so saves the copy that a two-operand `rol` needs when the
//! source stays live. Per round that is about 135 ALU instructions (20 + 5
//! XORs for θ's parities and D, 5 rotations for D, then per lane one XOR
//! with D, one rotation, one `andn` and one XOR), which keeps Zen 3's four
//! integer ALUs busy; the remaining instructions are loads and stores of
//! spilled lanes, which use the separate load/store units.

use super::portable;

/// Absorb `blocks` into `state` (FIPS 202 §4 Algorithm 8 step 6), every
/// block in this one call, with the permutation inlined into the loop: the
/// block's XOR and θ then work on the same lanes without a call, a store of
/// the state and its reload between them. Compiled through [`permute`]
/// instead (once per round count, a call per block), TurboSHAKE128 and
/// KT128 ran 5-7% slower at 1-8 KiB and SHA3-512 2% (an interleaved
/// before/after run in one process, AMD EPYC Zen 3); inlined, each
/// instantiation costs compile time (`cargo test -p sha3 --no-run`: 142
/// instead of 89 CPU s).
#[target_feature(enable = "bmi1,bmi2")]
pub(super) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    for block in blocks {
        portable::xor_block(state, &block.as_ref()[..RATE]);
        portable::keccak_p::<ROUNDS>(state);
    }
}

/// Apply Keccak-p\[1600, `ROUNDS`\] once.
///
/// The two round counts this crate uses go through a non-generic function
/// each, compiled once in this crate, for the squeeze and the single
/// permutations (once per output block, not on the absorbing loop).
#[target_feature(enable = "bmi1,bmi2")]
#[inline]
pub(super) fn permute<const ROUNDS: usize>(state: &mut [u64; 25]) {
    match ROUNDS {
        24 => keccak_f1600(state),
        12 => keccak_p1600_12(state),
        _ => portable::keccak_p::<ROUNDS>(state),
    }
}

/// Keccak-f\[1600\] (24 rounds).
#[target_feature(enable = "bmi1,bmi2")]
fn keccak_f1600(state: &mut [u64; 25]) {
    portable::keccak_p::<24>(state);
}

/// Keccak-p\[1600, 12\] (TurboSHAKE, KangarooTwelve).
#[target_feature(enable = "bmi1,bmi2")]
fn keccak_p1600_12(state: &mut [u64; 25]) {
    portable::keccak_p::<12>(state);
}
