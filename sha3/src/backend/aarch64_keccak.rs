//! Scalar Keccak-p\[1600, n_r\] tuned for aarch64 (FIPS 202 §3.3), the
//! `Aarch64` backend: every lane in a register, and part of ρ folded into
//! χ's instructions.
//!
//! A64 logical instructions take their second source through a free shift,
//! rotations included: `eor x0, x1, x2, ror #k` is x1 ⊕ (x2 ⋙ k), and
//! `bic x0, x1, x2, ror #k` is x1 ∧ ¬(x2 ⋙ k). Whether folding a rotation
//! that way pays depends on the core, and LLVM's scheduling models
//! (`cargo xtask mca`) disagree by core family:
//!
//! * Cortex-A72 (LLVM's Cortex-A57 model) runs every rotation, a plain `ror`
//!   (`extr`) or a rotated operand, on its one multi-cycle pipe (M), and
//!   plain logical instructions on two others: a round is bound by its
//!   rotations. An earlier version of this file folded *every* rotation
//!   (each lane carried a pending rotation from round to round: 101
//!   instructions a round, about 92 of them rotated) and was modelled at
//!   92 cycles a round there, 1.46x OpenSSL's `KeccakF1600_int` (63).
//! * Apple M1/M4 (LLVM's Cyclone model) issue about one integer
//!   instruction a cycle whatever its operand: a round costs its
//!   instruction count, so every rotation *not* folded costs a cycle.
//!   Neoverse N1, V1 and V2 are between: rotated operands cost what plain
//!   ones do, on more pipes.
//!
//! So the round here is the textbook one (θ with D\[x\] = C\[x-1\] ⊕ (C\[x+1\]
//! ⋘ 1) as one rotated EOR, ρ, π, χ as BIC + EOR, ι), every lane starting
//! and ending the round in place, except that in each output plane two
//! adjacent B lanes ([`UNSETTLED_AT`]) skip their ρ rotation: χ takes them
//! through rotated operands instead, so that every χ output is still in
//! place. One such lane saves its `ror` and costs about 3.5 rotated operands
//! in χ (the BIC and EOR that read it, and those whose other operand must
//! now be aligned to it), 2.5 more rotations for one instruction less.
//! With two per plane a round is 115 logical instructions (OpenSSL's
//! `KeccakF1600_int`: 133 instructions a round, moves and spills
//! included), 54 of them with a rotation; with LLVM's moves and spills,
//! `cargo xtask mca` models 58 cycles a round on Cortex-A72 (OpenSSL's: 63)
//! and 119 on Apple's cores (OpenSSL's: 126). χ's rule: its
//! output E\[k\] = B\[k\] ⊕ (B\[k+2\] ∧ ¬B\[k+1\]) can be put in place by one
//! BIC and one EOR only when B\[k\] or B\[k+2\] is in place, so the lanes
//! left unrotated in a plane must be adjacent (checked at compile time).
//!
//! The χ instructions with a rotated operand are written as `asm!` (one
//! instruction each, see `rotated!`); the rest is plain Rust that LLVM
//! compiles to the instructions above. The rounds are written out, as the
//! earlier version's were, and need no barrier between them: an empty
//! `asm!` that held all 25 lanes at each round boundary cost register
//! moves (the model put it 1-3% slower on every core but Cortex-A72), and
//! the round constants, built as immediates (1-4 instructions each),
//! model within 1% of loading them from memory. Nothing here needs a CPU
//! feature; the module also builds (and its tests run) on other targets,
//! where `rotated!` is plain Rust.

use crate::consts::{RC, RHO};

/// χ's output planes (π, §3.2.3): `PLANES[y][k]` is the lane whose ρ-rotated
/// value is B lane k of output plane y (lane (x + 3y) mod 5 + 5x moves to
/// lane x + 5y).
const PLANES: [[usize; 5]; 5] = {
    let mut planes = [[0; 5]; 5];
    let mut y = 0;
    while y < 5 {
        let mut k = 0;
        while k < 5 {
            planes[y][k] = (k + 3 * y) % 5 + 5 * k;
            k += 1;
        }
        y += 1;
    }
    planes
};

/// Per output plane, the position k of the first of the two adjacent B
/// lanes (k and k + 1 mod 5) that χ reads unrotated (see the module docs);
/// 5: none. Position 0 of plane 0 is lane (0, 0), whose ρ offset is 0.
const UNSETTLED_AT: [usize; 5] = [1, 1, 1, 1, 1];

/// The rotation still pending on B lane `k` of plane `y` when χ reads it:
/// its ρ offset if it is left unrotated, else 0.
const fn pend(y: usize, k: usize) -> u32 {
    let u = UNSETTLED_AT[y];
    if u < 5 && (k == u || k == (u + 1) % 5) { RHO[PLANES[y][k]] % 64 } else { 0 }
}

// χ puts every output in place with one BIC and one EOR only if, for every
// k, B[k] or B[k+2] is in place (module docs).
const _: () = {
    let mut y = 0;
    while y < 5 {
        let mut k = 0;
        while k < 5 {
            assert!(pend(y, k) == 0 || pend(y, (k + 2) % 5) == 0, "UNSETTLED_AT: lanes two apart");
            k += 1;
        }
        y += 1;
    }
};

/// The left rotation that aligns a value stored with pending rotation
/// `from` (the true value is it rotated left by `from`) to one stored with
/// pending rotation `to`.
#[inline(always)]
const fn rel(from: u32, to: u32) -> u32 {
    (from + 64 - to) % 64
}

