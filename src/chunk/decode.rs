//! Decoding a whole chunk: special values, memcpyed chunks, and blocks of streams
//! (`blosc_d` in C-Blosc2's `blosc/blosc2.c`), with byte-shuffle undone.

use alloc::vec;
use alloc::vec::Vec;

use super::error::{ChunkError, ChunkErrorKind};
use super::header::{
    ChunkCodec, ChunkHeader, Filter, Special, BLOSC2_LAZY, BLOSC2_USEDICT, BLOSC2_VL_BLOCKS,
    FLAG_DONT_SPLIT, MAX_FILTERS,
};
use crate::error::Expected;
use crate::msgpack::read::Reader;

/// The most decompressed bytes [`decode`] accepts from one chunk: 64 MiB.
pub const DEFAULT_MAX_NBYTES: u32 = 64 << 20;

/// Length of a block start or a stream's `csize` (`int32_t`).
const INT32_LEN: usize = 4;
/// The largest byte a run (negative `csize`) can repeat.
const MAX_RUN_BYTE: i32 = 255;
/// Bit 0 of the token after a negative `csize`: a run of one byte.
const TOKEN_RUN: u8 = 0x01;
/// Offsets of header fields named in errors.
const AT_FLAGS: usize = 2;
const AT_NBYTES: usize = 4;
const AT_FLAGS2: usize = 30;
const AT_BLOSC2_FLAGS: usize = 31;

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
    let header = ChunkHeader::parse(chunk)?;
    let cbytes = header.cbytes as usize;
    let Some(data) = chunk.get(..cbytes) else {
        return Err(ChunkError::at(
            chunk.len(),
            ChunkErrorKind::UnexpectedEnd {
                what: "the cbytes the header declares",
                input_len: chunk.len() as u64,
                needed: (cbytes - chunk.len()) as u64,
            },
        ));
    };
    let special = header.special();
    if header.extended && header.blosc2_flags & BLOSC2_LAZY != 0 && special.is_none() {
        return Err(unsupported(AT_BLOSC2_FLAGS, "a lazy chunk"));
    }
    if header.blosc2_flags2 & BLOSC2_VL_BLOCKS != 0 {
        return Err(unsupported(AT_FLAGS2, "variable-length blocks"));
    }
    if header.nbytes > max_nbytes {
        return Err(ChunkError::at(
            AT_NBYTES,
            ChunkErrorKind::TooLarge {
                nbytes: u64::from(header.nbytes),
                limit: u64::from(max_nbytes),
            },
        ));
    }
    let nbytes = header.nbytes as usize;
    if let Some(special) = special {
        return decode_special(&header, special, data);
    }
    if nbytes == 0 {
        return Ok(Vec::new());
    }
    if header.memcpyed() {
        // cbytes == nbytes + header length was checked with the header.
        return Ok(data.get(header.len()..).unwrap_or(&[]).to_vec());
    }
    if header.blosc2_flags & BLOSC2_USEDICT != 0 {
        return Err(unsupported(AT_BLOSC2_FLAGS, "a dictionary"));
    }
    for (slot, (filter, _)) in header.filters.iter().enumerate() {
        // Blocks with bytes past their last whole element: C keeps those bytes
        // elsewhere than this decoder knows, so such chunks are named, not guessed.
        let width = delta_width(usize::from(header.typesize));
        let ragged =
            !(header.blocksize as usize).is_multiple_of(width) || !nbytes.is_multiple_of(width);
        if *filter == Filter::Delta && ragged {
            return Err(ChunkError::at(
                header.filter_offset(slot),
                ChunkErrorKind::FilterNotDecoded { filter: *filter },
            ));
        }
        if !matches!(
            filter,
            Filter::None | Filter::Shuffle | Filter::BitShuffle | Filter::Delta | Filter::TruncPrec
        ) {
            return Err(ChunkError::at(
                header.filter_offset(slot),
                ChunkErrorKind::FilterNotDecoded { filter: *filter },
            ));
        }
    }
    decode_blocks(&header, data)
}

fn unsupported(offset: usize, feature: &'static str) -> ChunkError {
    ChunkError::at(offset, ChunkErrorKind::Unsupported { feature })
}

