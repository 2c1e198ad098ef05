//! The process's start, standard descriptors and signals, as a C program
//! (GNU's tools) has them.
//!
//! A Rust `main` runs after the standard library's start-up, which does two
//! things GNU's tools do not: it sets `SIGPIPE` to "ignore" (a write to a
//! closed pipe then fails with `EPIPE` instead of ending the process, which
//! GNU tools do, status 141 in a shell), and it opens `/dev/null` on any of
//! descriptors 0, 1 and 2 that is closed, so a closed standard output
//! swallows every write and `sha256sum f >&-` would report success for
//! checksums that went nowhere. So `hashsum` has no Rust `main`
//! (`#![no_main]`): C's `main` below is the entry point, `SIGPIPE` keeps the
//! disposition the parent gave it (the default, unless the parent ignores
//! it, exactly as for GNU's tools), and a closed descriptor is seen as
//! closed. (The alternatives: `libc::signal` to restore `SIGPIPE` would
//! still leave the descriptors masked; `-Zon-broken-pipe` is nightly only.)
//!
//! Also here: the terminal's width for the progress line (`ioctl`, the
//! one other C call).
//!
//! Closed standard descriptors are then filled with `/dev/null` here, but
//! remembered: a file opened later must not become "standard input" (a
//! worker thread opening a file while `-` is read) nor receive our output.

use std::ffi::{CStr, OsString, c_char, c_int};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, IntoRawFd};
use std::os::unix::ffi::OsStringExt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// `EBADF`, "Bad file descriptor" (9 on every Unix).
pub(crate) const EBADF: i32 = 9;

/// Which of descriptors 0, 1 and 2 were closed when the program started.
static CLOSED: OnceLock<[bool; 3]> = OnceLock::new();
/// Standard input was read (GNU's `have_read_stdin`).
static STDIN_READ: AtomicBool = AtomicBool::new(false);

/// The entry point (C's `main`, see the module's documentation).
#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
    let args = arguments(argc, argv);
    hold_standard_descriptors();
    let code = crate::cli::main(args);
    // No standard library shutdown runs after C's `main`: flush what clap
    // may have left in `Stdout`'s buffer (help text, usage).
    let _ = io::Write::flush(&mut io::stdout());
    code
}

/// The command line, from C's `argc` and `argv`.
#[cfg_attr(test, allow(dead_code))]
fn arguments(argc: c_int, argv: *const *const c_char) -> Vec<OsString> {
    let count = usize::try_from(argc).unwrap_or(0);
    if argv.is_null() || count == 0 {
        return Vec::new();
    }
    // SAFETY: the C runtime passes `argv` pointing to `argc` (checked
    // positive here; non-null checked above) valid, aligned pointers, which
    // nothing changes during the process's life.
    let pointers = unsafe { std::slice::from_raw_parts(argv, count) };
    pointers
        .iter()
        .map(|&p| {
            // SAFETY: each of the first `argc` pointers of `argv` points to a
            // NUL-terminated string that lives, unchanged, as long as the
            // process (C's guarantee for `main`'s arguments).
            let arg = unsafe { CStr::from_ptr(p) };
            OsString::from_vec(arg.to_bytes().to_vec())
        })
        .collect()
}

/// Note which standard descriptors are closed and fill them with
/// `/dev/null` (`open` returns the lowest free descriptor). Without
/// `/dev/null`, closed ones are still detected (`dup` fails with `EBADF`).
#[cfg_attr(test, allow(dead_code))]
fn hold_standard_descriptors() {
    let mut closed = [false; 3];
    for _ in 0..3 {
        match File::options().read(true).write(true).open("/dev/null") {
            Ok(null) => {
                let fd = null.as_raw_fd();
                if (0..3).contains(&fd) {
                    closed[fd as usize] = true;
                    // Kept open for the life of the process.
                    let _ = null.into_raw_fd();
                } else {
                    break;
                }
            }
            Err(_) => {
                let dup_fails = |fd: std::os::fd::BorrowedFd<'_>| {
                    fd.try_clone_to_owned().is_err_and(|e| e.raw_os_error() == Some(EBADF))
                };
                closed =
                    [dup_fails(io::stdin().as_fd()), dup_fails(io::stdout().as_fd()), dup_fails(io::stderr().as_fd())];
                break;
            }
        }
    }
    let _ = CLOSED.set(closed);
}

