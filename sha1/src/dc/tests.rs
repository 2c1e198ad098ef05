//! The filter near each disturbance vector's conditions: blocks whose
//! expanded message meets every unavoidable bit condition of a DV, and the
//! same with one condition broken (the way the reference tests its
//! filter), through every backend's filter and the whole detection, with
//! the verdicts and digests of the reference port.

use std::vec;
use std::vec::Vec;

use hash_core::testing::{self, Rng};

use super::detect::{self, Expanded};
use super::tables::{DVS, UBCS};
use super::{Backend, Sha1Dc};

/// W[0..80] as linear functions of the 512 message bits: `forms[t][bit]`
/// is the set (as a 512-bit vector) of message bits whose XOR is bit `bit`
/// of W[t].
fn linear_forms() -> Vec<[[u64; 8]; 32]> {
    let mut forms = vec![[[0u64; 8]; 32]; 80];
    for k in 0..512 {
        let mut block = [0u8; 64];
        // Message bit k: bit (k % 32) of word k / 32 (big-endian words).
        let word = k / 32;
        let bit = k % 32;
        block[4 * word + 3 - bit / 8] = 1 << (bit % 8);
        let mut w = [0u32; 80];
        detect::expand(&block, &mut w);
        for (wt, form) in w.iter().zip(forms.iter_mut()) {
            for (b, f) in form.iter_mut().enumerate() {
                if wt >> b & 1 == 1 {
                    f[k / 64] |= 1 << (k % 64);
                }
            }
        }
    }
    forms
}

/// A block from `rng` adjusted (by Gaussian elimination over GF(2)) so that
/// its expanded message meets every condition of DV `dv`, except that the
/// condition at index `broken` of the DV's list is made false.
fn block_for(forms: &[[[u64; 8]; 32]], rng: &mut Rng, dv: usize, broken: Option<usize>) -> [u8; 64] {
    let mut block = [0u8; 64];
    rng.fill(&mut block);
    let mut w = [0u32; 80];
    detect::expand(&block, &mut w);
    // Rows: (form, wanted change of the condition's XOR).
    let mut rows: Vec<([u64; 8], u8)> = Vec::new();
    for (n, c) in UBCS.iter().filter(|c| c.dvs >> dv & 1 == 1).enumerate() {
        let (i, a, j, b) = (usize::from(c.i), usize::from(c.a), usize::from(c.j), usize::from(c.b));
        let mut form = forms[i][a];
        for (x, y) in form.iter_mut().zip(&forms[j][b]) {
            *x ^= y;
        }
        let now = ((w[i] >> a) ^ (w[j] >> b)) as u8 & 1;
        let want = c.value ^ u8::from(broken == Some(n));
        rows.push((form, now ^ want));
    }
    // Reduce, then solve for a change of the message bits.
    let mut pivots: Vec<(usize, [u64; 8], u8)> = Vec::new();
    for (mut form, mut rhs) in rows {
        for (p, pf, pr) in &pivots {
            if form[p / 64] >> (p % 64) & 1 == 1 {
                for (x, y) in form.iter_mut().zip(pf) {
                    *x ^= y;
                }
                rhs ^= pr;
            }
        }
        let Some(p) = (0..512).find(|&k| form[k / 64] >> (k % 64) & 1 == 1) else {
            assert_eq!(rhs, 0, "DV {dv}: inconsistent conditions");
            continue;
        };
        // Keep earlier pivots reduced by this row.
        for (_, pf, pr) in &mut pivots {
            if pf[p / 64] >> (p % 64) & 1 == 1 {
                for (x, y) in pf.iter_mut().zip(&form) {
                    *x ^= y;
                }
                *pr ^= rhs;
            }
        }
        pivots.push((p, form, rhs));
    }
    // Fully reduced: flipping the pivot bit of each row whose rhs is 1
    // changes exactly that row's condition.
    for (p, _, rhs) in &pivots {
        if *rhs == 1 {
            block[4 * (p / 32) + 3 - (p % 32) / 8] ^= 1 << (p % 8);
        }
    }
    block
}

