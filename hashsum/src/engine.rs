//! Reading and hashing many files on several threads, results in order.
//!
//! Each worker claims a run of consecutive files, reads every small file
//! whole into its arena (reads until end of file, no `stat`), and hashes
//! the arena's messages together with `digest_many`, so a batch of small
//! files keeps every SIMD lane (or interleaved SHA-NI stream) busy. A file
//! that outgrows the small-file limit is finished as a stream in big reads
//! on the single-stream backend; with more than one job a reader thread
//! fills the next buffer while the current one is hashed. The main thread
//! puts the runs back in command-line order and hands each result to the
//! caller, and draws the progress line.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::algo::{Algo, Stream};

/// Files up to this size are read whole and hashed in batches.
const SMALL_MAX: usize = 256 << 10;
/// Room for the small files of one batch (at least one maximal file).
const ARENA: usize = 16 * (SMALL_MAX + 1);
/// Most files in one claimed run.
const RUN_MAX: usize = 64;
/// Read size for large files.
const BIG_READ: usize = 256 << 10;
/// The first read of a file into the arena; later reads double it.
const READ_MIN: usize = 16 << 10;

/// What to hash.
#[derive(Debug)]
pub(crate) enum Source {
    /// A file (or a directory, FIFO, ...: whatever `open` and `read` say).
    Path(PathBuf),
    /// Standard input (`-`).
    Stdin,
    /// Known to fail already (an unreadable directory found by `-r`): the OS
    /// error code to report.
    Failed(i32),
    /// Not a regular file, found by `-r` (a FIFO, socket or device, which
    /// could block or never end): reported in its place, not read.
    Skipped(&'static str),
}

/// The error of a [`Source::Skipped`]: what kind of file it is.
#[derive(Debug)]
pub(crate) struct Skipped(pub(crate) &'static str);

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a regular file ({}): skipped", self.0)
    }
}

impl std::error::Error for Skipped {}

/// The results of one run of files, in order.
struct Run {
    start: usize,
    digests: Vec<u8>,
    /// A SHA-1 collision attack was detected in the file (`sha1dc`).
    collided: Vec<bool>,
    errors: Vec<Option<io::Error>>,
}

/// One file's result: its digest, and whether a SHA-1 collision attack was
/// detected in it (`sha1dc` only; the digest is then the safe hash).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hashed<'a> {
    pub(crate) digest: &'a [u8],
    pub(crate) collision: bool,
}

/// What the progress line counts.
struct Counters {
    files: AtomicUsize,
    bytes: AtomicU64,
}

/// Hash `sources` with `algo` (output `len` bytes each) on `jobs` threads and
/// call `emit(index, result)` for each, in order. Stops early, returning the
/// error, when `emit` fails (the callers' never does: lost output is
/// reported at the end, as GNU does, and a closed pipe ends the process by
/// SIGPIPE). The threads are an optimisation: as many of `jobs` as the
/// system allows are started, none at all leaving the work to this thread;
/// files wait for descriptors when the process runs out of them. With
/// `prompt` (output to a terminal), each file is its own run, so that its
/// result is handed on as soon as it is done rather than with its run
/// (which a FIFO or a slow file further on could hold back).
pub(crate) fn hash_all(
    algo: Algo,
    len: usize,
    sources: &[Source],
    jobs: usize,
    prompt: bool,
    mut bar: Option<&mut Bar>,
    mut emit: impl FnMut(usize, Result<Hashed<'_>, io::Error>) -> io::Result<()>,
) -> io::Result<()> {
    // Standard input can be read once: with several `-`, keep their order.
    let stdin_count = sources.iter().filter(|s| matches!(s, Source::Stdin)).count();
    let jobs = if stdin_count > 1 { 1 } else { jobs.clamp(1, sources.len().max(1)) };
    let run_len = if prompt { 1 } else { (sources.len() / (jobs * 4)).clamp(1, RUN_MAX) };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let counters = Counters { files: AtomicUsize::new(0), bytes: AtomicU64::new(0) };

    let open = OpenFiles::default();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Run>();
        // Threads are an optimisation: start as many as allowed, and with
        // none (thread creation refused) the main thread does the work.
        let mut spawned = 0;
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, stop, counters, open) = (&next, &stop, &counters, &open);
            let work = move || {
                let mut worker = Worker::new(algo, len, jobs > 1, counters, open);
                loop {
                    let start = next.fetch_add(run_len, Ordering::Relaxed);
                    if start >= sources.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let end = (start + run_len).min(sources.len());
                    let run = worker.run(start, &sources[start..end]);
                    if tx.send(run).is_err() {
                        break;
                    }
                }
            };
            if std::thread::Builder::new().spawn_scoped(scope, work).is_err() {
                break;
            }
            spawned += 1;
        }
        drop(tx);

        let mut emit_run = |run: Run| -> io::Result<()> {
            for (i, error) in run.errors.into_iter().enumerate() {
                let result = match error {
                    None => Ok(Hashed { digest: &run.digests[i * len..(i + 1) * len], collision: run.collided[i] }),
                    Some(e) => Err(e),
                };
                emit(run.start + i, result)?;
            }
            Ok(())
        };

        if spawned == 0 {
            let mut worker = Worker::new(algo, len, false, &counters, &open);
            let mut start = 0;
            while start < sources.len() {
                let end = (start + run_len).min(sources.len());
                emit_run(worker.run(start, &sources[start..end]))?;
                if let Some(bar) = bar.as_mut() {
                    bar.draw(&counters);
                }
                start = end;
            }
            if let Some(bar) = bar.as_mut() {
                bar.add(&counters);
            }
            return Ok(());
        }

        let mut waiting: BTreeMap<usize, Run> = BTreeMap::new();
        let mut done = 0;
        let result = loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(run) => {
                    waiting.insert(run.start, run);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break Ok(()),
            }
            let mut failed = None;
            while let Some(run) = waiting.remove(&done) {
                done += run.errors.len();
                if let Err(e) = emit_run(run) {
                    failed = Some(e);
                    break;
                }
            }
            if let Some(e) = failed {
                stop.store(true, Ordering::Relaxed);
                break Err(e);
            }
            if let Some(bar) = bar.as_mut() {
                bar.draw(&counters);
            }
        };
        if let Some(bar) = bar.as_mut() {
            bar.add(&counters);
        }
        result
    })
}

