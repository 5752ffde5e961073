//! LZ4 blocks against LZ4 1.10.0 itself (inside blosc2-src's static library):
//! `LZ4_decompress_safe`, or `LZ4_decompress_safe_usingDict` with a dictionary, run in
//! forked children as C-Blosc2 runs them (`lz4_wrap_decompress`: into exactly the
//! block's bytes, anything but that many written is a refusal). Each block goes through
//! our decoder inside a one-stream Blosc2 chunk: where C writes all the bytes we give the
//! same; where it writes fewer we refuse with that count; where it refuses we refuse at
//! the same input byte (C's negative result). The one exception, match offset 0, which C
//! copies from the bytes it is writing, is counted and refused.

use std::ffi::{c_char, c_int, c_void};

use b2nd_meta::chunk::{self, ChunkErrorKind};

unsafe extern "C" {
    fn LZ4_decompress_safe(src: *const c_char, dst: *mut c_char, csize: c_int, cap: c_int)
        -> c_int;
    fn LZ4_decompress_safe_usingDict(
        src: *const c_char,
        dst: *mut c_char,
        csize: c_int,
        cap: c_int,
        dict: *const c_char,
        dict_size: c_int,
    ) -> c_int;
    fn LZ4_compress_default(src: *const c_char, dst: *mut c_char, n: c_int, cap: c_int) -> c_int;
    fn LZ4_compress_HC(
        src: *const c_char,
        dst: *mut c_char,
        n: c_int,
        cap: c_int,
        level: c_int,
    ) -> c_int;
    fn LZ4_createStream() -> *mut c_void;
    fn LZ4_freeStream(stream: *mut c_void) -> c_int;
    fn LZ4_loadDict(stream: *mut c_void, dict: *const c_char, size: c_int) -> c_int;
    fn LZ4_compress_fast_continue(
        stream: *mut c_void,
        src: *const c_char,
        dst: *mut c_char,
        n: c_int,
        cap: c_int,
        acceleration: c_int,
    ) -> c_int;
}

/// One LZ4 block to decode: the block, the bytes it must fill, the dictionary.
#[derive(Debug, Clone)]
pub struct Case {
    pub block: Vec<u8>,
    pub neblock: usize,
    pub dict: Vec<u8>,
}

/// What C makes of a block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lz4Verdict {
    /// The bytes written (C's positive result): all of them when it is `neblock`.
    Wrote(Vec<u8>),
    /// C's refusal: the input byte where it stopped (`-result - 1`).
    Refused(usize),
    /// The child died.
    Crash,
}

/// C's verdict on each case, in forked children.
pub fn c_verdicts(cases: &[Case]) -> Vec<Lz4Verdict> {
    crate::children::answers(cases, || {
        Box::new(|case: &Case| {
            let mut dest = vec![0u8; case.neblock];
            let rc = unsafe {
                if case.dict.is_empty() {
                    LZ4_decompress_safe(
                        case.block.as_ptr() as *const c_char,
                        dest.as_mut_ptr() as *mut c_char,
                        case.block.len() as c_int,
                        case.neblock as c_int,
                    )
                } else {
                    LZ4_decompress_safe_usingDict(
                        case.block.as_ptr() as *const c_char,
                        dest.as_mut_ptr() as *mut c_char,
                        case.block.len() as c_int,
                        case.neblock as c_int,
                        case.dict.as_ptr() as *const c_char,
                        case.dict.len() as c_int,
                    )
                }
            };
            if rc < 0 {
                (1, (-(rc + 1)).to_le_bytes().to_vec())
            } else {
                dest.truncate(rc as usize);
                (0, dest)
            }
        })
    })
    .into_iter()
    .map(|answer| match answer {
        Some((0, bytes)) => Lz4Verdict::Wrote(bytes),
        Some((_, at)) => Lz4Verdict::Refused(i32::from_le_bytes(at.try_into().unwrap()) as usize),
        None => Lz4Verdict::Crash,
    })
    .collect()
}

