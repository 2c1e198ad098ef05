//! Constants of FIPS 180-4 for SHA-1.

/// SHA-1 round constants, one per group of twenty rounds (FIPS 180-4
/// §4.2.1): K[t / 20].
pub(crate) const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/// SHA-1 initial hash value H(0) (FIPS 180-4 §5.3.1).
pub(crate) const H0: [u32; 5] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
