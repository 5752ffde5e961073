//! Zstandard streams (RFC 8878), decoded by our own decoder straight into the block's
//! output, with the chunk's dictionary as history before it. What libzstd 1.5.6
//! (what C-Blosc2 links) refuses is refused here, with what it expected: the checks
//! are those of `lib/decompress/zstd_decompress.c` (`ZSTD_decompressMultiFrame`,
//! `ZSTD_decompressFrame`, `ZSTD_getFrameHeader_advanced`) and of the modules below.

mod bits;
mod dict;
mod error;
mod fast4;
mod frame;
mod fse;
mod huffman;
mod huffman_x2;
mod literals;
mod sequences;

pub(crate) use error::Refusal;
pub(crate) use frame::Zstd;
