//! The 16-lane batch engine: sixteen messages at once, one per 32-bit lane
//! of the `zmm` registers (FIPS 180-4 §6.1.2 in every lane).
//!
//! A block of one message is exactly one `zmm` register, so the sixteen
//! lanes' blocks are loaded as sixteen rows and transposed into the message
//! words W[0..16], one word of every lane per register. AVX-512F gives true
//! rotations (`vprold`: ROTL⁵, ROTL³⁰ and the schedule's ROTL¹ are one
//! instruction each, three with AVX2) and three-input logic (`vpternlogd`:
//! Ch, Parity and Maj are one instruction each, and so is three of the
//! schedule's four-way XOR). A round is then seven instructions, ten with
//! its schedule word, against about thirteen and eighteen for the 8-lane
//! AVX2 engine, for twice the lanes.
//!
//! The engine serves `digest_many` where `super::batch_engine`'s rule picks
//! it (CPUs with AVX-512F and AVX-512BW, on which interleaved SHA-NI streams
//! do not pay).

use core::arch::x86_64::{
    _mm512_add_epi32, _mm512_loadu_si512, _mm512_rol_epi32, _mm512_set1_epi32, _mm512_setzero_si512,
    _mm512_storeu_si512, _mm512_ternarylogic_epi32, _mm512_xor_si512,
};

use crate::consts::K;

/// Lanes of the engine.
pub(crate) const LANES: usize = 16;

/// `vpternlogd` truth tables (bit `4a + 2b + c` is the result for inputs
/// `a`, `b`, `c`).
const XOR3: i32 = 0x96;
/// `a ? b : c`: Ch (§4.1.1 (4.1), t = 0..19).
const CHOOSE: i32 = 0xca;
/// The majority of three: Maj (§4.1.1, t = 40..59).
const MAJORITY: i32 = 0xe8;

use hash_core::arch::x86::load_be_words_16x16 as load_words;

/// Compress `data[s]` into `states[s]` for all sixteen lanes; the slices
/// have equal lengths, a whole number of blocks (the scheduler's contract).
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn compress_lanes(states: &mut [[u32; 5]; LANES], data: [&[u8]; LANES]) {
    assert!(
        data.iter().all(|d| d.len() == data[0].len() && d.len() % 64 == 0),
        "the scheduler hands every lane the same whole number of blocks"
    );
    // H0..H4 of lane s in lane s of h[0..5].
    let mut h = [_mm512_setzero_si512(); 5];
    for (j, hj) in h.iter_mut().enumerate() {
        let column: [u32; LANES] = core::array::from_fn(|s| states[s][j]);
        // SAFETY: `column` is 64 readable bytes; loadu has no alignment
        // requirement.
        *hj = unsafe { _mm512_loadu_si512(column.as_ptr().cast()) };
    }
    let lanes = data.map(<[u8]>::as_ptr);
    for at in (0..data[0].len()).step_by(64) {
        // SAFETY: every lane is `data[0].len()` bytes long (the assert
        // above), a whole number of blocks, and `at` is the start of one.
        let mut w = unsafe { load_words(&lanes, at) };
        let [mut a, mut b, mut c, mut d, mut e] = h;
        // §6.1.2 step 1 for t >= 16, in the 16-word ring:
        // W[t] = ROTL¹(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]).
        macro_rules! schedule {
            ($t:expr) => {{
                let x = _mm512_ternarylogic_epi32::<XOR3>(w[($t - 3) & 15], w[($t - 8) & 15], w[($t - 14) & 15]);
                w[$t & 15] = _mm512_rol_epi32::<1>(_mm512_xor_si512(x, w[$t & 15]));
            }};
        }
        // Step 3: e += ROTL⁵(a) + f(b, c, d) + K + W; b = ROTL³⁰(b); the
        // names rotate. f is one `vpternlogd` with table `$f` (§4.1.1).
        macro_rules! round {
            ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:expr, $k:expr, $t:expr) => {
                if $t >= 16 {
                    schedule!($t);
                }
                $e = _mm512_add_epi32($e, _mm512_add_epi32(w[$t & 15], $k));
                $e = _mm512_add_epi32($e, _mm512_ternarylogic_epi32::<$f>($b, $c, $d));
                $e = _mm512_add_epi32($e, _mm512_rol_epi32::<5>($a));
                $b = _mm512_rol_epi32::<30>($b);
            };
        }
        macro_rules! twenty {
            ($f:expr, $t:expr) => {{
                let k = _mm512_set1_epi32(K[$t / 20] as i32);
                round!(a, b, c, d, e, $f, k, $t);
                round!(e, a, b, c, d, $f, k, $t + 1);
                round!(d, e, a, b, c, $f, k, $t + 2);
                round!(c, d, e, a, b, $f, k, $t + 3);
                round!(b, c, d, e, a, $f, k, $t + 4);
                round!(a, b, c, d, e, $f, k, $t + 5);
                round!(e, a, b, c, d, $f, k, $t + 6);
                round!(d, e, a, b, c, $f, k, $t + 7);
                round!(c, d, e, a, b, $f, k, $t + 8);
                round!(b, c, d, e, a, $f, k, $t + 9);
                round!(a, b, c, d, e, $f, k, $t + 10);
                round!(e, a, b, c, d, $f, k, $t + 11);
                round!(d, e, a, b, c, $f, k, $t + 12);
                round!(c, d, e, a, b, $f, k, $t + 13);
                round!(b, c, d, e, a, $f, k, $t + 14);
                round!(a, b, c, d, e, $f, k, $t + 15);
                round!(e, a, b, c, d, $f, k, $t + 16);
                round!(d, e, a, b, c, $f, k, $t + 17);
                round!(c, d, e, a, b, $f, k, $t + 18);
                round!(b, c, d, e, a, $f, k, $t + 19);
            }};
        }
        twenty!(CHOOSE, 0);
        twenty!(XOR3, 20);
        twenty!(MAJORITY, 40);
        twenty!(XOR3, 60);

        // Step 4.
        for (hj, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *hj = _mm512_add_epi32(*hj, v);
        }
    }
    for (j, hj) in h.iter().enumerate() {
        let mut column = [0u32; LANES];
        // SAFETY: `column` is 64 writable bytes; storeu has no alignment
        // requirement.
        unsafe { _mm512_storeu_si512(column.as_mut_ptr().cast(), *hj) };
        for (state, word) in states.iter_mut().zip(column) {
            state[j] = word;
        }
    }
}
