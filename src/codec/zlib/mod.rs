//! zlib streams (miniz_oxide): the decoder, what it refuses, and the encoder.

mod decode;
pub(crate) mod deflate;
pub(crate) mod encode;

pub(crate) use decode::{zlib, Refusal};
