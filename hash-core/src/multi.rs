//! Multi-buffer scheduling: hash many independent messages on an engine
//! that compresses `N` lanes at once (SIMD lanes or interleaved instruction
//! streams), in the manner of Intel ISA-L's job managers.
//!
//! The backend supplies one function, `compress_lanes(states, data)`, that
//! compresses `data[i]` into `states[i]` for every lane `i`, where all
//! `data[i]` have the same length, a whole number (at least one) of blocks.
//! The scheduler:
//!
//! * splits every message into its whole blocks, compressed straight from
//!   the caller's slice, and a padded tail of one or two blocks built on the
//!   stack;
//! * runs the lanes for as many blocks as the shortest lane has left, then
//!   gives each lane that finished a segment its next segment, and each
//!   lane that finished its message the next message of the batch, so
//!   messages of unequal lengths keep all lanes busy;
//! * when the batch's lengths differ and it has more messages than lanes,
//!   starts the longest waiting message first (longest processing time
//!   first, Graham 1969), looking ahead over a window of the next
//!   [`WINDOW`] messages kept as a bit mask on the stack: the lanes then
//!   drain at nearly the same time instead of one long message running
//!   alone at the end;
//! * keeps the busy lanes at the front, so that an engine made of
//!   interleaved groups of lanes can run only the groups that hold busy
//!   lanes as the batch drains ([`digest_many_lanes_narrowing`]);
//! * once the batch runs dry and fewer than `min_active` lanes are busy,
//!   finishes those lanes with the single-stream backend rather than
//!   spinning idle lanes.
//!
//! Idle lanes, while any remain, are fed a copy of a busy lane's data and
//! their results are thrown away. Nothing allocates.

use block_buffer::EagerBuffer;
use core::array;
use generic_array::typenum::Unsigned;

use crate::fixed::pad;
use crate::xof::XofReader;
use crate::{Algorithm, FixedAlgorithm, OutputBytes, Padding, XofAlgorithm};

/// Room for a padded tail: Merkle–Damgård padding takes at most two blocks
/// (2 x 128 bytes for SHA-512), Keccak's one block of at most 168 bytes.
/// An algorithm with a longer padded tail would fail loudly in
/// [`Lane::start`] (slice index out of range), never silently.
const TAIL_CAP: usize = 256;

struct Lane<'a> {
    /// Index of the message in the batch, or `None` when idle.
    job: Option<usize>,
    /// Whole blocks of the message not yet compressed.
    body: &'a [u8],
    /// The padded tail (one or two blocks).
    tail: [u8; TAIL_CAP],
    tail_len: usize,
    /// Bytes of `tail` already compressed.
    tail_pos: usize,
}

impl<'a> Lane<'a> {
    fn idle() -> Self {
        Lane { job: None, body: &[], tail: [0; TAIL_CAP], tail_len: 0, tail_pos: 0 }
    }

    /// Load message `job`, padding its tail with `padding`.
    fn start<A: Algorithm>(&mut self, job: usize, msg: &'a [u8], padding: Padding) {
        let bs = A::BlockSize::USIZE;
        let whole = msg.len() - msg.len() % bs;
        let (body, rest) = msg.split_at(whole);
        let mut buffer = EagerBuffer::<A::BlockSize>::new(rest);
        let mut len = 0;
        let tail = &mut self.tail;
        pad::<A>(padding, &mut buffer, msg.len() as u128, |block| {
            tail[len..len + bs].copy_from_slice(block);
            len += bs;
        });
        self.job = Some(job);
        self.body = body;
        self.tail_len = len;
        self.tail_pos = 0;
        self.merge();
    }

    /// What the lane compresses next: its body, then its tail.
    #[inline]
    fn segment(&self) -> &[u8] {
        if self.body.is_empty() { &self.tail[self.tail_pos..self.tail_len] } else { self.body }
    }

    /// Mark `n` bytes of the current segment compressed; true when the whole
    /// message (tail included) is done.
    #[inline]
    fn advance(&mut self, n: usize) -> bool {
        if self.body.is_empty() {
            self.tail_pos += n;
            self.tail_pos == self.tail_len
        } else {
            self.body = &self.body[n..];
            self.merge();
            false
        }
    }

    /// Once the rest of the body fits in the tail buffer ahead of the
    /// padded tail, copy it there: body and tail then form one segment, so
    /// the lane's message ends in one event instead of two (a body end and
    /// then a one- or two-block tail, which would cut every lane's step
    /// short), and batches of unequal lengths run fewer, longer steps.
    #[inline]
    fn merge(&mut self) {
        let rest = self.body.len();
        if rest > 0 && self.tail_pos == 0 && rest + self.tail_len <= TAIL_CAP {
            self.tail.copy_within(..self.tail_len, rest);
            self.tail[..rest].copy_from_slice(self.body);
            self.tail_len += rest;
            self.body = &[];
        }
    }
}

