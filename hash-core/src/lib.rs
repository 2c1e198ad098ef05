//! Shared machinery of the `hashes` crates.
//!
//! An algorithm crate (`md5`, `sha1`, `sha256`, `sha512`, `sha3`) supplies only
//! its state, its constants and its compression function, by implementing
//! [`Algorithm`] and either [`FixedAlgorithm`] (a fixed-size digest) or
//! [`XofAlgorithm`] (an extendable-output function). This crate owns
//! everything else:
//!
//! * block buffering for streaming `update` calls ([`block_buffer`]),
//! * Merkle–Damgård padding with a 64-bit big- or little-endian or a 128-bit
//!   big-endian length, and Keccak's `pad10*1` with a domain byte,
//! * `finalize`, `finalize_reset`, `reset`, `Clone`, `Default`,
//! * a one-shot path that compresses whole blocks straight from the caller's
//!   slice and pads only the tail, on the stack,
//! * run-time backend selection ([`BackendKind`]), checked forcing
//!   ([`UnsupportedBackend`]) and batch hashing entry points,
//! * the `digest` 0.10 traits (feature `digest`, on by default), so that
//!   `hmac::Hmac<Sha256>`, `hkdf` and any `D: digest::Digest` code work,
//! * the `digest` 0.11 traits (feature `digest011`, off by default) beside
//!   them, for `hmac` 0.13, `hkdf` 0.13 and the rest of that line,
//! * `std::io::Write` (feature `std`, on by default).
//!
//! Nothing here allocates.
#![no_std]
// Only `arch` (the SIMD helpers several backends share) allows `unsafe`.
#![deny(unsafe_code)]
// generic-array 0.14.9 marks itself deprecated in favour of 1.x, but the
// `digest` 0.10 / `block-buffer` 0.10 line this crate interoperates with is
// built on 0.14.
#![allow(deprecated)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The unit tests use `std` (`Vec`, `format!`) in every feature set, so that
// `cargo test --no-default-features` builds.
#[cfg(any(feature = "std", test))]
extern crate std;

#[allow(unsafe_code)]
pub mod arch;
mod backend;
mod copy;
pub mod cpu;
#[cfg(feature = "digest011")]
mod digest011_impls;
#[cfg(feature = "digest")]
mod digest_impls;
mod fixed;
pub mod merkle;
pub mod multi;
mod padding;
mod pairs;
pub mod table;
#[cfg(feature = "testing")]
pub mod testing;
mod xof;

pub use backend::{BackendKind, DetectCache, UnsupportedBackend, unsupported};
pub use block_buffer;
// The `cpufeatures` checks that `backend_table!` generates in the calling
// crate.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[doc(hidden)]
pub use cpufeatures as __cpufeatures;
pub use fixed::{Core, Hasher, compress_final_buffered};
pub use generic_array;
pub use generic_array::typenum;
pub use padding::{Padding, padded_rows};
pub use pairs::{BatchError, assert_pairs, hash_pairs_gathered, hash_prefixed_gathered};
pub use xof::{Xof, XofReader};

#[cfg(feature = "digest")]
pub use digest;
#[cfg(feature = "digest011")]
pub use digest011;

/// The type that `hmac::Hmac<D>` and other code built on `digest`'s core API
/// accept, for the algorithm `A`.
///
/// `digest` 0.10 seals its `CoreProxy` trait to its own `CoreWrapper`, so
/// `hmac::Hmac<D>` takes only `CoreWrapper` types, and a `CoreWrapper` cannot
/// carry our inherent API (`finalize() -> [u8; N]`, `with_backend`). Each
/// crate therefore exports this alias in its `compat` module
/// (`sha256::compat::Sha256`), while `hmac::SimpleHmac<sha256::Sha256>` and
/// every `D: digest::Digest` bound take our hashers directly.
#[cfg(feature = "digest")]
pub type CoreWrapper<A> = digest::core_api::CoreWrapper<Core<A>>;

use generic_array::{ArrayLength, GenericArray};
use typenum::{IsLess, True, U256};

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

/// A hash with a fixed-size output.
pub trait FixedAlgorithm: Algorithm {
    /// The padding rule.
    const PADDING: Padding;
    /// The digest size as a type-level number (for `digest` interop).
    type OutputSize: ArrayLength<u8> + 'static;
    /// The digest, `[u8; OutputSize]`.
    type Output: OutputBytes;
    /// Write the digest from the final state (after padding).
    fn output(state: &Self::State, out: &mut Self::Output);

    /// Whether `backend` has a [`FixedAlgorithm::compress_final`] of its
    /// own (the default: none).
    #[inline(always)]
    fn has_compress_final(backend: Self::Backend) -> bool {
        let _ = backend;
        false
    }

    /// Whether the one-shot path hands a message's last whole block to
    /// `backend` in one call with the padding block, where the message ends
    /// on a block boundary (the default: yes, which suits backends that
    /// schedule two blocks at once, such as AVX2). With `false` that block
    /// is compressed in place and the padding block alone, which saves the
    /// copy where the backend's second entry is cheap (SHA-256 on SHA-NI:
    /// a 64-byte message 1.24x faster on AMD Zen 3).
    #[inline(always)]
    fn gather_last_block(backend: Self::Backend) -> bool {
        let _ = backend;
        true
    }

