//! Portable SHA-1 compression (FIPS 180-4 §6.1.2) in safe Rust.
//!
//! The 80 rounds are fully unrolled. The five working variables stay in
//! locals and are never shuffled: each round names them in rotated order,
//! so that the round's result lands in the variable that plays `a` next.
//! The message schedule lives in a 16-word ring that is extended in place
//! (W[t] for t >= 16 overwrites W[t-16]), one word just before the round
//! that consumes it.
#![forbid(unsafe_code)]

use hash_core::Block;
use hash_core::typenum::U64;

use crate::consts::K;

/// Ch(x, y, z) = (x ∧ y) ⊕ (¬x ∧ z) (FIPS 180-4 §4.1.1, rounds 0–19), as
/// z ⊕ (x ∧ (y ⊕ z)).
#[inline(always)]
fn ch(x: u32, y: u32, z: u32) -> u32 {
    z ^ (x & (y ^ z))
}

/// Parity(x, y, z) = x ⊕ y ⊕ z (§4.1.1, rounds 20–39 and 60–79).
#[inline(always)]
fn parity(x: u32, y: u32, z: u32) -> u32 {
    x ^ y ^ z
}

/// Maj(x, y, z) (§4.1.1, rounds 40–59), as (x ∧ y) + (z ∧ (x ⊕ y)): the two
/// terms never share a set bit, so the sum equals the OR, and the adds can
/// be spread over the round.
#[inline(always)]
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y).wrapping_add(z & (x ^ y))
}

/// Compress each block in turn.
pub(crate) fn compress(state: &mut [u32; 5], blocks: &[Block<U64>]) {
    let [mut h0, mut h1, mut h2, mut h3, mut h4] = *state;
    // The round constants pass through `black_box`, once per call, so that
    // the optimiser treats them as run-time values: with literal constants
    // its reassociation adds K last, after ROTL⁵(a), which lengthens each
    // round's dependency chain from two operations to three (measured: 7%
    // slower).
    // Not on wasm and 32-bit x86: there `x + y + K` becomes one `lea` with
    // K as its displacement (V8's compiler does the same for wasm), so K
    // added last costs one instruction less per round, and K held in a
    // register costs one of the few there are. Literal constants took SHA-1
    // from 0.88-0.95x to 1.01-1.13x RustCrypto's software backend under
    // Node, and on i686 from 0.91-0.98x to 1.04-1.19x (16 B to 1 MiB, Intel
    // Xeon model 207, `cargo xtask bench-target --target wasm32-wasip1` and
    // `i686-unknown-linux-gnu`). (The x86-64 choice above was measured on
    // AMD Zen 3, whose three-part `lea` has a longer latency than a plain
    // add.)
    #[cfg(not(any(target_family = "wasm", target_arch = "x86")))]
    let k = core::hint::black_box(K);
    #[cfg(any(target_family = "wasm", target_arch = "x86"))]
    let k = K;
    for block in blocks {
        [h0, h1, h2, h3, h4] = compress_block([h0, h1, h2, h3, h4], block, &k);
    }
    *state = [h0, h1, h2, h3, h4];
}

