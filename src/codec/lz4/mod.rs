//! LZ4 blocks (LZ4 and LZ4HC chunks): the decoder, the two compressors, and what the
//! decoder refuses.

mod decode;
#[cfg(feature = "std")]
pub(crate) mod encode;
#[cfg(feature = "std")]
pub(crate) mod encode_hc;
mod error;

pub(crate) use decode::{decompress_block, decompress_block_rows};
pub(crate) use error::Refusal;
