//! Shared parts of the fuzz targets: a reader that turns libFuzzer's bytes
//! into choices, the list of our types, and OpenSSL's EVP digests.
//!
//! Every target checks, on every backend this CPU supports, an equality
//! that a bug would break: streaming against the portable one-shot digest,
//! XOF reads in pieces against one long read, batches against one-by-one
//! hashing, our digests against OpenSSL's.

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::ptr;

use hash_core::BackendKind;

/// Consumes the fuzzer's input from the front: choices, lengths and bytes.
pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    /// One byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// Up to `n` bytes (fewer if the input runs out).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(n.min(self.0.len()));
        self.0 = rest;
        head
    }

    /// Whether nothing is left.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `n` bytes made from `seed` (SplitMix64), so that a short fuzzer input
/// can describe a long message (many blocks) cheaply.
pub fn expand(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed;
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(n);
    out
}

/// The portable backend (last in every crate's `ALL`).
pub fn portable<B: BackendKind>() -> B {
    *B::ALL.last().expect("ALL is never empty")
}

/// Every backend this CPU supports.
pub fn backends<B: BackendKind>() -> Vec<B> {
    B::available().collect()
}

/// The number of fixed-output types [`for_fixed!`] picks from.
pub const FIXED_TYPES: u8 = 13;

/// Call `$f::<A>($args)` for the fixed-output algorithm number
/// `$sel % FIXED_TYPES`.
#[macro_export]
macro_rules! for_fixed {
    ($sel:expr, $f:ident($($arg:expr),*)) => {
        match $sel % $crate::FIXED_TYPES {
            0 => $f::<md5::algorithm::Md5>($($arg),*),
            1 => $f::<sha1::algorithm::Sha1>($($arg),*),
            2 => $f::<sha256::algorithm::Sha224>($($arg),*),
            3 => $f::<sha256::algorithm::Sha256>($($arg),*),
            4 => $f::<sha512::algorithm::Sha384>($($arg),*),
            5 => $f::<sha512::algorithm::Sha512>($($arg),*),
            6 => $f::<sha512::algorithm::Sha512_224>($($arg),*),
            7 => $f::<sha512::algorithm::Sha512_256>($($arg),*),
            8 => $f::<sha3::algorithm::Sha3_224>($($arg),*),
            9 => $f::<sha3::algorithm::Sha3_256>($($arg),*),
            10 => $f::<sha3::algorithm::Sha3_384>($($arg),*),
            11 => $f::<sha3::algorithm::Sha3_512>($($arg),*),
            _ => $f::<sha3::algorithm::Keccak256>($($arg),*),
        }
    };
}

/// Call `$f::<A>($args)` for SHAKE128 (even `$sel`) or SHAKE256 (odd).
#[macro_export]
macro_rules! for_xof {
    ($sel:expr, $f:ident($($arg:expr),*)) => {
        match $sel % 2 {
            0 => $f::<sha3::algorithm::Shake128>($($arg),*),
            _ => $f::<sha3::algorithm::Shake256>($($arg),*),
        }
    };
}

// ---- OpenSSL ----

type Md = *const c_void;
type MdFetch = unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char) -> Md;
type Digest = unsafe extern "C" fn(*const c_void, usize, *mut u8, *mut c_uint, Md, *mut c_void) -> c_int;
type CtxNew = unsafe extern "C" fn() -> *mut c_void;
type DigestInitEx = unsafe extern "C" fn(*mut c_void, Md, *mut c_void) -> c_int;
type DigestUpdate = unsafe extern "C" fn(*mut c_void, *const c_void, usize) -> c_int;
type DigestFinalXof = unsafe extern "C" fn(*mut c_void, *mut u8, usize) -> c_int;

