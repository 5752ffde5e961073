//! C-Blosc2 3.3.5, the decoder python-blosc2 4.14.1 runs: its `libblosc2.so` from the
//! `blosc2==4.14.1` wheel, loaded with `dlopen` (`RTLD_DEEPBIND`, so that its calls
//! stay inside it and never reach the 2.15.3 that blosc2-src links into this test).
//! The path is in `B2ND_LIBBLOSC2_335` (.ci/run installs the wheel and sets it).
//! Compression runs in this process on our own data; decompression of possibly hostile
//! chunks runs in forked children (tests/chunk/children.rs), so that a crash is a
//! verdict and not the end of the run.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::OnceLock;

pub use super::c_ref::CVerdict;

/// The environment variable holding the path of C-Blosc2 3.3.5's `libblosc2.so`.
pub const ENV: &str = "B2ND_LIBBLOSC2_335";
/// The version the library must report.
const VERSION: &str = "3.3.5";
/// The largest output a child gives C for one chunk (our decoder's default limit).
const MAX_DEST: usize = 64 << 20;

/// `blosc2_cparams` of C-Blosc2 3.3.5's `blosc2.h`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CParams {
    pub compcode: u8,
    pub compcode_meta: u8,
    pub clevel: u8,
    pub use_dict: c_int,
    pub typesize: i32,
    pub nthreads: i16,
    pub blocksize: i32,
    pub splitmode: i32,
    pub schunk: *mut c_void,
    pub filters: [u8; 6],
    pub filters_meta: [u8; 6],
    pub prefilter: *mut c_void,
    pub preparams: *mut c_void,
    pub tuner_params: *mut c_void,
    pub tuner_id: c_int,
    pub instr_codec: bool,
    pub codec_params: *mut c_void,
    pub filter_params: [*mut c_void; 6],
}

/// `blosc2_dparams` of C-Blosc2 3.3.5's `blosc2.h`.
#[repr(C)]
struct DParams {
    nthreads: i16,
    schunk: *mut c_void,
    postfilter: *mut c_void,
    postparams: *mut c_void,
    typesize: i32,
}

type Ctx = *mut c_void;

/// The functions of the library this test calls.
struct Lib {
    create_cctx: unsafe extern "C" fn(CParams) -> Ctx,
    create_dctx: unsafe extern "C" fn(DParams) -> Ctx,
    free_ctx: unsafe extern "C" fn(Ctx),
    compress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
    decompress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
    set_maskout: unsafe extern "C" fn(Ctx, *mut bool, c_int) -> c_int,
}

/// Why C-Blosc2 3.3.5 is not here: the variable is unset, or the library does not load.
pub fn unavailable() -> Option<String> {
    lib().err()
}

/// The library, loaded once (in this process, before any child is forked).
fn lib() -> Result<&'static Lib, String> {
    static LIB: OnceLock<Result<Lib, String>> = OnceLock::new();
    LIB.get_or_init(load).as_ref().map_err(Clone::clone)
}

