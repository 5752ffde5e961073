//! C-Blosc2 3.3.5, the library python-blosc2 4.14.1 runs, loaded with `dlopen` from the
//! wheel's `libblosc2.so` in a forked child: its `blosc2_compress_ctx` (the reference
//! chunk for the same input and parameters) and its `blosc2_decompress` of our chunks,
//! many cases per child. The library's path is `B2ND_LIBBLOSC2_335` (as for tests/chunk),
//! or the venv's on this machine; without it these tests say so and check nothing more
//! (the blosc2-src 2.15.3 decoding in `c215.rs` still runs).

use std::ffi::{c_char, c_int, c_void, CString};

use blosc2_src as c;

#[allow(dead_code)] // The item-by-item helpers are the chunk tests'.
#[path = "../c_ffi/child.rs"]
pub mod child;

/// The wheel's library on this machine.
const VENV_LIB: &str =
    "/work/venvs/blosc2-4.14.1/lib/python3.11/site-packages/blosc2/lib/libblosc2.so";

/// Where the library is, if it is there.
pub fn library() -> Option<String> {
    let path = std::env::var("B2ND_LIBBLOSC2_335").unwrap_or_else(|_| VENV_LIB.to_string());
    std::path::Path::new(&path).exists().then_some(path)
}

/// The parameters of one compression, as `blosc2_cparams` holds them.
#[derive(Debug, Clone, Copy)]
pub struct CCase {
    pub compcode: u8,
    pub clevel: u8,
    pub typesize: i32,
    pub blocksize: i32,
    pub splitmode: i32,
    pub filters: [u8; 6],
    pub filters_meta: [u8; 6],
}

/// What C made of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CAnswer {
    /// C's own chunk of the input (empty when C refused).
    pub chunk: Vec<u8>,
    /// C's decompression of our chunk, or its error code.
    pub decoded: Result<Vec<u8>, i32>,
    /// C's decompression of its own chunk (the input, but for truncated precision).
    pub own: Result<Vec<u8>, i32>,
}

type CreateCctx = unsafe extern "C" fn(c::blosc2_cparams) -> *mut c_void;
type CompressCtx = unsafe extern "C" fn(*mut c_void, *const c_void, i32, *mut c_void, i32) -> c_int;
type FreeCtx = unsafe extern "C" fn(*mut c_void);
type Decompress = unsafe extern "C" fn(*const c_void, i32, *mut c_void, i32) -> c_int;
type Init = unsafe extern "C" fn();

pub struct Lib {
    create_cctx: CreateCctx,
    compress_ctx: CompressCtx,
    free_ctx: FreeCtx,
    decompress: Decompress,
}

/// The function `name` of the library, as the function pointer type `F`.
unsafe fn symbol<F: Copy>(handle: *mut c_void, name: &str) -> F {
    assert_eq!(size_of::<F>(), size_of::<*mut c_void>());
    let cname = CString::new(name).unwrap();
    let p = unsafe { libc::dlsym(handle, cname.as_ptr() as *const c_char) };
    assert!(!p.is_null(), "{name} not in libblosc2.so");
    unsafe { std::mem::transmute_copy::<*mut c_void, F>(&p) }
}

/// Loads the library (in the child only): its own symbols first, not the ones of the
/// blosc2-src copy linked into the test.
pub unsafe fn load(path: &str) -> Lib {
    let cpath = CString::new(path).unwrap();
    let handle = unsafe {
        libc::dlopen(
            cpath.as_ptr(),
            libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
        )
    };
    assert!(!handle.is_null(), "dlopen {path} failed");
    unsafe {
        symbol::<Init>(handle, "blosc2_init")();
        Lib {
            create_cctx: symbol(handle, "blosc2_create_cctx"),
            compress_ctx: symbol(handle, "blosc2_compress_ctx"),
            free_ctx: symbol(handle, "blosc2_free_ctx"),
            decompress: symbol(handle, "blosc2_decompress"),
        }
    }
}

