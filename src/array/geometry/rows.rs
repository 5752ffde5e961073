//! A selection cut along one axis of its result into parts of about a given number of
//! positions, each cut where that axis crosses a block of the array (no block lies in
//! two parts; a part is longer when one block holds more positions): a large selection
//! taken part by part.

use super::grid::Grid;
use super::resolve::{AxisRange, Resolved};

/// The parts of a selection along one array axis, in order ([`Grid::rows`]).
#[derive(Debug, Clone)]
pub(crate) struct Rows<'a> {
    sel: &'a Resolved,
    axis: usize,
    rows: u64,
    /// The first position of the next part.
    first: u64,
    chunk: u64,
    block: u64,
}

impl Grid {
    /// `sel` cut along array axis `axis` (one its result keeps) into parts of about
    /// `rows` positions (at least one), cut where the axis crosses a block.
    pub(crate) fn rows<'a>(&self, sel: &'a Resolved, axis: usize, rows: u64) -> Rows<'a> {
        Rows {
            sel,
            axis,
            rows: rows.max(1),
            first: 0,
            chunk: self.chunkshape[axis],
            block: self.blockshape[axis],
        }
    }
}

impl Rows<'_> {
    /// Which block of the array (chunk, block in it) position `k` lies in.
    fn key(&self, k: u64) -> (u64, u64) {
        let at = self.sel.axes[self.axis].position(k);
        (at / self.chunk, at % self.chunk / self.block)
    }
}

impl Iterator for Rows<'_> {
    type Item = Resolved;

    fn next(&mut self) -> Option<Resolved> {
        let axis = self.sel.axes[self.axis];
        let (first, count) = (self.first, axis.count);
        if first >= count {
            return None;
        }
        let mut end = (first + self.rows).min(count);
        if end < count && self.key(end - 1) == self.key(end) {
            // Back to where the block starts; past its end when it started first.
            let mut back = end;
            while back > first && self.key(back - 1) == self.key(end) {
                back -= 1;
            }
            if back > first {
                end = back;
            } else {
                while end < count && self.key(end) == self.key(first) {
                    end += 1;
                }
            }
        }
        self.first = end;
        let mut part = self.sel.clone();
        part.axes[self.axis] = AxisRange {
            start: axis.position(first),
            count: end - first,
            ..axis
        };
        Some(part)
    }
}
