//! Decoding a chunk: the three entry points ([`decode`], [`decode_into`],
//! [`decode_range_into`]), and the checks they share before any block: the header, the
//! bstarts, the dictionary, special and memcpyed chunks
//! (`initialize_context_decompression` in C-Blosc2's `blosc/blosc2.c`). The blocks are
//! decoded in `blocks.rs` (or `vlblocks.rs`), their filters undone in `pipeline.rs`.

mod blocks;
mod budget;
mod output;
mod parts;
mod pipeline;
mod scratch;
mod special;
#[cfg(test)]
mod tests;
mod vlblocks;

use alloc::vec::Vec;
use core::ops::{Bound, Range, RangeBounds};

pub use budget::DecodeBudget;
pub use parts::Parts;
#[cfg(feature = "std")]
pub(crate) use special::special_value;

use super::cursor::{short_of, Cursor};
use super::error::{invalid, ChunkError, ChunkErrorKind};
use super::header::{
    at, ChunkHeader, BLOSC2_LAZY, BLOSC2_USEDICT, BLOSC2_VL_BLOCKS, INT32_LEN, MAX_DICT_SIZE,
};
use crate::blosc::Filter;
use blocks::decode_blocks;
use output::{Output, Stored, Want};
use special::decode_special;
use vlblocks::decode_vl_blocks;

/// The most decompressed bytes one chunk may declare unless a [`DecodeBudget`] says
/// otherwise ([`DecodeBudget::with_max_chunk`]): 64 MiB.
pub const DEFAULT_MAX_NBYTES: u32 = 64 << 20;

/// Every block of a chunk, each written.
const EVERY: Want<'static> = Want {
    range: 0..usize::MAX,
    mask: None,
};

/// Decodes a whole chunk into a new vector of its uncompressed bytes, within `budget`:
/// a chunk that declares more than the budget's per-chunk limit
/// ([`DEFAULT_MAX_NBYTES`] unless [`DecodeBudget::with_max_chunk`] changed it) is
/// refused ([`ChunkErrorKind::TooLarge`]), one whose `nbytes` the budget no longer holds
/// too ([`ChunkErrorKind::OverBudget`]), before anything is allocated; otherwise its
/// `nbytes` are spent from the budget. Nothing beyond the header's `nbytes` is ever
/// produced. For one chunk on its own, [`DecodeBudget::default`] is the usual budget.
///
/// Bytes after the chunk's `cbytes` are ignored, as C-Blosc2 ignores them.
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkErrorKind, DecodeBudget};
///
/// // python-blosc2's {"a": 1}: a memcpyed chunk of 4 bytes.
/// let mut chunk = vec![5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([0x81, 0xa1, 0x61, 0x01]);
/// assert_eq!(chunk::decode(&chunk, &DecodeBudget::default())?, [0x81, 0xa1, 0x61, 0x01]);
///
/// // A chunk of 1 GiB of zeros, in 32 bytes, over a per-chunk limit of 1 MiB.
/// let mut zeros = vec![5, 1, 5, 1, 0, 0, 0, 0x40, 0, 0, 0, 1, 32, 0, 0, 0];
/// zeros.extend([0; 15]);
/// zeros.push(0x10);
/// let budget = DecodeBudget::unlimited().with_max_chunk(1 << 20);
/// let err = chunk::decode(&zeros, &budget).unwrap_err();
/// assert!(matches!(err.kind(), ChunkErrorKind::TooLarge { nbytes: 0x4000_0000, .. }));
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
pub fn decode(chunk: &[u8], budget: &DecodeBudget) -> Result<Vec<u8>, ChunkError> {
    decode_within_limit(chunk, budget.max_chunk(), budget)
}

/// [`decode`] with a per-chunk limit of `max_nbytes` in place of the budget's: a chunk
/// of at most `max_nbytes` whose `nbytes` the budget holds is spent from it, then
/// decoded; one the budget does not hold is refused before anything is allocated.
pub(crate) fn decode_within_limit(
    chunk: &[u8],
    max_nbytes: u32,
    budget: &DecodeBudget,
) -> Result<Vec<u8>, ChunkError> {
    let header = ChunkHeader::parse(chunk)?;
    // Over the per-chunk limit: the decoder's own refusal says so.
    if header.nbytes <= max_nbytes {
        budget
            .take(u64::from(header.nbytes))
            .map_err(|e| ChunkError::at(at::NBYTES, ChunkErrorKind::OverBudget(e)))?;
    }
    decode_with_limit(chunk, max_nbytes)
}

