//! What one piece of a chunk gives a selection: per axis, where each position taken
//! sits in the chunk and in the output; the blocks of the chunk those positions lie in
//! (the block mask a partial decode needs); and the copy of those elements into the
//! output.

use core::ops::Range;
use std::vec::Vec;

use super::grid::{Grid, Span};
use super::resolve::Resolved;

/// Where the elements a chunk gives come from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source<'a> {
    /// Decoded bytes of the chunk: its elements from element `base` on.
    Bytes { bytes: &'a [u8], base: usize },
    /// One element, repeated over the whole chunk (a chunk the index says is zeros,
    /// NaNs or uninitialised).
    Repeat(&'a [u8]),
}

/// How elements land in the output: raw bytes, or converted to a Rust type.
pub(crate) trait Sink: Sync {
    /// What the output holds.
    type Item: Copy + Send;
    /// Items of output per array element.
    fn width(&self) -> usize;
    /// Converts the elements of `src` (their bytes) into `dst`.
    fn copy(&self, dst: &mut [Self::Item], src: &[u8]);
    /// Sets every element of `dst` to `element` (its bytes).
    fn fill(&self, dst: &mut [Self::Item], element: &[u8]);
    /// Whether the output holds the bytes as stored, so a chunk can be decoded into it.
    const DIRECT: bool = false;
    /// The output as bytes, when it holds them as stored.
    fn as_bytes(_dst: &mut [Self::Item]) -> Option<&mut [u8]> {
        None
    }
}

/// The elements' bytes as stored.
pub(crate) struct Raw {
    pub(crate) itemsize: usize,
}

impl Sink for Raw {
    type Item = u8;
    const DIRECT: bool = true;

    fn as_bytes(dst: &mut [u8]) -> Option<&mut [u8]> {
        Some(dst)
    }

    fn width(&self) -> usize {
        self.itemsize
    }

    fn copy(&self, dst: &mut [u8], src: &[u8]) {
        dst.copy_from_slice(src);
    }

    fn fill(&self, dst: &mut [u8], element: &[u8]) {
        if element.iter().all(|&b| b == 0) {
            dst.fill(0);
        } else {
            for d in dst.chunks_exact_mut(self.itemsize) {
                d.copy_from_slice(element);
            }
        }
    }
}

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
    /// contiguous: the copy walks the axes before `inner` and copies these runs.
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

/// Elements between consecutive output positions of each array axis (0 for a dropped
/// axis, which has one).
pub(crate) fn out_strides(sel: &Resolved) -> Vec<usize> {
    let mut strides = std::vec![0usize; sel.axes.len()];
    let mut stride = 1usize;
    for (d, axis) in sel.axes.iter().enumerate().rev() {
        if axis.kept {
            strides[d] = stride;
            stride = stride.saturating_mul(axis.count as usize);
        }
    }
    strides
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

    /// Copies the chunk's elements taken (`itemsize` bytes each) into `dst`, the
    /// output's elements from `base` on (a slab of the output that holds every one).
    pub(crate) fn copy<S: Sink>(
        &self,
        sink: &S,
        src: Source<'_>,
        itemsize: usize,
        dst: &mut [S::Item],
        base: usize,
    ) {
        let width = sink.width();
        let mut put = |from: usize, to: usize, len: usize| {
            let d = to
                .checked_sub(base)
                .and_then(|to| dst.get_mut(to * width..(to + len) * width));
            let Some(d) = d else {
                debug_assert!(false, "an element outside the slab");
                return;
            };
            match src {
                Source::Bytes { bytes, base } => {
                    let at = from.checked_sub(base).map(|f| f * itemsize);
                    match at.and_then(|at| bytes.get(at..at + len * itemsize)) {
                        Some(s) => sink.copy(d, s),
                        None => debug_assert!(false, "an element outside the bytes decoded"),
                    }
                }
                Source::Repeat(element) => sink.fill(d, element),
            }
        };
        self.walk(0, 0, 0, &mut put);
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
