//! BloscLZ streams: the decoder and the compressor.

mod decode;
#[cfg(feature = "std")]
pub(crate) mod encode;

pub(crate) use decode::decompress;
