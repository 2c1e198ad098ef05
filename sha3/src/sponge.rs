//! The sponge construction (FIPS 202 §4) with a padding byte chosen at
//! finalization, and the integer and string encodings of SP 800-185 §2.3
//! and RFC 9861 §3.3: the shared machinery of cSHAKE, KMAC, TupleHash,
//! ParallelHash, TurboSHAKE and KangarooTwelve.
#![forbid(unsafe_code)]

use core::fmt;

use hash_core::block_buffer::EagerBuffer;
use hash_core::typenum::Unsigned;
use hash_core::{Algorithm, Block, XofAlgorithm, XofReader};

use crate::Backend;

/// A sponge over `A`'s permutation and rate (Keccak-p\[1600, 24\] for the
/// SHAKE algorithms, Keccak-p\[1600, 12\] for the TurboSHAKE ones) that
/// buffers partial blocks. It never counts its input, so messages of any
/// length (beyond 4 GiB, beyond `usize`) absorb alike.
pub(crate) struct Sponge<A: XofAlgorithm<Backend = Backend>> {
    state: [u64; 25],
    buffer: EagerBuffer<A::BlockSize>,
    backend: Backend,
}

impl<A: XofAlgorithm<Backend = Backend>> Sponge<A> {
    /// The all-zero state. `backend` must be supported (checked by the
    /// public constructors; the dispatch functions check again).
    #[inline]
    pub(crate) fn new(backend: Backend) -> Self {
        Sponge { state: [0; 25], buffer: EagerBuffer::default(), backend }
    }

    /// A sponge on a block boundary with state `state` (a copy taken by
    /// [`Self::state`] when the buffer was empty).
    #[inline]
    pub(crate) fn from_state(backend: Backend, state: [u64; 25]) -> Self {
        Sponge { state, buffer: EagerBuffer::default(), backend }
    }

    /// The state, meaningful alone when [`Self::pos`] is 0.
    #[inline]
    pub(crate) fn state(&self) -> [u64; 25] {
        self.state
    }

    #[inline]
    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    /// Absorb `data` (FIPS 202 §4 Algorithm 8 step 6), buffering a partial
    /// block.
    #[inline]
    pub(crate) fn update(&mut self, data: &[u8]) {
        let (backend, state) = (self.backend, &mut self.state);
        self.buffer.digest_blocks(data, |blocks| A::compress(backend, state, blocks));
    }

    /// Bytes absorbed since the last block boundary.
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.buffer.get_pos()
    }

    /// Absorb zero bytes up to the next block boundary (the zero fill of
    /// SP 800-185 §2.3.3 `bytepad`, whose `left_encode(w)` prefix the
    /// caller absorbs first, with w the rate). Nothing when already on a
    /// boundary: a prefix that ends exactly on the rate adds no zero block.
    #[inline]
    pub(crate) fn zero_fill(&mut self) {
        let pos = self.pos();
        if pos != 0 {
            let zeros = Block::<A::BlockSize>::default();
            self.update(&zeros[pos..]);
        }
    }

    /// Pad with `domain` then `pad10*1`'s final bit (the domain byte holds
    /// the suffix bits and `pad10*1`'s first 1, FIPS 202 §B.2; RFC 9861
    /// §2.2 for TurboSHAKE's D), absorb, and return the output reader.
    #[inline]
    pub(crate) fn finalize(mut self, domain: u8) -> XofReader<A> {
        let rate = A::BlockSize::USIZE;
        let pos = self.pos();
        let mut block = Block::<A::BlockSize>::default();
        block[..pos].copy_from_slice(self.buffer.get_data());
        block[pos] ^= domain;
        block[rate - 1] ^= 0x80;
        A::compress(self.backend, &mut self.state, core::slice::from_ref(&block));
        XofReader::from_state(self.backend, self.state)
    }
}

impl<A: XofAlgorithm<Backend = Backend>> Clone for Sponge<A> {
    #[inline]
    fn clone(&self) -> Self {
        Sponge { state: self.state, buffer: self.buffer.clone(), backend: self.backend }
    }
}

impl<A: XofAlgorithm<Backend = Backend>> fmt::Debug for Sponge<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(<A as Algorithm>::NAME).field("backend", &self.backend).finish_non_exhaustive()
    }
}

