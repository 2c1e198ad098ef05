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
/// block in this one call.
#[target_feature(enable = "bmi1,bmi2")]
pub(super) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    portable::absorb_inline::<RATE, ROUNDS, B>(state, blocks);
}

/// Apply Keccak-p\[1600, `ROUNDS`\] once.
#[target_feature(enable = "bmi1,bmi2")]
pub(super) fn permute<const ROUNDS: usize>(state: &mut [u64; 25]) {
    portable::keccak_p::<ROUNDS>(state);
}