// Each transmute's target is the type of the field it fills.
#[allow(clippy::missing_transmute_annotations)]
fn load() -> Result<Lib, String> {
    let path = std::env::var(ENV).map_err(|_| format!("{ENV} is not set"))?;
    let c_path = CString::new(path.clone()).map_err(|e| e.to_string())?;
    let flags = libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND;
    let handle = unsafe { libc::dlopen(c_path.as_ptr(), flags) };
    if handle.is_null() {
        let why = unsafe { CStr::from_ptr(libc::dlerror()) };
        return Err(format!("dlopen {path}: {}", why.to_string_lossy()));
    }
    let sym = |name: &str| -> Result<*mut c_void, String> {
        let c_name = CString::new(name).unwrap();
        let p = unsafe { libc::dlsym(handle, c_name.as_ptr()) };
        if p.is_null() {
            return Err(format!("{path} has no {name}"));
        }
        Ok(p)
    };
    unsafe {
        let init: unsafe extern "C" fn() = std::mem::transmute(sym("blosc2_init")?);
        init();
        let version: unsafe extern "C" fn() -> *const c_char =
            std::mem::transmute(sym("blosc2_get_version_string")?);
        let found = CStr::from_ptr(version()).to_string_lossy().into_owned();
        if found != VERSION {
            return Err(format!("{path} is C-Blosc2 {found}, not {VERSION}"));
        }
        Ok(Lib {
            create_cctx: std::mem::transmute(sym("blosc2_create_cctx")?),
            create_dctx: std::mem::transmute(sym("blosc2_create_dctx")?),
            free_ctx: std::mem::transmute(sym("blosc2_free_ctx")?),
            compress_ctx: std::mem::transmute(sym("blosc2_compress_ctx")?),
            decompress_ctx: std::mem::transmute(sym("blosc2_decompress_ctx")?),
            set_maskout: std::mem::transmute(sym("blosc2_set_maskout")?),
        })
    }
}

fn loaded() -> &'static Lib {
    lib().unwrap_or_else(|why| panic!("C-Blosc2 3.3.5: {why}"))
}

/// Compression parameters: one filter list, one thread, no dictionary.
pub fn cparams(codec: u8, clevel: u8, typesize: i32, blocksize: i32, split: i32) -> CParams {
    CParams {
        compcode: codec,
        compcode_meta: 0,
        clevel,
        use_dict: 0,
        typesize,
        nthreads: 1,
        blocksize,
        splitmode: split,
        schunk: std::ptr::null_mut(),
        filters: [0, 0, 0, 0, 0, super::c_ref::SHUFFLE],
        filters_meta: [0; 6],
        prefilter: std::ptr::null_mut(),
        preparams: std::ptr::null_mut(),
        tuner_params: std::ptr::null_mut(),
        tuner_id: 0,
        instr_codec: false,
        codec_params: std::ptr::null_mut(),
        filter_params: [std::ptr::null_mut(); 6],
    }
}

/// Compresses `src` with C-Blosc2 3.3.5 (`blosc2_compress_ctx`); `None` when C refuses.
pub fn compress(src: &[u8], p: &CParams) -> Option<Vec<u8>> {
    let lib = loaded();
    let mut dest = vec![0u8; src.len() + 64 + (128 << 10)];
    unsafe {
        let ctx = (lib.create_cctx)(*p);
        assert!(!ctx.is_null());
        let n = (lib.compress_ctx)(
            ctx,
            src.as_ptr().cast(),
            src.len() as i32,
            dest.as_mut_ptr().cast(),
            dest.len() as i32,
        );
        (lib.free_ctx)(ctx);
        dest.truncate(usize::try_from(n).ok().filter(|&n| n > 0)?);
    }
    Some(dest)
}

/// C-Blosc2 3.3.5's verdict on each chunk: `blosc2_decompress_ctx` with a fresh
/// one-thread context per chunk (no state carried from chunk to chunk), into a
/// destination of the chunk's `nbytes` (at most 64 MiB), in forked children.
pub fn decompress_all(chunks: &[Vec<u8>]) -> Vec<CVerdict> {
    let items: Vec<(Vec<u8>, Option<Vec<bool>>)> =
        chunks.iter().map(|c| (c.clone(), None)).collect();
    decompress_items(&items, None)
}

/// [`decompress_all`] into a destination of `fill` bytes: with two fills, the bytes
/// that differ are those C leaves unwritten.
pub fn decompress_filled(chunks: &[Vec<u8>], fill: u8) -> Vec<CVerdict> {
    let items: Vec<(Vec<u8>, Option<Vec<bool>>)> =
        chunks.iter().map(|c| (c.clone(), None)).collect();
    decompress_items(&items, Some(fill))
}

