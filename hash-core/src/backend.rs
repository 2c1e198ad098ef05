//! Backend selection shared by every algorithm crate.

use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

/// A crate's set of compression backends (its `Backend` enum).
///
/// Each algorithm crate implements this for its own `Backend` enum and also
/// exposes the same operations as inherent methods (`Backend::detect()`,
/// `Backend::available()`, `Backend::name()`), so users need not import
/// this trait.
pub trait BackendKind: Copy + Eq + fmt::Debug + Send + Sync + 'static {
    /// Every backend compiled into this build, best first; the last one is
    /// the portable backend, which every CPU supports.
    const ALL: &'static [Self];

    /// A short stable name (`"portable"`, `"sha-ni"`, `"avx2"`).
    fn name(self) -> &'static str;

    /// The CPU features this backend needs, for error messages
    /// (`"sha, sse4.1"`); empty for the portable backend.
    fn requires(self) -> &'static str;

    /// Whether this CPU can run the backend (a cached run-time check).
    fn is_supported(self) -> bool;

    /// The name of the engine `digest_many` runs a batch of `messages`
    /// messages on with this backend on this CPU (`"avx512 16 lanes"`,
    /// `"sha-ni 5 streams"`, `"one by one"`), which may differ from the
    /// backend itself: see [`crate::cpu`]. The default names the backend.
    fn batch_engine(self, messages: usize) -> &'static str {
        let _ = messages;
        self.name()
    }

    /// The best backend this CPU supports.
    ///
    /// The default walks [`BackendKind::ALL`]; crates cache the answer with
    /// a [`DetectCache`].
    fn detect() -> Self {
        first_supported(Self::ALL)
    }

    /// Every backend this CPU supports, best first: [`BackendKind::detect`]'s
    /// choice, then the rest in [`BackendKind::ALL`]'s order.
    fn available() -> impl Iterator<Item = Self> {
        let best = Self::detect();
        core::iter::once(best).chain(Self::ALL.iter().copied().filter(move |&b| b != best && b.is_supported()))
    }

    /// `Ok(self)` if this CPU supports the backend, else an error that names
    /// the missing features.
    fn check(self) -> Result<Self, UnsupportedBackend> {
        if self.is_supported() {
            Ok(self)
        } else {
            Err(UnsupportedBackend { backend: self.name(), requires: self.requires(), called: "" })
        }
    }
}

fn first_supported<B: BackendKind>(all: &'static [B]) -> B {
    match all.iter().copied().find(|b| b.is_supported()) {
        Some(b) => b,
        None => panic!("no supported backend: the portable backend must come last in ALL"),
    }
}

/// A backend was forced (`with_backend`) that this CPU, or this build,
/// cannot run.
///
/// The error a type's `try_with_backend` returns names that type, so that a
/// message shows what the caller called:
/// `Kmac256: the `aarch64` backend is not supported on this CPU (...)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedBackend {
    /// The backend's name.
    pub backend: &'static str,
    /// The CPU features it needs.
    pub requires: &'static str,
    /// The type whose constructor refused the backend (`"Sha256"`,
    /// `"Kmac256"`), or empty where the backend was checked on its own
    /// ([`BackendKind::check`]). [`Display`](fmt::Display) starts with it.
    pub called: &'static str,
}

impl UnsupportedBackend {
    /// The same error, naming `ty` as the type the caller called (it
    /// replaces any name the error had).
    pub const fn for_type(self, ty: &'static str) -> Self {
        Self { called: ty, ..self }
    }

    /// The same error without a type name, for messages that name the call
    /// themselves (`Sha256::with_backend: the ...`).
    pub const fn without_type(self) -> Self {
        self.for_type("")
    }
}

