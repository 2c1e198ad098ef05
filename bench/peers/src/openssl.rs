//! OpenSSL's EVP digests, from the system's `libcrypto` loaded at run time.
//!
//! Loading at run time (rather than linking the `openssl` crate) needs no
//! headers and no `pkg-config`, so the comparison works on a machine that
//! has only the OpenSSL runtime library; when there is none, the report
//! says so in OpenSSL's place. Set `HASHES_BENCH_LIBCRYPTO` to a path to
//! measure another build of libcrypto.
//!
//! Fixed-size digests use `EVP_Digest`, OpenSSL's one-shot call (what
//! `openssl speed -evp` times), with an `EVP_MD` fetched once
//! (`EVP_MD_fetch`, OpenSSL 3) so no per-call name look-up is timed.
//! SHAKE uses a reused context: `EVP_DigestInit_ex`, `EVP_DigestUpdate`,
//! `EVP_DigestFinalXOF` with the output length the benchmark asks for.

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::ptr;

use bench::{Algo, Kind, Subject};

type Md = *const c_void;
type MdFetch = unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char) -> Md;
type GetDigestByName = unsafe extern "C" fn(*const c_char) -> Md;
type Digest = unsafe extern "C" fn(*const c_void, usize, *mut u8, *mut c_uint, Md, *mut c_void) -> c_int;
type CtxNew = unsafe extern "C" fn() -> *mut c_void;
type DigestInitEx = unsafe extern "C" fn(*mut c_void, Md, *mut c_void) -> c_int;
type DigestUpdate = unsafe extern "C" fn(*mut c_void, *const c_void, usize) -> c_int;
type DigestFinalXof = unsafe extern "C" fn(*mut c_void, *mut u8, usize) -> c_int;
type Version = unsafe extern "C" fn(c_int) -> *const c_char;
type HmacOneShot = unsafe extern "C" fn(Md, *const c_void, c_int, *const u8, usize, *mut u8, *mut c_uint) -> *mut u8;

/// The libcrypto entry points we call, resolved once.
#[derive(Clone, Copy)]
pub(crate) struct Api {
    md_fetch: Option<MdFetch>,
    get_digestbyname: GetDigestByName,
    digest: Digest,
    ctx_new: CtxNew,
    init: DigestInitEx,
    update: DigestUpdate,
    final_xof: Option<DigestFinalXof>,
    /// `HMAC()`, the one-shot HMAC (hmac.h).
    hmac: Option<HmacOneShot>,
    /// `OpenSSL_version(OPENSSL_VERSION)`.
    pub(crate) version: &'static str,
    /// The file that was loaded.
    pub(crate) path: &'static str,
}

const CANDIDATES: &[&str] = &[
    "libcrypto.so.3",
    "libcrypto.so",
    "libcrypto.so.1.1",
    "libcrypto.3.dylib",
    "/opt/homebrew/lib/libcrypto.dylib",
    "/usr/local/lib/libcrypto.dylib",
];

/// Load libcrypto, or say why not.
pub(crate) fn load() -> Result<&'static Api, String> {
    let explicit = std::env::var("HASHES_BENCH_LIBCRYPTO").ok();
    let candidates: Vec<&str> = match &explicit {
        Some(path) => vec![path.as_str()],
        None => CANDIDATES.to_vec(),
    };
    let mut errors = Vec::new();
    for &path in &candidates {
        // SAFETY: loading libcrypto runs its initialisers, which have no
        // preconditions; it is a system library made to be loaded into any
        // process.
        match unsafe { libloading::Library::new(path) } {
            Ok(lib) => return resolve(lib, path).map_err(|e| format!("{path}: {e}")),
            Err(e) => errors.push(e.to_string()),
        }
    }
    Err(format!(
        "no OpenSSL libcrypto could be loaded (tried {}; set HASHES_BENCH_LIBCRYPTO to its path): {}",
        candidates.join(", "),
        errors.last().map(String::as_str).unwrap_or("")
    ))
}

fn resolve(lib: libloading::Library, path: &str) -> Result<&'static Api, String> {
    // Never unloaded: the function pointers below live as long as the process.
    let lib: &'static libloading::Library = Box::leak(Box::new(lib));
    macro_rules! sym {
        ($name:literal, $ty:ty) => {{
            // SAFETY: `$ty` is the C prototype of `$name` in OpenSSL's
            // headers (evp.h, crypto.h), the same in 1.1 and 3.x.
            let s: Result<libloading::Symbol<'static, $ty>, _> = unsafe { lib.get(concat!($name, "\0").as_bytes()) };
            s.map(|s| *s).map_err(|e| format!("{}: {e}", $name))
        }};
    }
    let version_fn = sym!("OpenSSL_version", Version)?;
    // SAFETY: `OpenSSL_version(int)` has no preconditions; 0 is
    // OPENSSL_VERSION.
    let version_ptr = unsafe { version_fn(0) };
    if version_ptr.is_null() {
        return Err("OpenSSL_version returned NULL".into());
    }
    // SAFETY: non-null (checked); OpenSSL returns a static NUL-terminated
    // string owned by the library, which is never unloaded.
    let version = unsafe { CStr::from_ptr(version_ptr) }.to_string_lossy().into_owned();
    let api = Api {
        md_fetch: sym!("EVP_MD_fetch", MdFetch).ok(),
        get_digestbyname: sym!("EVP_get_digestbyname", GetDigestByName)?,
        digest: sym!("EVP_Digest", Digest)?,
        ctx_new: sym!("EVP_MD_CTX_new", CtxNew)?,
        init: sym!("EVP_DigestInit_ex", DigestInitEx)?,
        update: sym!("EVP_DigestUpdate", DigestUpdate)?,
        final_xof: sym!("EVP_DigestFinalXOF", DigestFinalXof).ok(),
        hmac: sym!("HMAC", HmacOneShot).ok(),
        version: Box::leak(version.into_boxed_str()),
        path: Box::leak(path.to_string().into_boxed_str()),
    };
    Ok(Box::leak(Box::new(api)))
}

