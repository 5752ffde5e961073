//! Chunks of variable-length blocks (C-Blosc2 3.x's VL-blocks: `blosc2_flags2` bit 0,
//! format version 6), as C-Blosc2 3.3.5 decodes them with `blosc2_decompress_ctx`: the
//! header's `blocksize` field holds the number of blocks; each block starts where its
//! bstarts entry says, with its decompressed length (int32), then one stream up to the
//! next block's start (or `cbytes`): stored as it is when as long as the block, else
//! compressed. The blocks are not split by byte, and hold no runs. Their decoded bytes
//! follow each other in the output.
//!
//! The layout is checked whole before any block, as `initialize_context_decompression`
//! does; each block as `blosc_d` does.

use alloc::vec::Vec;
use core::ops::Range;

use super::blocks::{is_filtered, stream_into, Streams};
use super::output::{Output, Want};
use super::pipeline::{streams_into_dest, unfilter};
use super::scratch::{self, Buffers};
use crate::blosc::Filter;
use crate::chunk::cursor::Cursor;
use crate::chunk::dest::Dest;
use crate::chunk::error::{invalid, ChunkError};
use crate::chunk::header::{at, ChunkHeader, INT32_LEN};

/// One block: where its bytes are in the chunk, where its decoded bytes go.
struct Block {
    /// Its bstarts entry's offset, for errors.
    entry_at: usize,
    /// From its length field to the next block's start.
    start: usize,
    end: usize,
    /// Its place in the decoded chunk.
    offset: usize,
    len: usize,
}

/// Decodes the blocks `want` asks for into `out` (which holds them from the first
/// block of its range on); the bstarts section (of `header.nblocks()` entries) is in
/// `data`, checked by the caller. Returns the decoded chunk's bytes the range covers.
pub(super) fn decode_vl_blocks(
    header: &ChunkHeader,
    data: &[u8],
    dict: Option<&[u8]>,
    out: &mut Output<'_>,
    want: &Want<'_>,
) -> Result<Range<usize>, ChunkError> {
    let blocks = layout(header, data)?;
    let bstarts_end = header.len() + blocks.len() * INT32_LEN;
    let range = want.blocks(blocks.len());
    let span = match (blocks.get(range.start), range.end.checked_sub(1)) {
        (Some(first), Some(last)) if !range.is_empty() => {
            first.offset..blocks[last].offset + blocks[last].len
        }
        _ => 0..0,
    };
    out.rebase(span.start);
    if !out.holds(&span) {
        return Err(out.too_small(&span));
    }
    let mut streams = Streams::new(header, dict, bstarts_end);
    let filtered = is_filtered(header);
    let delta = filtered && header.filters.iter().any(|(f, _)| *f == Filter::Delta);
    let mut bufs = scratch::take();
    if delta && !want.is_all(blocks.len()) {
        // Delta XORs each block with the bytes at the chunk's start, which may span
        // several blocks: all are decoded aside, the wanted ones copied.
        let mut whole = Vec::new();
        let mut aside = Output::Grown {
            vec: &mut whole,
            nbytes: header.nbytes as usize,
        };
        for (i, block) in blocks.iter().enumerate() {
            decode_block(header, data, &mut streams, i, block, &mut aside, &mut bufs)?;
        }
        for (_, block) in blocks.iter().enumerate().filter(|(i, _)| want.wants(*i)) {
            let span = block.offset..block.offset + block.len;
            out.block(block.offset, block.len)
                .1
                .copy_from_slice(&whole[span]);
        }
    } else {
        for (i, block) in blocks.iter().enumerate() {
            if want.wants(i) {
                decode_block(header, data, &mut streams, i, block, out, &mut bufs)?;
            }
        }
    }
    scratch::keep(bufs);
    Ok(span)
}

/// The blocks' places, checked as C-Blosc2 3.3.5's `initialize_context_decompression`
/// checks them: each start after the bstarts and the previous start, before the next
/// start (or `cbytes`) with room for its length; each length at least 1; the lengths
/// adding up to `nbytes`.
fn layout(header: &ChunkHeader, data: &[u8]) -> Result<Vec<Block>, ChunkError> {
    let nblocks = header.nblocks();
    let bstarts_end = header.len() + nblocks * INT32_LEN;
    let cbytes = data.len();
    let read_i32 = |at: usize, what| Cursor::at(data, at, what)?.le_i32(what);
    let mut blocks = Vec::with_capacity(nblocks);
    let (mut total, mut previous) = (0usize, 0usize);
    for i in 0..nblocks {
        let entry_at = header.len() + i * INT32_LEN;
        let start = read_i32(entry_at, "a block start (bstarts)")?;
        let end = match i + 1 < nblocks {
            true => read_i32(entry_at + INT32_LEN, "a block start (bstarts)")?,
            false => cbytes as i32,
        };
        let (start, end) = (start.max(0) as usize, end.max(0) as usize);
        if start < bstarts_end
            || start <= previous
            || end <= start
            || end > cbytes
            || start + INT32_LEN > cbytes
        {
            return Err(invalid(
                entry_at,
                "a variable-length block's start (bstarts)",
                "after the bstarts and the previous block's start, before the next block's \
                 start (or cbytes) and cbytes - 4",
                start as i64,
            ));
        }
        let len = read_i32(start, "a variable-length block's length")?;
        if len <= 0 {
            return Err(invalid(
                start,
                "a variable-length block's length",
                "at least 1",
                i64::from(len),
            ));
        }
        let offset = total;
        total += len as usize;
        if total > header.nbytes as usize {
            return Err(invalid(
                start,
                "a variable-length block's length",
                "within nbytes, with the blocks before it",
                i64::from(len),
            ));
        }
        blocks.push(Block {
            entry_at,
            start,
            end,
            offset,
            len: len as usize,
        });
        previous = start;
    }
    if total != header.nbytes as usize {
        return Err(invalid(
            at::NBYTES,
            "nbytes",
            "the sum of the variable-length blocks' lengths",
            i64::from(header.nbytes),
        ));
    }
    Ok(blocks)
}

/// Block `i` into its place in `out` (`blosc_d` with variable-length blocks: one
/// stream; its length field must be the block's length; delta XORs with the chunk's
/// first bytes, which for a block longer than the bytes before it run on into itself).
fn decode_block(
    header: &ChunkHeader,
    data: &[u8],
    streams: &mut Streams<'_>,
    i: usize,
    block: &Block,
    out: &mut Output<'_>,
    bufs: &mut Buffers,
) -> Result<(), ChunkError> {
    // C: the block's compressed bytes must be more than its length field.
    if block.end - block.start <= INT32_LEN {
        return Err(invalid(
            block.entry_at,
            "a variable-length block's start (bstarts)",
            "more than 4 bytes before the next block's start (or cbytes)",
            block.start as i64,
        ));
    }
    let src = &data[block.start + INT32_LEN..block.end];
    let (done, block_out) = out.block(block.offset, block.len);
    if !is_filtered(header) {
        return stream_into(streams, (src, src), block.start + INT32_LEN, block_out);
    }
    if streams_into_dest(header) {
        stream_into(streams, (src, src), block.start + INT32_LEN, block_out)?;
    } else {
        let line = scratch::line(&mut bufs[0], block.len);
        stream_into(streams, (src, src), block.start + INT32_LEN, line)?;
    }
    let reference = if i == 0 { None } else { Some(done) };
    unfilter(
        header,
        reference,
        &mut Dest::Slice(block_out),
        block.len,
        bufs,
    )
}
