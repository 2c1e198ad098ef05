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
//! * runs a batch whose messages all have the same whole blocks and the
//!   same padded tail (equal lengths, the common case) in waves of `N`
//!   messages, one step over their bodies and one over their tails, with
//!   none of the bookkeeping below, which unequal lengths need;
//! * otherwise runs the lanes for as many blocks as the shortest lane has left, then
//!   gives each lane that finished a segment its next segment, and each
//!   lane that finished its message the next message of the batch, so
//!   messages of unequal lengths keep all lanes busy;
//! * when the batch's lengths differ and it has more messages than lanes,
//!   starts the longest waiting message first (longest processing time
//!   first, Graham 1969), looking ahead over a window of the next
//!   [`WINDOW`] messages kept on the stack (a bit mask, and a heap to pick
//!   from): the lanes then drain at nearly the same time instead of one
//!   long message running alone at the end;
//! * copies the end of a lane's body in front of its padded tail once it
//!   fits there (up to 512 bytes in all), so that most messages end in
//!   one event rather than a body end and a tail end, each of which cuts
//!   every lane's step short;
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

use crate::padding::{pad_tail, tail_len};
use crate::xof::XofReader;
use crate::{Algorithm, FixedAlgorithm, OutputBytes, Padding, XofAlgorithm};

mod queue;

pub use queue::WINDOW;
use queue::{Queue, bounds};

/// Room for a lane's padded tail and the end of its body copied ahead of
/// it (see [`Lane::merge`]): Merkle–Damgård padding takes at most two
/// blocks (2 x 128 bytes for SHA-512), Keccak's one block of at most 168
/// bytes. An algorithm with a longer padded tail would fail loudly in
/// [`Lane::start`] (slice index out of range), never silently.
const TAIL_CAP: usize = 512;

/// One lane's message. Positions are kept on the scheduler's clock (bytes
/// compressed per lane since the batch started), which every step moves on
/// by the step's length: a step updates no lane, and only the lanes whose
/// segment ends or whose body can merge into the tail (their `trigger`, see
/// [`Lane::trigger`]) need attention afterwards.
struct Lane<'a> {
    /// Index of the message in the batch (meaningful while the lane is
    /// busy).
    job: usize,
    /// The message's whole blocks, compressed straight from the caller's
    /// slice, then `tail`.
    body: &'a [u8],
    /// Whether the current segment is the tail (else `body`).
    in_tail: bool,
    /// The clock when the current segment's first byte was compressed.
    origin: usize,
    /// The lane's tail buffer: `tails[buf]` of [`run_lanes`], kept apart
    /// so that packing the busy lanes to the front moves only these few
    /// words.
    buf: usize,
    /// The padded tail (one or two blocks) is `tails[buf][tail_start..]`,
    /// at the end of the buffer so that the end of the body can be copied
    /// in ahead of it.
    tail_start: usize,
}

impl<'a> Lane<'a> {
    fn idle(buf: usize) -> Self {
        Lane { job: 0, body: &[], in_tail: false, origin: 0, buf, tail_start: TAIL_CAP }
    }

    /// Load message `job` at clock `clock`, padding its tail with
    /// `padding`; returns the lane's `(end, trigger)`.
    #[inline]
    fn start<A: Algorithm>(
        &mut self,
        job: usize,
        msg: &'a [u8],
        padding: Padding,
        clock: usize,
        tail: &mut [u8; TAIL_CAP],
    ) -> (usize, usize) {
        let bs = A::BlockSize::USIZE;
        let whole = msg.len() - msg.len() % bs;
        let (body, rest) = msg.split_at(whole);
        self.job = job;
        self.body = body;
        self.in_tail = false;
        self.origin = clock;
        self.tail_start = pad_tail(padding, bs, rest, msg.len() as u128, tail);
        let end = clock + body.len();
        if clock >= self.trigger(end) { self.merge(end, clock, tail) } else { (end, self.trigger(end)) }
    }

    /// The clock at or after which the lane needs attention, given the end
    /// of its current segment: in the tail, that end (the message is done);
    /// in the body, as soon as the rest of the body fits ahead of the tail.
    #[inline]
    fn trigger(&self, end: usize) -> usize {
        if self.in_tail { end } else { end.saturating_sub(self.tail_start) }
    }

