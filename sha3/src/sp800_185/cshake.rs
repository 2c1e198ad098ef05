//! cSHAKE128 and cSHAKE256 (SP 800-185 §3), which the other functions are
//! built on.

use super::{CShake128Reader, CShake256Reader};
use crate::algorithm::{Shake128, Shake256};
use crate::sponge::{Sponge, bits, left_encode};
use crate::{Backend, UnsupportedBackend};

macro_rules! cshake {
    ($cshake:ident, $alg:ty, $reader:ident, $rate:literal, $strength:literal) => {
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
                    Err(e) => panic!(concat!(stringify!($cshake), "::with_backend: {}"), e.without_type()),
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
                let backend = backend.check().map_err(|e| e.for_type(stringify!($cshake)))?;
                Ok(Self::new_unchecked(backend, function_name, customization))
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
            pub(super) fn absorb_prefix(&mut self, prefix: &[&[u8]]) {
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

        /// cSHAKE with N and S empty, which is SHAKE
        #[doc = concat!($strength, " (§3.3), on the detected backend; for generic code")]
        /// (`D: Default`, and `digest`'s `ExtendableOutput::digest_xof`).
        ///
        /// ```
        /// let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        #[doc = concat!("sha3::", stringify!($cshake), "::default().finalize_xof().read(&mut a);")]
        #[doc = concat!("sha3::Shake", $strength, "::digest_xof(b\"\", &mut b);")]
        /// assert_eq!(a, b);
        /// ```
        impl Default for $cshake {
            #[inline]
            fn default() -> Self {
                Self::new(b"", b"")
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
    };
}

cshake!(CShake128, Shake128, CShake128Reader, 168, "128");
cshake!(CShake256, Shake256, CShake256Reader, 136, "256");
