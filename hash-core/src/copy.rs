//! Short copies without library calls, for the buffers that the one-shot
//! path and the multi-buffer scheduler gather a message's last blocks in.

/// Copy `src` (shorter than 256 bytes) to the start of `dst` in 16-byte
/// moves, the last one overlapping, without a call to `memcpy`.
///
/// A `copy_from_slice` of a length known only at run time is a call to the
/// C library's `memcpy`, and on CPUs with AVX-512 glibc picks its AVX-512
/// `memcpy`/`memset`. Measured on an Intel Xeon (Sapphire Rapids class),
/// one-shot SHA-256 of 100-byte messages took 98 ns per message on a path
/// with such calls against 74 ns without; with glibc told to avoid AVX-512
/// (`GLIBC_TUNABLES=glibc.cpu.hwcaps=Prefer_No_AVX512`) both took 73-75 ns.
/// MD5, whose rounds use no vector registers at all, lost as much (184
/// against 157 ns), so the cost is not the SHA instructions': it comes
/// with running 512-bit instructions between the rounds.
///
/// # Panics
/// If `src` is 256 bytes or longer, or longer than `dst`.
#[inline(always)]
pub(crate) fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    assert!(n < 256, "copy_short: {n} bytes");
    let dst = &mut dst[..n];
    let mut copy = |at: usize, w: usize| dst[at..at + w].copy_from_slice(&src[at..at + w]);
    if n >= 16 {
        // Conditional moves rather than a loop, which LLVM would turn back
        // into one `memcpy` call; it drops the ones a constant `n` rules out.
        for k in 0..15 {
            if 16 * (k + 1) <= n {
                copy(16 * k, 16);
            }
        }
        copy(n - 16, 16);
    } else if n >= 8 {
        copy(0, 8);
        copy(n - 8, 8);
    } else if n >= 4 {
        copy(0, 4);
        copy(n - 4, 4);
    } else if n >= 2 {
        copy(0, 2);
        copy(n - 2, 2);
    } else if n == 1 {
        copy(0, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::copy_short;

    /// Every length `copy_short` takes, at every offset of the destination:
    /// the bytes land where `copy_from_slice` puts them, and the bytes
    /// around them stay as they were.
    #[test]
    fn copy_short_copies_exactly() {
        let src: [u8; 255] = core::array::from_fn(|i| (i as u8).wrapping_mul(7).wrapping_add(1));
        for n in 0..=255 {
            for at in [0usize, 1, 9, 16] {
                let mut got = [0xeeu8; 300];
                let mut want = [0xeeu8; 300];
                copy_short(&mut got[at..], &src[..n]);
                want[at..at + n].copy_from_slice(&src[..n]);
                assert_eq!(got, want, "{n} bytes at {at}");
            }
        }
    }
}