#[test]
fn blocks_at_each_dv_conditions() {
    let forms = linear_forms();
    let mut rng = Rng::new(2017);
    let backends = testing::testable_backends::<Backend>("sha1dc filter");
    let mut blocks = 0;
    let mut batch = Vec::new();
    for dv in 0..32 {
        let n = UBCS.iter().filter(|c| c.dvs >> dv & 1 == 1).count();
        for broken in [None].into_iter().chain((0..n).map(Some)) {
            for _ in 0..3 {
                let block = block_for(&forms, &mut rng, dv, broken);
                let mut x = Expanded::ZERO;
                detect::expand(&block, &mut x.w);
                let mask = detect::ubc_mask(&x.w);
                for (name, other) in simd_filters() {
                    assert_eq!(other(&x.w), mask, "{name} filter, DV {dv} broken {broken:?}");
                }
                assert_eq!(mask >> dv & 1 == 1, broken.is_none(), "DV {dv} broken {broken:?}: mask {mask:08x}");
                // Each condition, checked on its own, against the mask.
                for i in 0..DVS.len() {
                    let meets = UBCS.iter().filter(|c| c.dvs >> i & 1 == 1).all(|c| {
                        ((x.w[usize::from(c.i)] >> c.a) ^ (x.w[usize::from(c.j)] >> c.b)) & 1 == u32::from(c.value)
                    });
                    assert_eq!(mask >> i & 1 == 1, meets, "DV {i}");
                }
                // Whole detection, every backend, against the reference:
                // the block after a random prefix block, and alone.
                let mut msg = rng.bytes(64);
                msg.extend_from_slice(&block);
                for m in [&block[..], &msg[..]] {
                    let mut r = sha1collisiondetection::Sha1CD::default();
                    r.update(m);
                    let mut out = Default::default();
                    let detected = r.finalize_into_dirty_cd(&mut out).is_err();
                    let want: [u8; 20] = out.into();
                    for &b in &backends {
                        let mut h = Sha1Dc::with_backend(b);
                        h.update(m);
                        let got = h.finalize();
                        assert_eq!(got.is_err(), detected, "DV {dv} [{}]", b.name());
                        assert_eq!(got.unwrap_or_else(|c| c.safe_digest()), want, "DV {dv} [{}]", b.name());
                    }
                    batch.push((m.to_vec(), detected, want));
                }
                blocks += 1;
            }
        }
    }
    // All of them in one batch: through the lanes engine where this CPU
    // has it (see `lanes_engine_matches_digest`).
    let inputs: Vec<&[u8]> = batch.iter().map(|(m, _, _)| m.as_slice()).collect();
    let mut outs = vec![Ok([0u8; 20]); inputs.len()];
    Sha1Dc::digest_many(&inputs, &mut outs);
    for ((_, detected, want), got) in batch.iter().zip(&outs) {
        assert_eq!(got.is_err(), *detected);
        assert_eq!(got.clone().unwrap_or_else(|c| c.safe_digest()), *want);
    }
    testing::say(format_args!(
        "sha1dc: {blocks} blocks at the 32 DVs' conditions (all met, or one broken): filter as the tables say, verdicts as sha1collisiondetection"
    ));
}

/// The collision files in `tests/data/sha1dc/`: SHAttered's two PDFs (the
/// second rebuilt from the first and its differing bytes), SHA-1 is a
/// Shambles' two messages, and the reduced-round collision.
fn attack_files() -> [Vec<u8>; 5] {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sha1dc/");
    let read = |name: &str| std::fs::read(std::format!("{dir}{name}")).expect("collision file");
    let one = read("shattered-1.pdf");
    let mut two = one.clone();
    two[192..320].copy_from_slice(&read("shattered-2-bytes-192-320.bin"));
    [one, two, read("sha-mbles-1.bin"), read("sha-mbles-2.bin"), read("sha1_reducedsha_coll.bin")]
}

/// A filter: W to the mask of DVs to recompute.
type Filter = fn(&[u32; 80]) -> u32;

