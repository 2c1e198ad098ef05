//! `Sha1Dc`: SHA-1 with collision detection, on every backend this CPU
//! supports.
//!
//! * Known answers: the reference implementation's collision files
//!   (SHAttered, SHA-1 is a Shambles, a reduced-round collision) and what
//!   its C tools `sha1dcsum` and `sha1dcsum_partialcoll` print for them.
//! * Differential, against the crate `sha1collisiondetection`: the Rust
//!   port (a mechanical translation) of the reference C implementation by
//!   Stevens and Shumow, so it has the reference's DV table, filter,
//!   recomputation and safe hash, and runs without a C toolchain. Same
//!   verdict, same digest (the safe hash on a detection), and with its safe
//!   hash off the same plain SHA-1 as [`Collision::digest`], on random
//!   messages of many lengths and `update` splits, and on the collision
//!   files with prefixes, suffixes and flipped bits.
//! * No false positive on 10^6 random blocks per backend.

use hash_core::testing::{self, Rng};
use hex_literal::hex;
use sha1::{Backend, Collision, Sha1, Sha1Dc};
use sha1collisiondetection::Sha1CD;

fn backends() -> Vec<Backend> {
    testing::testable_backends::<Backend>("sha1dc")
}

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sha1dc");

fn file(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DATA}/{name}")).unwrap_or_else(|e| panic!("{DATA}/{name}: {e}"))
}

/// The reference's test files (see `tests/data/sha1dc/NOTICE.md`).
fn files() -> Vec<(&'static str, Vec<u8>)> {
    let one = file("shattered-1.pdf");
    let mut two = one.clone();
    two[192..320].copy_from_slice(&file("shattered-2-bytes-192-320.bin"));
    vec![
        ("shattered-1.pdf", one),
        ("shattered-2.pdf", two),
        ("sha-mbles-1.bin", file("sha-mbles-1.bin")),
        ("sha-mbles-2.bin", file("sha-mbles-2.bin")),
        ("sha1_reducedsha_coll.bin", file("sha1_reducedsha_coll.bin")),
    ]
}

/// `Sha1Dc` on `backend` over `data` fed in pieces at `cuts`.
fn ours(backend: Backend, reduced: bool, data: &[u8], cuts: &[usize]) -> Result<[u8; 20], Collision> {
    let mut h = Sha1Dc::builder().backend(backend).detect_reduced_round(reduced).build();
    let mut at = 0;
    for &c in cuts {
        h.update(&data[at..c]);
        at = c;
    }
    h.update(&data[at..]);
    h.finalize()
}

/// The reference port: (collision detected, digest), with the safe hash on
/// or off.
fn reference(data: &[u8], safe: bool) -> (bool, [u8; 20]) {
    let mut h = Sha1CD::configure().safe_hash(safe).build();
    h.update(data);
    let mut out = Default::default();
    let detected = h.finalize_into_dirty_cd(&mut out).is_err();
    (detected, out.into())
}

/// Ours against the reference on `data` (reduced-round detection off, as
/// the port offers no switch for it).
fn same_as_reference(backend: Backend, data: &[u8], cuts: &[usize], what: &str) -> bool {
    let (detected, safe) = reference(data, true);
    let got = ours(backend, false, data, cuts);
    match &got {
        Ok(d) => {
            assert!(!detected, "{what} [{}]: the reference detects a collision, we do not", backend.name());
            assert_eq!(*d, safe, "{what} [{}]: digest", backend.name());
            assert_eq!(*d, Sha1::digest(data), "{what} [{}]: not the SHA-1", backend.name());
        }
        Err(c) => {
            assert!(detected, "{what} [{}]: we detect a collision, the reference does not", backend.name());
            assert_eq!(c.safe_digest(), safe, "{what} [{}]: safe hash", backend.name());
            assert_eq!(c.digest(), reference(data, false).1, "{what} [{}]: plain digest", backend.name());
            assert_eq!(c.digest(), Sha1::digest(data), "{what} [{}]: plain SHA-1", backend.name());
        }
    }
    got.is_err()
}