    /// The next `n` bytes at clock `clock`.
    #[inline]
    fn segment<'t>(&self, tail: &'t [u8; TAIL_CAP], clock: usize, n: usize) -> &'t [u8]
    where
        'a: 't,
    {
        let at = clock - self.origin;
        if self.in_tail {
            let at = self.tail_start + at;
            &tail[at..at + n]
        } else {
            &self.body[at..at + n]
        }
    }

    /// What is left to compress at clock `clock`: the rest of the current
    /// segment, then the tail if the lane is still in its body.
    #[inline]
    fn rest<'t>(&self, tail: &'t [u8; TAIL_CAP], clock: usize) -> (&'t [u8], &'t [u8])
    where
        'a: 't,
    {
        let at = clock - self.origin;
        if self.in_tail { (&tail[self.tail_start + at..], &[]) } else { (&self.body[at..], &tail[self.tail_start..]) }
    }

    /// Copy the rest of the body (`end - clock` bytes, which fit) ahead of
    /// the padded tail: body and tail then form one segment, so the lane's
    /// message ends in one event instead of two (a body end and then a
    /// one- or two-block tail, which would cut every lane's step short),
    /// and batches of unequal lengths run fewer, longer steps. Returns the
    /// new `(end, trigger)`.
    #[inline]
    fn merge(&mut self, end: usize, clock: usize, tail: &mut [u8; TAIL_CAP]) -> (usize, usize) {
        let rest = end - clock;
        if rest > 0 {
            let from = self.body.len() - rest;
            tail[self.tail_start - rest..self.tail_start].copy_from_slice(&self.body[from..]);
            self.tail_start -= rest;
        }
        self.in_tail = true;
        self.origin = clock;
        let end = clock + (TAIL_CAP - self.tail_start);
        (end, end)
    }
}

/// The mean length of `inputs` in bytes (0 for no messages), which the
/// crates' engine rules weigh besides the batch's size.
#[inline]
pub fn mean_len(inputs: &[&[u8]]) -> usize {
    inputs.iter().fold(0usize, |sum, m| sum.saturating_add(m.len())) / inputs.len().max(1)
}