/// A whole chunk into a new vector, refusing chunks that declare more than `max_nbytes`
/// uncompressed bytes before anything is allocated.
pub(crate) fn decode_with_limit(chunk: &[u8], max_nbytes: u32) -> Result<Vec<u8>, ChunkError> {
    let mut out = Vec::new();
    let span = decode_to(
        chunk,
        Stored::Chunk,
        max_nbytes,
        &EVERY,
        |data_len, nbytes| {
            // Never more than the input holds up front; the rest grows as blocks decode.
            out.reserve_exact(nbytes.min(data_len.saturating_mul(32)));
            Output::Grown {
                vec: &mut out,
                nbytes,
            }
        },
    )?;
    out.truncate(span.end);
    Ok(out)
}

/// Decodes a whole chunk into the start of `dest`, as C-Blosc2's `blosc2_decompress`
/// does, and returns how many bytes it wrote (the header's `nbytes`). A chunk that
/// declares more than `dest` holds is refused before anything is written
/// ([`ChunkErrorKind::TooLarge`]). Nothing is allocated but the scratch of one block,
/// so decoding many chunks into one buffer costs no allocation of their size.
///
/// ```
/// let mut chunk = vec![5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([0x81, 0xa1, 0x61, 0x01]);
/// let mut buffer = [0u8; 16];
/// let n = b2nd_meta::chunk::decode_into(&chunk, &mut buffer)?;
/// assert_eq!(buffer[..n], [0x81, 0xa1, 0x61, 0x01]);
/// assert!(b2nd_meta::chunk::decode_into(&chunk, &mut buffer[..3]).is_err());
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
pub fn decode_into(chunk: &[u8], dest: &mut [u8]) -> Result<usize, ChunkError> {
    let limit = u32::try_from(dest.len()).unwrap_or(u32::MAX);
    let span = decode_to(chunk, Stored::Chunk, limit, &EVERY, |_, _| Output::Given {
        dest,
        base: 0,
    })?;
    Ok(span.end)
}

/// Decodes the blocks of `blocks` (by index, from 0 to [`ChunkHeader::nblocks`]; those
/// past the last are none, `..` is every block) that `wanted` picks into `dest`, which
/// holds those blocks only: the bytes the whole decode puts from the first block of the
/// range on go from `dest`'s start ([`ChunkHeader::block_span`] less the first block's
/// start; for variable-length blocks, their lengths one after the other). Returns how
/// many bytes the range's blocks hold; a `dest` shorter is refused before anything is
/// written ([`ChunkErrorKind::TooLarge`]).
///
/// The bytes of the blocks not wanted are left as they were in `dest`. What is written
/// equals the whole decode's bytes there: when delta needs the first block to undo a
/// later one, the first block is decoded aside (and not written unless wanted).
/// C-Blosc2's `blosc2_set_maskout` skips the same blocks (it takes the complement:
/// `true` there skips a block). Nothing is allocated but the scratch of a block (with
/// delta, the first block's bytes; with variable-length blocks and delta, the chunk's).
///
/// The header, the bstarts section and the dictionary are checked as [`decode_into`]
/// checks them; the streams of the blocks not decoded are not read, so an error in one
/// of them is not found.
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkHeader};
/// // Three blocks of 2 bytes, stored as they are: 01 02 | 03 04 | 05 06.
/// let mut chunk = vec![5, 1, 7, 1, 6, 0, 0, 0, 2, 0, 0, 0, 38, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([1, 2, 3, 4, 5, 6]);
/// let header = ChunkHeader::parse(&chunk)?;
/// assert_eq!((header.nblocks(), header.block_span(1)), (3, Some(2..4)));
/// // Blocks 1 and 2 into a buffer of their 4 bytes, block 1 not wanted.
/// let mut dest = [0xee; 4];
/// assert_eq!(chunk::decode_range_into(&chunk, 1..3, |block| block != 1, &mut dest)?, 4);
/// assert_eq!(dest, [0xee, 0xee, 5, 6]);
/// assert!(chunk::decode_range_into(&chunk, 0..3, |_| true, &mut dest).is_err());
/// // Every block (`..`), only block 1 written, in place in a buffer of the chunk.
/// let mut whole = [0xee; 6];
/// chunk::decode_range_into(&chunk, .., |block| block == 1, &mut whole)?;
/// assert_eq!(whole, [0xee, 0xee, 3, 4, 0xee, 0xee]);
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
pub fn decode_range_into(
    chunk: &[u8],
    blocks: impl RangeBounds<usize>,
    wanted: impl Fn(usize) -> bool,
    dest: &mut [u8],
) -> Result<usize, ChunkError> {
    let start = match blocks.start_bound() {
        Bound::Included(&s) => s,
        Bound::Excluded(&s) => s.saturating_add(1),
        Bound::Unbounded => 0,
    };
    let end = match blocks.end_bound() {
        Bound::Included(&e) => e.saturating_add(1),
        Bound::Excluded(&e) => e,
        Bound::Unbounded => usize::MAX,
    };
    let want = Want {
        range: start..end,
        mask: Some(&wanted),
    };
    // Every block from the first: `dest` holds the chunk, which may declare no more, as
    // `decode_into` checks it (before the bstarts).
    let limit = match (start, end) {
        (0, usize::MAX) => u32::try_from(dest.len()).unwrap_or(u32::MAX),
        _ => u32::MAX,
    };
    decode_want(chunk, Stored::Chunk, limit, &want, dest)
}

