//! LZ4 blocks (the format `LZ4_decompress_safe` reads), compressed by lz4_flex's safe
//! block compressor.

use alloc::vec::Vec;

/// Appends the LZ4 block of `src` to `out` and returns true, or false when it is longer
/// than `maxout` bytes.
pub(crate) fn compress(_clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let block = lz4_flex::block::compress(src);
    if block.len() > maxout {
        return false;
    }
    out.extend_from_slice(&block);
    true
}
