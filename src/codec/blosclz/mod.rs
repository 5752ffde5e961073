//! BloscLZ streams: the decoder.

mod decode;

pub(crate) use decode::decompress;
