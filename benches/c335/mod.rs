//! C-Blosc2 3.3.5, what python-blosc2 4.14.1 runs: the `libblosc2.so` of its wheel,
//! loaded at run time by tests/common/libblosc2_335.rs (`B2ND_LIBBLOSC2_335` names
//! another copy), with a decompression context of one thread kept for the whole run, as
//! C's users keep theirs.

#[allow(dead_code)] // The tests' helpers the benches do not call.
#[path = "../../tests/common/libblosc2_335.rs"]
mod lib335;

use std::ffi::{c_char, c_int, c_void, CString};

pub use lib335::CParams;
use lib335::{Ctx, DParams, Library};

/// The loaded library and its decompression context.
pub struct Blosc2 {
    lib: Library,
    dctx: Ctx,
    pub version: &'static str,
}

impl Blosc2 {
    /// Loads the library (and checks that it is 3.3.5).
    pub fn load() -> Blosc2 {
        let lib = lib335::path()
            .and_then(|path| Library::open(&path))
            .unwrap_or_else(|why| {
                panic!(
                    "C-Blosc2 3.3.5: {why} (set {} to its libblosc2.so)",
                    lib335::ENV
                )
            });
        let dctx = unsafe { (lib.create_dctx)(DParams::one_thread()) };
        assert!(!dctx.is_null());
        Blosc2 {
            lib,
            dctx,
            version: lib335::VERSION,
        }
    }

    /// `src` compressed in one thread with `cparams`.
    pub fn compress(&self, cparams: CParams, src: &[u8]) -> Vec<u8> {
        self.lib
            .compress(&cparams, src, src.len() + 64)
            .unwrap_or_else(|rc| panic!("C-Blosc2 {} refused to compress: {rc}", self.version))
    }

    /// `blosc2_decompress_ctx` of `chunk` into `dest` (one thread): its return value.
    pub fn decompress(&self, chunk: &[u8], dest: &mut [u8]) -> i32 {
        self.lib.decompress_into(self.dctx, chunk, dest)
    }

    /// `chunk` (of `nbytes`) decompressed into a new buffer, as a C caller without one
    /// does it (and python-blosc2's `decompress`): `malloc` (not zero-filled), then
    /// `blosc2_decompress_ctx`; the counterpart of our `decode`.
    #[allow(dead_code)] // Only the chunk bench times it.
    pub fn decompress_new(&self, chunk: &[u8], nbytes: usize) -> Vec<u8> {
        let mut out = Vec::<u8>::with_capacity(nbytes);
        let n = unsafe {
            (self.lib.decompress_ctx)(
                self.dctx,
                chunk.as_ptr().cast(),
                chunk.len() as i32,
                out.as_mut_ptr().cast(),
                nbytes as i32,
            )
        };
        // C wrote the first `n` bytes.
        unsafe { out.set_len(n.max(0) as usize) };
        out
    }

    /// A new contiguous array at `path` from `bytes` (C order), as python-blosc2's
    /// `asarray` makes it: `b2nd_create_ctx` then `b2nd_from_cbuffer`, with `cparams`
    /// (their `nthreads` too).
    #[allow(dead_code)] // Only the write bench writes arrays.
    pub fn write_array(
        &self,
        path: &std::path::Path,
        array: &Array,
        cparams: CParams,
        bytes: &[u8],
    ) {
        type CreateCtx = unsafe extern "C" fn(
            *const Storage,
            i8,
            *const i64,
            *const i32,
            *const i32,
            *const c_char,
            i8,
            *const c_void,
            i32,
        ) -> *mut c_void;
        type FromCbuffer =
            unsafe extern "C" fn(*mut c_void, *mut *mut c_void, *const c_void, i64) -> c_int;
        type Free = unsafe extern "C" fn(*mut c_void) -> c_int;
        let _ = std::fs::remove_file(path);
        let url = CString::new(path.to_str().unwrap()).unwrap();
        let dtype = CString::new(array.dtype).unwrap();
        let mut cparams = cparams;
        let storage = Storage {
            contiguous: true,
            urlpath: url.as_ptr().cast_mut(),
            cparams: &mut cparams,
            dparams: std::ptr::null_mut(),
            io: std::ptr::null_mut(),
        };
        unsafe {
            let create: CreateCtx = self.lib.symbol("b2nd_create_ctx");
            let from_cbuffer: FromCbuffer = self.lib.symbol("b2nd_from_cbuffer");
            let free: Free = self.lib.symbol("b2nd_free");
            let free_ctx: Free = self.lib.symbol("b2nd_free_ctx");
            let ctx = create(
                &storage,
                array.shape.len() as i8,
                array.shape.as_ptr(),
                array.chunks.as_ptr(),
                array.blocks.as_ptr(),
                dtype.as_ptr(),
                0,
                std::ptr::null(),
                0,
            );
            assert!(!ctx.is_null(), "b2nd_create_ctx");
            let mut out = std::ptr::null_mut();
            let rc = from_cbuffer(ctx, &mut out, bytes.as_ptr().cast(), bytes.len() as i64);
            assert_eq!(rc, 0, "b2nd_from_cbuffer");
            free(out);
            free_ctx(ctx);
        }
    }
}

/// An array's shapes and dtype, as `b2nd_create_ctx` takes them.
#[allow(dead_code)]
pub struct Array<'a> {
    pub shape: Vec<i64>,
    pub chunks: Vec<i32>,
    pub blocks: Vec<i32>,
    pub dtype: &'a str,
}

/// `blosc2_storage` (3.3's `blosc2.h`).
#[repr(C)]
struct Storage {
    contiguous: bool,
    urlpath: *mut c_char,
    cparams: *mut CParams,
    dparams: *mut c_void,
    io: *mut c_void,
}

impl Drop for Blosc2 {
    fn drop(&mut self) {
        unsafe { (self.lib.free_ctx)(self.dctx) };
    }
}