/// What `sha1dcsum` and `sha1dcsum_partialcoll` print (the safe hash on a
/// detection), and the plain SHA-1 of each file.
/// (file, sha1dcsum, detected, sha1dcsum_partialcoll, detected, SHA-1).
type ToolOutput = (&'static str, [u8; 20], bool, [u8; 20], bool, [u8; 20]);

#[test]
fn reference_tool_outputs() {
    #[rustfmt::skip]
    let expected: [ToolOutput; 5] = [
        // (file, sha1dcsum, detected, sha1dcsum_partialcoll, detected, SHA-1)
        ("shattered-1.pdf", hex!("16e96b70000dd1e7c85b8368ee197754400e58ec"), true,
            hex!("d3a1d09969c3b57113fd17b23e01dd3de74a99bb"), true, hex!("38762cf7f55934b34d179ae6a4c80cadccbb7f0a")),
        ("shattered-2.pdf", hex!("e1761773e6a35916d99f891b77663e6405313587"), true,
            hex!("92246b0b718f4c704d37bb025717cbc66babf102"), true, hex!("38762cf7f55934b34d179ae6a4c80cadccbb7f0a")),
        ("sha-mbles-1.bin", hex!("4f3d9be4a472c4dae83c6314aa6c36a064c1fd14"), true,
            hex!("4f3d9be4a472c4dae83c6314aa6c36a064c1fd14"), true, hex!("8ac60ba76f1999a1ab70223f225aefdc78d4ddc0")),
        ("sha-mbles-2.bin", hex!("9ed5d77a4f48be1dbf3e9e15650733eb850897f2"), true,
            hex!("9ed5d77a4f48be1dbf3e9e15650733eb850897f2"), true, hex!("8ac60ba76f1999a1ab70223f225aefdc78d4ddc0")),
        ("sha1_reducedsha_coll.bin", hex!("a56374e1cf4c3746499bc7c0acb39498ad2ee185"), false,
            hex!("dd39885a2a5d8f59030b451e00cb45da9f9d3828"), true, hex!("a56374e1cf4c3746499bc7c0acb39498ad2ee185")),
    ];
    let files = files();
    for backend in backends() {
        for ((name, data), (name2, dc, dc_hit, partial, partial_hit, plain)) in files.iter().zip(expected) {
            assert_eq!(*name, name2);
            for (reduced, want, hit) in [(false, dc, dc_hit), (true, partial, partial_hit)] {
                let what = format!("{name} [{}] reduced-round detection {reduced}", backend.name());
                let got = ours(backend, reduced, data, &[]);
                match got {
                    Ok(d) => {
                        assert!(!hit, "{what}: collision not detected");
                        assert_eq!(d, want, "{what}");
                    }
                    Err(c) => {
                        assert!(hit, "{what}: collision wrongly detected");
                        assert_eq!(c.safe_digest(), want, "{what}: safe hash");
                        assert_eq!(c.digest(), plain, "{what}: plain SHA-1");
                    }
                }
            }
        }
    }
}

/// The two files of each pair have the same SHA-1 (so they are the
/// collisions they claim to be, and `shattered-2.pdf` was rebuilt right).
#[test]
fn collision_files_collide() {
    let f = files();
    assert_eq!(Sha1::digest(&f[0].1), Sha1::digest(&f[1].1));
    assert_ne!(f[0].1, f[1].1);
    assert_eq!(Sha1::digest(&f[2].1), Sha1::digest(&f[3].1));
    assert_ne!(f[2].1, f[3].1);
}

/// Random splits of `len` bytes.
fn cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut c: Vec<usize> = (0..rng.below(5)).map(|_| rng.below(len + 1)).collect();
    c.sort_unstable();
    c
}

#[test]
fn random_messages_match_reference() {
    let mut rng = Rng::new(0x0005_4a1d_c001);
    let mut n = 0;
    for backend in backends() {
        for len in (0..300).chain([511, 512, 513, 1000, 1024, 4095, 4096, 4097, 65_536]) {
            let data = rng.bytes(len);
            let c = cuts(&mut rng, len);
            assert!(!same_as_reference(backend, &data, &c, &format!("random {len} bytes")));
            n += 1;
        }
    }
    testing::say(format_args!("sha1dc: {n} random messages, same digests and verdicts as sha1collisiondetection"));
}

