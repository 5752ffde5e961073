//! A chunk as stretches of the array's elements in C order: what a write gathers from
//! its input (or a read of a whole chunk scatters), block by block, and when a chunk is
//! one stretch (its bytes are the input's as they are).

use super::grid::Grid;

impl Grid {
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
