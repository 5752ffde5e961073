//! One chunk of a new array: laid out as C-Blosc2 lays it out (blocks in C order,
//! padding zeroed; `grid` and `plan` are the one place of that layout) unless the input
//! already is that layout (python's default blocks), then compressed
//! ([`chunk::compress`], C-Blosc2's `blosc2_compress_ctx`); an all-zero chunk is C's
//! zeros special chunk, which the frame indexes without storing, as python does. A
//! chunk that is one stretch of a file is read from it as it is compressed, a block (or
//! 64 KiB) at a time.

use std::vec::Vec;

use super::layout::Layout;
use crate::array::error::ArrayError;
use crate::blosc::Special;
use crate::chunk::{self, ChunkHeader, Input};
use crate::io::{read_full_at, ReadAt};

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
    let coords = chunk_coords(layout, n, &mut scratch.coords);
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
    compress(layout, src, threads, out)
}

/// Chunk `n`'s coordinates in the chunk grid, in `coords`.
fn chunk_coords<'c>(layout: &Layout, n: u64, coords: &'c mut Vec<u64>) -> &'c [u64] {
    let grid = &layout.grid;
    coords.clear();
    let mut rest = n;
    for d in (0..grid.ndim()).rev() {
        let per = grid.chunks_per_axis[d];
        coords.push(rest % per);
        rest /= per;
    }
    coords.reverse();
    coords
}

/// Where chunk `n`'s bytes start in the input, counted from element `base`, when the
/// chunk is one stretch of it in its order (then it needs no laying out).
pub(super) fn stretch_at(
    layout: &Layout,
    n: u64,
    base: usize,
    scratch: &mut Scratch,
) -> Option<usize> {
    let grid = &layout.grid;
    let coords = chunk_coords(layout, n, &mut scratch.coords);
    if !grid.chunk_is_one_stretch(coords) {
        return None;
    }
    let (mut at, mut stride) = (0u128, 1u128);
    for d in (0..grid.ndim()).rev() {
        at += u128::from(coords[d] * grid.chunkshape[d]) * stride;
        stride *= u128::from(grid.shape[d]);
    }
    Some((at - base as u128) as usize * layout.itemsize)
}

/// A chunk's bytes at `offset` of a source, read a window at a time as its blocks are
/// asked for.
pub(super) struct FromSource<'a> {
    pub source: &'a (dyn ReadAt + Sync),
    pub offset: u64,
    pub len: usize,
}

/// The least a read of a [`FromSource`] takes: small blocks are read several at a time
/// (one read a block cost a third more on 4 KiB blocks).
const WINDOW: usize = 64 << 10;

/// What a thread last read of a chunk: its bytes from `start` on.
#[derive(Default)]
pub(super) struct Window {
    bytes: Vec<u8>,
    start: usize,
    len: usize,
}

impl Input for FromSource<'_> {
    type Error = ArrayError;
    type Buffer = Window;

    fn len(&self) -> usize {
        self.len
    }

    fn bytes<'a>(
        &'a self,
        at: usize,
        len: usize,
        w: &'a mut Window,
    ) -> Result<&'a [u8], ArrayError> {
        if at < w.start || at + len > w.start + w.len {
            let want = len.max(WINDOW).min(self.len - at);
            // Kept from read to read: zeroed (and its pages mapped) once.
            if w.bytes.len() < want {
                w.bytes.resize(want, 0);
            }
            let got = read_full_at(self.source, &mut w.bytes[..want], self.offset + at as u64)?;
            if got < want {
                return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
            }
            (w.start, w.len) = (at, want);
        }
        Ok(&w.bytes[at - w.start..][..len])
    }
}

/// Compresses one chunk into `out`; true when it is the zeros special chunk, which is
/// not stored.
pub(super) fn compress<I: Input<Error: Into<ArrayError>> + ?Sized>(
    layout: &Layout,
    src: &I,
    threads: usize,
    out: &mut Vec<u8>,
) -> Result<bool, ArrayError> {
    chunk::compress_into(src, &layout.cparams, threads, out).map_err(Into::into)?;
    Ok(ChunkHeader::parse(out)
        .ok()
        .and_then(|h| h.special())
        .is_some_and(|s| s == Special::Zero))
}
