//! Checks deferred by the detection paths (the SHA-NI and `avx2`
//! single-message paths in `x86`, the `digest_many` engines) and run `L`
//! at a time in SIMD lanes, a lane per block.
//!
//! A block that the filter lets through (about one random block in twenty)
//! otherwise gets its scalar check at once: some 80 dependent steps, which
//! hold up the rounds behind them in the reorder buffer and mispredict on
//! the way in and in the DV loop. Queued, the block leaves only what its
//! check needs; a collision found at a flush sends the caller back to that
//! block, whose data it still holds (it flushes the queue before it
//! returns). On an Intel Xeon (model 167), 1 MiB of random data
//! (`examples/sha1dc_speed`): 0.58x -> 0.72x our plain SHA-1 with the
//! sixteen AVX-512 lanes (`sha-ni-avx512`), 0.60x -> 0.69x with eight AVX2
//! lanes (`sha-ni`); the 16-lane `digest_many` engine 0.41-0.46x ->
//! 0.51-0.54x.

#[cfg(any(feature = "shani", feature = "avx2"))]
use super::detect::{self, Expanded};

/// Up to this many queued blocks are checked one by one at a flush: one
/// block's scalar check costs about what a pass of the lanes does (on an
/// Intel Xeon, model 167: 224 against 240 ns for the sixteen AVX-512
/// lanes), two cost more (549 ns one by one, 333 ns in the lanes).
#[cfg(any(feature = "shani", feature = "avx2"))]
const SCALAR_FLUSH: usize = 1;

/// Up to `L` blocks' checks, by word and lane (`x[word][lane]`).
pub(crate) struct CheckQueue<const L: usize> {
    len: usize,
    /// The indexes the caller gave the queued blocks (their place in its
    /// slice; for the `digest_many` engines, stream and block).
    block: [usize; L],
    /// The DVs that each queued block's filter kept (none past `len` when
    /// the lanes run).
    pub(crate) masks: [u32; L],
    /// W[0..16] of each queued block.
    pub(crate) w16: [[u32; L]; 16],
    /// The chaining values in and out, and the states before steps 58 and
    /// 65.
    pub(crate) h: [[u32; L]; 5],
    pub(crate) next: [[u32; L]; 5],
    pub(crate) s58: [[u32; L]; 5],
    pub(crate) s65: [[u32; L]; 5],
}

/// The checks of one call of a single-message detection path (the SHA-NI
/// and `avx2` paths in `x86`): a queue made at the first block to check
/// (a call with none never fills one in), checked with `lanes` when full
/// and at the end.
#[cfg(any(feature = "shani", feature = "avx2"))]
pub(crate) struct Deferred<const L: usize> {
    queue: Option<CheckQueue<L>>,
    /// Reduced-round detection.
    reduced: bool,
}

#[cfg(any(feature = "shani", feature = "avx2"))]
impl<const L: usize> Deferred<L> {
    pub(crate) fn new(reduced: bool) -> Self {
        Deferred { queue: None, reduced }
    }

    /// Queue the check of block `k` (as [`CheckQueue::push`] says), and
    /// check the queue with `lanes` if that fills it: the first detection,
    /// as [`CheckQueue::flush`] gives it.
    #[allow(clippy::too_many_arguments)] // the check's inputs, one by one
    #[inline]
    pub(crate) fn check(
        &mut self,
        k: usize,
        data: &[u8; 64],
        mask: u32,
        h: [u32; 5],
        next: [u32; 5],
        s58: [u32; 5],
        s65: [u32; 5],
        lanes: impl FnOnce(&CheckQueue<L>, u32) -> u32,
    ) -> Option<(usize, [u32; 5])> {
        let q = self.queue.get_or_insert(CheckQueue::EMPTY);
        if q.push(k, data, mask, h, next, s58, s65) { q.flush(self.reduced, lanes) } else { None }
    }

