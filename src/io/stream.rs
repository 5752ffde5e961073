//! [`Stream`]: a reader read once from its start, as a [`ReadAt`].

use core::cell::RefCell;
use std::io::{self, Read};
use std::vec::Vec;

use super::ReadAt;

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

/// The most read at once.
const PIECE: usize = 8192;

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
    /// Reads into `buf` until it is full or the reader ends; how many.
    fn fill(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut got = 0;
        while let Some(rest) = buf.get_mut(got..).filter(|r| !r.is_empty()) {
            match self.reader.read(rest) {
                Ok(0) => break,
                Ok(k) if k <= rest.len() => got += k,
                Ok(_) => return Err(io::Error::other("reader returned more bytes than asked")),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(got)
    }

    /// Keeps reading until `end` bytes are kept or the reader ends, growing `kept` only
    /// as bytes arrive.
    fn keep_to(&mut self, end: usize) -> io::Result<()> {
        let mut piece = [0u8; PIECE];
        while self.kept.len() < end {
            let want = (end - self.kept.len()).min(PIECE);
            let got = self.fill(&mut piece[..want])?;
            self.kept.extend_from_slice(&piece[..got]);
            if got < want {
                break;
            }
        }
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
        let mut scratch = [0u8; PIECE];
        loop {
            let have = state.kept.len() as u64 + state.dropped;
            if have >= want {
                return Ok(want);
            }
            let n = (want - have).min(PIECE as u64) as usize;
            let got = state.fill(&mut scratch[..n])?;
            if got == 0 {
                return Ok(have);
            }
            state.dropped += got as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::read_full_at;

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
