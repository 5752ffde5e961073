//! The pieces a read decodes: each chunk a selection touches cut into runs of its blocks
//! (in the chunk's C order) small enough for a thread's buffer and numerous enough to
//! keep every thread busy; and the output cut into regions, each written by its own
//! pieces only.
//!
//! A piece is a box of the chunk's blocks: one block along the axes before its split
//! axis, a run of blocks along it, all the blocks the selection touches along the axes
//! after it. Its blocks are then consecutive in the chunk's C order (but for those of
//! the later axes the selection skips, which it does not decode), so it decodes into one
//! buffer of its own, or straight into the output when its elements are stored in the
//! output's order.

use core::ops::Range;
use std::vec::Vec;

use super::grid::{each_chunk, Grid, Span};
use super::resolve::Resolved;

/// The most decoded bytes a piece spans (unless one block is larger).
const PIECE_CAP: usize = 4 << 20;
/// Pieces per thread a read aims at, so that threads finish together.
const PIECES_PER_THREAD: usize = 4;

/// One piece: a run of blocks of one chunk, and the part of the selection in them.
#[derive(Debug, Clone)]
pub(crate) struct Piece {
    /// The chunk's number in the frame.
    pub(crate) chunk: u64,
    /// The blocks (C order in the chunk) the piece spans.
    pub(crate) blocks: Range<usize>,
    /// The output region it writes.
    pub(crate) region: usize,
}

/// The pieces of a read, and the regions of its output.
#[derive(Debug, Default)]
pub(crate) struct Pieces {
    pub(crate) list: Vec<Piece>,
    /// Per piece, the positions of the selection it holds along each axis.
    spans: Vec<Span>,
    /// The output's regions (element ranges, in order): pieces of different regions
    /// never write the same element, nor any element between their first and last.
    pub(crate) regions: Vec<Range<usize>>,
    /// The chunks every block of which (that holds elements) the selection touches.
    pub(crate) whole: Vec<u64>,
}

/// The blocks of a chunk a selection touches along one axis: each block with the span
/// of positions in it, in the selection's order.
fn axis_blocks(grid: &Grid, sel: &Resolved, axis: usize, span: &Span) -> Vec<(u64, Span)> {
    let range = &sel.axes[axis];
    let chunk_start = span.chunk * grid.chunkshape[axis];
    let mut out: Vec<(u64, Span)> = Vec::new();
    for k in span.first..=span.last {
        let block = grid.block_of(axis, range.position(k) - chunk_start);
        match out.last_mut() {
            Some((b, s)) if *b == block => s.last = k,
            _ => out.push((
                block,
                Span {
                    first: k,
                    last: k,
                    ..*span
                },
            )),
        }
    }
    out
}

/// One chunk's blocks touched along each axis.
struct ChunkBlocks {
    axes: Vec<Vec<(u64, Span)>>,
    /// Blocks from one to the next along each axis, in the chunk's C order.
    stride: Vec<usize>,
}

impl ChunkBlocks {
    fn new(grid: &Grid, sel: &Resolved, spans: &[Span]) -> ChunkBlocks {
        let axes: Vec<_> = (0..grid.ndim())
            .map(|d| axis_blocks(grid, sel, d, &spans[d]))
            .collect();
        let mut stride = std::vec![1usize; grid.ndim()];
        for d in (0..grid.ndim().saturating_sub(1)).rev() {
            stride[d] = stride[d + 1] * grid.blocks_per_chunk[d + 1] as usize;
        }
        ChunkBlocks { axes, stride }
    }

    /// The lowest and highest block touched along `axis`.
    fn bounds(&self, axis: usize) -> (usize, usize) {
        let blocks = self.axes[axis].iter().map(|(b, _)| *b as usize);
        let lo = blocks.clone().min().unwrap_or(0);
        (lo, blocks.max().unwrap_or(0))
    }

    /// Blocks a piece of one block along `axis` spans (all those touched after it).
    fn row(&self, axis: usize) -> usize {
        1 + (axis + 1..self.axes.len())
            .map(|d| {
                let (lo, hi) = self.bounds(d);
                (hi - lo) * self.stride[d]
            })
            .sum::<usize>()
    }

    /// Blocks the whole chunk's piece spans.
    fn all(&self) -> usize {
        match self.axes.len() {
            0 => 1,
            _ => {
                let (lo, hi) = self.bounds(0);
                (hi - lo) * self.stride[0] + self.row(0)
            }
        }
    }
}