/// How many waiting messages the longest-first order looks ahead over.
pub const WINDOW: usize = 64;

/// The messages not yet started, handed out in batch order or, for batches
/// of unequal lengths, longest first within a window of [`WINDOW`].
struct Queue<'i, 'a> {
    inputs: &'i [&'a [u8]],
    /// Every message before `next` has been started.
    next: usize,
    /// Bit `i`: message `next + i` has been started.
    taken: u64,
    longest_first: bool,
}

impl<'i, 'a> Queue<'i, 'a> {
    fn new(inputs: &'i [&'a [u8]], lanes: usize, block: usize) -> Self {
        // One pass over the lengths: an even batch keeps its order (and
        // skips the window scans, which would cost as much as hashing a
        // block per message for short messages).
        let (lo, hi) = inputs.iter().fold((usize::MAX, 0), |(lo, hi), m| (lo.min(m.len()), hi.max(m.len())));
        let longest_first = inputs.len() > lanes && hi / block > lo / block + 1;
        Queue { inputs, next: 0, taken: 0, longest_first }
    }

    #[inline]
    fn pop(&mut self) -> Option<(usize, &'a [u8])> {
        if self.next >= self.inputs.len() {
            return None;
        }
        let pick = if self.longest_first {
            let window = WINDOW.min(self.inputs.len() - self.next);
            let mut best = 0;
            let mut best_len = None;
            for i in 0..window {
                let len = self.inputs[self.next + i].len();
                if self.taken & (1 << i) == 0 && best_len.is_none_or(|b| len > b) {
                    best = i;
                    best_len = Some(len);
                }
            }
            best
        } else {
            0
        };
        let job = self.next + pick;
        self.taken |= 1 << pick;
        while self.taken & 1 == 1 {
            self.taken >>= 1;
            self.next += 1;
        }
        Some((job, self.inputs[job]))
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.next >= self.inputs.len()
    }
}