/// The SIMD filters this CPU runs, by name.
fn simd_filters() -> Vec<(&'static str, Filter)> {
    #[allow(unused_mut)]
    let mut v: Vec<(&'static str, Filter)> = Vec::new();
    #[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
    {
        if super::cpuid_avx2::get() {
            // SAFETY: avx2 checked just above.
            v.push(("avx2", |w| unsafe { super::x86::ubc_avx2(w) }));
        } else {
            testing::say(format_args!("sha1dc: SKIPPED the avx2 filter: this CPU lacks avx2"));
        }
    }
    #[cfg(all(target_arch = "x86_64", feature = "shani"))]
    {
        if std::is_x86_feature_detected!("sse4.1") {
            // SAFETY: sse4.1 (and so sse2) checked just above.
            v.push(("sse4.1", |w| unsafe { super::x86::ubc_sse41(w) }));
        } else {
            testing::say(format_args!("sha1dc: SKIPPED the sse4.1 filter: this CPU lacks SSE4.1"));
        }
    }
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    {
        if crate::backend::batch_on_avx512_lanes(Backend::detect(), 64, 1024) {
            // SAFETY: `batch_on_avx512_lanes` confirmed avx512f.
            v.push(("avx512 lanes", |w| unsafe { super::x86_avx512::ubc_lane0(w) }));
        } else {
            testing::say(format_args!("sha1dc: SKIPPED the 16-lane filter: batches do not run on AVX-512 lanes here"));
        }
    }
    #[cfg(all(target_arch = "x86_64", feature = "shani", feature = "avx512"))]
    {
        if super::cpuid_avx512vl::get() {
            // SAFETY: avx2, avx512f and avx512vl checked just above.
            v.push(("avx512vl", |w| unsafe { super::x86::ubc_avx512vl(w) }));
        } else {
            testing::say(format_args!("sha1dc: SKIPPED the avx512vl filter: this CPU lacks AVX-512F/VL"));
        }
    }
    #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            // SAFETY: neon checked just above.
            v.push(("neon", |w| unsafe { super::aarch64::ubc_neon(w) }));
        } else {
            testing::say(format_args!("sha1dc: SKIPPED the neon filter: this CPU lacks NEON"));
        }
    }
    #[cfg(not(any(
        all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")),
        all(target_arch = "aarch64", feature = "arm-sha")
    )))]
    testing::say(format_args!("sha1dc: no SIMD filter in this build or on this target (the portable filter only)"));
    v
}

/// Every x86 single-message detection path this CPU runs, called directly
/// rather than through the dispatch (which picks one per CPU: the SHA-NI
/// path for CPUs without AVX2, with the SSE4.1 filter, runs nowhere else
/// in the tests, and qemu does not emulate SHA-NI), against the portable
/// path: random runs of blocks with blocks at a DV's conditions among
/// them, and the collision files behind random blocks, cut into one to
/// three calls, with and without reduced-round detection.
#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
#[test]
fn x86_paths_match_portable() {
    type Path = fn(&mut super::DcState, &[[u8; 64]]);
    #[allow(unused_mut)]
    let mut paths: Vec<(&str, Path)> = Vec::new();
    #[cfg(feature = "shani")]
    if Backend::ShaNi.is_supported() {
        // SAFETY: the `sha-ni` backend's features (sha, sse2, ssse3,
        // sse4.1), checked just above, are all that path needs.
        paths.push(("sha-ni + sse4.1", |st, b| unsafe { super::x86::process_shani(st, b) }));
        if super::cpuid_avx2::get() {
            // SAFETY: as above, and avx2 checked just above.
            paths.push(("sha-ni + avx2", |st, b| unsafe { super::x86::process_shani_avx2(st, b) }));
        }
    }
    #[cfg(all(feature = "shani", feature = "avx512"))]
    if Backend::ShaNiAvx512.is_supported() {
        // SAFETY: the `sha-ni-avx512` backend's features, checked just
        // above (AVX-512F implies AVX2).
        paths.push(("sha-ni-avx512", |st, b| unsafe { super::x86::process_shani_avx512(st, b) }));
    }
    #[cfg(feature = "avx2")]
    if Backend::Avx2.is_supported() {
        // SAFETY: the `avx2` backend's features, checked just above.
        paths.push(("avx2", |st, b| unsafe { super::x86::process_avx2(st, b) }));
    }
    let names: Vec<&str> = paths.iter().map(|(n, _)| *n).collect();
    if paths.len() < 4 {
        testing::say(format_args!(
            "sha1dc: x86 paths: SKIPPED the ones this CPU cannot run (running: {})",
            names.join(", ")
        ));
    }
    let forms = linear_forms();
    let mut rng = Rng::new(1990);
    let files = attack_files();
    let mut messages: Vec<Vec<[u8; 64]>> = Vec::new();
    for f in &files {
        // As they are (detected), and behind random blocks (another
        // chaining value: the same blocks then pass the filter but are not
        // an attack).
        messages.push(f.as_chunks::<64>().0.to_vec());
        let mut m: Vec<[u8; 64]> = (0..1 + rng.below(2)).map(|_| rng.bytes(64).try_into().expect("64 bytes")).collect();
        m.extend_from_slice(f.as_chunks::<64>().0);
        messages.push(m);
    }
    for k in 0..60 {
        let mut m: Vec<[u8; 64]> = (0..rng.below(40)).map(|_| rng.bytes(64).try_into().expect("64 bytes")).collect();
        if k % 3 == 0 && !m.is_empty() {
            let (at, dv) = (rng.below(m.len()), rng.below(32));
            m[at] = block_for(&forms, &mut rng, dv, None);
        }
        messages.push(m);
    }
    let (mut detected, mut runs) = (0, 0);
    for m in &messages {
        for reduced in [false, true] {
            let init = super::DcState { reduced, ..super::DcState::INIT };
            let mut want = init.clone();
            super::process_with(&mut want, m, detect::compress_block, detect::ubc_mask);
            detected += usize::from(want.found);
            for (name, path) in &paths {
                let mut st = init.clone();
                let (a, b) = (rng.below(m.len() + 1), rng.below(m.len() + 1));
                let (a, b) = (a.min(b), a.max(b));
                for part in [&m[..a], &m[a..b], &m[b..]] {
                    path(&mut st, part);
                }
                assert_eq!(st, want, "{name}: {} blocks, reduced {reduced}, calls split at {a} and {b}", m.len());
                runs += 1;
            }
        }
    }
    // The four attack files in both modes, the reduced-round one in one.
    assert_eq!(detected, 9, "detections by the portable path");
    testing::say(format_args!(
        "sha1dc: {runs} runs of the x86 paths ({}) as the portable one ({detected} messages and modes with a detection, each through every path)",
        names.join(", ")
    ));
}

