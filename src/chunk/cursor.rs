//! The chunk's own reader: a cursor over the chunk's bytes for its little-endian fields
//! (the header, the block starts, each stream's size, the dictionary's), whose error
//! says which field the chunk ends in, and at which byte.

use super::error::{ChunkError, ChunkErrorKind};

/// A bounds-checked cursor over a chunk, or over one block's stored bytes read on
/// their own (positions and errors still count from the chunk's first byte).
#[derive(Clone, Debug)]
pub(super) struct Cursor<'a> {
    chunk: &'a [u8],
    pos: usize,
    /// Where `chunk` starts in the chunk: 0, or a block's start.
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at byte 0 of `chunk`.
    pub(super) fn new(chunk: &'a [u8]) -> Self {
        Cursor {
            chunk,
            pos: 0,
            base: 0,
        }
    }

    /// A cursor at byte `pos` of `chunk`, which must be within it (else the chunk ends
    /// before `what`).
    pub(super) fn at(chunk: &'a [u8], pos: usize, what: &'static str) -> Result<Self, ChunkError> {
        if pos > chunk.len() {
            return Err(end(chunk, pos, what, pos - chunk.len()));
        }
        Ok(Cursor {
            chunk,
            pos,
            base: 0,
        })
    }

    /// A cursor over `block`, the stored bytes of one block that start at byte `start`
    /// of the chunk: nothing past them is read.
    pub(super) fn block(block: &'a [u8], start: usize) -> Self {
        Cursor {
            chunk: block,
            pos: 0,
            base: start,
        }
    }

    /// Offset of the next byte to read, from the chunk's first byte.
    pub(super) fn position(&self) -> usize {
        self.base + self.pos
    }

    /// Every byte left to read (the whole chunk's or block's rest), without reading them.
    pub(super) fn rest(&self) -> &'a [u8] {
        self.chunk.get(self.pos..).unwrap_or_default()
    }

    /// The next `n` bytes, borrowed from the chunk: `what`, for the error when it ends
    /// first.
    pub(super) fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ChunkError> {
        let rest = self.chunk.get(self.pos..).unwrap_or_default();
        match rest.get(..n) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            // A block never starts at byte 0: a base is a block read on its own.
            None if self.base > 0 => Err(ChunkError::at(
                self.position(),
                ChunkErrorKind::BlockEnd {
                    what,
                    end: (self.base + self.chunk.len()) as u64,
                    needed: (n - rest.len()) as u64,
                },
            )),
            None => Err(end(self.chunk, self.pos, what, n - rest.len())),
        }
    }

    /// The next `N` bytes, copied.
    pub(super) fn array<const N: usize>(
        &mut self,
        what: &'static str,
    ) -> Result<[u8; N], ChunkError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N, what)?);
        Ok(out)
    }

    /// One byte.
    pub(super) fn byte(&mut self, what: &'static str) -> Result<u8, ChunkError> {
        self.array::<1>(what).map(|[b]| b)
    }

    /// A little-endian `i32` (the chunk format's integers).
    pub(super) fn le_i32(&mut self, what: &'static str) -> Result<i32, ChunkError> {
        self.array(what).map(i32::from_le_bytes)
    }
}

/// The chunk (`chunk`: what was read of it) ends before byte `end`, which `what`
/// needs: an error at the end of the chunk.
pub(super) fn short_of(chunk: &[u8], end_at: usize, what: &'static str) -> ChunkError {
    end(chunk, chunk.len(), what, end_at.saturating_sub(chunk.len()))
}

/// The chunk ends `needed` bytes short of `what`, which starts at `at`.
fn end(chunk: &[u8], at: usize, what: &'static str, needed: usize) -> ChunkError {
    ChunkError::at(
        at,
        ChunkErrorKind::UnexpectedEnd {
            what,
            input_len: chunk.len() as u64,
            needed: needed as u64,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::Cursor;
    use alloc::string::ToString;

    #[test]
    fn a_field_past_the_end_names_itself_and_its_first_byte() {
        // The chunk format's integers are little-endian int32s.
        let chunk = [0x01, 0x02, 0x00, 0x00, 0xff];
        let mut c = Cursor::new(&chunk);
        assert_eq!(c.le_i32("nbytes").unwrap(), 0x0201);
        let err = c.le_i32("blocksize").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the chunk ends at byte 5, 3 byte(s) short of blocksize at byte 4"
        );
        let err = Cursor::at(&chunk, 7, "bstarts").unwrap_err();
        assert_eq!(
            err.to_string(),
            "the chunk ends at byte 5, 2 byte(s) short of bstarts at byte 7"
        );
        assert_eq!(Cursor::at(&chunk, 5, "bstarts").unwrap().position(), 5);
    }
}
