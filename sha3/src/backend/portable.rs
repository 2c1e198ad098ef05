//! Portable Keccak-p\[1600, n_r\] (FIPS 202 §3.3) and sponge absorption
//! (§4, Algorithm 8 step 6) in safe Rust, for n_r = `ROUNDS` = 24 (SHA-3,
//! SHAKE, cSHAKE) or 12 (TurboSHAKE, KangarooTwelve: RFC 9861 §2.1).
//!
//! Keccak-p\[1600, n_r\] runs the *last* n_r rounds of the 24, i.e. round
//! indices 24 - n_r ..= 23 with their ι constants (FIPS 202 §3.3), which is
//! [`round_constants`].
//!
//! Each round is written out in full with constant lane indices, so the
//! state lives in 25 local variables (registers, or stack slots the compiler
//! chooses) rather than an indexed array. A round works plane by plane
//! (XKCP's "KeccakP-1600-opt64" schedule): θ's column parities and D values
//! are computed first, then for each output plane y the five lanes that π
//! moves there are XORed with D (θ), rotated (ρ) and combined by χ; ι
//! follows on lane (0, 0). π is never a data movement: it is only the choice
//! of which source lanes feed which output plane. Rounds alternate between
//! two sets of 25 locals (`a` → `e` → `a`), so nothing is copied.
//!
//! The 24 rounds run as 12 passes of a two-round body. Unrolling all 24
//! (about 19 KB of code) measured between 5% faster and 2x slower on Zen 3
//! depending on where the code landed (it no longer fits the op cache);
//! the two-round loop (about 1.6 KB) measures the same every build.
//! On wasm the loop body is one round (`a` → `e`, then `a = e`): V8's JIT
//! compiles the smaller body better (SHA3-256 in Node 20 on Zen 3: 1.11-1.16x
//! RustCrypto's sha3 0.10 from 16 B to 16 KiB, against 0.95-0.99x with two
//! rounds a pass and 0.85-0.93x with four).
//!
//! The portable backend uses the lane-complementing transform
//! ([`round_lc`]), which removes 20 of χ's 25 NOTs per round on targets
//! without an and-not instruction. The spec-form round ([`round`]) is
//! compiled a second time, with BMI1 and BMI2 enabled, as the `x86`
//! backend (see `x86_keccak.rs`), where χ's and-not is a single `andn`.
#![forbid(unsafe_code)]

use crate::consts::RC;

/// θ's D values (FIPS 202 §3.2.1): the column parities
/// C\[x\] = ⊕_y A\[x, y\] and D\[x\] = C\[x-1\] ⊕ rot(C\[x+1\], 1).
#[inline(always)]
fn theta_d(a: &[u64; 25]) -> [u64; 5] {
    let c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
    let c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
    let c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
    let c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
    let c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
    [
        c4 ^ c1.rotate_left(1),
        c0 ^ c2.rotate_left(1),
        c1 ^ c3.rotate_left(1),
        c2 ^ c4.rotate_left(1),
        c3 ^ c0.rotate_left(1),
    ]
}

/// The five lanes B\[0..5\] that π (§3.2.3) moves into one output plane y,
/// each XORed with its D (θ) and rotated by its ρ offset (§3.2.2).
///
/// Each `[s d r]` triple names, for output lane (x, y), the source lane
/// s = (x + 3y) mod 5 + 5x, its θ column (x + 3y) mod 5 and the ρ offset of
/// lane s (Table 2; `consts::RHO` holds the same offsets and is checked
/// against Algorithm 2).
macro_rules! rho_pi {
    ($a:ident, $d:ident, [$s0:literal $d0:literal $r0:literal] [$s1:literal $d1:literal $r1:literal]
     [$s2:literal $d2:literal $r2:literal] [$s3:literal $d3:literal $r3:literal]
     [$s4:literal $d4:literal $r4:literal]) => {
        (
            ($a[$s0] ^ $d[$d0]).rotate_left($r0),
            ($a[$s1] ^ $d[$d1]).rotate_left($r1),
            ($a[$s2] ^ $d[$d2]).rotate_left($r2),
            ($a[$s3] ^ $d[$d3]).rotate_left($r3),
            ($a[$s4] ^ $d[$d4]).rotate_left($r4),
        )
    };
}