/// The SIMD filters against the table-driven one on arbitrary words (not
/// only expanded messages), and on words that meet most conditions.
#[test]
fn simd_filters_match_portable() {
    let mut rng = Rng::new(58);
    let mut n = 0;
    for (name, filter) in simd_filters() {
        for k in 0..200_000 {
            let mut w = [0u32; 80];
            for x in w.iter_mut() {
                *x = rng.next_u64() as u32;
            }
            if k % 2 == 1 {
                // Meet every condition, then break a few at random.
                for c in UBCS.iter() {
                    let bit = ((w[usize::from(c.i)] >> c.a) ^ (w[usize::from(c.j)] >> c.b)) & 1;
                    if bit != u32::from(c.value) {
                        w[usize::from(c.i)] ^= 1 << c.a;
                    }
                }
                for _ in 0..rng.below(4) {
                    w[35 + rng.below(30)] ^= 1 << rng.below(32);
                }
            }
            assert_eq!(filter(&w), detect::ubc_mask(&w), "{name}: {w:08x?}");
            n += 1;
        }
    }
    testing::say(format_args!("sha1dc: {n} word arrays, SIMD filters as the table-driven one"));
}

/// The lane engines of `digest_many` that run on this CPU (interleaved
/// SHA-NI streams on AMD with SHA-NI and AVX2, the 16 AVX-512 lanes where
/// the plain batches use them), called directly: the collision files whole
/// (detections in a lane, then further steps with that lane past its
/// detection) and cut short, copies behind random prefixes, among random
/// messages of many lengths, against `Sha1Dc::digest`.
#[test]
fn lanes_engine_matches_digest() {
    type Engine = fn(Backend, &[&[u8]], &mut [Result<[u8; 20], super::Collision>]);
    #[allow(unused_mut)]
    let mut engines: Vec<(&str, Engine)> = Vec::new();
    let backend = Backend::detect();
    // The streams engine runs only on AMD cores (a speed choice); it is
    // tested wherever the CPU has what it needs.
    #[cfg(all(target_arch = "x86_64", feature = "shani", feature = "avx2"))]
    if super::lanes::runnable(Backend::ShaNi) {
        engines
            .push(("sha-ni streams", |_, inputs, outputs| super::lanes::digest_many(Backend::ShaNi, inputs, outputs)));
    } else {
        testing::say(format_args!("sha1dc: streams engine SKIPPED: this CPU lacks SHA-NI or AVX2"));
    }
    #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
    if crate::backend::batch_on_avx512_lanes(backend, 64, 1024) {
        engines.push(("avx512 16 lanes", super::lanes::digest_many_16));
    } else {
        testing::say(format_args!(
            "sha1dc: 16-lane engine SKIPPED: plain SHA-1 batches do not use AVX-512 lanes on this CPU"
        ));
    }
    for (engine_name, engine) in engines {
        let files = attack_files();
        let mut rng = Rng::new(20);
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for round in 0..3 {
            for f in &files {
                // Cut the PDFs short in later rounds: other lane mixes.
                let f = if round == 0 { &f[..] } else { &f[..f.len().min(700 * round + 640)] };
                inputs.push(f.to_vec());
                let prefix = 64 * (1 + rng.below(3));
                let mut moved = rng.bytes(prefix);
                moved.extend_from_slice(f);
                inputs.push(moved);
            }
            for _ in 0..12 {
                let len = rng.below(3000);
                inputs.push(rng.bytes(len));
            }
        }
        let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        let mut out = vec![Ok([0; 20]); refs.len()];
        engine(backend, &refs, &mut out);
        for (input, got) in refs.iter().zip(&out) {
            assert_eq!(*got, Sha1Dc::digest(input), "{engine_name}: {} bytes", input.len());
        }
        // The four attack files in each round; a random prefix changes the
        // chaining value the attack was built for, so those copies (and
        // the reduced-round collision, with that detection off) are not.
        let found = out.iter().filter(|r| r.is_err()).count();
        assert_eq!(found, 12, "{engine_name}: detections");
        // Subsets: every lane count from 1 up.
        for n in 1..=20 {
            let mut part = vec![Ok([0; 20]); n];
            engine(backend, &refs[..n], &mut part);
            assert_eq!(part[..], out[..n], "{engine_name}: {n} messages");
        }
        testing::say(format_args!(
            "sha1dc: {engine_name} engine on {} messages, {found} detections, as digest",
            refs.len()
        ));
    }
}

