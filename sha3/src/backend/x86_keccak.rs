//! Keccak-p\[1600, 24\] for x86-64 with BMI1 and BMI2 (FIPS 202 §3.3).
//!
//! The round code is the portable module's fully unrolled, plane-by-plane
//! schedule, inlined here into functions compiled with BMI1 and BMI2, so
//! that χ's ¬B\[x+1\] ∧ B\[x+2\] is one `andn` (no NOTs, which is what the
//! Keccak team's "lane complementing" transform achieves on plain x86-64)
//! and ρ's rotations are `rorx`, which writes a fresh register and so saves
//! the copy that a two-operand `rol` needs when the source stays live.

use super::portable;

/// Absorb `blocks` into `state` (FIPS 202 §4 Algorithm 8 step 6), every
/// block in this one call.
#[target_feature(enable = "bmi1,bmi2")]
pub(super) fn absorb<const RATE: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    portable::absorb_inline::<RATE, B>(state, blocks);
}

/// Apply Keccak-p\[1600, 24\] once.
#[target_feature(enable = "bmi1,bmi2")]
pub(super) fn permute(state: &mut [u64; 25]) {
    portable::keccak_p(state);
}