impl fmt::Display for UnsupportedBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.called.is_empty() {
            write!(f, "{}: ", self.called)?;
        }
        write!(
            f,
            "the `{}` backend is not supported on this CPU (it needs: {}); \
             use Backend::available() to list the supported ones",
            self.backend, self.requires
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnsupportedBackend {}

/// The panic of a dispatch asked to run `backend` on a CPU (or build) that
/// lacks it: `"<what>: the `x` backend is not supported on this CPU (it
/// needs: ...)"`. Dispatch code calls it before any target-feature code.
#[cold]
#[inline(never)]
#[track_caller]
pub fn unsupported<B: BackendKind>(what: &str, backend: B) -> ! {
    panic!("{what}: {}", UnsupportedBackend { backend: backend.name(), requires: backend.requires(), called: "" })
}

/// Caches the result of [`BackendKind::detect`] in a `static`, so that
/// detection runs once per process.
///
/// ```
/// # use hash_core::DetectCache;
/// static CACHE: DetectCache = DetectCache::new();
/// ```
#[derive(Debug)]
pub struct DetectCache(AtomicU8);

impl DetectCache {
    /// An empty cache.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        DetectCache(AtomicU8::new(0))
    }

    /// The cached best backend, detecting it on first use: the first of
    /// [`BackendKind::ALL`] that this CPU supports.
    #[inline]
    pub fn get<B: BackendKind>(&self) -> B {
        self.get_or(|| first_supported(B::ALL))
    }

    /// The cached best backend, `choose` deciding it on first use: for a
    /// crate whose best backend depends on more than the CPU's features
    /// (sha3 on aarch64 picks by the core's maker). `choose` must return a
    /// supported backend and the same one every time.
    #[inline]
    pub fn get_or<B: BackendKind>(&self, choose: impl FnOnce() -> B) -> B {
        let index = self.0.load(Ordering::Relaxed);
        if let Some(&b) = (index as usize).checked_sub(1).and_then(|i| B::ALL.get(i)) {
            return b;
        }
        self.detect_slow(choose)
    }

    #[cold]
    fn detect_slow<B: BackendKind>(&self, choose: impl FnOnce() -> B) -> B {
        let best = choose();
        debug_assert!(best.is_supported(), "the chosen backend `{}` is not supported", best.name());
        let index = B::ALL.iter().position(|&b| b == best).unwrap_or(0);
        // Racing threads store the same value.
        self.0.store(u8::try_from(index + 1).unwrap_or(0), Ordering::Relaxed);
        best
    }
}

/// Give a crate's `Backend` enum the inherent methods every crate exposes:
/// `detect()` (cached), `available()`, `name()`, `is_supported()`,
/// `from_name()` and `check()`, all delegating to its [`BackendKind`] impl.
///
/// The crate implements [`BackendKind`] for the enum (with `ALL`, `name`,
/// `requires`, `is_supported`) and then writes
/// `hash_core::backend_api!(Backend);`.
#[macro_export]
macro_rules! backend_api {
    ($backend:ty) => {
        impl $backend {
            /// The best backend this CPU supports, detected once per process
            /// and cached. `new()` and the one-shot functions use it.
            #[inline]
            pub fn detect() -> Self {
                <Self as $crate::BackendKind>::detect()
            }

            /// Every backend this CPU supports (and this build includes),
            /// best first. The portable backend is always last.
            pub fn available() -> impl Iterator<Item = Self> {
                <Self as $crate::BackendKind>::available()
            }

            /// Every backend compiled into this build, supported by this CPU
            /// or not, best first.
            pub fn all() -> &'static [Self] {
                <Self as $crate::BackendKind>::ALL
            }

            /// The backend's short name, as printed in test and benchmark
            /// output (`"portable"`, `"sha-ni"`, `"avx2"`).
            #[inline]
            pub fn name(self) -> &'static str {
                <Self as $crate::BackendKind>::name(self)
            }

            /// The engine `digest_many` runs a batch of `messages` messages
            /// on with this backend on this CPU (see the backend's docs).
            pub fn batch_engine(self, messages: usize) -> &'static str {
                <Self as $crate::BackendKind>::batch_engine(self, messages)
            }

            /// Whether this CPU can run the backend.
            #[inline]
            pub fn is_supported(self) -> bool {
                <Self as $crate::BackendKind>::is_supported(self)
            }

            /// The backend called `name` (see [`Self::name`]), supported or not.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::all().iter().copied().find(|b| b.name() == name)
            }

            /// `Ok(self)` if this CPU supports the backend, else an error
            /// naming the CPU features it lacks.
            pub fn check(self) -> Result<Self, $crate::UnsupportedBackend> {
                <Self as $crate::BackendKind>::check(self)
            }
        }

        impl core::fmt::Display for $backend {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
