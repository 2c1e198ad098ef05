//! The x86 lane engines against the portable sponge, called directly: every
//! rate of this crate (SHA3-512's 72 bytes up to SHAKE128's and
//! TurboSHAKE128's 168), Keccak-f (24 rounds) and the 12-round Keccak-p of
//! TurboSHAKE and KangarooTwelve, 0 to 3 blocks, a different random state
//! and message in every lane, and messages at every offset from an aligned
//! address, so that each rate's transposed loads (whole 64-byte groups and
//! the overlapping last one) and the state's loads and stores are all
//! checked lane by lane.
extern crate std;
use std::vec::Vec;

use hash_core::testing::{Rng, say};

/// `absorb(states, data)` on `N` lanes equals `portable::absorb` lane by
/// lane.
fn check<const N: usize, const RATE: usize, const ROUNDS: usize>(
    name: &str,
    absorb: impl Fn(&mut [[u64; 25]; N], [&[u8]; N]),
) {
    let mut rng = Rng::new(0x1a4e_0000 + (RATE * 100 + ROUNDS) as u64);
    for blocks in 0..=3 {
        for offset in 0..8 {
            let start: [[u64; 25]; N] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()));
            let buffers: [Vec<u8>; N] = core::array::from_fn(|lane| rng.bytes(blocks * RATE + 8 + lane));
            let data: [&[u8]; N] = core::array::from_fn(|lane| &buffers[lane][(offset + lane) % 8..][..blocks * RATE]);
            let mut want = start;
            for (state, msg) in want.iter_mut().zip(data) {
                let chunks: Vec<&[u8]> = msg.chunks(RATE).collect();
                super::portable::absorb::<RATE, ROUNDS, &[u8]>(state, &chunks);
            }
            let mut got = start;
            absorb(&mut got, data);
            for lane in 0..N {
                assert_eq!(
                    got[lane], want[lane],
                    "{name}::<{RATE}, {ROUNDS}>: lane {lane}, {blocks} blocks, offset {offset}"
                );
            }
        }
    }
}

/// [`check`] for every rate and both round counts; `$call` names the
/// engine, run inside `unsafe` (the caller checked its CPU features).
macro_rules! every_rate {
    ($n:literal, $name:literal, $module:ident :: $engine:ident) => {
        every_rate!(@each $n, $name, $module::$engine, 72, 104, 136, 144, 168);
    };
    (@each $n:literal, $name:literal, $module:ident :: $engine:ident, $($rate:literal),*) => {
        $(
            // SAFETY: the caller checked the engine's CPU features.
            check::<$n, $rate, 24>($name, |s, d| unsafe { super::$module::$engine::<$rate, 24>(s, d) });
            // SAFETY: as above.
            check::<$n, $rate, 12>($name, |s, d| unsafe { super::$module::$engine::<$rate, 12>(s, d) });
        )*
    };
}

#[cfg(feature = "avx512")]
#[test]
fn avx512_engine_matches_portable() {
    if !super::Backend::Avx512.is_supported() {
        say(format_args!("sha3: SKIPPED the avx512 lane engine test: this CPU has no AVX-512F"));
        return;
    }
    every_rate!(8, "absorb8", x86_avx512::absorb8);
}

#[cfg(feature = "avx2")]
#[test]
fn avx2_engine_matches_portable() {
    if !super::Backend::Avx2.is_supported() {
        say(format_args!("sha3: SKIPPED the avx2 lane engine test: this CPU has no AVX2"));
        return;
    }
    every_rate!(4, "absorb4", x86_avx2::absorb4);
}
