//! Decoding a whole chunk: special values, memcpyed chunks, and blocks of streams
//! (`initialize_context_decompression` in C-Blosc2's `blosc/blosc2.c`); the blocks
//! themselves are decoded in `blocks.rs`.

use alloc::vec::Vec;
use core::ops::Range;

use super::blocks::decode_blocks;
use super::cursor::{short_of, Cursor};
use super::error::{invalid, ChunkError, ChunkErrorKind};
use super::header::{at, ChunkHeader, BLOSC2_LAZY, BLOSC2_USEDICT, BLOSC2_VL_BLOCKS};
use super::output::{fill_repeated, Output, Stored, Want};
use super::vlblocks::decode_vl_blocks;
use crate::blosc::{Filter, Special};

/// The most decompressed bytes [`decode`] accepts from one chunk: 64 MiB.
pub const DEFAULT_MAX_NBYTES: u32 = 64 << 20;

/// Length of a block start or a stream's `csize` (`int32_t`).
const INT32_LEN: usize = 4;
/// Every block of a chunk, each written.
const EVERY: Want<'static> = Want {
    range: 0..usize::MAX,
    mask: None,
};
/// The largest dictionary C-Blosc2 reads (`BLOSC2_MAXDICTSIZE`).
pub(super) const MAX_DICT_SIZE: i32 = 128 << 10;

/// Decodes a whole chunk into its uncompressed bytes, refusing chunks that declare more
/// than [`DEFAULT_MAX_NBYTES`].
///
/// Bytes after the chunk's `cbytes` are ignored, as C-Blosc2 ignores them.
///
/// ```
/// let mut chunk = vec![5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([0x81, 0xa1, 0x61, 0x01]);
/// assert_eq!(b2nd_meta::chunk::decode(&chunk)?, [0x81, 0xa1, 0x61, 0x01]);
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
pub fn decode(chunk: &[u8]) -> Result<Vec<u8>, ChunkError> {
    decode_with_limit(chunk, DEFAULT_MAX_NBYTES)
}

/// [`decode`], refusing chunks that declare more than `max_nbytes` uncompressed bytes
/// before anything is allocated. Nothing beyond the header's `nbytes` is ever produced.
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkErrorKind};
/// // A chunk of 1 GiB of zeros, in 32 bytes.
/// let mut zeros = vec![5, 1, 5, 1, 0, 0, 0, 0x40, 0, 0, 0, 1, 32, 0, 0, 0];
/// zeros.extend([0; 15]);
/// zeros.push(0x10);
/// let err = chunk::decode_with_limit(&zeros, 1 << 20).unwrap_err();
/// assert!(matches!(err.kind(), ChunkErrorKind::TooLarge { nbytes: 0x4000_0000, .. }));
/// ```
pub fn decode_with_limit(chunk: &[u8], max_nbytes: u32) -> Result<Vec<u8>, ChunkError> {
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

/// Decodes only the blocks `wanted` picks (by index, from 0 to
/// [`ChunkHeader::nblocks`]) into their place in `dest`, as [`decode_into`] places the
/// whole chunk (block `i` at `i * blocksize`, see [`ChunkHeader::block_span`]), and
/// returns the chunk's `nbytes`. The bytes of the blocks not wanted are left as they
/// were in `dest`. What is written equals the whole decode's bytes there: when delta
/// needs the first block to undo a later one, the first block is decoded aside (and
/// not written unless wanted). C-Blosc2's `blosc2_set_maskout` skips the same blocks
/// (it takes the complement: `true` there skips a block).
///
/// The header, the bstarts section and the dictionary are checked as [`decode_into`]
/// checks them; the streams of the blocks not decoded are not read, so an error in one
/// of them is not found.
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkHeader};
/// // Two blocks of 2 bytes, stored as they are: 01 02 | 03 04.
/// let mut chunk = vec![5, 1, 7, 1, 4, 0, 0, 0, 2, 0, 0, 0, 36, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([1, 2, 3, 4]);
/// let header = ChunkHeader::parse(&chunk)?;
/// assert_eq!((header.nblocks(), header.block_span(1)), (2, Some(2..4)));
/// let mut dest = [0xee; 4];
/// chunk::decode_blocks_into(&chunk, |block| block == 1, &mut dest)?;
/// assert_eq!(dest, [0xee, 0xee, 3, 4]);
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
pub fn decode_blocks_into(
    chunk: &[u8],
    wanted: impl Fn(usize) -> bool,
    dest: &mut [u8],
) -> Result<usize, ChunkError> {
    let limit = u32::try_from(dest.len()).unwrap_or(u32::MAX);
    let want = Want {
        range: 0..usize::MAX,
        mask: Some(&wanted),
    };
    let span = decode_to(chunk, Stored::Chunk, limit, &want, |_, _| Output::Given {
        dest,
        base: 0,
    })?;
    Ok(span.end)
}

