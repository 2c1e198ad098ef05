//! Padding: the final block or two of a message (FIPS 180-4 §5.1, RFC 1321
//! §3.1–3.2, FIPS 202 §5.1), built three ways for the three paths that
//! finish a message:
//!
//! * [`pad`], through the streaming hashers' block buffer (`Hasher`,
//!   `Xof`);
//! * [`pad_tail`], straight into the end of a stack buffer, without library
//!   calls: the one-shot path (`fixed::digest_with`) and the multi-buffer
//!   scheduler (`multi`) run it once per message;
//! * [`padded_rows`], as 16-byte rows that a SIMD backend takes straight
//!   into registers.
//!
//! Nothing here depends on the hashing paths that use it.

use block_buffer::EagerBuffer;
use generic_array::typenum::{IsLess, True, U256};
use generic_array::{ArrayLength, GenericArray};

use crate::copy::copy_short;

/// How the final block is padded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// Merkle–Damgård: `0x80`, zeros, then the message length in bits as a
    /// 64-bit big-endian integer (SHA-1, SHA-224, SHA-256: FIPS 180-4 §5.1.1).
    Be64,
    /// As [`Padding::Be64`] but little-endian (MD5: RFC 1321 §3.1–3.2).
    Le64,
    /// `0x80`, zeros, then a 128-bit big-endian bit length (SHA-384,
    /// SHA-512, SHA-512/t: FIPS 180-4 §5.1.2).
    Be128,
    /// The sponge's multi-rate padding `pad10*1` (FIPS 202 §5.1), with the
    /// domain-separation bits given as the first padding byte: `0x06` for
    /// SHA-3 (suffix `01`), `0x1f` for SHAKE (suffix `1111`), `0x01` for the
    /// original Keccak submission.
    Keccak(u8),
}

/// The bytes of the length field that Merkle–Damgård padding ends with
/// (none for Keccak): what the padding adds after the message at least,
/// besides the `0x80` byte.
#[inline(always)]
pub(crate) const fn length_field(padding: Padding) -> usize {
    match padding {
        Padding::Keccak(_) => 0,
        Padding::Be128 => 16,
        Padding::Be64 | Padding::Le64 => 8,
    }
}

/// The length of the padded tail [`pad_tail`] makes from a last partial
/// block of `n` bytes: one block, or two when the padding byte and the
/// length field do not fit after the `n` bytes (Keccak's `pad10*1` always
/// fits in one, as `n < bs`).
#[inline]
pub(crate) fn tail_len(padding: Padding, bs: usize, n: usize) -> usize {
    if matches!(padding, Padding::Keccak(_)) || n + 1 + length_field(padding) <= bs { bs } else { 2 * bs }
}

/// Pad the message whose last `buffer.get_pos()` bytes sit in `buffer` and
/// whose total length is `bytes`, handing each final block (one or two) to
/// `emit`. The buffer is left empty.
#[inline]
pub(crate) fn pad<N: ArrayLength<u8> + IsLess<U256, Output = True>>(
    padding: Padding,
    buffer: &mut EagerBuffer<N>,
    bytes: u128,
    mut emit: impl FnMut(&GenericArray<u8, N>),
) {
    let bits = bytes.wrapping_mul(8);
    match padding {
        // The length fields are defined modulo 2^64 (RFC 1321 §3.2); FIPS
        // 180-4 limits messages to below 2^64 bits for these algorithms.
        Padding::Be64 => buffer.len64_padding_be(bits as u64, emit),
        Padding::Le64 => buffer.len64_padding_le(bits as u64, emit),
        Padding::Be128 => buffer.len128_padding_be(bits, emit),
        // `pad10*1` with the domain bits in the first padding byte (FIPS
        // 202 §5.1, §B.2).
        Padding::Keccak(domain) => {
            let pos = buffer.get_pos();
            let block = buffer.pad_with_zeros();
            block[pos] ^= domain;
            block[N::USIZE - 1] ^= 0x80;
            emit(block);
        }
    }
}

