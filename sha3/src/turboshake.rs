//! TurboSHAKE128 and TurboSHAKE256 (RFC 9861 §2): SHAKE's sponges on
//! Keccak-p\[1600, 12\], the last 12 of Keccak-f's 24 rounds (§2.1), with
//! a domain-separation byte D in 0x01..=0x7F (§2.2).
#![forbid(unsafe_code)]

use core::fmt;

use hash_core::XofReader;

use crate::algorithm;
use crate::sponge::Sponge;
use crate::{Backend, UnsupportedBackend};

/// The error of [`TurboShake128::try_new`] and [`TurboShake256::try_new`]:
/// a domain byte outside 0x01..=0x7F (RFC 9861 §2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidDomain(pub u8);

impl fmt::Display for InvalidDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TurboSHAKE domain byte {:#04x} is outside 0x01..=0x7F (RFC 9861 section 2.2)", self.0)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for InvalidDomain {}

/// The output reader of [`TurboShake128`] and of [`crate::KangarooTwelve`].
pub type TurboShake128Reader = XofReader<algorithm::TurboShake128>;
/// The output reader of [`TurboShake256`] and of [`crate::Kt256`].
pub type TurboShake256Reader = XofReader<algorithm::TurboShake256>;

macro_rules! turboshake {
    ($name:ident, $alg:ident, $reader:ident, $strength:literal) => {
        /// TurboSHAKE
        #[doc = $strength]
        /// (RFC 9861 §2.2): absorb, then pad with the domain byte D and
        /// `pad10*1`'s last bit, on Keccak-p\[1600, 12\].
        ///
        /// ```
        #[doc = concat!("let mut x = sha3::", stringify!($name), "::new(0x1f);")]
        /// x.update(b"abc");
        /// let mut out = [0u8; 32];
        /// x.finalize_xof().read(&mut out);
        /// ```
        #[derive(Clone, Debug)]
        pub struct $name {
            sponge: Sponge<algorithm::$alg>,
            domain: u8,
        }

        impl $name {
            /// TurboSHAKE with domain byte `domain` (D; 0x1F when the
            /// application has no other use for it), on the detected
            /// backend.
            ///
            /// # Panics
            /// If `domain` is outside 0x01..=0x7F; see [`Self::try_new`].
            #[track_caller]
            pub fn new(domain: u8) -> Self {
                match Self::try_new(domain) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($name), "::new: {}"), e),
                }
            }

            /// As [`Self::new`], or the error if `domain` is outside
            /// 0x01..=0x7F.
            pub fn try_new(domain: u8) -> Result<Self, InvalidDomain> {
                Self::try_with(Backend::detect(), domain)
            }

            /// As [`Self::new`], permuting with exactly `backend`.
            ///
            /// # Panics
            /// If `domain` is outside 0x01..=0x7F, or this CPU (or build)
            /// does not support `backend`; the message names this type.
            /// See [`Self::try_with_backend`].
            #[track_caller]
            pub fn with_backend(backend: Backend, domain: u8) -> Self {
                let backend = match backend.check() {
                    Ok(b) => b,
                    Err(e) => panic!(concat!(stringify!($name), "::with_backend: {}"), e),
                };
                match Self::try_with(backend, domain) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($name), "::with_backend: {}"), e),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            ///
            /// # Panics
            /// If `domain` is outside 0x01..=0x7F, as [`Self::new`] does
            /// (the error type names backends only; [`Self::try_new`]
            /// checks D).
            ///
            /// ```
            /// use sha3::Backend;
            #[doc = concat!("let x = sha3::", stringify!($name), "::try_with_backend(Backend::Portable, 0x1f);")]
            /// assert_eq!(x.unwrap().backend(), Backend::Portable);
            /// for b in Backend::all().iter().filter(|b| !b.is_supported()) {
            #[doc = concat!("    let e = sha3::", stringify!($name), "::try_with_backend(*b, 0x1f).unwrap_err();")]
            ///     assert_eq!(e.backend, b.name());
            /// }
            /// ```
            #[track_caller]
            pub fn try_with_backend(backend: Backend, domain: u8) -> Result<Self, UnsupportedBackend> {
                let backend = backend.check().map_err(|e| e.for_type(stringify!($name)))?;
                match Self::try_with(backend, domain) {
                    Ok(x) => Ok(x),
                    Err(e) => panic!(concat!(stringify!($name), "::try_with_backend: {}"), e),
                }
            }

            fn try_with(backend: Backend, domain: u8) -> Result<Self, InvalidDomain> {
                if !(0x01..=0x7f).contains(&domain) {
                    return Err(InvalidDomain(domain));
                }
                Ok($name { sponge: Sponge::new(backend), domain })
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

            /// Pad with D (RFC 9861 §2.2) and return the output reader.
            #[inline]
            pub fn finalize_xof(self) -> $reader {
                self.sponge.finalize(self.domain)
            }

            /// [`Self::finalize_xof`], then start over with the same D and
            /// backend.
            #[inline]
            pub fn finalize_xof_reset(&mut self) -> $reader {
                let reader = self.clone().finalize_xof();
                self.reset();
                reader
            }

            /// Forget the message; D and the backend stay.
            #[inline]
            pub fn reset(&mut self) {
                self.sponge = Sponge::new(self.sponge.backend());
            }

            /// One-shot TurboSHAKE of `data` with domain byte `domain`.
            ///
            /// # Panics
            /// If `domain` is outside 0x01..=0x7F.
            #[track_caller]
            pub fn digest_xof(domain: u8, data: &[u8], out: &mut [u8]) {
                let mut x = match Self::try_new(domain) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($name), "::digest_xof: {}"), e),
                };
                x.update(data);
                x.finalize_xof().read(out);
            }
        }

        /// TurboSHAKE with D = 0x1F (the domain byte for an application
        /// without another use for it, RFC 9861 §2.2), on the detected
        /// backend; for generic code (`D: Default`, and `digest`'s
        /// `ExtendableOutput::digest_xof`).
        ///
        /// ```
        #[doc = concat!("let mut x = sha3::", stringify!($name), "::default();")]
        /// x.update(b"abc");
        /// let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        /// x.finalize_xof().read(&mut a);
        #[doc = concat!("sha3::", stringify!($name), "::digest_xof(0x1f, b\"abc\", &mut b);")]
        /// assert_eq!(a, b);
        /// ```
        impl Default for $name {
            #[inline]
            fn default() -> Self {
                Self::new(0x1f)
            }
        }

        crate::interop::xof_traits!($name, $reader);
        crate::interop::hash_marker!($name);
    };
}

turboshake!(TurboShake128, TurboShake128, TurboShake128Reader, "128");
turboshake!(TurboShake256, TurboShake256, TurboShake256Reader, "256");
