//! What the lz4 decoder refuses.

/// An LZ4 block that C's `LZ4_decompress_safe` (LZ4 1.10.0) refuses, at the input byte
/// where C stops (its negative result), or whose match offset is 0 (a copy of the bytes
/// being written: C decodes it to whatever its copy leaves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// The rule broken.
    pub(crate) expected: &'static str,
    /// The bound the rule sets (a byte position, a length or an offset).
    pub(crate) limit: u64,
    /// The value found.
    pub(crate) found: u64,
    /// Where C stops, from the start of the LZ4 stream.
    pub(crate) at: u64,
}
