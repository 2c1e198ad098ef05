//! The messages of a batch not yet started on the lanes, and the order
//! they start in: batch order, or longest first within a window (see the
//! [`multi`](super) module docs).

/// How many waiting messages the longest-first order looks ahead over.
pub const WINDOW: usize = 64;

/// The messages not yet started, handed out in batch order or, for batches
/// of unequal lengths, longest first within a window of [`WINDOW`].
///
/// The window's waiting messages sit in a binary max-heap on the stack
/// (by length, then earliest first), so a pick costs a few comparisons
/// instead of a scan of the whole window.
pub(super) struct Queue<'i, 'a> {
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

/// The shortest and the longest length in `inputs` (`(usize::MAX, 0)` for
/// none).
#[inline]
pub(super) fn bounds(inputs: &[&[u8]]) -> (usize, usize) {
    inputs.iter().fold((usize::MAX, 0), |(lo, hi), m| (lo.min(m.len()), hi.max(m.len())))
}

/// Whether heap entry `a` goes before `b`: the longer message, and of two
/// equally long, the earlier.
#[inline]
fn before(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

impl<'i, 'a> Queue<'i, 'a> {
    #[cfg(test)]
    fn new(inputs: &'i [&'a [u8]], lanes: usize, block: usize) -> Self {
        Self::with_bounds(inputs, lanes, block, bounds(inputs))
    }

    /// The queue of `inputs`, whose shortest and longest lengths are
    /// `(lo, hi)` ([`bounds`]).
    pub(super) fn with_bounds(inputs: &'i [&'a [u8]], lanes: usize, block: usize, (lo, hi): (usize, usize)) -> Self {
        // An even batch keeps its order (and skips the heap, which would
        // cost more than the reordering gains).
        let longest_first = inputs.len() > lanes && hi / block > lo / block + 1;
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
    pub(super) fn pop(&mut self) -> Option<(usize, &'a [u8])> {
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
    pub(super) fn is_empty(&self) -> bool {
        self.next >= self.inputs.len()
    }
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