/// The source lanes of the five output planes, in `rho_pi!`'s notation.
#[cfg(any(test, all(target_arch = "x86_64", feature = "x86")))]
macro_rules! planes {
    ($m:ident) => {
        $m!(0, [0 0 0] [6 1 44] [12 2 43] [18 3 21] [24 4 14]);
        $m!(1, [3 3 28] [9 4 20] [10 0 3] [16 1 45] [22 2 61]);
        $m!(2, [1 1 1] [7 2 6] [13 3 25] [19 4 8] [20 0 18]);
        $m!(3, [4 4 27] [5 0 36] [11 1 10] [17 2 15] [23 3 56]);
        $m!(4, [2 2 62] [8 3 55] [14 4 39] [15 0 41] [21 1 2]);
    };
}

/// One round of Keccak-p\[1600\] from `a` into `e` (FIPS 202 §3.3: ι ∘ χ ∘
/// π ∘ ρ ∘ θ) with round constant `rc`, as written in the spec: χ is
/// E\[x\] = B\[x\] ⊕ (¬B\[x+1\] ∧ B\[x+2\]) (§3.2.4), one `andn` per lane where
/// the target has BMI1. Used by the `x86` backend.
#[cfg(any(test, all(target_arch = "x86_64", feature = "x86")))]
#[inline(always)]
pub(crate) fn round(a: &[u64; 25], e: &mut [u64; 25], rc: u64) {
    let d = theta_d(a);
    macro_rules! chi {
        ($y:literal, $($t:tt)*) => {
            let (b0, b1, b2, b3, b4) = rho_pi!(a, d, $($t)*);
            e[5 * $y] = b0 ^ (!b1 & b2);
            e[5 * $y + 1] = b1 ^ (!b2 & b3);
            e[5 * $y + 2] = b2 ^ (!b3 & b4);
            e[5 * $y + 3] = b3 ^ (!b4 & b0);
            e[5 * $y + 4] = b4 ^ (!b0 & b1);
        };
    }
    planes!(chi);
    // ι (§3.2.5).
    e[0] ^= rc;
}

/// The lanes that [`round_lc`] keeps complemented, by index x + 5y: (1, 0),
/// (2, 0), (3, 1), (2, 2), (2, 3) and (0, 4), the set given by the Keccak
/// team's implementation overview (§2.2, "lane complementing transform").
const COMPLEMENTED: [usize; 6] = [1, 2, 8, 12, 17, 20];

/// One round on a state whose [`COMPLEMENTED`] lanes are stored inverted,
/// producing a state stored the same way.
///
/// θ, ρ and π commute with complementing (a lane's complement only flips
/// which D values and B lanes come out inverted), and with those known
/// polarities each χ output can use ¬b ∧ c = b ∧ c when b is stored
/// inverted, or ¬(b ∨ c) when c is, choosing per lane so that the output
/// lands with the polarity the next round expects. That needs one NOT per
/// plane instead of five: 5 per round instead of 25 on targets without an
/// and-not instruction. (The formulas below were derived from the polarity
/// table of each plane and are checked, like every backend, against the
/// spec examples and the `x86` backend's plain χ.)
#[inline(always)]
fn round_lc(a: &[u64; 25], e: &mut [u64; 25], rc: u64) {
    let d = theta_d(a);
    let (b0, b1, b2, b3, b4) = rho_pi!(a, d, [0 0 0] [6 1 44] [12 2 43] [18 3 21] [24 4 14]);
    let n2 = !b2;
    e[0] = b0 ^ (b1 | b2) ^ rc;
    e[1] = b1 ^ (n2 | b3);
    e[2] = b2 ^ (b3 & b4);
    e[3] = b3 ^ (b4 | b0);
    e[4] = b4 ^ (b0 & b1);
    let (b0, b1, b2, b3, b4) = rho_pi!(a, d, [3 3 28] [9 4 20] [10 0 3] [16 1 45] [22 2 61]);
    let n4 = !b4;
    e[5] = b0 ^ (b1 | b2);
    e[6] = b1 ^ (b2 & b3);
    e[7] = b2 ^ (b3 | n4);
    e[8] = b3 ^ (b4 | b0);
    e[9] = b4 ^ (b0 & b1);
    let (b0, b1, b2, b3, b4) = rho_pi!(a, d, [1 1 1] [7 2 6] [13 3 25] [19 4 8] [20 0 18]);
    let n3 = !b3;
    e[10] = b0 ^ (b1 | b2);
    e[11] = b1 ^ (b2 & b3);
    e[12] = b2 ^ (n3 & b4);
    e[13] = n3 ^ (b4 | b0);
    e[14] = b4 ^ (b0 & b1);
    let (b0, b1, b2, b3, b4) = rho_pi!(a, d, [4 4 27] [5 0 36] [11 1 10] [17 2 15] [23 3 56]);
    let n3 = !b3;
    e[15] = b0 ^ (b1 & b2);
    e[16] = b1 ^ (b2 | b3);
    e[17] = b2 ^ (n3 | b4);
    e[18] = n3 ^ (b4 & b0);
    e[19] = b4 ^ (b0 | b1);
    let (b0, b1, b2, b3, b4) = rho_pi!(a, d, [2 2 62] [8 3 55] [14 4 39] [15 0 41] [21 1 2]);
    let n1 = !b1;
    e[20] = b0 ^ (n1 & b2);
    e[21] = n1 ^ (b2 | b3);
    e[22] = b2 ^ (b3 & b4);
    e[23] = b3 ^ (b4 | b0);
    e[24] = b4 ^ (b0 & b1);
}

