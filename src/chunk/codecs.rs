//! LZ4/LZ4HC (lz4_flex) and zlib (miniz_oxide) streams, both pure Rust: each fills
//! exactly one stream of `neblock` bytes and never writes past it.

use alloc::string::ToString;
use alloc::vec::Vec;

use super::error::ChunkErrorKind;
use super::header::ChunkCodec;

fn stream_length(expected: usize, found: usize) -> ChunkErrorKind {
    ChunkErrorKind::StreamLength {
        expected: expected as u64,
        found: found as u64,
    }
}

/// An LZ4 block (C's `LZ4_decompress_safe` into `neblock` bytes): LZ4 and LZ4HC alike.
pub(super) fn lz4(src: &[u8], neblock: usize, out: &mut Vec<u8>) -> Result<(), ChunkErrorKind> {
    let start = out.len();
    out.resize(start + neblock, 0);
    let dest = out.get_mut(start..).unwrap_or_default();
    match lz4_flex::block::decompress_into(src, dest) {
        Ok(n) if n == neblock => Ok(()),
        Ok(n) => Err(stream_length(neblock, n)),
        Err(e) => Err(ChunkErrorKind::Codec {
            codec: ChunkCodec::Lz4,
            message: e.to_string(),
        }),
    }
}

/// A zlib stream (header, deflate, Adler-32: C's `uncompress` into `neblock` bytes).
pub(super) fn zlib(src: &[u8], neblock: usize, out: &mut Vec<u8>) -> Result<(), ChunkErrorKind> {
    match miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(src, neblock) {
        Ok(bytes) if bytes.len() == neblock => {
            out.extend_from_slice(&bytes);
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