/// The queue of deferred checks (`super::queue`: the single-message SHA-NI
/// and `avx2` paths, the `digest_many` engines), with the AVX2 and AVX-512
/// lane checks, against `detect::check` block by block: queues of 1 to 40
/// blocks that the filter lets through, random ones and the attack files'
/// blocks at every queue position, with and without reduced-round
/// detection, through full queues and both kinds of flush (scalar for a
/// few blocks, the lanes for more).
#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
#[test]
fn check_queue_matches_scalar_checks() {
    if super::cpuid_avx2::get() {
        // SAFETY: avx2 checked just above.
        check_queue::<8>("avx2", |q, r| unsafe { super::x86::check_queued8(q, r) });
    } else {
        testing::say(format_args!("sha1dc: the AVX2 check queue SKIPPED: this CPU lacks avx2"));
    }
    #[cfg(feature = "avx512")]
    if super::cpuid_avx512vl::get() {
        // SAFETY: avx512f checked just above.
        check_queue::<16>("avx512", |q, r| unsafe { super::x86_avx512::check_queued(q, r) });
    } else {
        testing::say(format_args!("sha1dc: the AVX-512 check queue SKIPPED: this CPU lacks AVX-512F/VL"));
    }
    #[cfg(not(feature = "avx512"))]
    testing::say(format_args!("sha1dc: the AVX-512 check queue not in this build (feature avx512)"));
}