/// [`decode_range_into`] for a request and a source of blocks' bytes: `dest` holds the
/// range's blocks; a chunk that declares more than `max_nbytes` is refused first.
fn decode_want(
    chunk: &[u8],
    stored: Stored<'_, '_>,
    max_nbytes: u32,
    want: &Want<'_>,
    dest: &mut [u8],
) -> Result<usize, ChunkError> {
    // Nothing is allocated of the chunk's size: no limit but the destination's.
    let span = decode_to(chunk, stored, max_nbytes, want, |_, _| Output::Given {
        dest,
        base: 0,
    })?;
    Ok(span.len())
}

/// The checks and the decoding every entry point shares: `output` is asked for where
/// the chunk's bytes go once its header, bstarts and dictionary are checked (it is given
/// the chunk's length and `nbytes`, at most `max_nbytes`). `chunk` is the chunk, or with
/// [`Stored::Parts`] its prefix (see [`Parts`]). Returns the bytes of the decoded
/// chunk that the blocks `want` asks for cover (`0..nbytes` for all of them); only the
/// blocks it picks are written.
fn decode_to<'a>(
    chunk: &[u8],
    stored: Stored<'_, '_>,
    max_nbytes: u32,
    want: &Want<'_>,
    output: impl FnOnce(usize, usize) -> Output<'a>,
) -> Result<Range<usize>, ChunkError> {
    let header = ChunkHeader::parse(chunk)?;
    let cbytes = header.cbytes as usize;
    let data = match stored {
        Stored::Chunk => chunk.get(..cbytes),
        Stored::Parts(_) => chunk.get(..chunk.len().min(cbytes)),
    };
    let Some(data) = data else {
        return Err(short_of(chunk, cbytes, "the cbytes the header declares"));
    };
    let special = header.special();
    let vl_blocks = header.blosc2_flags2 & BLOSC2_VL_BLOCKS != 0;
    if header.nbytes > max_nbytes {
        return Err(ChunkError::at(
            at::NBYTES,
            ChunkErrorKind::TooLarge {
                nbytes: u64::from(header.nbytes),
                limit: u64::from(max_nbytes),
            },
        ));
    }
    let nbytes = header.nbytes as usize;
    if nbytes == 0 && cbytes == header.len() && special.is_none() {
        return Ok(0..0);
    }
    // A lazy chunk's blocks and dictionary are in its frame, which C-Blosc2 reads only
    // through a super-chunk (`blosc_d`, `load_lazy_chunk_dict`); a special chunk is
    // never lazy, and one without blocks needs nothing from the frame.
    let lazy = header.extended && header.blosc2_flags & BLOSC2_LAZY != 0;
    if lazy && (header.blosc2_flags & BLOSC2_USEDICT != 0 || special.is_none() && nbytes > 0) {
        return Err(unsupported(at::BLOSC2_FLAGS, "a lazy chunk"));
    }
    // C-Blosc2 checks the bstarts section and the dictionary before any block.
    let nblocks = header.nblocks();
    let bstarts_end = if special.is_none() && !header.memcpyed() {
        header.len() + nblocks * INT32_LEN
    } else {
        header.len()
    };
    if data.len() < bstarts_end {
        return Err(short_of(data, bstarts_end, "bstarts"));
    }
    let dict = if header.blosc2_flags & BLOSC2_USEDICT != 0 {
        Some(dictionary(data, bstarts_end)?)
    } else {
        None
    };
    let mut out = output(data.len(), nbytes);
    // The decoded bytes of the blocks asked for (variable-length blocks: from their
    // layout, below).
    let span = if vl_blocks {
        0..0
    } else {
        let blocks = want.blocks(nblocks);
        let blocksize = header.blocksize as usize;
        blocks.start * blocksize..(blocks.end.max(blocks.start) * blocksize).min(nbytes)
    };
    out.rebase(span.start);
    if !out.holds(&span) {
        return Err(out.too_small(&span));
    }
    if let Some(special) = special {
        decode_special(&header, special, data, &mut out, want)?;
        return Ok(span);
    }
    // Variable-length blocks are checked even then: their lengths must add up to 0.
    if nbytes == 0 && !vl_blocks {
        return Ok(span);
    }
    if header.memcpyed() {
        decode_memcpyed(&header, data, stored, &mut out, want)?;
        return Ok(span);
    }
    for (slot, (filter, _)) in header.filters.iter().enumerate() {
        if let Filter::Other(_) = filter {
            return Err(ChunkError::at(
                header.filter_offset(slot),
                ChunkErrorKind::FilterNotDecoded { filter: *filter },
            ));
        }
    }
    if vl_blocks {
        return decode_vl_blocks(&header, data, dict, &mut out, want);
    }
    decode_blocks(&header, data, stored, dict, &mut out, want)?;
    Ok(span)
}