/// The files the workers hold open, so that one that finds no descriptor
/// left (`EMFILE`, a low `ulimit -n`) waits for another to close one and
/// tries again, instead of failing a readable file.
#[derive(Default)]
struct OpenFiles {
    held: Mutex<Held>,
    closed: Condvar,
    /// Descriptors ran out once with none of ours held: no more waiting
    /// for that case (each file would wait in vain).
    starved: AtomicBool,
}

/// The descriptors the workers hold or are opening, and how many they have
/// closed so far.
#[derive(Default)]
struct Held {
    count: usize,
    closes: u64,
}

/// A file counted in [`OpenFiles`].
struct Opened<'a> {
    /// Always `Some` until dropped.
    file: Option<File>,
    open: &'a OpenFiles,
}

impl Opened<'_> {
    fn file(&self) -> &File {
        self.file.as_ref().expect("an open file until dropped")
    }
}

impl Drop for Opened<'_> {
    fn drop(&mut self) {
        // Close the descriptor before the count says so: a worker woken by
        // the count must find it free.
        drop(self.file.take());
        let mut held = self.open.lock();
        held.count -= 1;
        held.closes += 1;
        self.open.closed.notify_one();
    }
}

/// `EMFILE` (this process) and `ENFILE` (the system): out of descriptors.
fn out_of_descriptors(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(24 | 23))
}

impl OpenFiles {
    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Open `path`; when descriptors run out while other workers hold
    /// files, wait for one to be closed and try again. When none of ours
    /// was held or closed while the `open` failed (the descriptors are
    /// taken by something else), a few short waits, then the error.
    fn open(&self, path: &Path) -> io::Result<Opened<'_>> {
        let mut idle_tries = 0;
        loop {
            // Counted before `open`: a descriptor another worker is taking
            // right now is not mistaken for "none of ours held".
            let closes = {
                let mut held = self.lock();
                held.count += 1;
                held.closes
            };
            let opened = File::open(path);
            let mut held = self.lock();
            let e = match opened {
                Ok(file) => return Ok(Opened { file: Some(file), open: self }),
                Err(e) => e,
            };
            held.count -= 1;
            if !out_of_descriptors(&e) {
                return Err(e);
            }
            // None of ours was open during the attempt, nor closed since.
            let idle = held.count == 0 && held.closes == closes;
            if idle {
                idle_tries += 1;
                if idle_tries > 20 || self.starved.load(Ordering::Relaxed) {
                    self.starved.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            let wait = Duration::from_millis(if idle { 10 } else { 50 });
            drop(self.closed.wait_timeout(held, wait).unwrap_or_else(|e| e.into_inner()));
        }
    }
}

/// One thread's reading and hashing state.
struct Worker<'a> {
    algo: Algo,
    len: usize,
    overlap: bool,
    counters: &'a Counters,
    open: &'a OpenFiles,
    arena: Vec<u8>,
    used: usize,
    /// Small files waiting for `digest_many`: (index in the run, start, length).
    pending: Vec<(usize, usize, usize)>,
    big: Vec<u8>,
}

