//! C-Blosc2 3.3.5, what python-blosc2 4.14.1 runs: the `libblosc2.so` of its wheel,
//! loaded at run time (`B2ND_LIBBLOSC2` names another copy). Loaded with
//! `RTLD_DEEPBIND`, so that the library's calls to its own functions never reach
//! blosc2-src's C-Blosc2 2.15.3, linked into the same binary under the same names.

use std::ffi::{c_char, c_int, c_void, CStr, CString};

use blosc2_src as c2;

/// The wheel's library, in the venv the project's tests use.
const DEFAULT_PATH: &str =
    "/work/venvs/blosc2-4.14.1/lib/python3.11/site-packages/blosc2/lib/libblosc2.so";

/// `blosc2_dparams` of C-Blosc2 3.x (2.x's has no `typesize`).
#[repr(C)]
struct DParams {
    nthreads: i16,
    schunk: *mut c_void,
    postfilter: *mut c_void,
    postparams: *mut c_void,
    typesize: i32,
}

type Ctx = *mut c_void;
type CreateCctx = unsafe extern "C" fn(c2::blosc2_cparams) -> Ctx;
type CreateDctx = unsafe extern "C" fn(DParams) -> Ctx;
/// `blosc2_compress_ctx` and `blosc2_decompress_ctx`.
type CodecCtx = unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int;
type FreeCtx = unsafe extern "C" fn(Ctx);

/// The functions of the loaded library the bench calls.
pub struct Blosc2 {
    create_cctx: CreateCctx,
    compress_ctx: CodecCtx,
    decompress_ctx: CodecCtx,
    free_ctx: FreeCtx,
    /// A decompression context of one thread, kept for the whole run as C's users keep
    /// theirs.
    dctx: Ctx,
    pub version: String,
}

fn symbol(lib: *mut c_void, name: &str) -> *mut c_void {
    let cname = CString::new(name).unwrap();
    let f = unsafe { libc::dlsym(lib, cname.as_ptr()) };
    assert!(!f.is_null(), "{name} not found in libblosc2.so");
    f
}

impl Blosc2 {
    /// Loads the library and calls `blosc2_init`.
    pub fn load() -> Blosc2 {
        let path = std::env::var("B2ND_LIBBLOSC2").unwrap_or_else(|_| DEFAULT_PATH.into());
        let cpath = CString::new(path.clone()).unwrap();
        let lib = unsafe {
            libc::dlopen(
                cpath.as_ptr(),
                libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
            )
        };
        assert!(
            !lib.is_null(),
            "cannot load {path} (set B2ND_LIBBLOSC2 to python-blosc2 4.14.1's libblosc2.so)"
        );
        unsafe {
            let init: unsafe extern "C" fn() = std::mem::transmute(symbol(lib, "blosc2_init"));
            init();
            let version: unsafe extern "C" fn() -> *const c_char =
                std::mem::transmute(symbol(lib, "blosc2_get_version_string"));
            let version = CStr::from_ptr(version()).to_string_lossy().into_owned();
            let create_dctx =
                std::mem::transmute::<*mut c_void, CreateDctx>(symbol(lib, "blosc2_create_dctx"));
            let dctx = create_dctx(DParams {
                nthreads: 1,
                schunk: std::ptr::null_mut(),
                postfilter: std::ptr::null_mut(),
                postparams: std::ptr::null_mut(),
                typesize: 8,
            });
            assert!(!dctx.is_null());
            Blosc2 {
                create_cctx: std::mem::transmute::<*mut c_void, CreateCctx>(symbol(
                    lib,
                    "blosc2_create_cctx",
                )),
                compress_ctx: std::mem::transmute::<*mut c_void, CodecCtx>(symbol(
                    lib,
                    "blosc2_compress_ctx",
                )),
                decompress_ctx: std::mem::transmute::<*mut c_void, CodecCtx>(symbol(
                    lib,
                    "blosc2_decompress_ctx",
                )),
                free_ctx: std::mem::transmute::<*mut c_void, FreeCtx>(symbol(
                    lib,
                    "blosc2_free_ctx",
                )),
                dctx,
                version,
            }
        }
    }

    /// `src` compressed in one thread with `cparams` (the same layout in 2.15.3 and
    /// 3.3.5).
    pub fn compress(&self, cparams: c2::blosc2_cparams, src: &[u8]) -> Vec<u8> {
        let mut dest = vec![0u8; src.len() + 64];
        unsafe {
            let ctx = (self.create_cctx)(cparams);
            assert!(!ctx.is_null());
            let n = (self.compress_ctx)(
                ctx,
                src.as_ptr() as *const c_void,
                src.len() as i32,
                dest.as_mut_ptr() as *mut c_void,
                dest.len() as i32,
            );
            (self.free_ctx)(ctx);
            assert!(n > 0, "C-Blosc2 {} refused to compress: {n}", self.version);
            dest.truncate(n as usize);
        }
        dest
    }

    /// `blosc2_decompress_ctx` of `chunk` into `dest` (one thread): its return value.
    pub fn decompress(&self, chunk: &[u8], dest: &mut [u8]) -> i32 {
        unsafe {
            (self.decompress_ctx)(
                self.dctx,
                chunk.as_ptr() as *const c_void,
                chunk.len() as i32,
                dest.as_mut_ptr() as *mut c_void,
                dest.len() as i32,
            )
        }
    }
}

impl Drop for Blosc2 {
    fn drop(&mut self) {
        unsafe { (self.free_ctx)(self.dctx) };
    }
}
