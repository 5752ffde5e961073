//! LZ4 blocks (LZ4 and LZ4HC chunks): the decoder, and what it refuses.

mod decode;
mod error;

pub(crate) use decode::decompress_block;
pub(crate) use error::Refusal;