impl<'a> Worker<'a> {
    fn new(algo: Algo, len: usize, overlap: bool, counters: &'a Counters, open: &'a OpenFiles) -> Self {
        Worker { algo, len, overlap, counters, open, arena: Vec::new(), used: 0, pending: Vec::new(), big: Vec::new() }
    }

    fn run(&mut self, start: usize, sources: &[Source]) -> Run {
        let mut run = Run {
            start,
            digests: vec![0; sources.len() * self.len],
            collided: vec![false; sources.len()],
            errors: (0..sources.len()).map(|_| None).collect(),
        };
        for (i, source) in sources.iter().enumerate() {
            let result = match source {
                Source::Stdin => match crate::sys::stdin() {
                    Ok(mut stdin) => self.read(i, &mut stdin, None, &mut run),
                    Err(e) => Err(e),
                },
                Source::Path(path) => match self.open.open(path) {
                    Ok(opened) => self.read(i, &mut opened.file(), Some(opened.file()), &mut run),
                    Err(e) => Err(e),
                },
                Source::Failed(code) => Err(io::Error::from_raw_os_error(*code)),
                Source::Skipped(kind) => Err(io::Error::other(Skipped(kind))),
            };
            if let Err(e) = result {
                run.errors[i] = Some(e);
            }
            self.counters.files.fetch_add(1, Ordering::Relaxed);
        }
        self.flush(&mut run);
        run
    }

