//! SHA-1 with collision detection ([`Sha1Dc`]): Stevens and Shumow's
//! counter-cryptanalysis, as git, GitHub and OpenPGP implementations use it.
//!
//! Every compressed block is checked for the 32 disturbance vectors that
//! the known practical attacks on SHA-1 rely on (SHAttered, "SHA-1 is a
//! Shambles", and the attacks of the same families), with the same table,
//! the same unavoidable-bit-condition filter and the same recomputation as
//! the reference implementation (`sha1collisiondetection`), so the verdict
//! is the reference's on every input.
//!
//! When a block is detected, the reference's "safe hash" takes over from
//! that block on: the block is compressed three times instead of once, so
//! the two colliding messages no longer collide (and differ from the plain
//! SHA-1 of either). [`Collision`] carries both the plain SHA-1 and that
//! safe hash.

/// The packed filter (`tables::PACKED`) in its two stages: `$vectors!(fail,
/// w; k...)` ORs into `fail` (from `$zero`) the DVs that vectors `k...` rule
/// out on `$w`, and `$or(fail)` ORs its lanes together; after the first
/// `PACKED_FIRST` vectors, the rest only if some DV is left (so for about
/// one random block in five). The DVs left. The SIMD filters (`x86`,
/// `aarch64`) differ only in their vectors.
#[cfg_attr(
    not(any(
        all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")),
        all(target_arch = "aarch64", feature = "arm-sha")
    )),
    allow(unused_macros)
)]
macro_rules! ubc_stages {
    ($vectors:ident, $w:expr, $zero:expr, $or:ident) => {{
        let w: &[u32; 80] = $w;
        // Every vector reads within W[PACKED_W.0..PACKED_W.1].
        const { assert!(PACKED_W.1 <= 80) };
        let mut fail = $zero;
        // Unrolled, so that each vector's word offsets are constants and
        // its table rows memory operands. The vectors are ordered to rule
        // out DVs soonest (tables.rs).
        const { assert!(PACKED_FIRST == 11 && PACKED.len() == 33) };
        $vectors!(fail, w; 0 1 2 3 4 5 6 7 8 9 10);
        let mut f = $or(fail);
        if f != u32::MAX {
            $vectors!(fail, w; 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32);
            f = $or(fail);
        }
        !f
    }};
}

/// `$step!(t)` for t = 64 down to 0, unrolled (the lane checks' steps back
/// from the state before step 65: with `t` a literal, each step's f, K and
/// difference words are constants, where a loop over `t` chose them with
/// branches and a division each step; with the expansion unrolled too, a
/// check of sixteen queued blocks with a DV each takes 219-239 ns instead
/// of 376 in the AVX-512 lanes, 231-254 instead of 307-337 for eight in
/// the AVX2 lanes, on an Intel Xeon, model 167).
#[cfg_attr(not(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2", feature = "avx512"))), allow(unused_macros))]
#[rustfmt::skip]
macro_rules! steps_back_from_64 {
    ($step:ident) => { $step!(64); $step!(63); $step!(62); $step!(61); $step!(60); $step!(59); $step!(58); $step!(57); $step!(56); $step!(55); $step!(54); $step!(53); $step!(52); $step!(51); $step!(50); $step!(49); $step!(48); $step!(47); $step!(46); $step!(45); $step!(44); $step!(43); $step!(42); $step!(41); $step!(40); $step!(39); $step!(38); $step!(37); $step!(36); $step!(35); $step!(34); $step!(33); $step!(32); $step!(31); $step!(30); $step!(29); $step!(28); $step!(27); $step!(26); $step!(25); $step!(24); $step!(23); $step!(22); $step!(21); $step!(20); $step!(19); $step!(18); $step!(17); $step!(16); $step!(15); $step!(14); $step!(13); $step!(12); $step!(11); $step!(10); $step!(9); $step!(8); $step!(7); $step!(6); $step!(5); $step!(4); $step!(3); $step!(2); $step!(1); $step!(0); };
}

