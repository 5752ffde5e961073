//! Where each element of an array sits: C-Blosc2's b2nd layout (`blosc/b2nd.c`,
//! `update_shape_struct`), the one place this crate computes it.
//!
//! The chunks tile the array in C order, the last one along an axis padded past the
//! shape. Inside a chunk the blocks tile the chunkshape in C order, the last one along
//! an axis padded past the chunkshape (`extchunkshape`: the chunkshape rounded up to
//! whole blocks); each block holds its elements in C order. A chunk so holds
//! `extchunknitems` elements, whatever part of it the shape covers.

use std::format;
use std::vec::Vec;

use super::error::ArrayError;
use super::resolve::{AxisRange, Resolved};

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
    item_stride: Vec<usize>,
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

    /// Calls `run(at, in_chunk, len)` for each stretch of `len` elements of the chunk at
    /// `coords` (chunk grid coordinates) that is contiguous both in the array in C order
    /// (from element `at`) and in the chunk (from element `in_chunk`), block by block:
    /// every element the shape covers, once; the padding is not visited. A block that
    /// spans whole rows of the array (python's default blocks) is one stretch.
    pub(crate) fn chunk_runs(&self, coords: &[u64], mut run: impl FnMut(usize, usize, usize)) {
        let ndim = self.ndim();
        if ndim == 0 {
            return run(0, 0, 1);
        }
        // Array strides in elements (C order).
        let mut array_stride = std::vec![1usize; ndim];
        for d in (0..ndim - 1).rev() {
            array_stride[d] = array_stride[d + 1] * self.shape[d + 1] as usize;
        }
        let nblocks = self.nblocks();
        let mut block = std::vec![0u64; ndim];
        let mut start = std::vec![0u64; ndim];
        let mut extent = std::vec![0u64; ndim];
        let mut pos = std::vec![0u64; ndim];
        for b in 0..nblocks {
            // The block's coordinates in the chunk (C order over the chunk's blocks).
            let mut rest = b as u64;
            for d in (0..ndim).rev() {
                let per = self.blocks_per_chunk[d].max(1);
                block[d] = rest % per;
                rest /= per;
            }
            let mut empty = false;
            for d in 0..ndim {
                let chunk_start = coords[d] * self.chunkshape[d];
                start[d] = chunk_start + block[d] * self.blockshape[d];
                let end = (start[d] + self.blockshape[d])
                    .min(chunk_start + self.chunkshape[d])
                    .min(self.shape[d]);
                extent[d] = end.saturating_sub(start[d]);
                empty |= extent[d] == 0;
            }
            if empty {
                continue;
            }
            // Axes from `inner` on are whole rows of the array in this block: one
            // stretch covers them.
            let mut inner = ndim - 1;
            while inner > 0
                && extent[inner] == self.shape[inner]
                && self.blockshape[inner] == self.shape[inner]
            {
                inner -= 1;
            }
            let len = extent[inner] as usize * array_stride[inner];
            let block_at = b * self.block_items;
            pos[..inner].fill(0);
            loop {
                let mut at = 0;
                let mut in_chunk = block_at;
                for d in 0..inner {
                    at += (start[d] + pos[d]) as usize * array_stride[d];
                    in_chunk += pos[d] as usize * self.item_stride[d];
                }
                at += start[inner] as usize * array_stride[inner];
                run(at, in_chunk, len);
                // The next position of the axes before `inner`, if any.
                let mut d = inner;
                let done = loop {
                    if d == 0 {
                        break true;
                    }
                    d -= 1;
                    pos[d] += 1;
                    if pos[d] < extent[d] {
                        break false;
                    }
                    pos[d] = 0;
                };
                if done {
                    break;
                }
            }
        }
    }

    /// Whether chunk `coords` is one stretch of the array's elements in C order, in the
    /// chunk's own order: whole (no padding), contiguous in the array (the axes after
    /// the first it does not span whole are whole) and its blocks in the array's order
    /// (the same, blocks within the chunk). Its bytes are then the input's as they are:
    /// what [`chunk_runs`](Grid::chunk_runs) gives as one run, known without walking.
    pub(crate) fn chunk_is_one_stretch(&self, coords: &[u64]) -> bool {
        let ndim = self.ndim();
        let whole = (0..ndim).all(|d| {
            (coords[d] + 1).saturating_mul(self.chunkshape[d]) <= self.shape[d]
                && self.chunkshape[d].is_multiple_of(self.blockshape[d])
        });
        // Every axis cut short has only single positions before it.
        let in_order = |outer: &[u64], inner: &[u64]| {
            (0..ndim).all(|d| outer[d] == inner[d] || inner[..d].iter().all(|&e| e == 1))
        };
        whole
            && in_order(&self.shape, &self.chunkshape)
            && in_order(&self.chunkshape, &self.blockshape)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use std::vec::Vec;

    use super::Grid;

    proptest! {
        #[test]
        fn a_chunk_is_one_stretch_exactly_when_its_runs_are_one(
            dims in proptest::collection::vec((1u64..6, 1u64..6, 1u64..6), 0..4),
            pick in any::<u64>(),
        ) {
            // shape >= chunks >= blocks on every axis, as C requires.
            let shape: Vec<u64> = dims.iter().map(|&(s, c, b)| s.max(c).max(b)).collect();
            let chunks: Vec<u64> = dims.iter().map(|&(_, c, b)| c.max(b)).collect();
            let blocks: Vec<u64> = dims.iter().map(|&(_, _, b)| b).collect();
            let grid = Grid::new(&shape, &chunks, &blocks).unwrap();
            let nchunks: u64 = grid.chunks_per_axis.iter().product();
            let mut rest = pick % nchunks;
            let mut coords = std::vec![0; grid.ndim()];
            for d in (0..grid.ndim()).rev() {
                coords[d] = rest % grid.chunks_per_axis[d];
                rest /= grid.chunks_per_axis[d];
            }
            let mut runs: Vec<(usize, usize, usize)> = Vec::new();
            grid.chunk_runs(&coords, |at, in_chunk, len| match runs.last_mut() {
                Some(last) if last.0 + last.2 == at && last.1 + last.2 == in_chunk => last.2 += len,
                _ => runs.push((at, in_chunk, len)),
            });
            let one = matches!(runs[..], [(_, 0, len)] if len == grid.chunk_items);
            prop_assert_eq!(grid.chunk_is_one_stretch(&coords), one, "{:?} {:?} {:?} at {:?}", shape, chunks, blocks, coords);
        }
    }
}
