//! Where each element of an array sits: C-Blosc2's b2nd layout (`blosc/b2nd.c`,
//! `update_shape_struct`), the one place this crate computes it; and the chunks a
//! selection touches along each axis.
//!
//! The chunks tile the array in C order, the last one along an axis padded past the
//! shape. Inside a chunk the blocks tile the chunkshape in C order, the last one along
//! an axis padded past the chunkshape (`extchunkshape`: the chunkshape rounded up to
//! whole blocks); each block holds its elements in C order. A chunk so holds
//! `extchunknitems` elements, whatever part of it the shape covers.

use std::format;
use std::vec::Vec;

use super::resolve::{AxisRange, Resolved};
use crate::array::error::ArrayError;

/// The chunk and block geometry of an array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Grid {
    pub(crate) shape: Vec<u64>,
    pub(crate) chunkshape: Vec<u64>,
    pub(crate) blockshape: Vec<u64>,
    /// Chunks along each axis: the shape over the chunkshape, rounded up.
    pub(crate) chunks_per_axis: Vec<u64>,
    /// Blocks along each axis of a chunk: the chunkshape over the blockshape, rounded up.
    pub(crate) blocks_per_chunk: Vec<u64>,
    /// Elements from one block to the next along each axis of a chunk.
    block_stride: Vec<usize>,
    /// Elements from one position to the next along each axis of a block.
    pub(super) item_stride: Vec<usize>,
    /// Elements of a block (`blocknitems`).
    pub(crate) block_items: usize,
    /// Elements of a chunk, padding included (`extchunknitems`).
    pub(crate) chunk_items: usize,
}

/// The positions `k` in `first..=last` of an [`AxisRange`] that fall in one chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) chunk: u64,
    pub(crate) first: u64,
    pub(crate) last: u64,
}

fn ceil_div(a: u64, b: u64) -> u64 {
    if b == 0 {
        0
    } else {
        a.div_ceil(b)
    }
}

impl Grid {
    /// The geometry of shape, chunkshape and blockshape (checked as C checks them before:
    /// see `Meta::validate`), refusing a chunk whose elements overflow `usize`.
    pub(crate) fn new(
        shape: &[u64],
        chunkshape: &[u64],
        blockshape: &[u64],
    ) -> Result<Grid, ArrayError> {
        let ndim = shape.len();
        let too_large = || {
            ArrayError::layout(format!(
            "chunkshape {chunkshape:?} and blockshape {blockshape:?}: a chunk holds more elements than this machine addresses"
        ))
        };
        let chunks_per_axis: Vec<u64> = (0..ndim)
            .map(|d| ceil_div(shape[d], chunkshape[d]))
            .collect();
        let blocks_per_chunk: Vec<u64> = (0..ndim)
            .map(|d| ceil_div(chunkshape[d], blockshape[d]))
            .collect();
        let mut item_stride = std::vec![0usize; ndim];
        let mut block_stride = std::vec![0usize; ndim];
        let mut block_items: usize = 1;
        let mut blocks: usize = 1;
        for d in (0..ndim).rev() {
            item_stride[d] = block_items;
            let b = usize::try_from(blockshape[d]).map_err(|_| too_large())?;
            block_items = block_items.checked_mul(b).ok_or_else(too_large)?;
            block_stride[d] = blocks;
            let n = usize::try_from(blocks_per_chunk[d]).map_err(|_| too_large())?;
            blocks = blocks.checked_mul(n).ok_or_else(too_large)?;
        }
        for s in &mut block_stride {
            *s = s.checked_mul(block_items).ok_or_else(too_large)?;
        }
        let chunk_items = blocks.checked_mul(block_items).ok_or_else(too_large)?;
        Ok(Grid {
            shape: shape.to_vec(),
            chunkshape: chunkshape.to_vec(),
            blockshape: blockshape.to_vec(),
            chunks_per_axis,
            blocks_per_chunk,
            block_stride,
            item_stride,
            block_items,
            chunk_items,
        })
    }

    pub(crate) fn ndim(&self) -> usize {
        self.shape.len()
    }

    /// Blocks in a chunk.
    pub(crate) fn nblocks(&self) -> usize {
        self.chunk_items.checked_div(self.block_items).unwrap_or(0)
    }

    /// The chunk number (C order over the chunk grid) of the chunk at `coords`.
    pub(crate) fn chunk_number(&self, coords: &[u64]) -> u64 {
        coords
            .iter()
            .zip(&self.chunks_per_axis)
            .fold(0, |n, (&c, &per)| n * per + c)
    }

    /// The highest-numbered chunk `sel` touches (`None` when it takes no element).
    pub(crate) fn last_chunk(&self, sel: &Resolved) -> Option<u64> {
        if sel.len() == 0 {
            return None;
        }
        let coords: Vec<u64> = sel
            .axes
            .iter()
            .zip(&self.chunkshape)
            .map(|(a, &size)| {
                let last = if a.step > 0 {
                    a.position(a.count - 1)
                } else {
                    a.start
                };
                last / size
            })
            .collect();
        Some(self.chunk_number(&coords))
    }

    /// Where position `i` of the chunk along `axis` sits in the chunk: elements from
    /// the chunk's start contributed by this axis (the sum over axes is the offset).
    pub(crate) fn offset_in_chunk(&self, axis: usize, i: u64) -> usize {
        let b = self.blockshape[axis];
        (i / b) as usize * self.block_stride[axis] + (i % b) as usize * self.item_stride[axis]
    }

    /// The block (along `axis`, within its chunk) holding position `i` of the chunk.
    pub(crate) fn block_of(&self, axis: usize, i: u64) -> u64 {
        i / self.blockshape[axis]
    }

    /// The chunks along `axis` that `range` touches, in the range's order, each with the
    /// positions of the range it holds.
    pub(crate) fn spans(&self, axis: usize, range: &AxisRange) -> Vec<Span> {
        let size = self.chunkshape[axis];
        let mut spans = Vec::new();
        let mut k = 0;
        while k < range.count {
            let at = range.position(k);
            let chunk = at / size;
            let steps = if range.step > 0 {
                let end = ((chunk + 1) * size).min(self.shape[axis]);
                (end - 1 - at) / range.step as u64
            } else {
                (at - chunk * size) / range.step.unsigned_abs()
            };
            let last = (k + steps).min(range.count - 1);
            spans.push(Span {
                chunk,
                first: k,
                last,
            });
            k = last + 1;
        }
        spans
    }

    /// The chunks `sel` touches along each axis ([`Grid::spans`]).
    pub(crate) fn selection_spans(&self, sel: &Resolved) -> Vec<Vec<Span>> {
        (0..self.ndim())
            .map(|d| self.spans(d, &sel.axes[d]))
            .collect()
    }
}

/// Calls `f` with the spans of every chunk a selection touches (one per axis), the last
/// axis fastest.
pub(crate) fn each_chunk(spans: &[Vec<Span>], mut f: impl FnMut(&[Span])) {
    let ndim = spans.len();
    if spans.iter().any(Vec::is_empty) {
        return;
    }
    let mut pick = std::vec![0usize; ndim];
    let mut chosen: Vec<Span> = spans.iter().map(|s| s[0]).collect();
    loop {
        f(&chosen);
        let mut d = ndim;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            pick[d] += 1;
            if pick[d] < spans[d].len() {
                chosen[d] = spans[d][pick[d]];
                break;
            }
            pick[d] = 0;
            chosen[d] = spans[d][0];
        }
    }
}
