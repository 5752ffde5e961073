//! LZ4 blocks (LZ4 and LZ4HC chunks): the decoder and the two compressors.

mod decode;
#[cfg(feature = "std")]
pub(crate) mod encode;
#[cfg(feature = "std")]
pub(crate) mod encode_hc;

pub(crate) use decode::decompress_block;
