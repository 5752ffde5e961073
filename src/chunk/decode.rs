//! Decoding a whole chunk: special values, memcpyed chunks, and blocks of streams
//! (`initialize_context_decompression` in C-Blosc2's `blosc/blosc2.c`); the blocks
//! themselves are decoded in `blocks.rs`.

use alloc::vec::Vec;

use super::blocks::{decode_blocks, Output};
use super::cursor::Cursor;
use super::error::{ChunkError, ChunkErrorKind};
use super::header::{ChunkHeader, BLOSC2_LAZY, BLOSC2_USEDICT, BLOSC2_VL_BLOCKS};
use crate::blosc::{Filter, Special};

/// The most decompressed bytes [`decode`] accepts from one chunk: 64 MiB.
pub const DEFAULT_MAX_NBYTES: u32 = 64 << 20;

/// Length of a block start or a stream's `csize` (`int32_t`).
const INT32_LEN: usize = 4;
/// The largest dictionary C-Blosc2 reads (`BLOSC2_MAXDICTSIZE`).
const MAX_DICT_SIZE: i32 = 128 << 10;
/// Offsets of header fields named in errors.
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
    let mut out = Vec::new();
    let len = decode_to(chunk, max_nbytes, |data_len, nbytes| {
        // Never more than the input holds up front; the rest grows as blocks decode.
        out.reserve_exact(nbytes.min(data_len.saturating_mul(32)));
        Output::Grown {
            vec: &mut out,
            nbytes,
        }
    })?;
    out.truncate(len);
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
    decode_to(chunk, limit, |_, nbytes| Output::Given(&mut dest[..nbytes]))
}

/// The checks and the decoding both entry points share: `output` is asked for where the
/// chunk's bytes go once its header, bstarts and dictionary are checked (it is given the
/// chunk's length and `nbytes`, at most `max_nbytes`). Returns how many bytes were
/// written: `nbytes`, or fewer for a special value that does not divide it.
fn decode_to<'a>(
    chunk: &[u8],
    max_nbytes: u32,
    output: impl FnOnce(usize, usize) -> Output<'a>,
) -> Result<usize, ChunkError> {
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
    if nbytes == 0 && cbytes == header.len() && special.is_none() {
        return Ok(0);
    }
    // C-Blosc2 checks the bstarts section and the dictionary before any block.
    let nblocks = nbytes.div_ceil(header.blocksize as usize);
    let bstarts_end = if special.is_none() && !header.memcpyed() {
        header.len() + nblocks * INT32_LEN
    } else {
        header.len()
    };
    if data.len() < bstarts_end {
        return Err(ChunkError::at(
            data.len(),
            ChunkErrorKind::UnexpectedEnd {
                what: "bstarts",
                input_len: data.len() as u64,
                needed: (bstarts_end - data.len()) as u64,
            },
        ));
    }
    let dict = if header.blosc2_flags & BLOSC2_USEDICT != 0 {
        Some(dictionary(data, bstarts_end)?)
    } else {
        None
    };
    let mut out = output(data.len(), nbytes);
    if let Some(special) = special {
        return decode_special(&header, special, data, &mut out);
    }
    if nbytes == 0 {
        return Ok(0);
    }
    if header.memcpyed() {
        // cbytes == nbytes + header length was checked with the header.
        let bytes = data.get(header.len()..).unwrap_or(&[]);
        out.put(bytes);
        return Ok(bytes.len());
    }
    for (slot, (filter, _)) in header.filters.iter().enumerate() {
        if let Filter::Other(_) = filter {
            return Err(ChunkError::at(
                header.filter_offset(slot),
                ChunkErrorKind::FilterNotDecoded { filter: *filter },
            ));
        }
    }
    decode_blocks(&header, data, dict, &mut out)?;
    Ok(nbytes)
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

/// A chunk that is one value repeated (`blosc2_flags` bits 4..6); returns the bytes
/// written: whole values only.
fn decode_special(
    header: &ChunkHeader,
    special: Special,
    data: &[u8],
    out: &mut Output<'_>,
) -> Result<usize, ChunkError> {
    let nbytes = header.nbytes as usize;
    let value: &[u8] = match special {
        Special::Zero | Special::Uninit => &[0],
        Special::Nan => match header.typesize {
            4 => &[0x00, 0x00, 0xc0, 0x7f],
            8 => &[0, 0, 0, 0, 0, 0, 0xf8, 0x7f],
            other => {
                return Err(invalid(3, "typesize", "4 or 8 for NaNs", i64::from(other)));
            }
        },
        Special::Value => {
            // C repeats the typesize bytes after the header in each block, and refuses
            // blocks that are not whole values (`set_values`).
            let typesize = usize::from(header.typesize);
            if !(header.blocksize as usize).is_multiple_of(typesize) {
                return Err(invalid(
                    8,
                    "blocksize",
                    "a multiple of typesize (a repeated value)",
                    i64::from(header.blocksize),
                ));
            }
            data.get(header.len()..header.len() + typesize)
                .unwrap_or(&[])
        }
    };
    let len = match value.len() {
        0 => 0,
        n => nbytes / n * n,
    };
    out.repeat(value, len);
    Ok(len)
}