/// Decodes the blocks of `blocks` (by index; those past the last are none) that
/// `wanted` picks into `dest`, which holds those blocks only: the bytes the whole
/// decode puts from the first block of the range on go from `dest`'s start
/// ([`ChunkHeader::block_span`] less the first block's start; for variable-length
/// blocks, their lengths one after the other). Returns how many bytes the range's
/// blocks hold; a `dest` shorter is refused before anything is written. The bytes of
/// the blocks not wanted are left as they were; what is written equals the whole
/// decode's bytes there (delta's first block is decoded aside when it is not in
/// `dest`). Nothing is allocated but the scratch of a block (with delta, the first
/// block's bytes; with variable-length blocks and delta, the chunk's).
///
/// ```
/// use b2nd_meta::chunk;
/// // Three blocks of 2 bytes, stored as they are: 01 02 | 03 04 | 05 06.
/// let mut chunk = vec![5, 1, 7, 1, 6, 0, 0, 0, 2, 0, 0, 0, 38, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([1, 2, 3, 4, 5, 6]);
/// let mut dest = [0xee; 4];
/// assert_eq!(chunk::decode_range_into(&chunk, 1..3, |block| block != 1, &mut dest)?, 4);
/// assert_eq!(dest, [0xee, 0xee, 5, 6]);
/// assert!(chunk::decode_range_into(&chunk, 0..3, |_| true, &mut dest).is_err());
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
pub fn decode_range_into(
    chunk: &[u8],
    blocks: Range<usize>,
    wanted: impl Fn(usize) -> bool,
    dest: &mut [u8],
) -> Result<usize, ChunkError> {
    let want = Want {
        range: blocks,
        mask: Some(&wanted),
    };
    decode_want(chunk, Stored::Chunk, &want, dest)
}

/// [`decode_range_into`] for a request and a source of blocks' bytes: `dest` holds the
/// range's blocks.
pub(super) fn decode_want(
    chunk: &[u8],
    stored: Stored<'_, '_>,
    want: &Want<'_>,
    dest: &mut [u8],
) -> Result<usize, ChunkError> {
    // Nothing is allocated of the chunk's size: no limit but the destination's.
    let span = decode_to(chunk, stored, u32::MAX, want, |_, _| Output::Given {
        dest,
        base: 0,
    })?;
    Ok(span.len())
}

/// The checks and the decoding every entry point shares: `output` is asked for where
/// the chunk's bytes go once its header, bstarts and dictionary are checked (it is given
/// the chunk's length and `nbytes`, at most `max_nbytes`). `chunk` is the chunk, or with
/// [`Stored::Parts`] its prefix (see [`super::Parts`]). Returns the bytes of the decoded
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

/// A chunk that is one value repeated (`blosc2_flags` bits 4..6): its value, checked as
/// C-Blosc2 3.3.5 fills it block by block (`blosc_d`, `set_values`, `set_nans`): each
/// block whole values, NaNs only of 4 or 8 bytes. `data` is the chunk from its start
/// (only a repeated value's bytes are read from it, `cbytes - 32` after the header).
/// Empty for a chunk of no bytes.
pub(crate) fn special_value<'a>(
    header: &ChunkHeader,
    special: Special,
    data: &'a [u8],
) -> Result<&'a [u8], ChunkError> {
    let nbytes = header.nbytes as usize;
    let value: &[u8] = match special {
        // C leaves an uninitialised chunk's destination as it was; this decoder writes
        // zeros.
        Special::Zero | Special::Uninit => &[0],
        // No block, nothing for C to fill: any typesize.
        Special::Nan if nbytes == 0 => &[],
        Special::Nan => match header.typesize {
            4 => &[0x00, 0x00, 0xc0, 0x7f],
            8 => &[0, 0, 0, 0, 0, 0, 0xf8, 0x7f],
            other => {
                return Err(invalid(3, "typesize", "4 or 8 for NaNs", i64::from(other)));
            }
        },
        // Its width is cbytes - 32 (checked with the header to divide nbytes).
        Special::Value => {
            let span = header.len()..header.len() + header.value_width();
            data.get(span).ok_or_else(|| {
                ChunkError::at(
                    data.len(),
                    ChunkErrorKind::UnexpectedEnd {
                        what: "the repeated value",
                        input_len: data.len() as u64,
                        needed: (header.cbytes as usize).saturating_sub(data.len()) as u64,
                    },
                )
            })?
        }
    };
    // Every block but the last has blocksize bytes (capped at nbytes), the last the
    // rest; nbytes is a multiple of the value's width, so only blocksize can split one.
    if nbytes > 0 && !(header.blocksize as usize).is_multiple_of(value.len()) {
        return Err(invalid(
            8,
            "blocksize",
            "a multiple of the special value's width",
            i64::from(header.blocksize),
        ));
    }
    Ok(value)
}

