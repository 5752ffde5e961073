//! The C-Blosc2 reference: `b2nd_serialize_meta` / `b2nd_deserialize_meta` from the
//! static library built by `blosc2-src =0.1.4`, for tests and benches only.
#![allow(dead_code)]
// Make sure the crate (and so its bundled libblosc2.a) is linked.
use blosc2_src as _;

// The frame reader of C-Blosc2, for tests/frame/c_frame.rs (kept apart from the codec's block).
pub mod frame;
// A forked child for C on hostile bytes.
pub mod child;

use std::ffi::{c_char, c_int, CString};
use std::ptr;

/// B2ND_MAX_DIM of the C-Blosc2 bundled in blosc2-src 0.1.4 (upstream >= 2.21.3 uses 16).
pub const C_B2ND_MAX_DIM: usize = 8;

unsafe extern "C" {
    // int b2nd_serialize_meta(int8_t ndim, const int64_t *shape, const int32_t *chunkshape,
    //                         const int32_t *blockshape, const char *dtype,
    //                         int8_t dtype_format, uint8_t **smeta);
    pub fn b2nd_serialize_meta(
        ndim: i8,
        shape: *const i64,
        chunkshape: *const i32,
        blockshape: *const i32,
        dtype: *const c_char,
        dtype_format: i8,
        smeta: *mut *mut u8,
    ) -> c_int;

    // int b2nd_deserialize_meta(const uint8_t *smeta, int32_t smeta_len, int8_t *ndim,
    //                           int64_t *shape, int32_t *chunkshape, int32_t *blockshape,
    //                           char **dtype, int8_t *dtype_format);
    pub fn b2nd_deserialize_meta(
        smeta: *const u8,
        smeta_len: i32,
        ndim: *mut i8,
        shape: *mut i64,
        chunkshape: *mut i32,
        blockshape: *mut i32,
        dtype: *mut *mut c_char,
        dtype_format: *mut i8,
    ) -> c_int;
}

/// Raw call: `Ok(bytes)` or `Err(C return code)`. `dtype = None` passes NULL (C uses "|u1").
pub fn c_serialize_raw(
    shape: &[i64],
    chunkshape: &[i32],
    blockshape: &[i32],
    dtype: Option<&str>,
    dtype_format: i8,
) -> Result<Vec<u8>, i32> {
    let ndim = shape.len();
    assert!(
        chunkshape.len() == ndim && blockshape.len() == ndim,
        "shape/chunkshape/blockshape lengths differ"
    );
    // ndim must fit a non-negative int8 (negative ndim = heap overflow in C).
    assert!(
        ndim <= 127,
        "ndim {ndim} > 127 cannot be passed to C as int8"
    );
    let cdtype =
        dtype.map(|d| CString::new(d).expect("dtype must not contain NUL (C uses strlen)"));
    let dptr = cdtype.as_ref().map_or(ptr::null(), |c| c.as_ptr());
    let mut out: *mut u8 = ptr::null_mut();
    // Non-null dummies for ndim == 0 (C does not read them then).
    let (s0, c0) = ([0i64; 1], [0i32; 1]);
    let sp = if ndim == 0 {
        s0.as_ptr()
    } else {
        shape.as_ptr()
    };
    let cp = if ndim == 0 {
        c0.as_ptr()
    } else {
        chunkshape.as_ptr()
    };
    let bp = if ndim == 0 {
        c0.as_ptr()
    } else {
        blockshape.as_ptr()
    };
    let rc = unsafe { b2nd_serialize_meta(ndim as i8, sp, cp, bp, dptr, dtype_format, &mut out) };
    let res = if rc < 0 {
        Err(rc)
    } else {
        assert!(!out.is_null());
        Ok(unsafe { std::slice::from_raw_parts(out, rc as usize) }.to_vec())
    };
    // C leaks the buffer on its "meta length is inconsistent" error path; free it either way.
    if !out.is_null() {
        unsafe { libc::free(out as *mut libc::c_void) };
    }
    res
}

