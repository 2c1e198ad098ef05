//! The block-level core that the `md-5` and `sha1` drop-ins (`dropin/md-5-*`,
//! `dropin/sha1-*`) share: a Merkle–Damgård hash of 64-byte blocks and
//! 32-bit words, on one of our crates' backends, behind `digest`'s core API.
//! One macro per `digest` line: [`md_core_0_10!`] and [`md_core_0_11!`].
//!
//! The macros expand in the drop-in, so the paths they use (`::digest`,
//! `::hash_core`, `::ours`, the drop-in's crate names) and their
//! `#[cfg(feature = "...")]` attributes are the drop-in's: this package has
//! no dependencies and no features.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs, rust_2018_idioms)]

/// The `digest` 0.10 core of a hash (`sha1` 0.10, `md-5` 0.10): the core
/// type, `CoreWrapper` hasher alias, `AssociatedOid` under the `oid`
/// feature, and the private `Alg` type and `backend()` function.
///
/// `final_in_registers` (a `bool` constant) says whether the hash's
/// backends on the target build the final padded block in registers
/// (`FixedAlgorithm::compress_final`: SHA-1's on x86-64, MD5's nowhere): if
/// so, the buffered padding is kept out of line
/// (`hash_core::compress_final_tail`), else it is the only path and stays
/// inline.
///
/// ```ignore
/// hashes_dropin_macros::md_core_0_10! {
///     name: "SHA-1", alg: ours::algorithm::Sha1, soft: cfg!(feature = "force-soft"),
///     final_in_registers: cfg!(target_arch = "x86_64"),
///     core: Sha1Core, hasher: Sha1, words: 5, out: 20, U20,
///     alg_name: "Sha1", oid: "1.3.14.3.2.26", oid_doc: "id-sha1 (OIW, 1.3.14.3.2.26).",
/// }
/// ```
#[macro_export]
macro_rules! md_core_0_10 {
    (
        name: $name:literal, alg: $alg:path, soft: $soft:expr, final_in_registers: $fast:expr,
        core: $core:ident, hasher: $hasher:ident, words: $words:literal, out: $out:literal, $out_ty:ident,
        alg_name: $alg_name:literal, oid: $oid:literal, oid_doc: $oid_doc:literal $(,)?
    ) => {
        type Alg = $alg;

        /// The best backend this CPU has (detected once per process), or the
        /// portable one where the original's switch asks for its software code.
        #[inline]
        fn backend() -> ::ours::Backend {
            if $soft {
                ::ours::Backend::Portable
            } else {
                ::ours::Backend::detect()
            }
        }

        #[doc = concat!($name, "'s block-level core, as `digest`'s `CoreWrapper` drives it.")]
        // Aligned to 16 bytes (as `sha2` 0.10's `Sha256VarCore`, see
        // dropin/README.md, Speed): `digest` 0.10 copies the hasher on its
        // way to `finalize`, in 16-byte pieces; aligned, the block buffer
        // and its position byte sit on 16-byte boundaries of the copy.
        // Measured on AMD Zen 3: 2% to 4% faster at 16 B and 64 B through
        // `Digest::digest` (SHA-1, MD5), no change from 256 B up; the
        // `digest` 0.11 core gained nothing from it.
        #[derive(Clone)]
        #[repr(align(16))]
        pub struct $core {
            state: [u32; $words],
            blocks: u64,
            backend: ::ours::Backend,
        }

        impl ::core::default::Default for $core {
            #[inline]
            fn default() -> Self {
                $core { state: <Alg as ::hash_core::Algorithm>::INIT, blocks: 0, backend: backend() }
            }
        }

        impl ::digest::HashMarker for $core {}

        impl ::digest::core_api::BlockSizeUser for $core {
            type BlockSize = ::digest::consts::U64;
        }

        impl ::digest::core_api::BufferKindUser for $core {
            type BufferKind = ::digest::block_buffer::Eager;
        }

        impl ::digest::core_api::OutputSizeUser for $core {
            type OutputSize = ::digest::consts::$out_ty;
        }

        impl ::digest::core_api::UpdateCore for $core {
            #[inline]
            fn update_blocks(&mut self, blocks: &[::digest::core_api::Block<Self>]) {
                self.blocks = self.blocks.wrapping_add(blocks.len() as u64);
                <Alg as ::hash_core::Algorithm>::compress(self.backend, &mut self.state, blocks);
            }
        }

        impl ::digest::core_api::FixedOutputCore for $core {
            #[inline]
            fn finalize_fixed_core(
                &mut self,
                buffer: &mut ::digest::core_api::Buffer<Self>,
                out: &mut ::digest::Output<Self>,
            ) {
                let tail = buffer.get_data();
                let bytes = u128::from(self.blocks) * 64 + tail.len() as u128;
                // The backend's own final-block path where the tail and the
                // 8-byte length fit in one block, as our own `finalize` does;
                // else the buffered padding, out of line where the backends
                // have that path, inline where they do not (MD5: it is the
                // only path).
                ::hash_core::compress_final_tail::<Alg>(self.backend, &mut self.state, tail, bytes, $fast);
                buffer.reset();
                let mut digest = [0u8; $out];
                <Alg as ::hash_core::FixedAlgorithm>::output(&self.state, &mut digest);
                out.copy_from_slice(&digest);
            }
        }

        impl ::digest::Reset for $core {
            #[inline]
            fn reset(&mut self) {
                self.state = <Alg as ::hash_core::Algorithm>::INIT;
                self.blocks = 0;
            }
        }

        impl ::digest::core_api::AlgorithmName for $core {
            fn write_alg_name(f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str($alg_name)
            }
        }

        impl ::core::fmt::Debug for $core {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(concat!(stringify!($core), " { ... }"))
            }
        }

        #[doc = $oid_doc]
        #[cfg(feature = "oid")]
        impl ::digest::const_oid::AssociatedOid for $core {
            const OID: ::digest::const_oid::ObjectIdentifier = ::digest::const_oid::ObjectIdentifier::new_unwrap($oid);
        }

        #[doc = concat!($name, " hasher.")]
        pub type $hasher = ::digest::core_api::CoreWrapper<$core>;
    };
}