/// One block (§6.1.2 steps 1–4), with the round constants `k` (= K).
#[inline(always)]
pub(super) fn compress_block(state: [u32; 5], block: &Block<U64>, k: &[u32; 4]) -> [u32; 5] {
    // One bounds check for the whole block; the loads below index a
    // fixed-size array with constants.
    let bytes: &[u8; 64] = match <&[u8; 64]>::try_from(&block[..]) {
        Ok(b) => b,
        Err(_) => unreachable!("a SHA-1 block is 64 bytes"),
    };
    // Step 1, t = 0..15: W[t] = M[t], big-endian words (§6.1.2).
    macro_rules! load {
        ($t:expr) => {
            u32::from_be_bytes([bytes[4 * $t], bytes[4 * $t + 1], bytes[4 * $t + 2], bytes[4 * $t + 3]])
        };
    }
    let mut w: [u32; 16] = [
        load!(0),
        load!(1),
        load!(2),
        load!(3),
        load!(4),
        load!(5),
        load!(6),
        load!(7),
        load!(8),
        load!(9),
        load!(10),
        load!(11),
        load!(12),
        load!(13),
        load!(14),
        load!(15),
    ];

    // Step 2: the working variables.
    let [mut a, mut b, mut c, mut d, mut e] = state;

    // Step 1, t = 16..79: W[t] = ROTL¹(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]).
    macro_rules! schedule {
        ($t:expr) => {{
            let x = w[($t - 3) & 15] ^ w[($t - 8) & 15] ^ w[($t - 14) & 15] ^ w[$t & 15];
            w[$t & 15] = x.rotate_left(1);
        }};
    }

    // Step 3, one round: T = ROTL⁵(a) + f_t(b, c, d) + e + K_t + W_t; then
    // e = d, d = c, c = ROTL³⁰(b), b = a, a = T. With the variables passed
    // in rotated order, T is written into `e` (the next round's `a`) and
    // only `b` is rotated in place.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $k:expr, $t:expr) => {
            $e = $e
                .wrapping_add($k)
                .wrapping_add(w[$t & 15])
                .wrapping_add($f($b, $c, $d))
                .wrapping_add($a.rotate_left(5));
            $b = $b.rotate_left(30);
        };
    }

    // Five rounds bring the names back to (a, b, c, d, e).
    macro_rules! five {
        ($f:ident, $k:expr, $t:expr) => {
            round!(a, b, c, d, e, $f, $k, $t);
            round!(e, a, b, c, d, $f, $k, $t + 1);
            round!(d, e, a, b, c, $f, $k, $t + 2);
            round!(c, d, e, a, b, $f, $k, $t + 3);
            round!(b, c, d, e, a, $f, $k, $t + 4);
        };
    }
    macro_rules! five_scheduled {
        ($f:ident, $k:expr, $t:expr) => {
            schedule!($t);
            round!(a, b, c, d, e, $f, $k, $t);
            schedule!($t + 1);
            round!(e, a, b, c, d, $f, $k, $t + 1);
            schedule!($t + 2);
            round!(d, e, a, b, c, $f, $k, $t + 2);
            schedule!($t + 3);
            round!(c, d, e, a, b, $f, $k, $t + 3);
            schedule!($t + 4);
            round!(b, c, d, e, a, $f, $k, $t + 4);
        };
    }

    // Rounds 0–19: Ch, k[0].
    five!(ch, k[0], 0);
    five!(ch, k[0], 5);
    five!(ch, k[0], 10);
    // W[15] is the last loaded word; W[16] onwards is scheduled.
    round!(a, b, c, d, e, ch, k[0], 15);
    schedule!(16);
    round!(e, a, b, c, d, ch, k[0], 16);
    schedule!(17);
    round!(d, e, a, b, c, ch, k[0], 17);
    schedule!(18);
    round!(c, d, e, a, b, ch, k[0], 18);
    schedule!(19);
    round!(b, c, d, e, a, ch, k[0], 19);
    // Rounds 20–39: Parity, k[1].
    five_scheduled!(parity, k[1], 20);
    five_scheduled!(parity, k[1], 25);
    five_scheduled!(parity, k[1], 30);
    five_scheduled!(parity, k[1], 35);
    // Rounds 40–59: Maj, k[2].
    five_scheduled!(maj, k[2], 40);
    five_scheduled!(maj, k[2], 45);
    five_scheduled!(maj, k[2], 50);
    five_scheduled!(maj, k[2], 55);
    // Rounds 60–79: Parity, k[3].
    five_scheduled!(parity, k[3], 60);
    five_scheduled!(parity, k[3], 65);
    five_scheduled!(parity, k[3], 70);
    five_scheduled!(parity, k[3], 75);

    // Step 4: the intermediate hash value H(i).
    [
        state[0].wrapping_add(a),
        state[1].wrapping_add(b),
        state[2].wrapping_add(c),
        state[3].wrapping_add(d),
        state[4].wrapping_add(e),
    ]
}