/// A special chunk's value over its bytes (or the blocks `want` asks for).
fn decode_special(
    header: &ChunkHeader,
    special: Special,
    data: &[u8],
    out: &mut Output<'_>,
    want: &Want<'_>,
) -> Result<(), ChunkError> {
    let nbytes = header.nbytes as usize;
    let value = special_value(header, special, data)?;
    if want.is_all(header.nblocks()) {
        out.repeat(value, nbytes);
        return Ok(());
    }
    // Each block starts at a whole value (blocksize is a multiple of its width).
    for (_, span) in header.block_spans().filter(|(i, _)| want.wants(*i)) {
        fill_repeated(out.block(span.start, span.len()).1, value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The filter pipeline as a chunk runs it, on hand-assembled chunks (the filters
    //! themselves are tested in `filters/`).
    use super::decode;
    use alloc::vec;
    use alloc::vec::Vec;

    /// A chunk of one unsplit block per `blocks` entry, each stored as it is (a stream
    /// as long as the block), with the filters and their metas of the six slots.
    fn chunk(typesize: u8, filters: [u8; 6], metas: [u8; 6], blocks: &[&[u8]]) -> Vec<u8> {
        let blocksize = blocks[0].len() as u32;
        let nbytes: u32 = blocks.iter().map(|b| b.len() as u32).sum();
        let starts = 32 + 4 * blocks.len() as u32;
        let cbytes = starts + blocks.iter().map(|b| 4 + b.len() as u32).sum::<u32>();
        // Version 5, LZ4 1; extended header and no split, BloscLZ.
        let mut c = vec![5, 1, 0x15, typesize];
        for n in [nbytes, blocksize, cbytes] {
            c.extend(n.to_le_bytes());
        }
        c.extend(filters);
        c.extend([0, 0]);
        c.extend(metas);
        c.extend([0, 0]);
        let mut at = starts;
        for b in blocks {
            c.extend(at.to_le_bytes());
            at += 4 + b.len() as u32;
        }
        for b in blocks {
            c.extend((b.len() as u32).to_le_bytes());
            c.extend_from_slice(b);
        }
        c
    }

    /// The pipeline as a chunk runs it (last slot first), by hand: (typesize, filters,
    /// metas, stored blocks, decoded).
    #[test]
    fn pipelines_by_hand() {
        const NO_META: [u8; 6] = [0; 6];
        type Case<'a> = (u8, [u8; 6], [u8; 6], &'a [&'a [u8]], &'a [u8]);
        let cases: [Case; 8] = [
            // Truncation of precision needs no undoing.
            (1, [0, 0, 0, 0, 0, 4], NO_META, &[b"abcd"], b"abcd"),
            (
                4,
                [0, 0, 0, 0, 1, 4],
                NO_META,
                &[&[1, 9, 2, 9, 3, 9, 4, 9]],
                &[1, 2, 3, 4, 9, 9, 9, 9][..],
            ),
            // Shuffle of the typesize, or of the slot's meta.
            (
                2,
                [0, 0, 0, 0, 0, 1],
                NO_META,
                &[&[1, 3, 2, 4]],
                &[1, 2, 3, 4],
            ),
            (
                4,
                [0, 0, 0, 0, 0, 1],
                [0, 0, 0, 0, 0, 2],
                &[&[1, 3, 2, 4]],
                &[1, 2, 3, 4],
            ),
            // Shuffle then delta, undone as delta then unshuffle.
            (
                2,
                [0, 0, 0, 0, 1, 3],
                NO_META,
                &[&[1, 3, 3, 7]],
                &[1, 2, 3, 4],
            ),
            // Delta in a later block XORs with the first block's decoded bytes.
            (
                1,
                [0, 0, 0, 0, 0, 3],
                NO_META,
                &[&[1, 1, 1, 1], &[1, 2, 3, 4]],
                &[1, 0, 1, 0, 0, 2, 2, 4],
            ),
            // Bitshuffle: the bit rows of 8 elements, the rest copied (format 3+).
            (
                1,
                [0, 0, 0, 0, 0, 2],
                NO_META,
                &[&[2, 0, 0, 0, 0, 0, 0, 1, 0xaa]],
                &[0x80, 1, 0, 0, 0, 0, 0, 0, 0xaa],
            ),
            // Bytedelta after shuffle (its meta the element size: C-Blosc2 3.3.5 takes
            // 0 for a super-chunk's typesize, which a lone chunk has not).
            (
                2,
                [0, 0, 0, 0, 1, 35],
                [0, 0, 0, 0, 0, 2],
                &[&[1, 1, 1, 5, 0xff, 2]],
                &[1, 5, 2, 4, 3, 6],
            ),
        ];
        for (i, (typesize, filters, metas, blocks, expected)) in cases.into_iter().enumerate() {
            let decoded = decode(&chunk(typesize, filters, metas, blocks));
            assert_eq!(decoded.as_deref(), Ok(expected), "case {i}");
        }
    }
}
