//! Issue 27: the SP 800-185 and RFC 9861 types as first-class as the
//! hashes. `try_with_backend` returns the error and `with_backend`'s panic
//! names the type called (and the one-shot and batch functions' panics name
//! theirs); `reset` forgets the message and keeps the key, strings and
//! backend; `std::io::Write` and the `digest` traits (0.10, and 0.11 with
//! `digest011`) give the inherent API's output; KMAC's `digest::Mac`
//! truncated checks behave as its docs warn.

use std::panic::{AssertUnwindSafe, catch_unwind};

use hash_core::testing::{Rng, say};
use sha3::{
    Backend, CShake128, CShake256, KangarooTwelve, Kmac128, Kmac256, Kt256, ParallelHash128, ParallelHash256, Sha3_256,
    Shake128, TupleHash128, TupleHash256, TurboShake128, TurboShake256,
};

/// A call expected to panic.
type Call<'a> = Box<dyn FnOnce() + 'a>;

/// The text of the panic `f` raises (it must raise one).
fn panic_text(what: &str, f: impl FnOnce()) -> String {
    let err = catch_unwind(AssertUnwindSafe(f)).err().unwrap_or_else(|| panic!("{what} did not panic"));
    match (err.downcast_ref::<String>(), err.downcast_ref::<&str>()) {
        (Some(s), _) => s.clone(),
        (None, Some(s)) => s.to_string(),
        (None, None) => String::new(),
    }
}

/// The backends this CPU (or build) cannot run: on x86-64 at least the two
/// aarch64 ones, on aarch64 the x86 ones.
fn unsupported() -> Vec<Backend> {
    let all: Vec<Backend> = Backend::all().iter().copied().filter(|b| !b.is_supported()).collect();
    assert!(!all.is_empty(), "every build lists the other architecture's backends, unsupported here");
    all
}

/// `$try` is `Err` naming backend `$b` and type `$name` (its text starts
/// "`$name`: "); `$with` panics with "`$name`::with_backend: " and the
/// same error without the type.
macro_rules! refused {
    ($b:expr, $name:literal, $try:expr, $with:expr) => {{
        let e = match $try {
            Ok(_) => panic!("{}::try_with_backend accepted {}", $name, $b.name()),
            Err(e) => e,
        };
        assert_eq!(e.backend, $b.name(), $name);
        assert_eq!(e.called, $name, "the error names the type called");
        assert_eq!(e.to_string(), format!("{}: {}", $name, e.without_type()));
        let text = panic_text($name, || {
            let _ = $with;
        });
        assert_eq!(text, format!("{}::with_backend: {}", $name, e.without_type()));
        text
    }};
}

