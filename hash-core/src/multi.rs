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

use crate::xof::XofReader;
use crate::{Algorithm, FixedAlgorithm, OutputBytes, Padding, XofAlgorithm};

/// Room for a padded tail: Merkle–Damgård padding takes at most two blocks
/// (2 x 128 bytes for SHA-512), Keccak's one block of at most 168 bytes.
/// An algorithm with a longer padded tail would fail loudly in
/// [`Lane::start`] (slice index out of range), never silently.
const TAIL_CAP: usize = 512;

struct Lane<'a> {
    /// Index of the message in the batch (meaningful while the lane is
    /// busy).
    job: usize,
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
        Lane { job: 0, body: &[], tail: [0; TAIL_CAP], tail_len: 0, tail_pos: 0 }
    }

    /// Load message `job`, padding its tail with `padding`; returns the
    /// length of its first segment.
    #[inline]
    fn start<A: Algorithm>(&mut self, job: usize, msg: &'a [u8], padding: Padding) -> usize {
        let bs = A::BlockSize::USIZE;
        let whole = msg.len() - msg.len() % bs;
        let (body, rest) = msg.split_at(whole);
        self.job = job;
        self.body = body;
        self.tail_len = pad_tail(padding, bs, rest, msg.len() as u128, &mut self.tail);
        self.tail_pos = 0;
        self.merge();
        self.left()
    }

    /// Bytes left in the current segment: the body, then the tail.
    #[inline]
    fn left(&self) -> usize {
        if self.body.is_empty() { self.tail_len - self.tail_pos } else { self.body.len() }
    }

    /// The next `n` bytes of the current segment.
    #[inline]
    fn segment(&self, n: usize) -> &[u8] {
        if self.body.is_empty() { &self.tail[self.tail_pos..self.tail_pos + n] } else { &self.body[..n] }
    }

    /// Mark `n` bytes of the current segment compressed (`left` was at
    /// least `n`); returns what is left of the segment then current, 0 once
    /// the whole message (tail included) is done.
    #[inline]
    fn advance(&mut self, n: usize) -> usize {
        if self.body.is_empty() {
            self.tail_pos += n;
            self.tail_len - self.tail_pos
        } else {
            self.body = &self.body[n..];
            self.merge();
            self.left()
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

/// Write the padded tail of a message of `total` bytes whose last partial
/// block is `rest` into `tail`, and return its length (one or two blocks of
/// `bs` bytes): `rest`, `0x80`, zeros and the bit length for Merkle–Damgård
/// (RFC 1321 §3.1–3.2, FIPS 180-4 §5.1.1–5.1.2), `rest` then `pad10*1`
/// with the domain bits in the first padding byte for Keccak (FIPS 202
/// §5.1, §B.2). The same blocks as `fixed::pad` (which the single-stream path
/// uses) makes, written straight into the lane instead of through a block
/// buffer: this runs once per message of a batch.
#[inline]
fn pad_tail(padding: Padding, bs: usize, rest: &[u8], total: u128, tail: &mut [u8; TAIL_CAP]) -> usize {
    let n = rest.len();
    tail[..n].copy_from_slice(rest);
    let bits = total.wrapping_mul(8);
    let field = match padding {
        Padding::Keccak(domain) => {
            tail[n..bs].fill(0);
            tail[n] ^= domain;
            tail[bs - 1] ^= 0x80;
            return bs;
        }
        Padding::Be128 => 16,
        Padding::Be64 | Padding::Le64 => 8,
    };
    let len = if n + 1 + field <= bs { bs } else { 2 * bs };
    tail[n] = 0x80;
    tail[n + 1..len - field].fill(0);
    let end = &mut tail[len - field..len];
    match padding {
        // The length fields are defined modulo 2^64 (RFC 1321 §3.2); FIPS
        // 180-4 limits messages to below 2^64 bits for these algorithms.
        Padding::Le64 => end.copy_from_slice(&(bits as u64).to_le_bytes()),
        Padding::Be64 => end.copy_from_slice(&(bits as u64).to_be_bytes()),
        _ => end.copy_from_slice(&bits.to_be_bytes()),
    }
    len
}

/// How many waiting messages the longest-first order looks ahead over.
pub const WINDOW: usize = 64;

/// The messages not yet started, handed out in batch order or, for batches
/// of unequal lengths, longest first within a window of [`WINDOW`].
///
/// The window's waiting messages sit in a binary max-heap on the stack
/// (by length, then earliest first), so a pick costs a few comparisons
/// instead of a scan of the whole window.
struct Queue<'i, 'a> {
    inputs: &'i [&'a [u8]],
    /// Every message before `next` has been started.
    next: usize,
    /// Bit `i`: message `next + i` has been started.
    taken: u64,
    longest_first: bool,
    /// Messages `next..entered` not yet started, as a heap of `(length,
    /// index)` in `heap[..heap_len]`.
    heap: [(usize, usize); WINDOW],
    heap_len: usize,
    /// Every message before `entered` has entered the window.
    entered: usize,
}

/// Whether heap entry `a` goes before `b`: the longer message, and of two
/// equally long, the earlier.
#[inline]
fn before(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl<'i, 'a> Queue<'i, 'a> {
    fn new(inputs: &'i [&'a [u8]], lanes: usize, block: usize) -> Self {
        // One pass over the lengths: an even batch keeps its order (and
        // skips the heap, which would cost more than the reordering gains).
        let (lo, hi) = inputs.iter().fold((usize::MAX, 0), |(lo, hi), m| (lo.min(m.len()), hi.max(m.len())));
        let longest_first = std::env::var("NOLF").is_err() && inputs.len() > lanes && hi / block > lo / block + 1;
        let mut queue =
            Queue { inputs, next: 0, taken: 0, longest_first, heap: [(0, 0); WINDOW], heap_len: 0, entered: 0 };
        if longest_first {
            queue.enter();
        }
        queue
    }

    /// Put the messages that the window now covers into the heap.
    #[inline]
    fn enter(&mut self) {
        let end = self.inputs.len().min(self.next + WINDOW);
        while self.entered < end {
            let item = (self.inputs[self.entered].len(), self.entered);
            // Sift up.
            let mut at = self.heap_len;
            while at > 0 {
                let parent = (at - 1) / 2;
                if !before(item, self.heap[parent]) {
                    break;
                }
                self.heap[at] = self.heap[parent];
                at = parent;
            }
            self.heap[at] = item;
            self.heap_len += 1;
            self.entered += 1;
        }
    }

    /// Take the heap's top.
    #[inline]
    fn take_top(&mut self) -> usize {
        let top = self.heap[0].1;
        self.heap_len -= 1;
        let last = self.heap[self.heap_len];
        let len = self.heap_len;
        // Sift `last` down from the root.
        let mut at = 0;
        loop {
            let mut child = 2 * at + 1;
            if child >= len {
                break;
            }
            if child + 1 < len && before(self.heap[child + 1], self.heap[child]) {
                child += 1;
            }
            if !before(self.heap[child], last) {
                break;
            }
            self.heap[at] = self.heap[child];
            at = child;
        }
        if len > 0 {
            self.heap[at] = last;
        }
        top
    }

    #[inline]
    fn pop(&mut self) -> Option<(usize, &'a [u8])> {
        if self.next >= self.inputs.len() {
            return None;
        }
        if !self.longest_first {
            self.next += 1;
            return Some((self.next - 1, self.inputs[self.next - 1]));
        }
        let job = self.take_top();
        self.taken |= 1 << (job - self.next);
        if self.taken & 1 == 1 {
            let run = self.taken.trailing_ones();
            // `run` can be 64 (every bit set), which a plain shift rejects.
            self.taken = self.taken.checked_shr(run).unwrap_or(0);
            self.next += run as usize;
            self.enter();
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
///
/// Lanes `0..active` are busy; `left[i]` is what lane `i` has left of its
/// current segment. The lanes are refilled and packed only after a step in
/// which one of them finished its message, so the other steps cost a
/// minimum, the slices and the advance over the busy lanes.
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
    let mut left = [0usize; N];
    let mut queue = Queue::new(inputs, N, bs);
    let mut active = 0;
    while active < N
        && let Some((job, msg)) = queue.pop()
    {
        left[active] = lanes[active].start::<A>(job, msg, padding);
        active += 1;
    }
    let mut n = left[..active].iter().fold(usize::MAX, |m, &l| m.min(l));
    loop {
        if active == 0 {
            return;
        }
        if queue.is_empty() && active < min_active {
            // Too few lanes left to pay for the multi-lane engine: finish
            // each with the single-stream backend.
            for (lane, state) in lanes.iter().zip(states.iter_mut()).take(active) {
                let mut buffer = EagerBuffer::<A::BlockSize>::default();
                // Body and tail are whole blocks: nothing stays buffered.
                buffer.digest_blocks(lane.body, |blocks| A::compress(backend, state, blocks));
                buffer.digest_blocks(&lane.tail[lane.tail_pos..lane.tail_len], |blocks| {
                    A::compress(backend, state, blocks)
                });
                done(lane.job, state);
            }
            return;
        }
        // Run every lane for as many blocks as the shortest busy lane has
        // (`n`), and find the next step's length as the lanes advance.
        debug_assert!(n > 0 && n % bs == 0);
        let first = lanes[0].segment(n);
        let mut data: [&[u8]; N] = [first; N];
        for (slot, lane) in data.iter_mut().zip(&lanes[..active]).skip(1) {
            *slot = lane.segment(n);
        }
        compress_lanes(&mut states, data, active);
        let mut next = usize::MAX;
        for (lane, l) in lanes.iter_mut().zip(left.iter_mut()).take(active) {
            *l = lane.advance(n);
            next = next.min(*l);
        }
        n = next;
        if n != 0 {
            continue;
        }
        // Refill each lane that finished with the next message, or pack
        // the busy lanes to the front: the last busy lane moves into the
        // hole.
        let mut i = 0;
        while i < active {
            if left[i] != 0 {
                i += 1;
                continue;
            }
            done(lanes[i].job, &states[i]);
            if let Some((job, msg)) = queue.pop() {
                left[i] = lanes[i].start::<A>(job, msg, padding);
                states[i] = A::INIT;
                i += 1;
            } else {
                active -= 1;
                if i < active {
                    lanes.swap(i, active);
                    states.swap(i, active);
                    left.swap(i, active);
                }
            }
        }
        n = left[..active].iter().fold(usize::MAX, |m, &l| m.min(l));
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