/// The collision files with random splits, prefixes and suffixes (a
/// prefix of whole blocks keeps the attack's blocks aligned; other lengths
/// move them off the block grid), and with single bits flipped in and
/// around the colliding blocks.
#[test]
fn collision_files_varied_match_reference() {
    let mut rng = Rng::new(20_170_223);
    let files = files();
    let mut detected = 0;
    let mut total = 0;
    for backend in backends() {
        for (name, data) in &files {
            // Keep the tests quick: the PDFs' first 1 KiB holds their
            // colliding blocks (192..320).
            let data = &data[..data.len().min(1024)];
            for _ in 0..6 {
                let prefix = if rng.below(2) == 0 { 64 * rng.below(3) } else { rng.below(130) };
                let mut m = rng.bytes(prefix);
                m.extend_from_slice(data);
                let n = rng.below(200);
                let tail = rng.bytes(n);
                m.extend_from_slice(&tail);
                let c = cuts(&mut rng, m.len());
                detected += usize::from(same_as_reference(backend, &m, &c, &format!("{name} +{prefix} bytes")));
                total += 1;
            }
            for _ in 0..20 {
                let mut m = data.to_vec();
                let at = rng.below(m.len().min(448));
                m[at] ^= 1 << rng.below(8);
                let c = cuts(&mut rng, m.len());
                detected += usize::from(same_as_reference(backend, &m, &c, &format!("{name} bit flipped at {at}")));
                total += 1;
            }
            assert!(same_as_reference(backend, data, &cuts(&mut rng, data.len()), name) || name.contains("reduced"));
        }
    }
    testing::say(format_args!(
        "sha1dc: {total} altered collision files, {detected} detected, as by sha1collisiondetection"
    ));
    assert!(detected > 0);
}

/// No collision reported on 10^6 random blocks (one 64 MB message per
/// backend, also compared with plain SHA-1).
#[test]
fn no_false_positive_on_a_million_random_blocks() {
    // The same 64 MB stream for each backend, made and hashed 64 KiB at a
    // time (a whole 64 MB buffer crashed Node 20.20's WASI runner on exit).
    for backend in backends() {
        let mut rng = Rng::new(1);
        let mut chunk = vec![0u8; 64 * 1024];
        let mut h = Sha1Dc::with_backend(backend);
        let mut plain = Sha1::new();
        for _ in 0..1_000_000 / 1024 {
            rng.fill(&mut chunk);
            h.update(&chunk);
            plain.update(&chunk);
        }
        let mut tail = vec![0u8; 64 * (1_000_000 % 1024)];
        rng.fill(&mut tail);
        h.update(&tail);
        plain.update(&tail);
        assert_eq!(h.finalize(), Ok(plain.finalize()), "[{}]", backend.name());
    }
    testing::say(format_args!("sha1dc: 10^6 random blocks per backend, no collision reported"));
}

/// The one-shot `digest`, which reads the whole blocks from its input and
/// keeps no buffer, gives what the hasher gives at every length around the
/// block and padding boundaries, and on the attack files with up to a block
/// more after them.
#[test]
fn digest_matches_the_hasher() {
    let mut rng = Rng::new(11);
    let data = rng.bytes(300);
    let hasher = |input: &[u8]| {
        let mut h = Sha1Dc::new();
        h.update(input);
        h.finalize()
    };
    for len in 0..=300 {
        let input = &data[..len];
        assert_eq!(Sha1Dc::digest(input), hasher(input), "{len} bytes");
        assert_eq!(Sha1Dc::digest(input), Ok(Sha1::digest(input)), "{len} bytes");
    }
    let mut attacks = 0;
    for (name, f) in files() {
        for more in [0, 1, 55, 56, 63, 64] {
            let input = [&f[..], &data[..more]].concat();
            let got = Sha1Dc::digest(&input);
            assert_eq!(got, hasher(&input), "{name} and {more} bytes");
            attacks += usize::from(got.is_err());
        }
    }
    assert!(attacks > 0);
}