/// Every type with `with_backend` has `try_with_backend`, which returns
/// the error for a backend this CPU lacks; `with_backend`'s panic names the
/// type called (Kmac256, not the CShake256 inside it).
#[test]
fn unsupported_backends_name_the_type_called() {
    for b in unsupported() {
        let texts = [
            refused!(b, "CShake128", CShake128::try_with_backend(b, b"", b"S"), CShake128::with_backend(b, b"", b"S")),
            refused!(b, "CShake256", CShake256::try_with_backend(b, b"N", b""), CShake256::with_backend(b, b"N", b"")),
            refused!(b, "Kmac128", Kmac128::try_with_backend(b, b"key", b""), Kmac128::with_backend(b, b"key", b"")),
            refused!(b, "Kmac256", Kmac256::try_with_backend(b, b"key", b"S"), Kmac256::with_backend(b, b"key", b"S")),
            refused!(b, "TupleHash128", TupleHash128::try_with_backend(b, b""), TupleHash128::with_backend(b, b"")),
            refused!(b, "TupleHash256", TupleHash256::try_with_backend(b, b"S"), TupleHash256::with_backend(b, b"S")),
            refused!(
                b,
                "ParallelHash128",
                ParallelHash128::try_with_backend(b, 8, b""),
                ParallelHash128::with_backend(b, 8, b"")
            ),
            refused!(
                b,
                "ParallelHash256",
                ParallelHash256::try_with_backend(b, 1, b"S"),
                ParallelHash256::with_backend(b, 1, b"S")
            ),
            refused!(
                b,
                "TurboShake128",
                TurboShake128::try_with_backend(b, 0x1f),
                TurboShake128::with_backend(b, 0x1f)
            ),
            refused!(
                b,
                "TurboShake256",
                TurboShake256::try_with_backend(b, 0x07),
                TurboShake256::with_backend(b, 0x07)
            ),
            refused!(
                b,
                "KangarooTwelve",
                KangarooTwelve::try_with_backend(b, b""),
                KangarooTwelve::with_backend(b, b"")
            ),
            refused!(b, "Kt256", Kt256::try_with_backend(b, b"C"), Kt256::with_backend(b, b"C")),
            refused!(b, "Shake128", Shake128::try_with_backend(b), Shake128::with_backend(b)),
            refused!(b, "Sha3_256", Sha3_256::try_with_backend(b), Sha3_256::with_backend(b)),
        ];
        for t in &texts {
            assert!(t.contains(b.name()) && t.contains("not supported on this CPU"), "{t}");
        }
        // The one-shot and batch functions name the type and the function.
        let checks: [(&str, Call<'_>); 6] = [
            (
                "KangarooTwelve::digest_xof_with_backend",
                Box::new(|| KangarooTwelve::digest_xof_with_backend(b, b"", b"abc", &mut [0u8; 32])),
            ),
            ("Kt256::digest_xof_with_backend", Box::new(|| Kt256::digest_xof_with_backend(b, b"", b"", &mut [0u8; 8]))),
            (
                "Sha3_256::digest_with_backend",
                Box::new(|| {
                    let _ = Sha3_256::digest_with_backend(b, b"abc");
                }),
            ),
            (
                "Sha3_256::digest_many_with_backend",
                Box::new(|| Sha3_256::digest_many_with_backend(b, &[b"a", b"b"], &mut [[0u8; 32]; 2])),
            ),
            (
                "Shake128::digest_xof_with_backend",
                Box::new(|| Shake128::digest_xof_with_backend(b, b"abc", &mut [0u8; 16])),
            ),
            (
                "Shake128::digest_xof_many_with_backend",
                Box::new(|| {
                    let mut out = [0u8; 16];
                    Shake128::digest_xof_many_with_backend(b, &[b"abc"], &mut [&mut out[..]]);
                }),
            ),
        ];
        for (name, f) in checks {
            let text = panic_text(name, f);
            let want = format!("{name}: the `{}` backend is not supported on this CPU", b.name());
            assert!(text.starts_with(&want), "{name}: {text}");
        }
        say(format_args!("backend {}: refused by every type, each naming itself", b.name()));
    }
    // And a supported one is taken.
    for b in Backend::available() {
        assert_eq!(Kmac256::try_with_backend(b, b"k", b"").map(|k| k.backend()), Ok(b));
        assert_eq!(KangarooTwelve::try_with_backend(b, b"").map(|k| k.backend()), Ok(b));
        assert_eq!(ParallelHash128::try_with_backend(b, 3, b"").map(|k| k.backend()), Ok(b));
        assert_eq!(TurboShake256::try_with_backend(b, 1).map(|k| k.backend()), Ok(b));
        assert_eq!(TupleHash128::try_with_backend(b, b"").map(|k| k.backend()), Ok(b));
        assert_eq!(CShake256::try_with_backend(b, b"", b"").map(|k| k.backend()), Ok(b));
    }
}

/// The other panics of these types name the type too.
#[test]
fn argument_panics_name_the_type() {
    let text = panic_text("TurboShake128::new", || {
        let _ = TurboShake128::new(0x80);
    });
    assert!(text.starts_with("TurboShake128::new: TurboSHAKE domain byte 0x80 is outside 0x01..=0x7F"), "{text}");
    let text = panic_text("TurboShake256::with_backend", || {
        let _ = TurboShake256::with_backend(Backend::Portable, 0);
    });
    assert!(text.starts_with("TurboShake256::with_backend: TurboSHAKE domain byte 0x00"), "{text}");
    let text = panic_text("TurboShake256::try_with_backend", || {
        let _ = TurboShake256::try_with_backend(Backend::Portable, 0x80);
    });
    assert!(text.starts_with("TurboShake256::try_with_backend: TurboSHAKE domain byte 0x80"), "{text}");
    let text = panic_text("TurboShake256::digest_xof", || TurboShake256::digest_xof(0xff, b"", &mut [0; 4]));
    assert!(text.starts_with("TurboShake256::digest_xof: TurboSHAKE domain byte 0xff"), "{text}");
    let text = panic_text("ParallelHash256::try_with_backend", || {
        let _ = ParallelHash256::try_with_backend(Backend::Portable, 0, b"");
    });
    assert!(text.starts_with("ParallelHash256: the block size B must be at least 1 byte"), "{text}");
}

/// A mismatched batch names the function called.
#[test]
fn batch_mismatch_names_the_function() {
    let text = panic_text("digest_xof_many", || {
        let mut out = [0u8; 4];
        Shake128::digest_xof_many(&[b"a", b"b"], &mut [&mut out[..]]);
    });
    assert_eq!(text, "Shake128::digest_xof_many: 2 inputs but 1 output slots; pass one output per input");
    let text = panic_text("digest_many", || Sha3_256::digest_many(&[b"a"], &mut [[0; 32]; 3]));
    assert_eq!(text, "Sha3_256::digest_many: 1 inputs but 3 output slots; pass one output per input");
    let text = panic_text("digest_many_with_backend", || {
        Sha3_256::digest_many_with_backend(Backend::Portable, &[], &mut [[0; 32]; 1])
    });
    assert!(text.starts_with("Sha3_256::digest_many_with_backend: 0 inputs but 1 output slots"), "{text}");
}

/// The inherent streaming API every XOF type shares, for the checks below.
trait Stream: Clone {
    const NAME: &'static str;
    fn make() -> Self;
    fn update(&mut self, data: &[u8]);
    fn finalize_xof_reset(&mut self) -> [u8; 40];
    fn reset(&mut self);
    fn out(self) -> [u8; 40];
}

macro_rules! stream {
    ($ty:ident $(<$lt:lifetime>)?, $make:expr) => {
        impl Stream for $ty$(<$lt>)? {
            const NAME: &'static str = stringify!($ty);
            fn make() -> Self {
                $make
            }
            fn update(&mut self, data: &[u8]) {
                $ty::update(self, data)
            }
            fn finalize_xof_reset(&mut self) -> [u8; 40] {
                let mut out = [0u8; 40];
                $ty::finalize_xof_reset(self).read(&mut out);
                out
            }
            fn reset(&mut self) {
                $ty::reset(self)
            }
            fn out(self) -> [u8; 40] {
                let mut out = [0u8; 40];
                self.finalize_xof().read(&mut out);
                out
            }
        }
    };
}

stream!(CShake128, CShake128::new(b"N", b"S"));
stream!(CShake256, CShake256::new(b"", b""));
stream!(Kmac128, Kmac128::new(&[0x4b; 200], b"S"));
stream!(Kmac256, Kmac256::new(b"key", b""));
stream!(ParallelHash128, ParallelHash128::new(7, b"S"));
stream!(ParallelHash256, ParallelHash256::new(2000, b""));
stream!(TurboShake128, TurboShake128::new(0x1f));
stream!(TurboShake256, TurboShake256::new(0x0b));
stream!(KangarooTwelve<'static>, KangarooTwelve::new(b"C"));
stream!(Kt256<'static>, Kt256::new(b""));

/// Messages around the rates, K12's chunk and ParallelHash's groups.
fn messages() -> Vec<Vec<u8>> {
    let mut rng = Rng::new(0x7472_6169);
    [0, 1, 135, 136, 168, 169, 1000, 8192, 8193, 70_000].iter().map(|&n| rng.bytes(n)).collect()
}

/// `reset` forgets the message only: the output after it is a fresh
/// hasher's (KMAC keeps its key, cSHAKE its N and S, ParallelHash its B,
/// TurboSHAKE its D, KangarooTwelve its C); `finalize_xof_reset` gives the
/// output and resets.
fn check_reset<S: Stream>() {
    for msg in messages() {
        let mut fresh = S::make();
        fresh.update(&msg);
        let want = fresh.out();
        let mut h = S::make();
        h.update(b"something else first");
        h.reset();
        h.update(&msg);
        assert_eq!(h.clone().out(), want, "{}: reset, {} bytes", S::NAME, msg.len());
        assert_eq!(h.finalize_xof_reset(), want, "{}: finalize_xof_reset, {} bytes", S::NAME, msg.len());
        h.update(&msg);
        assert_eq!(h.out(), want, "{}: after finalize_xof_reset, {} bytes", S::NAME, msg.len());
    }
}

#[test]
fn reset_keeps_the_parameters() {
    check_reset::<CShake128>();
    check_reset::<CShake256>();
    check_reset::<Kmac128>();
    check_reset::<Kmac256>();
    check_reset::<ParallelHash128>();
    check_reset::<ParallelHash256>();
    check_reset::<TurboShake128>();
    check_reset::<TurboShake256>();
    check_reset::<KangarooTwelve<'static>>();
    check_reset::<Kt256<'static>>();
    let mut t = TupleHash128::new(b"S");
    t.push(b"x");
    t.reset();
    t.push(b"ab");
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    t.finalize_into(&mut a);
    let mut fresh = TupleHash128::new(b"S");
    fresh.push(b"ab");
    fresh.finalize_into(&mut b);
    assert_eq!(a, b, "TupleHash128: reset");
}

/// `std::io::Write` absorbs what it is given, in any split (`write_all`,
/// through a `BufWriter`, `io::copy`), as `update` does.
#[cfg(feature = "std")]
fn check_write<S: Stream + std::io::Write>() {
    use std::io::Write;
    let mut rng = Rng::new(0x7772_6974);
    for msg in messages() {
        let mut want = S::make();
        want.update(&msg);
        let want = want.out();
        let mut h = S::make();
        let mut rest = &msg[..];
        while !rest.is_empty() {
            let n = rng.below(9000).min(rest.len());
            h.write_all(&rest[..n]).unwrap();
            rest = &rest[n..];
        }
        h.flush().unwrap();
        assert_eq!(h.out(), want, "{}: write_all, {} bytes", S::NAME, msg.len());
        let mut buffered = std::io::BufWriter::with_capacity(1000, S::make());
        for piece in msg.chunks(333) {
            buffered.write_all(piece).unwrap();
        }
        assert_eq!(buffered.into_inner().ok().unwrap().out(), want, "{}: BufWriter", S::NAME);
        let mut copied = S::make();
        std::io::copy(&mut &msg[..], &mut copied).unwrap();
        assert_eq!(copied.out(), want, "{}: io::copy", S::NAME);
    }
}

#[cfg(feature = "std")]
#[test]
fn io_write_is_update() {
    check_write::<CShake128>();
    check_write::<CShake256>();
    check_write::<Kmac128>();
    check_write::<Kmac256>();
    check_write::<ParallelHash128>();
    check_write::<ParallelHash256>();
    check_write::<TurboShake128>();
    check_write::<TurboShake256>();
    check_write::<KangarooTwelve<'static>>();
    check_write::<Kt256<'static>>();
}

/// `digest` 0.10's `Update`, `ExtendableOutput`, `ExtendableOutputReset`
/// and `Reset` through generic code give the inherent API's output.
#[cfg(feature = "digest")]
fn check_digest010<S>()
where
    S: Stream + digest::Update + digest::ExtendableOutputReset + digest::Reset,
{
    use digest::{ExtendableOutput, ExtendableOutputReset, Reset, Update, XofReader};
    fn generic<D: Update + ExtendableOutput>(mut d: D, pieces: &[&[u8]]) -> [u8; 40] {
        for p in pieces {
            d.update(p);
        }
        let mut out = [0u8; 40];
        d.finalize_xof().read(&mut out);
        out
    }
    for msg in messages() {
        let mut want = S::make();
        Stream::update(&mut want, &msg);
        let want = Stream::out(want);
        let (a, b) = msg.split_at(msg.len() / 3);
        assert_eq!(generic(S::make(), &[a, b]), want, "{}: digest 0.10 Update + ExtendableOutput", S::NAME);
        let mut d = S::make();
        Update::update(&mut d, b"junk");
        Reset::reset(&mut d);
        Update::update(&mut d, &msg);
        let mut out = [0u8; 40];
        ExtendableOutputReset::finalize_xof_reset(&mut d).read(&mut out);
        assert_eq!(out, want, "{}: digest 0.10 Reset + ExtendableOutputReset", S::NAME);
        assert_eq!(generic(d, &[&msg]), want, "{}: digest 0.10 after finalize_xof_reset", S::NAME);
    }
}

#[cfg(feature = "digest")]
#[test]
fn digest010_traits() {
    check_digest010::<CShake128>();
    check_digest010::<CShake256>();
    check_digest010::<Kmac128>();
    check_digest010::<Kmac256>();
    check_digest010::<ParallelHash128>();
    check_digest010::<ParallelHash256>();
    check_digest010::<TurboShake128>();
    check_digest010::<TurboShake256>();
    check_digest010::<KangarooTwelve<'static>>();
    check_digest010::<Kt256<'static>>();
    fn hash_marker<H: digest::HashMarker>() {}
    hash_marker::<CShake128>();
    hash_marker::<ParallelHash256>();
    hash_marker::<TurboShake128>();
    hash_marker::<Kt256<'static>>();
}

/// `Default` is the parameter-free form (cSHAKE with N and S empty, that
/// is SHAKE; TurboSHAKE with D = 0x1F; KangarooTwelve with C empty), so
/// `digest`'s provided `ExtendableOutput::digest_xof`, which needs
/// `Default`, works on them (0.10 here, 0.11 below).
#[cfg(feature = "digest")]
#[test]
fn default_and_digest_xof() {
    use digest::ExtendableOutput;
    fn one_shot<D: ExtendableOutput + Default>(data: &[u8]) -> [u8; 40] {
        let mut out = [0u8; 40];
        D::digest_xof(data, &mut out);
        out
    }
    for msg in messages() {
        let n = msg.len();
        let mut want = [0u8; 40];
        Shake128::digest_xof(&msg, &mut want);
        assert_eq!(one_shot::<CShake128>(&msg), want, "CShake128::default is SHAKE128, {n} bytes");
        sha3::Shake256::digest_xof(&msg, &mut want);
        assert_eq!(one_shot::<CShake256>(&msg), want, "CShake256::default is SHAKE256, {n} bytes");
        TurboShake128::digest_xof(0x1f, &msg, &mut want);
        assert_eq!(one_shot::<TurboShake128>(&msg), want, "TurboShake128::default has D = 0x1F, {n} bytes");
        TurboShake256::digest_xof(0x1f, &msg, &mut want);
        assert_eq!(one_shot::<TurboShake256>(&msg), want, "TurboShake256::default has D = 0x1F, {n} bytes");
        KangarooTwelve::digest_xof(b"", &msg, &mut want);
        assert_eq!(one_shot::<KangarooTwelve<'_>>(&msg), want, "KangarooTwelve::default has C empty, {n} bytes");
        Kt256::digest_xof(b"", &msg, &mut want);
        assert_eq!(one_shot::<Kt256<'_>>(&msg), want, "Kt256::default has C empty, {n} bytes");
    }
}

/// The same on the 0.11 line, and cSHAKE's `CustomizedInit` (N empty).
#[cfg(feature = "digest011")]
fn check_digest011<S>()
where
    S: Stream + hash_core::digest011::Update + hash_core::digest011::ExtendableOutputReset,
{
    use hash_core::digest011::{ExtendableOutput, ExtendableOutputReset, Reset, Update, XofReader};
    fn generic<D: Update + ExtendableOutput>(mut d: D, pieces: &[&[u8]]) -> [u8; 40] {
        for p in pieces {
            d.update(p);
        }
        let mut out = [0u8; 40];
        d.finalize_xof().read(&mut out);
        out
    }
    for msg in messages() {
        let mut want = S::make();
        Stream::update(&mut want, &msg);
        let want = Stream::out(want);
        let (a, b) = msg.split_at(msg.len() / 2);
        assert_eq!(generic(S::make(), &[a, b]), want, "{}: digest 0.11 Update + ExtendableOutput", S::NAME);
        let mut d = S::make();
        Update::update(&mut d, b"junk");
        Reset::reset(&mut d);
        Update::update(&mut d, &msg);
        let mut out = [0u8; 40];
        ExtendableOutputReset::finalize_xof_reset(&mut d).read(&mut out);
        assert_eq!(out, want, "{}: digest 0.11 Reset + ExtendableOutputReset", S::NAME);
    }
}

#[cfg(feature = "digest011")]
#[test]
fn digest011_traits() {
    use hash_core::digest011::{CustomizedInit, KeyInit, Mac};
    check_digest011::<CShake128>();
    check_digest011::<CShake256>();
    check_digest011::<Kmac128>();
    check_digest011::<Kmac256>();
    check_digest011::<ParallelHash128>();
    check_digest011::<ParallelHash256>();
    check_digest011::<TurboShake128>();
    check_digest011::<TurboShake256>();
    check_digest011::<KangarooTwelve<'static>>();
    check_digest011::<Kt256<'static>>();
    // `Default` gives digest 0.11's provided `digest_xof` too.
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    <KangarooTwelve<'_> as hash_core::digest011::ExtendableOutput>::digest_xof(b"abc", &mut a);
    KangarooTwelve::digest_xof(b"", b"abc", &mut b);
    assert_eq!(a, b, "0.11 digest_xof on KangarooTwelve::default");
    <TurboShake256 as hash_core::digest011::ExtendableOutput>::digest_xof(b"abc", &mut a);
    TurboShake256::digest_xof(0x1f, b"abc", &mut b);
    assert_eq!(a, b, "0.11 digest_xof on TurboShake256::default");
    CShake256::new_customized(b"S").finalize_xof().read(&mut a);
    CShake256::new(b"", b"S").finalize_xof().read(&mut b);
    assert_eq!(a, b, "CustomizedInit is cSHAKE with N empty");
    // KMAC as a 0.11 Mac: the inherent tag with L = the output size.
    let mut m = <Kmac256 as KeyInit>::new_from_slice(b"key").unwrap();
    Mac::update(&mut m, b"message");
    let tag = m.clone().finalize().into_bytes();
    let mut k = Kmac256::new(b"key", b"");
    k.update(b"message");
    let mut want = [0u8; 64];
    k.finalize_into(&mut want);
    assert_eq!(tag[..], want);
    assert!(m.clone().verify_slice(&want).is_ok());
    assert!(m.clone().verify_slice(&want[..63]).is_err());
    let reset_tag = m.finalize_reset().into_bytes();
    assert_eq!(reset_tag[..], want);
    Mac::update(&mut m, b"message");
    assert!(m.clone().verify_slice_reset(&want).is_ok(), "finalize_reset kept the key");
    // The 0.11 truncated checks have the pitfall the docs warn about too.
    assert!(m.clone().verify_truncated_left(&want[..1]).is_ok(), "0.11: 1 byte of the L = 512 tag passes");
    let mut tag16 = [0u8; 16];
    let mut k = Kmac256::new(b"key", b"");
    k.update(b"message");
    k.clone().finalize_into(&mut tag16);
    assert!(m.verify_truncated_left(&tag16).is_err(), "0.11: the genuine L = 128 tag fails");
    assert!(k.verify_len(&tag16, 16), "the inherent check takes it");
}

/// KMAC through `digest::Mac` (0.10): `finalize_reset` / `verify_reset`
/// keep the key; `verify_slice` needs the whole tag; the truncated checks
/// behave as [`Kmac128`]'s docs warn: one byte of the full tag passes,
/// the genuine shorter KMAC tag does not. KMACXOF through
/// `ExtendableOutput` is the inherent `finalize_xof`.
#[cfg(feature = "digest")]
#[test]
fn kmac_mac_and_truncation() {
    use digest::{ExtendableOutput, KeyInit, Mac};
    let mut m = <Kmac128 as KeyInit>::new_from_slice(b"key").unwrap();
    Mac::update(&mut m, b"message");
    let full = m.clone().finalize().into_bytes();
    let mut k = Kmac128::new(b"key", b"");
    k.update(b"message");
    assert!(k.clone().verify_len(&full, 32));
    assert_eq!(m.clone().finalize_reset().into_bytes(), full);
    assert!(m.verify_slice_reset(&[0; 32]).is_err(), "a wrong tag fails (and resets)");
    let mut empty = Kmac128::new(b"key", b"");
    empty.update(b"");
    let mut empty_tag = [0u8; 32];
    empty.finalize_into(&mut empty_tag);
    assert!(m.clone().verify_slice(&empty_tag).is_ok(), "verify_slice_reset reset to the key");
    Mac::update(&mut m, b"message");
    assert!(m.clone().verify_slice(&full).is_ok());
    assert!(m.clone().verify_slice(&full[..16]).is_err(), "verify_slice needs 32 bytes");
    // The pitfalls the docs warn about.
    assert!(m.clone().verify_truncated_left(&full[..1]).is_ok(), "1 byte of the L = 256 tag passes");
    assert!(m.clone().verify_truncated_right(&full[31..]).is_ok(), "so does its last byte");
    let mut tag16 = [0u8; 16];
    k.clone().finalize_into(&mut tag16);
    assert!(m.clone().verify_truncated_left(&tag16).is_err(), "the genuine L = 128 tag fails");
    assert!(k.clone().verify_len(&tag16, 16), "the inherent check takes it");
    assert!(!k.clone().verify(&full[..1]), "and refuses 1 byte (issue 24)");
    // KMACXOF.
    let (mut a, mut b) = ([0u8; 50], [0u8; 50]);
    ExtendableOutput::finalize_xof(k.clone()).read(&mut a);
    k.finalize_xof().read(&mut b);
    assert_eq!(a, b);
}

/// `Debug` names the type called and never the key or the data: the whole
/// text is the type, the backend and the public parameters (a key, string
/// or message printed would add its bytes, as `[115, 101, ...]`).
#[test]
fn debug_names_the_type() {
    let b = Backend::detect();
    let mut k = Kmac256::new(b"secret-key", b"");
    k.update(b"secret message");
    let mut p = ParallelHash128::new(8, b"secret-S");
    p.update(b"secret message");
    let mut t = TurboShake128::new(0x1f);
    t.update(b"secret message");
    for (text, want) in [
        (format!("{k:?}"), format!("Kmac256 {{ backend: {b:?}, .. }}")),
        (format!("{:?}", CShake128::new(b"", b"secret-S")), format!("CShake128 {{ backend: {b:?}, .. }}")),
        (format!("{:?}", TupleHash256::new(b"secret-S")), format!("TupleHash256 {{ backend: {b:?}, .. }}")),
        (format!("{p:?}"), format!("ParallelHash128 {{ block_size: 8, backend: {b:?}, .. }}")),
        (
            format!("{:?}", KangarooTwelve::new(b"secret")),
            format!("KangarooTwelve (KT128) {{ backend: {b:?}, customization_len: 6, .. }}"),
        ),
        (format!("{:?}", Kt256::new(b"")), format!("Kt256 (KT256) {{ backend: {b:?}, customization_len: 0, .. }}")),
    ] {
        assert_eq!(text, want);
    }
    // TurboSHAKE's derived Debug shows its sponge (type and backend only)
    // and D.
    assert_eq!(
        format!("{t:?}"),
        format!("TurboShake128 {{ sponge: TurboSHAKE128 {{ backend: {b:?}, .. }}, domain: 31 }}")
    );
}
