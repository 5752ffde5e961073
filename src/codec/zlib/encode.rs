//! zlib streams (C's `compress2`: header, deflate, Adler-32) at the chunk's level, as
//! C-Blosc2 passes it (`zlib_wrap_compress`): from zlib-rs (zlib-ng's deflate, the one
//! C-Blosc2 3.3.5 links) with the `zlib-rs` feature, else from miniz_oxide.

use alloc::vec::Vec;

/// Appends the zlib stream of `src` at level `clevel` (1 to 9) to `out` and returns
/// true, or false when it is longer than `maxout` bytes.
#[cfg(not(feature = "zlib-rs"))]
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let stream = miniz_oxide::deflate::compress_to_vec_zlib(src, clevel.min(9));
    if stream.len() > maxout {
        return false;
    }
    out.extend_from_slice(&stream);
    true
}

/// Appends the zlib stream of `src` at level `clevel` (1 to 9) to `out` and returns
/// true, or false when it is longer than `maxout` bytes.
#[cfg(feature = "zlib-rs")]
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    use zlib_rs::{DeflateConfig, ReturnCode};
    let base = out.len();
    out.resize(base + maxout, 0);
    let config = DeflateConfig::new(i32::from(clevel.min(9)));
    let (stream, rc) = zlib_rs::compress_slice(&mut out[base..], src, config);
    let n = stream.len();
    out.truncate(base + if rc == ReturnCode::Ok { n } else { 0 });
    rc == ReturnCode::Ok
}