/// An encoded integer: at most 17 bytes (16 for the value, one for its
/// length).
#[derive(Clone, Copy)]
pub(crate) struct Encoded {
    bytes: [u8; 17],
    start: usize,
    end: usize,
}

impl Encoded {
    #[inline]
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[self.start..self.end]
    }
}

impl AsRef<[u8]> for Encoded {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// The big-endian bytes of `x` without leading zeros, at least one byte:
/// (bytes, first significant index) within 16.
#[inline]
fn be_minimal(x: u128) -> ([u8; 16], usize) {
    let bytes = x.to_be_bytes();
    let skip = ((x.leading_zeros() / 8) as usize).min(15);
    (bytes, skip)
}

/// `left_encode(x)` (SP 800-185 §2.3.1): the byte count n, then x in n
/// big-endian bytes, n >= 1. Lengths are in bits and can pass 2^64 for
/// byte lengths near `u64::MAX`, hence `u128`.
#[inline]
pub(crate) fn left_encode(x: u128) -> Encoded {
    let (be, skip) = be_minimal(x);
    let n = 16 - skip;
    let mut bytes = [0u8; 17];
    bytes[0] = n as u8;
    bytes[1..=n].copy_from_slice(&be[skip..]);
    Encoded { bytes, start: 0, end: n + 1 }
}

/// `right_encode(x)` (SP 800-185 §2.3.1): x in n big-endian bytes, then n.
#[inline]
pub(crate) fn right_encode(x: u128) -> Encoded {
    let (be, skip) = be_minimal(x);
    let n = 16 - skip;
    let mut bytes = [0u8; 17];
    bytes[..n].copy_from_slice(&be[skip..]);
    bytes[n] = n as u8;
    Encoded { bytes, start: 0, end: n + 1 }
}

/// `length_encode(x)` (RFC 9861 §3.3): x in big-endian bytes with no
/// leading zeros (none at all for x = 0), then their count.
#[inline]
pub(crate) fn length_encode(x: u128) -> Encoded {
    if x == 0 {
        return Encoded { bytes: [0; 17], start: 0, end: 1 };
    }
    right_encode(x)
}

/// A byte length as the bit length that SP 800-185's `encode_string`
/// (§2.3.2) and the L, B inputs use: 8 · len, exact for every `usize`.
#[inline]
pub(crate) fn bits(len: usize) -> u128 {
    (len as u128) * 8
}

#[cfg(test)]
mod tests {
    use super::{left_encode, length_encode, right_encode};

    /// SP 800-185 §2.3.1's definitions, including the 0 case (one byte
    /// 0x00 after or before the count 1), and values past 2^64 (the bit
    /// length of a message over 2 EiB) that need more than 8 bytes.
    #[test]
    fn encodings() {
        assert_eq!(left_encode(0).as_bytes(), [1, 0]);
        assert_eq!(right_encode(0).as_bytes(), [0, 1]);
        assert_eq!(left_encode(168).as_bytes(), [1, 168]);
        assert_eq!(left_encode(256).as_bytes(), [2, 1, 0]);
        assert_eq!(right_encode(256).as_bytes(), [1, 0, 2]);
        // 4 GiB in bits = 2^35: five bytes; a 4 GiB + 1 byte length too.
        assert_eq!(left_encode(8 << 32).as_bytes(), [5, 8, 0, 0, 0, 0]);
        assert_eq!(right_encode(8 * ((1 << 32) + 1)).as_bytes(), [8, 0, 0, 0, 8, 5]);
        assert_eq!(left_encode(u64::MAX as u128 * 8).as_bytes(), [9, 7, 255, 255, 255, 255, 255, 255, 255, 248]);
        assert_eq!(left_encode(u128::MAX).as_bytes()[0], 16);
        assert_eq!(right_encode(u128::MAX).as_bytes()[16], 16);
        // RFC 9861 §3.3's examples: length_encode(0) = 0x00,
        // length_encode(12) = 0x0C 0x01, length_encode(65538) = 0x01 0x00 0x02 0x03.
        assert_eq!(length_encode(0).as_bytes(), [0]);
        assert_eq!(length_encode(12).as_bytes(), [12, 1]);
        assert_eq!(length_encode(65538).as_bytes(), [1, 0, 2, 3]);
        // Beyond 4 GiB leaves (K12 chunk counts are u64).
        assert_eq!(length_encode(1 << 32).as_bytes(), [1, 0, 0, 0, 0, 5]);
    }
}