/// [`check_queue_matches_scalar_checks`] with `L` lanes checked by `lanes`.
#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
fn check_queue<const L: usize>(name: &str, lanes: impl Fn(&super::queue::CheckQueue<L>, u32) -> u32) {
    use super::queue::CheckQueue;
    struct Entry {
        block: [u8; 64],
        mask: u32,
        h: [u32; 5],
        next: [u32; 5],
        x: Expanded,
    }
    let entry = |h: [u32; 5], block: [u8; 64]| {
        let mut x = Expanded::ZERO;
        let next = detect::compress_block(h, &block, &mut x);
        Entry { block, mask: detect::ubc_mask(&x.w), h, next, x }
    };
    let verdict = |e: &Entry, reduced| detect::check(e.h, e.next, &e.x, e.mask, reduced);
    // The attack files' blocks that the filter lets through, along their
    // chains.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sha1dc/");
    let read = |name: &str| std::fs::read(std::format!("{dir}{name}")).expect("collision file");
    let mut attack = Vec::new();
    for file in ["shattered-1.pdf", "sha-mbles-1.bin", "sha1_reducedsha_coll.bin"] {
        let data = read(file);
        let mut h = super::H0;
        for block in data.as_chunks::<64>().0.iter().take(12) {
            let e = entry(h, *block);
            h = e.next;
            if e.mask != 0 {
                attack.push(e);
            }
        }
    }
    assert!(attack.iter().any(|e| verdict(e, false)) && attack.iter().any(|e| verdict(e, true) && !verdict(e, false)));
    let mut rng = Rng::new(0x9e37);
    let mut random = || loop {
        let h: [u32; 5] = core::array::from_fn(|_| rng.next_u64() as u32);
        let e = entry(h, rng.bytes(64).try_into().expect("64 bytes"));
        if e.mask != 0 {
            return e;
        }
    };
    let pool: Vec<Entry> = (0..200).map(|_| random()).collect();
    let mut rng = Rng::new(0x51);
    let (mut queues, mut found) = (0, 0);
    for n in 1..=40 {
        for _ in 0..12 {
            let reduced = rng.below(2) == 1;
            let picks: Vec<&Entry> = (0..n)
                .map(
                    |_| if rng.below(8) == 0 { &attack[rng.below(attack.len())] } else { &pool[rng.below(pool.len())] },
                )
                .collect();
            let want = picks.iter().position(|e| verdict(e, reduced)).map(|k| (k, picks[k].h));
            let mut q = CheckQueue::<L>::EMPTY;
            let mut got = None;
            for (k, e) in picks.iter().enumerate() {
                if q.push(k, &e.block, e.mask, e.h, e.next, e.x.s58, e.x.s65) {
                    got = q.flush(reduced, &lanes);
                    if got.is_some() {
                        break;
                    }
                }
            }
            if want.is_none() || got.is_none() {
                got = got.or_else(|| q.flush(reduced, &lanes));
            }
            assert_eq!(got, want, "{name}: {n} queued, reduced {reduced}");
            queues += 1;
            found += usize::from(want.is_some());
        }
    }
    assert!(found > 0);
    // `digest_many`'s flushes: streams with and without reduced-round
    // detection in one queue, each stopping at its first detected block.
    #[cfg(any(feature = "shani", feature = "avx512"))]
    let (streams, mixed) = {
        const N: usize = 4;
        let (mut streams, mut mixed) = (0, 0);
        for _ in 0..300 {
            let mut sts: [super::DcState; N] =
                core::array::from_fn(|_| super::DcState { reduced: rng.below(2) == 1, ..super::DcState::INIT });
            let mut q = CheckQueue::<L>::EMPTY;
            let mut picks: [Vec<&Entry>; N] = Default::default();
            for _ in 0..1 + rng.below(L - 1) {
                let i = rng.below(N);
                let e = if rng.below(4) == 0 { &attack[rng.below(attack.len())] } else { &pool[rng.below(pool.len())] };
                assert!(!q.push(N * picks[i].len() + i, &e.block, e.mask, e.h, e.next, e.x.s58, e.x.s65));
                picks[i].push(e);
            }
            let (mut live, mut stop) = ([true; N], [usize::MAX; N]);
            q.flush_streams(&mut sts, &mut live, &mut stop, &lanes);
            for i in 0..N {
                let want = picks[i].iter().position(|e| verdict(e, sts[i].reduced));
                assert_eq!(live[i], want.is_none(), "{name}: stream {i}");
                if let Some(k) = want {
                    assert_eq!((stop[i], sts[i].ihv), (k, picks[i][k].h), "{name}: stream {i}");
                    streams += 1;
                }
            }
            mixed += usize::from(sts.iter().any(|s| s.reduced) && sts.iter().any(|s| !s.reduced));
        }
        assert!(streams > 0 && mixed > 0);
        (streams, mixed)
    };
    #[cfg(not(any(feature = "shani", feature = "avx512")))]
    let (streams, mixed) = (0, 0);
    testing::say(format_args!(
        "sha1dc: {name} check queue ({L} lanes) on {queues} queues ({found} with a detection), and {mixed} flushes \
         of streams with and without reduced-round detection ({streams} stops), as detect::check"
    ));
}