/// The ι constants of Keccak-p\[1600, `ROUNDS`\]: the last `ROUNDS` of
/// the 24 (FIPS 202 §3.3, round indices 24 - n_r to 23). `ROUNDS` must be
/// even (the rounds run in pairs) and at most 24; other values fail to
/// compile.
#[inline(always)]
pub(crate) fn round_constants<const ROUNDS: usize>() -> &'static [u64] {
    const { assert!(ROUNDS > 0 && ROUNDS <= 24 && ROUNDS.is_multiple_of(2), "Keccak-p rounds: an even number in 2..=24") };
    &RC[24 - ROUNDS..]
}

/// Keccak-p\[1600, `ROUNDS`\] (FIPS 202 §3.3; with 24 rounds Keccak-f\[1600\],
/// §3.4) with the spec's χ, inlined into its caller so that the caller's
/// target features apply (the `x86` backend). Two rounds per pass.
#[cfg(any(test, all(target_arch = "x86_64", feature = "x86")))]
#[inline(always)]
pub(crate) fn keccak_p<const ROUNDS: usize>(state: &mut [u64; 25]) {
    let mut a = *state;
    let mut e = [0u64; 25];
    for pair in round_constants::<ROUNDS>().chunks_exact(2) {
        round(&a, &mut e, pair[0]);
        round(&e, &mut a, pair[1]);
    }
    *state = a;
}

/// Keccak-p\[1600, `ROUNDS`\] with the lane-complementing transform:
/// complement the [`COMPLEMENTED`] lanes, run the [`round_lc`]s, complement
/// them back.
#[inline(always)]
fn keccak_p_lc<const ROUNDS: usize>(state: &mut [u64; 25]) {
    complement(state);
    rounds_lc::<ROUNDS>(state);
    complement(state);
}

/// Complement the [`COMPLEMENTED`] lanes (the transform and its inverse).
#[inline(always)]
fn complement(state: &mut [u64; 25]) {
    for i in COMPLEMENTED {
        state[i] = !state[i];
    }
}

/// The [`round_lc`]s of Keccak-p\[1600, `ROUNDS`\] on a lane-complemented
/// state.
#[inline(always)]
fn rounds_lc<const ROUNDS: usize>(state: &mut [u64; 25]) {
    let mut a = *state;
    let mut e = [0u64; 25];
    #[cfg(not(target_family = "wasm"))]
    for pair in round_constants::<ROUNDS>().chunks_exact(2) {
        round_lc(&a, &mut e, pair[0]);
        round_lc(&e, &mut a, pair[1]);
    }
    // wasm: one round per pass.
    #[cfg(target_family = "wasm")]
    for &rc in round_constants::<ROUNDS>() {
        round_lc(&a, &mut e, rc);
        a = e;
    }
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

/// Absorb `blocks` (of `RATE` bytes each) into `state`, with the
/// lane-complemented rounds of Keccak-p\[1600, `ROUNDS`\].
///
/// With 12 rounds (TurboSHAKE, KangarooTwelve) the permutation is inlined
/// here and the state stays lane-complemented from the first block to the
/// last (a message block XORed into a complemented lane gives the
/// complement of the plain XOR); with 24 it is called (see [`permute`]).
/// With half the rounds the call, the state's copy and the complementing
/// weigh twice as much: TurboSHAKE128's absorbing ran 2-3% slower through
/// the call than before it (`cargo xtask bench-ab`, 8 KiB, Intel Xeon
/// model 207); the SHA-3 functions, which instantiate this for more rates
/// and block types, keep the shorter compile time.
pub(crate) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    if ROUNDS == 12 {
        complement(state);
        for block in blocks {
            xor_block(state, &block.as_ref()[..RATE]);
            rounds_lc::<12>(state);
        }
        complement(state);
        return;
    }
    for block in blocks {
        xor_block(state, &block.as_ref()[..RATE]);
        permute::<ROUNDS>(state);
    }
}

