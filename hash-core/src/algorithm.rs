//! What every algorithm crate supplies: the block type, the digest bytes
//! and the [`Algorithm`] trait, with the backend checks that name its type.

use generic_array::typenum::{IsLess, True, U256};
use generic_array::{ArrayLength, GenericArray};

use crate::backend::{BackendKind, UnsupportedBackend};
use crate::checks::type_name;

/// One input block of `N` bytes.
pub type Block<N> = GenericArray<u8, N>;

/// Fixed-size byte arrays used as digests (`[u8; N]`).
pub trait OutputBytes: Copy + Eq + AsRef<[u8]> + AsMut<[u8]> + core::fmt::Debug + 'static {
    /// An all-zero array.
    fn zeroed() -> Self;
}

impl<const N: usize> OutputBytes for [u8; N] {
    #[inline(always)]
    fn zeroed() -> Self {
        [0; N]
    }
}

/// A block-oriented hash primitive: what an algorithm crate supplies.
pub trait Algorithm: Sized + 'static {
    /// The algorithm's name as it appears in reports and `Debug` output
    /// (`"SHA-256"`).
    const NAME: &'static str;
    /// Bytes per compressed block (the sponge rate for Keccak).
    type BlockSize: ArrayLength<u8> + IsLess<U256, Output = True> + 'static;
    /// The chaining state.
    type State: Clone;
    /// The crate's backend enum.
    type Backend: BackendKind;
    /// The initial state (FIPS 180-4 §5.3, RFC 1321 §3.3, or all zero).
    const INIT: Self::State;
    /// Compress (absorb) every block of `blocks` into `state`, in order,
    /// with exactly `backend`.
    ///
    /// Safe code can call this with any backend value, supported by this
    /// CPU or not: implementations must check support themselves before
    /// running code that needs CPU features, and panic if it is missing.
    fn compress(backend: Self::Backend, state: &mut Self::State, blocks: &[Block<Self::BlockSize>]);
}

/// `backend`, or the error naming `A`'s type (`Sha256: the ...`): what
/// every `try_with_backend` and `try_*_with_backend` returns.
pub(crate) fn check_backend<A: Algorithm>(backend: A::Backend) -> Result<A::Backend, UnsupportedBackend> {
    backend.check().map_err(|e| e.for_type(type_name::<A>()))
}

/// `backend`, or a panic naming the type and the `function` the caller
/// called (`Sha3_256::digest_with_backend: ...`) and what the CPU lacks.
#[inline]
#[track_caller]
pub(crate) fn checked<A: Algorithm>(function: &str, backend: A::Backend) -> A::Backend {
    match backend.check() {
        Ok(b) => b,
        Err(e) => panic!("{}::{function}: {e}", type_name::<A>()),
    }
}
