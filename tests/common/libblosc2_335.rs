//! C-Blosc2 3.3.5, the library python-blosc2 4.14.1 runs (its wheel's `libblosc2.so`):
//! the one place tests and benches load it. `dlopen` with `RTLD_DEEPBIND`, so that the
//! library's calls to its own functions stay inside it and never reach the C-Blosc2
//! 2.15.3 that blosc2-src links into the same binary under the same names; then
//! `blosc2_init` and a check of its version. The structs are 3.3.5's `blosc2.h`.

use std::ffi::{c_char, c_int, c_void, CStr, CString};

/// The environment variable naming the library (else the venv `.ci/references` installs:
/// tests/common/reference.rs).
pub const ENV: &str = "B2ND_LIBBLOSC2_335";
/// The version the library must report.
pub const VERSION: &str = "3.3.5";

#[path = "reference.rs"]
mod reference;

/// `blosc2_cparams`.
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

impl CParams {
    /// One thread, no dictionary, no callbacks: `codec` at `clevel` on `typesize`,
    /// `blocksize` (0: C chooses), `splitmode` and the six filter slots.
    pub fn one_thread(
        codec: u8,
        clevel: u8,
        typesize: i32,
        blocksize: i32,
        splitmode: i32,
        filters: [u8; 6],
        filters_meta: [u8; 6],
    ) -> CParams {
        CParams {
            compcode: codec,
            compcode_meta: 0,
            clevel,
            use_dict: 0,
            typesize,
            nthreads: 1,
            blocksize,
            splitmode,
            schunk: std::ptr::null_mut(),
            filters,
            filters_meta,
            prefilter: std::ptr::null_mut(),
            preparams: std::ptr::null_mut(),
            tuner_params: std::ptr::null_mut(),
            tuner_id: 0,
            instr_codec: false,
            codec_params: std::ptr::null_mut(),
            filter_params: [std::ptr::null_mut(); 6],
        }
    }
}

/// `blosc2_dparams` (2.x's has no `typesize`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DParams {
    pub nthreads: i16,
    pub schunk: *mut c_void,
    pub postfilter: *mut c_void,
    pub postparams: *mut c_void,
    pub typesize: i32,
}

impl DParams {
    /// One thread, no callbacks.
    pub fn one_thread() -> DParams {
        DParams {
            nthreads: 1,
            schunk: std::ptr::null_mut(),
            postfilter: std::ptr::null_mut(),
            postparams: std::ptr::null_mut(),
            typesize: 8,
        }
    }
}

/// A context (`blosc2_context*`).
pub type Ctx = *mut c_void;

/// The loaded library: its handle and the functions every user calls.
pub struct Library {
    handle: *mut c_void,
    pub create_cctx: unsafe extern "C" fn(CParams) -> Ctx,
    pub create_dctx: unsafe extern "C" fn(DParams) -> Ctx,
    pub free_ctx: unsafe extern "C" fn(Ctx),
    pub compress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
    pub decompress_ctx: unsafe extern "C" fn(Ctx, *const c_void, i32, *mut c_void, i32) -> c_int,
}

// The handle and the functions are the library's for the life of the process, and
// C-Blosc2's functions take their state from their arguments.
unsafe impl Send for Library {}
unsafe impl Sync for Library {}

/// The library's path: `B2ND_LIBBLOSC2_335`, or the venv's when it is there.
pub fn path() -> Result<String, String> {
    match std::env::var(ENV) {
        Ok(path) => Ok(path),
        Err(_) => match reference::libblosc2() {
            Some(path) => Ok(path.display().to_string()),
            None => Err(format!(
                "{ENV} is not set and {} has no libblosc2.so (run .ci/references)",
                reference::venv_dir().display()
            )),
        },
    }
}

impl Library {
    /// Loads the library at `path`, calls `blosc2_init` and checks that it is 3.3.5.
    pub fn open(path: &str) -> Result<Library, String> {
        let c_path = CString::new(path).map_err(|e| e.to_string())?;
        let flags = libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND;
        let handle = unsafe { libc::dlopen(c_path.as_ptr(), flags) };
        if handle.is_null() {
            let why = unsafe { CStr::from_ptr(libc::dlerror()) };
            return Err(format!("dlopen {path}: {}", why.to_string_lossy()));
        }
        unsafe {
            let init: unsafe extern "C" fn() = symbol_of(handle, path, "blosc2_init")?;
            init();
            let version: unsafe extern "C" fn() -> *const c_char =
                symbol_of(handle, path, "blosc2_get_version_string")?;
            let found = CStr::from_ptr(version()).to_string_lossy().into_owned();
            if found != VERSION {
                return Err(format!("{path} is C-Blosc2 {found}, not {VERSION}"));
            }
            Ok(Library {
                handle,
                create_cctx: symbol_of(handle, path, "blosc2_create_cctx")?,
                create_dctx: symbol_of(handle, path, "blosc2_create_dctx")?,
                free_ctx: symbol_of(handle, path, "blosc2_free_ctx")?,
                compress_ctx: symbol_of(handle, path, "blosc2_compress_ctx")?,
                decompress_ctx: symbol_of(handle, path, "blosc2_decompress_ctx")?,
            })
        }
    }

    /// The function `name`, as the function pointer type `F` the caller declares.
    ///
    /// # Safety
    /// `F` must be the function's C signature.
    pub unsafe fn symbol<F: Copy>(&self, name: &str) -> F {
        unsafe { symbol_of(self.handle, "libblosc2.so", name) }
            .unwrap_or_else(|why| panic!("{why}"))
    }

    /// `src` compressed with `params` into at most `capacity` bytes: the chunk, or C's
    /// code when it refuses.
    pub fn compress(&self, params: &CParams, src: &[u8], capacity: usize) -> Result<Vec<u8>, i32> {
        let mut dest = vec![0u8; capacity];
        let n = unsafe {
            let ctx = (self.create_cctx)(*params);
            assert!(!ctx.is_null(), "blosc2_create_cctx");
            let n = (self.compress_ctx)(
                ctx,
                src.as_ptr().cast(),
                src.len() as i32,
                dest.as_mut_ptr().cast(),
                dest.len() as i32,
            );
            (self.free_ctx)(ctx);
            n
        };
        if n <= 0 {
            return Err(n);
        }
        dest.truncate(n as usize);
        Ok(dest)
    }

    /// `blosc2_decompress_ctx` of `chunk` into `dest` with `ctx`: C's return value.
    pub fn decompress_into(&self, ctx: Ctx, chunk: &[u8], dest: &mut [u8]) -> i32 {
        unsafe {
            (self.decompress_ctx)(
                ctx,
                chunk.as_ptr().cast(),
                chunk.len() as i32,
                dest.as_mut_ptr().cast(),
                dest.len() as i32,
            )
        }
    }
}

/// `name` in the library at `handle`, as `F`.
unsafe fn symbol_of<F: Copy>(handle: *mut c_void, path: &str, name: &str) -> Result<F, String> {
    assert_eq!(size_of::<F>(), size_of::<*mut c_void>());
    let c_name = CString::new(name).map_err(|e| e.to_string())?;
    let p = unsafe { libc::dlsym(handle, c_name.as_ptr()) };
    if p.is_null() {
        return Err(format!("{path} has no {name}"));
    }
    Ok(unsafe { std::mem::transmute_copy::<*mut c_void, F>(&p) })
}
