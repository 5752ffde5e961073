//! [`Segments`]: the byte ranges of a remote file already fetched, kept within a bound.

use std::collections::VecDeque;
use std::vec::Vec;

/// Fetched byte ranges, oldest first; the first `pinned` (the head and the tail an
/// open prefetches) are never dropped, nor the newest (a reader is going through
/// it), the others once the total passes `cap`.
#[derive(Default)]
pub(super) struct Segments {
    ranges: VecDeque<(u64, Vec<u8>)>,
    pinned: usize,
    held: u64,
    cap: u64,
}

impl Segments {
    pub(super) fn new(cap: u64) -> Segments {
        Segments {
            cap,
            ..Segments::default()
        }
    }

    /// Keeps `bytes` (from `start`); `pin`: never dropped.
    pub(super) fn insert(&mut self, start: u64, bytes: Vec<u8>, pin: bool) {
        self.held += bytes.len() as u64;
        if pin {
            self.ranges.insert(self.pinned, (start, bytes));
            self.pinned += 1;
        } else {
            self.ranges.push_back((start, bytes));
        }
        while self.held > self.cap && self.ranges.len() > self.pinned + 1 {
            if let Some((_, dropped)) = self.ranges.remove(self.pinned) {
                self.held -= dropped.len() as u64;
            }
        }
    }

    /// Copies into `buf` what a range holds at `offset` (as many bytes as it holds
    /// there, up to `buf.len()`), or `None` when no range holds `offset`.
    pub(super) fn serve(&self, buf: &mut [u8], offset: u64) -> Option<usize> {
        let (start, bytes) = self
            .ranges
            .iter()
            .filter(|(start, bytes)| *start <= offset && offset < start + bytes.len() as u64)
            .max_by_key(|(start, bytes)| start + bytes.len() as u64)?;
        let from = bytes.get(usize::try_from(offset - start).ok()?..)?;
        let n = from.len().min(buf.len());
        buf.get_mut(..n)?.copy_from_slice(from.get(..n)?);
        Some(n)
    }

    /// Whether a range holds byte `offset`.
    pub(super) fn holds(&self, offset: u64) -> bool {
        self.ranges
            .iter()
            .any(|(start, bytes)| *start <= offset && offset < start + bytes.len() as u64)
    }

    /// Where the first range that starts after `offset` starts (a fetch from `offset`
    /// stops there: what follows is held already).
    pub(super) fn next_start(&self, offset: u64) -> Option<u64> {
        self.ranges
            .iter()
            .map(|(start, _)| *start)
            .filter(|start| *start > offset)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_serve_what_they_hold_and_the_unpinned_are_dropped_past_the_cap() {
        let mut held = Segments::new(16);
        held.insert(0, b"head".to_vec(), true);
        held.insert(100, b"0123456789".to_vec(), false);
        let mut buf = [0u8; 8];
        assert_eq!(held.serve(&mut buf, 2), Some(2));
        assert_eq!(&buf[..2], b"ad");
        assert_eq!(held.serve(&mut buf, 104), Some(6));
        assert_eq!(held.serve(&mut buf, 4), None);
        assert_eq!(held.next_start(5), Some(100));
        // Past the cap: the oldest unpinned range goes, the head stays.
        held.insert(200, b"abc".to_vec(), false);
        assert_eq!(held.serve(&mut buf, 104), None);
        assert_eq!(held.serve(&mut buf, 0), Some(4));
        assert_eq!(held.serve(&mut buf, 201), Some(2));
        // The newest stays, past the cap too.
        held.insert(300, [7u8; 40].to_vec(), false);
        assert_eq!(held.serve(&mut buf, 330), Some(8));
        assert_eq!(held.serve(&mut buf, 201), None);
    }
}
