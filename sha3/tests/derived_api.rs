//! API checks of the SP 800-185 and RFC 9861 functions: streaming in any
//! split equals one-shot, every backend (and so every lane engine) equals
//! the portable one on random lengths and splits, the documented panics
//! and errors, and the edge cases of issue 11 that need no oracle (the
//! known answers are in `derived_kat.rs`).

use hash_core::testing::{Rng, say, testable_backends};
use sha3::{
    Backend, CShake128, CShake256, InvalidDomain, KangarooTwelve, Kmac128, Kmac256, Kt256, ParallelHash128,
    ParallelHash256, Shake128, TupleHash128, TupleHash256, TurboShake128, TurboShake256,
};

const PORTABLE: Backend = Backend::Portable;

/// Feed `msg` to `update` in random pieces (empty ones included).
fn in_random_pieces(rng: &mut Rng, msg: &[u8], mut update: impl FnMut(&[u8])) {
    let mut rest = msg;
    while !rest.is_empty() {
        let cap = [1, 8, 200, 9000, 70_000][rng.below(5)];
        let n = rng.below(cap + 1).min(rest.len());
        update(&rest[..n]);
        rest = &rest[n..];
    }
}

/// Lengths around the rates (136, 168), K12's chunk (8192) and its groups
/// of eight leaves, and random ones.
fn lengths(rng: &mut Rng) -> Vec<usize> {
    let mut v = vec![0, 1, 135, 136, 137, 167, 168, 169, 8191, 8192, 8193, 16384, 16385, 9 * 8192 + 1];
    v.extend([8 * 8192 - 1, 8 * 8192, 8 * 8192 + 1, 17 * 8192 + 300, 4913, 83521]);
    v.extend((0..12).map(|_| rng.below(200_000)));
    v
}

macro_rules! kt_checks {
    ($fn:ident, $ty:ident, $cv:literal) => {
        /// Every backend's leaves (its lane engine) against portable;
        /// streaming in random pieces against one-shot.
        #[test]
        fn $fn() {
            let mut rng = Rng::new(0x6b74_0000 + $cv);
            let backends = testable_backends::<Backend>(stringify!($ty));
            for len in lengths(&mut rng) {
                let msg = rng.bytes(len);
                let clen = [0, 1, 8190, 9000][rng.below(4)];
                let custom = rng.bytes(clen);
                let mut want = [0u8; 80];
                $ty::digest_xof_with_backend(PORTABLE, &custom, &msg, &mut want);
                for &backend in &backends {
                    let mut got = [0u8; 80];
                    $ty::digest_xof_with_backend(backend, &custom, &msg, &mut got);
                    assert_eq!(got, want, "{} one-shot, len {len}, C {}", backend.name(), custom.len());
                    let mut h = $ty::with_backend(backend, &custom);
                    in_random_pieces(&mut rng, &msg, |p| h.update(p));
                    let copy = h.clone();
                    let mut reader = h.finalize_xof();
                    let (a, b) = got.split_at_mut(rng.below(80));
                    reader.read(a);
                    reader.read(b);
                    assert_eq!(got, want, "{} streamed, len {len}, C {}", backend.name(), custom.len());
                    let mut again = [0u8; 80];
                    copy.finalize_xof().read(&mut again);
                    assert_eq!(again, want, "{} clone", backend.name());
                }
            }
        }
    };
}

kt_checks!(kt128_backends_and_splits, KangarooTwelve, 32);
kt_checks!(kt256_backends_and_splits, Kt256, 64);