    /// Check the blocks still queued: the first detection.
    pub(crate) fn finish(&mut self, lanes: impl FnOnce(&CheckQueue<L>, u32) -> u32) -> Option<(usize, [u32; 5])> {
        let reduced = self.reduced;
        self.queue.as_mut().and_then(|q| q.flush(reduced, lanes))
    }
}

/// Lane `s` of five words.
fn lane5<const L: usize>(v: &[[u32; L]; 5], s: usize) -> [u32; 5] {
    [v[0][s], v[1][s], v[2][s], v[3][s], v[4][s]]
}

impl<const L: usize> CheckQueue<L> {
    pub(crate) const EMPTY: Self = CheckQueue {
        len: 0,
        block: [0; L],
        masks: [0; L],
        w16: [[0; L]; 16],
        h: [[0; L]; 5],
        next: [[0; L]; 5],
        s58: [[0; L]; 5],
        s65: [[0; L]; 5],
    };

    /// Queue the check of block `k` of the caller's slice (its bytes
    /// `data`, its filter's DVs `mask`, compressed from `h` to `next`, with
    /// the states `s58`, `s65`); true when the queue is then full.
    #[allow(clippy::too_many_arguments)] // the check's inputs, one by one
    #[inline]
    pub(crate) fn push(
        &mut self,
        k: usize,
        data: &[u8; 64],
        mask: u32,
        h: [u32; 5],
        next: [u32; 5],
        s58: [u32; 5],
        s65: [u32; 5],
    ) -> bool {
        let s = self.len;
        self.block[s] = k;
        self.masks[s] = mask;
        for (t, bytes) in data.chunks_exact(4).enumerate() {
            self.w16[t][s] = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        }
        for j in 0..5 {
            self.h[j][s] = h[j];
            self.next[j][s] = next[j];
            self.s58[j][s] = s58[j];
            self.s65[j][s] = s65[j];
        }
        self.len += 1;
        self.len == L
    }

    /// The checks of the first `len` queued blocks (with reduced-round
    /// detection for the blocks set in `reduced`): the blocks with a
    /// detection (bit s for block s). `lanes(queue, reduced)` checks a
    /// queue's lanes, each along every DV of its mask, and returns the
    /// lanes with a detection.
    ///
    /// `lanes` recomputes one DV per lane per pass, as many passes as the
    /// lane with the most DVs needs: one block in sixteen of those the
    /// filter passes keeps two DVs (random data), which would make most
    /// flushes of a full queue two passes. When the (block, DV) pairs fit
    /// in the lanes, each gets a lane of its own instead (a queue of such
    /// pairs, one pass). The lanes past the pairs, or past `len`, hold
    /// blocks of an earlier flush (already checked: a detection there ended
    /// that flush's caller, or for the streams set a stop no later than
    /// theirs); their DVs are cleared, so the lanes spend no steps on them.
    fn run_lanes(&mut self, len: usize, reduced: u32, lanes: impl FnOnce(&Self, u32) -> u32) -> u32 {
        for m in &mut self.masks[len..] {
            *m = 0;
        }
        let dvs = self.masks[..len].iter().map(|m| m.count_ones() as usize).sum::<usize>();
        if dvs == len || dvs > L {
            return lanes(self, reduced);
        }
        let mut pairs = CheckQueue::<L>::EMPTY;
        // The queued block in each lane of `pairs`.
        let mut owner = [0usize; L];
        let mut p = 0;
        for s in 0..len {
            let mut m = self.masks[s];
            while m != 0 {
                pairs.copy_lane(p, self, s);
                pairs.masks[p] = m & m.wrapping_neg();
                owner[p] = s;
                m &= m - 1;
                p += 1;
            }
        }
        let in_pairs = (0..p).filter(|&q| reduced >> owner[q] & 1 == 1).fold(0, |r, q| r | 1 << q);
        let hits = lanes(&pairs, in_pairs);
        (0..p).filter(|&q| hits >> q & 1 == 1).fold(0, |f, q| f | 1 << owner[q])
    }