/// `$step!(t)` for t = 58 to 79, unrolled (the lane checks' steps forward
/// from the state before step 58; see [`steps_back_from_64`]).
#[cfg_attr(not(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2", feature = "avx512"))), allow(unused_macros))]
#[rustfmt::skip]
macro_rules! steps_forward_from_58 {
    ($step:ident) => { $step!(58); $step!(59); $step!(60); $step!(61); $step!(62); $step!(63); $step!(64); $step!(65); $step!(66); $step!(67); $step!(68); $step!(69); $step!(70); $step!(71); $step!(72); $step!(73); $step!(74); $step!(75); $step!(76); $step!(77); $step!(78); $step!(79); };
}

/// `$step!(t)` for t = 16 to 79, unrolled (the lane checks' message
/// expansion, see [`steps_back_from_64`]).
#[cfg_attr(not(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2", feature = "avx512"))), allow(unused_macros))]
#[rustfmt::skip]
macro_rules! steps_16_to_79 {
    ($step:ident) => { $step!(16); $step!(17); $step!(18); $step!(19); $step!(20); $step!(21); $step!(22); $step!(23); $step!(24); $step!(25); $step!(26); $step!(27); $step!(28); $step!(29); $step!(30); $step!(31); $step!(32); $step!(33); $step!(34); $step!(35); $step!(36); $step!(37); $step!(38); $step!(39); $step!(40); $step!(41); $step!(42); $step!(43); $step!(44); $step!(45); $step!(46); $step!(47); $step!(48); $step!(49); $step!(50); $step!(51); $step!(52); $step!(53); $step!(54); $step!(55); $step!(56); $step!(57); $step!(58); $step!(59); $step!(60); $step!(61); $step!(62); $step!(63); $step!(64); $step!(65); $step!(66); $step!(67); $step!(68); $step!(69); $step!(70); $step!(71); $step!(72); $step!(73); $step!(74); $step!(75); $step!(76); $step!(77); $step!(78); $step!(79); };
}

mod detect;
#[rustfmt::skip]
#[cfg_attr(not(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2"))), allow(dead_code))]
mod tables;
// (With only one of the two cargo features, part of it goes unused.)
#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
#[cfg_attr(not(all(feature = "shani", feature = "avx2")), allow(unused_imports, dead_code))]
mod x86;

#[cfg(all(target_arch = "x86_64", feature = "avx512"))]
mod x86_avx512;

#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2", feature = "avx512")))]
mod queue;

#[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
mod aarch64;

#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
cpufeatures::new!(cpuid_avx2, "avx2");
// The tests of the AVX-512VL filter and the 16-lane check queue (the
// backends check their own features).
#[cfg(all(test, target_arch = "x86_64", feature = "avx512"))]
cpufeatures::new!(cpuid_avx512vl, "avx2", "avx512f", "avx512vl");

use core::fmt;

use crate::backend::Backend;
use crate::consts::H0;
use detect::Expanded;

/// The two families of disturbance vectors (Manuel, "Classification and
/// generation of disturbance vectors for collision attacks against
/// SHA-1", 2011).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DvType {
    I,
    II,
}

/// A disturbance vector that the detection checks.
pub(crate) struct Dv {
    /// Its family.
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) kind: DvType,
    /// Its K (where its 16-word window starts).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) k: u8,
    /// Its b (the bit its window's last word sets).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) b: u8,
    /// The step whose saved state the recomputation starts from.
    pub(crate) step: u8,
    /// The XOR difference of the expanded messages of an attack's two
    /// blocks.
    pub(crate) dm: [u32; 80],
}

/// An unavoidable bit condition: bit `a` of W\[i\] xor bit `b` of W\[j\]
/// is `value` in every attack along the DVs of `dvs` (one bit per DV, as
/// in the filter's mask).
pub(crate) struct Ubc {
    pub(crate) i: u8,
    pub(crate) a: u8,
    pub(crate) j: u8,
    pub(crate) b: u8,
    pub(crate) value: u8,
    pub(crate) dvs: u32,
}

/// [`Ubc`]s packed for SIMD (see `tables::PACKED`).
#[cfg_attr(not(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2"))), allow(dead_code))]
#[repr(C, align(32))]
pub(crate) struct Packed {
    pub(crate) sa: [u32; 8],
    pub(crate) sb: [u32; 8],
    pub(crate) value: [u32; 8],
    pub(crate) dvs: [u32; 8],
    pub(crate) s: u8,
    pub(crate) d: u8,
}

