//! Zstandard streams (RFC 8878), decoded by our own decoder straight into the block's
//! output, with the chunk's dictionary as history before it. What libzstd 1.5.7 (what
//! C-Blosc2 3.3.5 bundles) refuses is refused here, with what it expected: the checks
//! are those of `lib/decompress/zstd_decompress.c` (`ZSTD_decompressMultiFrame`,
//! `ZSTD_decompressFrame`, `ZSTD_getFrameHeader_advanced`) and of the modules below.
//! It refuses one thing more than 1.5.6 (which blosc2-src's C-Blosc2 2.15.3 links, the
//! per-stream reference of tests/chunk/zstd_ref.rs): FSE-coded Huffman weights too
//! short for their two initial states.

mod bits;
mod dict;
#[cfg(feature = "std")]
pub(crate) mod encode;
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