/// Apply Keccak-p\[1600, `ROUNDS`\] once, with the lane-complemented rounds.
///
/// The two round counts this crate uses go through a non-generic function
/// each, compiled once in this crate, rather than once for every rate and
/// block type in every crate that instantiates [`absorb`] (the permutation
/// is about 1.6 KB of code): `cargo test -p sha3 --no-run` took half the
/// CPU time. The price is a call and the state's copy per block: 1.3% more
/// instructions for SHA3-256 (callgrind, 8 KiB and 64 B messages).
#[inline]
pub(crate) fn permute<const ROUNDS: usize>(state: &mut [u64; 25]) {
    match ROUNDS {
        24 => keccak_f1600_lc(state),
        12 => keccak_p1600_12_lc(state),
        _ => keccak_p_lc::<ROUNDS>(state),
    }
}

/// Keccak-f\[1600\] (24 rounds), lane-complemented.
fn keccak_f1600_lc(state: &mut [u64; 25]) {
    keccak_p_lc::<24>(state);
}

/// Keccak-p\[1600, 12\] (TurboSHAKE, KangarooTwelve), lane-complemented.
fn keccak_p1600_12_lc(state: &mut [u64; 25]) {
    keccak_p_lc::<12>(state);
}

#[cfg(test)]
mod tests {
    use super::{keccak_p, keccak_p_lc};
    use crate::consts::{RC, RHO};

    /// Keccak-p\[1600, 24\] written straight from FIPS 202 §3.2
    /// (Algorithms 1-6 on A\[x, y\], lane index x + 5y), loops and all: an
    /// independent check of the unrolled rounds' lane and offset tables.
    fn spec_permutation(a: &mut [u64; 25], rounds: usize) {
        for &rc in &RC[24 - rounds..] {
            // θ (Algorithm 1).
            let c: [u64; 5] = core::array::from_fn(|x| (0..5).fold(0, |acc, y| acc ^ a[x + 5 * y]));
            for x in 0..5 {
                let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
                for y in 0..5 {
                    a[x + 5 * y] ^= d;
                }
            }
            // ρ (Algorithm 2, offsets in Table 2) and π (Algorithm 3):
            // A'[x, y] = A[(x + 3y) mod 5, x].
            let rho: [u64; 25] = core::array::from_fn(|i| a[i].rotate_left(RHO[i]));
            let pi: [u64; 25] = core::array::from_fn(|i| {
                let (x, y) = (i % 5, i / 5);
                rho[(x + 3 * y) % 5 + 5 * x]
            });
            // χ (Algorithm 4).
            for i in 0..25 {
                let (x, y) = (i % 5, i / 5);
                a[i] = pi[i] ^ (!pi[(x + 1) % 5 + 5 * y] & pi[(x + 2) % 5 + 5 * y]);
            }
            // ι (Algorithms 5-6).
            a[0] ^= rc;
        }
    }

    /// The spec-form rounds (the `x86` backend's code, here compiled
    /// without BMI) and the lane-complemented rounds (the portable
    /// backend's) both equal the loop-by-loop spec permutation, on the zero
    /// state and on pseudo-random states.
    #[test]
    fn unrolled_rounds_match_the_spec() {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        let mut next = || {
            // xorshift64
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for trial in 0..64 {
            let start: [u64; 25] = if trial == 0 { [0; 25] } else { core::array::from_fn(|_| next()) };
            let mut want = start;
            spec_permutation(&mut want, 24);
            let (mut plain, mut complemented) = (start, start);
            keccak_p::<24>(&mut plain);
            keccak_p_lc::<24>(&mut complemented);
            assert_eq!(plain, want, "spec-form rounds, trial {trial}");
            assert_eq!(complemented, want, "lane-complemented rounds, trial {trial}");
            // Keccak-p[1600, 12] (TurboSHAKE, K12): the last 12 rounds.
            let mut want = start;
            spec_permutation(&mut want, 12);
            let (mut plain, mut complemented) = (start, start);
            keccak_p::<12>(&mut plain);
            keccak_p_lc::<12>(&mut complemented);
            assert_eq!(plain, want, "12 spec-form rounds, trial {trial}");
            assert_eq!(complemented, want, "12 lane-complemented rounds, trial {trial}");
        }
    }
}