/// The scheduler loop shared by the fixed-output and XOF entry points.
/// `compress_lanes` also gets the number of busy lanes, which are lanes
/// `0..busy`.
fn run_lanes<'a, A: Algorithm, const N: usize>(
    backend: A::Backend,
    padding: Padding,
    inputs: &[&'a [u8]],
    min_active: usize,
    mut compress_lanes: impl FnMut(&mut [A::State; N], [&[u8]; N], usize),
    mut done: impl FnMut(usize, &A::State),
) {
    let bs = A::BlockSize::USIZE;
    let mut states: [A::State; N] = array::from_fn(|_| A::INIT);
    let mut lanes: [Lane<'a>; N] = array::from_fn(|_| Lane::idle());
    let mut queue = Queue::new(inputs, N, bs);
    loop {
        for (lane, state) in lanes.iter_mut().zip(states.iter_mut()) {
            if lane.job.is_none()
                && let Some((job, msg)) = queue.pop()
            {
                lane.start::<A>(job, msg, padding);
                *state = A::INIT;
            }
        }
        // Busy lanes to the front, in place: an idle lane takes the last
        // busy lane's message and state.
        let mut active = N;
        let mut i = 0;
        while i < active {
            if lanes[i].job.is_some() {
                i += 1;
            } else {
                active -= 1;
                if i < active && lanes[active].job.is_some() {
                    lanes.swap(i, active);
                    states.swap(i, active);
                    i += 1;
                }
            }
        }
        if active == 0 {
            return;
        }
        if queue.is_empty() && active < min_active {
            // Too few lanes left to pay for the multi-lane engine: finish
            // each with the single-stream backend.
            for (lane, state) in lanes.iter_mut().zip(states.iter_mut()).take(active) {
                if let Some(job) = lane.job {
                    let mut buffer = EagerBuffer::<A::BlockSize>::default();
                    // Body and tail are whole blocks: nothing stays buffered.
                    buffer.digest_blocks(lane.body, |blocks| A::compress(backend, state, blocks));
                    buffer.digest_blocks(&lane.tail[lane.tail_pos..lane.tail_len], |blocks| {
                        A::compress(backend, state, blocks)
                    });
                    done(job, state);
                    lane.job = None;
                }
            }
            return;
        }
        // Run every lane for as many blocks as the shortest busy lane has.
        let blocks = lanes[..active].iter().map(|l| l.segment().len() / bs).min().unwrap_or(1);
        let n = blocks * bs;
        let data: [&[u8]; N] = array::from_fn(|i| &lanes[if i < active { i } else { 0 }].segment()[..n]);
        compress_lanes(&mut states, data, active);
        for (lane, state) in lanes.iter_mut().zip(states.iter()).take(active) {
            if let Some(job) = lane.job
                && lane.advance(n)
            {
                done(job, state);
                lane.job = None;
            }
        }
    }
}

/// Hash each of `inputs` into the matching `outputs` slot on an `N`-lane
/// engine (see the module docs). `min_active` is the fewest busy lanes for
/// which the engine beats the single-stream `backend`.
///
/// # Panics
/// If `inputs.len() != outputs.len()`.
pub fn digest_many_lanes<A: FixedAlgorithm, const N: usize>(
    backend: A::Backend,
    inputs: &[&[u8]],
    outputs: &mut [A::Output],
    min_active: usize,
    compress_lanes: impl FnMut(&mut [A::State; N], [&[u8]; N]),
) {
    let mut compress_lanes = compress_lanes;
    digest_many_lanes_narrowing::<A, N>(backend, inputs, outputs, min_active, |states, data, _| {
        compress_lanes(states, data)
    });
}

/// As [`digest_many_lanes`], for an engine that can run fewer than `N`
/// lanes: `compress_lanes(states, data, busy)` must compress lanes
/// `0..busy` (the busy ones; the rest hold copies of lane 0's data and
/// their results are thrown away) and may leave the others alone, so an
/// engine of interleaved groups runs only the groups it needs as the batch
/// drains.
///
/// # Panics
/// If `inputs.len() != outputs.len()`.
pub fn digest_many_lanes_narrowing<A: FixedAlgorithm, const N: usize>(
    backend: A::Backend,
    inputs: &[&[u8]],
    outputs: &mut [A::Output],
    min_active: usize,
    compress_lanes: impl FnMut(&mut [A::State; N], [&[u8]; N], usize),
) {
    crate::check_batch(inputs.len(), outputs.len());
    run_lanes::<A, N>(backend, A::PADDING, inputs, min_active, compress_lanes, |job, state| {
        let mut out = A::Output::zeroed();
        A::output(state, &mut out);
        outputs[job] = out;
    });
}

/// The XOF version of [`digest_many_lanes`]: absorb on the lanes, then
/// squeeze each output (of any length) on its own.
///
/// # Panics
/// If `inputs.len() != outputs.len()`.
pub fn digest_xof_many_lanes<A: XofAlgorithm, const N: usize>(
    backend: A::Backend,
    inputs: &[&[u8]],
    outputs: &mut [&mut [u8]],
    min_active: usize,
    compress_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N]),
) {
    crate::check_batch(inputs.len(), outputs.len());
    let mut compress_lanes = compress_lanes;
    let compress = |states: &mut [[u64; 25]; N], data: [&[u8]; N], _busy: usize| compress_lanes(states, data);
    run_lanes::<A, N>(backend, Padding::Keccak(A::DOMAIN), inputs, min_active, compress, |job, state| {
        XofReader::<A>::new(backend, *state).read(outputs[job]);
    });
}

#[cfg(test)]
mod tests {
    use super::{Queue, WINDOW};

    fn order(lens: &[usize], lanes: usize) -> ([usize; 200], usize) {
        let data = [0u8; 300];
        let mut inputs: [&[u8]; 200] = [&[]; 200];
        for (slot, &len) in inputs.iter_mut().zip(lens) {
            *slot = &data[..len];
        }
        let mut queue = Queue::new(&inputs[..lens.len()], lanes, 64);
        let mut out = [usize::MAX; 200];
        let mut n = 0;
        while let Some((job, msg)) = queue.pop() {
            assert_eq!(msg.len(), lens[job]);
            out[n] = job;
            n += 1;
        }
        assert!(queue.is_empty());
        (out, n)
    }

    #[test]
    fn longest_first_within_the_window() {
        let (got, n) = order(&[10, 300, 70, 200, 130], 2);
        assert_eq!(&got[..n], &[1, 3, 4, 2, 0]);
        // As many messages as lanes, or lengths within a block: batch order.
        assert_eq!(&order(&[10, 300, 70], 3).0[..3], &[0, 1, 2]);
        assert_eq!(&order(&[10, 100, 70, 64], 2).0[..4], &[0, 1, 2, 3]);
        // Past the window: every message exactly once, the longest of each
        // window first.
        let lens: [usize; 200] = core::array::from_fn(|i| (i * 37) % 300);
        let (got, n) = order(&lens, 4);
        assert_eq!(n, 200);
        let mut seen = [false; 200];
        for &j in &got[..n] {
            assert!(!seen[j], "message {j} twice");
            seen[j] = true;
        }
        let first_max = (0..WINDOW).max_by_key(|&i| (lens[i], usize::MAX - i)).unwrap_or(0);
        assert_eq!(got[0], first_max);
    }
}
