//! KangarooTwelve: KT128 and KT256 (RFC 9861 §3), tree hashes over
//! TurboSHAKE128 and TurboSHAKE256.
//!
//! The input S = M || C || length_encode(|C|) (§3.2) is cut into 8192-byte
//! chunks. One chunk: S is hashed by TurboSHAKE with D = 0x07. More: every
//! chunk after the first (a leaf) is hashed by TurboSHAKE with D = 0x0B into
//! a 32-byte (KT128) or 64-byte (KT256) chaining value, and the final node
//! S_0 || 0x03 0x00^7 || CV_1 .. CV_{n-1} || length_encode(n - 1) || 0xFF
//! 0xFF is hashed with D = 0x06.
//!
//! The leaves are independent: they run side by side on the backend's
//! multi-lane Keccak engine (4 lanes with AVX2, 8 with AVX-512), taking
//! whole leaves straight from the caller's slice. The streaming hashers
//! buffer up to 8 leaves (64 KiB, inside the value) so that small `update`
//! calls still fill every lane; the one-shot functions buffer at most one
//! leaf (8 KiB on the stack).
#![forbid(unsafe_code)]

use core::fmt;

use hash_core::XofAlgorithm;

use crate::sponge::{Sponge, length_encode};
use crate::turboshake::{TurboShake128Reader, TurboShake256Reader};
use crate::{Backend, UnsupportedBackend, algorithm, backend};

/// Chunk size (RFC 9861 §3.2).
const CHUNK: usize = 8192;
/// Leaves hashed per lane-engine call, and buffered by the streaming types.
const GROUP: usize = 8;
/// The streaming types' leaf buffer.
const STREAM_BUF: usize = GROUP * CHUNK;

/// The tree hash state shared by KT128 and KT256: the final node's sponge
/// (which absorbs S_0 directly) and a buffer of `BUF` bytes of leaves.
struct Tree<A: XofAlgorithm<Backend = Backend>, const RATE: usize, const CV: usize, const BUF: usize> {
    final_node: Sponge<A>,
    /// Bytes of S_0 absorbed into `final_node` (at most 8192).
    first: usize,
    /// Whether S is known to be longer than one chunk (the 0x03 0x00^7
    /// separator is absorbed).
    tree: bool,
    /// Leaves hashed into `final_node` so far (n - 1 of §3.2).
    leaves: u64,
    buf: [u8; BUF],
    buf_len: usize,
}

impl<A: XofAlgorithm<Backend = Backend>, const RATE: usize, const CV: usize, const BUF: usize> Tree<A, RATE, CV, BUF> {
    fn new(backend: Backend) -> Self {
        Tree { final_node: Sponge::new(backend), first: 0, tree: false, leaves: 0, buf: [0; BUF], buf_len: 0 }
    }

    /// Back to the empty message, on the same backend (the buffer's bytes
    /// are left as they are: only `buf_len` of them are ever read).
    fn reset(&mut self) {
        self.final_node = Sponge::new(self.final_node.backend());
        self.first = 0;
        self.tree = false;
        self.leaves = 0;
        self.buf_len = 0;
    }

