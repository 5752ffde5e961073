//! BloscLZ streams: the decoder, the compressor, and what the decoder refuses.

use alloc::string::String;

mod decode;
#[cfg(feature = "std")]
pub(crate) mod encode;

pub(crate) use decode::decompress;

/// A BloscLZ stream that C's `blosclz_decompress` refuses, in words (a match or a
/// literal run that the stream or the block cannot hold).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// What is wrong, and where in the stream.
    pub(crate) message: String,
}