impl Pieces {
    /// The pieces of `sel` (whose chunks along each axis are `spans`), for `threads`
    /// threads; `strides` are the output's.
    pub(crate) fn plan(
        grid: &Grid,
        sel: &Resolved,
        spans: &[Vec<Span>],
        strides: &[usize],
        threads: usize,
        itemsize: usize,
    ) -> Pieces {
        let block_bytes = grid.block_items * itemsize;
        // The bytes decoded if no chunk were cut, for the size of the pieces.
        let mut total = 0usize;
        each_chunk(spans, |chunk| {
            total = total.saturating_add(ChunkBlocks::new(grid, sel, chunk).all() * block_bytes);
        });
        let cap = (total / (threads.max(1) * PIECES_PER_THREAD))
            .min(PIECE_CAP)
            .max(block_bytes);
        let cap_blocks = (cap / block_bytes.max(1)).max(1);
        let mut pieces = Pieces::default();
        let mut footprints = Vec::new();
        each_chunk(spans, |chunk| {
            let blocks = ChunkBlocks::new(grid, sel, chunk);
            let n = grid.chunk_number(&chunk.iter().map(|s| s.chunk).collect::<Vec<_>>());
            // Every block that holds elements of the array (those past its edge are
            // padding no read touches).
            let every = (0..grid.ndim()).all(|d| {
                let start = chunk[d].chunk * grid.chunkshape[d];
                let items = grid.chunkshape[d].min(grid.shape[d].saturating_sub(start));
                blocks.axes[d].len() as u64 == items.div_ceil(grid.blockshape[d].max(1))
            });
            if every {
                pieces.whole.push(n);
            }
            pieces.cut(&blocks, chunk, n, cap_blocks, strides, &mut footprints);
        });
        pieces.assign_regions(&footprints);
        pieces
    }

    /// The positions piece `i` holds along each axis.
    pub(crate) fn spans(&self, i: usize) -> &[Span] {
        let ndim = self.spans.len() / self.list.len().max(1);
        &self.spans[i * ndim..(i + 1) * ndim]
    }

    /// Cuts chunk `n` (its `chunk` spans, its `blocks`) into pieces of at most `cap`
    /// blocks (at least one row of its split axis).
    fn cut(
        &mut self,
        blocks: &ChunkBlocks,
        chunk: &[Span],
        n: u64,
        cap: usize,
        strides: &[usize],
        footprints: &mut Vec<Range<usize>>,
    ) {
        let ndim = chunk.len();
        // The split axis: the first whose rows fit (the last when none does).
        let q = (0..ndim)
            .find(|&d| blocks.row(d) <= cap)
            .unwrap_or(ndim.saturating_sub(1));
        let rows = match ndim {
            0 => 1,
            _ => (cap - blocks.row(q).min(cap)) / blocks.stride[q] + 1,
        };
        let later: usize = (q + 1..ndim)
            .map(|d| blocks.bounds(d).0 * blocks.stride[d])
            .sum();
        let mut pick = std::vec![0usize; q];
        loop {
            // One block along each axis before q.
            let fixed: usize = (0..q)
                .map(|d| blocks.axes[d][pick[d]].0 as usize * blocks.stride[d])
                .sum();
            let groups: Vec<(usize, usize)> = match ndim {
                0 => std::vec![(0, 0)],
                _ => group(&blocks.axes[q], rows),
            };
            for (g0, g1) in groups {
                let mut spans: Vec<Span> = chunk.to_vec();
                for d in 0..q {
                    spans[d] = blocks.axes[d][pick[d]].1;
                }
                let (lo, hi) = match ndim {
                    0 => (0, 0),
                    _ => {
                        let axis = &blocks.axes[q];
                        spans[q] = Span {
                            first: axis[g0].1.first,
                            last: axis[g1].1.last,
                            ..chunk[q]
                        };
                        let (a, b) = (axis[g0].0 as usize, axis[g1].0 as usize);
                        (a.min(b), a.max(b))
                    }
                };
                let stride_q = blocks.stride.get(q).copied().unwrap_or(1);
                let start = fixed + lo * stride_q + later;
                let end = start + (hi - lo) * stride_q + blocks.row(q);
                let first: usize = spans
                    .iter()
                    .zip(strides)
                    .map(|(s, &st)| s.first as usize * st)
                    .sum();
                let last: usize = spans
                    .iter()
                    .zip(strides)
                    .map(|(s, &st)| s.last as usize * st)
                    .sum();
                footprints.push(first..last + 1);
                self.spans.extend_from_slice(&spans);
                self.list.push(Piece {
                    chunk: n,
                    blocks: start..end,
                    region: 0,
                });
            }
            // The next block along the axes before q, the last fastest.
            let mut d = q;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                pick[d] += 1;
                if pick[d] < blocks.axes[d].len() {
                    break;
                }
                pick[d] = 0;
            }
        }
    }

    /// Merges the pieces' footprints (output elements from their first to their last)
    /// that overlap into regions.
    fn assign_regions(&mut self, footprints: &[Range<usize>]) {
        let mut order: Vec<usize> = (0..self.list.len()).collect();
        order.sort_by_key(|&i| footprints[i].start);
        for i in order {
            let f = &footprints[i];
            match self.regions.last_mut() {
                Some(r) if f.start < r.end => r.end = r.end.max(f.end),
                _ => self.regions.push(f.clone()),
            }
            self.list[i].region = self.regions.len() - 1;
        }
    }
}

/// Runs of consecutive entries of `axis` whose blocks lie within `rows` blocks of each
/// other: (first entry, last entry).
fn group(axis: &[(u64, Span)], rows: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut g0 = 0;
    for i in 1..=axis.len() {
        let ends = i == axis.len() || axis[i].0.abs_diff(axis[g0].0) as usize >= rows;
        if ends {
            out.push((g0, i - 1));
            g0 = i;
        }
    }
    out
}
