//! What the blosclz decoder refuses.

use alloc::string::String;

/// A BloscLZ stream that C's `blosclz_decompress` refuses, in words (a match or a
/// literal run that the stream or the block cannot hold).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// What is wrong, and where in the stream.
    pub(crate) message: String,
}
