//! Known answers for cSHAKE, KMAC, KMACXOF, TupleHash(XOF), ParallelHash(XOF)
//! (NIST SP 800-185), TurboSHAKE and KT128/KT256 (RFC 9861), on every
//! backend this CPU supports, one-shot and streamed in uneven pieces. The
//! vector files are written by `cargo xtask kat` (xtask/src/kat/sha3_derived.py:
//! NIST's example values, RFC 9861 §5, pycryptodome and its test vectors).

use hash_core::testing::kat::{RecordView, VectorFile};
use hash_core::testing::{say, testable_backends};
use sha3::{
    Backend, CShake128, CShake256, KangarooTwelve, Kmac128, Kmac256, Kt256, ParallelHash128, ParallelHash256,
    TupleHash128, TupleHash256, TurboShake128, TurboShake256,
};

macro_rules! data {
    ($file:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/", $file)
    };
}

/// Piece sizes for the streamed runs, used in turn.
const PIECES: [usize; 9] = [1, 7, 135, 136, 168, 169, 1000, 8191, 8193];

/// RFC 9861 §5's ptn(n).
fn ptn(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

/// The byte string of field `key`: hex, or `<key>Ptn = n`, or `<key>FF = n`.
fn bytes_field(r: &RecordView<'_>, key: &str) -> Vec<u8> {
    if r.field(key).is_some() {
        return r.hex(key);
    }
    let number = |k: &str| {
        r.field(k).map(|v| v.parse::<usize>().unwrap_or_else(|_| panic!("{}: `{k}` is not a number", r.place)))
    };
    if let Some(n) = number(&format!("{key}Ptn")) {
        return ptn(n);
    }
    if let Some(n) = number(&format!("{key}FF")) {
        return vec![0xff; n];
    }
    panic!("{}: no `{key}`, `{key}Ptn` or `{key}FF` field", r.place)
}

fn number(r: &RecordView<'_>, key: &str) -> usize {
    let v = r.field(key).unwrap_or_else(|| panic!("{}: no `{key}` field", r.place));
    v.parse().unwrap_or_else(|_| panic!("{}: `{key} = {v}` is not a number", r.place))
}

/// Feed `msg` to `update` in the pieces of [`PIECES`], starting at `turn`.
fn pieces(msg: &[u8], mut turn: usize, mut update: impl FnMut(&[u8])) {
    let mut rest = msg;
    while !rest.is_empty() {
        let n = PIECES[turn % PIECES.len()].min(rest.len());
        update(&rest[..n]);
        rest = &rest[n..];
        turn += 1;
    }
}

/// Compute the record's output with `backend`; `streamed` feeds the
/// message in pieces (else in one call).
fn compute(r: &RecordView<'_>, backend: Backend, streamed: bool) -> Vec<u8> {
    let want_len = r.hex("Output").len();
    let skip = r.field("Skip").map_or(0, |_| number(r, "Skip"));
    let mut out = vec![0u8; skip + want_len];
    let feed = |msg: &[u8], update: &mut dyn FnMut(&[u8])| {
        if streamed { pieces(msg, msg.len(), update) } else { update(msg) }
    };
    macro_rules! xof {
        ($h:expr, $msg:expr) => {{
            let mut h = $h;
            feed(&$msg, &mut |p| h.update(p));
            h.finalize_xof().read(&mut out);
        }};
    }
    match r.section {
        "cSHAKE128" => xof!(CShake128::with_backend(backend, &r.hex("N"), &r.hex("S")), bytes_field(r, "Msg")),
        "cSHAKE256" => xof!(CShake256::with_backend(backend, &r.hex("N"), &r.hex("S")), bytes_field(r, "Msg")),
        "KMAC128" | "KMAC256" => {
            // `verify` must accept the recorded tag, or refuse it when it is
            // shorter than MIN_TAG_LEN (issue 24): a wrong answer shows as
            // a wrong (empty) output.
            let (key, s, msg, tag) = (r.hex("Key"), r.hex("S"), bytes_field(r, "Msg"), r.hex("Output"));
            let verified = if r.section == "KMAC128" {
                let mut h = Kmac128::with_backend(backend, &key, &s);
                feed(&msg, &mut |p| h.update(p));
                let ok = h.clone().verify(&tag) == (tag.len() >= Kmac128::MIN_TAG_LEN);
                h.finalize_into(&mut out);
                ok
            } else {
                let mut h = Kmac256::with_backend(backend, &key, &s);
                feed(&msg, &mut |p| h.update(p));
                let ok = h.clone().verify(&tag) == (tag.len() >= Kmac256::MIN_TAG_LEN);
                h.finalize_into(&mut out);
                ok
            };
            if !verified {
                return Vec::new();
            }
        }
        "KMACXOF128" => xof!(Kmac128::with_backend(backend, &r.hex("Key"), &r.hex("S")), bytes_field(r, "Msg")),
        "KMACXOF256" => xof!(Kmac256::with_backend(backend, &r.hex("Key"), &r.hex("S")), bytes_field(r, "Msg")),
        s if s.starts_with("TupleHash") => {
            let tuple = r.field("Tuple").unwrap_or("");
            let elements: Vec<Vec<u8>> = if number(r, "Elements") == 0 {
                Vec::new()
            } else {
                tuple
                    .split(',')
                    .map(|e| {
                        (0..e.len() / 2)
                            .map(|i| u8::from_str_radix(&e[2 * i..2 * i + 2], 16).expect("hex element"))
                            .collect()
                    })
                    .collect()
            };
            assert_eq!(elements.len(), number(r, "Elements"), "{}: element count", r.place);
            let custom = r.hex("S");
            match s {
                "TupleHash128" | "TupleHashXOF128" => {
                    let mut h = TupleHash128::with_backend(backend, &custom);
                    elements.iter().for_each(|e| h.push(e));
                    if s == "TupleHash128" { h.finalize_into(&mut out) } else { h.finalize_xof().read(&mut out) }
                }
                _ => {
                    let mut h = TupleHash256::with_backend(backend, &custom);
                    elements.iter().for_each(|e| h.push(e));
                    if s == "TupleHash256" { h.finalize_into(&mut out) } else { h.finalize_xof().read(&mut out) }
                }
            }
        }
        s if s.starts_with("ParallelHash") => {
            let (b, custom, msg) = (number(r, "B"), r.hex("S"), bytes_field(r, "Msg"));
            if s.ends_with("128") {
                let mut h = ParallelHash128::with_backend(backend, b, &custom);
                feed(&msg, &mut |p| h.update(p));
                if s.contains("XOF") { h.finalize_xof().read(&mut out) } else { h.finalize_into(&mut out) }
            } else {
                let mut h = ParallelHash256::with_backend(backend, b, &custom);
                feed(&msg, &mut |p| h.update(p));
                if s.contains("XOF") { h.finalize_xof().read(&mut out) } else { h.finalize_into(&mut out) }
            }
        }
        "TurboSHAKE128" | "TurboSHAKE256" => {
            let d = u8::from_str_radix(r.field("D").expect("a D field"), 16).expect("D is a hex byte");
            if r.section == "TurboSHAKE128" {
                xof!(TurboShake128::with_backend(backend, d), bytes_field(r, "Msg"))
            } else {
                xof!(TurboShake256::with_backend(backend, d), bytes_field(r, "Msg"))
            }
        }
        "KT128" | "KT256" => {
            let (msg, c) = (bytes_field(r, "Msg"), bytes_field(r, "C"));
            match (r.section, streamed) {
                ("KT128", false) => KangarooTwelve::digest_xof_with_backend(backend, &c, &msg, &mut out),
                ("KT256", false) => Kt256::digest_xof_with_backend(backend, &c, &msg, &mut out),
                ("KT128", true) => xof!(KangarooTwelve::with_backend(backend, &c), msg),
                _ => xof!(Kt256::with_backend(backend, &c), msg),
            }
        }
        other => panic!("{}: unknown section [{other}]", r.place),
    }
    out.split_off(skip)
}

/// Every record of `file` on every backend, one-shot and streamed; the
/// failures (file, line, section, record, backend), or the counts.
fn check(file: &VectorFile, backends: &[Backend]) -> Result<usize, Vec<String>> {
    let mut failures = Vec::new();
    let records = file.records();
    for r in &records {
        let want = r.hex("Output");
        for &backend in backends {
            for streamed in [false, true] {
                if compute(r, backend, streamed) != want {
                    let how = if streamed { "streamed" } else { "one-shot" };
                    failures.push(format!("{} [{}] {how}", r.place, backend.name()));
                }
            }
        }
    }
    if failures.is_empty() { Ok(records.len()) } else { Err(failures) }
}

fn run(path: &str) {
    let file = VectorFile::load(path);
    let backends = testable_backends::<Backend>(path);
    match check(&file, &backends) {
        Ok(n) => {
            let names: Vec<&str> = backends.iter().map(|b| b.name()).collect();
            say(format_args!("{path}: {n} records passed on [{}], one-shot and streamed", names.join(", ")));
        }
        Err(failures) => panic!("{} known-answer check(s) failed:\n  {}", failures.len(), failures.join("\n  ")),
    }
}

#[test]
fn cshake() {
    run(data!("cshake.txt"));
}

#[test]
fn kmac() {
    run(data!("kmac.txt"));
}

#[test]
fn tuplehash() {
    run(data!("tuplehash.txt"));
}

#[test]
fn parallelhash() {
    run(data!("parallelhash.txt"));
}

#[test]
fn turboshake() {
    run(data!("turboshake.txt"));
}

#[test]
fn kangarootwelve() {
    run(data!("kangarootwelve.txt"));
}

/// A changed digit in any file's first output is caught and reported with
/// its line; a dropped record fails the header's count.
#[test]
fn edited_vector_files_fail() {
    for path in [
        data!("cshake.txt"),
        data!("kmac.txt"),
        data!("tuplehash.txt"),
        data!("parallelhash.txt"),
        data!("turboshake.txt"),
        data!("kangarootwelve.txt"),
    ] {
        let text = std::fs::read_to_string(path).expect("vector file").replace("\r\n", "\n");
        let at = text.find("\nOutput = ").expect("an Output line") + "\nOutput = ".len();
        let mut edited = text.clone().into_bytes();
        edited[at] = if edited[at] == b'0' { b'1' } else { b'0' };
        let edited = String::from_utf8(edited).expect("ASCII");
        let file = VectorFile::parse(path, &edited).expect("still well-formed");
        let failures = check(&file, &[Backend::Portable]).expect_err("a changed digit must fail");
        let line = text[..at].lines().count();
        assert!(failures.iter().all(|f| f.starts_with(&format!("{path}:"))), "{failures:?}");
        assert!(
            failures.len() == 2,
            "exactly the edited record fails, one-shot and streamed: {failures:?} (line {line})"
        );
        let body = text.trim_end();
        let cut = body.rfind("\n\n").expect("records");
        assert!(VectorFile::parse(path, &body[..cut + 1]).is_err(), "{path}: a dropped record must fail");
    }
}
