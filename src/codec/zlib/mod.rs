//! zlib streams: the decoder (miniz_oxide), what it refuses, and the encoder (our own
//! deflate at levels 3 to 6).

mod decode;
pub(crate) mod deflate;
pub(crate) mod encode;

pub(crate) use decode::{zlib, Refusal};