/// The chaining state of a [`Sha1Dc`]: the (safe) chaining value, the
/// plain SHA-1 chaining value (the same until a collision is detected),
/// and the verdict so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DcState {
    ihv: [u32; 5],
    plain: [u32; 5],
    found: bool,
    reduced: bool,
}

impl DcState {
    const INIT: DcState = DcState { ihv: H0, plain: H0, found: false, reduced: false };
}

/// Compress `blocks` into `st` with detection, on `backend`, which the
/// caller has checked this CPU supports (`Backend::check`,
/// `Backend::detect`, or `is_supported` in `Algorithm::compress`).
fn process(backend: Backend, st: &mut DcState, blocks: &[[u8; 64]]) {
    // Exhaustive (no `_` arm): a new backend must say here which code
    // runs detection for it.
    let portable = |st: &mut DcState| process_with(st, blocks, detect::compress_block, detect::ubc_mask);
    match backend {
        Backend::ShaNiAvx512 => {
            // SAFETY: the backend needs sha, sse2, ssse3, sse4.1, avx512f
            // and avx512vl, which the caller checked (and AVX-512F implies
            // AVX2).
            #[cfg(all(target_arch = "x86_64", feature = "shani", feature = "avx512"))]
            unsafe {
                x86::process_shani_avx512(st, blocks)
            }
            #[cfg(not(all(target_arch = "x86_64", feature = "shani", feature = "avx512")))]
            portable(st)
        }
        Backend::ShaNi => {
            #[cfg(all(target_arch = "x86_64", feature = "shani"))]
            if cpuid_avx2::get() {
                // SAFETY: both backends need sha, sse2, ssse3 and sse4.1,
                // which the caller checked; avx2 was checked just above.
                unsafe { x86::process_shani_avx2(st, blocks) }
            } else {
                // SAFETY: both backends need sha, sse2, ssse3 and sse4.1,
                // which the caller checked.
                unsafe { x86::process_shani(st, blocks) }
            }
            #[cfg(not(all(target_arch = "x86_64", feature = "shani")))]
            portable(st)
        }
        Backend::Avx2 => {
            // SAFETY: the `avx2` backend needs avx2, bmi1 and bmi2, which
            // the caller checked.
            #[cfg(all(target_arch = "x86_64", feature = "avx2"))]
            unsafe {
                x86::process_avx2(st, blocks)
            }
            #[cfg(not(all(target_arch = "x86_64", feature = "avx2")))]
            portable(st)
        }
        Backend::ArmSha => {
            // SAFETY: the `arm-sha` backend needs aarch64 with `sha2` (the
            // SHA-1 and SHA-256 instructions, and with them NEON), which
            // the caller checked.
            #[cfg(all(target_arch = "aarch64", feature = "arm-sha"))]
            unsafe {
                aarch64::process_arm(st, blocks)
            }
            #[cfg(not(all(target_arch = "aarch64", feature = "arm-sha")))]
            portable(st)
        }
        Backend::Portable => portable(st),
    }
}

/// The detection loop, for a compression that fills an [`Expanded`] and a
/// filter.
#[inline(always)]
fn process_with(
    st: &mut DcState,
    blocks: &[[u8; 64]],
    compress: impl Fn([u32; 5], &[u8; 64], &mut Expanded) -> [u32; 5],
    ubc: impl Fn(&[u32; 80]) -> u32,
) {
    let mut x = Expanded::ZERO;
    for block in blocks {
        let out = compress(st.ihv, block, &mut x);
        let mask = ubc(&x.w);
        if st.found {
            // The plain chain went its own way at an earlier detection.
            st.plain = detect::compress_w(st.plain, &x.w);
        } else {
            st.plain = out;
        }
        if mask != 0 && detect::check(st.ihv, out, &x, mask, st.reduced) {
            st.found = true;
            // The safe hash: this block twice more.
            st.ihv = detect::compress_w(detect::compress_w(out, &x.w), &x.w);
        } else {
            st.ihv = out;
        }
    }
}

