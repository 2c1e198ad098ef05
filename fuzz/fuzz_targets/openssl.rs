//! Differential: our digests equal OpenSSL's (the system's libcrypto 3,
//! loaded at run time) for every type OpenSSL has, on every backend this CPU
//! supports, one-shot and in fuzzer-cut `update` pieces; SHAKE output of a
//! fuzzer-chosen length likewise.
#![no_main]

use std::sync::OnceLock;

use hash_core::{BackendKind, FixedAlgorithm, Hasher, Xof, XofAlgorithm};
use hashes_fuzz::{FIXED_TYPES, Input, OpenSsl, backends, expand, for_fixed, for_xof};
use libfuzzer_sys::fuzz_target;

fn openssl() -> &'static OpenSsl {
    static SSL: OnceLock<OpenSsl> = OnceLock::new();
    SSL.get_or_init(|| match OpenSsl::load() {
        Ok(ssl) => ssl,
        Err(e) => {
            eprintln!("openssl target: {e}");
            std::process::exit(2);
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let sel = input.byte() % (FIXED_TYPES + 2);
    let cut = usize::from(input.u16());
    let out_len = usize::from(input.u16()) % 1000;
    let msg = match input.byte() % 4 {
        0 => {
            let n = usize::from(input.u16()) % 9000;
            expand(u64::from(input.byte()), n)
        }
        _ => input.0.to_vec(),
    };
    let cut = cut % (msg.len() + 1);
    if sel < FIXED_TYPES {
        for_fixed!(sel, fixed(&msg, cut));
    } else {
        for_xof!(sel, xof(&msg, out_len));
    }
});

fn fixed<A: FixedAlgorithm>(msg: &[u8], cut: usize) {
    let Some(theirs) = openssl().digest(A::NAME, msg) else { return };
    for backend in backends::<A::Backend>() {
        let ctx = format!("{} [{}] message of {} bytes", A::NAME, backend.name(), msg.len());
        assert_eq!(Hasher::<A>::digest_with_backend(backend, msg).as_ref(), &theirs[..], "{ctx}: one-shot vs OpenSSL");
        let mut h = Hasher::<A>::with_backend(backend);
        h.update(&msg[..cut]);
        h.update(&msg[cut..]);
        assert_eq!(h.finalize().as_ref(), &theirs[..], "{ctx}: streaming (cut at {cut}) vs OpenSSL");
    }
}

fn xof<A: XofAlgorithm>(msg: &[u8], out_len: usize) {
    let mut theirs = vec![0u8; out_len];
    if openssl().xof(A::NAME, msg, &mut theirs).is_none() {
        return;
    }
    for backend in backends::<A::Backend>() {
        let mut ours = vec![0u8; out_len];
        Xof::<A>::digest_xof_with_backend(backend, msg, &mut ours);
        assert_eq!(
            ours,
            theirs,
            "{} [{}] message of {} bytes, {out_len} output bytes vs OpenSSL",
            A::NAME,
            backend.name(),
            msg.len()
        );
    }
}