/// [`decompress_all`] with a block mask per chunk (`blosc2_set_maskout`: `true` skips
/// a block) into a destination of `fill` bytes: C's answer is the whole destination.
pub fn decompress_masked(items: &[(Vec<u8>, Vec<bool>)], fill: u8) -> Vec<CVerdict> {
    let items: Vec<(Vec<u8>, Option<Vec<bool>>)> = items
        .iter()
        .map(|(c, m)| (c.clone(), Some(m.clone())))
        .collect();
    decompress_items(&items, Some(fill))
}

fn decompress_items(items: &[(Vec<u8>, Option<Vec<bool>>)], fill: Option<u8>) -> Vec<CVerdict> {
    let lib = loaded();
    let answers = super::children::answers(items, || {
        // Zeroed once per child, lazily (fresh pages).
        let mut dest = vec![0u8; MAX_DEST];
        Box::new(move |(chunk, mask): &(Vec<u8>, Option<Vec<bool>>)| {
            let nbytes = declared_nbytes(chunk).min(MAX_DEST);
            // C leaves an uninitialised chunk's destination as it was: zeros, as ours.
            if chunk.get(2).is_some_and(|f| f & 0x05 == 0x05)
                && chunk.get(31).is_some_and(|f| (f >> 4) & 7 == 4)
            {
                dest[..nbytes].fill(0);
            }
            let rc = unsafe {
                let dparams = DParams {
                    nthreads: 1,
                    schunk: std::ptr::null_mut(),
                    postfilter: std::ptr::null_mut(),
                    postparams: std::ptr::null_mut(),
                    typesize: 8,
                };
                let ctx = (lib.create_dctx)(dparams);
                if let Some(fill) = fill {
                    dest[..nbytes].fill(fill);
                }
                if let Some(m) = mask {
                    // C copies the mask, and drops it after one decompression.
                    let mut m = m.clone();
                    let rc = (lib.set_maskout)(ctx, m.as_mut_ptr(), m.len() as c_int);
                    assert_eq!(rc, 0, "blosc2_set_maskout");
                }
                let rc = (lib.decompress_ctx)(
                    ctx,
                    chunk.as_ptr().cast(),
                    chunk.len() as i32,
                    dest.as_mut_ptr().cast(),
                    nbytes as i32,
                );
                (lib.free_ctx)(ctx);
                rc
            };
            match rc {
                rc if rc < 0 => (1, rc.to_le_bytes().to_vec()),
                // With a mask, C counts only the blocks it decoded.
                _ if mask.is_some() => (0, dest[..nbytes].to_vec()),
                _ => (0, dest[..rc as usize].to_vec()),
            }
        })
    });
    answers
        .into_iter()
        .map(|answer| match answer {
            Some((0, bytes)) => CVerdict::Ok(bytes),
            Some((_, rc)) => CVerdict::Err(i32::from_le_bytes(rc.try_into().unwrap())),
            None => CVerdict::Crash,
        })
        .collect()
}

/// The header's nbytes (bytes 4..8), 0 when there is none.
fn declared_nbytes(chunk: &[u8]) -> usize {
    chunk.get(4..8).map_or(0, |b| {
        i32::from_le_bytes(b.try_into().unwrap()).max(0) as usize
    })
}

/// Whether the differential tests against 3.3.5 run: true when the library loads;
/// false, said loudly, when `B2ND_LIBBLOSC2_335` is unset outside CI; a failure when it
/// is missing in CI (`CI=true`), where .ci/run installs it.
pub fn present(test: &str) -> bool {
    match unavailable() {
        None => true,
        Some(why) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{test}: C-Blosc2 3.3.5 is required in CI: {why}")
        }
        Some(why) => {
            // Written to the process's stderr, not eprintln!'s captured one: shown by a
            // plain `cargo test` too.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "\n*** SKIPPED {test}: C-Blosc2 3.3.5 is not here ({why}). Set {ENV} to the \
                 libblosc2.so of the blosc2==4.14.1 wheel (.ci/run shows how). ***\n"
            );
            false
        }
    }
}
