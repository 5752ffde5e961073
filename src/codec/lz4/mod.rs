//! LZ4 blocks (LZ4 and LZ4HC chunks): the decoder, the two compressors, and what the
//! decoder refuses.

mod decode;
#[cfg(feature = "std")]
pub(crate) mod encode;
#[cfg(feature = "std")]
pub(crate) mod encode_hc;
mod error;
#[cfg(feature = "std")]
mod hash_chain;

pub(crate) use decode::{decompress_block, decompress_block_rows};
pub(crate) use error::Refusal;

// The block format's constants (`lz4.c`), for the decoder and both compressors.
/// Matches are at least this long (`MINMATCH`).
const MINMATCH: usize = 4;
/// No match starts in the last 12 bytes of a block (`MFLIMIT`)...
const MFLIMIT: usize = 12;
/// ...and none ends in the last 5: they are literals (`LASTLITERALS`).
const LASTLITERALS: usize = 5;
/// The token's literal-length nibble; 15 means length bytes follow (`RUN_MASK`).
const RUN_MASK: usize = 15;
/// The token's match-length nibble; 15 means length bytes follow (`ML_MASK`).
#[cfg(feature = "std")]
const ML_MASK: usize = 15;
/// The farthest match (`LZ4_DISTANCE_MAX`).
#[cfg(feature = "std")]
const DISTANCE_MAX: usize = 65535;
