//! A chunk a resize cuts (or grows into): the cells of the kept region stay, every other
//! cell becomes zero. Left as such until the commit, where it is spliced block by block
//! (the blocks wholly kept copied as they are stored, those wholly cut made zeros, only
//! those holding both decoded and compressed again), or decoded whole when a write
//! changes it too.

use std::vec::Vec;

use super::super::geometry::Grid;
use crate::chunk::{self, ChunkHeader, Fate, Spliced};

/// A chunk of the new grid that is an old chunk with the cells outside `kept` zeroed.
#[derive(Debug, Clone)]
pub(super) struct Cut {
    /// The old chunk's number.
    pub(super) origin: u64,
    /// The kept region's grid (the old and new shapes' smaller extent on each axis);
    /// none when the chunk holds none of it.
    pub(super) kept: Option<Grid>,
    /// The chunk's coordinates in the chunk grid.
    pub(super) coords: Vec<u64>,
}

impl Cut {
    /// `before` (the old chunk decoded) with the cells outside the kept region zeroed.
    pub(super) fn apply(&self, before: &[u8], itemsize: usize) -> Vec<u8> {
        let mut after = std::vec![0u8; before.len()];
        if let Some(kept) = &self.kept {
            kept.chunk_runs(&self.coords, |_, at, len| {
                let r = at * itemsize..(at + len) * itemsize;
                after[r.clone()].copy_from_slice(&before[r]);
            });
        }
        after
    }

    /// The old chunk `raw` (stored, compressed with `params`) spliced to the cut chunk:
    /// [`Spliced::Whole`] when its blocks are not the grid's own.
    pub(super) fn splice(
        &self,
        raw: &[u8],
        params: &chunk::CParams,
        itemsize: usize,
    ) -> Result<Spliced, chunk::ChunkError> {
        let Some(kept) = &self.kept else {
            return Ok(Spliced::Zeros);
        };
        let block_items = kept.block_items;
        let header = ChunkHeader::parse(raw)?;
        if block_items == 0 || header.blocksize as usize != block_items * itemsize {
            return Ok(Spliced::Whole);
        }
        let nblocks = kept.chunk_items / block_items;
        // The kept runs of each block, in the block's own elements.
        let mut runs: Vec<Vec<(usize, usize)>> = std::vec![Vec::new(); nblocks];
        let mut count = std::vec![0usize; nblocks];
        kept.chunk_runs(&self.coords, |_, at, len| {
            let j = at / block_items;
            if let (Some(r), Some(c)) = (runs.get_mut(j), count.get_mut(j)) {
                r.push((at - j * block_items, len));
                *c += len;
            }
        });
        let fate = |j: usize| match count.get(j).copied().unwrap_or(0) {
            0 => Fate::Zeros,
            n if n == block_items => Fate::Keep,
            _ => Fate::Change,
        };
        let mut before = Vec::new();
        let change = |j: usize, block: &mut [u8]| {
            before.clear();
            before.extend_from_slice(block);
            block.fill(0);
            for &(at, len) in runs.get(j).map_or(&[][..], Vec::as_slice) {
                let r = at * itemsize..(at + len) * itemsize;
                block[r.clone()].copy_from_slice(&before[r]);
            }
        };
        chunk::splice(raw, params, fate, change)
    }
}
