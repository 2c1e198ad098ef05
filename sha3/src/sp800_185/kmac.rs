//! KMAC128, KMAC256 and their XOF forms (SP 800-185 §4): MACs over cSHAKE.

use super::{CShake128, CShake128Reader, CShake256, CShake256Reader};
use crate::sponge::{bits, left_encode, right_encode};
use crate::{Backend, UnsupportedBackend};

macro_rules! kmac {
    ($kmac:ident, $cshake:ident, $reader:ident, $rate:literal, $strength:literal, $tag:literal, $ucv:ident, $cv:literal) => {
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
                    Err(e) => panic!(concat!(stringify!($kmac), "::with_backend: {}"), e.without_type()),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            ///
            /// ```
            /// use sha3::Backend;
            #[doc = concat!("let k = sha3::", stringify!($kmac), "::try_with_backend(Backend::Portable, b\"key\", b\"\");")]
            /// assert_eq!(k.unwrap().backend(), Backend::Portable);
            /// for b in Backend::all().iter().filter(|b| !b.is_supported()) {
            #[doc = concat!("    let e = sha3::", stringify!($kmac), "::try_with_backend(*b, b\"key\", b\"\").unwrap_err();")]
            ///     assert_eq!(e.backend, b.name());
            /// }
            /// ```
            pub fn try_with_backend(
                backend: Backend,
                key: &[u8],
                customization: &[u8],
            ) -> Result<Self, UnsupportedBackend> {
                let inner = $cshake::try_with_backend(backend, b"KMAC", customization).map_err(|e| e.for_type(stringify!($kmac)))?;
                Ok(Self::keyed(inner, key))
            }

            fn keyed(mut inner: $cshake, key: &[u8]) -> Self {
                // §4.3: newX = bytepad(encode_string(K), rate) || X || ...
                // `reset` returns to the state after the key.
                inner.absorb_prefix(&[left_encode($rate).as_bytes(), left_encode(bits(key.len())).as_bytes(), key]);
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
    };
}

kmac!(Kmac128, CShake128, CShake128Reader, 168, "128", "32-byte", U32, 32);
kmac!(Kmac256, CShake256, CShake256Reader, 136, "256", "64-byte", U64, 64);
