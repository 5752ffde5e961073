//! C-Blosc2 3.3.5 (python-blosc2 4.14.1's `libblosc2.so`, loaded with `dlopen` in a
//! forked child) opening arrays we wrote: `b2nd_open`, the array's shapes as its struct
//! holds them, `b2nd_to_cbuffer` of all its elements, and `blosc2_vlmeta_get` of named
//! vlmeta entries. Without the library the tests say so and check the rest.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::PathBuf;

#[path = "../compress/c335.rs"]
#[allow(dead_code)]
mod c335;

use c335::child;
use c335::lib335::Library;

/// What C-Blosc2 made of one array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CRead {
    /// `b2nd_open`'s code when it failed (0 when it opened).
    pub open: i32,
    /// shape, chunkshape and blockshape from `b2nd_array_t`.
    pub shapes: [Vec<i64>; 3],
    /// `b2nd_to_cbuffer` of `nbytes` bytes, or its error code.
    pub values: Result<Vec<u8>, i32>,
    /// Each asked vlmeta entry's content (msgpack), or its error code.
    pub vlmeta: Vec<Result<Vec<u8>, i32>>,
}

/// One array for C to read: its path, ndim, bytes, and the vlmeta names to fetch.
pub struct Ask {
    pub path: PathBuf,
    pub ndim: usize,
    pub nbytes: usize,
    pub vlmeta: Vec<String>,
}

type Open = unsafe extern "C" fn(*const c_char, *mut *mut c_void) -> c_int;
type ToCbuffer = unsafe extern "C" fn(*const c_void, *mut c_void, i64) -> c_int;
type Free = unsafe extern "C" fn(*mut c_void) -> c_int;
type VlmetaGet = unsafe extern "C" fn(*mut c_void, *const c_char, *mut *mut u8, *mut i32) -> c_int;

/// Offsets in `b2nd_array_t` (B2ND_MAX_DIM 16): `sc`, `shape[16]`, `chunkshape[16]`,
/// `extshape[16]`, `blockshape[16]`.
const SHAPE_AT: usize = 8;
const CHUNKSHAPE_AT: usize = SHAPE_AT + 16 * 8;
const BLOCKSHAPE_AT: usize = CHUNKSHAPE_AT + 16 * 4 + 16 * 8;

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

fn put_result(out: &mut Vec<u8>, r: Result<Vec<u8>, i32>) {
    match r {
        Ok(bytes) => {
            out.push(0);
            put(out, &bytes);
        }
        Err(rc) => {
            out.push(1);
            put(out, &rc.to_le_bytes());
        }
    }
}

fn get_result(b: &mut &[u8]) -> Result<Vec<u8>, i32> {
    let tag = b[0];
    *b = &b[1..];
    let bytes = get(b).to_vec();
    match tag {
        0 => Ok(bytes),
        _ => Err(i32::from_le_bytes(bytes.try_into().unwrap())),
    }
}

/// One array read in the child.
unsafe fn read_one(lib: &Library, ask: &Ask, out: &mut Vec<u8>) {
    let open: Open = unsafe { lib.symbol("b2nd_open") };
    let to_cbuffer: ToCbuffer = unsafe { lib.symbol("b2nd_to_cbuffer") };
    let free: Free = unsafe { lib.symbol("b2nd_free") };
    let vlmeta_get: VlmetaGet = unsafe { lib.symbol("blosc2_vlmeta_get") };
    let path = CString::new(ask.path.to_str().unwrap()).unwrap();
    let mut array: *mut c_void = std::ptr::null_mut();
    let rc = unsafe { open(path.as_ptr(), &mut array) };
    out.extend_from_slice(&rc.to_le_bytes());
    if rc < 0 || array.is_null() {
        return;
    }
    let base = array as *const u8;
    for (at, width) in [(SHAPE_AT, 8), (CHUNKSHAPE_AT, 4), (BLOCKSHAPE_AT, 4)] {
        for d in 0..ask.ndim {
            let v: i64 = unsafe {
                match width {
                    8 => std::ptr::read_unaligned(base.add(at + 8 * d) as *const i64),
                    _ => i64::from(std::ptr::read_unaligned(base.add(at + 4 * d) as *const i32)),
                }
            };
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    // A pattern, so that bytes C does not write show.
    let mut buf = vec![0xa5u8; ask.nbytes];
    let rc = unsafe { to_cbuffer(array, buf.as_mut_ptr() as *mut c_void, ask.nbytes as i64) };
    put_result(out, if rc < 0 { Err(rc) } else { Ok(buf) });
    let schunk = unsafe { *(array as *const *mut c_void) };
    for name in &ask.vlmeta {
        let cname = CString::new(name.as_str()).unwrap();
        let mut content: *mut u8 = std::ptr::null_mut();
        let mut len: i32 = 0;
        let rc = unsafe { vlmeta_get(schunk, cname.as_ptr(), &mut content, &mut len) };
        let r = if rc < 0 || content.is_null() {
            Err(rc)
        } else {
            let bytes = unsafe { std::slice::from_raw_parts(content, len as usize) }.to_vec();
            unsafe { libc::free(content as *mut c_void) };
            Ok(bytes)
        };
        put_result(out, r);
    }
    unsafe { free(array) };
}

/// C-Blosc2 3.3.5's reading of each array, from one forked child; `None` without the
/// library.
pub fn c_reads(asks: &[Ask]) -> Option<Vec<CRead>> {
    let path = c335::library()?;
    let answer = child::in_child(600, || {
        let lib = Library::open(&path).unwrap_or_else(|why| panic!("{why}"));
        let mut out = Vec::new();
        for ask in asks {
            unsafe { read_one(&lib, ask, &mut out) };
        }
        out
    })
    .unwrap_or_else(|signal| panic!("C-Blosc2 3.3.5's child died of signal {signal}"));
    let mut b = &answer[..];
    let mut all = Vec::new();
    for ask in asks {
        let open = i32::from_le_bytes(b[..4].try_into().unwrap());
        b = &b[4..];
        if open < 0 {
            all.push(CRead {
                open,
                shapes: Default::default(),
                values: Err(open),
                vlmeta: Vec::new(),
            });
            continue;
        }
        let mut shapes: [Vec<i64>; 3] = Default::default();
        for s in &mut shapes {
            for _ in 0..ask.ndim {
                s.push(i64::from_le_bytes(b[..8].try_into().unwrap()));
                b = &b[8..];
            }
        }
        let values = get_result(&mut b);
        let vlmeta = ask.vlmeta.iter().map(|_| get_result(&mut b)).collect();
        all.push(CRead {
            open,
            shapes,
            values,
            vlmeta,
        });
    }
    Some(all)
}
