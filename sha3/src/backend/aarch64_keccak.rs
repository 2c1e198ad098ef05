//! Scalar Keccak-p\[1600, n_r\] tuned for aarch64 (FIPS 202 §3.3), the
//! `Aarch64` backend, with *lazy rotations*.
//!
//! A64 logical instructions take their second source through a free shift,
//! rotations included: `eor x0, x1, x2, ror #k` is x1 ⊕ (x2 ⋙ k), and
//! `bic x0, x1, x2, ror #k` is x1 ∧ ¬(x2 ⋙ k). So no lane is ever rotated on
//! its own: each stored lane s carries a *pending* rotation p, known at
//! compile time, and stands for the true lane s ⋘ p. Every XOR and and-not
//! of the round then aligns its second operand to the first one's pending
//! rotation inside the instruction:
//!
//! * θ (§3.2.1): C\[x\] keeps the pending rotation of lane (x, 0); the
//!   other four lanes of the column are XORed in with their rotation
//!   relative to it (4 EOR per column), D\[x\] = C\[x-1\] ⊕ (C\[x+1\] ⋘ 1)
//!   is one EOR, and each lane absorbs its D in one EOR;
//! * ρ (§3.2.2) adds the lane's offset to its pending rotation: no
//!   instruction; π (§3.2.3) is only the choice of source lanes;
//! * χ (§3.2.4): B\[x+2\] ∧ ¬B\[x+1\] is one BIC, B\[x\] ⊕ that is one EOR,
//!   the output keeping B\[x\]'s pending rotation;
//! * ι (§3.2.5): lane (0, 0) never has a pending rotation (its ρ offset is
//!   0 and π leaves it in place), so the round constant goes in as is.
//!
//! That is 20 + 5 + 25 + 25 + 25 + 1 = 101 ALU instructions per round where
//! the explicit-rotation round needs 24 RORs more (OpenSSL's
//! `KeccakF1600_int`: 133 instructions per round, loop and spills
//! included). The pending rotations differ from round to round (after
//! round r each lane's is the sum of the ρ offsets along its π path), so
//! all n_r rounds are written out (about 10 KB of code per round count) and
//! the offsets come from a table computed at compile time ([`PENDING`]).
//! At the end of the permutation the lanes are rotated into place (24
//! RORs per permutation).
//!
//! Nothing here needs a CPU feature or `unsafe`; the module also builds (and
//! its tests run) on other targets.
#![forbid(unsafe_code)]

use crate::consts::{RC, RHO};

/// π (§3.2.3): the lane that moves to lane index `o` = x + 5y is lane
/// (x + 3y) mod 5 + 5x.
const fn pi_source(o: usize) -> usize {
    let (x, y) = (o % 5, o / 5);
    (x + 3 * y) % 5 + 5 * x
}

/// `PENDING[r][i]`: the pending left rotation of lane i before round r
/// (counting from the first round run), starting from none; the last row
/// is what the permutation's end undoes. A lane keeps its B lane's
/// pending rotation through χ, so lane o after a round carries the pending
/// rotation of its π source plus that source's ρ offset (mod 64).
const PENDING: [[u32; 25]; 25] = {
    let mut table = [[0u32; 25]; 25];
    let mut r = 0;
    while r < 24 {
        let mut o = 0;
        while o < 25 {
            let s = pi_source(o);
            table[r + 1][o] = (table[r][s] + RHO[s]) % 64;
            o += 1;
        }
        r += 1;
    }
    table
};

/// The left rotation that aligns a value stored with pending rotation
/// `from` to one stored with pending rotation `to`.
#[inline(always)]
const fn rel(from: u32, to: u32) -> u32 {
    (from + 64 - to) % 64
}

/// One round on lanes stored with pending rotations `p` (the true lane i is
/// `s[i].rotate_left(p[i])`); the output is stored with pending rotations
/// of the next row of [`PENDING`]. Every `rotate_left` here is the shifted
/// operand of an EOR or BIC on aarch64.
#[inline(always)]
fn round(s: &mut [u64; 25], p: &[u32; 25], rc: u64) {
    // θ: C[x] with pending rotation p[x], D[x] with pending rotation of
    // C[x-1].
    let c: [u64; 5] = core::array::from_fn(|x| {
        let mut c = s[x];
        for y in 1..5 {
            c ^= s[x + 5 * y].rotate_left(rel(p[x + 5 * y], p[x]));
        }
        c
    });
    let d: [u64; 5] = core::array::from_fn(|x| {
        let (l, r) = ((x + 4) % 5, (x + 1) % 5);
        c[l] ^ c[r].rotate_left(rel(p[r] + 1, p[l]))
    });
    let pd = |x: usize| p[(x + 4) % 5];
    let mut e = [0u64; 25];
    for y in 0..5 {
        // θ's XOR with D, ρ (pending rotation only) and π (source choice)
        // for the five lanes of output plane y.
        let mut b = [0u64; 5];
        let mut pb = [0u32; 5];
        for k in 0..5 {
            let src = pi_source(k + 5 * y);
            let col = src % 5;
            b[k] = s[src] ^ d[col].rotate_left(rel(pd(col), p[src]));
            pb[k] = (p[src] + RHO[src]) % 64;
        }
        // χ: E[k] = B[k] ⊕ (¬B[k+1] ∧ B[k+2]), keeping B[k]'s pending
        // rotation.
        for k in 0..5 {
            let (k1, k2) = ((k + 1) % 5, (k + 2) % 5);
            let t = b[k2] & !b[k1].rotate_left(rel(pb[k1], pb[k2]));
            e[k + 5 * y] = b[k] ^ t.rotate_left(rel(pb[k2], pb[k]));
        }
    }
    // ι: lane (0, 0) has no pending rotation.
    e[0] ^= rc;
    *s = e;
}

