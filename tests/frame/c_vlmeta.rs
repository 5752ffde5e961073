//! C-Blosc2 2.15.3 (blosc2-src) opening a frame *file* (`blosc2_schunk_open`, the path
//! python-blosc2 takes, which reads the offsets index up to the trailer), reading every
//! vlmetalayer (`blosc2_vlmeta_get`) and every chunk, optionally appending one chunk
//! first; in a forked child, so that a crash is a verdict.
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;

use blosc2_src as _;

/// The start of `blosc2_schunk` (blosc2.h of C-Blosc2 2.15.3), up to `nbytes`.
#[repr(C)]
struct SchunkPrefix {
    version: u8,
    compcode: u8,
    compcode_meta: u8,
    clevel: u8,
    splitmode: u8,
    typesize: i32,
    blocksize: i32,
    chunksize: i32,
    filters: [u8; 6],
    filters_meta: [u8; 6],
    nchunks: i64,
    current_nchunk: i64,
    nbytes: i64,
}

unsafe extern "C" {
    fn blosc2_init();
    fn blosc2_schunk_open(urlpath: *const c_char) -> *mut c_void;
    fn blosc2_schunk_free(schunk: *mut c_void) -> c_int;
    fn blosc2_vlmeta_get_names(schunk: *mut c_void, names: *mut *mut c_char) -> c_int;
    fn blosc2_vlmeta_get(
        schunk: *mut c_void,
        name: *const c_char,
        content: *mut *mut u8,
        content_len: *mut i32,
    ) -> c_int;
    fn blosc2_schunk_decompress_chunk(
        schunk: *mut c_void,
        nchunk: i64,
        dest: *mut c_void,
        nbytes: i32,
    ) -> c_int;
    fn blosc2_schunk_append_buffer(schunk: *mut c_void, src: *const c_void, nbytes: i32) -> i64;
}

/// What C made of a frame file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CRead {
    /// It opened: the vlmetalayers (name, uncompressed content) in C's order, and every
    /// chunk decompressed, concatenated.
    Opens {
        vlmeta: Vec<(String, Vec<u8>)>,
        data: Vec<u8>,
    },
    /// `blosc2_schunk_open` returned NULL, or a read failed (the step, the code).
    Refused(String),
    /// The child died (signal number) or did not answer in 20 s (0).
    Crashed(i32),
}

impl CRead {
    pub fn vlmeta(&self) -> &[(String, Vec<u8>)] {
        match self {
            CRead::Opens { vlmeta, .. } => vlmeta,
            other => panic!("C did not read the frame: {other:?}"),
        }
    }

    pub fn data(&self) -> &[u8] {
        match self {
            CRead::Opens { data, .. } => data,
            other => panic!("C did not read the frame: {other:?}"),
        }
    }
}

/// Opens the frame at `path` with C-Blosc2; with `append`, appends one chunk of the
/// frame's chunksize (bytes 0..n cycling) and closes, then opens it again to read.
pub fn c_read(path: &Path, append: bool) -> CRead {
    static INIT: std::sync::Once = std::sync::Once::new();
    INIT.call_once(|| unsafe { blosc2_init() });
    let cpath = CString::new(path.to_str().unwrap()).unwrap();
    match crate::c_ffi::child::in_child(20, || unsafe { child(&cpath, append) }) {
        Ok(answer) => decode(&answer).unwrap_or(CRead::Crashed(-1)),
        Err(signal) => CRead::Crashed(signal),
    }
}

fn refused(step: &str, code: i64) -> Vec<u8> {
    let mut out = vec![0];
    out.extend_from_slice(format!("{step}: {code}").as_bytes());
    out
}

unsafe fn child(path: &CStr, append: bool) -> Vec<u8> {
    unsafe {
        let mut schunk = blosc2_schunk_open(path.as_ptr());
        if schunk.is_null() {
            return refused("blosc2_schunk_open", 0);
        }
        if append {
            let p = &*(schunk as *const SchunkPrefix);
            let n = p.chunksize.max(p.typesize).max(1);
            let src: Vec<u8> = (0..n).map(|i| i as u8).collect();
            let rc = blosc2_schunk_append_buffer(schunk, src.as_ptr() as *const c_void, n);
            if rc < 0 {
                return refused("blosc2_schunk_append_buffer", rc);
            }
            blosc2_schunk_free(schunk);
            schunk = blosc2_schunk_open(path.as_ptr());
            if schunk.is_null() {
                return refused("blosc2_schunk_open after append", 0);
            }
        }
        let mut names = vec![std::ptr::null_mut::<c_char>(); 8192];
        let count = blosc2_vlmeta_get_names(schunk, names.as_mut_ptr());
        if count < 0 {
            return refused("blosc2_vlmeta_get_names", i64::from(count));
        }
        let mut out = vec![1];
        out.extend_from_slice(&(count as u32).to_be_bytes());
        for name in &names[..count as usize] {
            let mut content: *mut u8 = std::ptr::null_mut();
            let mut len = 0i32;
            let rc = blosc2_vlmeta_get(schunk, *name, &mut content, &mut len);
            if rc < 0 {
                return refused("blosc2_vlmeta_get", i64::from(rc));
            }
            let name = CStr::from_ptr(*name).to_bytes();
            out.extend_from_slice(&(name.len() as u32).to_be_bytes());
            out.extend_from_slice(name);
            out.extend_from_slice(&(len as u32).to_be_bytes());
            if len > 0 {
                out.extend_from_slice(std::slice::from_raw_parts(content, len as usize));
            }
            libc::free(content as *mut c_void);
        }
        let p = &*(schunk as *const SchunkPrefix);
        let mut data = Vec::new();
        let mut dest = vec![0u8; p.chunksize.max(1) as usize];
        for i in 0..p.nchunks {
            let rc = blosc2_schunk_decompress_chunk(
                schunk,
                i,
                dest.as_mut_ptr() as *mut c_void,
                dest.len() as i32,
            );
            if rc < 0 {
                return refused("blosc2_schunk_decompress_chunk", i64::from(rc));
            }
            data.extend_from_slice(&dest[..rc as usize]);
        }
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        out.extend_from_slice(&data);
        blosc2_schunk_free(schunk);
        out
    }
}

fn decode(mut b: &[u8]) -> Option<CRead> {
    use crate::c_ffi::child::{len, take};
    match *take(&mut b, 1)?.first()? {
        0 => Some(CRead::Refused(String::from_utf8_lossy(b).into_owned())),
        _ => {
            let n = len(&mut b)?;
            let mut vlmeta = Vec::new();
            for _ in 0..n {
                let l = len(&mut b)?;
                let name = String::from_utf8(take(&mut b, l)?.to_vec()).ok()?;
                let l = len(&mut b)?;
                vlmeta.push((name, take(&mut b, l)?.to_vec()));
            }
            let l = len(&mut b)?;
            let data = take(&mut b, l)?.to_vec();
            Some(CRead::Opens { vlmeta, data })
        }
    }
}