    /// Compress into `state` the final padded block of a message of
    /// `total` bytes whose last `tail.len()` bytes (after its whole blocks)
    /// fit in one block with the padding, by a path of `backend`'s own
    /// that builds the block in registers ([`padded_rows`]) rather than in
    /// a buffer, whose byte-wise stores its loads would wait for.
    ///
    /// Called by the one-shot functions and `finalize` where
    /// [`FixedAlgorithm::has_compress_final`] says so, with a backend they
    /// have checked. Like [`Algorithm::compress`] it is reachable from safe
    /// code with any arguments: implementations check backend support
    /// themselves (and panic without it), and [`padded_rows`] checks the
    /// length. The default pads in a buffer and calls
    /// [`Algorithm::compress`] (for any `tail` shorter than a block).
    #[inline]
    fn compress_final(backend: Self::Backend, state: &mut Self::State, tail: &[u8], total: u128) {
        fixed::compress_final_buffered::<Self>(backend, state, tail, total);
    }

    /// Hash each of `inputs` into the matching `outputs` slot.
    ///
    /// The default hashes the messages one by one; multi-buffer backends
    /// override it. Like [`Algorithm::compress`], this is reachable from
    /// safe code with any backend and any slices: implementations check
    /// backend support, and call [`check_batch`] themselves or hand the
    /// batch to a [`multi`] function, which does.
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`, or `backend` is not supported.
    fn digest_many(backend: Self::Backend, inputs: &[&[u8]], outputs: &mut [Self::Output]) {
        check_batch(inputs.len(), outputs.len());
        for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
            *output = fixed::digest_with::<Self>(backend, input);
        }
    }

    /// Hash each pair of adjacent nodes: `out[i] = H(nodes[2i] || nodes[2i + 1])`
    /// (see [`Hasher::hash_pairs`]).
    ///
    /// The default gathers the pairs into a stack buffer and runs them on
    /// [`FixedAlgorithm::digest_many`] ([`hash_pairs_gathered`]); crates
    /// override it with engines specialised for the fixed length. Like
    /// [`FixedAlgorithm::digest_many`] this is reachable from safe code
    /// with any backend and any slices: implementations check both.
    ///
    /// # Panics
    /// If `nodes.len() != 2 * out.len()`, or `backend` is not supported.
    fn hash_pairs(backend: Self::Backend, nodes: &[Self::Output], out: &mut [Self::Output]) {
        hash_pairs_gathered::<Self>(backend, nodes, out);
    }

    /// Hash `prefix` followed by each body: `out[i] = H(prefix || bodies[i])`
    /// (see [`Hasher::hash_prefixed_many`]).
    ///
    /// The default is [`hash_prefixed_gathered`]; the same contract as
    /// [`FixedAlgorithm::hash_pairs`] applies to overrides.
    ///
    /// # Panics
    /// If `bodies.len() != out.len()`, or `backend` is not supported.
    fn hash_prefixed_many(backend: Self::Backend, prefix: &[u8], bodies: &[&[u8]], out: &mut [Self::Output]) {
        hash_prefixed_gathered::<Self>(backend, prefix, bodies, out);
    }
}

/// An extendable-output function over the 1600-bit Keccak state.
pub trait XofAlgorithm: Algorithm<State = [u64; 25]> {
    /// The domain byte of the padding (`0x1f` for SHAKE).
    const DOMAIN: u8;
    /// Apply Keccak-p\[1600, 24\] (FIPS 202 §3.3) once.
    fn permute(backend: Self::Backend, state: &mut [u64; 25]);

    /// Absorb each of `inputs` and squeeze the matching `outputs` slot full.
    ///
    /// The default works message by message; multi-buffer backends override
    /// it, checking backend support and calling [`check_batch`] themselves
    /// (or handing the batch to a [`multi`] function, which does).
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`, or `backend` is not supported.
    fn digest_xof_many(backend: Self::Backend, inputs: &[&[u8]], outputs: &mut [&mut [u8]]) {
        check_batch(inputs.len(), outputs.len());
        for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
            xof::digest_xof_with::<Self>(backend, input, output);
        }
    }
}

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

/// `backend`, or the error naming `A`'s type (`Sha256: the ...`): what
/// every `try_with_backend` and `try_*_with_backend` returns.
pub(crate) fn check_backend<A: Algorithm>(backend: A::Backend) -> Result<A::Backend, UnsupportedBackend> {
    backend.check().map_err(|e| e.for_type(type_name::<A>()))
}

/// The name of `A`'s type without its path: `Sha3_256` for
/// `sha3::algorithm::Sha3_256`, which is also the name of the crate's
/// hasher type for it (`sha3::Sha3_256 = Hasher<algorithm::Sha3_256>`), so
/// that panics name what the caller wrote.
pub(crate) fn type_name<A>() -> &'static str {
    let full = core::any::type_name::<A>();
    full.rsplit("::").next().unwrap_or(full)
}