/// Keccak-p\[1600, `ROUNDS`\]: the last `ROUNDS` of Keccak-f's 24 rounds
/// (FIPS 202 §3.3, round indices 24 - `ROUNDS` to 23), all written out.
#[inline(never)]
pub(crate) fn permute<const ROUNDS: usize>(state: &mut [u64; 25]) {
    const { assert!(ROUNDS <= 24, "Keccak-p[1600] has at most 24 rounds") };
    let mut s = *state;
    macro_rules! rounds {
        ($($r:literal)*) => {
            $(
                if $r < ROUNDS {
                    round(&mut s, &PENDING[$r], RC[24 - ROUNDS + $r]);
                }
            )*
        };
    }
    rounds!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);
    for (lane, &p) in s.iter_mut().zip(&PENDING[ROUNDS]) {
        *lane = lane.rotate_left(p);
    }
    *state = s;
}

/// Absorb every block: XOR it into the state, then permute (FIPS 202 §4
/// Algorithm 8 step 6). `RATE` is the block size in bytes, a multiple of 8
/// below 200.
pub(crate) fn absorb<const RATE: usize, const ROUNDS: usize, B: AsRef<[u8]>>(state: &mut [u64; 25], blocks: &[B]) {
    for block in blocks {
        super::portable::xor_block(state, &block.as_ref()[..RATE]);
        permute::<ROUNDS>(state);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{PENDING, permute};
    use crate::consts::{RC, RHO};

    /// Keccak-p\[1600, `rounds`\] straight from FIPS 202 §3.2 and §3.3
    /// (Algorithms 1-7, loops and all): rounds 24 - `rounds` to 23, so
    /// round i uses RC\[i\].
    pub(crate) fn spec_keccak_p(a: &mut [u64; 25], rounds: usize) {
        for &rc in &RC[24 - rounds..] {
            // θ (Algorithm 1).
            let c: [u64; 5] = core::array::from_fn(|x| (0..5).fold(0, |acc, y| acc ^ a[x + 5 * y]));
            for x in 0..5 {
                let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
                for y in 0..5 {
                    a[x + 5 * y] ^= d;
                }
            }
            // ρ (Algorithm 2) and π (Algorithm 3): A'[x, y] = A[(x + 3y) mod 5, x].
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

    /// Pseudo-random states (xorshift64), the zero state first.
    pub(crate) fn states(n: usize) -> impl Iterator<Item = [u64; 25]> {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        (0..n).map(move |trial| {
            if trial == 0 {
                return [0; 25];
            }
            core::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            })
        })
    }

    /// Lane (0, 0) never carries a pending rotation (ι relies on it), and
    /// the table is not trivially zero.
    #[test]
    fn pending_rotations() {
        assert!(PENDING.iter().all(|row| row[0] == 0));
        let want: [u32; 25] = core::array::from_fn(|o| {
            let (x, y) = (o % 5, o / 5);
            RHO[(x + 3 * y) % 5 + 5 * x]
        });
        assert_eq!(PENDING[1], want);
        assert_ne!(PENDING[24], [0; 25]);
    }

    /// The lazy-rotation rounds equal the spec for 24 rounds (Keccak-f) and
    /// 12 rounds (the last 12, as TurboSHAKE and KangarooTwelve use), and
    /// for a few other round counts.
    #[test]
    fn lazy_rotation_rounds_match_the_spec() {
        fn check<const ROUNDS: usize>() {
            for (trial, start) in states(32).enumerate() {
                let mut want = start;
                spec_keccak_p(&mut want, ROUNDS);
                let mut got = start;
                permute::<ROUNDS>(&mut got);
                assert_eq!(got, want, "Keccak-p[1600, {ROUNDS}], trial {trial}");
            }
        }
        check::<24>();
        check::<12>();
        check::<1>();
        check::<5>();
    }
}
