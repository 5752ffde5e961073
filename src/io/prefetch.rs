//! [`Prefetch`]: a source whose first and last KiB are each read once.

use core::cell::RefCell;
use std::io;
use std::vec::Vec;

use super::read_at::{read_vec_at, ReadAt};

/// How much of a source is read at once from its start, and from its end: a frame
/// header and trailer without large metalayers fit, so a store's node costs two reads.
const PREFETCH: u64 = 1024;

/// A source whose first and last [`PREFETCH`] bytes are read in one read each, when
/// first touched, and served from there; other reads go to the source.
pub(crate) struct Prefetch<S> {
    inner: S,
    len: u64,
    head: RefCell<Option<Vec<u8>>>,
    tail: RefCell<Option<(u64, Vec<u8>)>>,
}

impl<S: ReadAt> Prefetch<S> {
    /// The first `len` bytes of `inner`.
    pub(crate) fn new(inner: S, len: u64) -> Self {
        Prefetch {
            inner,
            len,
            head: RefCell::new(None),
            tail: RefCell::new(None),
        }
    }
}

/// Copies what `cached` (bytes from `start`) holds at `offset` into `buf`.
fn serve(cached: &[u8], start: u64, buf: &mut [u8], offset: u64) -> usize {
    let from = usize::try_from(offset - start).unwrap_or(usize::MAX);
    let src = cached.get(from..).unwrap_or_default();
    let n = src.len().min(buf.len());
    if let (Some(dst), Some(src)) = (buf.get_mut(..n), src.get(..n)) {
        dst.copy_from_slice(src);
    }
    n
}

impl<S: ReadAt> ReadAt for Prefetch<S> {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let want = (buf.len() as u64).min(self.len.saturating_sub(offset));
        if want == 0 {
            return Ok(0);
        }
        let buf = buf.get_mut(..want as usize).unwrap_or_default();
        let head_len = PREFETCH.min(self.len);
        if offset + want <= head_len {
            let mut head = self.head.borrow_mut();
            if head.is_none() {
                *head = Some(read_vec_at(&self.inner, 0, head_len as usize)?);
            }
            return Ok(serve(head.as_deref().unwrap_or_default(), 0, buf, offset));
        }
        let tail_start = self.len.saturating_sub(PREFETCH);
        if offset >= tail_start {
            let mut tail = self.tail.borrow_mut();
            if tail.is_none() {
                let bytes = read_vec_at(&self.inner, tail_start, (self.len - tail_start) as usize)?;
                *tail = Some((tail_start, bytes));
            }
            let (start, bytes) = tail
                .as_ref()
                .map(|(s, b)| (*s, b.as_slice()))
                .unwrap_or_default();
            return Ok(serve(bytes, start, buf, offset));
        }
        self.inner.read_at(buf, offset)
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.len)
    }

    fn will_read(&self, offset: u64, len: u64) {
        self.inner.will_read(offset, len);
    }
}
