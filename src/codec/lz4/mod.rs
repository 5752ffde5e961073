//! LZ4 blocks (LZ4 and LZ4HC chunks): the decoder.

mod decode;

pub(crate) use decode::decompress_block;
