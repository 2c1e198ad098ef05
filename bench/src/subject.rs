//! The one calling convention every implementation is timed through: a
//! one-shot [`Subject`], a batch [`ManySubject`] and a streaming
//! [`StreamSubject`], each a set of closures.

use std::hint::black_box;

use crate::{Algo, MAX_OUT};

/// The family name of our own crates in reports.
pub const OURS: &str = "ours";

type HashFn = dyn Fn(&[u8], &mut [u8]);

type RunFn = dyn Fn(&[u8], u64) -> u8;

type ManyRunFn = dyn Fn(&[&[u8]], u64) -> u8;

type ManyHashFn = dyn Fn(&[&[u8]], &mut [Vec<u8>]);

type PiecesFn = dyn Fn(&[&[u8]], &mut [u8]);

/// One implementation of one algorithm, ready to be timed.
pub struct Subject {
    /// The algorithm.
    pub algo: &'static Algo,
    /// Who wrote it: [`OURS`], `"openssl"`, `"ring"`, `"rustcrypto-0.10"`, ...
    pub family: &'static str,
    /// Our backend's name, or the peer's version; may be empty.
    pub variant: String,
    /// For our subjects: this is the backend `Backend::detect()` picks.
    pub detected: bool,
    hash: Box<HashFn>,
    run: Box<RunFn>,
}

impl Subject {
    /// A subject whose one-shot hash of `data` writes exactly `out.len()`
    /// (= `algo.out_len`) bytes into `out`.
    ///
    /// The timing loop is monomorphised over `f`, so timing costs no
    /// indirect call per message.
    pub fn new<F>(algo: &'static Algo, family: &'static str, variant: impl Into<String>, detected: bool, f: F) -> Self
    where
        F: Fn(&[u8], &mut [u8]) + Copy + 'static,
    {
        let out_len = algo.out_len;
        let run = move |data: &[u8], iters: u64| {
            let mut out = [0u8; MAX_OUT];
            let out = &mut out[..out_len];
            let mut fold = 0u8;
            for _ in 0..iters {
                f(black_box(data), out);
                fold ^= black_box(&*out)[0];
            }
            fold
        };
        Subject { algo, family, variant: variant.into(), detected, hash: Box::new(f), run: Box::new(run) }
    }

    /// `"ours sha-ni"`, `"openssl"`, `"rustcrypto-0.10"`.
    pub fn label(&self) -> String {
        if self.variant.is_empty() || self.family != OURS {
            self.family.to_string()
        } else {
            format!("{} {}", self.family, self.variant)
        }
    }

    /// The digest of `data` (`algo.out_len` bytes), to check the subject
    /// against the others before timing it.
    pub fn digest(&self, data: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; self.algo.out_len];
        (self.hash)(data, &mut out);
        out
    }

    /// Hash `data` `iters` times; returns a byte of the results so that
    /// the work cannot be optimised away.
    #[inline]
    pub fn run(&self, data: &[u8], iters: u64) -> u8 {
        (self.run)(data, iters)
    }
}

/// A batch subject: hashes a set of messages at once (`digest_many`), or
/// one by one with the detected single-stream backend (the baseline).
pub struct ManySubject {
    /// The algorithm.
    pub algo: &'static Algo,
    /// `"digest_many <backend>"` or `"one by one <backend>"`.
    pub label: String,
    /// Whether this is the one-by-one baseline.
    pub baseline: bool,
    /// Whether this is `digest_many` on the backend `Backend::detect`
    /// picks (what a caller gets by default).
    pub detected: bool,
    run: Box<ManyRunFn>,
    hash: Box<ManyHashFn>,
    engine: Box<dyn Fn(usize) -> &'static str>,
}

impl ManySubject {
    /// A batch subject that hashes `inputs[i]` into `outputs[i]`, an
    /// `N`-byte digest (`N` is `algo.out_len`). The outputs are made once
    /// per timed run and written in place: a batch's timing holds nothing
    /// but the hashing (no buffer to clear or copy per batch, which for a
    /// batch of two 16-byte messages cost as much as a third of it).
    ///
    /// # Panics
    /// If `N` differs from `algo.out_len`.
    pub fn new<const N: usize, F>(algo: &'static Algo, label: String, baseline: bool, f: F) -> Self
    where
        F: Fn(&[&[u8]], &mut [[u8; N]]) + Copy + 'static,
    {
        assert_eq!(N, algo.out_len, "{}: a {N}-byte batch subject for {}-byte digests", algo.name, algo.out_len);
        let run = move |inputs: &[&[u8]], iters: u64| {
            let mut outs = vec![[0u8; N]; inputs.len()];
            let mut fold = 0u8;
            for _ in 0..iters {
                f(black_box(inputs), &mut outs);
                fold ^= black_box(&outs)[0][0];
            }
            fold
        };
        let hash = move |inputs: &[&[u8]], outs: &mut [Vec<u8>]| {
            let mut raw = vec![[0u8; N]; inputs.len()];
            f(inputs, &mut raw);
            for (o, r) in outs.iter_mut().zip(&raw) {
                *o = r.to_vec();
            }
        };
        let engine = Box::new(move |_: usize| if baseline { "one by one" } else { "-" });
        ManySubject { algo, label, baseline, detected: false, run: Box::new(run), hash: Box::new(hash), engine }
    }

    /// Mark this as `digest_many` on the detected backend (or not).
    pub fn with_detected(mut self, detected: bool) -> Self {
        self.detected = detected;
        self
    }

    /// Name the engine a batch of a given size runs on
    /// (`Backend::batch_engine`).
    pub fn with_engine(mut self, engine: impl Fn(usize) -> &'static str + 'static) -> Self {
        self.engine = Box::new(engine);
        self
    }

    /// The engine a batch of `messages` runs on (`"avx512 16 lanes"`).
    pub fn engine(&self, messages: usize) -> &'static str {
        (self.engine)(messages)
    }

    /// Hash the batch `iters` times.
    #[inline]
    pub fn run(&self, inputs: &[&[u8]], iters: u64) -> u8 {
        (self.run)(inputs, iters)
    }

    /// The digests of the batch, to check against one-by-one hashing.
    pub fn digests(&self, inputs: &[&[u8]]) -> Vec<Vec<u8>> {
        let mut outs = vec![Vec::new(); inputs.len()];
        (self.hash)(inputs, &mut outs);
        outs
    }
}

/// One of our backends hashing a message that arrives in pieces: one
/// `update` per piece, then (for an XOF) the output read in two parts. For
/// differential tests of the streaming path; not timed.
pub struct StreamSubject {
    /// The algorithm.
    pub algo: &'static Algo,
    /// The backend's name.
    pub backend: &'static str,
    pub(crate) hash: Box<PiecesFn>,
}

impl StreamSubject {
    /// The digest (for an XOF, `algo.out_len` bytes of output) of the
    /// concatenation of `pieces`.
    pub fn digest(&self, pieces: &[&[u8]]) -> Vec<u8> {
        let mut out = vec![0u8; self.algo.out_len];
        (self.hash)(pieces, &mut out);
        out
    }
}