fn invalid(offset: usize, field: &'static str, expected: &'static str, found: i64) -> ChunkError {
    ChunkError::at(
        offset,
        ChunkErrorKind::InvalidField {
            field,
            expected,
            found,
        },
    )
}

/// A chunk that is one value repeated (`blosc2_flags` bits 4..6).
fn decode_special(
    header: &ChunkHeader,
    special: Special,
    data: &[u8],
) -> Result<Vec<u8>, ChunkError> {
    let nbytes = header.nbytes as usize;
    match special {
        Special::Zero | Special::Uninit => Ok(vec![0; nbytes]),
        Special::Nan => {
            let nan: &[u8] = match header.typesize {
                4 => &[0x00, 0x00, 0xc0, 0x7f],
                8 => &[0, 0, 0, 0, 0, 0, 0xf8, 0x7f],
                other => {
                    return Err(invalid(3, "typesize", "4 or 8 for NaNs", i64::from(other)));
                }
            };
            Ok(nan.repeat(nbytes / nan.len()))
        }
        Special::Value => {
            // The header check made the value's length divide nbytes.
            let value = data.get(header.len()..).unwrap_or(&[]);
            Ok(value.repeat(nbytes / value.len().max(1)))
        }
    }
}

/// The blocks of a compressed chunk: bstarts, then each block's streams.
fn decode_blocks(header: &ChunkHeader, data: &[u8]) -> Result<Vec<u8>, ChunkError> {
    let nbytes = header.nbytes as usize;
    let blocksize = header.blocksize as usize;
    let nblocks = nbytes.div_ceil(blocksize);
    let leftover = nbytes % blocksize;
    let mut bstarts = Reader::new(data);
    bstarts.seek(header.len(), Expected::Described("bstarts"))?;
    let bstarts_len = nblocks.saturating_mul(INT32_LEN);
    let bstarts_end = header.len().saturating_add(bstarts_len);
    // Checked whole before any block is decoded, as C does.
    bstarts.bytes(bstarts_len, Expected::Described("bstarts"))?;
    bstarts.seek(header.len(), Expected::Described("bstarts"))?;

    // Never more than the input holds up front; the rest grows as blocks decode.
    let mut out = Vec::with_capacity(nbytes.min(data.len()));
    let dont_split = header.flags & FLAG_DONT_SPLIT != 0;
    for block in 0..nblocks {
        let at = bstarts.position();
        let start = bstarts.le_i32(Expected::Described("a block start (bstarts)"))?;
        if start <= 0 || start as usize >= data.len() {
            return Err(ChunkError::at(
                at,
                ChunkErrorKind::BadBlockStart {
                    block: block as u64,
                    found: i64::from(start),
                    min: bstarts_end as u64,
                    cbytes: data.len() as u64,
                },
            ));
        }
        let last = block + 1 == nblocks && leftover > 0;
        let bsize = if last { leftover } else { blocksize };
        let nstreams = if !dont_split && !last {
            usize::from(header.typesize)
        } else {
            1
        };
        let neblock = bsize / nstreams;
        if neblock == 0 || neblock * nstreams != bsize {
            return Err(invalid(
                8,
                "blocksize",
                "a multiple of typesize when blocks are split",
                header.blocksize as i64,
            ));
        }
        let block_start = out.len();
        let mut r = Reader::new(data);
        r.seek(start as usize, Expected::Described("a block"))?;
        for _ in 0..nstreams {
            read_stream(&mut r, header.codec, neblock, &mut out)?;
        }
        unfilter(header, &mut out, block_start);
    }
    Ok(out)
}