/// The message split exactly at the 8192-byte chunk boundary and at every
/// leaf boundary streams like one-shot (the boundary cases of §3.2: a
/// message of exactly 8192 bytes is a single node, 8193 a tree).
#[test]
fn kt128_chunk_boundaries() {
    let mut rng = Rng::new(7);
    let msg = rng.bytes(20 * 8192 + 5);
    for len in [8191, 8192, 8193, 2 * 8192, 2 * 8192 + 1, 9 * 8192, 9 * 8192 + 1, 20 * 8192 + 5] {
        let msg = &msg[..len];
        let mut want = [0u8; 32];
        KangarooTwelve::digest_xof(b"", msg, &mut want);
        for piece in [1, 8191, 8192, 8193, 65536, 65537] {
            let mut h = KangarooTwelve::new(b"");
            msg.chunks(piece).for_each(|p| h.update(p));
            let mut got = [0u8; 32];
            h.finalize_xof().read(&mut got);
            assert_eq!(got, want, "len {len} in pieces of {piece}");
        }
    }
    // A single node (<= 8192 bytes of S) differs from the tree only in its
    // framing: S = M || C || length_encode(|C|) = 8191 + 0 + 1 bytes is one node.
    let mut a = [0u8; 32];
    let mut b = [0u8; 32];
    KangarooTwelve::digest_xof(b"", &msg[..8191], &mut a);
    let mut t = TurboShake128::new(0x07);
    t.update(&msg[..8191]);
    t.update(&[0x00]);
    t.finalize_xof().read(&mut b);
    assert_eq!(a, b, "8191-byte M with empty C is TurboSHAKE128(S, 0x07)");
}

/// ParallelHash: every backend against portable, streamed in random
/// pieces, for block sizes 1, around the rates, and larger than the message.
#[test]
fn parallelhash_backends_and_splits() {
    let mut rng = Rng::new(0x5048);
    let backends = testable_backends::<Backend>("ParallelHash");
    for len in [0, 1, 7, 100, 1000, 5000, 40_000] {
        let msg = rng.bytes(len);
        for b in [1, 2, 135, 136, 137, 168, 169, 1000, 8192, len + 1] {
            let mut want128 = [0u8; 40];
            let mut want256 = [0u8; 70];
            let mut h = ParallelHash128::with_backend(PORTABLE, b, b"custom");
            h.update(&msg);
            h.finalize_into(&mut want128);
            let mut h = ParallelHash256::with_backend(PORTABLE, b, b"");
            h.update(&msg);
            h.finalize_into(&mut want256);
            for &backend in &backends {
                let mut h = ParallelHash128::with_backend(backend, b, b"custom");
                in_random_pieces(&mut rng, &msg, |p| h.update(p));
                let mut got = [0u8; 40];
                h.finalize_into(&mut got);
                assert_eq!(got, want128, "{} ParallelHash128 len {len} B {b}", backend.name());
                let mut h = ParallelHash256::with_backend(backend, b, b"");
                h.update(&msg);
                let mut got = [0u8; 70];
                h.finalize_into(&mut got);
                assert_eq!(got, want256, "{} ParallelHash256 len {len} B {b}", backend.name());
            }
        }
    }
}

/// ParallelHash built line by line from SP 800-185 §6.3 on cSHAKE, with
/// B = 1 and B larger than the message.
#[test]
fn parallelhash_is_its_definition() {
    let mut rng = Rng::new(0x6363);
    for (len, b) in [(0, 1), (5, 1), (300, 1), (10, 64), (300, 7), (50, 51), (50, 5000)] {
        let msg = rng.bytes(len);
        let n = len.div_ceil(b);
        let mut outer = CShake128::new(b"ParallelHash", b"S");
        outer.update(&left_encode(b as u64));
        for block in msg.chunks(b) {
            let mut z = [0u8; 32];
            CShake128::digest_xof(b"", b"", block, &mut z);
            outer.update(&z);
        }
        outer.update(&right_encode(n as u64));
        outer.update(&right_encode(8 * 48));
        let mut want = [0u8; 48];
        outer.finalize_xof().read(&mut want);
        let mut h = ParallelHash128::new(b, b"S");
        h.update(&msg);
        let mut got = [0u8; 48];
        h.finalize_into(&mut got);
        assert_eq!(got, want, "len {len} B {b}");
    }
}

/// SP 800-185 §2.3.1, written independently of the crate's encoder.
fn left_encode(x: u64) -> Vec<u8> {
    let bytes: Vec<u8> = x.to_be_bytes().into_iter().skip_while(|&b| b == 0).collect();
    let bytes = if bytes.is_empty() { vec![0] } else { bytes };
    let mut v = vec![bytes.len() as u8];
    v.extend(bytes);
    v
}