/// The final padded block of a message of `total` bytes whose last
/// `data.len()` bytes (after its whole blocks) fit in one block together
/// with the padding (`data.len() + 1 + length field <= 16 * R`), as `R`
/// rows of 16 bytes, each row the little-endian number its bytes spell:
/// those bytes, `0x80`, zeros, and the bit length (FIPS 180-4 §5.1.1 and §5.1.2 for
/// [`Padding::Be64`] and [`Padding::Be128`], RFC 1321 §3.1–3.2 for
/// [`Padding::Le64`]).
///
/// The rows are built from loads of `data` alone (whole rows, and the last
/// partial row as an overlapping load shifted into place), so a SIMD
/// backend takes them straight into registers. A padded copy in memory,
/// written byte by byte, would make the block's 16-byte loads wait for
/// those stores to retire (they cannot be forwarded); for a one-block
/// message that wait sits in front of every round.
///
/// # Panics
/// If the message and its padding do not fit in `R` rows, or for
/// [`Padding::Keccak`].
#[inline(always)]
pub fn padded_rows<const R: usize>(padding: Padding, data: &[u8], total: u128) -> [u128; R] {
    let len = data.len();
    let bits = total.wrapping_mul(8);
    let (length_bytes, field) = match padding {
        // The 64-bit fields hold the bit length modulo 2^64.
        Padding::Be64 => (8, u128::from((bits as u64).swap_bytes()) << 64),
        Padding::Le64 => (8, u128::from(bits as u64) << 64),
        Padding::Be128 => (16, bits.swap_bytes()),
        Padding::Keccak(_) => (usize::MAX / 2, 0),
    };
    assert!(len + 1 + length_bytes <= 16 * R, "padded_rows: the message and its padding do not fit in one block");
    let mut rows = [0u128; R];
    for (r, row) in rows.iter_mut().enumerate() {
        let start = 16 * r;
        if len >= start + 16 {
            *row = load16(data, start);
        } else if len >= start {
            let k = len - start;
            // The k message bytes of this row, then 0x80.
            let part = match k {
                0 => 0,
                _ if len >= 16 => load16(data, len - 16) >> (8 * (16 - k)),
                _ => load_short(data),
            };
            *row = part | 0x80 << (8 * k);
        }
    }
    rows[R - 1] |= field;
    rows
}

/// Bytes `at .. at + 16` of `data` as a little-endian number.
#[inline(always)]
fn load16(data: &[u8], at: usize) -> u128 {
    let (row, _) = data[at..].split_first_chunk::<16>().unwrap_or((&[0; 16], &[]));
    u128::from_le_bytes(*row)
}

/// `data` (shorter than 16 bytes) as a little-endian number, from two
/// overlapping loads of the widest size that fits.
#[inline(always)]
fn load_short(data: &[u8]) -> u128 {
    fn le<const W: usize>(data: &[u8], at: usize) -> u128 {
        let (bytes, _) = data[at..].split_first_chunk::<W>().unwrap_or((&[0; W], &[]));
        bytes.iter().rev().fold(0, |v, &b| v << 8 | u128::from(b))
    }
    let n = data.len();
    match n {
        8.. => le::<8>(data, 0) | le::<8>(data, n - 8) << (8 * (n - 8)),
        4.. => le::<4>(data, 0) | le::<4>(data, n - 4) << (8 * (n - 4)),
        2.. => le::<2>(data, 0) | le::<2>(data, n - 2) << (8 * (n - 2)),
        1 => u128::from(data[0]),
        0 => 0,
    }
}