/// C's serialization; panics if C returns an error.
pub fn c_serialize(
    shape: &[i64],
    chunkshape: &[i32],
    blockshape: &[i32],
    dtype: &str,
    dtype_format: i8,
) -> Vec<u8> {
    c_serialize_raw(shape, chunkshape, blockshape, Some(dtype), dtype_format)
        .unwrap_or_else(|rc| panic!("b2nd_serialize_meta returned {rc}"))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CMeta {
    pub ndim: i8,
    pub shape: Vec<i64>,
    pub chunkshape: Vec<i32>,
    pub blockshape: Vec<i32>,
    /// None = C set *dtype = NULL (no bytes after blockshape: caterva 5-element layout).
    /// Lossy UTF-8 of the exact dtype bytes.
    pub dtype: Option<String>,
    /// Exact dtype bytes as C copied them (may contain NUL / non-UTF-8).
    pub dtype_raw: Option<Vec<u8>>,
    pub dtype_format: i8,
    /// C's return value = bytes it advanced over (may exceed bytes.len() for ndim <= 0).
    pub consumed: i32,
}

/// Checks that calling the bundled (unchecked) C deserializer on `bytes` cannot
/// read out of bounds or overflow the B2ND_MAX_DIM-sized output arrays.
/// Mirrors exactly what C reads: byte 2 (ndim), the 8/4-byte payloads of each
/// element (markers are skipped unread), then, only if bytes remain after the
/// blockshape, dtype_format, (unread marker), int32 BE length, and `len` bytes.
pub fn c_deser_precheck(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() > i32::MAX as usize {
        return Err("len > i32::MAX".into());
    }
    if bytes.len() < 3 {
        return Err("C reads byte 2 (ndim) unconditionally".into());
    }
    let n = bytes[2] as i8;
    if n as i64 > C_B2ND_MAX_DIM as i64 {
        return Err(format!(
            "ndim {n} > B2ND_MAX_DIM {C_B2ND_MAX_DIM}: C would overflow output arrays"
        ));
    }
    let nn = n.max(0) as usize;
    let p = 6 + 19 * nn; // offset after blockshape (C advances even over unread markers)
    if nn > 0 && bytes.len() < p {
        return Err(format!("truncated dims: need {p} bytes"));
    }
    if p < bytes.len() {
        if bytes.len() < p + 6 {
            return Err("truncated dtype header".into());
        }
        let dl = i32::from_be_bytes(bytes[p + 2..p + 6].try_into().unwrap());
        if dl < 0 {
            return Err("negative dtype_len: C would write dtype[-1]".into());
        }
        if bytes.len() - (p + 6) < dl as usize {
            return Err("dtype_len exceeds buffer".into());
        }
    }
    Ok(())
}

/// C's deserialization. Panics if `c_deser_precheck` fails (calling C would be UB).
pub fn c_deserialize(bytes: &[u8]) -> CMeta {
    if let Err(e) = c_deser_precheck(bytes) {
        panic!("refusing to call unchecked C deserializer: {e}");
    }
    let mut ndim: i8 = -1;
    let mut shape = [0i64; C_B2ND_MAX_DIM];
    let mut chunkshape = [0i32; C_B2ND_MAX_DIM];
    let mut blockshape = [0i32; C_B2ND_MAX_DIM];
    let mut dtype: *mut c_char = ptr::null_mut();
    let mut dtype_format: i8 = -1;
    let rc = unsafe {
        b2nd_deserialize_meta(
            bytes.as_ptr(),
            bytes.len() as i32,
            &mut ndim,
            shape.as_mut_ptr(),
            chunkshape.as_mut_ptr(),
            blockshape.as_mut_ptr(),
            &mut dtype,
            &mut dtype_format,
        )
    };
    let n = ndim.max(0) as usize;
    let (dtype_s, dtype_raw) = if dtype.is_null() {
        (None, None)
    } else {
        // dtype_len = consumed - (offset after blockshape + 6)
        let dl = rc as usize - (6 + 19 * n + 6);
        let raw = unsafe { std::slice::from_raw_parts(dtype as *const u8, dl) }.to_vec();
        unsafe { libc::free(dtype as *mut libc::c_void) };
        (Some(String::from_utf8_lossy(&raw).into_owned()), Some(raw))
    };
    CMeta {
        ndim,
        shape: shape[..n].to_vec(),
        chunkshape: chunkshape[..n].to_vec(),
        blockshape: blockshape[..n].to_vec(),
        dtype: dtype_s,
        dtype_raw,
        dtype_format,
        consumed: rc,
    }
}

/// C's decode as `b2nd_from_schunk` calls it, for the benches: no checks, the caller's
/// arrays, one `malloc` for the dtype, freed here as the caller must. Returns C's result.
#[inline]
pub fn c_decode_timed(bytes: &[u8]) -> i32 {
    use std::hint::black_box;
    let (mut nd, mut fmt) = (0i8, 0i8);
    let mut shape = [0i64; C_B2ND_MAX_DIM];
    let mut chunks = [0i32; C_B2ND_MAX_DIM];
    let mut blocks = [0i32; C_B2ND_MAX_DIM];
    let mut dtype: *mut c_char = ptr::null_mut();
    let n = unsafe {
        b2nd_deserialize_meta(
            black_box(bytes.as_ptr()),
            bytes.len() as i32,
            &mut nd,
            shape.as_mut_ptr(),
            chunks.as_mut_ptr(),
            blocks.as_mut_ptr(),
            &mut dtype,
            &mut fmt,
        )
    };
    black_box((&shape, &chunks, &blocks, nd, fmt));
    unsafe { libc::free(dtype.cast()) };
    n
}

/// C's serialize, for the benches: C allocates the output, freed here as the caller
/// must. Returns C's result.
#[inline]
pub fn c_encode_timed(
    shape: &[i64],
    chunkshape: &[i32],
    blockshape: &[i32],
    dtype: &std::ffi::CStr,
) -> i32 {
    let mut out: *mut u8 = ptr::null_mut();
    let n = unsafe {
        b2nd_serialize_meta(
            shape.len() as i8,
            std::hint::black_box(shape.as_ptr()),
            chunkshape.as_ptr(),
            blockshape.as_ptr(),
            dtype.as_ptr(),
            0,
            &mut out,
        )
    };
    unsafe { libc::free(out.cast()) };
    n
}
