//! Constants of FIPS 180-4.

/// SHA-224 and SHA-256 round constants: the first 32 bits of the fractional
/// parts of the cube roots of the first 64 primes (FIPS 180-4 §4.2.2).
pub(crate) const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

/// SHA-256 initial hash value (FIPS 180-4 §5.3.3).
pub(crate) const H256: [u32; 8] =
    [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/// SHA-224 initial hash value (FIPS 180-4 §5.3.2).
pub(crate) const H224: [u32; 8] =
    [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4];

/// `W[t] + K[t]` for every round of the block that pads a 64-byte message
/// (FIPS 180-4 §5.1.1: the byte 0x80, zeros, then the length 512 in bits).
/// The block is the same for every such message, so its whole schedule is
/// a constant: a pair's second block computes no schedule and adds no
/// round constants (the SHA-NI, 16-lane and Arm pair engines).
#[cfg(any(
    all(target_arch = "x86_64", any(feature = "shani", feature = "avx2", feature = "avx512")),
    all(target_arch = "aarch64", feature = "arm-sha")
))]
pub(crate) const PAD64_WK: [u32; 64] = padding_wk(0x8000_0000, 512);

/// The same for a 56-byte message (a pair of SHA-224's 28-byte nodes):
/// 0x80 and seven zeros end its own block, which leaves no room for the
/// length, so the second block is zeros and the length 448 in bits.
#[cfg(any(
    all(target_arch = "x86_64", any(feature = "shani", feature = "avx512")),
    all(target_arch = "aarch64", feature = "arm-sha")
))]
pub(crate) const PAD56_WK: [u32; 64] = padding_wk(0, 448);

/// `W[t] + K[t]` of a block whose first word is `w0`, last word `bits` and
/// other words zero (the schedule of §6.2.2 step 1).
#[cfg(any(
    all(target_arch = "x86_64", any(feature = "shani", feature = "avx2", feature = "avx512")),
    all(target_arch = "aarch64", feature = "arm-sha")
))]
const fn padding_wk(w0: u32, bits: u32) -> [u32; 64] {
    let mut w = [0u32; 64];
    w[0] = w0;
    w[15] = bits;
    let mut t = 16;
    while t < 64 {
        let (a, b) = (w[t - 15], w[t - 2]);
        let s0 = a.rotate_right(7) ^ a.rotate_right(18) ^ (a >> 3);
        let s1 = b.rotate_right(17) ^ b.rotate_right(19) ^ (b >> 10);
        w[t] = s1.wrapping_add(w[t - 7]).wrapping_add(s0).wrapping_add(w[t - 16]);
        t += 1;
    }
    let mut t = 0;
    while t < 64 {
        w[t] = w[t].wrapping_add(K[t]);
        t += 1;
    }
    w
}