fn closed(fd: usize) -> bool {
    CLOSED.get().is_some_and(|c| c[fd])
}

/// Standard output was closed at start: every write to it fails.
pub(crate) fn stdout_closed() -> bool {
    closed(1)
}

/// The access mode (`O_RDONLY` 0, `O_WRONLY` 1, `O_RDWR` 2) descriptor
/// `fd` was opened with, from Linux's `/proc/self/fdinfo/FD` (its `flags:`
/// line: the `open` flags in octal, the low two bits `O_ACCMODE`); `None`
/// where that cannot be read.
fn access_mode(fd: u32) -> Option<u32> {
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).ok()?;
    let flags = info.lines().find_map(|line| line.strip_prefix("flags:"))?;
    Some(u32::from_str_radix(flags.trim(), 8).ok()? & 3)
}

/// Descriptor 1 is known to be open for writing.
pub(crate) fn stdout_writable() -> bool {
    !closed(1) && matches!(access_mode(1), Some(1 | 2))
}

/// Standard input, where a read from a write-only or closed descriptor
/// fails with `EBADF` (the standard library's `Stdin` reads nothing
/// instead): that handle only where descriptor 0 is known to be open for
/// reading, else a duplicate of descriptor 0.
pub(crate) fn stdin() -> io::Result<Box<dyn io::Read + Send>> {
    STDIN_READ.store(true, Ordering::Relaxed);
    if closed(0) {
        return Err(io::Error::from_raw_os_error(EBADF));
    }
    // Known to be open for reading, the standard library's handle cannot
    // mistake an `EBADF` for the end of the input: no duplicate, which
    // would cost a descriptor (under a low `ulimit -n`, one a file needs).
    if matches!(access_mode(0), Some(0 | 2)) {
        return Ok(Box::new(io::stdin()));
    }
    match io::stdin().as_fd().try_clone_to_owned() {
        Ok(fd) => Ok(Box::new(File::from(fd))),
        Err(e) if e.raw_os_error() == Some(EBADF) => Err(e),
        // No descriptor to spare: the standard library's handle.
        Err(_) => Ok(Box::new(io::stdin())),
    }
}

/// GNU closes standard input at exit when it was read, and fails with
/// "standard input: Bad file descriptor" when it was never open.
pub(crate) fn stdin_close_failed() -> bool {
    closed(0) && STDIN_READ.load(Ordering::Relaxed)
}

/// `struct winsize` of `<sys/ioctl.h>`.
#[repr(C)]
#[derive(Default)]
struct WinSize {
    rows: u16,
    cols: u16,
    x_pixels: u16,
    y_pixels: u16,
}

/// `TIOCGWINSZ`: Linux's generic value; the BSDs, macOS and Linux on
/// PowerPC, MIPS and SPARC use the BSD encoding.
#[cfg(all(
    target_os = "linux",
    not(any(
        target_arch = "powerpc",
        target_arch = "powerpc64",
        target_arch = "mips",
        target_arch = "mips64",
        target_arch = "sparc64"
    ))
))]
const TIOCGWINSZ: std::ffi::c_ulong = 0x5413;
#[cfg(not(all(
    target_os = "linux",
    not(any(
        target_arch = "powerpc",
        target_arch = "powerpc64",
        target_arch = "mips",
        target_arch = "mips64",
        target_arch = "sparc64"
    ))
)))]
const TIOCGWINSZ: std::ffi::c_ulong = 0x4008_7468;

unsafe extern "C" {
    /// C's `ioctl(2)`.
    fn ioctl(fd: c_int, request: std::ffi::c_ulong, ...) -> c_int;
}

/// The width in columns of the terminal on standard error (for the
/// progress line), else `$COLUMNS`; `None` when neither says.
pub(crate) fn terminal_width() -> Option<usize> {
    let mut size = WinSize::default();
    // SAFETY: TIOCGWINSZ on descriptor 2 writes one `struct winsize` (four
    // unsigned shorts, laid out by `#[repr(C)]` as `WinSize`) through the
    // pointer, which points to a live, writable `WinSize`; on a descriptor
    // that is not a terminal it fails (ENOTTY) without writing.
    let done = unsafe { ioctl(2, TIOCGWINSZ, &mut size as *mut WinSize) };
    if done == 0 && size.cols > 0 {
        return Some(usize::from(size.cols));
    }
    std::env::var("COLUMNS").ok()?.parse().ok().filter(|&c| c > 0)
}