    /// Read one message: whole into the arena if it is small, else as a
    /// stream. `file` is the same reader when it can move to another thread.
    fn read(&mut self, i: usize, reader: &mut dyn Read, file: Option<&File>, run: &mut Run) -> io::Result<()> {
        if ARENA - self.used < SMALL_MAX + 1 {
            self.flush(run);
        }
        let start = self.used;
        let mut n = 0;
        loop {
            // The arena grows with what is read (to at most ARENA), not to
            // its full size at once: a worker that reads a few small files
            // (a `--check` window spread over many jobs) keeps to a few KiB.
            let end = start + (n + n.max(READ_MIN)).min(SMALL_MAX + 1);
            if self.arena.len() < end {
                self.arena.resize(end, 0);
            }
            let buf = &mut self.arena[start + n..end];
            if buf.is_empty() {
                let mut stream = self.algo.stream();
                stream.update(&self.arena[start..start + n]);
                let out = &mut run.digests[i * self.len..(i + 1) * self.len];
                run.collided[i] = match file {
                    Some(file) if self.overlap => stream_overlapped(file, stream, self.counters, out),
                    _ => self.stream_rest(reader, stream, out),
                }?;
                return Ok(());
            }
            match reader.read(buf) {
                Ok(0) => break,
                Ok(k) => {
                    n += k;
                    self.counters.bytes.fetch_add(k as u64, Ordering::Relaxed);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.pending.push((i, start, n));
        self.used += n;
        Ok(())
    }

    /// Hash the waiting small files together.
    fn flush(&mut self, run: &mut Run) {
        if self.pending.is_empty() {
            return;
        }
        let inputs: Vec<&[u8]> = self.pending.iter().map(|&(_, s, n)| &self.arena[s..s + n]).collect();
        let mut out = vec![0; inputs.len() * self.len];
        let mut collided = vec![false; inputs.len()];
        self.algo.digest_many(&inputs, self.len, &mut out, &mut collided);
        for ((&(i, _, _), digest), found) in self.pending.iter().zip(out.chunks_exact(self.len)).zip(collided) {
            run.digests[i * self.len..(i + 1) * self.len].copy_from_slice(digest);
            run.collided[i] = found;
        }
        self.pending.clear();
        self.used = 0;
    }

    /// Finish a large message on this thread; true when a collision attack
    /// was detected (see [`Stream::finish`]).
    fn stream_rest(&mut self, reader: &mut dyn Read, mut stream: Box<dyn Stream>, out: &mut [u8]) -> io::Result<bool> {
        if self.big.is_empty() {
            self.big = vec![0; BIG_READ];
        }
        loop {
            match reader.read(&mut self.big) {
                Ok(0) => break,
                Ok(k) => {
                    stream.update(&self.big[..k]);
                    self.counters.bytes.fetch_add(k as u64, Ordering::Relaxed);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(stream.finish(out))
    }
}

/// Finish a large file with a reader thread filling the next buffer while
/// this one hashes the last; true when a collision attack was detected.
fn stream_overlapped(
    file: &File,
    mut stream: Box<dyn Stream>,
    counters: &Counters,
    out: &mut [u8],
) -> io::Result<bool> {
    const BUFFERS: usize = 3;
    let (full_tx, full_rx) = mpsc::sync_channel::<io::Result<(Vec<u8>, usize)>>(BUFFERS);
    let (empty_tx, empty_rx) = mpsc::sync_channel::<Vec<u8>>(BUFFERS);
    for _ in 0..BUFFERS {
        empty_tx.send(vec![0; BIG_READ]).expect("the channel has room for every buffer");
    }
    let started = std::thread::scope(|scope| {
        let reader = move || {
            let mut file = file;
            while let Ok(mut buf) = empty_rx.recv() {
                let result = loop {
                    match file.read(&mut buf) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        other => break other,
                    }
                };
                let last = !matches!(result, Ok(k) if k > 0);
                if full_tx.send(result.map(|k| (buf, k))).is_err() || last {
                    break;
                }
            }
        };
        if std::thread::Builder::new().spawn_scoped(scope, reader).is_err() {
            return Ok(false);
        }
        loop {
            // The reader sends until end of file or an error, then stops.
            let (buf, k) = full_rx.recv().expect("the reader sends a last message before it stops")?;
            if k == 0 {
                break;
            }
            stream.update(&buf[..k]);
            counters.bytes.fetch_add(k as u64, Ordering::Relaxed);
            // The reader may have stopped already (error); then this is lost.
            let _ = empty_tx.send(buf);
        }
        drop(empty_tx);
        Ok::<bool, io::Error>(true)
    })?;
    if !started {
        // No reader thread: read on this one.
        let mut buf = vec![0; BIG_READ];
        let mut file = file;
        loop {
            match file.read(&mut buf) {
                Ok(0) => break,
                Ok(k) => {
                    stream.update(&buf[..k]);
                    counters.bytes.fetch_add(k as u64, Ordering::Relaxed);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(stream.finish(out))
}

/// The `--progress` line on standard error: shown only when standard error
/// is a terminal, once the work has taken half a second; redrawn in place on
/// its own line, cut to the terminal's width (no wrapped rows), and erased
/// before anything else is written to the terminal ([`clear_progress`]).
pub(crate) struct Bar {
    /// The number of files, when known (`--check` streams: unknown).
    total: Option<usize>,
    start: Instant,
    last_draw: Option<Instant>,
    tty: bool,
    /// Files and bytes of earlier `hash_all` calls (`--check` windows).
    files_before: usize,
    bytes_before: u64,
}

/// The progress line is on the screen now.
static SHOWN: AtomicBool = AtomicBool::new(false);

/// Erase the progress line if it is shown (before other output to the
/// terminal); the next redraw brings it back.
pub(crate) fn clear_progress() {
    if SHOWN.swap(false, Ordering::Relaxed) {
        let mut err = io::stderr().lock();
        let _ = err.write_all(b"\r\x1b[K");
        let _ = err.flush();
    }
}

impl Bar {
    pub(crate) fn new(total: Option<usize>) -> Self {
        Bar {
            total,
            start: Instant::now(),
            last_draw: None,
            tty: io::stderr().is_terminal(),
            files_before: 0,
            bytes_before: 0,
        }
    }

    /// Count a finished `hash_all` call's work.
    fn add(&mut self, counters: &Counters) {
        self.files_before += counters.files.load(Ordering::Relaxed);
        self.bytes_before += counters.bytes.load(Ordering::Relaxed);
    }

    fn draw(&mut self, counters: &Counters) {
        let elapsed = self.start.elapsed();
        if !self.tty || elapsed < Duration::from_millis(500) {
            return;
        }
        if self.last_draw.is_some_and(|t| t.elapsed() < Duration::from_millis(100)) {
            return;
        }
        self.last_draw = Some(Instant::now());
        let files = self.files_before + counters.files.load(Ordering::Relaxed);
        let bytes = (self.bytes_before + counters.bytes.load(Ordering::Relaxed)) as f64;
        let mib = bytes / (1 << 20) as f64;
        let rate = mib / elapsed.as_secs_f64().max(1e-3);
        let count = match self.total {
            Some(total) => format!("{files}/{total} files"),
            None => format!("{files} files"),
        };
        let text = format!("{count}, {mib:.1} MiB, {rate:.0} MiB/s, {:.1} s", elapsed.as_secs_f64());
        // One column spare: a full row would wrap on some terminals.
        let width = crate::sys::terminal_width().unwrap_or(80).saturating_sub(1);
        let text: String = text.chars().take(width).collect();
        let mut err = io::stderr().lock();
        let _ = write!(err, "\r{text}\x1b[K");
        let _ = err.flush();
        SHOWN.store(true, Ordering::Relaxed);
    }
}
