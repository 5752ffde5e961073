//! BloscLZ streams: the decoder, and what it refuses.

mod decode;
mod error;

pub(crate) use decode::decompress;
pub(crate) use error::Refusal;