/// `digest_many` gives what `digest` gives, collisions included.
#[test]
fn digest_many_matches_digest() {
    let mut rng = Rng::new(7);
    let files = files();
    let mut inputs: Vec<Vec<u8>> = (0..40).map(|i| rng.bytes(i * 37)).collect();
    for (_, f) in &files {
        inputs.push(f[..f.len().min(2000)].to_vec());
    }
    let refs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let mut out = vec![Ok([0; 20]); refs.len()];
    Sha1Dc::digest_many(&refs, &mut out);
    for (input, got) in refs.iter().zip(&out) {
        assert_eq!(*got, Sha1Dc::digest(input));
    }
    assert!(out.iter().filter(|r| r.is_err()).count() >= 4);
}

#[test]
#[should_panic(expected = "2 inputs but 1 output slots")]
fn digest_many_checks_lengths() {
    let mut out = vec![Ok([0; 20]); 1];
    Sha1Dc::digest_many(&[b"a", b"b"], &mut out);
}

#[test]
fn api() {
    let f = file("sha-mbles-1.bin");
    // reset, clone, finalize_reset, Debug, Display.
    let mut h = Sha1Dc::new();
    h.update(b"junk");
    h.reset();
    h.update(&f[..100]);
    let h2 = h.clone();
    h.update(&f[100..]);
    let e = h.finalize_reset().unwrap_err();
    assert_eq!(e, Sha1Dc::digest(&f).unwrap_err());
    assert_eq!(h.finalize(), Sha1Dc::digest(b""));
    let mut h2 = h2;
    h2.update(&f[100..]);
    assert_eq!(h2.finalize().unwrap_err(), e);
    let text = e.to_string();
    assert!(text.starts_with("SHA-1 collision attack detected"), "{text}");
    assert!(text.contains("8ac60ba76f1999a1ab70223f225aefdc78d4ddc0"), "{text}");
    #[cfg(feature = "std")]
    {
        let _: &dyn std::error::Error = &e;
    }
    assert!(format!("{:?}", Sha1Dc::new()).contains("Sha1Dc"));
    // Reduced-round detection survives reset.
    let r = file("sha1_reducedsha_coll.bin");
    let mut h = Sha1Dc::builder().detect_reduced_round(true).build();
    h.update(b"x");
    h.reset();
    h.update(&r);
    assert!(h.finalize().is_err());
    assert!(Sha1Dc::digest(&r).is_ok());
    // Every backend this build knows: supported ones build, others fail
    // with an error naming what is missing.
    for b in Backend::all() {
        match Sha1Dc::try_with_backend(*b) {
            Ok(h) => assert_eq!(h.backend(), *b),
            Err(e) => {
                assert!(!b.is_supported(), "{} refused", b.name());
                assert!(e.to_string().starts_with("Sha1Dc: the `"), "{e}");
                assert!(e.to_string().contains(b.name()), "{e}");
            }
        }
    }
}

/// The `digest` traits output the safe hash, and `compat::Sha1Dc` works
/// with `hmac`.
#[cfg(feature = "digest")]
#[test]
fn digest_traits_and_hmac() {
    use hash_core::digest::Digest;
    use hmac::{Hmac, Mac};
    let f = file("sha-mbles-1.bin");
    let safe = Sha1Dc::digest(&f).unwrap_err().safe_digest();
    assert_eq!(<Sha1Dc as Digest>::digest(&f)[..], safe);
    assert_eq!(<sha1::compat::Sha1Dc as Digest>::digest(&f)[..], safe);
    assert_eq!(<Sha1Dc as Digest>::digest(b"abc")[..], hex!("a9993e364706816aba3e25717850c26c9cd0d89d"));
    // HMAC: equal to HMAC-SHA-1 where nothing is detected (RFC 2202 case 2).
    let mut mac = Hmac::<sha1::compat::Sha1Dc>::new_from_slice(b"Jefe").unwrap();
    mac.update(b"what do ya want for nothing?");
    assert_eq!(mac.finalize().into_bytes()[..], hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"));
}