/// Write the padded tail of a message of `total` bytes whose last partial
/// block is `rest` at the end of `tail`, and return where it starts (it is
/// one or two blocks of `bs` bytes): `rest`, `0x80`, zeros and the bit
/// length for Merkle–Damgård (RFC 1321 §3.1–3.2, FIPS 180-4 §5.1.1–5.1.2),
/// `rest` then `pad10*1` with the domain bits in the first padding byte for
/// Keccak (FIPS 202 §5.1, §B.2). The same blocks as [`pad`] (which
/// the streaming `Hasher` uses) makes, written straight into a lane's (or
/// the one-shot path's) buffer instead of through a block buffer, without
/// library calls: this runs once per message. Always inlined, so that `bs`
/// and the buffer's length are constants and the fills below stay inline.
#[inline(always)]
pub(crate) fn pad_tail(padding: Padding, bs: usize, rest: &[u8], total: u128, tail: &mut [u8]) -> usize {
    let cap = tail.len();
    let n = rest.len();
    let bits = total.wrapping_mul(8);
    if let Padding::Keccak(domain) = padding {
        let block = &mut tail[cap - bs..];
        block.fill(0);
        copy_short(block, rest);
        block[n] ^= domain;
        block[bs - 1] ^= 0x80;
        return cap - bs;
    }
    let field = length_field(padding);
    let len = tail_len(padding, bs, n);
    // Zero whole blocks first: fills of a fixed size (`bs` and the buffer's
    // length are constants once inlined) are a few vector stores, not a call.
    if len == bs {
        tail[cap - bs..].fill(0);
    } else {
        tail[cap - 2 * bs..].fill(0);
    }
    let padded = &mut tail[cap - len..];
    copy_short(padded, rest);
    padded[n] = 0x80;
    let end = &mut padded[len - field..];
    match padding {
        // The length fields are defined modulo 2^64 (RFC 1321 §3.2); FIPS
        // 180-4 limits messages to below 2^64 bits for these algorithms.
        Padding::Le64 => end.copy_from_slice(&(bits as u64).to_le_bytes()),
        Padding::Be64 => end.copy_from_slice(&(bits as u64).to_be_bytes()),
        _ => end.copy_from_slice(&bits.to_be_bytes()),
    }
    cap - len
}

#[cfg(test)]
mod tests {
    use super::*;
    use generic_array::typenum::{self, U64, U128};
    use std::vec::Vec;

    /// The padded block `pad` writes, as little-endian rows.
    fn rows_via_buffer<N: generic_array::ArrayLength<u8> + typenum::IsLess<typenum::U256, Output = typenum::True>>(
        padding: Padding,
        tail: &[u8],
        total: u128,
    ) -> Vec<u128> {
        let mut buffer = EagerBuffer::<N>::new(tail);
        let mut blocks = Vec::new();
        let bits = total.wrapping_mul(8);
        match padding {
            Padding::Be64 => buffer.len64_padding_be(bits as u64, |b| blocks.push(b.to_vec())),
            Padding::Le64 => buffer.len64_padding_le(bits as u64, |b| blocks.push(b.to_vec())),
            Padding::Be128 => buffer.len128_padding_be(bits, |b| blocks.push(b.to_vec())),
            Padding::Keccak(_) => unreachable!(),
        }
        assert_eq!(blocks.len(), 1);
        blocks[0].chunks(16).map(|r| u128::from_le_bytes(r.try_into().unwrap())).collect()
    }

    #[test]
    fn padded_rows_match_the_buffer() {
        let data: Vec<u8> = (0..128u32).map(|i| (i * 37 + 11) as u8).collect();
        for total_extra in [0u128, 64 * 3, 1 << 61, u128::MAX / 1024 * 128] {
            for len in 0..56 {
                for padding in [Padding::Be64, Padding::Le64] {
                    let total = total_extra + len as u128;
                    let want = rows_via_buffer::<U64>(padding, &data[..len], total);
                    assert_eq!(
                        padded_rows::<4>(padding, &data[..len], total).to_vec(),
                        want,
                        "{padding:?} {len} {total}"
                    );
                }
            }
            for len in 0..112 {
                let total = total_extra + len as u128;
                let want = rows_via_buffer::<U128>(Padding::Be128, &data[..len], total);
                assert_eq!(padded_rows::<8>(Padding::Be128, &data[..len], total).to_vec(), want, "Be128 {len} {total}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "do not fit")]
    fn padded_rows_refuse_a_tail_too_long() {
        let _ = padded_rows::<4>(Padding::Be64, &[0; 56], 56);
    }
}
