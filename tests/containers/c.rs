//! C-Blosc2 2.15.3 (blosc2-src), for these tests only: it reads the chunks of the
//! python-written fixtures (what our byte-range reads must equal), rewrites a store's
//! `estore_metadata` vlmeta (hostile embed maps, in frames C wrote), and writes the big
//! 1 MiB arrays of the counting-reader bundle. Only valid frames are handed to C.
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CString};
use std::ptr;

use blosc2_src as _;

#[repr(C)]
struct Storage {
    contiguous: bool,
    urlpath: *mut c_char,
    cparams: *mut c_void,
    dparams: *mut c_void,
    io: *mut c_void,
}

unsafe extern "C" {
    fn blosc2_init();
    fn blosc2_schunk_new(storage: *mut Storage) -> *mut c_void;
    fn blosc2_schunk_from_buffer(cframe: *mut u8, len: i64, copy: bool) -> *mut c_void;
    fn blosc2_schunk_free(schunk: *mut c_void) -> c_int;
    fn blosc2_schunk_to_buffer(
        schunk: *mut c_void,
        cframe: *mut *mut u8,
        needs_free: *mut bool,
    ) -> i64;
    fn blosc2_schunk_append_buffer(schunk: *mut c_void, src: *const c_void, nbytes: i32) -> i64;
    fn blosc2_schunk_decompress_chunk(
        schunk: *mut c_void,
        nchunk: i64,
        dest: *mut c_void,
        nbytes: i32,
    ) -> c_int;
    fn blosc2_meta_add(
        schunk: *mut c_void,
        name: *const c_char,
        content: *const u8,
        len: i32,
    ) -> c_int;
    fn blosc2_vlmeta_update(
        schunk: *mut c_void,
        name: *const c_char,
        content: *const u8,
        len: i32,
        cparams: *mut c_void,
    ) -> c_int;
    fn blosc2_vlmeta_add(
        schunk: *mut c_void,
        name: *const c_char,
        content: *const u8,
        len: i32,
        cparams: *mut c_void,
    ) -> c_int;
    fn blosc2_schunk_fill_special(
        schunk: *mut c_void,
        nitems: i64,
        special: c_int,
        chunksize: i32,
    ) -> i64;
    fn free(p: *mut c_void);
}

/// A super-chunk C holds (a copy of the frame it came from).
pub struct Schunk(*mut c_void);

impl Drop for Schunk {
    fn drop(&mut self) {
        unsafe { blosc2_schunk_free(self.0) };
    }
}

impl Schunk {
    /// C opens `frame` (a valid frame: C is never handed hostile bytes here).
    pub fn from_frame(frame: &[u8]) -> Schunk {
        let mut copy = frame.to_vec();
        unsafe {
            blosc2_init();
            let s = blosc2_schunk_from_buffer(copy.as_mut_ptr(), copy.len() as i64, true);
            assert!(!s.is_null(), "C refuses the frame");
            Schunk(s)
        }
    }

    /// A new in-memory contiguous super-chunk with C's default parameters.
    pub fn new() -> Schunk {
        let mut storage = Storage {
            contiguous: true,
            urlpath: ptr::null_mut(),
            cparams: ptr::null_mut(),
            dparams: ptr::null_mut(),
            io: ptr::null_mut(),
        };
        unsafe {
            blosc2_init();
            let s = blosc2_schunk_new(&mut storage);
            assert!(!s.is_null());
            Schunk(s)
        }
    }

    /// Chunk `n` decompressed by C, or `None` past the last one.
    pub fn chunk(&self, n: i64, max: usize) -> Option<Vec<u8>> {
        let mut out = vec![0u8; max];
        let rc = unsafe {
            blosc2_schunk_decompress_chunk(self.0, n, out.as_mut_ptr().cast(), max as i32)
        };
        (rc >= 0).then(|| {
            out.truncate(rc as usize);
            out
        })
    }

    pub fn append(&mut self, data: &[u8]) {
        let rc =
            unsafe { blosc2_schunk_append_buffer(self.0, data.as_ptr().cast(), data.len() as i32) };
        assert!(rc >= 0, "append: {rc}");
    }

    /// Fills with `nitems` special items (1 zeros, 2 NaNs, 4 uninit) in chunks of
    /// `chunksize` bytes: chunks C records as special values in the offsets index.
    pub fn fill_special(&mut self, nitems: i64, special: i32, chunksize: i32) {
        let rc = unsafe { blosc2_schunk_fill_special(self.0, nitems, special, chunksize) };
        assert!(rc >= 0, "fill_special: {rc}");
    }

    pub fn meta_add(&mut self, name: &str, content: &[u8]) {
        let name = CString::new(name).unwrap();
        let rc = unsafe {
            blosc2_meta_add(
                self.0,
                name.as_ptr(),
                content.as_ptr(),
                content.len() as i32,
            )
        };
        assert!(rc >= 0, "meta_add: {rc}");
    }

    /// Sets vlmetalayer `name` to `content` (compressed with C's defaults).
    pub fn vlmeta_set(&mut self, name: &str, content: &[u8]) {
        let cname = CString::new(name).unwrap();
        let rc = unsafe {
            blosc2_vlmeta_update(
                self.0,
                cname.as_ptr(),
                content.as_ptr(),
                content.len() as i32,
                ptr::null_mut(),
            )
        };
        if rc < 0 {
            let rc = unsafe {
                blosc2_vlmeta_add(
                    self.0,
                    cname.as_ptr(),
                    content.as_ptr(),
                    content.len() as i32,
                    ptr::null_mut(),
                )
            };
            assert!(rc >= 0, "vlmeta_add: {rc}");
        }
    }

    /// The frame C serializes.
    pub fn to_frame(&self) -> Vec<u8> {
        let mut p: *mut u8 = ptr::null_mut();
        let mut needs_free = false;
        unsafe {
            let len = blosc2_schunk_to_buffer(self.0, &mut p, &mut needs_free);
            assert!(len > 0 && !p.is_null(), "to_buffer: {len}");
            let out = std::slice::from_raw_parts(p, len as usize).to_vec();
            if needs_free {
                free(p.cast());
            }
            out
        }
    }
}