/// A memcpyed chunk's blocks (stored as they are after the header; cbytes == nbytes +
/// the header's length was checked with it).
fn decode_memcpyed(
    header: &ChunkHeader,
    data: &[u8],
    stored: Stored<'_, '_>,
    out: &mut Output<'_>,
    want: &Want<'_>,
) -> Result<(), ChunkError> {
    let at = header.len();
    let bytes = data.get(at..).unwrap_or(&[]);
    if let (Stored::Chunk, true) = (stored, want.is_all(header.nblocks())) {
        out.put(bytes);
        return Ok(());
    }
    for (block, span) in header.block_spans().filter(|(i, _)| want.wants(*i)) {
        let src = match stored {
            Stored::Chunk => bytes.get(span.clone()),
            Stored::Parts(stored) => stored(block).and_then(|b| b.get(..span.len())),
        };
        let Some(src) = src else {
            return Err(ChunkError::at(
                at + span.start,
                ChunkErrorKind::BlockEnd {
                    what: "a memcpyed block",
                    end: (at + span.start) as u64,
                    needed: span.len() as u64,
                },
            ));
        };
        out.block(span.start, span.len()).1.copy_from_slice(src);
    }
    Ok(())
}

/// The dictionary section after the bstarts: its length (int32, from 1 to 128 KiB,
/// `BLOSC2_MAXDICTSIZE`), then its bytes.
fn dictionary(data: &[u8], at: usize) -> Result<&[u8], ChunkError> {
    let mut r = Cursor::at(data, at, "the dictionary's size")?;
    let size = r.le_i32("the dictionary's size (int32, little-endian)")?;
    if size <= 0 || size > MAX_DICT_SIZE {
        return Err(invalid(
            at,
            "dictionary size",
            "from 1 to 131072",
            i64::from(size),
        ));
    }
    r.bytes(size as usize, "the dictionary")
}

fn unsupported(offset: usize, feature: &'static str) -> ChunkError {
    ChunkError::at(offset, ChunkErrorKind::Unsupported { feature })
}