    /// Lane `p` of `self` set to lane `s` of `from` (all but the mask).
    fn copy_lane(&mut self, p: usize, from: &Self, s: usize) {
        self.block[p] = from.block[s];
        for (to, row) in self.w16.iter_mut().zip(&from.w16) {
            to[p] = row[s];
        }
        for (to, from) in [&mut self.h, &mut self.next, &mut self.s58, &mut self.s65]
            .into_iter()
            .zip([&from.h, &from.next, &from.s58, &from.s65])
        {
            for j in 0..5 {
                to[j][p] = from[j][s];
            }
        }
    }

    /// Check every queued block and empty the queue, for the `digest_many`
    /// engines, whose `push` indexes are `N * k + i` for stream i's block k:
    /// `lanes` checks the lanes (with reduced-round detection in the lanes
    /// of its second argument, those of the streams in `sts` that ask for
    /// it) and returns the lanes with a detection, and each stream with one
    /// stops at its first such block (`live` false, `stop` that block, its
    /// chaining value the one that block was compressed from).
    #[cfg(any(feature = "shani", feature = "avx512"))]
    pub(crate) fn flush_streams<const N: usize>(
        &mut self,
        sts: &mut [super::DcState; N],
        live: &mut [bool; N],
        stop: &mut [usize; N],
        lanes: impl FnOnce(&Self, u32) -> u32,
    ) {
        let len = core::mem::replace(&mut self.len, 0);
        if len == 0 {
            return;
        }
        let reduced = (0..len).filter(|&q| sts[self.block[q] % N].reduced).fold(0, |m, q| m | 1 << q);
        let found = self.run_lanes(len, reduced, lanes);
        for q in (0..len).filter(|&q| found >> q & 1 == 1) {
            let (k, i) = (self.block[q] / N, self.block[q] % N);
            if k < stop[i] {
                live[i] = false;
                stop[i] = k;
                sts[i].ihv = lane5(&self.h, q);
                sts[i].plain = sts[i].ihv;
            }
        }
    }

    /// Check every queued block and empty the queue: the first queued
    /// block with a detected collision (the reference's verdict, with
    /// reduced-round detection if `reduced`), as its index and the chaining
    /// value it was compressed from; `None` if none. `lanes` checks all the
    /// lanes at once (with reduced-round detection in the lanes set in its
    /// second argument) and returns the set of lanes with a detection (bit
    /// s for lane s), as `detect::check` would lane by lane.
    #[cfg(any(feature = "shani", feature = "avx2"))]
    pub(crate) fn flush(&mut self, reduced: bool, lanes: impl FnOnce(&Self, u32) -> u32) -> Option<(usize, [u32; 5])> {
        let len = core::mem::replace(&mut self.len, 0);
        if len <= SCALAR_FLUSH {
            for s in 0..len {
                let mut x = Expanded::ZERO;
                for (t, row) in self.w16.iter().enumerate() {
                    x.w[t] = row[s];
                }
                // FIPS 180-4 §6.1.2 step 1.
                for t in 16..80 {
                    x.w[t] = (x.w[t - 3] ^ x.w[t - 8] ^ x.w[t - 14] ^ x.w[t - 16]).rotate_left(1);
                }
                x.s58 = lane5(&self.s58, s);
                x.s65 = lane5(&self.s65, s);
                let h = lane5(&self.h, s);
                if detect::check(h, lane5(&self.next, s), &x, self.masks[s], reduced) {
                    return Some((self.block[s], h));
                }
            }
            return None;
        }
        let found = self.run_lanes(len, if reduced { u32::MAX } else { 0 }, lanes);
        // Lanes hold blocks in the order they were queued.
        (found != 0).then(|| {
            let s = found.trailing_zeros() as usize;
            (self.block[s], lane5(&self.h, s))
        })
    }
}
