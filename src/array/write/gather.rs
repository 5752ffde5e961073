//! One chunk of a new array: laid out as C-Blosc2 lays it out (blocks in C order,
//! padding zeroed; `grid` and `plan` are the one place of that layout) unless the input
//! already is that layout (python's default blocks), then compressed
//! ([`chunk::compress`], C-Blosc2's `blosc2_compress_ctx`); an all-zero chunk is C's
//! zeros special chunk, which the frame indexes without storing, as python does.

use std::vec::Vec;

use super::layout::Layout;
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::blosc::Special;
use crate::chunk::{self, ChunkHeader};

/// One thread's buffers, kept from chunk to chunk.
#[derive(Default)]
pub(super) struct Scratch {
    coords: Vec<u64>,
    chunk: Vec<u8>,
}

/// Lays a chunk out in `chunk` from the stretches `Grid::chunk_runs` gives, merging
/// adjacent ones; a chunk that is one stretch of the input, in its order, is not
/// copied.
struct Gather<'a> {
    slab: &'a [u8],
    base: usize,
    itemsize: usize,
    chunk: &'a mut Vec<u8>,
    nbytes: usize,
    padded: bool,
    started: bool,
    pending: Option<(usize, usize, usize)>,
}

impl Gather<'_> {
    fn copy(&mut self, (at, in_chunk, len): (usize, usize, usize)) {
        if !self.started {
            self.chunk.resize(self.nbytes, 0);
            if self.padded {
                self.chunk.fill(0);
            }
            self.started = true;
        }
        let size = self.itemsize;
        let from = &self.slab[(at - self.base) * size..][..len * size];
        self.chunk[in_chunk * size..][..len * size].copy_from_slice(from);
    }

    fn run(&mut self, at: usize, in_chunk: usize, len: usize) {
        match self.pending {
            Some((a, i, l)) if a + l == at && i + l == in_chunk => {
                self.pending = Some((a, i, l + len));
            }
            Some(previous) => {
                self.copy(previous);
                self.pending = Some((at, in_chunk, len));
            }
            None => self.pending = Some((at, in_chunk, len)),
        }
    }
}

/// Chunk `n`, laid out from `slab` (the input from element `base` on) and compressed
/// into `out`, its blocks on `threads` threads; true when it is the zeros special
/// chunk, which is not stored.
pub(super) fn compress_chunk(
    layout: &Layout,
    slab: &[u8],
    n: u64,
    base: usize,
    threads: usize,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> Result<bool, ArrayError> {
    let grid = &layout.grid;
    let itemsize = layout.itemsize;
    let nbytes = layout.chunk_nbytes;
    let coords = &mut scratch.coords;
    coords.clear();
    let mut rest = n;
    for d in (0..grid.ndim()).rev() {
        let per = grid.chunks_per_axis[d];
        coords.push(rest % per);
        rest /= per;
    }
    coords.reverse();
    let covered: u64 = (0..grid.ndim())
        .map(|d| {
            let start = coords[d] * grid.chunkshape[d];
            grid.chunkshape[d].min(grid.shape[d] - start)
        })
        .product();
    let mut gather = Gather {
        slab,
        base,
        itemsize,
        chunk: &mut scratch.chunk,
        nbytes,
        padded: covered as usize != grid.chunk_items,
        started: false,
        pending: None,
    };
    grid.chunk_runs(coords, |at, in_chunk, len| gather.run(at, in_chunk, len));
    let direct = match gather.pending {
        Some((at, 0, len)) if !gather.started && len == grid.chunk_items => Some(at),
        Some(last) => {
            gather.copy(last);
            None
        }
        None => {
            gather.chunk.clear();
            gather.chunk.resize(nbytes, 0);
            None
        }
    };
    let src: &[u8] = match direct {
        Some(at) => &slab[(at - base) * itemsize..][..nbytes],
        None => &scratch.chunk[..nbytes],
    };
    chunk::compress_into(src, &layout.cparams, threads, out)
        .map_err(|e| ArrayError::new(ArrayErrorKind::Compress(e)))?;
    Ok(ChunkHeader::parse(out)
        .ok()
        .and_then(|h| h.special())
        .is_some_and(|s| s == Special::Zero))
}
