//! Scalar SHA-512 compression (FIPS 180-4 §6.4.2) arranged for aarch64,
//! for CPUs without the SHA512 instructions.
//!
//! Rust, like the portable backend, but written for what aarch64 has and
//! LLVM does not find on its own, and sized by LLVM's scheduling models of
//! real cores (`cargo xtask mca`: a model, not a measurement) against
//! OpenSSL 3.0's `sha512_block_data_order` (scalar aarch64 assembly):
//!
//! * Round constants are loaded from a table (`ldr`), its address hidden
//!   from the optimiser ([`constants`]): with a `const` table LLVM builds
//!   every K[t] as an immediate, a `mov` and three `movk`s, four
//!   instructions per round where one load does.
//! * All 80 rounds are written out (about 9 KB of code; OpenSSL and the
//!   previous version of this file loop over rounds 16-79 sixteen at a
//!   time). The loop cost register moves at its back edge and kept the
//!   scheduler from overlapping one group of sixteen rounds with the
//!   next: modelled 2% slower on Cortex-A72, 0.3-1% on the others.
//! * Σ1 and Σ0 are ROTR¹⁴(e) ⊕ ROTR¹⁸(e ⊕ ROTR²³(e)) (and ROTR²⁸(a) ⊕
//!   ROTR³⁴(a ⊕ ROTR⁵(a))), OpenSSL's form: aarch64's logical instructions
//!   rotate their second operand for free, so each is three instructions,
//!   two of them on the path from e (from a). Left to itself LLVM folds the
//!   other rotation and chains all three, whichever way the source puts
//!   the operands, so the last `eor` is written in `asm!` ([`eor_ror`]).
//! * σ0 and σ1 start from the plain shift: (x ≫ 7) ⊕ ROTR¹(x) ⊕ ROTR⁸(x) is
//!   an `lsr` and two `eor`s with a rotated operand, where the portable
//!   order gives a `ror`, an `eor` with a rotated operand and one with a
//!   shifted one. LLVM's Cortex-A57 model (which stands for the A72) runs
//!   `ror` (`extr`) as two micro-ops on its one multi-cycle pipe and `lsr`
//!   as one on either simple pipe; Apple's model counts `ror` double too.
//!   This alone took Cortex-A72 from 932 to 837 modelled cycles per block
//!   (in a standalone build of this file).
//! * T1's terms that do not depend on e (h, K[t], W[t]) are summed first
//!   and held together ([`opaque`]: LLVM's reassociation otherwise adds
//!   W[t] after Ch(e, f, g), one more step on the path from e), so that
//!   only Ch(e, f, g) and Σ1(e) wait for the previous round.
//!
//! The message schedule is a 16-word ring of locals, extended in place
//! (`W[t]` for t >= 16 overwrites `W[t-16]`), and the eight working
//! variables are renamed each round rather than moved.
//!
//! Modelled cycles per block (`cargo xtask mca`, llvm-mca 19, 200
//! iterations), before these changes → after (OpenSSL's): Cortex-A72
//! 949 → 839 (933), Neoverse N1 722 → 711 (741), V1 542 → 533 (556), V2
//! 411 → 400 (401), Apple M1/M4 2136 → 2051 (2115). On V2 both
//! are at the bound that the chain from e sets: five dependent
//! instructions a round (Σ1's two, or Ch's `bic` and `orr`, then T1's
//! last two additions and d + T1); shortening it costs an addition a round,
//! which Apple's model, bound by the count of integer instructions, would
//! not repay.

use hash_core::Block;
use hash_core::typenum::U128;

use super::portable::{ch, maj};

/// The round constants (FIPS 180-4 §4.2.3) as a `static`, so that they are
/// loaded from memory rather than built as immediates (see the module docs).
static K: [u64; 80] = crate::consts::K;

/// `a ^ b.rotate_right(N)` as one `eor` with a rotated operand, in `asm!`
/// so that LLVM cannot choose which operand gets the rotation (see the
/// module docs).
#[inline(always)]
fn eor_ror<const N: u32>(a: u64, b: u64) -> u64 {
    let r: u64;
    // SAFETY: one logical instruction on registers (this module is built
    // for aarch64 only): no memory, stack or flags are touched.
    unsafe {
        core::arch::asm!(
            "eor {r}, {a}, {b}, ror #{n}",
            r = lateout(reg) r,
            a = in(reg) a,
            b = in(reg) b,
            n = const N,
            options(pure, nomem, nostack, preserves_flags),
        )
    };
    r
}

/// `x`, opaque to the optimiser: an empty `asm!` (no instruction), so that
/// LLVM cannot regroup a sum around it.
#[inline(always)]
fn opaque(mut x: u64) -> u64 {
    // SAFETY: an empty instruction sequence that reads and writes one
    // register: no memory, stack or flags are touched.
    unsafe { core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags)) };
    x
}

/// Σ0 (FIPS 180-4 (4.10)): ROTR²⁸ ⊕ ROTR³⁴ ⊕ ROTR³⁹, as
/// ROTR²⁸(x) ⊕ ROTR³⁴(x ⊕ ROTR⁵(x)), with ROTR²⁸(x) off the chain.
#[inline(always)]
fn big_sigma0(x: u64) -> u64 {
    eor_ror::<34>(x.rotate_right(28), x ^ x.rotate_right(5))
}

/// Σ1 (4.11): ROTR¹⁴ ⊕ ROTR¹⁸ ⊕ ROTR⁴¹, as ROTR¹⁴(x) ⊕ ROTR¹⁸(x ⊕ ROTR²³(x)),
/// with ROTR¹⁴(x) off the chain.
#[inline(always)]
fn big_sigma1(x: u64) -> u64 {
    eor_ror::<18>(x.rotate_right(14), x ^ x.rotate_right(23))
}

