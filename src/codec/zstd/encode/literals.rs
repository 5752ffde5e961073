//! A block's literals as the match finders gather them: copied 16 bytes at a time into
//! room made beforehand (`ZSTD_storeSeq`'s `ZSTD_wildcopy`), where a copy of its exact
//! length was a call to `memcpy` per sequence.

use alloc::vec::Vec;

/// Bytes a copy may write past the literals.
const OVER: usize = 16;

/// The literals gathered so far, in a buffer kept between blocks (and frames).
pub(super) struct Literals {
    /// At least the block's length plus [`OVER`]; beyond `len`, bytes of no meaning.
    buf: Vec<u8>,
    len: usize,
}

impl Literals {
    pub(super) const fn new() -> Self {
        Literals {
            buf: Vec::new(),
            len: 0,
        }
    }

    /// Empties it, with room for a block of `block` bytes.
    pub(super) fn start(&mut self, block: usize) {
        self.len = 0;
        if self.buf.len() < block + OVER {
            self.buf.resize(block + OVER, 0);
        }
    }

    /// Appends `src[from..to]` (at most the block's length in all).
    #[inline(always)]
    pub(super) fn push(&mut self, src: &[u8], from: usize, to: usize) {
        let n = to - from;
        let at = self.len;
        match (self.buf.get_mut(at..at + OVER), src.get(from..from + OVER)) {
            (Some(room), Some(bytes)) if n <= OVER => room.copy_from_slice(bytes),
            _ => self.buf[at..at + n].copy_from_slice(&src[from..to]),
        }
        self.len += n;
    }

    pub(super) fn as_slice(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}
