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
//! Not yet timed on hardware (only counted, and tested under qemu). On cores
//! that issue logical instructions with a rotated operand to fewer pipes
//! or with more latency than plain ones (Arm's optimization guides for the
//! Cortex-A76 family, Neoverse N1 included, list shifted-register logical
//! operations other than LSL #1-4 as two-cycle operations on one pipe),
//! the folded rotations may cost more than OpenSSL's explicit RORs (which
//! are one-cycle `EXTR`s on every integer pipe); measure before relying on
//! the instruction count.
//!
//! Two empty `asm!` statements, which emit no instruction, steer LLVM
//! where it would otherwise lose the above: [`opaque`] keeps θ's XOR chains
//! in their written order (reassociated, two rotated operands can meet in
//! one EOR and cost an explicit ROR), and [`fence`] makes every lane of
//! round r an input of round r + 1 as a whole, so that the scheduler does
//! not interleave rounds of the one straight-line block and spill. Nothing
//! here needs a CPU feature; the module also builds (and its tests run) on
//! other targets, where both are plain identity functions.

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

use hash_core::arch::opaque_u64 as opaque;

/// A round boundary the scheduler cannot cross: every lane passes through
/// one empty `asm!` statement (see the module docs).
#[inline(always)]
fn fence(s: &mut [u64; 25]) {
    #[cfg(target_arch = "aarch64")]
    {
        let [
            s0,
            s1,
            s2,
            s3,
            s4,
            s5,
            s6,
            s7,
            s8,
            s9,
            s10,
            s11,
            s12,
            s13,
            s14,
            s15,
            s16,
            s17,
            s18,
            s19,
            s20,
            s21,
            s22,
            s23,
            s24,
        ] = s;
        // SAFETY: an empty instruction sequence that reads and writes 25
        // registers (the lanes): no memory, stack or flags are touched.
        unsafe {
            core::arch::asm!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} {8} {9} {10} {11} {12} {13} {14} {15} {16} {17} {18} {19} {20} {21} {22} {23} {24} */",
                inout(reg) * s0,
                inout(reg) * s1,
                inout(reg) * s2,
                inout(reg) * s3,
                inout(reg) * s4,
                inout(reg) * s5,
                inout(reg) * s6,
                inout(reg) * s7,
                inout(reg) * s8,
                inout(reg) * s9,
                inout(reg) * s10,
                inout(reg) * s11,
                inout(reg) * s12,
                inout(reg) * s13,
                inout(reg) * s14,
                inout(reg) * s15,
                inout(reg) * s16,
                inout(reg) * s17,
                inout(reg) * s18,
                inout(reg) * s19,
                inout(reg) * s20,
                inout(reg) * s21,
                inout(reg) * s22,
                inout(reg) * s23,
                inout(reg) * s24,
                options(pure, nomem, nostack, preserves_flags),
            )
        };
    }
    #[cfg(not(target_arch = "aarch64"))]
    let _ = s;
}

/// Pending rotation of B lane `src`'s value before round `r`'s χ: its
/// pending rotation plus its ρ offset.
const fn pb(r: usize, src: usize) -> u32 {
    (PENDING[r][src] + RHO[src]) % 64
}

/// Round `R` (counting from the first round run) on lanes stored with
/// pending rotations `PENDING[R]` (the true lane i is
/// `s[i].rotate_left(PENDING[R][i])`); the output is stored with pending
/// rotations `PENDING[R + 1]`. Every lane index is a literal and every
/// rotation a constant, so each `rotate_left` becomes the shifted operand
/// of an EOR or BIC.
#[inline(always)]
fn round<const R: usize>(s: &mut [u64; 25], rc: u64) {
    // θ: C[x] keeps lane (x, 0)'s pending rotation; D[x] keeps C[x-1]'s.
    macro_rules! column {
        ($x:literal) => {
            opaque(
                opaque(
                    opaque(s[$x] ^ s[$x + 5].rotate_left(const { rel(PENDING[R][$x + 5], PENDING[R][$x]) }))
                        ^ s[$x + 10].rotate_left(const { rel(PENDING[R][$x + 10], PENDING[R][$x]) }),
                ) ^ s[$x + 15].rotate_left(const { rel(PENDING[R][$x + 15], PENDING[R][$x]) }),
            ) ^ s[$x + 20].rotate_left(const { rel(PENDING[R][$x + 20], PENDING[R][$x]) })
        };
    }
    let c = [column!(0), column!(1), column!(2), column!(3), column!(4)];
    macro_rules! d {
        ($l:literal, $r:literal) => {
            c[$l] ^ c[$r].rotate_left(const { rel(PENDING[R][$r] + 1, PENDING[R][$l]) })
        };
    }
    let d = [d!(4, 1), d!(0, 2), d!(1, 3), d!(2, 4), d!(3, 0)];
    // θ's XOR with D for every lane, aligned to the lane's pending rotation;
    // ρ only adds to the pending rotation (`pb`). Every B lane first, then
    // χ plane by plane: each source lane dies as its B lane appears, so the
    // state, D and the temporaries fit the registers.
    macro_rules! theta {
        ($($i:literal)*) => {
            [$( s[$i] ^ d[$i % 5].rotate_left(const { rel(PENDING[R][($i + 4) % 5], PENDING[R][$i]) }) ),*]
        };
    }
    let b = theta!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
    // χ on output plane y from the `[source]` lanes of `portable::round`
    // (π): E[k] = B[k] ⊕ (B[k+2] ∧ ¬B[k+1]), kept at B[k]'s pending
    // rotation.
    let mut e = [0u64; 25];
    macro_rules! chi {
        ($y:literal, $k0:literal $s0:literal, $s1:literal, $s2:literal) => {
            let t = b[$s2] & !b[$s1].rotate_left(const { rel(pb(R, $s1), pb(R, $s2)) });
            e[5 * $y + $k0] = b[$s0] ^ t.rotate_left(const { rel(pb(R, $s2), pb(R, $s0)) });
        };
    }
    macro_rules! plane {
        ($y:literal, $s0:literal $s1:literal $s2:literal $s3:literal $s4:literal) => {
            chi!($y, 0 $s0, $s1, $s2);
            chi!($y, 1 $s1, $s2, $s3);
            chi!($y, 2 $s2, $s3, $s4);
            chi!($y, 3 $s3, $s4, $s0);
            chi!($y, 4 $s4, $s0, $s1);
        };
    }
    plane!(0, 0 6 12 18 24);
    plane!(1, 3 9 10 16 22);
    plane!(2, 1 7 13 19 20);
    plane!(3, 4 5 11 17 23);
    plane!(4, 2 8 14 15 21);
    // ι: lane (0, 0) has no pending rotation (`PENDING[_][0] == 0`).
    e[0] ^= rc;
    *s = e;
    fence(s);
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
                    round::<$r>(&mut s, RC[24 - ROUNDS + $r]);
                }
            )*
        };
    }
    rounds!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);
    // Rotate every lane into place (lane 0 has nothing pending).
    macro_rules! settle {
        ($($i:literal)*) => {
            $( s[$i] = s[$i].rotate_left(const { PENDING[ROUNDS][$i] }); )*
        };
    }
    settle!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
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