/// One stream of `neblock` bytes, appended to `out`.
fn read_stream(
    r: &mut Reader<'_>,
    codec: ChunkCodec,
    neblock: usize,
    out: &mut Vec<u8>,
) -> Result<(), ChunkError> {
    let at = r.position();
    let csize = r.le_i32(Expected::Described(
        "a stream's csize (int32, little-endian)",
    ))?;
    match csize {
        0 => out.resize(out.len() + neblock, 0),
        c if c < 0 => {
            let token = r.byte(Expected::Described("a stream's token"))?;
            if token & TOKEN_RUN == 0 {
                return Err(ChunkError::at(
                    at + INT32_LEN,
                    ChunkErrorKind::BadToken { csize: c, token },
                ));
            }
            if c < -MAX_RUN_BYTE {
                return Err(invalid(
                    at,
                    "csize",
                    "from -255 to -1 for a run of a byte",
                    i64::from(c),
                ));
            }
            out.resize(out.len() + neblock, c.unsigned_abs() as u8);
        }
        c => {
            let src = r.bytes(c as usize, Expected::Described("a compressed stream"))?;
            if src.len() == neblock {
                out.extend_from_slice(src);
            } else {
                decompress(codec, src, neblock, out).map_err(|kind| match kind {
                    ChunkErrorKind::CodecNotDecoded { .. } => ChunkError::at(AT_FLAGS, kind),
                    kind => ChunkError::at(at + INT32_LEN, kind),
                })?;
            }
        }
    }
    Ok(())
}

/// Decompresses `src` into exactly `neblock` more bytes of `out`.
fn decompress(
    codec: ChunkCodec,
    src: &[u8],
    neblock: usize,
    out: &mut Vec<u8>,
) -> Result<(), ChunkErrorKind> {
    match codec {
        #[cfg(feature = "std")]
        ChunkCodec::Zstd => super::zstd::decompress(src, neblock, out),
        #[cfg(feature = "std")]
        ChunkCodec::Lz4 => super::codecs::lz4(src, neblock, out),
        #[cfg(feature = "std")]
        ChunkCodec::Zlib => super::codecs::zlib(src, neblock, out),
        ChunkCodec::BloscLz => super::blosclz::decompress(src, neblock, out),
        other => {
            let _ = (src, neblock, &out);
            Err(ChunkErrorKind::CodecNotDecoded { codec: other })
        }
    }
}

/// Undoes the filter pipeline on the block that starts at `block_start` in `out`,
/// last slot first (shuffle, bitshuffle and delta against the first block; truncation
/// of precision needs no undoing, as in C).
fn unfilter(header: &ChunkHeader, out: &mut [u8], block_start: usize) {
    let Some((done, block)) = out.split_at_mut_checked(block_start) else {
        return;
    };
    for slot in (0..MAX_FILTERS).rev() {
        match header.filters.get(slot) {
            Some((Filter::Shuffle, meta)) => {
                let typesize = if *meta == 0 { header.typesize } else { *meta };
                unshuffle(usize::from(typesize), block);
            }
            Some((Filter::BitShuffle, _)) => {
                let typesize = usize::from(header.typesize);
                super::bitshuffle::unshuffle(typesize, header.version, block);
            }
            Some((Filter::Delta, _)) => {
                undelta(usize::from(header.typesize), done, block);
            }
            _ => {}
        }
    }
}

/// Undoes delta (`delta_decoder` in C-Blosc2's `blosc/delta.c`) on whole elements of
/// [`delta_width`] bytes: the first block XORs each element with the decoded one before
/// it, later blocks with the first block's bytes.
fn undelta(typesize: usize, first: &[u8], block: &mut [u8]) {
    let width = delta_width(typesize);
    let len = block.len() - block.len() % width;
    if first.is_empty() {
        for at in width..len {
            let previous = block.get(at - width).copied().unwrap_or(0);
            if let Some(byte) = block.get_mut(at) {
                *byte ^= previous;
            }
        }
    } else {
        for (byte, reference) in block.iter_mut().take(len).zip(first) {
            *byte ^= reference;
        }
    }
}

/// The element width delta works on: 1, 2, 4 or 8 bytes (8 for other multiples of 8,
/// else 1).
fn delta_width(typesize: usize) -> usize {
    match typesize {
        1 | 2 | 4 | 8 => typesize,
        t if t % 8 == 0 => 8,
        _ => 1,
    }
}

/// Byte-unshuffle in place: byte `j` of element `i` was stored at `j * n + i`;
/// bytes past the last whole element stay where they are.
fn unshuffle(typesize: usize, block: &mut [u8]) {
    let n = block.len() / typesize.max(1);
    if typesize <= 1 || n == 0 {
        return;
    }
    let shuffled = block.to_vec();
    for (i, element) in block.chunks_exact_mut(typesize).enumerate() {
        for (j, byte) in element.iter_mut().enumerate() {
            if let Some(&b) = shuffled.get(j * n + i) {
                *byte = b;
            }
        }
    }
}