fn right_encode(x: u64) -> Vec<u8> {
    let mut v = left_encode(x);
    let n = v.remove(0);
    v.push(n);
    v
}

/// cSHAKE, KMAC, TupleHash and TurboSHAKE: every backend against portable,
/// streamed in random pieces; KMAC's key lengths around the rate.
#[test]
fn sponge_functions_backends_and_splits() {
    let mut rng = Rng::new(0xc5);
    let backends = testable_backends::<Backend>("cSHAKE/KMAC/TupleHash/TurboSHAKE");
    for len in [0, 1, 135, 136, 137, 167, 168, 169, 1000, 5000] {
        let msg = rng.bytes(len);
        let klen = [0, 1, 32, 132, 136, 164, 168, 169, 400][rng.below(9)];
        let key = rng.bytes(klen);
        let clen = rng.below(300);
        let custom = rng.bytes(clen);
        let run = |backend: Backend, rng: &mut Rng| {
            let mut out = [0u8; 6 * 50];
            let o: Vec<&mut [u8]> = out.chunks_mut(50).collect();
            let [a, b, c, d, e, f] = <[&mut [u8]; 6]>::try_from(o).unwrap();
            let mut x = CShake128::with_backend(backend, b"N", &custom);
            in_random_pieces(rng, &msg, |p| x.update(p));
            x.finalize_xof().read(a);
            let mut x = CShake256::with_backend(backend, b"", &custom);
            in_random_pieces(rng, &msg, |p| x.update(p));
            x.finalize_xof().read(b);
            let mut x = Kmac128::with_backend(backend, &key, &custom);
            in_random_pieces(rng, &msg, |p| x.update(p));
            x.finalize_into(c);
            let mut x = Kmac256::with_backend(backend, &key, &custom);
            in_random_pieces(rng, &msg, |p| x.update(p));
            x.finalize_xof().read(d);
            let mut x = TupleHash128::with_backend(backend, &custom);
            msg.chunks(37).for_each(|p| x.push(p));
            x.finalize_into(e);
            let mut x = TurboShake128::with_backend(backend, 0x0b);
            in_random_pieces(rng, &msg, |p| x.update(p));
            x.finalize_xof().read(f);
            out
        };
        let want = run(PORTABLE, &mut rng);
        for &backend in &backends {
            assert_eq!(run(backend, &mut rng), want, "{} len {len} key {}", backend.name(), key.len());
        }
    }
}

/// cSHAKE with N and S empty is SHAKE (SP 800-185 §3.3).
#[test]
fn cshake_without_strings_is_shake() {
    let msg = Rng::new(1).bytes(500);
    let (mut a, mut b) = ([0u8; 200], [0u8; 200]);
    CShake128::digest_xof(b"", b"", &msg, &mut a);
    Shake128::digest_xof(&msg, &mut b);
    assert_eq!(a, b);
    CShake128::digest_xof(b"", b"x", &msg, &mut a);
    assert_ne!(a, b, "a customization string changes the output");
}

/// KMAC: `verify` accepts the tag and rejects any one-bit change or a
/// different length; L = 0 works in `finalize_into`; KMAC of length L is not a prefix of a
/// longer one (L is encoded); `digest::Mac` gives the 32-/64-byte tag
/// (with the `digest` feature).
#[test]
fn kmac_verify_and_lengths() {
    let key = b"key";
    let mut tag = [0u8; 100];
    let mut k = Kmac128::new(key, b"S");
    k.update(b"message");
    k.clone().finalize_into(&mut tag);
    assert!(k.clone().verify(&tag));
    for bit in [0, 7, 8 * 99 + 7] {
        let mut bad = tag;
        bad[bit / 8] ^= 1 << (bit % 8);
        assert!(!k.clone().verify(&bad), "bit {bit}");
    }
    assert!(!k.clone().verify(&tag[..99]), "a truncated tag is another KMAC (L is encoded)");
    assert!(!k.clone().verify(&[]), "an empty tag is refused (issue 24)");
    let mut empty = [0u8; 0];
    k.clone().finalize_into(&mut empty);
    let mut short = [0u8; 32];
    k.clone().finalize_into(&mut short);
    assert_ne!(short, tag[..32], "L is part of the input");
    #[cfg(feature = "digest")]
    kmac_through_digest_mac(key);
}

