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
//! * once the batch runs dry and fewer than `min_active` lanes are busy,
//!   finishes those lanes with the single-stream backend rather than
//!   spinning idle lanes.
//!
//! Idle lanes, while any remain, are fed a copy of a busy lane's data and
//! their results are thrown away.

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
    }

    /// What the lane compresses next: its body, then its tail.
    fn segment(&self) -> &[u8] {
        if self.body.is_empty() { &self.tail[self.tail_pos..self.tail_len] } else { self.body }
    }

    /// Mark `n` bytes of the current segment compressed; true when the whole
    /// message (tail included) is done.
    fn advance(&mut self, n: usize) -> bool {
        if self.body.is_empty() {
            self.tail_pos += n;
            self.tail_pos == self.tail_len
        } else {
            self.body = &self.body[n..];
            false
        }
    }
}

/// The scheduler loop shared by the fixed-output and XOF entry points.
fn run_lanes<'a, A: Algorithm, const N: usize>(
    backend: A::Backend,
    padding: Padding,
    inputs: &[&'a [u8]],
    min_active: usize,
    mut compress_lanes: impl FnMut(&mut [A::State; N], [&[u8]; N]),
    mut done: impl FnMut(usize, &A::State),
) {
    let bs = A::BlockSize::USIZE;
    let mut states: [A::State; N] = array::from_fn(|_| A::INIT);
    let mut lanes: [Lane<'a>; N] = array::from_fn(|_| Lane::idle());
    let mut next = 0;
    loop {
        for (lane, state) in lanes.iter_mut().zip(states.iter_mut()) {
            if lane.job.is_none() && next < inputs.len() {
                lane.start::<A>(next, inputs[next], padding);
                *state = A::INIT;
                next += 1;
            }
        }
        let active = lanes.iter().filter(|l| l.job.is_some()).count();
        if active == 0 {
            return;
        }
        if next == inputs.len() && active < min_active {
            // Too few lanes left to pay for the multi-lane engine: finish
            // each with the single-stream backend.
            for (lane, state) in lanes.iter_mut().zip(states.iter_mut()) {
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
        let blocks = lanes.iter().filter(|l| l.job.is_some()).map(|l| l.segment().len() / bs).min().unwrap_or(1);
        let n = blocks * bs;
        let filler = lanes.iter().position(|l| l.job.is_some()).unwrap_or(0);
        let data: [&[u8]; N] = array::from_fn(|i| {
            let lane = if lanes[i].job.is_some() { &lanes[i] } else { &lanes[filler] };
            &lane.segment()[..n]
        });
        compress_lanes(&mut states, data);
        for (lane, state) in lanes.iter_mut().zip(states.iter()) {
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
    run_lanes::<A, N>(backend, Padding::Keccak(A::DOMAIN), inputs, min_active, compress_lanes, |job, state| {
        XofReader::<A>::new(backend, *state).read(outputs[job]);
    });
}
