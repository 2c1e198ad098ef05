//! The checks of the public entry points that take a backend or a batch,
//! and the errors and panics that name the caller's type and function.

use core::fmt;

use crate::backend::UnsupportedBackend;

/// Panic with a clear message unless a batch's `inputs` and `outputs` pair
/// up (one output slot per input message).
#[inline]
#[track_caller]
pub fn check_batch(inputs: usize, outputs: usize) {
    assert!(inputs == outputs, "digest_many: {inputs} inputs but {outputs} output slots; pass one output per input");
}

/// [`check_batch`] for the public batch functions, whose panic names the
/// type and the function the caller called (`Shake128::digest_xof_many: 2
/// inputs but 1 output slots; ...`).
#[inline]
#[track_caller]
pub(crate) fn check_batch_of<A>(function: &str, inputs: usize, outputs: usize) {
    if inputs != outputs {
        batch_mismatch(type_name::<A>(), function, inputs, outputs);
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn batch_mismatch(ty: &str, function: &str, inputs: usize, outputs: usize) -> ! {
    panic!("{ty}::{function}: {inputs} inputs but {outputs} output slots; pass one output per input")
}

/// The name of `A`'s type without its path: `Sha3_256` for
/// `sha3::algorithm::Sha3_256`, which is also the name of the crate's
/// hasher type for it (`sha3::Sha3_256 = Hasher<algorithm::Sha3_256>`), so
/// that panics name what the caller wrote.
pub(crate) fn type_name<A>() -> &'static str {
    let full = core::any::type_name::<A>();
    full.rsplit("::").next().unwrap_or(full)
}

/// Why a batch of pairs or prefixed messages was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchError {
    /// The inputs and the output slots do not pair up.
    Length {
        /// The function called (`"hash_pairs"`, `"hash_prefixed_many"`).
        function: &'static str,
        /// The inputs given (nodes, or bodies).
        inputs: usize,
        /// The output slots given.
        outputs: usize,
        /// The inputs that `outputs` slots need.
        expected_inputs: usize,
    },
    /// The forced backend cannot run on this CPU or in this build.
    Unsupported(UnsupportedBackend),
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Length { function, inputs, outputs, expected_inputs } => write!(
                f,
                "{function}: {inputs} inputs but {outputs} output slots; {outputs} slots need {expected_inputs} inputs"
            ),
            BatchError::Unsupported(e) => e.fmt(f),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BatchError {}

impl From<UnsupportedBackend> for BatchError {
    fn from(e: UnsupportedBackend) -> Self {
        BatchError::Unsupported(e)
    }
}

pub(crate) fn check_pairs(nodes: usize, outputs: usize) -> Result<(), BatchError> {
    match outputs.checked_mul(2) {
        Some(n) if n == nodes => Ok(()),
        _ => Err(BatchError::Length {
            function: "hash_pairs",
            inputs: nodes,
            outputs,
            expected_inputs: outputs.saturating_mul(2),
        }),
    }
}

pub(crate) fn check_prefixed(bodies: usize, outputs: usize) -> Result<(), BatchError> {
    if bodies == outputs {
        Ok(())
    } else {
        Err(BatchError::Length { function: "hash_prefixed_many", inputs: bodies, outputs, expected_inputs: outputs })
    }
}

/// The value, or a panic naming the type and function the caller used
/// (`Sha256::hash_pairs: 5 inputs but 2 output slots; ...`,
/// `Sha256::hash_pairs_with_backend: the `x` backend is not supported ...`).
#[track_caller]
pub(crate) fn or_panic<A, T>(function: &str, r: Result<T, BatchError>) -> T {
    match r {
        Ok(v) => v,
        Err(BatchError::Unsupported(e)) => panic!("{}::{function}: {}", type_name::<A>(), e.without_type()),
        Err(e) => panic!("{}::{e}", type_name::<A>()),
    }
}
