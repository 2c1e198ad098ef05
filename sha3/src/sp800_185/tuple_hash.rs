//! TupleHash128, TupleHash256 and their XOF forms (SP 800-185 §5): hashes
//! of sequences of byte strings.

use super::{CShake128, CShake128Reader, CShake256, CShake256Reader};
use crate::sponge::{bits, left_encode, right_encode};
use crate::{Backend, UnsupportedBackend};

macro_rules! tuple_hash {
    ($tuple:ident, $cshake:ident, $reader:ident, $strength:literal) => {
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
        ///
        /// so it is no `io::Write` (this does not compile: E0277, the trait
        /// is not implemented):
        ///
        /// ```compile_fail,E0277
        /// fn sink<W: std::io::Write>(_: W) {}
        #[doc = concat!("sink(sha3::", stringify!($tuple), "::new(b\"\"));")]
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
                    Err(e) => panic!(concat!(stringify!($tuple), "::with_backend: {}"), e.without_type()),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            ///
            /// ```
            /// use sha3::Backend;
            #[doc = concat!("let t = sha3::", stringify!($tuple), "::try_with_backend(Backend::Portable, b\"S\");")]
            /// assert_eq!(t.unwrap().backend(), Backend::Portable);
            /// for b in Backend::all().iter().filter(|b| !b.is_supported()) {
            #[doc = concat!("    let e = sha3::", stringify!($tuple), "::try_with_backend(*b, b\"S\").unwrap_err();")]
            ///     assert_eq!(e.backend, b.name());
            /// }
            /// ```
            pub fn try_with_backend(backend: Backend, customization: &[u8]) -> Result<Self, UnsupportedBackend> {
                let inner = $cshake::try_with_backend(backend, b"TupleHash", customization)
                    .map_err(|e| e.for_type(stringify!($tuple)))?;
                Ok($tuple { inner })
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
    };
}

tuple_hash!(TupleHash128, CShake128, CShake128Reader, "128");
tuple_hash!(TupleHash256, CShake256, CShake256Reader, "256");