/// `digest::Mac` (SP 800-185 §4: KMAC with L = the output size) gives the
/// tag of the inherent API with an empty customization string.
#[cfg(feature = "digest")]
fn kmac_through_digest_mac(key: &[u8]) {
    use digest::Mac;
    let mut m = <Kmac128 as Mac>::new_from_slice(key).unwrap();
    Mac::update(&mut m, b"message");
    let mac = m.finalize().into_bytes();
    let mut want = [0u8; 32];
    let mut k = Kmac128::new(key, b"");
    k.update(b"message");
    k.finalize_into(&mut want);
    assert_eq!(mac[..], want);
    let mut m = <Kmac256 as Mac>::new_from_slice(&[]).unwrap();
    Mac::update(&mut m, b"");
    assert_eq!(m.finalize().into_bytes().len(), 64);
}

/// TupleHash separates elements: ("ab", "c") differs from ("a", "bc") and
/// from ("abc"); no element differs from one empty element.
#[test]
fn tuplehash_separates_elements() {
    let hash = |elements: &[&[u8]]| {
        let mut t = TupleHash256::new(b"");
        elements.iter().for_each(|e| t.push(e));
        let mut out = [0u8; 64];
        t.finalize_into(&mut out);
        out
    };
    let all = [hash(&[b"ab", b"c"]), hash(&[b"a", b"bc"]), hash(&[b"abc"]), hash(&[]), hash(&[b""])];
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            assert_ne!(all[i], all[j], "tuples {i} and {j}");
        }
    }
}

#[test]
#[should_panic(expected = "ParallelHash128: the block size B must be at least 1 byte")]
fn parallelhash_block_size_zero_panics() {
    let _ = ParallelHash128::new(0, b"");
}

/// Domain bytes outside 0x01..=0x7F are refused (RFC 9861 §2.2): an error
/// from `try_new`, a panic naming the byte from `new`.
#[test]
fn turboshake_domain_range() {
    assert!(ParallelHash256::try_new(0, b"").is_none());
    for d in [0x00, 0x80, 0xff] {
        assert_eq!(TurboShake128::try_new(d).unwrap_err(), InvalidDomain(d));
        assert_eq!(TurboShake256::try_new(d).unwrap_err(), InvalidDomain(d));
        let err = std::panic::catch_unwind(|| TurboShake128::new(d)).unwrap_err();
        let text = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(text.contains("outside 0x01..=0x7F"), "{text}");
    }
    for d in [0x01, 0x1f, 0x7f] {
        assert!(TurboShake128::try_new(d).is_ok() && TurboShake256::try_new(d).is_ok(), "{d:#x}");
    }
    say(format_args!("TurboSHAKE: domain bytes 0x00, 0x80, 0xff refused; 0x01, 0x1f, 0x7f accepted"));
}

/// Debug output names the function and never the key or the data.
#[test]
fn debug_is_quiet() {
    let text = format!("{:?}", Kmac128::new(b"secret-key", b""));
    assert!(!text.contains("secret") && text.contains("Kmac128"), "{text}");
    let text = format!("{:?}", KangarooTwelve::new(b"C"));
    assert!(text.contains("KT128"), "{text}");
}

/// The tags of `len` bytes for `mac`'s message.
fn kmac_tag<M: Clone>(mac: &M, len: usize, finalize: fn(M, &mut [u8])) -> Vec<u8> {
    let mut tag = vec![0u8; len];
    finalize(mac.clone(), &mut tag);
    tag
}