/// OpenSSL's name for `algo`.
fn openssl_name(algo: &Algo) -> Option<&'static CStr> {
    Some(match algo.id {
        "md5" => c"MD5",
        "sha1" => c"SHA1",
        "sha224" => c"SHA224",
        "sha256" => c"SHA256",
        "sha384" => c"SHA384",
        "sha512" => c"SHA512",
        "sha512-224" => c"SHA512-224",
        "sha512-256" => c"SHA512-256",
        "sha3-224" => c"SHA3-224",
        "sha3-256" => c"SHA3-256",
        "sha3-384" => c"SHA3-384",
        "sha3-512" => c"SHA3-512",
        // OpenSSL 3.2 and later.
        "keccak256" => c"KECCAK-256",
        "shake128" => c"SHAKE128",
        "shake256" => c"SHAKE256",
        _ => return None,
    })
}

/// The `EVP_MD` named `name`, fetched once and never freed.
fn fetch_md(api: &Api, name: &CStr) -> Result<Md, String> {
    let md = match api.md_fetch {
        // SAFETY: a NULL library context and property query select the
        // default ones; `name` is NUL-terminated. The returned EVP_MD is
        // never freed, so it stays valid.
        Some(fetch) => unsafe { fetch(ptr::null_mut(), name.as_ptr(), ptr::null()) },
        // SAFETY: `name` is NUL-terminated; the result is a static table
        // entry (OpenSSL 1.1).
        None => unsafe { (api.get_digestbyname)(name.as_ptr()) },
    };
    if md.is_null() {
        return Err(format!("{} has no {}", api.version, name.to_string_lossy()));
    }
    Ok(md)
}

/// OpenSSL's implementation of `algo`, or why there is none.
pub(crate) fn subject(api: &'static Api, algo: &'static Algo) -> Result<Subject, String> {
    let name = openssl_name(algo).ok_or("no OpenSSL name known")?;
    let md = fetch_md(api, name)?;
    match algo.kind {
        Kind::Fixed => Ok(Subject::new(algo, "openssl", "", false, move |data: &[u8], out: &mut [u8]| {
            let mut buf = [0u8; 64];
            let mut len: c_uint = 0;
            // SAFETY: `data` is readable for `data.len()` bytes; `buf` holds
            // any digest here (at most 64 bytes, EVP_MAX_MD_SIZE is 64); `md`
            // is a valid EVP_MD (checked non-null above); a NULL engine
            // selects the default implementation.
            let ok = unsafe {
                (api.digest)(data.as_ptr().cast(), data.len(), buf.as_mut_ptr(), &mut len, md, ptr::null_mut())
            };
            assert!(ok == 1 && len as usize == out.len(), "EVP_Digest failed");
            out.copy_from_slice(&buf[..out.len()]);
        })),
        Kind::Xof => {
            let final_xof = api.final_xof.ok_or("this OpenSSL has no EVP_DigestFinalXOF")?;
            // SAFETY: no preconditions; the context is never freed, and each
            // subject has its own.
            let ctx = unsafe { (api.ctx_new)() };
            if ctx.is_null() {
                return Err("EVP_MD_CTX_new failed".into());
            }
            Ok(Subject::new(algo, "openssl", "", false, move |data: &[u8], out: &mut [u8]| {
                // In the three calls below, `ctx` is a live context that only
                // this subject uses, on one thread (the benchmark is
                // single-threaded), and `md` is a valid EVP_MD.
                // SAFETY: as above; a NULL engine selects the default one.
                let ok = unsafe { (api.init)(ctx, md, ptr::null_mut()) } == 1
                    // SAFETY: as above; `data` is readable for its length.
                    && unsafe { (api.update)(ctx, data.as_ptr().cast(), data.len()) } == 1
                    // SAFETY: as above; `out` is writable for its length.
                    && unsafe { final_xof(ctx, out.as_mut_ptr(), out.len()) } == 1;
                assert!(ok, "EVP_DigestFinalXOF failed");
            }))
        }
    }
}

/// OpenSSL's one-shot `HMAC()` over SHA-256 with `key`, for
/// `peers::HMAC_SHA256` (`algo`). OpenSSL 3 looks the HMAC algorithm up
/// by name inside each call (`EVP_Q_mac`): that cost is part of its
/// one-shot call and is timed with it.
pub(crate) fn hmac_subject(api: &'static Api, algo: &'static Algo, key: &'static [u8; 32]) -> Result<Subject, String> {
    let hmac = api.hmac.ok_or("this OpenSSL has no HMAC()")?;
    let md = fetch_md(api, c"SHA256")?;
    Ok(Subject::new(algo, "openssl", "", false, move |data: &[u8], out: &mut [u8]| {
        let mut buf = [0u8; 64];
        let mut len: c_uint = 0;
        // SAFETY: `md` is a valid EVP_MD (checked non-null by `fetch_md`);
        // `key` is readable for its 32 bytes (the length passed), `data`
        // for `data.len()`; `buf` holds any HMAC here (at most
        // EVP_MAX_MD_SIZE = 64 bytes) and `len` receives its length.
        let tag = unsafe {
            hmac(md, key.as_ptr().cast(), key.len() as c_int, data.as_ptr(), data.len(), buf.as_mut_ptr(), &mut len)
        };
        assert!(!tag.is_null() && len as usize == out.len(), "HMAC failed");
        out.copy_from_slice(&buf[..out.len()]);
    }))
}
