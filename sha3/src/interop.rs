//! `std::io::Write` (feature `std`) and the `digest` traits (0.10 with
//! `digest`, 0.11 with `digest011`) for the streaming XOF types of SP
//! 800-185 and RFC 9861, over their inherent `update`, `finalize_xof`,
//! `finalize_xof_reset` and `reset`.
//!
//! Each of these types absorbs its message as one byte string, so any split
//! of it into `write` / `update` calls gives the same output: the contract
//! of `io::Write` and of `digest::Update`. TupleHash, whose output depends
//! on the split into elements, implements neither (see its docs).
#![forbid(unsafe_code)]

/// `io::Write`, `Update`, `ExtendableOutput`, `ExtendableOutputReset` and
/// `Reset` (both `digest` lines) for `$ty`, whose reader is `$reader`.
macro_rules! xof_traits {
    ($ty:ident $(<$lt:lifetime>)?, $reader:ty) => {
        /// Absorbs every byte given (`write` never writes less than the
        /// whole buffer); `flush` does nothing.
        #[cfg(feature = "std")]
        impl$(<$lt>)? std::io::Write for $ty$(<$lt>)? {
            #[inline]
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                $ty::update(self, buf);
                Ok(buf.len())
            }

            #[inline]
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        #[cfg(feature = "digest")]
        impl$(<$lt>)? digest::Update for $ty$(<$lt>)? {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                $ty::update(self, data);
            }
        }

        #[cfg(feature = "digest")]
        impl$(<$lt>)? digest::ExtendableOutput for $ty$(<$lt>)? {
            type Reader = $reader;

            #[inline]
            fn finalize_xof(self) -> $reader {
                $ty::finalize_xof(self)
            }
        }

        #[cfg(feature = "digest")]
        impl$(<$lt>)? digest::ExtendableOutputReset for $ty$(<$lt>)? {
            #[inline]
            fn finalize_xof_reset(&mut self) -> $reader {
                $ty::finalize_xof_reset(self)
            }
        }

        #[cfg(feature = "digest")]
        impl$(<$lt>)? digest::Reset for $ty$(<$lt>)? {
            #[inline]
            fn reset(&mut self) {
                $ty::reset(self);
            }
        }

        #[cfg(feature = "digest011")]
        impl$(<$lt>)? digest011::Update for $ty$(<$lt>)? {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                $ty::update(self, data);
            }
        }

        #[cfg(feature = "digest011")]
        impl$(<$lt>)? digest011::ExtendableOutput for $ty$(<$lt>)? {
            type Reader = $reader;

            #[inline]
            fn finalize_xof(self) -> $reader {
                $ty::finalize_xof(self)
            }
        }

        #[cfg(feature = "digest011")]
        impl$(<$lt>)? digest011::ExtendableOutputReset for $ty$(<$lt>)? {
            #[inline]
            fn finalize_xof_reset(&mut self) -> $reader {
                $ty::finalize_xof_reset(self)
            }
        }

        #[cfg(feature = "digest011")]
        impl$(<$lt>)? digest011::Reset for $ty$(<$lt>)? {
            #[inline]
            fn reset(&mut self) {
                $ty::reset(self);
            }
        }
    };
}

/// `digest::HashMarker` (both lines) for the unkeyed types.
macro_rules! hash_marker {
    ($ty:ident $(<$lt:lifetime>)?) => {
        #[cfg(feature = "digest")]
        impl$(<$lt>)? digest::HashMarker for $ty$(<$lt>)? {}

        #[cfg(feature = "digest011")]
        impl$(<$lt>)? digest011::HashMarker for $ty$(<$lt>)? {}
    };
}

pub(crate) use {hash_marker, xof_traits};
