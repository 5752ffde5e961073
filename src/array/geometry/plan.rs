//! What one piece of a chunk gives a selection: per axis, where each position taken
//! sits in the chunk and in the output, merged into runs contiguous on both sides; and
//! the blocks of the chunk those positions lie in (the block mask a partial decode
//! needs, [`Touched`] for the chunks a selection touches).

use core::ops::Range;
use std::vec::Vec;

use super::grid::{each_chunk, Grid, Span};
use super::resolve::Resolved;

/// A contiguous stretch along the last axis: `len` elements from `src` in the chunk to
/// `out` in the output (both in elements).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    src: usize,
    out: usize,
    len: usize,
}

/// One chunk's share of a selection; its buffers are kept from chunk to chunk.
#[derive(Debug, Default)]
pub(crate) struct ChunkPlan {
    /// Per axis, for each position taken: (elements from the chunk's start, elements
    /// from the output's start) contributed by that axis.
    axes: Vec<Vec<(usize, usize)>>,
    /// The positions of the axes from `inner` on, merged where both sides are
    /// contiguous: [`each_run`](ChunkPlan::each_run) walks the axes before `inner`
    /// and gives these runs.
    runs: Vec<Run>,
    /// The first axis the runs cover (the last one, or an outer one when a single run
    /// covers every axis after it).
    inner: usize,
    /// Spare room for merging an outer axis into the runs.
    merged: Vec<Run>,
    /// Per axis, which blocks of the chunk the positions lie in.
    blocks: Vec<Vec<bool>>,
}

/// Appends `next` to `runs`, extending the last run when both sides continue it.
fn merge(runs: &mut Vec<Run>, next: Run) {
    match runs.last_mut() {
        Some(r) if r.src + r.len == next.src && r.out + r.len == next.out => r.len += next.len,
        _ => runs.push(next),
    }
}

impl ChunkPlan {
    /// Fills the plan for the chunk whose span along each axis is `spans[axis]`.
    pub(crate) fn fill(&mut self, grid: &Grid, sel: &Resolved, strides: &[usize], spans: &[Span]) {
        let ndim = grid.ndim();
        self.axes.resize_with(ndim, Vec::new);
        self.blocks.resize_with(ndim, Vec::new);
        for (d, span) in spans.iter().enumerate() {
            let range = &sel.axes[d];
            let chunk_start = span.chunk * grid.chunkshape[d];
            let entries = &mut self.axes[d];
            let blocks = &mut self.blocks[d];
            entries.clear();
            blocks.clear();
            blocks.resize(grid.blocks_per_chunk[d] as usize, false);
            for k in span.first..=span.last {
                let i = range.position(k) - chunk_start;
                entries.push((grid.offset_in_chunk(d, i), k as usize * strides[d]));
                if let Some(b) = blocks.get_mut(grid.block_of(d, i) as usize) {
                    *b = true;
                }
            }
        }
        self.runs.clear();
        self.inner = ndim.saturating_sub(1);
        if ndim == 0 {
            self.runs.push(Run {
                src: 0,
                out: 0,
                len: 1,
            });
            return;
        }
        let runs = &mut self.runs;
        for &(src, out) in &self.axes[ndim - 1] {
            merge(runs, Run { src, out, len: 1 });
        }
        // While one run covers the axes from `inner` on, the next axis out may extend it
        // (python-blosc2's default blocks, (1, n, whole rows), lay a chunk out in C
        // order: a whole chunk taken is one run).
        while self.inner > 0 && self.runs.len() == 1 {
            let r = self.runs[0];
            self.merged.clear();
            for &(s, o) in &self.axes[self.inner - 1] {
                merge(
                    &mut self.merged,
                    Run {
                        src: s + r.src,
                        out: o + r.out,
                        len: r.len,
                    },
                );
            }
            if self.merged.len() != 1 {
                break;
            }
            core::mem::swap(&mut self.runs, &mut self.merged);
            self.inner -= 1;
        }
    }

    /// When the elements taken are the whole of `blocks` (of the chunk, C order) in one
    /// run, in the order they are stored: where the run starts in the output (those
    /// blocks can be decoded there).
    pub(crate) fn direct(&self, grid: &Grid, blocks: &Range<usize>) -> Option<usize> {
        let start = blocks.start * grid.block_items;
        let len = blocks.len() * grid.block_items;
        match self.runs.as_slice() {
            [r] if self.inner == 0 && r.src == start && r.len == len => Some(r.out),
            _ => None,
        }
    }

    /// Which blocks of the chunk (C order) hold a position of the selection: what a
    /// decode of only the blocks needed decodes (filters that refer to other blocks,
    /// as DELTA refers to the first, are the decoder's to add).
    pub(crate) fn block_mask(&self, grid: &Grid, mask: &mut Vec<bool>) {
        mask.clear();
        mask.resize(grid.nblocks(), false);
        let mut coords = std::vec![0u64; grid.ndim()];
        for (n, slot) in mask.iter_mut().enumerate() {
            let mut rest = n as u64;
            for d in (0..grid.ndim()).rev() {
                let per = grid.blocks_per_chunk[d].max(1);
                coords[d] = rest % per;
                rest /= per;
            }
            *slot = coords
                .iter()
                .zip(&self.blocks)
                .all(|(&c, touched)| touched.get(c as usize).copied().unwrap_or(false));
        }
    }

    /// Calls `run(src, out, len)` for each run of the elements taken: `len` elements
    /// contiguous both in the chunk (from element `src`) and in the output (from element
    /// `out`), in the output's order.
    pub(crate) fn each_run(&self, mut run: impl FnMut(usize, usize, usize)) {
        self.walk(0, 0, 0, &mut run);
    }

    fn walk(&self, axis: usize, src: usize, out: usize, put: &mut impl FnMut(usize, usize, usize)) {
        if axis >= self.inner {
            for r in &self.runs {
                put(src + r.src, out + r.out, r.len);
            }
            return;
        }
        for &(s, o) in &self.axes[axis] {
            self.walk(axis + 1, src + s, out + o, put);
        }
    }
}

/// A chunk a selection touches, and which of its blocks (C order) hold its elements:
/// what a partial decode decodes, and what a write of the selection rewrites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touched {
    /// The chunk's number in the frame (C order over the chunk grid).
    pub chunk: u64,
    /// One flag per block of the chunk: whether it holds an element of the selection.
    pub blocks: Vec<bool>,
}

/// The chunks `sel` touches, in the order of their numbers, each with the blocks it
/// needs (C-Blosc2's block mask, before a filter adds the blocks it refers to).
pub(crate) fn touched(grid: &Grid, sel: &Resolved) -> Vec<Touched> {
    if sel.len() == 0 {
        return Vec::new();
    }
    let strides = sel.out_strides();
    let mut out = Vec::new();
    let mut plan = ChunkPlan::default();
    each_chunk(&grid.selection_spans(sel), |chunk| {
        plan.fill(grid, sel, &strides, chunk);
        let coords: Vec<u64> = chunk.iter().map(|s| s.chunk).collect();
        let mut blocks = Vec::new();
        plan.block_mask(grid, &mut blocks);
        out.push(Touched {
            chunk: grid.chunk_number(&coords),
            blocks,
        });
    });
    out.sort_by_key(|t| t.chunk);
    out
}
