//! The SHA-3 derived functions of NIST SP 800-185: cSHAKE (§3), KMAC and
//! KMACXOF (§4), TupleHash and TupleHashXOF (§5), ParallelHash and
//! ParallelHashXOF (§6), each at the 128- and 256-bit security strengths.
//!
//! Every type buffers at most one rate block (ParallelHash: one block of
//! its outer sponge and eight of its blocks, or the current block's inner
//! sponge when B > 1 KiB), never allocates, and
//! counts lengths in `u64`/`u128`, so inputs beyond 4 GiB hash correctly.
#![forbid(unsafe_code)]

use hash_core::XofReader;

use crate::algorithm::{Shake128, Shake256};
use crate::sponge::{Sponge, bits, left_encode, right_encode};
use crate::{Backend, UnsupportedBackend, backend};

/// The output reader of [`CShake128`], [`Kmac128`] (KMACXOF128),
/// [`TupleHash128`] and [`ParallelHash128`]: the same type as
/// [`crate::Shake128`]'s reader.
pub type CShake128Reader = XofReader<Shake128>;
/// The output reader of the 256-bit functions: [`crate::Shake256`]'s.
pub type CShake256Reader = XofReader<Shake256>;

/// ParallelHash blocks per lane-engine call (the widest engine's lanes).
const PARALLEL_GROUP: usize = 8;
/// ParallelHash's block buffer: eight blocks of up to 1 KiB.
const PARALLEL_BUF: usize = 8 * 1024;

