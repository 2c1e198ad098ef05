//! KMAC verification: `verify(tag)` is true exactly when the tag is at
//! least 4 bytes long and equals the KMAC of the message with L = its
//! length, recomputed with `finalize_into` on the portable backend; and
//! `verify_len(tag, n)` is that and `tag.len() == n`. For KMAC128 and
//! KMAC256 on every backend this CPU supports, with fuzzer-chosen keys,
//! customization strings, messages (absorbed in two fuzzer-cut pieces) and
//! tags: the genuine tag, the genuine tag with one bit flipped, the genuine
//! tag of another length, or the fuzzer's bytes.
#![no_main]

use hashes_fuzz::{Input, backends, expand, portable};
use libfuzzer_sys::fuzz_target;
use sha3::{Backend, Kmac128, Kmac256};

/// The inherent KMAC API that both types share.
trait Kmac: Clone {
    const NAME: &'static str;
    fn with_backend(backend: Backend, key: &[u8], customization: &[u8]) -> Self;
    fn update(&mut self, data: &[u8]);
    fn finalize_into(self, out: &mut [u8]);
    fn verify(self, tag: &[u8]) -> bool;
    fn verify_len(self, tag: &[u8], expected_len: usize) -> bool;
}

macro_rules! kmac {
    ($ty:ident) => {
        impl Kmac for $ty {
            const NAME: &'static str = stringify!($ty);
            fn with_backend(backend: Backend, key: &[u8], customization: &[u8]) -> Self {
                $ty::with_backend(backend, key, customization)
            }
            fn update(&mut self, data: &[u8]) {
                $ty::update(self, data)
            }
            fn finalize_into(self, out: &mut [u8]) {
                $ty::finalize_into(self, out)
            }
            fn verify(self, tag: &[u8]) -> bool {
                $ty::verify(self, tag)
            }
            fn verify_len(self, tag: &[u8], expected_len: usize) -> bool {
                $ty::verify_len(self, tag, expected_len)
            }
        }
    };
}

kmac!(Kmac128);
kmac!(Kmac256);

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    match input.byte() % 2 {
        0 => run::<Kmac128>(input.0),
        _ => run::<Kmac256>(input.0),
    }
});

/// The KMAC of `msg` with L = `len` bytes, on the portable backend.
fn tag<K: Kmac>(key: &[u8], custom: &[u8], msg: &[u8], len: usize) -> Vec<u8> {
    let mut k = K::with_backend(portable::<Backend>(), key, custom);
    k.update(msg);
    let mut out = vec![0u8; len];
    k.finalize_into(&mut out);
    out
}

/// `len` bytes, from the input or (odd choice byte) expanded from a seed.
fn bytes(input: &mut Input<'_>, len: usize) -> Vec<u8> {
    if input.byte() & 1 == 0 { input.bytes(len).to_vec() } else { expand(u64::from(input.byte()), len) }
}

fn run<K: Kmac>(data: &[u8]) {
    let mut input = Input(data);
    let key_len = usize::from(input.u16()) % 400;
    let key = bytes(&mut input, key_len);
    let custom_len = usize::from(input.byte());
    let custom = bytes(&mut input, custom_len);
    let msg_len = usize::from(input.u16()) % 3000;
    let msg = bytes(&mut input, msg_len);
    let cut = usize::from(input.u16()) % (msg.len() + 1);
    let len = usize::from(input.u16()) % 300;
    let mode = input.byte() % 4;
    let expected_len = match input.byte() % 4 {
        0 => usize::from(input.byte()),
        _ => len,
    };
    let genuine = tag::<K>(&key, &custom, &msg, len);
    let candidate = match mode {
        0 => genuine.clone(),
        1 if len > 0 => {
            let bit = usize::from(input.u16()) % (8 * len);
            let mut t = genuine.clone();
            t[bit / 8] ^= 1 << (bit % 8);
            t
        }
        2 => {
            // The genuine tag of another length, cut or padded to `len`.
            let other = usize::from(input.byte());
            let mut t = tag::<K>(&key, &custom, &msg, other);
            t.resize(len, 0);
            t
        }
        _ => {
            let mut t = input.bytes(len).to_vec();
            t.resize(len, 0);
            t
        }
    };
    // The reference: KMAC recomputed with L = the candidate's length.
    let want = candidate.len() >= 4 && candidate == tag::<K>(&key, &custom, &msg, candidate.len());
    if mode == 0 {
        assert_eq!(want, len >= 4, "a genuine tag of {len} bytes");
    }
    for backend in backends::<Backend>() {
        let ctx = format!(
            "{} [{}] key {} bytes, S {} bytes, message {} bytes cut at {cut}, tag {} bytes (mode {mode})",
            K::NAME,
            backend.name(),
            key.len(),
            custom.len(),
            msg.len(),
            candidate.len()
        );
        let mut k = K::with_backend(backend, &key, &custom);
        k.update(&msg[..cut]);
        k.update(&msg[cut..]);
        assert_eq!(k.clone().verify(&candidate), want, "{ctx}: verify");
        assert_eq!(
            k.verify_len(&candidate, expected_len),
            want && candidate.len() == expected_len,
            "{ctx}: verify_len({expected_len})"
        );
    }
}
