//! C-Blosc2's frame reader (`blosc2_schunk_from_buffer`, then the metalayers as
//! `blosc2_meta_get` returns them) from the static library of `blosc2-src =0.1.4`
//! (C-Blosc2 2.15.3), each call in a forked child so that a crash or a hang of C on
//! hostile input is a verdict, not the end of the test run.
#![allow(dead_code)]

use std::ffi::{c_char, c_int, c_void, CStr};

/// `blosc2_metalayer` (blosc2.h).
#[repr(C)]
struct Blosc2Metalayer {
    name: *mut c_char,
    content: *mut u8,
    content_len: i32,
}

/// The start of `blosc2_schunk` (blosc2.h of C-Blosc2 2.15.3), up to `nmetalayers`.
#[repr(C)]
struct Blosc2SchunkPrefix {
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
    cbytes: i64,
    data: *mut *mut u8,
    data_len: usize,
    storage: *mut c_void,
    frame: *mut c_void,
    cctx: *mut c_void,
    dctx: *mut c_void,
    metalayers: [*mut Blosc2Metalayer; 16],
    nmetalayers: u16,
}

unsafe extern "C" {
    fn blosc2_init();
    fn blosc2_schunk_from_buffer(cframe: *mut u8, len: i64, copy: bool) -> *mut c_void;
    fn blosc2_schunk_free(schunk: *mut c_void) -> c_int;
}

/// What C-Blosc2 made of a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CFrame {
    /// `blosc2_schunk_from_buffer` returned a super-chunk; its metalayers (name as C
    /// holds it, up to the first NUL, and content), in header order.
    Opens(Vec<(Vec<u8>, Vec<u8>)>),
    /// It returned NULL.
    Refused,
    /// The child died (signal number) or did not answer within 20 s (0).
    Crashed(i32),
}

impl CFrame {
    /// The content `blosc2_meta_get(name)` returns: the first metalayer so named.
    pub fn meta_get(&self, name: &[u8]) -> Option<&[u8]> {
        match self {
            CFrame::Opens(layers) => layers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, c)| c.as_slice()),
            _ => None,
        }
    }
}

/// Opens `frame` with C-Blosc2 (copy = true, as python-blosc2's `schunk_from_cframe`),
/// in a forked child.
pub fn c_open_frame(frame: &[u8]) -> CFrame {
    static INIT: std::sync::Once = std::sync::Once::new();
    INIT.call_once(|| unsafe { blosc2_init() });
    match super::child::in_child(20, || unsafe { child_answer(frame) }) {
        Ok(answer) => decode_answer(&answer).unwrap_or(CFrame::Crashed(-1)),
        Err(signal) => CFrame::Crashed(signal),
    }
}

/// The child's answer: `0` (refused), or `1`, a count, then per metalayer a 4-byte name
/// length, the name, a 4-byte content length, the content.
unsafe fn child_answer(frame: &[u8]) -> Vec<u8> {
    let mut copy = frame.to_vec();
    let schunk = unsafe { blosc2_schunk_from_buffer(copy.as_mut_ptr(), copy.len() as i64, true) };
    if schunk.is_null() {
        return vec![0];
    }
    let prefix = unsafe { &*(schunk as *const Blosc2SchunkPrefix) };
    let n = usize::from(prefix.nmetalayers).min(16);
    let mut out = vec![1, n as u8];
    for m in &prefix.metalayers[..n] {
        let m = unsafe { &**m };
        let name = unsafe { CStr::from_ptr(m.name) }.to_bytes();
        let len = usize::try_from(m.content_len).unwrap_or(0);
        let content = if len == 0 {
            &[][..]
        } else {
            unsafe { std::slice::from_raw_parts(m.content, len) }
        };
        out.extend_from_slice(&(name.len() as u32).to_be_bytes());
        out.extend_from_slice(name);
        out.extend_from_slice(&(content.len() as u32).to_be_bytes());
        out.extend_from_slice(content);
    }
    unsafe { blosc2_schunk_free(schunk) };
    out
}

fn decode_answer(mut b: &[u8]) -> Option<CFrame> {
    use super::child::{len, take};
    match *take(&mut b, 1)?.first()? {
        0 => Some(CFrame::Refused),
        _ => {
            let n = *take(&mut b, 1)?.first()?;
            let mut layers = Vec::new();
            for _ in 0..n {
                let l = len(&mut b)?;
                let name = take(&mut b, l)?.to_vec();
                let l = len(&mut b)?;
                layers.push((name, take(&mut b, l)?.to_vec()));
            }
            Some(CFrame::Opens(layers))
        }
    }
}
