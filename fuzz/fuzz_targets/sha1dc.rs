//! `Sha1Dc` against `sha1collisiondetection` (the Rust port of the
//! reference C implementation): same verdict, same digest (the safe hash on
//! a detection) and, with the port's safe hash off, the same plain SHA-1 as
//! `Collision::digest`, on every backend this CPU supports, with the message
//! fed in fuzzer-chosen pieces.
//!
//! Input: a mode byte, a split byte, then the message. The mode picks the
//! message as given, or one of the reference's collision files (SHA-1 is a
//! Shambles; the first 1 KiB of SHAttered, which holds its colliding
//! blocks) XORed with the input and then extended by the input's tail, so
//! that the fuzzer explores the blocks next to real attacks, where the
//! detection has the most to decide. `digest_many` (its lanes engine where
//! the CPU has one) hashes the message among others and must agree with
//! `digest`.
#![no_main]

use hashes_fuzz::Input;
use libfuzzer_sys::fuzz_target;
use sha1::{Backend, Sha1Dc};
use sha1collisiondetection::Sha1CD;

const SHAMBLES: &[u8] = include_bytes!("../../sha1/tests/data/sha1dc/sha-mbles-1.bin");
const SHATTERED: &[u8] = include_bytes!("../../sha1/tests/data/sha1dc/shattered-1.pdf");

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let mode = input.byte();
    let split = usize::from(input.byte());
    let rest = input.0;
    let base: &[u8] = match mode % 3 {
        0 => &[],
        1 => SHAMBLES,
        _ => &SHATTERED[..1024],
    };
    let mut msg = base.to_vec();
    for (m, x) in msg.iter_mut().zip(rest) {
        *m ^= x;
    }
    if rest.len() > msg.len() {
        msg.extend_from_slice(&rest[msg.len()..]);
    }

    let reference = |safe: bool| {
        let mut h = Sha1CD::configure().safe_hash(safe).build();
        h.update(&msg);
        let mut out = Default::default();
        let detected = h.finalize_into_dirty_cd(&mut out).is_err();
        (detected, <[u8; 20]>::from(out))
    };
    let (detected, safe) = reference(true);
    let plain = reference(false).1;

    for backend in Backend::available() {
        let mut h = Sha1Dc::with_backend(backend);
        // Pieces of `split` bytes (and whatever is left), or one piece.
        if split == 0 {
            h.update(&msg);
        } else {
            for piece in msg.chunks(split) {
                h.update(piece);
            }
        }
        let name = backend.name();
        match h.finalize() {
            Ok(d) => {
                assert!(!detected, "[{name}] the reference detects a collision in {} bytes, we do not", msg.len());
                assert_eq!(d, safe, "[{name}] digest of {} bytes", msg.len());
            }
            Err(c) => {
                assert!(detected, "[{name}] we detect a collision in {} bytes, the reference does not", msg.len());
                assert_eq!(c.safe_digest(), safe, "[{name}] safe hash of {} bytes", msg.len());
                assert_eq!(c.digest(), plain, "[{name}] plain SHA-1 of {} bytes", msg.len());
            }
        }
    }

    // A batch: the message, pieces of it and a collision file, of
    // different lengths, so that lanes end and detect at different blocks.
    let cut = &msg[..msg.len().min(split * 7)];
    let batch: [&[u8]; 4] = [&msg, cut, SHAMBLES, &msg[msg.len() / 3..]];
    let mut outs = vec![Ok([0u8; 20]); batch.len()];
    Sha1Dc::digest_many(&batch, &mut outs);
    for (m, got) in batch.iter().zip(&outs) {
        assert_eq!(*got, Sha1Dc::digest(m), "digest_many, {} bytes", m.len());
    }
});
