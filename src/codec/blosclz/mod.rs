//! BloscLZ streams: the decoder, the compressor, and what the decoder refuses.

mod decode;
#[cfg(feature = "std")]
pub(crate) mod encode;
mod error;

pub(crate) use decode::decompress;
pub(crate) use error::Refusal;
