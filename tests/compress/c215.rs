//! C-Blosc2 2.15.3 (blosc2-src, linked into the tests; BloscLZ, LZ4, LZ4HC and zstd
//! compiled in, not zlib): its `blosc2_decompress` of our chunks, in a forked child.
//! Runs on any machine, where the 3.3.5 library of `c335.rs` may be missing.

use std::ffi::c_void;

use blosc2_src as c;

use super::c335::child;

/// C's decompression of each chunk (of `nbytes[i]` bytes), or its error code.
pub fn decode_all(chunks: &[(Vec<u8>, usize)]) -> Vec<Result<Vec<u8>, i32>> {
    let answer = child::in_child(600, || {
        unsafe { c::blosc2_init() };
        let mut out = Vec::new();
        for (chunk, nbytes) in chunks {
            let mut dest = vec![0u8; *nbytes];
            let rc = unsafe {
                c::blosc2_decompress(
                    chunk.as_ptr() as *const c_void,
                    chunk.len() as i32,
                    dest.as_mut_ptr() as *mut c_void,
                    *nbytes as i32,
                )
            };
            out.extend_from_slice(&rc.to_le_bytes());
            if rc >= 0 {
                out.extend_from_slice(&dest[..rc as usize]);
            }
        }
        out
    })
    .unwrap_or_else(|signal| panic!("C-Blosc2 2.15.3's child died of signal {signal}"));
    let mut b = &answer[..];
    chunks
        .iter()
        .map(|_| {
            let rc = i32::from_le_bytes(b[..4].try_into().unwrap());
            b = &b[4..];
            if rc < 0 {
                return Err(rc);
            }
            let bytes = b[..rc as usize].to_vec();
            b = &b[rc as usize..];
            Ok(bytes)
        })
        .collect()
}
