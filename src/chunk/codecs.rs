//! LZ4/LZ4HC (our own decoder, super::lz4) and zlib (miniz_oxide) streams, both pure Rust: each fills
//! exactly one stream of `neblock` bytes and never writes past it.

use alloc::string::ToString;

use super::error::ChunkErrorKind;
use super::header::ChunkCodec;

fn stream_length(expected: usize, found: usize) -> ChunkErrorKind {
    ChunkErrorKind::StreamLength {
        expected: expected as u64,
        found: found as u64,
    }
}

/// An LZ4 block (C's `LZ4_decompress_safe`, or `LZ4_decompress_safe_usingDict` with the
/// chunk's dictionary) filling `dest` exactly: LZ4 and LZ4HC alike (our own decoder,
/// super::lz4). C-Blosc2 refuses a block that decodes to fewer bytes.
pub(super) fn lz4(src: &[u8], dict: Option<&[u8]>, dest: &mut [u8]) -> Result<(), ChunkErrorKind> {
    let neblock = dest.len();
    match super::lz4::decompress(src, dict.unwrap_or(&[]), dest)? {
        n if n == neblock => Ok(()),
        n => Err(stream_length(neblock, n)),
    }
}

/// A zlib stream (header, deflate, Adler-32: C's `uncompress`) filling `dest` exactly.
pub(super) fn zlib(src: &[u8], dest: &mut [u8]) -> Result<(), ChunkErrorKind> {
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
            codec: ChunkCodec::Zlib,
            message: e.to_string(),
        }),
    }
}