/// `$op` (`"eor"`: a ⊕ (b ⋘ k); `"bic"`: a ∧ ¬(b ⋘ k)) as one instruction
/// with a rotated operand. In `asm!` because LLVM folds a rotation into its
/// use only when the rotated value has no other use: an unrotated B lane is
/// read through the same rotation by two or three χ instructions, and LLVM
/// would share one `ror` between them (the very instruction the lane is
/// left unrotated to save).
macro_rules! rotated {
    (bic, $a:expr, $b:expr, $k:expr) => {
        rotated!("bic", $a, $b, $k, |a: u64, b: u64| a & !b)
    };
    (eor, $a:expr, $b:expr, $k:expr) => {
        rotated!("eor", $a, $b, $k, |a: u64, b: u64| a ^ b)
    };
    ($op:literal, $a:expr, $b:expr, $k:expr, $plain:expr) => {{
        let (a, b): (u64, u64) = ($a, $b);
        let k: u32 = const { $k % 64 };
        #[cfg(target_arch = "aarch64")]
        let r = if k == 0 {
            $plain(a, b)
        } else {
            let r: u64;
            // SAFETY: one logical instruction on registers: no memory,
            // stack or flags are touched.
            unsafe {
                core::arch::asm!(
                    concat!($op, " {r}, {a}, {b}, ror #{n}"),
                    r = lateout(reg) r,
                    a = in(reg) a,
                    b = in(reg) b,
                    n = const (64 - $k % 64) % 64,
                    options(pure, nomem, nostack, preserves_flags),
                )
            };
            r
        };
        #[cfg(not(target_arch = "aarch64"))]
        let r = $plain(a, b.rotate_left(k));
        r
    }};
}

/// One round on lanes in place (§3.2.1-§3.2.5 in order), with ρ of the
/// [`UNSETTLED_AT`] lanes folded into χ. Every lane index is a literal and
/// every rotation a constant, so each `rotate_left` becomes a `ror` or the
/// rotated operand of an EOR or BIC.
#[inline(always)]
fn round(s: &mut [u64; 25], rc: u64) {
    // θ.
    let c: [u64; 5] = core::array::from_fn(|x| s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]);
    let d: [u64; 5] = core::array::from_fn(|x| c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1));
    let a: [u64; 25] = core::array::from_fn(|i| s[i] ^ d[i % 5]);
    // ρ and π into each plane's B lanes (the unsettled ones unrotated), then
    // χ: E[k] = B[k] ⊕ (B[k+2] ∧ ¬B[k+1]), every output in place.
    let mut e = [0u64; 25];
    macro_rules! chi {
        ($y:literal, $k:literal $k1:literal $k2:literal, $b:ident) => {{
            let t = rotated!(bic, $b[$k2], $b[$k1], rel(pend($y, $k1), pend($y, $k2)));
            e[5 * $y + $k] = if const { pend($y, $k2) == 0 } {
                rotated!(eor, t, $b[$k], pend($y, $k))
            } else {
                // pend($y, $k) == 0 here (the compile-time check above).
                rotated!(eor, $b[$k], t, pend($y, $k2))
            };
        }};
    }
    macro_rules! plane {
        ($($y:literal)*) => {$({
            let b: [u64; 5] = [
                a[PLANES[$y][0]].rotate_left(const { rel(RHO[PLANES[$y][0]], pend($y, 0)) }),
                a[PLANES[$y][1]].rotate_left(const { rel(RHO[PLANES[$y][1]], pend($y, 1)) }),
                a[PLANES[$y][2]].rotate_left(const { rel(RHO[PLANES[$y][2]], pend($y, 2)) }),
                a[PLANES[$y][3]].rotate_left(const { rel(RHO[PLANES[$y][3]], pend($y, 3)) }),
                a[PLANES[$y][4]].rotate_left(const { rel(RHO[PLANES[$y][4]], pend($y, 4)) }),
            ];
            chi!($y, 0 1 2, b);
            chi!($y, 1 2 3, b);
            chi!($y, 2 3 4, b);
            chi!($y, 3 4 0, b);
            chi!($y, 4 0 1, b);
        })*};
    }
    plane!(0 1 2 3 4);
    // ι.
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
                    round(&mut s, RC[24 - ROUNDS + $r]);
                }
            )*
        };
    }
    rounds!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23);
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
    use super::{PLANES, UNSETTLED_AT, pend, permute};
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

    /// The plane table is π (§3.2.3: A'[x, y] = A[(x + 3y) mod 5, x]) as
    /// portable's round writes it out, and some B lanes are left unrotated
    /// in every plane (else the table is not what the docs say).
    #[test]
    fn planes_and_unsettled_lanes() {
        assert_eq!(
            PLANES,
            [[0, 6, 12, 18, 24], [3, 9, 10, 16, 22], [1, 7, 13, 19, 20], [4, 5, 11, 17, 23], [2, 8, 14, 15, 21]]
        );
        for (y, &first) in UNSETTLED_AT.iter().enumerate() {
            let unrotated = (0..5).filter(|&k| pend(y, k) != 0).count();
            assert_eq!(unrotated, if first < 5 { 2 } else { 0 }, "plane {y}");
            for k in 0..5 {
                assert!(pend(y, k) == 0 || pend(y, (k + 2) % 5) == 0, "plane {y}, lane {k}");
            }
        }
    }

    /// The rounds (with part of ρ folded into χ) equal the spec for 24 rounds (Keccak-f) and
    /// 12 rounds (the last 12, as TurboSHAKE and KangarooTwelve use), and
    /// for a few other round counts.
    #[test]
    fn folded_rotation_rounds_match_the_spec() {
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