/// The end of a single-message fast path over `blocks` (the SHA-NI and
/// `avx2` paths in `x86`), which ended at chaining value `ihv` or found a
/// collision (`detected`: the first block with one, and the chaining value
/// it was compressed from): `st` takes `ihv`, or the value from before
/// that block. Returns the blocks left for the general path: none, or that
/// block and the rest.
#[cfg(all(target_arch = "x86_64", any(feature = "shani", feature = "avx2")))]
fn settle<'a>(
    st: &mut DcState,
    blocks: &'a [[u8; 64]],
    ihv: [u32; 5],
    detected: Option<(usize, [u32; 5])>,
) -> &'a [[u8; 64]] {
    let (ihv, rest) = match detected {
        None => (ihv, &blocks[blocks.len()..]),
        Some((k, ihv_in)) => (ihv_in, &blocks[k..]),
    };
    st.ihv = ihv;
    st.plain = ihv;
    rest
}

/// The last bytes of a message of `total` bytes (a whole block at most),
/// 0x80, zeros and the message's length in bits, 64 bits big-endian, in one
/// or two blocks (FIPS 180-4 §5.1.1): the blocks, and how many.
fn padded(last: &[u8], total: u64) -> ([[u8; 64]; 2], usize) {
    let pos = last.len();
    assert!(pos <= 64, "a block at most");
    let mut tail = [[0u8; 64]; 2];
    let n = if pos + 9 <= 64 { 1 } else { 2 };
    tail[0][..pos].copy_from_slice(last);
    if pos < 64 {
        tail[0][pos] = 0x80;
    } else {
        tail[1][0] = 0x80;
    }
    tail[n - 1][56..].copy_from_slice(&total.wrapping_mul(8).to_be_bytes());
    (tail, n)
}

