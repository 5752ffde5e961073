//! libzstd 1.5.6 (inside blosc2-src's static library) asked directly about the zstd
//! streams of a chunk, in forked children as C-Blosc2 asks it (`ZSTD_decompressDCtx`, or
//! `ZSTD_decompress_usingDDict` with the chunk's dictionary, into exactly the block's
//! bytes): its verdict and its error's name, the reason C-Blosc2 refuses a zstd chunk.

use std::ffi::{c_char, c_uint, c_void, CStr};

unsafe extern "C" {
    fn ZSTD_createDCtx() -> *mut c_void;
    fn ZSTD_decompressDCtx(
        dctx: *mut c_void,
        dst: *mut c_void,
        dst_capacity: usize,
        src: *const c_void,
        src_size: usize,
    ) -> usize;
    fn ZSTD_createDDict(dict: *const c_void, dict_size: usize) -> *mut c_void;
    fn ZSTD_decompress_usingDDict(
        dctx: *mut c_void,
        dst: *mut c_void,
        dst_capacity: usize,
        src: *const c_void,
        src_size: usize,
        ddict: *const c_void,
    ) -> usize;
    fn ZSTD_isError(code: usize) -> c_uint;
    fn ZSTD_getErrorName(code: usize) -> *const c_char;
}

/// One zstd stream of a chunk: the frame, the bytes its block needs, the dictionary.
#[derive(Debug, Clone)]
pub struct Stream {
    /// Where the frame starts in the chunk (after its csize).
    pub at: usize,
    pub frame: Vec<u8>,
    pub neblock: usize,
    pub dict: Option<Vec<u8>>,
}

/// What libzstd makes of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZVerdict {
    /// The bytes it wrote (its return value's worth).
    Ok(Vec<u8>),
    /// `ZSTD_getErrorName`.
    Err(String),
    /// The child died.
    Crash,
}

fn le_i32(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The zstd streams of a Blosc2 chunk (extended header, compressed blocks), in the
/// order C decodes them, as far as the chunk can be walked; streams stored as they are
/// (csize = neblock), runs and zeros are skipped, as C does not hand them to libzstd.
pub fn streams(chunk: &[u8]) -> Vec<Stream> {
    let mut out = Vec::new();
    let (Some(nbytes), Some(blocksize)) = (le_i32(chunk, 4), le_i32(chunk, 8)) else {
        return out;
    };
    if chunk.len() < 32 || nbytes <= 0 || blocksize <= 0 || chunk[2] & 0x05 != 0x05 {
        return out;
    }
    let (nbytes, blocksize) = (nbytes as usize, blocksize as usize);
    let typesize = usize::from(chunk[3]).max(1);
    let dont_split = chunk[2] & 0x10 != 0;
    let nblocks = nbytes.div_ceil(blocksize);
    let leftover = nbytes % blocksize;
    let bstarts_end = 32 + 4 * nblocks;
    let dict = if chunk[31] & 0x01 != 0 {
        let Some(size) = le_i32(chunk, bstarts_end) else {
            return out;
        };
        let Some(d) = chunk.get(bstarts_end + 4..bstarts_end + 4 + size.max(0) as usize) else {
            return out;
        };
        Some(d.to_vec())
    } else {
        None
    };
    for block in 0..nblocks {
        let Some(start) = le_i32(chunk, 32 + 4 * block) else {
            return out;
        };
        let last = block + 1 == nblocks && leftover > 0;
        let bsize = if last { leftover } else { blocksize };
        let nstreams = if !dont_split && !last { typesize } else { 1 };
        let neblock = bsize / nstreams;
        let mut at = start.max(0) as usize;
        for _ in 0..nstreams {
            let Some(csize) = le_i32(chunk, at) else {
                return out;
            };
            if csize <= 0 {
                at += 4 + usize::from(csize < 0);
                continue;
            }
            let Some(frame) = chunk.get(at + 4..at + 4 + csize as usize) else {
                return out;
            };
            if csize as usize != neblock {
                out.push(Stream {
                    at: at + 4,
                    frame: frame.to_vec(),
                    neblock,
                    dict: dict.clone(),
                });
            }
            at += 4 + csize as usize;
        }
    }
    out
}

/// libzstd's verdict on each stream, in forked children (a new child after a crash).
pub fn decompress_all(streams: &[Stream]) -> Vec<ZVerdict> {
    let answers = crate::children::answers(streams, || {
        let dctx = unsafe { ZSTD_createDCtx() };
        Box::new(move |s: &Stream| unsafe {
            let mut dest = vec![0u8; s.neblock];
            let code = match &s.dict {
                Some(d) => {
                    let ddict = ZSTD_createDDict(d.as_ptr().cast(), d.len());
                    ZSTD_decompress_usingDDict(
                        dctx,
                        dest.as_mut_ptr().cast(),
                        dest.len(),
                        s.frame.as_ptr().cast(),
                        s.frame.len(),
                        ddict,
                    )
                }
                None => ZSTD_decompressDCtx(
                    dctx,
                    dest.as_mut_ptr().cast(),
                    dest.len(),
                    s.frame.as_ptr().cast(),
                    s.frame.len(),
                ),
            };
            if ZSTD_isError(code) != 0 {
                let name = CStr::from_ptr(ZSTD_getErrorName(code));
                (1u8, name.to_bytes().to_vec())
            } else {
                dest.truncate(code);
                (0u8, dest)
            }
        })
    });
    answers
        .into_iter()
        .map(|answer| match answer {
            Some((0, bytes)) => ZVerdict::Ok(bytes),
            Some((_, name)) => ZVerdict::Err(String::from_utf8_lossy(&name).into_owned()),
            None => ZVerdict::Crash,
        })
        .collect()
}

/// Whether a compressed block of the zstd frame holds its literals in 4 Huffman
/// streams (literals block type 2 or 3, size format 1 to 3: RFC 8878, 3.1.1.3.1.1).
pub fn has_four_huffman_streams(frame: &[u8]) -> bool {
    let Some(&descriptor) = frame.get(4) else {
        return false;
    };
    let single = descriptor & 0x20 != 0;
    let did = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let fcs = [usize::from(single), 2, 4, 8][usize::from(descriptor >> 6)];
    let mut at = 5 + usize::from(!single) + did + fcs;
    while let Some(head) = frame.get(at..at + 3) {
        let head = u32::from_le_bytes([head[0], head[1], head[2], 0]);
        let (kind, size) = ((head >> 1) & 3, (head >> 3) as usize);
        if kind == 2
            && let Some(&lits) = frame.get(at + 3)
            && lits & 3 >= 2
            && (lits >> 2) & 3 != 0
        {
            return true;
        }
        at += 3 + if kind == 1 { 1 } else { size };
        if head & 1 != 0 {
            break;
        }
    }
    false
}