/// OpenSSL 3's libcrypto: the digests it has, by our algorithm names.
pub struct OpenSsl {
    /// Kept loaded (and reachable, for LeakSanitizer) as long as this lives;
    /// the function pointers below point into it.
    _lib: libloading::Library,
    digest: Digest,
    ctx: *mut c_void,
    init: DigestInitEx,
    update: DigestUpdate,
    final_xof: DigestFinalXof,
    mds: Vec<(&'static str, Md)>,
}

// SAFETY: libFuzzer runs a target on one thread; the context `ctx` is used
// only through `&mut self`-free calls made from that thread, and the EVP_MD
// pointers are immutable, reference-counted objects that OpenSSL shares
// between threads itself.
unsafe impl Send for OpenSsl {}
// SAFETY: as above.
unsafe impl Sync for OpenSsl {}

const NAMES: &[(&str, &CStr)] = &[
    ("MD5", c"MD5"),
    ("SHA-1", c"SHA1"),
    ("SHA-224", c"SHA224"),
    ("SHA-256", c"SHA256"),
    ("SHA-384", c"SHA384"),
    ("SHA-512", c"SHA512"),
    ("SHA-512/224", c"SHA512-224"),
    ("SHA-512/256", c"SHA512-256"),
    ("SHA3-224", c"SHA3-224"),
    ("SHA3-256", c"SHA3-256"),
    ("SHA3-384", c"SHA3-384"),
    ("SHA3-512", c"SHA3-512"),
    // OpenSSL 3.2 and later.
    ("Keccak-256", c"KECCAK-256"),
    ("SHAKE128", c"SHAKE128"),
    ("SHAKE256", c"SHAKE256"),
];

impl OpenSsl {
    /// Load libcrypto 3 (`HASHES_FUZZ_LIBCRYPTO` names another file), or say
    /// why not.
    pub fn load() -> Result<Self, String> {
        let path = std::env::var("HASHES_FUZZ_LIBCRYPTO").unwrap_or_else(|_| "libcrypto.so.3".into());
        // SAFETY: loading libcrypto runs its initialisers, which have no
        // preconditions.
        let lib = unsafe { libloading::Library::new(&path) }.map_err(|e| {
            format!("cannot load {path} (install OpenSSL 3's libcrypto, e.g. apt-get install libssl3): {e}")
        })?;
        macro_rules! sym {
            ($name:literal, $ty:ty) => {{
                // SAFETY: `$ty` is the C prototype of `$name` in OpenSSL 3's
                // evp.h.
                let s: Result<libloading::Symbol<'_, $ty>, _> = unsafe { lib.get(concat!($name, "\0").as_bytes()) };
                s.map(|s| *s).map_err(|e| format!("{path}: {}: {e}", $name))?
            }};
        }
        let fetch = sym!("EVP_MD_fetch", MdFetch);
        let ctx_new = sym!("EVP_MD_CTX_new", CtxNew);
        let mut mds = Vec::new();
        for &(ours, name) in NAMES {
            // SAFETY: NULL library context and properties select the
            // defaults; `name` is NUL-terminated; the EVP_MD is never freed.
            let md = unsafe { fetch(ptr::null_mut(), name.as_ptr(), ptr::null()) };
            if md.is_null() {
                eprintln!("openssl target: this libcrypto has no {}; {ours} is not compared", name.to_string_lossy());
            } else {
                mds.push((ours, md));
            }
        }
        // SAFETY: no preconditions; the context lives as long as the process.
        let ctx = unsafe { ctx_new() };
        if ctx.is_null() {
            return Err("EVP_MD_CTX_new failed".into());
        }
        let digest = sym!("EVP_Digest", Digest);
        let init = sym!("EVP_DigestInit_ex", DigestInitEx);
        let update = sym!("EVP_DigestUpdate", DigestUpdate);
        let final_xof = sym!("EVP_DigestFinalXOF", DigestFinalXof);
        Ok(OpenSsl { _lib: lib, digest, ctx, init, update, final_xof, mds })
    }

    fn md(&self, name: &str) -> Option<Md> {
        self.mds.iter().find(|(n, _)| *n == name).map(|&(_, md)| md)
    }

    /// OpenSSL's digest of `data` under our algorithm name, if it has one.
    pub fn digest(&self, name: &str, data: &[u8]) -> Option<Vec<u8>> {
        let md = self.md(name)?;
        let mut buf = [0u8; 64];
        let mut len: c_uint = 0;
        // SAFETY: `data` is readable for its length; `buf` holds any digest
        // (EVP_MAX_MD_SIZE is 64); `md` is a valid fetched EVP_MD.
        let ok =
            unsafe { (self.digest)(data.as_ptr().cast(), data.len(), buf.as_mut_ptr(), &mut len, md, ptr::null_mut()) };
        assert_eq!(ok, 1, "EVP_Digest failed for {name}");
        Some(buf[..len as usize].to_vec())
    }

    /// OpenSSL's XOF output (`out.len()` bytes) for `data`, if it has `name`.
    pub fn xof(&self, name: &str, data: &[u8], out: &mut [u8]) -> Option<()> {
        let md = self.md(name)?;
        // In the three calls below `ctx` is this object's live context, used
        // from one thread, and `md` a valid fetched EVP_MD.
        // SAFETY: as above; a NULL engine selects the default.
        let ok = unsafe { (self.init)(self.ctx, md, ptr::null_mut()) } == 1
            // SAFETY: as above; `data` is readable for its length.
            && unsafe { (self.update)(self.ctx, data.as_ptr().cast(), data.len()) } == 1
            // SAFETY: as above; `out` is writable for its length.
            && (out.is_empty() || unsafe { (self.final_xof)(self.ctx, out.as_mut_ptr(), out.len()) } == 1);
        assert!(ok, "EVP_DigestFinalXOF failed for {name}");
        Some(())
    }
}
