//! zlib (miniz_oxide) streams, pure Rust: each fills exactly one stream of `neblock`
//! bytes and never writes past it.

use alloc::string::ToString;

use crate::blosc::Codec;
use crate::chunk::ChunkErrorKind;

fn stream_length(expected: usize, found: usize) -> ChunkErrorKind {
    ChunkErrorKind::StreamLength {
        expected: expected as u64,
        found: found as u64,
    }
}

/// A zlib stream (header, deflate, Adler-32: C's `uncompress`) filling `dest` exactly.
pub(crate) fn zlib(src: &[u8], dest: &mut [u8]) -> Result<(), ChunkErrorKind> {
    let neblock = dest.len();
    match miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(src, neblock) {
        Ok(bytes) if bytes.len() == neblock => {
            dest.copy_from_slice(&bytes);
            Ok(())
        }
        Ok(bytes) => Err(stream_length(neblock, bytes.len())),
        Err(e) if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
            Err(stream_length(neblock, neblock + 1))
        }
        Err(e) => Err(ChunkErrorKind::Codec {
            codec: Codec::Zlib,
            message: e.to_string(),
        }),
    }
}