/// The `digest` 0.11 block-level core of a hash (`sha1` 0.11, `md-5`
/// 0.11), for the drop-in's `block_api` module: the core type with its
/// `SerializableState` (the original's bytes) and `ZeroizeOnDrop` under the
/// `zeroize` feature, the raw `compress` function, and the private `Alg`,
/// `WORDS`, `OUT`, `backend()` and `compress_bytes()` items.
///
/// `final_in_registers`: as for [`md_core_0_10!`].
///
/// ```ignore
/// hashes_dropin_macros::md_core_0_11! {
///     name: "SHA-1", alg: ours::algorithm::Sha1, soft: cfg!(sha1_backend = "soft"),
///     final_in_registers: cfg!(target_arch = "x86_64"),
///     core: Sha1Core, words: 5, out: 20, U20, serialized: U28, alg_name: "Sha1",
/// }
/// ```
#[macro_export]
macro_rules! md_core_0_11 {
    (
        name: $name:literal, alg: $alg:path, soft: $soft:expr, final_in_registers: $fast:expr,
        core: $core:ident, words: $words:literal, out: $out:literal, $out_ty:ident, serialized: $ser_ty:ident,
        alg_name: $alg_name:literal $(,)?
    ) => {
        type Alg = $alg;
        /// The chaining state's words.
        const WORDS: usize = $words;
        /// The digest's bytes.
        const OUT: usize = $out;

        /// The best backend this CPU has (detected once per process); the
        /// portable one where the original's RUSTFLAGS switch asks for its
        /// software code.
        #[inline]
        fn backend() -> ::ours::Backend {
            if $soft {
                ::ours::Backend::Portable
            } else {
                ::ours::Backend::detect()
            }
        }

        /// Hand `bytes` (whole blocks) to our compression as one slice of
        /// blocks: an empty eager buffer passes whole blocks straight
        /// through, without copying.
        #[inline]
        fn compress_bytes(backend: ::ours::Backend, state: &mut [u32; WORDS], bytes: &[u8]) {
            let mut reslice = ::hash_core::block_buffer::EagerBuffer::<::digest::typenum::U64>::default();
            reslice.digest_blocks(bytes, |blocks| <Alg as ::hash_core::Algorithm>::compress(backend, state, blocks));
            debug_assert_eq!(reslice.get_pos(), 0);
        }

        #[doc = concat!($name, " compression: every block of `blocks` into `state`, in order, on the best backend this CPU has.")]
        pub fn compress(state: &mut [u32; WORDS], blocks: &[[u8; 64]]) {
            compress_bytes(backend(), state, blocks.as_flattened());
        }

        #[doc = concat!($name, "'s block-level core.")]
        #[derive(Clone)]
        pub struct $core {
            h: [u32; WORDS],
            block_len: u64,
            backend: ::ours::Backend,
        }

        impl ::core::default::Default for $core {
            #[inline]
            fn default() -> Self {
                Self { h: <Alg as ::hash_core::Algorithm>::INIT, block_len: 0, backend: backend() }
            }
        }

        impl ::digest::HashMarker for $core {}

        impl ::digest::block_api::BlockSizeUser for $core {
            type BlockSize = ::digest::typenum::U64;
        }

        impl ::digest::block_api::BufferKindUser for $core {
            type BufferKind = ::digest::block_api::Eager;
        }

        impl ::digest::block_api::OutputSizeUser for $core {
            type OutputSize = ::digest::typenum::$out_ty;
        }

        impl ::digest::block_api::UpdateCore for $core {
            #[inline]
            fn update_blocks(&mut self, blocks: &[::digest::block_api::Block<Self>]) {
                self.block_len = self.block_len.wrapping_add(blocks.len() as u64);
                compress_bytes(self.backend, &mut self.h, ::digest::block_api::Block::<Self>::slice_as_flattened(blocks));
            }
        }

        impl ::digest::block_api::FixedOutputCore for $core {
            #[inline]
            fn finalize_fixed_core(
                &mut self,
                buffer: &mut ::digest::block_api::Buffer<Self>,
                out: &mut ::digest::Output<Self>,
            ) {
                let tail = buffer.get_data();
                let bytes = u128::from(self.block_len) * 64 + tail.len() as u128;
                // The backend's own final-block path where the tail and the
                // 8-byte length fit in one block, as our own `finalize` does.
                // Else the buffered padding, out of line where the backends
                // have the register path.
                let mut h = self.h;
                ::hash_core::compress_final_tail::<Alg>(self.backend, &mut h, tail, bytes, $fast);
                buffer.reset();
                let mut digest = [0u8; OUT];
                <Alg as ::hash_core::FixedAlgorithm>::output(&h, &mut digest);
                out.copy_from_slice(&digest);
            }
        }

        impl ::digest::block_api::Reset for $core {
            #[inline]
            fn reset(&mut self) {
                self.h = <Alg as ::hash_core::Algorithm>::INIT;
                self.block_len = 0;
            }
        }

        impl ::digest::block_api::AlgorithmName for $core {
            fn write_alg_name(f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str($alg_name)
            }
        }

        impl ::core::fmt::Debug for $core {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(concat!(stringify!($core), " { ... }"))
            }
        }

        impl ::core::ops::Drop for $core {
            fn drop(&mut self) {
                #[cfg(feature = "zeroize")]
                {
                    use ::digest::zeroize::Zeroize;
                    self.h.zeroize();
                    self.block_len.zeroize();
                }
            }
        }

        #[cfg(feature = "zeroize")]
        impl ::digest::zeroize::ZeroizeOnDrop for $core {}

        /// The state words little-endian, then the count of blocks
        /// compressed, little-endian (the original's layout, byte for byte).
        impl ::digest::common::hazmat::SerializableState for $core {
            type SerializedStateSize = ::digest::typenum::$ser_ty;

            fn serialize(&self) -> ::digest::common::hazmat::SerializedState<Self> {
                let mut out = ::digest::common::hazmat::SerializedState::<Self>::default();
                let (words, count) = out.split_at_mut(4 * WORDS);
                for (bytes, word) in words.chunks_exact_mut(4).zip(self.h.iter()) {
                    bytes.copy_from_slice(&word.to_le_bytes());
                }
                count.copy_from_slice(&self.block_len.to_le_bytes());
                out
            }

            fn deserialize(
                serialized: &::digest::common::hazmat::SerializedState<Self>,
            ) -> ::core::result::Result<Self, ::digest::common::hazmat::DeserializeStateError> {
                let (words, count) = serialized.split_at(4 * WORDS);
                let mut h = [0u32; WORDS];
                for (word, bytes) in h.iter_mut().zip(words.chunks_exact(4)) {
                    *word = u32::from_le_bytes(
                        bytes.try_into().map_err(|_| ::digest::common::hazmat::DeserializeStateError)?,
                    );
                }
                let block_len = u64::from_le_bytes(
                    count.try_into().map_err(|_| ::digest::common::hazmat::DeserializeStateError)?,
                );
                Ok(Self { h, block_len, backend: backend() })
            }
        }
    };
}
