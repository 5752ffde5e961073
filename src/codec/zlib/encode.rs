//! zlib streams (C's `compress2`: header, deflate, Adler-32) from miniz_oxide's deflate
//! at the chunk's level.

use alloc::vec::Vec;

/// Appends the zlib stream of `src` at level `clevel` (1 to 9) to `out` and returns
/// true, or false when it is longer than `maxout` bytes.
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let stream = miniz_oxide::deflate::compress_to_vec_zlib(src, clevel.min(9));
    if stream.len() > maxout {
        return false;
    }
    out.extend_from_slice(&stream);
    true
}
