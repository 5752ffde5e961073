//! C-Blosc2 2.15.3 (blosc2-src, linked) writing b2nd arrays, for the benches that compare
//! with it: its b2nd API (b2nd.h, compiled into blosc2-src's library, not in its
//! bindings) and `c_write`, `b2nd_from_cbuffer` into a file.
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

use blosc2_src as c;

#[allow(non_camel_case_types)]
pub type b2nd_array_t = c_void;
#[allow(non_camel_case_types)]
pub type b2nd_context_t = c_void;

// b2nd.h of C-Blosc2 2.15.3 (compiled into blosc2-src's library, not in its bindings).
unsafe extern "C" {
    pub fn b2nd_create_ctx(
        storage: *const c::blosc2_storage,
        ndim: i8,
        shape: *const i64,
        chunkshape: *const i32,
        blockshape: *const i32,
        dtype: *const c_char,
        dtype_format: i8,
        metalayers: *const c_void,
        nmetalayers: i32,
    ) -> *mut b2nd_context_t;
    pub fn b2nd_free_ctx(ctx: *mut b2nd_context_t) -> c_int;
    pub fn b2nd_from_cbuffer(
        ctx: *mut b2nd_context_t,
        array: *mut *mut b2nd_array_t,
        buffer: *const c_void,
        buffersize: i64,
    ) -> c_int;
    pub fn b2nd_open(urlpath: *const c_char, array: *mut *mut b2nd_array_t) -> c_int;
    pub fn b2nd_free(array: *mut b2nd_array_t) -> c_int;
    pub fn b2nd_get_slice_cbuffer(
        array: *const b2nd_array_t,
        start: *const i64,
        stop: *const i64,
        buffer: *mut c_void,
        buffershape: *const i64,
        buffersize: i64,
    ) -> c_int;
}

/// An array's shape, chunkshape and blockshape.
pub struct Geometry {
    pub shape: Vec<i64>,
    pub chunks: Vec<i32>,
    pub blocks: Vec<i32>,
}

/// Writes `bytes` as a b2nd array at `path` with C-Blosc2.
pub fn c_write(path: &Path, g: &Geometry, dtype: &str, codec: u8, filter: u8, bytes: &[u8]) {
    c_write_with(path, g, dtype, (codec, 5, filter), 1, bytes);
}

/// [`c_write`] with a level and a thread count.
pub fn c_write_with(
    path: &Path,
    g: &Geometry,
    dtype: &str,
    (codec, clevel, filter): (u8, u8, u8),
    nthreads: i16,
    bytes: &[u8],
) {
    let (shape, chunks, blocks) = (&g.shape, &g.chunks, &g.blocks);
    let typesize = if dtype.ends_with('8') { 8 } else { 4 };
    let mut cparams = c::blosc2_cparams {
        compcode: codec,
        compcode_meta: 0,
        clevel,
        use_dict: 0,
        typesize,
        nthreads,
        blocksize: 0,
        splitmode: 4,
        schunk: std::ptr::null_mut(),
        filters: [0, 0, 0, 0, 0, filter],
        filters_meta: [0; 6],
        prefilter: None,
        preparams: std::ptr::null_mut(),
        tuner_params: std::ptr::null_mut(),
        tuner_id: 0,
        instr_codec: false,
        codec_params: std::ptr::null_mut(),
        filter_params: [std::ptr::null_mut(); 6],
    };
    let _ = std::fs::remove_file(path);
    let url = CString::new(path.to_str().unwrap()).unwrap();
    let dtype = CString::new(dtype).unwrap();
    let storage = c::blosc2_storage {
        contiguous: true,
        urlpath: url.as_ptr() as *mut c_char,
        cparams: &mut cparams,
        dparams: std::ptr::null_mut(),
        io: std::ptr::null_mut(),
    };
    unsafe {
        let ctx = b2nd_create_ctx(
            &storage,
            shape.len() as i8,
            shape.as_ptr(),
            chunks.as_ptr(),
            blocks.as_ptr(),
            dtype.as_ptr(),
            0,
            std::ptr::null(),
            0,
        );
        assert!(!ctx.is_null());
        let mut array = std::ptr::null_mut();
        let rc = b2nd_from_cbuffer(
            ctx,
            &mut array,
            bytes.as_ptr() as *const c_void,
            bytes.len() as i64,
        );
        assert_eq!(rc, 0);
        b2nd_free(array);
        b2nd_free_ctx(ctx);
    }
}
