//! The backend table: one declaration per algorithm crate from which
//! [`backend_table!`](crate::backend_table) generates the crate's `Backend`
//! enum, its [`BackendKind`](crate::BackendKind) impl, detection and its
//! cache, the `requires` text, and checked dispatch.
//!
//! Each crate states its rows:
//!
//! ```text
//! hash_core::backend_table! {
//!     at crate::backend, panics "MD5";
//!     // Optional: feature sets that are not backends (batch engines).
//!     checks {
//!         avx512_lanes if (all(target_arch = "x86_64", feature = "avx512"))
//!             cpu [features "avx512f", "avx512bw"] in x86_avx512;
//!     }
//!     /// The enum's documentation.
//!     pub enum Backend {
//!         /// The variant's documentation.
//!         Avx2 = "avx2" if (all(target_arch = "x86_64", feature = "avx2"))
//!             cpu [features "avx2", "bmi1"] requires [x86 "avx2"] in x86_avx2;
//!         /// A row that several crates share, by its name (see below).
//!         Portable = portable in portable;
//!     }
//!     // Optional: a per-CPU choice rule (default: the first supported row),
//!     // and the name of the batch engine (default: the backend's name).
//!     choose: crate::backend::choose;
//!     batch_engine: crate::backend::batch_engine;
//! }
//! ```
//!
//! A row says: the variant, its `name()`, the `cfg` under which its code is
//! compiled, how the CPU is checked at run time (`features ...`: a
//! `cpufeatures` check of those target features; `fn path`: the crate's own
//! detection function, by its path from the crate root, whose answer is
//! cached in a [`FlagCache`]; `always`: nothing to check beyond the `cfg`),
//! what `requires()` says (`x86 "cargo-feature"...`: "x86-64 with" and the
//! features; `"text" "cargo-feature"`: the text; `[]`: nothing), and,
//! optionally, the files of its code (`in file, ...`: modules of the
//! table's module, which the table declares under the row's `cfg`). The
//! rows' order is `Backend::ALL`'s: best first, the portable one last.
//!
//! The rows that several crates share are written once, here, and named
//! by the crates (`Variant = name` or `Variant = name "what"`, then
//! optionally `in file`), with the same `name()`, cargo feature, `cfg`,
//! run-time check and `requires` text wherever they appear:
//!
//! | name | `name()` | cargo feature | run-time check |
//! |---|---|---|---|
//! | `sha_ni` | `sha-ni` | `shani` | x86-64 `sha`, `sse2`, `ssse3`, `sse4.1` |
//! | `avx2` | `avx2` | `avx2` | x86-64 `avx2`, `bmi1`, `bmi2` |
//! | `arm_sha "what"` | `arm-sha` | `arm-sha` | aarch64 `sha2` ("aarch64 with sha2 (what)") |
//! | `aarch64` | `aarch64` | `aarch64` | none (any aarch64) |
//! | `portable` | `portable` | none | none (everywhere) |
//!
//! The row's promise, on which every `unsafe` call of the generated
//! dispatch rests, is that the code its arms run is compiled with (at
//! most) the target features the row's run-time check confirms.
//!
//! The macro also defines two macros local to the calling module (and its
//! child modules declared after the table), which expand in the calling
//! crate, so that the `unsafe` stays in the calling crate's dispatch (hash-core allows
//! it only in [`arch`](crate::arch)):
//!
//! * `backend_dispatch!(backend; A | B => unsafe { .. }, C => safe { .. })`:
//!   an exhaustive `match` on the backend (no `_` arm: a new variant
//!   without its arm does not compile), each arm compiled only under its
//!   row's `cfg`, run only after its row's run-time check, and otherwise
//!   the `unsupported` panic naming the missing features. An arm
//!   `A | B => unsafe_in_file { f(args) }` (or `safe_in_file`) calls
//!   `f(args)` in each row's (first) file: `x86_avx2::f(args)` for `A` if
//!   its row says `in x86_avx2`.
//! * `backend_checked!(row, else expr, unsafe { .. })` (or `safe { .. }`,
//!   `unsafe_in_file { .. }`, `safe_in_file { .. }`): one such checked arm
//!   for a backend or a `checks` row, and `backend_checked!(supported row)`,
//!   the row's check as a `bool`.
//!
//! Adding a backend to a crate is then: one row in its table (the enum
//! variant, its docs, and its name if hash-core has the row, else its
//! `name()`, `cfg`, CPU check and `requires` text; and its file), the file
//! with the code, and its arm in each `backend_dispatch!` (`compress`,
//! and `digest_many` or the crate's other operations; often only the
//! variant added to an `unsafe_in_file` arm), which the compiler asks for:
//! the matches are exhaustive. `ALL`, `name()`, `requires()`,
//! `is_supported()`, detection, the file's `mod` declaration and the
//! unsupported-backend panics follow from the row.