macro_rules! cshake {
    ($cshake:ident, $kmac:ident, $tuple:ident, $parallel:ident, $alg:ty, $reader:ident,
     $rate:literal, $strength:literal, $tag:literal, $ucv:ident, $cv:literal) => {
        /// cSHAKE
        #[doc = $strength]
        /// (SP 800-185 §3): SHAKE with a function name N and a
        /// customization string S, absorbed first as
        /// `bytepad(encode_string(N) || encode_string(S), rate)` (§3.3).
        /// With N and S both empty it is SHAKE
        #[doc = concat!($strength, ".")]
        ///
        /// ```
        #[doc = concat!("let mut x = sha3::", stringify!($cshake), "::new(b\"\", b\"Email Signature\");")]
        /// x.update(&[0, 1, 2, 3]);
        /// let mut out = [0u8; 32];
        /// x.finalize_xof().read(&mut out);
        /// ```
        #[derive(Clone)]
        pub struct $cshake {
            sponge: Sponge<$alg>,
            /// SHAKE's 0x1f when N and S are empty, else cSHAKE's 0x04
            /// (suffix `00`, then `pad10*1`'s first bit).
            domain: u8,
            /// The state after the prefix (a block boundary), for `reset`:
            /// `bytepad(encode_string(N) || encode_string(S))`, and for
            /// KMAC the key's `bytepad` too. Never printed.
            init: [u64; 25],
        }

        impl $cshake {
            /// cSHAKE with function name `function_name` (N, reserved for
            /// NIST-defined functions; empty otherwise) and customization
            /// `customization` (S), on the detected backend.
            #[inline]
            pub fn new(function_name: &[u8], customization: &[u8]) -> Self {
                Self::new_unchecked(Backend::detect(), function_name, customization)
            }

            /// As [`Self::new`], permuting with exactly `backend`.
            ///
            /// # Panics
            /// If this CPU (or build) does not support `backend`; the
            /// message names this type. See [`Self::try_with_backend`].
            #[track_caller]
            pub fn with_backend(backend: Backend, function_name: &[u8], customization: &[u8]) -> Self {
                match Self::try_with_backend(backend, function_name, customization) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($cshake), "::with_backend: {}"), e),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            ///
            /// ```
            /// use sha3::Backend;
            #[doc = concat!("let x = sha3::", stringify!($cshake), "::try_with_backend(Backend::Portable, b\"\", b\"S\");")]
            /// assert_eq!(x.unwrap().backend(), Backend::Portable);
            /// for b in Backend::all().iter().filter(|b| !b.is_supported()) {
            #[doc = concat!("    let e = sha3::", stringify!($cshake), "::try_with_backend(*b, b\"\", b\"S\").unwrap_err();")]
            ///     assert_eq!(e.backend, b.name());
            /// }
            /// ```
            pub fn try_with_backend(
                backend: Backend,
                function_name: &[u8],
                customization: &[u8],
            ) -> Result<Self, UnsupportedBackend> {
                Ok(Self::new_unchecked(backend.check()?, function_name, customization))
            }

            fn new_unchecked(backend: Backend, function_name: &[u8], customization: &[u8]) -> Self {
                let mut sponge = Sponge::new(backend);
                if function_name.is_empty() && customization.is_empty() {
                    // §3.3: cSHAKE(X, L, "", "") = SHAKE(X, L).
                    return $cshake { sponge, domain: 0x1f, init: [0; 25] };
                }
                // §3.3: bytepad(encode_string(N) || encode_string(S), rate).
                sponge.update(left_encode($rate).as_bytes());
                for s in [function_name, customization] {
                    sponge.update(left_encode(bits(s.len())).as_bytes());
                    sponge.update(s);
                }
                sponge.zero_fill();
                $cshake { init: sponge.state(), sponge, domain: 0x04 }
            }

            /// Absorb `bytepad`ded data (a block boundary after it) that
            /// `reset` keeps: KMAC's key.
            fn absorb_prefix(&mut self, prefix: &[&[u8]]) {
                for part in prefix {
                    self.sponge.update(part);
                }
                self.sponge.zero_fill();
                self.init = self.sponge.state();
            }

            /// The backend this hasher permutes with.
            #[inline]
            pub fn backend(&self) -> Backend {
                self.sponge.backend()
            }

            /// Absorb `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.sponge.update(data);
            }

            /// Pad and return a reader of the output (any length).
            #[inline]
            pub fn finalize_xof(self) -> $reader {
                self.sponge.finalize(self.domain)
            }

            /// [`Self::finalize_xof`], then start over with the same N, S
            /// and backend.
            #[inline]
            pub fn finalize_xof_reset(&mut self) -> $reader {
                let reader = self.clone().finalize_xof();
                self.reset();
                reader
            }

            /// Forget the message; N, S and the backend stay.
            #[inline]
            pub fn reset(&mut self) {
                self.sponge = Sponge::from_state(self.sponge.backend(), self.init);
            }

            /// One-shot: cSHAKE of `data`, filling `out`.
            pub fn digest_xof(function_name: &[u8], customization: &[u8], data: &[u8], out: &mut [u8]) {
                let mut x = Self::new(function_name, customization);
                x.update(data);
                x.finalize_xof().read(out);
            }
        }

        /// Names the type and the backend; never the state (for KMAC it
        /// depends on the key).
        impl core::fmt::Debug for $cshake {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($cshake)).field("backend", &self.backend()).finish_non_exhaustive()
            }
        }

        crate::interop::xof_traits!($cshake, $reader);
        crate::interop::hash_marker!($cshake);

        /// cSHAKE with N empty and S = `customization` (N is reserved for
        /// NIST's functions).
        #[cfg(feature = "digest011")]
        impl digest011::CustomizedInit for $cshake {
            fn new_customized(customization: &[u8]) -> Self {
                $cshake::new(b"", customization)
            }
        }

        /// KMAC
        #[doc = $strength]
        /// and KMACXOF
        #[doc = $strength]
        /// (SP 800-185 §4): a MAC over cSHAKE
        #[doc = $strength]
        /// with N = "KMAC", the key absorbed as
        /// `bytepad(encode_string(K), rate)` (§4.3). Keys of any length
        /// (empty, longer than the rate) are accepted.
        ///
        /// With the `digest` feature it implements `digest::Mac` (key
        /// via `new_from_slice`, empty customization) with a
        #[doc = $tag]
        /// tag (L =
        #[doc = concat!($cv, " bytes), and `digest`'s `Update`, `ExtendableOutput` (KMACXOF),")]
        /// `Reset`, `FixedOutputReset` and `ExtendableOutputReset`; with
        /// `digest011` the same on the 0.11 line; with `std`,
        /// `std::io::Write`.
        ///
        /// # `digest::Mac` and truncated tags
        ///
        /// `Mac::verify_slice` checks the whole
        #[doc = $tag]
        /// tag, as [`Self::verify_len`] does. **Do not use
        /// `Mac::verify_truncated_left` or `verify_truncated_right` with
        /// KMAC.** `digest` provides them for every `Mac` (they cannot be
        /// changed here) and they compare the first or last bytes of the
        #[doc = $tag]
        /// tag, so they accept a tag of a single byte (a forger needs at
        /// most 256 tries), and they reject a genuine shorter KMAC tag:
        /// KMAC absorbs L, so its tag with L = 16 bytes is not a prefix of
        /// its tag with L =
        #[doc = concat!($cv, " bytes. For a shorter tag use [`Self::verify_len`] (or")]
        /// [`Self::verify`]) with the length the protocol fixes.
        ///
        /// ```
        /// # #[cfg(feature = "digest")] {
        /// use hash_core::digest::Mac;
        #[doc = concat!("use sha3::", stringify!($kmac), ";")]
        ///
        #[doc = concat!("let mut m = <", stringify!($kmac), " as Mac>::new_from_slice(b\"key\").unwrap();")]
        /// m.update(b"message");
        /// let full = m.clone().finalize().into_bytes();
        /// assert!(m.clone().verify_slice(&full).is_ok());
        /// assert!(m.clone().verify_slice(&full[..16]).is_err());
        /// // The pitfall: one byte of the full tag passes the truncated check,
        /// assert!(m.clone().verify_truncated_left(&full[..1]).is_ok());
        /// // and the genuine KMAC tag with L = 16 bytes does not.
        #[doc = concat!("let mut k = ", stringify!($kmac), "::new(b\"key\", b\"\");")]
        /// k.update(b"message");
        /// let mut tag16 = [0u8; 16];
        /// k.clone().finalize_into(&mut tag16);
        /// assert!(m.verify_truncated_left(&tag16).is_err());
        /// assert!(k.verify_len(&tag16, 16), "the inherent check for a 16-byte tag");
        /// # }
        /// ```
        #[derive(Clone)]
        pub struct $kmac {
            inner: $cshake,
        }

        impl $kmac {
            /// KMAC with `key` and customization `customization`, on the
            /// detected backend.
            #[inline]
            pub fn new(key: &[u8], customization: &[u8]) -> Self {
                Self::keyed($cshake::new(b"KMAC", customization), key)
            }

            /// As [`Self::new`], permuting with exactly `backend`.
            ///
            /// # Panics
            /// If this CPU (or build) does not support `backend`; the
            /// message names this type. See [`Self::try_with_backend`].
            #[track_caller]
            pub fn with_backend(backend: Backend, key: &[u8], customization: &[u8]) -> Self {
                match Self::try_with_backend(backend, key, customization) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($kmac), "::with_backend: {}"), e),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            pub fn try_with_backend(
                backend: Backend,
                key: &[u8],
                customization: &[u8],
            ) -> Result<Self, UnsupportedBackend> {
                Ok(Self::keyed($cshake::try_with_backend(backend, b"KMAC", customization)?, key))
            }

            fn keyed(mut inner: $cshake, key: &[u8]) -> Self {
                // §4.3: newX = bytepad(encode_string(K), rate) || X || ...
                // `reset` returns to the state after the key.
                inner.absorb_prefix(&[
                    left_encode($rate).as_bytes(),
                    left_encode(bits(key.len())).as_bytes(),
                    key,
                ]);
                $kmac { inner }
            }

            /// The backend this MAC permutes with.
            #[inline]
            pub fn backend(&self) -> Backend {
                self.inner.backend()
            }

            /// Forget the message; the key, customization and backend stay.
            #[inline]
            pub fn reset(&mut self) {
                self.inner.reset();
            }

            /// [`Self::finalize_xof`] (KMACXOF), then start over with the
            /// same key.
            #[inline]
            pub fn finalize_xof_reset(&mut self) -> $reader {
                let reader = self.clone().finalize_xof();
                self.reset();
                reader
            }

            /// Absorb message data.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.inner.update(data);
            }

            /// KMAC with output length L = `out.len()` bytes, encoded as
            /// `right_encode(8 · L)` (§4.3); L = 0 is allowed.
            pub fn finalize_into(mut self, out: &mut [u8]) {
                self.inner.update(right_encode(bits(out.len())).as_bytes());
                self.inner.finalize_xof().read(out);
            }

            /// KMACXOF (§4.3.1: L encoded as `right_encode(0)`): a reader
            /// of any amount of output.
            pub fn finalize_xof(mut self) -> $reader {
                self.inner.update(right_encode(0).as_bytes());
                self.inner.finalize_xof()
            }

            /// The shortest tag [`Self::verify`] accepts: 4 bytes (32
            /// bits), the shortest output SP 800-185 §8.4.2 allows KMAC
            /// as a MAC (and below 64 bits only after a risk analysis).
            pub const MIN_TAG_LEN: usize = 4;

            /// Whether `tag` is the KMAC of the message with L =
            /// `tag.len()` bytes, compared in time independent of the
            /// tag's contents (it depends on its length only).
            ///
            /// A tag shorter than [`Self::MIN_TAG_LEN`] (4 bytes) is
            /// refused: `false` whatever the message and key, so an empty
            /// or 1-byte tag cannot stand for a forged message.
            ///
            /// The tag's length is still the caller's: `verify` checks L
            /// = `tag.len()` bytes, so an attacker who may send a 4-byte
            /// tag has 2^32 guesses' odds, not those of the length the
            /// protocol means. Check the tag length your protocol expects,
            /// or use [`Self::verify_len`], which does.
            ///
            /// ```
            #[doc = concat!("let mut mac = sha3::", stringify!($kmac), "::new(b\"key\", b\"\");")]
            /// mac.update(b"message");
            /// let mut tag = [0u8; 32];
            /// mac.clone().finalize_into(&mut tag);
            /// assert!(mac.clone().verify(&tag));
            /// assert!(!mac.clone().verify(&[]), "an empty tag is refused");
            /// let mut short = [0u8; 3];
            /// mac.clone().finalize_into(&mut short);
            /// assert!(!mac.verify(&short), "so is a genuine 3-byte tag");
            /// ```
            pub fn verify(self, tag: &[u8]) -> bool {
                if tag.len() < Self::MIN_TAG_LEN {
                    return false;
                }
                self.verify_any_len(tag)
            }

            /// [`Self::verify`] for a protocol with a fixed tag length:
            /// `false` unless `tag.len() == expected_len` (and then as
            /// `verify`, so `expected_len` below [`Self::MIN_TAG_LEN`]
            /// never verifies).
            ///
            /// ```
            #[doc = concat!("let mut mac = sha3::", stringify!($kmac), "::new(b\"key\", b\"\");")]
            /// mac.update(b"message");
            /// let mut tag = [0u8; 32];
            /// mac.clone().finalize_into(&mut tag);
            /// assert!(mac.clone().verify_len(&tag, 32));
            /// let mut short = [0u8; 8];
            /// mac.clone().finalize_into(&mut short);
            /// assert!(mac.clone().verify(&short), "a genuine 8-byte tag");
            /// assert!(!mac.verify_len(&short, 32), "but not the 32 bytes expected");
            /// ```
            pub fn verify_len(self, tag: &[u8], expected_len: usize) -> bool {
                tag.len() == expected_len && self.verify(tag)
            }

            /// The comparison behind `verify`: KMAC with L = `tag.len()`
            /// bytes against `tag`, OR-ing the differences of every byte
            /// (no early exit), so the time depends on the length only.
            fn verify_any_len(mut self, tag: &[u8]) -> bool {
                self.inner.update(right_encode(bits(tag.len())).as_bytes());
                let mut reader = self.inner.finalize_xof();
                let mut diff = 0u8;
                let mut buf = [0u8; 64];
                for want in tag.chunks(buf.len()) {
                    let got = &mut buf[..want.len()];
                    reader.read(got);
                    for (g, w) in got.iter().zip(want) {
                        diff |= g ^ w;
                    }
                }
                core::hint::black_box(diff) == 0
            }
        }

        /// Names the type and the backend; never the key or the state.
        impl core::fmt::Debug for $kmac {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($kmac)).field("backend", &self.backend()).finish_non_exhaustive()
            }
        }

        crate::interop::xof_traits!($kmac, $reader);

        #[cfg(feature = "digest")]
        impl digest::OutputSizeUser for $kmac {
            type OutputSize = hash_core::typenum::$ucv;
        }

        #[cfg(feature = "digest")]
        impl digest::crypto_common::KeySizeUser for $kmac {
            type KeySize = hash_core::typenum::$ucv;
        }

        #[cfg(feature = "digest")]
        impl digest::KeyInit for $kmac {
            fn new(key: &digest::Key<Self>) -> Self {
                $kmac::new(key, b"")
            }

            /// Any key length is valid for KMAC (§4.3).
            fn new_from_slice(key: &[u8]) -> Result<Self, digest::InvalidLength> {
                Ok($kmac::new(key, b""))
            }
        }

        #[cfg(feature = "digest")]
        impl digest::FixedOutput for $kmac {
            fn finalize_into(self, out: &mut digest::Output<Self>) {
                $kmac::finalize_into(self, out);
            }
        }

        #[cfg(feature = "digest")]
        impl digest::FixedOutputReset for $kmac {
            fn finalize_into_reset(&mut self, out: &mut digest::Output<Self>) {
                self.clone().finalize_into(out);
                self.reset();
            }
        }

        #[cfg(feature = "digest")]
        impl digest::MacMarker for $kmac {}

        #[cfg(feature = "digest011")]
        impl digest011::OutputSizeUser for $kmac {
            type OutputSize = hash_core::typenum::$ucv;
        }

        #[cfg(feature = "digest011")]
        impl digest011::common::KeySizeUser for $kmac {
            type KeySize = hash_core::typenum::$ucv;
        }

        #[cfg(feature = "digest011")]
        impl digest011::KeyInit for $kmac {
            fn new(key: &digest011::Key<Self>) -> Self {
                $kmac::new(key, b"")
            }

            /// Any key length is valid for KMAC (§4.3).
            fn new_from_slice(key: &[u8]) -> Result<Self, digest011::InvalidLength> {
                Ok($kmac::new(key, b""))
            }
        }

        #[cfg(feature = "digest011")]
        impl digest011::FixedOutput for $kmac {
            fn finalize_into(self, out: &mut digest011::Output<Self>) {
                $kmac::finalize_into(self, out);
            }
        }

        #[cfg(feature = "digest011")]
        impl digest011::FixedOutputReset for $kmac {
            fn finalize_into_reset(&mut self, out: &mut digest011::Output<Self>) {
                self.clone().finalize_into(out);
                self.reset();
            }
        }

        #[cfg(feature = "digest011")]
        impl digest011::MacMarker for $kmac {}

        /// TupleHash
        #[doc = $strength]
        /// and TupleHashXOF
        #[doc = $strength]
        /// (SP 800-185 §5): a hash of a sequence of byte strings, each
        /// absorbed as `encode_string(X[i])` so that the split between
        /// elements is part of the input.
        ///
        /// It implements neither `std::io::Write` nor `digest::Update`
        /// (nor so `digest::ExtendableOutput`, which needs `Update`): both
        /// contracts let the caller's data arrive in any split (`write_all`
        /// may call `write` many times, a `BufWriter` joins writes, and
        /// `Update` promises that `update(a); update(b)` equals
        /// `update(a || b)`), while TupleHash's output depends on where the
        /// elements split. Each element goes in whole through
        /// [`Self::push`]:
        ///
        /// ```
        #[doc = concat!("use sha3::", stringify!($tuple), ";")]
        /// let hash = |elements: &[&[u8]]| {
        #[doc = concat!("    let mut t = ", stringify!($tuple), "::new(b\"\");")]
        ///     elements.iter().for_each(|e| t.push(e));
        ///     let mut out = [0u8; 32];
        ///     t.finalize_into(&mut out);
        ///     out
        /// };
        /// assert_ne!(hash(&[b"ab", b"c"]), hash(&[b"a", b"bc"]));
        /// ```
        #[derive(Clone)]
        pub struct $tuple {
            inner: $cshake,
        }

        /// Names the type and the backend; never the elements.
        impl core::fmt::Debug for $tuple {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($tuple)).field("backend", &self.backend()).finish_non_exhaustive()
            }
        }

        impl $tuple {
            /// An empty tuple with customization `customization`.
            #[inline]
            pub fn new(customization: &[u8]) -> Self {
                $tuple { inner: $cshake::new(b"TupleHash", customization) }
            }

            /// As [`Self::new`], permuting with exactly `backend`.
            ///
            /// # Panics
            /// If this CPU (or build) does not support `backend`; the
            /// message names this type. See [`Self::try_with_backend`].
            #[track_caller]
            pub fn with_backend(backend: Backend, customization: &[u8]) -> Self {
                match Self::try_with_backend(backend, customization) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($tuple), "::with_backend: {}"), e),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            pub fn try_with_backend(backend: Backend, customization: &[u8]) -> Result<Self, UnsupportedBackend> {
                Ok($tuple { inner: $cshake::try_with_backend(backend, b"TupleHash", customization)? })
            }

            /// The backend this hasher permutes with.
            #[inline]
            pub fn backend(&self) -> Backend {
                self.inner.backend()
            }

            /// Forget every element; the customization and backend stay.
            #[inline]
            pub fn reset(&mut self) {
                self.inner.reset();
            }

            /// Append one element to the tuple (§5.3: `encode_string`).
            #[inline]
            pub fn push(&mut self, element: &[u8]) {
                self.inner.update(left_encode(bits(element.len())).as_bytes());
                self.inner.update(element);
            }

            /// TupleHash with L = `out.len()` bytes (`right_encode(8 · L)`).
            pub fn finalize_into(mut self, out: &mut [u8]) {
                self.inner.update(right_encode(bits(out.len())).as_bytes());
                self.inner.finalize_xof().read(out);
            }

            /// TupleHashXOF (§5.3.1: `right_encode(0)`).
            pub fn finalize_xof(mut self) -> $reader {
                self.inner.update(right_encode(0).as_bytes());
                self.inner.finalize_xof()
            }
        }

        /// ParallelHash
        #[doc = $strength]
        /// and ParallelHashXOF
        #[doc = $strength]
        /// (SP 800-185 §6): the message is cut into blocks of B bytes,
        /// each block hashed on its own with cSHAKE
        #[doc = $strength]
        /// (N = S = "", i.e. SHAKE), and the chained values hashed by an
        /// outer cSHAKE with N = "ParallelHash".
        ///
        /// Blocks run side by side, eight per call, on the backend's
        /// multi-lane engine. With B up to 1 KiB the hasher buffers eight
        /// blocks (an 8 KiB buffer inside the value), so that `update`
        /// calls of any size keep the lanes full; whole groups of blocks
        /// in one call are hashed straight from the caller's slice. With
        /// larger B, whole blocks within one `update` still go to the lanes,
        /// but a block split across calls is absorbed piece by piece into
        /// one sponge.
        #[derive(Clone)]
        pub struct $parallel {
            outer: $cshake,
            leaf: Sponge<$alg>,
            block_size: usize,
            /// Bytes of the current block absorbed into `leaf` (B > 1 KiB).
            leaf_len: usize,
            /// Blocks hashed so far (n of §6.3).
            blocks: u64,
            /// Up to eight blocks waiting for the lanes (B <= 1 KiB).
            buf: [u8; PARALLEL_BUF],
            buf_len: usize,
        }

        impl core::fmt::Debug for $parallel {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($parallel))
                    .field("block_size", &self.block_size)
                    .field("backend", &self.backend())
                    .finish_non_exhaustive()
            }
        }

        impl $parallel {
            /// ParallelHash with blocks of `block_size` bytes (B) and
            /// customization `customization`.
            ///
            /// # Panics
            /// If `block_size` is 0 (SP 800-185 §6.3 needs B > 0); see
            /// [`Self::try_new`].
            #[track_caller]
            pub fn new(block_size: usize, customization: &[u8]) -> Self {
                Self::with_backend(Backend::detect(), block_size, customization)
            }

            /// As [`Self::new`], or `None` if `block_size` is 0.
            pub fn try_new(block_size: usize, customization: &[u8]) -> Option<Self> {
                (block_size > 0).then(|| Self::new(block_size, customization))
            }

            /// As [`Self::new`], permuting with exactly `backend`.
            ///
            /// # Panics
            /// If `block_size` is 0, or this CPU (or build) does not
            /// support `backend`; the message names this type. See
            /// [`Self::try_with_backend`].
            #[track_caller]
            pub fn with_backend(backend: Backend, block_size: usize, customization: &[u8]) -> Self {
                match Self::try_with_backend(backend, block_size, customization) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($parallel), "::with_backend: {}"), e),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            ///
            /// # Panics
            /// If `block_size` is 0, as [`Self::new`] does (the error type
            /// names backends only; [`Self::try_new`] checks B).
            #[track_caller]
            pub fn try_with_backend(
                backend: Backend,
                block_size: usize,
                customization: &[u8],
            ) -> Result<Self, UnsupportedBackend> {
                assert!(block_size > 0, concat!(stringify!($parallel), ": the block size B must be at least 1 byte"));
                let mut outer = $cshake::try_with_backend(backend, b"ParallelHash", customization)?;
                // §6.3: z = left_encode(B) || ...
                outer.update(left_encode(block_size as u128).as_bytes());
                Ok($parallel {
                    outer,
                    leaf: Sponge::new(backend),
                    block_size,
                    leaf_len: 0,
                    blocks: 0,
                    buf: [0; PARALLEL_BUF],
                    buf_len: 0,
                })
            }

            /// The backend this hasher permutes with.
            #[inline]
            pub fn backend(&self) -> Backend {
                self.outer.backend()
            }

            /// Forget the message; B, the customization and the backend
            /// stay.
            pub fn reset(&mut self) {
                self.outer.reset();
                self.outer.update(left_encode(self.block_size as u128).as_bytes());
                self.leaf = Sponge::new(self.outer.backend());
                self.leaf_len = 0;
                self.blocks = 0;
                self.buf_len = 0;
            }

            /// [`Self::finalize_xof`] (ParallelHashXOF), then start over
            /// with the same B and customization.
            pub fn finalize_xof_reset(&mut self) -> $reader {
                let reader = self.clone().finalize_xof();
                self.reset();
                reader
            }

            /// Whether blocks are buffered eight at a time (B <= 1 KiB).
            #[inline]
            fn buffered(&self) -> bool {
                self.block_size <= PARALLEL_BUF / PARALLEL_GROUP
            }

            /// Absorb `data`.
            pub fn update(&mut self, mut data: &[u8]) {
                let b = self.block_size;
                if self.buffered() {
                    let group = PARALLEL_GROUP * b;
                    if self.buf_len > 0 {
                        let take = (group - self.buf_len).min(data.len());
                        self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
                        self.buf_len += take;
                        data = &data[take..];
                        if self.buf_len < group {
                            return;
                        }
                        Self::hash_blocks(&mut self.outer, &mut self.blocks, b, &self.buf[..group]);
                        self.buf_len = 0;
                    }
                    let whole = data.len() - data.len() % group;
                    Self::hash_blocks(&mut self.outer, &mut self.blocks, b, &data[..whole]);
                    let rest = &data[whole..];
                    self.buf[..rest.len()].copy_from_slice(rest);
                    self.buf_len = rest.len();
                    return;
                }
                if self.leaf_len > 0 {
                    let take = (b - self.leaf_len).min(data.len());
                    self.leaf.update(&data[..take]);
                    self.leaf_len += take;
                    data = &data[take..];
                    if self.leaf_len < b {
                        return;
                    }
                    self.finish_leaf();
                }
                let whole = data.len() - data.len() % b;
                let (blocks, rest) = data.split_at(whole);
                Self::hash_blocks(&mut self.outer, &mut self.blocks, b, blocks);
                if !rest.is_empty() {
                    self.leaf.update(rest);
                    self.leaf_len = rest.len();
                }
            }

            /// Hash the whole `b`-byte blocks of `data` (a multiple of `b`
            /// bytes), up to eight per lane-engine call, and absorb their
            /// chaining values into `outer`, in order.
            fn hash_blocks(outer: &mut $cshake, blocks: &mut u64, b: usize, data: &[u8]) {
                let mut cvs = [0u8; PARALLEL_GROUP * $cv];
                for group in data.chunks(b.saturating_mul(PARALLEL_GROUP)) {
                    let n = group.len() / b;
                    backend::hash_chunks::<$rate, 24>(outer.backend(), group, b, 0x1f, &mut cvs[..n * $cv], $cv);
                    outer.update(&cvs[..n * $cv]);
                    *blocks += n as u64;
                }
            }

            /// z_i = cSHAKE(X_i, cv bits, "", "") = SHAKE (§6.3) of the
            /// block in `leaf`.
            fn finish_leaf(&mut self) {
                let leaf = core::mem::replace(&mut self.leaf, Sponge::new(self.outer.backend()));
                let mut z = [0u8; $cv];
                leaf.finalize(0x1f).read(&mut z);
                self.outer.update(&z);
                self.blocks += 1;
                self.leaf_len = 0;
            }

            fn close(&mut self, out_bits: u128) {
                if self.buf_len > 0 {
                    // Whole blocks, then the last, shorter one (§6.3: the
                    // final substring may be shorter than B).
                    let b = self.block_size;
                    let whole = self.buf_len - self.buf_len % b;
                    Self::hash_blocks(&mut self.outer, &mut self.blocks, b, &self.buf[..whole]);
                    let last = &self.buf[whole..self.buf_len];
                    if !last.is_empty() {
                        Self::hash_blocks(&mut self.outer, &mut self.blocks, last.len(), last);
                    }
                    self.buf_len = 0;
                }
                if self.leaf_len > 0 {
                    self.finish_leaf();
                }
                // §6.3: z || right_encode(n) || right_encode(L).
                self.outer.update(right_encode(u128::from(self.blocks)).as_bytes());
                self.outer.update(right_encode(out_bits).as_bytes());
            }

            /// ParallelHash with L = `out.len()` bytes.
            pub fn finalize_into(mut self, out: &mut [u8]) {
                self.close(bits(out.len()));
                self.outer.finalize_xof().read(out);
            }

            /// ParallelHashXOF (§6.3.1: L encoded as `right_encode(0)`).
            pub fn finalize_xof(mut self) -> $reader {
                self.close(0);
                self.outer.finalize_xof()
            }
        }

        crate::interop::xof_traits!($parallel, $reader);
        crate::interop::hash_marker!($parallel);
    };
}

cshake!(CShake128, Kmac128, TupleHash128, ParallelHash128, Shake128, CShake128Reader, 168, "128", "32-byte", U32, 32);
cshake!(CShake256, Kmac256, TupleHash256, ParallelHash256, Shake256, CShake256Reader, 136, "256", "64-byte", U64, 64);
