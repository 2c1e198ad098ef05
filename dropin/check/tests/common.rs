//! Checks shared by the per-line test files: known answers from the
//! workspace's vector files, and drop-in against original on random inputs
//! cut at random places.

#![allow(dead_code)]

use hash_core::testing::kat::VectorFile;
use hash_core::testing::{say, Rng};

/// The workspace's vector file `crate_dir/tests/data/file`.
pub fn vectors(crate_dir: &str, file: &str) -> VectorFile {
    VectorFile::load(&format!("{}/../../{crate_dir}/tests/data/{file}", env!("CARGO_MANIFEST_DIR")))
}

/// Every byte-oriented message record (`Msg`/`MsgBase64` with `MD`) of
/// `file`, through `digest`, which must give `MD`. Returns the count.
pub fn known_answers(crate_dir: &str, file: &str, name: &str, digest: impl Fn(&[u8]) -> Vec<u8>) -> usize {
    let file_data = vectors(crate_dir, file);
    let mut n = 0;
    for record in file_data.records() {
        let (Some(_), Some(len)) = (record.field("MD"), record.field("Len")) else { continue };
        let bits: usize = len.parse().expect("Len is a number");
        let msg = match (record.field("MsgBase64"), record.field("Msg")) {
            (Some(b64), _) => base64(b64),
            (None, Some(_)) => record.hex("Msg"),
            // The `[Pattern]` records (md5.txt): byte i of the message is
            // the top byte of i * 0x9E3779B1 mod 2^32.
            (None, None) if record.section == "Pattern" => {
                (0..bits / 8).map(|i| ((i as u32).wrapping_mul(0x9E37_79B1) >> 24) as u8).collect()
            }
            (None, None) => panic!("{name}: {}: no message", record.place),
        };
        let msg = &msg[..bits / 8];
        assert_eq!(hex(&digest(msg)), hex(&record.hex("MD")), "{name}: {}", record.place);
        n += 1;
    }
    assert!(n > 0, "{name}: no message records in {file}");
    say(format_args!("{name}: {n} known answers from {crate_dir}/tests/data/{file}"));
    n
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c:#x}"),
        }
    };
    let clean: Vec<u8> = text.bytes().filter(|&c| c != b'=' && !c.is_ascii_whitespace()).collect();
    let mut out = Vec::new();
    for chunk in clean.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= value(c) << (18 - 6 * i);
        }
        out.extend_from_slice(&acc.to_be_bytes()[1..chunk.len()]);
    }
    out
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Message lengths to try: every length up to a few blocks, then a spread
/// up to 64 KiB.
pub fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=600).collect();
    let mut rng = Rng::new(7);
    v.extend((0..60).map(|_| 600 + rng.below(65_536)));
    v
}

/// `len` random bytes, and a random cut of them into pieces.
pub fn message_and_splits(rng: &mut Rng, len: usize) -> (Vec<u8>, Vec<usize>) {
    let msg = rng.bytes(len);
    let mut cuts = Vec::new();
    let mut at = 0;
    while at < len {
        let step = match rng.below(4) {
            0 => 1 + rng.below(8),
            1 => 1 + rng.below(200),
            2 => 1 + rng.below(2000),
            _ => len - at,
        }
        .min(len - at);
        cuts.push(step);
        at += step;
    }
    (msg, cuts)
}

/// Feed `msg` to `update` in the pieces `cuts` gives.
pub fn feed(msg: &[u8], cuts: &[usize], mut update: impl FnMut(&[u8])) {
    let mut at = 0;
    for &c in cuts {
        update(&msg[at..at + c]);
        at += c;
    }
}
