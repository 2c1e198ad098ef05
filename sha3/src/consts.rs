//! Constants of Keccak-p\[1600, 24\] (FIPS 202 §3.2), precomputed.
//!
//! Both tables are recomputed from their defining algorithms in the unit
//! tests below (the ρ offsets from §3.2.2 Algorithm 2, the ι constants from
//! §3.2.5 Algorithms 5 and 6).

/// The ι round constants RC\[i\] for rounds i = 0..23 (FIPS 202 §3.2.5).
pub(crate) const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808a,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808b,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008a,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000a,
    0x0000_0000_8000_808b,
    0x8000_0000_0000_008b,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800a,
    0x8000_0000_8000_000a,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// The ρ rotation offsets (FIPS 202 §3.2.2, Table 2), indexed by lane
/// `x + 5 * y`. The `Aarch64` backend folds part of them into χ's
/// instructions (`aarch64_keccak`), the one-state AVX-512 code into its
/// rotation vectors (`x86_avx512_1x`).
#[cfg(any(test, all(target_arch = "aarch64", feature = "aarch64"), all(target_arch = "x86_64", feature = "avx512")))]
pub(crate) const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, //
    36, 44, 6, 55, 20, //
    3, 10, 43, 25, 39, //
    41, 45, 15, 21, 8, //
    18, 2, 61, 56, 14,
];

#[cfg(test)]
mod tests {
    use super::{RC, RHO};

    /// FIPS 202 §3.2.2 Algorithm 2: walk (x, y) from (1, 0) through
    /// (y, (2x + 3y) mod 5), the t-th lane rotating by (t + 1)(t + 2)/2.
    #[test]
    fn rho_offsets_follow_algorithm_2() {
        let mut want = [0u32; 25];
        let (mut x, mut y) = (1usize, 0usize);
        for t in 0..24u32 {
            want[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
            (x, y) = (y, (2 * x + 3 * y) % 5);
        }
        assert_eq!(RHO, want);
    }

    /// FIPS 202 §3.2.5 Algorithm 5: rc(t), the output of an LFSR over
    /// GF(2) with polynomial x^8 + x^6 + x^5 + x^4 + 1.
    fn rc_bit(t: usize) -> u64 {
        if t.is_multiple_of(255) {
            return 1;
        }
        let mut r: [u8; 9] = [1, 0, 0, 0, 0, 0, 0, 0, 0];
        for _ in 1..=t % 255 {
            // Step 3a: R = 0 || R, then steps 3b-3f on bits 0, 4, 5, 6.
            r.copy_within(0..8, 1);
            r[0] = 0;
            r[0] ^= r[8];
            r[4] ^= r[8];
            r[5] ^= r[8];
            r[6] ^= r[8];
        }
        u64::from(r[0])
    }

    /// Algorithm 6: RC[i] has bit 2^j - 1 equal to rc(j + 7 i), j = 0..6.
    #[test]
    fn round_constants_follow_algorithm_6() {
        for (i, &rc) in RC.iter().enumerate() {
            let mut want = 0u64;
            for j in 0..=6 {
                want |= rc_bit(j + 7 * i) << ((1 << j) - 1);
            }
            assert_eq!(rc, want, "RC[{i}]");
        }
    }
}