/// The digest bytes of a chaining value (FIPS 180-4 §6.1.2).
fn to_bytes(h: &[u32; 5]) -> [u8; 20] {
    let mut out = [0u8; 20];
    for (bytes, word) in out.chunks_exact_mut(4).zip(h) {
        bytes.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// A detected SHA-1 collision attack: the message contains a block that is
/// half of a near-collision along one of the disturbance vectors that the
/// known attacks use.
///
/// Holds the plain SHA-1 of the message (what an implementation without
/// detection outputs, identical for both colliding messages) and the safe
/// hash that the reference implementation outputs instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collision {
    digest: [u8; 20],
    safe: [u8; 20],
}

impl Collision {
    /// The plain SHA-1 of the message (what [`crate::Sha1`] outputs).
    pub fn digest(&self) -> [u8; 20] {
        self.digest
    }

    /// The safe hash: SHA-1 with each detected block compressed three times
    /// in a row, as the reference implementation (and git) computes it.
    pub fn safe_digest(&self) -> [u8; 20] {
        self.safe
    }
}

impl fmt::Display for Collision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SHA-1 collision attack detected (SHA-1 ")?;
        for b in self.digest {
            write!(f, "{b:02x}")?;
        }
        f.write_str(", safe hash ")?;
        for b in self.safe {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Collision {}

/// SHA-1 with collision detection (see the [module](self) documentation).
///
/// ```
/// use sha1::Sha1Dc;
/// use hex_literal::hex;
///
/// // An ordinary message: its SHA-1.
/// assert_eq!(Sha1Dc::digest(b"abc"), Ok(hex!("a9993e364706816aba3e25717850c26c9cd0d89d")));
///
/// let mut h = Sha1Dc::new();
/// h.update(b"a");
/// h.update(b"bc");
/// let digest = h.finalize().expect("no collision attack in \"abc\"");
/// assert_eq!(digest, hex!("a9993e364706816aba3e25717850c26c9cd0d89d"));
/// ```
#[derive(Clone)]
pub struct Sha1Dc {
    state: DcState,
    backend: Backend,
    buffer: [u8; 64],
    pos: usize,
    /// Bytes hashed so far (the length field is defined modulo 2^64 bits).
    total: u64,
}

/// Options for a [`Sha1Dc`]: the backend, and reduced-round detection.
#[derive(Clone, Copy, Debug)]
pub struct Builder {
    backend: Option<Backend>,
    reduced: bool,
}

impl Builder {
    /// Use exactly `backend` (the default: [`Backend::detect`]).
    pub fn backend(mut self, backend: Backend) -> Self {
        self.backend = Some(backend);
        self
    }

    /// Also report collisions of reduced-round SHA-1: a DV whose
    /// recomputed pair block starts from the same chaining value as this
    /// one (as the reference's `SHA1DCSetDetectReducedRoundCollision`; off
    /// by default). Meant for testing the detection with reduced-round
    /// collisions, which are easy to make.
    pub fn detect_reduced_round(mut self, on: bool) -> Self {
        self.reduced = on;
        self
    }

    /// The hasher.
    ///
    /// # Panics
    /// If this CPU does not support the chosen backend (see
    /// [`Builder::try_build`]).
    #[track_caller]
    pub fn build(self) -> Sha1Dc {
        match self.try_build() {
            Ok(h) => h,
            Err(e) => panic!("{e}"),
        }
    }

    /// The hasher, or an error if this CPU does not support the chosen
    /// backend.
    pub fn try_build(self) -> Result<Sha1Dc, crate::UnsupportedBackend> {
        let backend = match self.backend {
            Some(b) => b.check().map_err(|e| e.for_type("Sha1Dc"))?,
            None => Backend::detect(),
        };
        let mut h = Sha1Dc::from_backend(backend);
        h.state.reduced = self.reduced;
        Ok(h)
    }
}

impl Default for Sha1Dc {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Sha1Dc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sha1Dc")
            .field("backend", &self.backend)
            .field("detect_reduced_round", &self.state.reduced)
            .field("collision_so_far", &self.state.found)
            .finish_non_exhaustive()
    }
}

impl Sha1Dc {
    /// A hasher on the best backend for this CPU.
    pub fn new() -> Self {
        Self::from_backend(Backend::detect())
    }

    /// A hasher on exactly `backend`.
    ///
    /// # Panics
    /// If this CPU does not support `backend` (the message names the missing
    /// features); see [`Sha1Dc::try_with_backend`].
    #[track_caller]
    pub fn with_backend(backend: Backend) -> Self {
        Self::builder().backend(backend).build()
    }

    /// A hasher on exactly `backend`, or an error if this CPU does not
    /// support it.
    pub fn try_with_backend(backend: Backend) -> Result<Self, crate::UnsupportedBackend> {
        Self::builder().backend(backend).try_build()
    }

    /// Options: backend, reduced-round detection.
    pub fn builder() -> Builder {
        Builder { backend: None, reduced: false }
    }

    fn from_backend(backend: Backend) -> Self {
        Sha1Dc { state: DcState::INIT, backend, buffer: [0; 64], pos: 0, total: 0 }
    }

    /// The backend this hasher compresses with.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Absorb `data`.
    ///
    /// The last whole block seen stays in the buffer until more data comes
    /// or the message ends, so that it is compressed together with the
    /// padding: the filter of one block runs beside the next block's rounds
    /// (see the backends), which a lone block lacks.
    pub fn update(&mut self, mut data: &[u8]) {
        self.total = self.total.wrapping_add(data.len() as u64);
        if self.pos > 0 {
            let take = data.len().min(64 - self.pos);
            self.buffer[self.pos..self.pos + take].copy_from_slice(&data[..take]);
            self.pos += take;
            data = &data[take..];
            if data.is_empty() {
                return;
            }
            let block = self.buffer;
            process(self.backend, &mut self.state, core::slice::from_ref(&block));
            self.pos = 0;
        }
        let (mut blocks, rest) = data.as_chunks::<64>();
        if rest.is_empty()
            && let Some((last, init)) = blocks.split_last()
        {
            self.buffer = *last;
            self.pos = 64;
            blocks = init;
        } else {
            self.buffer[..rest.len()].copy_from_slice(rest);
            self.pos = rest.len();
        }
        process(self.backend, &mut self.state, blocks);
    }

    /// Pad, compress the last block(s) and return the final state.
    fn finish(&mut self) -> &DcState {
        let (tail, n) = padded(&self.buffer[..self.pos], self.total);
        process(self.backend, &mut self.state, &tail[..n]);
        self.pos = 0;
        &self.state
    }

    /// The SHA-1 of everything passed to [`Sha1Dc::update`], or the
    /// [`Collision`] detected in it.
    pub fn finalize(mut self) -> Result<[u8; 20], Collision> {
        result(self.finish())
    }

    /// As [`Sha1Dc::finalize`], and reset the hasher for a new message
    /// (keeping its backend and options).
    pub fn finalize_reset(&mut self) -> Result<[u8; 20], Collision> {
        let r = result(self.finish());
        self.reset();
        r
    }

    /// The safe hash: the SHA-1 if no collision was detected, else the
    /// reference's safe hash (what the `digest` traits output).
    #[cfg(any(feature = "digest", feature = "digest011"))]
    fn finalize_safe(&mut self) -> [u8; 20] {
        to_bytes(&self.finish().ihv)
    }

    /// Start a new message (keeping the backend and options).
    pub fn reset(&mut self) {
        let reduced = self.state.reduced;
        self.state = DcState { reduced, ..DcState::INIT };
        self.pos = 0;
        self.total = 0;
    }

    /// The SHA-1 of `data`, or the [`Collision`] detected in it.
    ///
    /// As [`Sha1Dc::update`] and [`Sha1Dc::finalize`] would, without the
    /// hasher's buffer: the whole blocks straight from `data`, the last one
    /// (when no partial block follows it) with the padding.
    pub fn digest(data: &[u8]) -> Result<[u8; 20], Collision> {
        let backend = Backend::detect();
        let mut st = DcState::INIT;
        let (blocks, rest) = data.as_chunks::<64>();
        let (blocks, last) = match blocks.split_last() {
            Some((last, init)) if rest.is_empty() => (init, &last[..]),
            _ => (blocks, rest),
        };
        process(backend, &mut st, blocks);
        let (tail, n) = padded(last, data.len() as u64);
        process(backend, &mut st, &tail[..n]);
        result(&st)
    }

    /// [`Sha1Dc::digest`] of each of `inputs` into the matching `outputs`
    /// slot.
    ///
    /// # Panics
    /// If `inputs.len() != outputs.len()`.
    pub fn digest_many(inputs: &[&[u8]], outputs: &mut [Result<[u8; 20], Collision>]) {
        hash_core::check_batch(inputs.len(), outputs.len());
        let backend = Backend::detect();
        #[cfg(all(target_arch = "x86_64", feature = "avx512"))]
        if crate::backend::batch_on_avx512_lanes(backend, inputs.len(), hash_core::multi::mean_len(inputs)) {
            lanes::digest_many_16(backend, inputs, outputs);
            return;
        }
        #[cfg(all(target_arch = "x86_64", feature = "shani", feature = "avx2"))]
        if lanes::usable(backend) {
            lanes::digest_many(backend, inputs, outputs);
            return;
        }
        for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
            let mut h = Self::from_backend(backend);
            h.update(input);
            *output = h.finalize();
        }
    }
}

/// `digest_many` through `hash-core`'s lane scheduler: on interleaved
/// SHA-NI streams (see `x86::compress_lanes_shani_avx2`; AMD), or on the 16
/// AVX-512 lanes (see `x86_avx512::compress_lanes`; where the plain SHA-1
/// batches run there).
#[cfg(all(target_arch = "x86_64", any(all(feature = "shani", feature = "avx2"), feature = "avx512")))]
mod lanes {
    use super::{Backend, Collision, DcState, Sha1DcAlgorithm, to_bytes};
    #[cfg(all(feature = "shani", feature = "avx2"))]
    use super::{cpuid_avx2, x86};

    /// Messages at once. On an AMD EPYC (Zen 3), 64 random messages of 1,
    /// 8 and 64 KiB (`examples/sha1dc_speed.rs --many`): 3 streams ran
    /// 1.12-1.23x `Sha1Dc` one message at a time, 4 streams 1.04-1.07x,
    /// 2 and 5 no better (a loaded machine: ratios within one run only).
    #[cfg(all(feature = "shani", feature = "avx2"))]
    pub(super) const STREAMS: usize = 3;
    /// Messages per call of the scheduler (its outputs live on the stack).
    const CHUNK: usize = 64;

    /// Whether the engine runs here: SHA-NI and AVX2 on an AMD core (where
    /// the plain `sha-ni` batches interleave streams too; elsewhere the
    /// SHA unit is throughput-bound and messages go one by one).
    #[cfg(all(feature = "shani", feature = "avx2"))]
    pub(super) fn usable(backend: Backend) -> bool {
        runnable(backend) && hash_core::cpu::vendor() == hash_core::cpu::Vendor::Amd
    }

    /// Whether the engine can run here (SHA-NI and AVX2), whether or not
    /// [`usable`] picks it.
    #[cfg(all(feature = "shani", feature = "avx2"))]
    pub(super) fn runnable(backend: Backend) -> bool {
        matches!(backend, Backend::ShaNi | Backend::ShaNiAvx512) && backend.is_supported() && cpuid_avx2::get()
    }

    /// The algorithm the scheduler runs: `Sha1DcAlgorithm`, whose output
    /// is the whole verdict (safe chaining value, plain one, found).
    struct Lanes;

    impl hash_core::Algorithm for Lanes {
        const NAME: &'static str = "SHA-1 (collision detection, lanes)";
        type BlockSize = hash_core::typenum::U64;
        type State = DcState;
        type Backend = Backend;
        const INIT: DcState = DcState::INIT;

        fn compress(backend: Backend, state: &mut DcState, blocks: &[hash_core::Block<hash_core::typenum::U64>]) {
            Sha1DcAlgorithm::compress(backend, state, blocks);
        }
    }

    impl hash_core::FixedAlgorithm for Lanes {
        const PADDING: hash_core::Padding = hash_core::Padding::Be64;
        type OutputSize = hash_core::typenum::U41;
        type Output = [u8; 41];

        fn output(state: &DcState, out: &mut [u8; 41]) {
            out[..20].copy_from_slice(&to_bytes(&state.ihv));
            out[20..40].copy_from_slice(&to_bytes(&state.plain));
            out[40] = u8::from(state.found);
        }
    }

    /// `Sha1Dc::digest_many` on `backend`, for which [`runnable`] (or
    /// [`usable`], which implies it) said yes.
    #[cfg(all(feature = "shani", feature = "avx2"))]
    pub(super) fn digest_many(backend: Backend, inputs: &[&[u8]], outputs: &mut [Result<[u8; 20], Collision>]) {
        assert!(runnable(backend), "the SHA-NI streams engine needs SHA-NI and AVX2");
        run::<STREAMS>(backend, inputs, outputs, 2, |states, data| {
            // SAFETY: `runnable` confirmed sha, sse2, ssse3, sse4.1
            // (`backend.is_supported()` for a SHA-NI backend) and avx2
            // just above.
            unsafe { x86::compress_lanes_shani_avx2(states, data) }
        });
    }

    /// `Sha1Dc::digest_many` on the 16 AVX-512 lanes, where
    /// `backend::batch_on_avx512_lanes` said the plain batches run there
    /// (which checked avx512f and avx512bw); a lane past a detection
    /// finishes on `backend`'s single-message detection.
    #[cfg(feature = "avx512")]
    pub(super) fn digest_many_16(backend: Backend, inputs: &[&[u8]], outputs: &mut [Result<[u8; 20], Collision>]) {
        let fewest = crate::backend::avx512_lanes_min_active(backend);
        run::<{ super::x86_avx512::LANES }>(backend, inputs, outputs, fewest, |states, data| {
            // SAFETY: `batch_on_avx512_lanes` confirmed avx512f and
            // avx512bw before the scheduler started.
            unsafe {
                super::x86_avx512::compress_lanes(states, data, &mut |st, blocks| super::process(backend, st, blocks))
            }
        });
    }

    /// The verdicts of `inputs` into `outputs` through the lane scheduler
    /// with `N` lanes, `engine` compressing them.
    fn run<const N: usize>(
        backend: Backend,
        inputs: &[&[u8]],
        outputs: &mut [Result<[u8; 20], Collision>],
        fewest: usize,
        mut engine: impl FnMut(&mut [DcState; N], [&[u8]; N]),
    ) {
        for (inputs, outputs) in inputs.chunks(CHUNK).zip(outputs.chunks_mut(CHUNK)) {
            let mut raw = [[0u8; 41]; CHUNK];
            let raw = &mut raw[..inputs.len()];
            hash_core::multi::digest_many_lanes::<Lanes, N>(backend, inputs, raw, fewest, &mut engine);
            for (out, r) in outputs.iter_mut().zip(raw.iter()) {
                let mut safe = [0u8; 20];
                safe.copy_from_slice(&r[..20]);
                *out = if r[40] == 0 {
                    Ok(safe)
                } else {
                    let mut digest = [0u8; 20];
                    digest.copy_from_slice(&r[20..40]);
                    Err(Collision { digest, safe })
                };
            }
        }
    }
}

fn result(st: &DcState) -> Result<[u8; 20], Collision> {
    if st.found {
        Err(Collision { digest: to_bytes(&st.plain), safe: to_bytes(&st.ihv) })
    } else {
        Ok(to_bytes(&st.ihv))
    }
}

#[cfg(feature = "std")]
impl std::io::Write for Sha1Dc {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The algorithm definition for `hash-core` (the core of
/// [`crate::compat::Sha1Dc`]): its output is the safe hash.
#[derive(Debug)]
pub struct Sha1DcAlgorithm;

impl hash_core::Algorithm for Sha1DcAlgorithm {
    const NAME: &'static str = "SHA-1 (collision detection)";
    type BlockSize = hash_core::typenum::U64;
    type State = DcState;
    type Backend = Backend;
    const INIT: DcState = DcState::INIT;

    fn compress(backend: Backend, state: &mut DcState, blocks: &[hash_core::Block<hash_core::typenum::U64>]) {
        if !backend.is_supported() {
            hash_core::unsupported("SHA-1 (collision detection)", backend);
        }
        for block in blocks {
            process(backend, state, core::slice::from_ref(as_block(block)));
        }
    }
}

fn as_block(b: &hash_core::Block<hash_core::typenum::U64>) -> &[u8; 64] {
    match <&[u8; 64]>::try_from(&b[..]) {
        Ok(b) => b,
        Err(_) => unreachable!("a SHA-1 block is 64 bytes"),
    }
}

impl hash_core::FixedAlgorithm for Sha1DcAlgorithm {
    const PADDING: hash_core::Padding = hash_core::Padding::Be64;
    type OutputSize = hash_core::typenum::U20;
    type Output = [u8; 20];

    fn output(state: &DcState, out: &mut [u8; 20]) {
        *out = to_bytes(&state.ihv);
    }
}

/// The `digest` traits of one line (`$d`: `hash_core::digest` or
/// `hash_core::digest011`; `$u20`: that line's 20), the same on both lines:
/// the output on a detected collision is the safe hash (the SHA-1 otherwise).
#[cfg(any(feature = "digest", feature = "digest011"))]
macro_rules! digest_traits {
    ($d:ident, $u20:ty) => {
        use hash_core::$d::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};

        use super::Sha1Dc;

        impl HashMarker for Sha1Dc {}

        impl OutputSizeUser for Sha1Dc {
            type OutputSize = $u20;
        }

        impl Update for Sha1Dc {
            fn update(&mut self, data: &[u8]) {
                Sha1Dc::update(self, data);
            }
        }

        /// The safe hash on a detected collision (the SHA-1 otherwise).
        impl FixedOutput for Sha1Dc {
            fn finalize_into(mut self, out: &mut Output<Self>) {
                out.copy_from_slice(&self.finalize_safe());
            }
        }

        impl FixedOutputReset for Sha1Dc {
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                out.copy_from_slice(&self.finalize_safe());
                self.reset();
            }
        }

        impl Reset for Sha1Dc {
            fn reset(&mut self) {
                Sha1Dc::reset(self);
            }
        }
    };
}

#[cfg(feature = "digest")]
mod digest010 {
    digest_traits!(digest, hash_core::typenum::U20);
}

#[cfg(feature = "digest011")]
mod digest011 {
    digest_traits!(digest011, hash_core::digest011::consts::U20);
}

#[cfg(test)]
mod tests;
