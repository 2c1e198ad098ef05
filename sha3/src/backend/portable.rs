//! Portable Keccak-p\[1600, 24\] (FIPS 202 §3.3) and sponge absorption
//! (§4, Algorithm 8 step 6) in safe Rust.
//!
//! The 24 rounds are fully unrolled with constant lane indices, so the state
//! lives in 25 local variables (registers, or stack slots the compiler
//! chooses) rather than an indexed array. Each round works plane by plane
//! (XKCP's "KeccakP-1600-opt64" schedule): θ's column parities and D values
//! are computed first, then for each output plane y the five lanes that π
//! moves there are XORed with D (θ), rotated (ρ) and combined by χ; ι
//! follows on lane (0, 0). π is never a data movement: it is only the choice
//! of which source lanes feed which output plane. Rounds alternate between
//! two sets of 25 locals (`a` → `e` → `a`), so nothing is copied.
//!
//! The same inlined code is compiled a second time, with BMI1/BMI2 enabled,
//! as the `x86` backend (see `x86_keccak.rs`).
#![forbid(unsafe_code)]

use crate::consts::RC;

/// One output plane of a round (FIPS 202 §3.2.1–3.2.4): for each x, the
/// lane π moves to (x, y) is `a[s]` (s = (x + 3y) mod 5 + 5x), XORed with
/// D[(x + 3y) mod 5] (θ) and rotated by its ρ offset; then χ:
/// E[x] = B[x] ⊕ (¬B[x+1] ∧ B[x+2]).
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $y:literal,
     [$s0:literal $d0:literal $r0:literal] [$s1:literal $d1:literal $r1:literal]
     [$s2:literal $d2:literal $r2:literal] [$s3:literal $d3:literal $r3:literal]
     [$s4:literal $d4:literal $r4:literal]) => {
        let b0 = ($a[$s0] ^ $d[$d0]).rotate_left($r0);
        let b1 = ($a[$s1] ^ $d[$d1]).rotate_left($r1);
        let b2 = ($a[$s2] ^ $d[$d2]).rotate_left($r2);
        let b3 = ($a[$s3] ^ $d[$d3]).rotate_left($r3);
        let b4 = ($a[$s4] ^ $d[$d4]).rotate_left($r4);
        $e[5 * $y] = b0 ^ (!b1 & b2);
        $e[5 * $y + 1] = b1 ^ (!b2 & b3);
        $e[5 * $y + 2] = b2 ^ (!b3 & b4);
        $e[5 * $y + 3] = b3 ^ (!b4 & b0);
        $e[5 * $y + 4] = b4 ^ (!b0 & b1);
    };
}

/// One round of Keccak-p\[1600\] from `a` into `e` (FIPS 202 §3.3: ι ∘ χ ∘
/// π ∘ ρ ∘ θ) with round constant `rc`.
///
/// The `[s d r]` triples below are, for each output lane (x, y), the source
/// lane s = (x + 3y) mod 5 + 5x of π (§3.2.3), the θ column (x + 3y) mod 5
/// and the ρ offset of lane s (§3.2.2, Table 2); `consts::RHO` holds the
/// same offsets and is checked against Algorithm 2.
#[inline(always)]
pub(crate) fn round(a: &[u64; 25], e: &mut [u64; 25], rc: u64) {
    // θ (§3.2.1): column parities C[x] and D[x] = C[x-1] ⊕ rot(C[x+1], 1).
    let c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
    let c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
    let c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
    let c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
    let c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
    let d = [
        c4 ^ c1.rotate_left(1),
        c0 ^ c2.rotate_left(1),
        c1 ^ c3.rotate_left(1),
        c2 ^ c4.rotate_left(1),
        c3 ^ c0.rotate_left(1),
    ];
    plane!(a, d, e, 0, [0 0 0] [6 1 44] [12 2 43] [18 3 21] [24 4 14]);
    // ι (§3.2.5).
    e[0] ^= rc;
    plane!(a, d, e, 1, [3 3 28] [9 4 20] [10 0 3] [16 1 45] [22 2 61]);
    plane!(a, d, e, 2, [1 1 1] [7 2 6] [13 3 25] [19 4 8] [20 0 18]);
    plane!(a, d, e, 3, [4 4 27] [5 0 36] [11 1 10] [17 2 15] [23 3 56]);
    plane!(a, d, e, 4, [2 2 62] [8 3 55] [14 4 39] [15 0 41] [21 1 2]);
}

/// Keccak-p\[1600, 24\] = Keccak-f\[1600\] (FIPS 202 §3.3, §3.4), inlined
/// into its caller so that the caller's target features apply.
#[inline(always)]
pub(crate) fn keccak_p(state: &mut [u64; 25]) {
    let mut a = *state;
    let mut e = [0u64; 25];
    macro_rules! two_rounds {
        ($($i:literal)*) => {
            $(
                round(&a, &mut e, RC[$i]);
                round(&e, &mut a, RC[$i + 1]);
            )*
        };
    }
    two_rounds!(0 2 4 6 8 10 12 14 16 18 20 22);
    *state = a;
}

/// XOR one rate-sized block into the first `rate / 8` lanes, read as
/// little-endian 64-bit words (FIPS 202 §4 step 6, with the bit and byte
/// order of §B.1).
#[inline(always)]
pub(crate) fn xor_block(state: &mut [u64; 25], block: &[u8]) {
    for (lane, bytes) in state.iter_mut().zip(block.chunks_exact(8)) {
        let mut word = [0u8; 8];
        word.copy_from_slice(bytes);
        *lane ^= u64::from_le_bytes(word);
    }
}

/// Absorb every block: XOR it into the state, then permute (FIPS 202 §4
/// Algorithm 8 step 6). Inlined so that the caller's target features apply.
/// `RATE` is the block size in bytes, a multiple of 8 below 200.
#[inline(always)]
pub(crate) fn absorb_inline<const RATE: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    for block in blocks {
        xor_block(state, &block.as_ref()[..RATE]);
        keccak_p(state);
    }
}

/// Absorb `blocks` (of `RATE` bytes each) into `state`.
pub(crate) fn absorb<const RATE: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    absorb_inline::<RATE, B>(state, blocks);
}

/// Apply Keccak-p\[1600, 24\] once.
pub(crate) fn permute(state: &mut [u64; 25]) {
    keccak_p(state);
}