/// [`K`], hidden from the optimiser, which would otherwise fold the
/// constants of the unrolled rounds into immediates again. The address
/// passes through an empty `asm!` (no instruction, no memory):
/// `core::hint::black_box` would keep it on the stack, and every constant
/// would cost a second load.
#[inline(always)]
fn constants() -> &'static [u64; 80] {
    let mut p: *const [u64; 80] = &K;
    // SAFETY: an empty instruction sequence that reads and writes one
    // register, holding `p` unchanged: no memory, stack or flags are
    // touched.
    unsafe { core::arch::asm!("/* {0} */", inout(reg) p, options(pure, nomem, nostack, preserves_flags)) };
    // SAFETY: `p` is still the address of the `static` `K` (the statement
    // above changes nothing), valid for the whole program.
    unsafe { &*p }
}

/// σ0 (4.12): ROTR¹ ⊕ ROTR⁸ ⊕ SHR⁷, as (x ≫ 7) ⊕ ROTR¹(x) ⊕ ROTR⁸(x): an
/// `lsr` and two `eor`s with a rotated operand, no `ror` (module docs).
#[inline(always)]
fn small_sigma0(x: u64) -> u64 {
    (x >> 7) ^ x.rotate_right(1) ^ x.rotate_right(8)
}

/// σ1 (4.13): ROTR¹⁹ ⊕ ROTR⁶¹ ⊕ SHR⁶, as (x ≫ 6) ⊕ ROTR¹⁹(x) ⊕ ROTR⁶¹(x).
#[inline(always)]
fn small_sigma1(x: u64) -> u64 {
    (x >> 6) ^ x.rotate_right(19) ^ x.rotate_right(61)
}

/// Compress each block in turn.
pub(super) fn compress(state: &mut [u64; 8], blocks: &[Block<U128>]) {
    for block in blocks {
        compress_block(state, block);
    }
}

#[inline(always)]
fn compress_block(state: &mut [u64; 8], block: &Block<U128>) {
    // Step 1, t = 0..15: W[t] = M[t], big-endian 64-bit words.
    let mut w = [0u64; 16];
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(bytes);
        *word = u64::from_be_bytes(b);
    }

    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    // Step 3: one round t, with the variables named in rotated order so
    // that nothing moves: T1 lands in d (the next e) and h becomes the next
    // a. `$k` is K[t], `$i` is t mod 16.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $k:expr, $i:expr) => {
            let t1 = opaque($h.wrapping_add($k).wrapping_add(w[$i]))
                .wrapping_add(ch($e, $f, $g))
                .wrapping_add(big_sigma1($e));
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(big_sigma0($a)).wrapping_add(maj($a, $b, $c));
        };
    }

    // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] (§6.4.2 step 1),
    // in the ring slot i = t mod 16.
    macro_rules! schedule {
        ($i:expr) => {
            w[$i] = small_sigma1(w[($i + 14) & 15])
                .wrapping_add(w[($i + 9) & 15])
                .wrapping_add(small_sigma0(w[($i + 1) & 15]))
                .wrapping_add(w[$i]);
        };
    }

    // Sixteen rounds t0..t0 + 15 with constants `k` (K[t0..t0 + 16]),
    // extending the schedule first when `$sched`.
    macro_rules! sixteen {
        ($k:expr, $sched:expr) => {
            let k: &[u64; 16] = $k;
            macro_rules! r {
                ($i:expr, $a2:ident, $b2:ident, $c2:ident, $d2:ident, $e2:ident, $f2:ident, $g2:ident, $h2:ident) => {
                    if $sched {
                        schedule!($i);
                    }
                    round!($a2, $b2, $c2, $d2, $e2, $f2, $g2, $h2, k[$i], $i);
                };
            }
            r!(0, a, b, c, d, e, f, g, h);
            r!(1, h, a, b, c, d, e, f, g);
            r!(2, g, h, a, b, c, d, e, f);
            r!(3, f, g, h, a, b, c, d, e);
            r!(4, e, f, g, h, a, b, c, d);
            r!(5, d, e, f, g, h, a, b, c);
            r!(6, c, d, e, f, g, h, a, b);
            r!(7, b, c, d, e, f, g, h, a);
            r!(8, a, b, c, d, e, f, g, h);
            r!(9, h, a, b, c, d, e, f, g);
            r!(10, g, h, a, b, c, d, e, f);
            r!(11, f, g, h, a, b, c, d, e);
            r!(12, e, f, g, h, a, b, c, d);
            r!(13, d, e, f, g, h, a, b, c);
            r!(14, c, d, e, f, g, h, a, b);
            r!(15, b, c, d, e, f, g, h, a);
        };
    }

    // The table's contents hidden from the optimiser (`constants`).
    let table: &[u64; 80] = constants();
    let (first, rest) = table.split_first_chunk::<16>().expect("80 constants");
    sixteen!(first, false);
    // Rounds 16..79, written out like the first sixteen (module docs).
    let (k, rest) = rest.split_first_chunk::<16>().expect("64 constants");
    sixteen!(k, true);
    let (k, rest) = rest.split_first_chunk::<16>().expect("48 constants");
    sixteen!(k, true);
    let (k, rest) = rest.split_first_chunk::<16>().expect("32 constants");
    sixteen!(k, true);
    let (k, _) = rest.split_first_chunk::<16>().expect("16 constants");
    sixteen!(k, true);

    // Step 4: the intermediate hash value.
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.wrapping_add(v);
    }
}