/// The scheduler loop shared by the fixed-output and XOF entry points.
/// `compress_lanes` also gets the number of busy lanes, which are lanes
/// `0..busy`.
///
/// Lanes `0..active` are busy. `end[i]` is the clock at which lane `i`'s
/// current segment ends and `trigger[i]` the clock from which it needs
/// attention (see [`Lane`]): each step runs until the nearest end, and only
/// the lanes whose trigger has come are touched after it, besides taking
/// the next minimum.
fn run_lanes<'a, A: Algorithm, const N: usize>(
    backend: A::Backend,
    padding: Padding,
    inputs: &[&'a [u8]],
    min_active: usize,
    mut compress_lanes: impl FnMut(&mut [A::State; N], [&[u8]; N], usize),
    mut done: impl FnMut(usize, &A::State),
) {
    let bs = A::BlockSize::USIZE;
    let (lo, hi) = bounds(inputs);
    if lo / bs == hi / bs && tail_len(padding, bs, lo % bs) == tail_len(padding, bs, hi % bs) {
        return run_even::<A, N>(backend, padding, inputs, min_active, compress_lanes, done);
    }
    let mut states: [A::State; N] = array::from_fn(|_| A::INIT);
    let mut lanes: [Lane<'a>; N] = array::from_fn(Lane::idle);
    let mut tails = [[0u8; TAIL_CAP]; N];
    let mut end = [0usize; N];
    let mut trigger = [0usize; N];
    let mut queue = Queue::with_bounds(inputs, N, bs, (lo, hi));
    let mut clock = 0;
    let mut active = 0;
    while active < N
        && let Some((job, msg)) = queue.pop()
    {
        let lane = &mut lanes[active];
        (end[active], trigger[active]) = lane.start::<A>(job, msg, padding, clock, &mut tails[lane.buf]);
        active += 1;
    }
    // The nearest end among the busy lanes: where the next step stops.
    let mut next = end[..active].iter().fold(usize::MAX, |m, &e| m.min(e));
    loop {
        if active == 0 {
            return;
        }
        if queue.is_empty() && active < min_active {
            // Too few lanes left to pay for the multi-lane engine: finish
            // each with the single-stream backend.
            for (lane, state) in lanes.iter().zip(states.iter_mut()).take(active) {
                let (segment, tail) = lane.rest(&tails[lane.buf], clock);
                finish_single::<A>(backend, state, segment, tail);
                done(lane.job, state);
            }
            return;
        }
        // Run every lane for as many blocks as the shortest busy lane has.
        let n = next - clock;
        debug_assert!(n > 0 && n % bs == 0);
        let first = lanes[0].segment(&tails[lanes[0].buf], clock, n);
        let mut data: [&[u8]; N] = [first; N];
        for (slot, lane) in data.iter_mut().zip(&lanes[..active]).skip(1) {
            *slot = lane.segment(&tails[lane.buf], clock, n);
        }
        compress_lanes(&mut states, data, active);
        clock += n;
        // One pass over the busy lanes, which also finds the next end: a
        // lane whose body now fits ahead of its tail merges it there (a
        // body that has ended merges nothing and goes on to its tail); a
        // lane whose tail has ended is done and takes the next message, or,
        // once the batch has run dry, the last busy lane moves into its
        // place (and is looked at there next), so the busy lanes stay at
        // the front.
        next = usize::MAX;
        let mut i = 0;
        while i < active {
            if clock >= trigger[i] {
                let lane = &mut lanes[i];
                if !lane.in_tail {
                    (end[i], trigger[i]) = lane.merge(end[i], clock, &mut tails[lane.buf]);
                } else {
                    done(lane.job, &states[i]);
                    if let Some((job, msg)) = queue.pop() {
                        (end[i], trigger[i]) = lane.start::<A>(job, msg, padding, clock, &mut tails[lane.buf]);
                        states[i] = A::INIT;
                    } else {
                        active -= 1;
                        if active > i {
                            lanes.swap(i, active);
                            states.swap(i, active);
                            end.swap(i, active);
                            trigger.swap(i, active);
                        }
                        continue;
                    }
                }
            }
            next = next.min(end[i]);
            i += 1;
        }
    }
}

/// Finish one message on the single-stream `backend`: the whole blocks
/// `body`, then the padded `tail`.
#[inline]
fn finish_single<A: Algorithm>(backend: A::Backend, state: &mut A::State, body: &[u8], tail: &[u8]) {
    let mut buffer = EagerBuffer::<A::BlockSize>::default();
    // Whole blocks: nothing stays buffered.
    buffer.digest_blocks(body, |blocks| A::compress(backend, state, blocks));
    buffer.digest_blocks(tail, |blocks| A::compress(backend, state, blocks));
}

/// Room for one message's padded tail in [`run_even`]: two blocks of 128
/// bytes (SHA-512) or one Keccak block of at most 168 bytes.
const EVEN_TAIL_CAP: usize = 256;

/// [`run_lanes`] for a batch whose messages all have the same number of
/// whole blocks and the same length of padded tail (equal lengths, the
/// common case): every lane's body ends at the same clock and so does
/// every tail, so the batch runs in waves of `N` messages, each one step
/// over the bodies and one over the tails, in batch order, with none of the
/// per-lane bookkeeping (queue, triggers, merges) that unequal lengths
/// need, which matters for short messages (1 KiB is 17 MD5 blocks).
///
/// Unlike [`Lane::merge`], a short body is not copied ahead of its tail to
/// save the second step: with a tail buffer of [`TAIL_CAP`] for the copy,
/// batches of 64 equal MD5 messages of 200 and 448 bytes ran 5-10% slower
/// (the copy and the larger buffer to clear cost more than the step; Intel
/// Xeon, Sapphire Rapids class, AVX-512 lanes).
fn run_even<A: Algorithm, const N: usize>(
    backend: A::Backend,
    padding: Padding,
    inputs: &[&[u8]],
    min_active: usize,
    mut compress_lanes: impl FnMut(&mut [A::State; N], [&[u8]; N], usize),
    mut done: impl FnMut(usize, &A::State),
) {
    let bs = A::BlockSize::USIZE;
    let mut tails = [[0u8; EVEN_TAIL_CAP]; N];
    for (wave, msgs) in inputs.chunks(N).enumerate() {
        let busy = msgs.len();
        let whole = msgs[0].len() - msgs[0].len() % bs;
        let mut start = EVEN_TAIL_CAP;
        for (tail, msg) in tails.iter_mut().zip(msgs) {
            start = pad_tail(padding, bs, &msg[whole..], msg.len() as u128, tail);
        }
        let mut states: [A::State; N] = array::from_fn(|_| A::INIT);
        if busy < min_active {
            // The last few messages: too few to pay for the engine (as in
            // `run_lanes`).
            for ((msg, tail), state) in msgs.iter().zip(&tails).zip(states.iter_mut()) {
                finish_single::<A>(backend, state, &msg[..whole], &tail[start..]);
            }
        } else {
            // Idle lanes repeat lane 0's data.
            if whole > 0 {
                let mut data: [&[u8]; N] = [&msgs[0][..whole]; N];
                for (slot, msg) in data.iter_mut().zip(msgs).skip(1) {
                    *slot = &msg[..whole];
                }
                compress_lanes(&mut states, data, busy);
            }
            let mut data: [&[u8]; N] = [&tails[0][start..]; N];
            for (slot, tail) in data.iter_mut().zip(&tails[..busy]).skip(1) {
                *slot = &tail[start..];
            }
            compress_lanes(&mut states, data, busy);
        }
        for (i, state) in states.iter().take(busy).enumerate() {
            done(wave * N + i, state);
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
    if inputs.len() < min_active {
        // Too few messages to pay for the engine: the one-shot path, which
        // skips the lanes' setup (their tail buffers, the queue).
        return one_by_one::<A>(backend, inputs, outputs);
    }
    on_lanes::<A, N>(backend, inputs, outputs, min_active, compress_lanes);
}

/// The lanes' part of [`digest_many_lanes_narrowing`], in a function of its
/// own: its frame holds every lane's tail buffer (for 32 MD5 lanes, five
/// 4 KiB pages probed one by one on entry), which a batch too small for
/// the engine must not pay for.
#[inline(never)]
fn on_lanes<A: FixedAlgorithm, const N: usize>(
    backend: A::Backend,
    inputs: &[&[u8]],
    outputs: &mut [A::Output],
    min_active: usize,
    compress_lanes: impl FnMut(&mut [A::State; N], [&[u8]; N], usize),
) {
    run_lanes::<A, N>(backend, A::PADDING, inputs, min_active, compress_lanes, |job, state| {
        let mut out = A::Output::zeroed();
        A::output(state, &mut out);
        outputs[job] = out;
    });
}

/// Hash each of `inputs` into the matching `outputs` slot, one message
/// after another on `backend`'s single-message code: the batch path of a
/// backend without a batch engine, or of a batch too small for one. The
/// same code as `Hasher::digest`, without a backend check per message.
///
/// # Panics
/// If `inputs.len() != outputs.len()`, or this CPU does not support
/// `backend`.
#[inline]
#[track_caller]
pub fn digest_one_by_one<A: FixedAlgorithm>(backend: A::Backend, inputs: &[&[u8]], outputs: &mut [A::Output]) {
    crate::check_batch(inputs.len(), outputs.len());
    one_by_one::<A>(crate::algorithm::checked::<A>("digest_one_by_one", backend), inputs, outputs);
}

/// [`digest_one_by_one`] for a backend and slices the caller has checked.
#[inline]
fn one_by_one<A: FixedAlgorithm>(backend: A::Backend, inputs: &[&[u8]], outputs: &mut [A::Output]) {
    for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
        *output = crate::fixed::digest_with::<A>(backend, input);
    }
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
    if inputs.len() < min_active {
        // As in `digest_many_lanes_narrowing`.
        for (input, output) in inputs.iter().zip(outputs.iter_mut()) {
            crate::xof::digest_xof_with::<A>(backend, input, output);
        }
        return;
    }
    xof_on_lanes::<A, N>(backend, inputs, outputs, min_active, compress_lanes);
}

/// The lanes' part of [`digest_xof_many_lanes`], never inlined for the same
/// reason as [`on_lanes`].
#[inline(never)]
fn xof_on_lanes<A: XofAlgorithm, const N: usize>(
    backend: A::Backend,
    inputs: &[&[u8]],
    outputs: &mut [&mut [u8]],
    min_active: usize,
    mut compress_lanes: impl FnMut(&mut [[u64; 25]; N], [&[u8]; N]),
) {
    let compress = |states: &mut [[u64; 25]; N], data: [&[u8]; N], _busy: usize| compress_lanes(states, data);
    run_lanes::<A, N>(backend, Padding::Keccak(A::DOMAIN), inputs, min_active, compress, |job, state| {
        XofReader::<A>::new(backend, *state).read(outputs[job]);
    });
}
