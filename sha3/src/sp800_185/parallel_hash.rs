//! ParallelHash128, ParallelHash256 and their XOF forms (SP 800-185 §6):
//! the message cut into blocks of B bytes, hashed on the lane engines,
//! and the chaining values absorbed by an outer cSHAKE.

use super::{CShake128, CShake128Reader, CShake256, CShake256Reader};
use crate::algorithm::{Shake128, Shake256};
use crate::sponge::{Sponge, bits, left_encode, right_encode};
use crate::{Backend, UnsupportedBackend, backend};

/// ParallelHash blocks per lane-engine call (the widest engine's lanes).
const PARALLEL_GROUP: usize = 8;
/// ParallelHash's block buffer: eight blocks of up to 1 KiB.
const PARALLEL_BUF: usize = 8 * 1024;

macro_rules! parallel_hash {
    ($parallel:ident, $cshake:ident, $alg:ty, $reader:ident, $rate:literal, $strength:literal, $cv:literal) => {
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
                    Err(e) => panic!(concat!(stringify!($parallel), "::with_backend: {}"), e.without_type()),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            ///
            /// # Panics
            /// If `block_size` is 0, as [`Self::new`] does (the error type
            /// names backends only; [`Self::try_new`] checks B).
            ///
            /// ```
            /// use sha3::Backend;
            #[doc = concat!("let p = sha3::", stringify!($parallel), "::try_with_backend(Backend::Portable, 64, b\"\");")]
            /// assert_eq!(p.unwrap().backend(), Backend::Portable);
            /// for b in Backend::all().iter().filter(|b| !b.is_supported()) {
            #[doc = concat!("    let e = sha3::", stringify!($parallel), "::try_with_backend(*b, 64, b\"\").unwrap_err();")]
            ///     assert_eq!(e.backend, b.name());
            /// }
            /// ```
            #[track_caller]
            pub fn try_with_backend(
                backend: Backend,
                block_size: usize,
                customization: &[u8],
            ) -> Result<Self, UnsupportedBackend> {
                assert!(block_size > 0, concat!(stringify!($parallel), ": the block size B must be at least 1 byte"));
                let mut outer = $cshake::try_with_backend(backend, b"ParallelHash", customization)
                    .map_err(|e| e.for_type(stringify!($parallel)))?;
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

parallel_hash!(ParallelHash128, CShake128, Shake128, CShake128Reader, 168, "128", 32);
parallel_hash!(ParallelHash256, CShake256, Shake256, CShake256Reader, 136, "256", 64);