pub unsafe fn c_compress(lib: &Lib, case: &CCase, src: &[u8]) -> Vec<u8> {
    let cparams = c::blosc2_cparams {
        compcode: case.compcode,
        compcode_meta: 0,
        clevel: case.clevel,
        use_dict: 0,
        typesize: case.typesize,
        nthreads: 1,
        blocksize: case.blocksize,
        splitmode: case.splitmode,
        schunk: std::ptr::null_mut(),
        filters: case.filters,
        filters_meta: case.filters_meta,
        prefilter: None,
        preparams: std::ptr::null_mut(),
        tuner_params: std::ptr::null_mut(),
        tuner_id: 0,
        instr_codec: false,
        codec_params: std::ptr::null_mut(),
        filter_params: [std::ptr::null_mut(); 6],
    };
    // python's budget: nbytes plus the header (BLOSC2_MAX_OVERHEAD).
    let mut dest = vec![0u8; src.len() + 32];
    unsafe {
        let ctx = (lib.create_cctx)(cparams);
        assert!(!ctx.is_null());
        let n = (lib.compress_ctx)(
            ctx,
            src.as_ptr() as *const c_void,
            src.len() as i32,
            dest.as_mut_ptr() as *mut c_void,
            dest.len() as i32,
        );
        (lib.free_ctx)(ctx);
        dest.truncate(n.max(0) as usize);
    }
    dest
}

unsafe fn c_decompress(lib: &Lib, chunk: &[u8], nbytes: usize) -> Result<Vec<u8>, i32> {
    let mut dest = vec![0u8; nbytes];
    let rc = unsafe {
        (lib.decompress)(
            chunk.as_ptr() as *const c_void,
            chunk.len() as i32,
            dest.as_mut_ptr() as *mut c_void,
            nbytes as i32,
        )
    };
    if rc < 0 {
        return Err(rc);
    }
    dest.truncate(rc as usize);
    Ok(dest)
}

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

fn get<'a>(b: &mut &'a [u8]) -> &'a [u8] {
    let n = u64::from_le_bytes(b[..8].try_into().unwrap()) as usize;
    let bytes = &b[8..8 + n];
    *b = &b[8 + n..];
    bytes
}

/// For each `(case, input, our chunk)`: C's chunk of the input and C's decompression of
/// our chunk, from one forked child; `None` without the library.
pub fn answers(cases: &[(CCase, Vec<u8>, Vec<u8>)]) -> Option<Vec<CAnswer>> {
    let path = library()?;
    let answer = child::in_child(600, || {
        let lib = unsafe { load(&path) };
        let mut out = Vec::new();
        for (case, src, ours) in cases {
            let chunk = unsafe { c_compress(&lib, case, src) };
            put(&mut out, &chunk);
            for decoded in [unsafe { c_decompress(&lib, ours, src.len()) }, unsafe {
                c_decompress(&lib, &chunk, src.len())
            }] {
                match decoded {
                    Ok(bytes) => {
                        out.push(0);
                        put(&mut out, &bytes);
                    }
                    Err(rc) => {
                        out.push(1);
                        put(&mut out, &rc.to_le_bytes());
                    }
                }
            }
        }
        out
    })
    .unwrap_or_else(|signal| panic!("C-Blosc2 3.3.5's child died of signal {signal}"));
    let mut b = &answer[..];
    let mut all = Vec::new();
    for _ in cases {
        let chunk = get(&mut b).to_vec();
        let mut verdict = || {
            let tag = b[0];
            b = &b[1..];
            let bytes = get(&mut b).to_vec();
            if tag == 0 {
                Ok(bytes)
            } else {
                Err(i32::from_le_bytes(bytes.try_into().unwrap()))
            }
        };
        let decoded = verdict();
        let own = verdict();
        all.push(CAnswer {
            chunk,
            decoded,
            own,
        });
    }
    Some(all)
}
