//! What libzstd refuses, in its own words.

/// A zstd stream that libzstd 1.5.7 (C-Blosc2 3.3.5's zstd) refuses: a frame, block or
/// section header, a dictionary, or entropy-coded data that does not decode or end where
/// libzstd wants it to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// Which header.
    pub(crate) field: &'static str,
    /// What libzstd accepts.
    pub(crate) expected: &'static str,
    /// The value found.
    pub(crate) found: u64,
    /// Where, from the start of the zstd stream (its first frame); for the chunk's
    /// dictionary, from the dictionary's start.
    pub(crate) at: u64,
}

/// A refusal at byte `at` of the stream.
pub(super) fn refuse(
    at: usize,
    field: &'static str,
    expected: &'static str,
    found: u64,
) -> Refusal {
    Refusal {
        field,
        expected,
        found,
        at: at as u64,
    }
}
