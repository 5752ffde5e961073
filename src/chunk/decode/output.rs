//! What a decode writes and where: the blocks asked for ([`Want`]), where their stored
//! bytes are ([`Stored`]), and the destination of their decoded bytes ([`Output`]).

use alloc::vec::Vec;
use core::ops::Range;

use crate::chunk::dest::grow_zeroed;
use crate::chunk::dest::Dest;
use crate::chunk::error::{ChunkError, ChunkErrorKind};
use crate::chunk::header::at;

/// The blocks a decode writes: those of `range` (the destination holds them, the first
/// at its start) that `mask` picks (all of them without a mask).
pub(super) struct Want<'a> {
    pub(super) range: Range<usize>,
    pub(super) mask: Option<&'a dyn Fn(usize) -> bool>,
}

impl Want<'_> {
    /// The range's blocks of a chunk of `nblocks`.
    pub(super) fn blocks(&self, nblocks: usize) -> Range<usize> {
        self.range.start.min(nblocks)..self.range.end.min(nblocks)
    }

    /// Whether block `block` is written.
    pub(super) fn wants(&self, block: usize) -> bool {
        self.range.contains(&block) && self.mask.is_none_or(|m| m(block))
    }

    /// Whether every block of a chunk of `nblocks` is written.
    pub(super) fn is_all(&self, nblocks: usize) -> bool {
        self.range.start == 0 && self.range.end >= nblocks && self.mask.is_none()
    }
}

/// Where the blocks' stored bytes are.
#[derive(Clone, Copy)]
pub(super) enum Stored<'f, 's> {
    /// In the chunk, held whole: a block's streams may run on to `cbytes`, as C-Blosc2
    /// reads a chunk in memory.
    Chunk,
    /// Each block's own bytes, read on their own (see [`super::Parts`]): its streams end
    /// where they end, as C-Blosc2 reads a block of a chunk on disk.
    Parts(&'f dyn Fn(usize) -> Option<&'s [u8]>),
}

/// Where a chunk's bytes go: a vector grown block by block, or the caller's slice, which
/// holds the chunk's bytes from `base` on. The vector starts with what the input
/// justifies (the caller's reservation); a block that does not fit grows it to the
/// chunk's `nbytes` at once (at most the caller's limit), so that no block is copied by
/// a reallocation.
pub(super) enum Output<'a> {
    Grown { vec: &'a mut Vec<u8>, nbytes: usize },
    Given { dest: &'a mut [u8], base: usize },
}

impl Output<'_> {
    /// Whether the chunk's bytes `span` have their place (in a slice: from `base` on,
    /// within it).
    pub(super) fn holds(&self, span: &Range<usize>) -> bool {
        match self {
            Output::Grown { .. } => true,
            Output::Given { dest, base } => span.start >= *base && span.end - base <= dest.len(),
        }
    }

    /// The refusal of a span the output does not hold: its length, and the slice's.
    pub(super) fn too_small(&self, span: &Range<usize>) -> ChunkError {
        let limit = match self {
            Output::Grown { nbytes, .. } => *nbytes,
            Output::Given { dest, .. } => dest.len(),
        };
        ChunkError::at(
            at::NBYTES,
            ChunkErrorKind::TooLarge {
                nbytes: span.len() as u64,
                limit: limit as u64,
            },
        )
    }

    /// Makes a slice hold the chunk's bytes from `base` on.
    pub(super) fn rebase(&mut self, to: usize) {
        if let Output::Given { base, .. } = self {
            *base = to;
        }
    }

    /// The bytes before `start` that the output holds (decoded already), and the `len`
    /// bytes from `start` (which [`Output::holds`]).
    pub(super) fn block(&mut self, start: usize, len: usize) -> (&[u8], &mut [u8]) {
        let (all, start) = match self {
            Output::Grown { vec, nbytes } => {
                if start + len > vec.capacity() && !vec.is_empty() {
                    let more = (*nbytes).max(start + len) - vec.len();
                    vec.reserve_exact(more);
                }
                grow_zeroed(vec, start + len);
                (&mut vec[..], start)
            }
            Output::Given { dest, base } => (&mut dest[..], start - *base),
        };
        let (done, rest) = all.split_at_mut(start);
        (done, &mut rest[..len])
    }

    /// Where block `start .. start + len` goes, for a step that writes it whole: a
    /// grown vector is appended to (it holds the blocks before, decoded in order).
    pub(super) fn dest(&mut self, start: usize, len: usize) -> Dest<'_> {
        match self {
            Output::Grown { vec, nbytes } => Dest::Append {
                vec,
                start,
                room: *nbytes,
            },
            Output::Given { dest, base } => {
                Dest::Slice(&mut dest[start - *base..start - *base + len])
            }
        }
    }

    /// `bytes` as the whole output.
    pub(super) fn put(&mut self, bytes: &[u8]) {
        match self {
            Output::Grown { vec, .. } => vec.extend_from_slice(bytes),
            Output::Given { dest, .. } => dest[..bytes.len()].copy_from_slice(bytes),
        }
    }

    /// `value` repeated over the first `len` bytes (a multiple of its length).
    pub(super) fn repeat(&mut self, value: &[u8], len: usize) {
        // A grown vector of zeros is a fresh zeroed allocation already.
        let zeros = value.iter().all(|&b| b == 0) && matches!(self, Output::Grown { .. });
        let (_, all) = self.block(0, len);
        if !zeros {
            fill_repeated(all, value);
        }
    }
}

/// `value` repeated over `dest` (a multiple of its length; nothing when it is empty).
pub(super) fn fill_repeated(dest: &mut [u8], value: &[u8]) {
    match value {
        [] => {}
        [byte] => dest.fill(*byte),
        _ => {
            for element in dest.chunks_exact_mut(value.len()) {
                element.copy_from_slice(value);
            }
        }
    }
}
