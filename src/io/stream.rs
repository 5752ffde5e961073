//! [`Stream`]: a reader read once from its start, as a [`ReadAt`].

use core::cell::RefCell;
use std::io::{self, Read};
use std::vec::Vec;

use super::read_at::ReadAt;

/// A reader read once, from its start: the bytes read are kept as far as a read at an
/// offset needs them; [`ReadAt::size_up_to`] reads on and drops what it reads, after
/// which nothing more is kept (the frame header's reader asks it last, to check that
/// the header is all there without keeping it).
pub(crate) struct Stream<R> {
    state: RefCell<State<R>>,
}

struct State<R> {
    reader: R,
    kept: Vec<u8>,
    dropped: u64,
}

impl<R: Read> Stream<R> {
    pub(crate) fn new(reader: R) -> Self {
        Stream {
            state: RefCell::new(State {
                reader,
                kept: Vec::new(),
                dropped: 0,
            }),
        }
    }
}

impl<R: Read> State<R> {
    /// Keeps reading until `end` bytes are kept or the reader ends, growing `kept` only
    /// as bytes arrive.
    fn keep_to(&mut self, end: usize) -> io::Result<()> {
        let more = end.saturating_sub(self.kept.len()) as u64;
        (&mut self.reader).take(more).read_to_end(&mut self.kept)?;
        Ok(())
    }
}

impl<R: Read> ReadAt for Stream<R> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let mut state = self.state.borrow_mut();
        let end = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .saturating_add(buf.len());
        if state.dropped == 0 {
            state.keep_to(end)?;
        }
        state.kept.as_slice().read_at(buf, offset)
    }

    fn size(&self) -> io::Result<u64> {
        self.size_up_to(u64::MAX)
    }

    fn size_up_to(&self, want: u64) -> io::Result<u64> {
        let mut state = self.state.borrow_mut();
        let have = state.kept.len() as u64 + state.dropped;
        // Read on and dropped, through a small buffer: nothing more is kept.
        let more = want.saturating_sub(have);
        let read = io::copy(&mut (&mut state.reader).take(more), &mut io::sink())?;
        state.dropped += read;
        Ok(have.saturating_add(read).min(want))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::read_at::read_full_at;

    #[test]
    fn a_stream_keeps_what_reads_need_and_drops_what_its_length_reads() {
        let bytes: Vec<u8> = (0..20000u32).map(|i| i as u8).collect();
        let s = Stream::new(&bytes[..]);
        let mut buf = [0u8; 4];
        assert_eq!(read_full_at(&s, &mut buf, 10).unwrap(), 4);
        assert_eq!(buf, [10, 11, 12, 13]);
        assert_eq!(s.state.borrow().kept.len(), 14);
        assert_eq!(s.size_up_to(100).unwrap(), 100);
        assert_eq!(s.size_up_to(1 << 20).unwrap(), 20000);
        // What the length read is dropped, not kept; what was kept still reads.
        assert_eq!(s.state.borrow().kept.len(), 14);
        assert_eq!(read_full_at(&s, &mut buf, 98).unwrap(), 0);
        assert_eq!(read_full_at(&s, &mut buf, 12).unwrap(), 2);
    }
}
