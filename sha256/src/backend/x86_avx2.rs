//! SHA-256 compression (FIPS 180-4 §6.2.2) for x86-64 CPUs with AVX2 and
//! BMI2.
//!
//! First step: the portable rounds compiled with BMI2 enabled, so that the
//! Σ rotations become `rorx`. The vectorised message schedule follows.

use hash_core::typenum::U64;
use hash_core::{Block, FixedAlgorithm};

use super::Backend;

/// Compress `blocks` into `state`, one after another.
#[target_feature(enable = "avx2,bmi1,bmi2")]
pub(super) fn compress(state: &mut [u32; 8], blocks: &[Block<U64>]) {
    super::portable::compress(state, blocks);
}

/// Hash each of `inputs` into the matching `outputs` slot.
///
/// # Safety
/// The CPU must support avx2, bmi1 and bmi2.
pub(super) unsafe fn digest_many<A>(inputs: &[&[u8]], outputs: &mut [A::Output])
where
    A: FixedAlgorithm<State = [u32; 8], Backend = Backend>,
{
    for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
        *output = hash_core::Hasher::<A>::digest_with_backend(Backend::Avx2, input);
    }
}
