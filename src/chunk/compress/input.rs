//! Where a chunk's bytes come from: a slice, or a source read a block at a time (a
//! file read at offsets), so that a large chunk need not be in memory at once.

use super::CompressError;

/// The bytes of one chunk, read a piece at a time.
pub(crate) trait Input: Sync {
    /// What reading can fail with (and what the compression's refusals become).
    type Error: From<CompressError> + Send;
    /// Where a thread keeps what it read, from piece to piece.
    type Buffer: Default + Send;

    /// The chunk's length in bytes.
    fn len(&self) -> usize;

    /// Bytes `at..at + len` (within [`len`](Input::len)): borrowed from the input, or
    /// read into `buf`.
    fn bytes<'a>(
        &'a self,
        at: usize,
        len: usize,
        buf: &'a mut Self::Buffer,
    ) -> Result<&'a [u8], Self::Error>;
}

impl Input for [u8] {
    type Error = CompressError;
    type Buffer = ();

    fn len(&self) -> usize {
        <[u8]>::len(self)
    }

    fn bytes<'a>(&'a self, at: usize, len: usize, _: &'a mut ()) -> Result<&'a [u8], Self::Error> {
        Ok(&self[at..at + len])
    }
}
