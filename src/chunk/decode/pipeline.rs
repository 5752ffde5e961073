//! Undoing a block's filter pipeline as C-Blosc2 3.3.5 does (`blosc_d` and
//! `pipeline_backward` in `blosc/blosc2.c`): the filters are undone from the last slot
//! to the first, each from one of three scratch buffers or the destination into
//! another, the three rotating after each filter; delta works in place on the
//! destination, whatever the buffer the previous filter wrote (so a delta undone after
//! another filter that came after a delta reads that filter's input: C's result, kept).
//!
//! When the first filter undone is delta, C decodes the streams straight into the
//! destination ([`streams_into_dest`]).

use alloc::vec::Vec;

use super::scratch::{self, lined, lined_mut, Buffers};
use crate::blosc::{Filter, MAX_FILTERS};
use crate::chunk::dest::Dest;
use crate::chunk::error::{ChunkError, ChunkErrorKind};
use crate::chunk::filters;
use crate::chunk::header::ChunkHeader;
use crate::simd::Unit;

/// Where a filter reads or writes: the block's place in the destination, or a scratch
/// buffer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Buf {
    Dest,
    Tmp(usize),
}

/// Whether C undoes `filter` (truncation of precision needs no undoing).
fn undone(filter: Filter) -> bool {
    !matches!(filter, Filter::None | Filter::TruncPrec)
}

/// The first filter undone (the one in the highest slot).
fn first_undone(header: &ChunkHeader) -> Option<Filter> {
    header
        .filters
        .iter()
        .rev()
        .map(|(f, _)| *f)
        .find(|&f| undone(f))
}

/// Whether the streams of a filtered block go straight to the destination (C: "If no
/// filters, or only DELTA in pipeline").
pub(super) fn streams_into_dest(header: &ChunkHeader) -> bool {
    first_undone(header) == Some(Filter::Delta)
}

/// Whether the one filter undone is the byte-shuffle of the chunk's typesize: its rows
/// are the block's streams, which it may read where they are.
pub(super) fn only_shuffle(header: &ChunkHeader) -> bool {
    let mut undone_filters = header.filters.iter().filter(|(f, _)| undone(*f));
    let typesize = header.typesize;
    matches!(undone_filters.next(), Some(&(Filter::Shuffle, meta)) if meta == 0 || meta == typesize)
        && undone_filters.next().is_none()
}

/// Undoes the pipeline on one block of `n` bytes. The streams are in `bufs[0]` (from
/// its first cache line, [`scratch::line`]), or in `dest` when [`streams_into_dest`];
/// the result ends in `dest`, which the last filter writes as it goes (appended to a
/// vector, unless delta must work on it in place). `reference` is what delta XORs
/// with: the chunk's first decoded bytes, `None` in the first block (whose delta is a
/// running XOR).
pub(super) fn unfilter(
    header: &ChunkHeader,
    reference: Option<&[u8]>,
    dest: &mut Dest<'_>,
    n: usize,
    bufs: &mut Buffers,
) -> Result<(), ChunkError> {
    let unit = Unit::detected();
    let typesize = usize::from(header.typesize);
    let slots = &header.filters;
    let Some(last) = (0..MAX_FILTERS).find(|&s| undone(slots[s].0)) else {
        return Ok(());
    };
    let next_is_delta = |slot: usize| {
        (0..slot).rev().map(|s| slots[s].0).find(|&f| undone(f)) == Some(Filter::Delta)
    };
    let [tmp @ .., bits, _zeros] = bufs;
    for t in tmp.iter_mut() {
        scratch::line(t, n);
    }
    let (mut src, mut dst, mut spare) = (Buf::Tmp(0), Buf::Tmp(1), Buf::Tmp(2));
    for slot in (last..MAX_FILTERS).rev() {
        let (filter, meta) = slots[slot];
        if !undone(filter) {
            continue;
        }
        // The last filter, delta, and the one before a delta write the destination.
        let to_dest = slot == last || filter == Filter::Delta || next_is_delta(slot);
        if to_dest && (filter == Filter::Delta || src != Buf::Dest) {
            dst = Buf::Dest;
        }
        // Meta 0 means the header's typesize; for bytedelta, the super-chunk's, which a
        // chunk alone does not have: C refuses it ("When meta is 0, you need to be on a
        // schunk!", BLOSC2_ERROR_FAILURE). python-blosc2 always writes the size.
        if filter == Filter::ByteDelta && meta == 0 {
            return Err(ChunkError::at(
                header.filter_meta_offset(slot),
                ChunkErrorKind::InvalidField {
                    field: "bytedelta's meta (its element size)",
                    expected: "from 1 to 255 (0 takes a super-chunk's typesize)",
                    found: 0,
                },
            ));
        }
        let size = if meta == 0 {
            typesize
        } else {
            usize::from(meta)
        };
        match filter {
            Filter::Delta => filters::delta::undelta(typesize, reference, dest.whole(0, n)),
            // C's `int_trunc_backward` copies (truncation cannot be undone); a copy of a
            // buffer onto itself, which C's rotation after two deltas can ask, leaves it.
            Filter::IntTrunc if src == dst => {}
            Filter::Shuffle | Filter::ByteDelta | Filter::BitShuffle | Filter::IntTrunc => {
                let (from, mut to) = pair(dest, tmp, src, dst, n).ok_or_else(|| {
                    ChunkError::at(
                        header.filter_offset(slot),
                        ChunkErrorKind::Unsupported {
                            feature: "a filter pipeline C-Blosc2 undoes over its own input",
                        },
                    )
                })?;
                let version = header.version;
                match filter {
                    Filter::Shuffle => filters::shuffle::unshuffle_to(unit, size, from, &mut to),
                    Filter::ByteDelta => {
                        filters::bytedelta::unbytedelta(size, from, to.whole(0, n))
                    }
                    Filter::IntTrunc => to.put(0, from),
                    _ => filters::bitshuffle::unshuffle_to(
                        unit, typesize, version, from, bits, &mut to,
                    ),
                }
            }
            other => {
                return Err(ChunkError::at(
                    header.filter_offset(slot),
                    ChunkErrorKind::FilterNotDecoded { filter: other },
                ));
            }
        }
        (src, dst, spare) = (dst, spare, src);
    }
    if let Buf::Tmp(k) = src {
        dest.put(0, lined(&tmp[k], n));
    }
    Ok(())
}

/// The `n` bytes a filter reads and where it writes, `None` when they are the same.
fn pair<'a>(
    dest: &'a mut Dest<'_>,
    tmp: &'a mut [Vec<u8>],
    src: Buf,
    dst: Buf,
    n: usize,
) -> Option<(&'a [u8], Dest<'a>)> {
    match (src, dst) {
        (Buf::Dest, Buf::Tmp(k)) => {
            Some((dest.whole(0, n), Dest::Slice(lined_mut(&mut tmp[k], n))))
        }
        (Buf::Tmp(j), Buf::Dest) => Some((lined(&tmp[j], n), dest.reborrow())),
        (Buf::Tmp(j), Buf::Tmp(k)) if j != k => {
            let [from, to] = tmp.get_disjoint_mut([j, k]).ok()?;
            Some((lined(from, n), Dest::Slice(lined_mut(to, n))))
        }
        _ => None,
    }
}