macro_rules! kmac_verify_checks {
    ($fn:ident, $ty:ident, $seed:literal) => {
        /// Issue 24: tags shorter than 4 bytes are refused for every key,
        /// customization and message (the genuine short tag, every 1-byte
        /// tag, random ones), by `verify` and `verify_len`; genuine tags of
        /// 4 bytes and more verify; one flipped bit anywhere in a tag, or a
        /// length other than the expected one, does not.
        #[test]
        fn $fn() {
            let mut rng = Rng::new($seed);
            let fin: fn($ty, &mut [u8]) = $ty::finalize_into;
            assert_eq!($ty::MIN_TAG_LEN, 4);
            let mut refused = 0usize;
            for round in 0..300 {
                let key_len = [0, 1, 16, 32, 167, 168, 169, 500][rng.below(8)];
                let key = rng.bytes(key_len);
                let custom_len = [0, 1, 20, 200][rng.below(4)];
                let custom = rng.bytes(custom_len);
                let msg_len = rng.below(600);
                let msg = rng.bytes(msg_len);
                let mut mac = $ty::new(&key, &custom);
                in_random_pieces(&mut rng, &msg, |p| mac.update(p));
                let ctx = format!(
                    "round {round}: key {} bytes, S {} bytes, message {} bytes",
                    key.len(),
                    custom.len(),
                    msg.len()
                );
                for len in 0..$ty::MIN_TAG_LEN {
                    let genuine = kmac_tag(&mac, len, fin);
                    assert!(!mac.clone().verify(&genuine), "{ctx}: the genuine {len}-byte tag is refused");
                    assert!(!mac.clone().verify_len(&genuine, len), "{ctx}: verify_len, {len} bytes expected");
                    let random = rng.bytes(len);
                    assert!(!mac.clone().verify(&random), "{ctx}: a random {len}-byte tag");
                    refused += 3;
                }
                if round < 4 {
                    // Every 1-byte tag: the 256 guesses of a forger.
                    for b in 0..=255u8 {
                        assert!(!mac.clone().verify(&[b]), "{ctx}: 1-byte tag {b:#04x}");
                    }
                    refused += 256;
                }
                let len = [4, 5, 7, 8, 16, 31, 32, 33, 64, 65, 135, 136, 137, 168, 169, 300][rng.below(16)];
                let tag = kmac_tag(&mac, len, fin);
                assert!(mac.clone().verify(&tag), "{ctx}: the genuine {len}-byte tag verifies");
                assert!(mac.clone().verify_len(&tag, len), "{ctx}: verify_len({len})");
                for other in [0, 1, 3, 4, len - 1, len + 1, 2 * len] {
                    if other != len {
                        assert!(!mac.clone().verify_len(&tag, other), "{ctx}: {len}-byte tag, {other} expected");
                    }
                }
                let bit = rng.below(8 * len);
                let mut bad = tag.clone();
                bad[bit / 8] ^= 1 << (bit % 8);
                assert!(!mac.clone().verify(&bad), "{ctx}: {len}-byte tag, bit {bit} flipped");
                assert!(!mac.clone().verify_len(&bad, len), "{ctx}: verify_len, bit {bit} flipped");
            }
            // Every bit of a 4-byte and of a full-size tag, one at a time.
            let mut mac = $ty::new(b"key", b"");
            mac.update(b"message");
            for len in [4, 32, 64] {
                let tag = kmac_tag(&mac, len, fin);
                assert!(mac.clone().verify(&tag));
                for bit in 0..8 * len {
                    let mut bad = tag.clone();
                    bad[bit / 8] ^= 1 << (bit % 8);
                    assert!(!mac.clone().verify(&bad), "{len}-byte tag, bit {bit} flipped");
                }
            }
            say(format_args!(
                "{}: {refused} tags shorter than 4 bytes refused; 300 genuine tags of 4-300 bytes verified",
                stringify!($ty)
            ));
        }
    };
}

kmac_verify_checks!(kmac128_verify_refuses_short_tags, Kmac128, 0x6b6d_0128);
kmac_verify_checks!(kmac256_verify_refuses_short_tags, Kmac256, 0x6b6d_0256);