use core::sync::atomic::{AtomicU8, Ordering};

/// The cached answer of a crate's own detection function (a `fn` row of
/// [`backend_table!`](crate::backend_table)): run once per process.
#[derive(Debug)]
pub struct FlagCache(AtomicU8);

impl FlagCache {
    /// An empty cache.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        FlagCache(AtomicU8::new(0))
    }

    /// The cached answer, or `detect()`'s, cached.
    #[inline]
    pub fn get(&self, detect: fn() -> bool) -> bool {
        match self.0.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => self.detect_slow(detect),
        }
    }

    #[cold]
    fn detect_slow(&self, detect: fn() -> bool) -> bool {
        let yes = detect();
        // Racing threads store the same value.
        self.0.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
        yes
    }
}

/// Generate a crate's `Backend` enum and its dispatch from its table of
/// rows: see [the module documentation](crate::table) for the syntax and
/// what it generates.
#[macro_export]
macro_rules! backend_table {
    // The rows, one at a time, into the written-out form (`@named` writes
    // out a named row), with the files each row names as `[files]`; then
    // `@table`.
    (@rows $head:tt $rest:tt $done:tt
        $(#[$a:meta])* $v:ident = $row:ident $($what:literal)? $(in $($file:ident),+)?; $($more:tt)*
    ) => {
        $crate::backend_table!(@named $row $($what)? => $head $rest $done [$(#[$a])* $v] [$(in $($file),+)?] $($more)*);
    };
    (@rows $head:tt $rest:tt [$($done:tt)*]
        $(#[$a:meta])* $v:ident = $vname:literal if ($vcfg:meta) cpu [$($vcpu:tt)*] requires [$($vreq:tt)*]
        $(in $first:ident $(, $file:ident)*)?;
        $($more:tt)*
    ) => {
        $crate::backend_table!(@rows $head $rest
            [$($done)* $(#[$a])* $v = $vname if ($vcfg) cpu [$($vcpu)*] requires [$($vreq)*] [$($first $($file)*)?];]
            $($more)*);
    };
    (@rows [$($head:tt)*] [$($rest:tt)*] [$($done:tt)*]) => {
        $crate::backend_table!(@table $($head)* { $($done)* } $($rest)*);
    };

    // The rows that several crates share, by name: the same hardware, cargo
    // feature, run-time check and `requires` text wherever they appear.
    (@named sha_ni => $head:tt $rest:tt $done:tt [$($v:tt)*] [$($in:tt)*] $($more:tt)*) => {
        $crate::backend_table!(@rows $head $rest $done $($v)* = "sha-ni"
            if (all(target_arch = "x86_64", feature = "shani"))
            cpu [features "sha", "sse2", "ssse3", "sse4.1"] requires [x86 "shani"] $($in)*; $($more)*);
    };
    (@named avx2 => $head:tt $rest:tt $done:tt [$($v:tt)*] [$($in:tt)*] $($more:tt)*) => {
        $crate::backend_table!(@rows $head $rest $done $($v)* = "avx2"
            if (all(target_arch = "x86_64", feature = "avx2"))
            cpu [features "avx2", "bmi1", "bmi2"] requires [x86 "avx2"] $($in)*; $($more)*);
    };
    (@named arm_sha $what:literal => $head:tt $rest:tt $done:tt [$($v:tt)*] [$($in:tt)*] $($more:tt)*) => {
        $crate::backend_table!(@rows $head $rest $done $($v)* = "arm-sha"
            if (all(target_arch = "aarch64", feature = "arm-sha"))
            cpu [features "sha2"] requires [sha2 $what] $($in)*; $($more)*);
    };
    (@named aarch64 => $head:tt $rest:tt $done:tt [$($v:tt)*] [$($in:tt)*] $($more:tt)*) => {
        $crate::backend_table!(@rows $head $rest $done $($v)* = "aarch64"
            if (all(target_arch = "aarch64", feature = "aarch64"))
            cpu [always] requires ["aarch64" "aarch64"] $($in)*; $($more)*);
    };
    (@named portable => $head:tt $rest:tt $done:tt [$($v:tt)*] [$($in:tt)*] $($more:tt)*) => {
        $crate::backend_table!(@rows $head $rest $done $($v)* = "portable"
            if (all()) cpu [always] requires [] $($in)*; $($more)*);
    };

    (
        at $($at:ident)::+, panics $label:literal;
        $(checks { $($checks:tt)* })?
        $(#[$eattr:meta])*
        pub enum $name:ident { $($rows:tt)* }
        $($rest:tt)*
    ) => {
        $crate::backend_table!(@rows
            [at $($at)::+, panics $label; [$($($checks)*)?] $(#[$eattr])* pub enum $name] [$($rest)*] []
            $($rows)*);
    };

    (@table
        at $($at:ident)::+, panics $label:literal;
        [$(
            $(#[$cattr:meta])*
            $c:ident if ($ccfg:meta) cpu [$($ccpu:tt)*] $(in $cfirst:ident $(, $cmod:ident)*)?;
        )*]
        $(#[$eattr:meta])*
        pub enum $name:ident {
            $(
                $(#[$vattr:meta])*
                $v:ident = $vname:literal if ($vcfg:meta) cpu [$($vcpu:tt)*] requires [$($vreq:tt)*] [$($vfirst:ident $($vmod:ident)*)?];
            )+
        }
        $(choose: $choose:path;)?
        $(batch_engine: $engine:path;)?
    ) => {
        $(#[$eattr])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vattr])* $v, )+
        }

        /// The run-time CPU checks of the backend table's `features` rows
        /// (`cpufeatures` caches each).
        #[allow(non_snake_case, dead_code, unreachable_pub)]
        mod __cpu {
            $( $crate::backend_table!(@cpufeatures $v, ($vcfg), [$($vcpu)*]); )+
            $( $crate::backend_table!(@cpufeatures $c, ($ccfg), [$($ccpu)*]); )*
        }

        impl $crate::BackendKind for $name {
            const ALL: &'static [$name] = &[$($name::$v),+];

            #[inline]
            fn name(self) -> &'static str {
                match self {
                    $( $name::$v => $vname, )+
                }
            }

            fn requires(self) -> &'static str {
                match self {
                    $( $name::$v => $crate::backend_table!(@requires [$($vcpu)*] [$($vreq)*]), )+
                }
            }

            #[inline]
            fn is_supported(self) -> bool {
                match self {
                    $(
                        $name::$v => {
                            #[cfg($vcfg)]
                            {
                                $crate::backend_table!(@supported $v, [$($vcpu)*])
                            }
                            #[cfg(not($vcfg))]
                            {
                                false
                            }
                        }
                    )+
                }
            }

            #[inline]
            fn detect() -> Self {
                static DETECTED: $crate::DetectCache = $crate::DetectCache::new();
                $crate::backend_table!(@detect DETECTED, [$($choose)?])
            }

            $(
                fn batch_engine(self, messages: usize) -> &'static str {
                    $engine(self, messages)
                }
            )?
        }

        $crate::backend_api!($name);

        /// The panic for a backend that reached dispatch on a CPU or build
        /// that cannot run it (only possible through the algorithm traits
        /// called directly: the hashers check first).
        #[cold]
        #[inline(never)]
        #[track_caller]
        #[allow(dead_code)]
        fn unsupported(backend: $name) -> ! {
            $crate::unsupported($label, backend)
        }

        $crate::backend_table!(@local ($) [$($at)::+] $name;
            $( $v ($vcfg) [$($vfirst)?]
                [<backend_table_item!($name) as $crate::BackendKind>::is_supported(backend_table_item!($name::$v))]; )+
            $( $c ($ccfg) [$($cfirst)?] [$crate::backend_table!(@supported_at $c, [$($ccpu)*])]; )*
        );

        // The files the rows name, each compiled under its row's `cfg`
        // (after the local macros, which they may use).
        $( $( #[cfg($vcfg)] mod $vfirst; $( #[cfg($vcfg)] mod $vmod; )* )? )+
        $( $( #[cfg($ccfg)] mod $cfirst; $( #[cfg($ccfg)] mod $cmod; )* )? )*
    };

    // The macros local to the calling crate; `$d` is a `$` for their own
    // metavariables.
    (@local ($d:tt) [$($at:tt)*] $name:ident; $( $row:ident ($cfg:meta) [$($file:ident)?] [$($supported:tt)*]; )+) => {
        /// An item of the module that holds the backend table, by its path
        /// from the crate root (so that the macros below work in child
        /// modules too).
        #[allow(unused_macros)]
        macro_rules! backend_table_item {
            ($d($d item:tt)*) => { $($at)*::$d($d item)* };
        }

        /// Run a body that needs a row's CPU features: compiled only under
        /// the row's `cfg`, run only if the row's run-time check passes,
        /// else the `else` expression.
        #[allow(unused_macros)]
        macro_rules! backend_checked {
            $(
                (supported $row) => {{
                    #[cfg($cfg)]
                    {
                        $($supported)*
                    }
                    #[cfg(not($cfg))]
                    {
                        false
                    }
                }};
                ($row, else $d otherwise:expr, unsafe { $d($d body:tt)* }) => {{
                    #[cfg($cfg)]
                    {
                        let supported: bool = $($supported)*;
                        if supported {
                            // SAFETY: the table row of this backend (or
                            // check) promises that the code of its arms is
                            // compiled with no target feature beyond those
                            // its run-time check confirms, and that check
                            // (`cpufeatures` for a `features` row, the
                            // crate's detection function for a `fn` row, the
                            // row's `cfg` alone for an `always` row) has just
                            // passed on this CPU.
                            unsafe { $d($d body)* }
                        } else {
                            $d otherwise
                        }
                    }
                    #[cfg(not($cfg))]
                    {
                        $d otherwise
                    }
                }};
                ($row, else $d otherwise:expr, safe { $d($d body:tt)* }) => {{
                    #[cfg($cfg)]
                    {
                        let supported: bool = $($supported)*;
                        if supported {
                            $d($d body)*
                        } else {
                            $d otherwise
                        }
                    }
                    #[cfg(not($cfg))]
                    {
                        $d otherwise
                    }
                }};
                // The body called in the row's (first) file.
                $(
                    ($row, else $d otherwise:expr, unsafe_in_file { $d($d body:tt)* }) => {
                        backend_checked!($row, else $d otherwise, unsafe { backend_table_item!($file::$d($d body)*) })
                    };
                    ($row, else $d otherwise:expr, safe_in_file { $d($d body:tt)* }) => {
                        backend_checked!($row, else $d otherwise, safe { backend_table_item!($file::$d($d body)*) })
                    };
                )?
            )+
        }

        /// An exhaustive `match` on the backend whose arms are
        /// `backend_checked!` bodies that fall back to the `unsupported`
        /// panic.
        #[allow(unused_macros)]
        macro_rules! backend_dispatch {
            ($d backend:expr; $d( $d($d v:ident)|+ => $d mode:tt $d body:tt ),+ $d(,)?) => {{
                let backend = $d backend;
                match backend {
                    $d( $d( $($at)*::$name::$d v => backend_checked!(
                        $d v, else $($at)*::unsupported(backend), $d mode $d body
                    ), )+ )+
                }
            }};
        }
    };

    (@cpufeatures $row:ident, ($cfg:meta), [features $($feature:tt),+]) => {
        #[cfg($cfg)]
        pub(crate) mod $row {
            $crate::__cpufeatures::new!(check, $($feature),+);
            pub(crate) use self::check::get;
        }
    };
    (@cpufeatures $row:ident, ($cfg:meta), [fn $check:path]) => {
        #[cfg($cfg)]
        pub(crate) mod $row {
            static CACHE: $crate::table::FlagCache = $crate::table::FlagCache::new();

            #[inline]
            pub(crate) fn get() -> bool {
                CACHE.get($check)
            }
        }
    };
    (@cpufeatures $row:ident, ($cfg:meta), [always]) => {};

    (@supported $row:ident, [features $($feature:literal),+]) => { __cpu::$row::get() };
    (@supported $row:ident, [fn $check:path]) => { __cpu::$row::get() };
    (@supported $row:ident, [always]) => { true };

    (@supported_at $row:ident, [features $($feature:literal),+]) => { backend_table_item!(__cpu::$row::get()) };
    (@supported_at $row:ident, [fn $check:path]) => { backend_table_item!(__cpu::$row::get()) };
    (@supported_at $row:ident, [always]) => { true };

    (@requires [$($cpu:tt)*] []) => { "" };
    (@requires [features $first:literal $(, $feature:literal)*] [x86 $cargo:literal]) => {
        concat!("x86-64 with ", $first $(, ", ", $feature)*, " and the `", $cargo, "` cargo feature")
    };
    (@requires [features $first:literal $(, $feature:literal)*] [x86 $cargo:literal $cargo2:literal]) => {
        concat!("x86-64 with ", $first $(, ", ", $feature)*, " and the `", $cargo, "` and `", $cargo2, "` cargo features")
    };
    (@requires [$($cpu:tt)*] [sha2 $what:literal]) => {
        concat!("aarch64 with sha2 (", $what, ") and the `arm-sha` cargo feature")
    };
    (@requires [$($cpu:tt)*] [$text:literal $cargo:literal]) => {
        concat!($text, " and the `", $cargo, "` cargo feature")
    };

    (@detect $cache:ident, []) => { $cache.get() };
    (@detect $cache:ident, [$choose:path]) => { $cache.get_or($choose) };
}
