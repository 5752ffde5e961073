//! LZ4HC: LZ4 blocks searched harder for longer matches.

use alloc::vec::Vec;

/// Appends the LZ4 block of `src` to `out` and returns true, or false when it is longer
/// than `maxout` bytes.
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    super::encode::compress(clevel, src, maxout, out)
}