/// A Blosc2 chunk of one block and one LZ4 stream (extended header, no filters, blocks
/// not split), with the dictionary section when `dict` is not empty.
pub fn chunk_of(case: &Case) -> Vec<u8> {
    let n = case.neblock as i32;
    let dict_section = if case.dict.is_empty() {
        0
    } else {
        4 + case.dict.len()
    };
    let cbytes = 32 + 4 + dict_section + 4 + case.block.len();
    let mut c = vec![5, 1, 0x35, 1]; // version 5, LZ4 (1 << 5) | don't split | extended
    c.extend(n.to_le_bytes());
    c.extend(n.to_le_bytes()); // blocksize
    c.extend((cbytes as i32).to_le_bytes());
    c.extend([0; 15]); // no filters, codec meta
    c.push(u8::from(!case.dict.is_empty())); // BLOSC2_USEDICT
    c.extend(((36 + dict_section) as i32).to_le_bytes());
    if !case.dict.is_empty() {
        c.extend((case.dict.len() as i32).to_le_bytes());
        c.extend(&case.dict);
    }
    c.extend((case.block.len() as i32).to_le_bytes());
    c.extend(&case.block);
    c
}

/// Whether our decoder agrees with C on `case`: `Ok(true)` for the one known
/// difference (offset 0), `Err` saying how it disagrees.
pub fn agrees(case: &Case, c: &Lz4Verdict) -> Result<bool, String> {
    let ours = chunk::decode(&chunk_of(case), &chunk::DecodeBudget::default());
    if let Err(e) = &ours
        && let ChunkErrorKind::Lz4 {
            found: 0, limit: 1, ..
        } = e.kind()
        && e.to_string()
            .starts_with("expected a match offset of at least")
    {
        return Ok(true);
    }
    let same = match (&ours, c) {
        (Ok(out), Lz4Verdict::Wrote(bytes)) => out == bytes,
        (Err(e), Lz4Verdict::Wrote(bytes)) => {
            bytes.len() != case.neblock
                && *e.kind()
                    == ChunkErrorKind::StreamLength {
                        expected: case.neblock as u64,
                        found: bytes.len() as u64,
                    }
        }
        (Err(e), Lz4Verdict::Refused(at)) => {
            matches!(e.kind(), ChunkErrorKind::Lz4 { stream_offset, .. } if *stream_offset == *at as u64)
        }
        _ => false,
    };
    if same {
        Ok(false)
    } else {
        Err(format!(
            "ours {:?}, C {c:?}",
            ours.as_ref().map(|v| v.len()).map_err(|e| e.to_string())
        ))
    }
}

/// C's LZ4 block of `src` (`LZ4_compress_HC` at `level`, `LZ4_compress_default` at 0),
/// with `dict` loaded first when it is not empty (the fast compressor).
pub fn c_block(src: &[u8], level: i32, dict: &[u8]) -> Vec<u8> {
    let mut dst = vec![0u8; src.len() + src.len() / 255 + 64];
    let (s, d, n, cap) = (
        src.as_ptr() as *const c_char,
        dst.as_mut_ptr() as *mut c_char,
        src.len() as c_int,
        dst.len() as c_int,
    );
    let written = unsafe {
        if !dict.is_empty() {
            let stream = LZ4_createStream();
            LZ4_loadDict(stream, dict.as_ptr() as *const c_char, dict.len() as c_int);
            let w = LZ4_compress_fast_continue(stream, s, d, n, cap, 1);
            LZ4_freeStream(stream);
            w
        } else if level == 0 {
            LZ4_compress_default(s, d, n, cap)
        } else {
            LZ4_compress_HC(s, d, n, cap, level)
        }
    };
    assert!(written > 0, "LZ4 refused to compress");
    dst.truncate(written as usize);
    dst
}
