//! C-Blosc2 2.15.3's b2nd arrays (blosc2-src's library, where `b2nd.h` is compiled in
//! but not in its bindings): an array written from a buffer to a `.b2nd` file
//! (`b2nd_from_cbuffer`), and a box read back (`b2nd_get_slice_cbuffer`), for
//! tests/array, benches/array.rs and benches/write.rs.
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

use blosc2_src as c;

#[allow(non_camel_case_types)]
type b2nd_array_t = c_void;
#[allow(non_camel_case_types)]
type b2nd_context_t = c_void;

unsafe extern "C" {
    fn b2nd_create_ctx(
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
    fn b2nd_free_ctx(ctx: *mut b2nd_context_t) -> c_int;
    fn b2nd_from_cbuffer(
        ctx: *mut b2nd_context_t,
        array: *mut *mut b2nd_array_t,
        buffer: *const c_void,
        buffersize: i64,
    ) -> c_int;
    fn b2nd_open(urlpath: *const c_char, array: *mut *mut b2nd_array_t) -> c_int;
    fn b2nd_free(array: *mut b2nd_array_t) -> c_int;
    fn b2nd_get_slice_cbuffer(
        array: *const b2nd_array_t,
        start: *const i64,
        stop: *const i64,
        buffer: *mut c_void,
        buffershape: *const i64,
        buffersize: i64,
    ) -> c_int;
}

/// An array's shape, chunkshape and blockshape.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub shape: Vec<i64>,
    pub chunks: Vec<i32>,
    pub blocks: Vec<i32>,
}

/// Writes `bytes` (C order) as a b2nd array at `path` with C-Blosc2: `dtype` (its size
/// the typesize), `codec` at clevel 5, `filter` in the last slot, one thread.
pub fn write(path: &Path, g: &Geometry, dtype: &str, codec: u8, filter: u8, bytes: &[u8]) {
    write_with(path, g, dtype, (codec, 5, filter), 1, bytes);
}

/// [`write`] with a level and a thread count.
pub fn write_with(
    path: &Path,
    g: &Geometry,
    dtype: &str,
    (codec, clevel, filter): (u8, u8, u8),
    nthreads: i16,
    bytes: &[u8],
) {
    unsafe { c::blosc2_init() };
    let typesize = match dtype.trim_start_matches(['<', '>', '|']).get(1..) {
        Some(n) => n.parse().unwrap(),
        None => 1,
    };
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
            g.shape.len() as i8,
            g.shape.as_ptr(),
            g.chunks.as_ptr(),
            g.blocks.as_ptr(),
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

/// An array C-Blosc2 opened, to read boxes of.
pub struct CArray(*mut b2nd_array_t);

impl CArray {
    pub fn open(path: &Path) -> CArray {
        unsafe { c::blosc2_init() };
        let url = CString::new(path.to_str().unwrap()).unwrap();
        let mut array = std::ptr::null_mut();
        assert_eq!(unsafe { b2nd_open(url.as_ptr(), &mut array) }, 0);
        CArray(array)
    }

    /// C's read of the box `[start, stop)` into `out` (C has no steps).
    pub fn read(&self, start: &[i64], stop: &[i64], out: &mut [u8]) {
        let shape: Vec<i64> = start.iter().zip(stop).map(|(a, b)| b - a).collect();
        let rc = unsafe {
            b2nd_get_slice_cbuffer(
                self.0,
                start.as_ptr(),
                stop.as_ptr(),
                out.as_mut_ptr() as *mut c_void,
                shape.as_ptr(),
                out.len() as i64,
            )
        };
        assert_eq!(rc, 0);
    }
}

impl Drop for CArray {
    fn drop(&mut self) {
        unsafe { b2nd_free(self.0) };
    }
}