    fn update(&mut self, mut data: &[u8]) {
        if !self.tree {
            let take = (CHUNK - self.first).min(data.len());
            self.final_node.update(&data[..take]);
            self.first += take;
            data = &data[take..];
            if data.is_empty() {
                return;
            }
            // §3.2: more than one chunk, S_0 || 110^62 (0x03 0x00^7).
            self.final_node.update(&[0x03, 0, 0, 0, 0, 0, 0, 0]);
            self.tree = true;
        }
        if self.buf_len > 0 {
            let take = (BUF - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < BUF {
                return;
            }
            hash_leaves::<A, RATE, CV>(&mut self.final_node, &mut self.leaves, &self.buf);
            self.buf_len = 0;
        }
        // Whole groups of leaves straight from `data`; what is left (fewer
        // than BUF bytes) waits in the buffer.
        let group = BUF / CHUNK;
        let leaves = data.len() / CHUNK;
        let direct = (leaves - leaves % group) * CHUNK;
        hash_leaves::<A, RATE, CV>(&mut self.final_node, &mut self.leaves, &data[..direct]);
        let rest = &data[direct..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    fn finish(mut self, customization: &[u8]) -> hash_core::XofReader<A> {
        self.update(customization);
        self.update(length_encode(customization.len() as u128).as_bytes());
        if !self.tree {
            // §3.2: |S| <= 8192, TurboSHAKE(S, 0x07).
            return self.final_node.finalize(0x07);
        }
        let buffered = &self.buf[..self.buf_len];
        let whole = buffered.len() - buffered.len() % CHUNK;
        hash_leaves::<A, RATE, CV>(&mut self.final_node, &mut self.leaves, &buffered[..whole]);
        let last = &buffered[whole..];
        if !last.is_empty() {
            let mut cv = [0u8; CV];
            backend::hash_chunks::<RATE, 12>(self.final_node.backend(), last, last.len(), 0x0b, &mut cv, CV);
            self.final_node.update(&cv);
            self.leaves += 1;
        }
        self.final_node.update(length_encode(u128::from(self.leaves)).as_bytes());
        self.final_node.update(&[0xff, 0xff]);
        self.final_node.finalize(0x06)
    }
}

/// Hash whole leaves of `data` (a multiple of 8192 bytes) with D = 0x0B
/// and absorb their chaining values into the final node, in order.
fn hash_leaves<A: XofAlgorithm<Backend = Backend>, const RATE: usize, const CV: usize>(
    final_node: &mut Sponge<A>,
    leaves: &mut u64,
    data: &[u8],
) {
    let mut cvs = [0u8; GROUP * 64];
    for group in data.chunks(GROUP * CHUNK) {
        let n = group.len() / CHUNK;
        backend::hash_chunks::<RATE, 12>(final_node.backend(), group, CHUNK, 0x0b, &mut cvs[..n * CV], CV);
        final_node.update(&cvs[..n * CV]);
        *leaves += n as u64;
    }
}

impl<A: XofAlgorithm<Backend = Backend>, const RATE: usize, const CV: usize, const BUF: usize> Clone
    for Tree<A, RATE, CV, BUF>
{
    fn clone(&self) -> Self {
        Tree {
            final_node: self.final_node.clone(),
            first: self.first,
            tree: self.tree,
            leaves: self.leaves,
            buf: self.buf,
            buf_len: self.buf_len,
        }
    }
}

macro_rules! kangaroo {
    ($name:ident, $ts:ident, $reader:ident, $rate:literal, $cv:literal, $title:literal, $ts_name:literal) => {
        #[doc = concat!($title, " (RFC 9861 §3): a tree hash over ", $ts_name, " whose 8 KiB leaves")]
        /// run side by side on the backend's multi-lane Keccak engine.
        ///
        /// The customization string C is borrowed until finalization (it
        /// is absorbed after the message, §3.2). The value holds a 64 KiB
        /// leaf buffer; the one-shot [`Self::digest_xof`] does not.
        ///
        /// ```
        #[doc = concat!("let mut k = sha3::", stringify!($name), "::new(b\"context\");")]
        /// k.update(&[0xab; 20_000]);
        /// let mut out = [0u8; 32];
        /// k.finalize_xof().read(&mut out);
        /// let mut once = [0u8; 32];
        #[doc = concat!("sha3::", stringify!($name), "::digest_xof(b\"context\", &[0xab; 20_000], &mut once);")]
        /// assert_eq!(out, once);
        /// ```
        #[derive(Clone)]
        pub struct $name<'c> {
            tree: Tree<algorithm::$ts, $rate, $cv, STREAM_BUF>,
            customization: &'c [u8],
        }

        impl<'c> $name<'c> {
            /// A hasher with customization string `customization` (C; may
            /// be empty), on the detected backend.
            #[inline]
            pub fn new(customization: &'c [u8]) -> Self {
                $name { tree: Tree::new(Backend::detect()), customization }
            }

            /// As [`Self::new`], permuting with exactly `backend` (its
            /// multi-lane engine hashes the leaves).
            ///
            /// # Panics
            /// If this CPU (or build) does not support `backend`; the
            /// message names this type. See [`Self::try_with_backend`].
            #[track_caller]
            pub fn with_backend(backend: Backend, customization: &'c [u8]) -> Self {
                match Self::try_with_backend(backend, customization) {
                    Ok(x) => x,
                    Err(e) => panic!(concat!(stringify!($name), "::with_backend: {}"), e.without_type()),
                }
            }

            /// As [`Self::with_backend`], or the error if this CPU (or
            /// build) does not support `backend`.
            ///
            /// ```
            /// use sha3::Backend;
            #[doc = concat!("let k = sha3::", stringify!($name), "::try_with_backend(Backend::Portable, b\"C\");")]
            /// assert_eq!(k.unwrap().backend(), Backend::Portable);
            /// for b in Backend::all().iter().filter(|b| !b.is_supported()) {
            #[doc = concat!("    let e = sha3::", stringify!($name), "::try_with_backend(*b, b\"C\").unwrap_err();")]
            ///     assert_eq!(e.backend, b.name());
            /// }
            /// ```
            pub fn try_with_backend(backend: Backend, customization: &'c [u8]) -> Result<Self, UnsupportedBackend> {
                let backend = backend.check().map_err(|e| e.for_type(stringify!($name)))?;
                Ok($name { tree: Tree::new(backend), customization })
            }

            /// The backend this hasher permutes with.
            #[inline]
            pub fn backend(&self) -> Backend {
                self.tree.final_node.backend()
            }

            /// Absorb message bytes.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.tree.update(data);
            }

            /// Absorb C and its length, finish the tree and return the
            /// output reader.
            pub fn finalize_xof(self) -> $reader {
                self.tree.finish(self.customization)
            }

            /// [`Self::finalize_xof`], then start over with the same C and
            /// backend.
            pub fn finalize_xof_reset(&mut self) -> $reader {
                let fresh = Tree::new(self.backend());
                let tree = core::mem::replace(&mut self.tree, fresh);
                tree.finish(self.customization)
            }

            /// Forget the message; C and the backend stay.
            pub fn reset(&mut self) {
                self.tree.reset();
            }

            /// One-shot: hash `data` with customization `customization`
            /// and fill `out`.
            #[inline]
            pub fn digest_xof(customization: &[u8], data: &[u8], out: &mut [u8]) {
                Self::digest_xof_with(Backend::detect(), customization, data, out);
            }

            /// [`Self::digest_xof`] with exactly `backend`.
            ///
            /// # Panics
            /// If this CPU (or build) does not support `backend`.
            #[track_caller]
            pub fn digest_xof_with_backend(backend: Backend, customization: &[u8], data: &[u8], out: &mut [u8]) {
                match backend.check() {
                    Ok(b) => Self::digest_xof_with(b, customization, data, out),
                    Err(e) => panic!(concat!(stringify!($name), "::digest_xof_with_backend: {}"), e),
                }
            }

            fn digest_xof_with(backend: Backend, customization: &[u8], data: &[u8], out: &mut [u8]) {
                let suffix = length_encode(customization.len() as u128);
                let total = (data.len() as u128) + (customization.len() as u128) + suffix.as_bytes().len() as u128;
                if total <= CHUNK as u128 {
                    // One chunk: TurboSHAKE(S, 0x07), no leaf buffer.
                    let mut s = Sponge::<algorithm::$ts>::new(backend);
                    s.update(data);
                    s.update(customization);
                    s.update(suffix.as_bytes());
                    s.finalize(0x07).read(out);
                    return;
                }
                let mut tree = Tree::<algorithm::$ts, $rate, $cv, CHUNK>::new(backend);
                tree.update(data);
                tree.finish(customization).read(out);
            }
        }

        /// An empty customization string C, on the detected backend; for
        /// generic code (`D: Default`, and `digest`'s
        /// `ExtendableOutput::digest_xof`).
        ///
        /// ```
        #[doc = concat!("let mut k = sha3::", stringify!($name), "::default();")]
        /// k.update(b"abc");
        /// let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
        /// k.finalize_xof().read(&mut a);
        #[doc = concat!("sha3::", stringify!($name), "::digest_xof(b\"\", b\"abc\", &mut b);")]
        /// assert_eq!(a, b);
        /// ```
        impl Default for $name<'_> {
            #[inline]
            fn default() -> Self {
                Self::new(b"")
            }
        }

        crate::interop::xof_traits!($name<'c>, $reader);
        crate::interop::hash_marker!($name<'c>);

        impl fmt::Debug for $name<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(concat!(stringify!($name), " (", $title, ")"))
                    .field("backend", &self.backend())
                    .field("customization_len", &self.customization.len())
                    .finish_non_exhaustive()
            }
        }
    };
}

kangaroo!(KangarooTwelve, TurboShake128, TurboShake128Reader, 168, 32, "KT128", "TurboSHAKE128");
kangaroo!(Kt256, TurboShake256, TurboShake256Reader, 136, 64, "KT256", "TurboSHAKE256");
