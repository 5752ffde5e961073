//! The chunk index of a frame (its offsets chunk) and reads of the frame's data, as
//! C-Blosc2's `get_coffsets`, `get_coffset` and `frame_get_chunk` (`blosc/frame.c`)
//! find them.
//!
//! The offsets chunk is a Blosc2 chunk of `nchunks` little-endian int64 right after the
//! data: at `header_len + cbytes` in a contiguous frame, at `header_len` in a sparse
//! frame's `chunks.b2frame`. A non-negative entry is, in a contiguous frame, the chunk's
//! byte offset from the end of the header; in a sparse frame, the number of its
//! `%08X.chunk` file. A negative entry is a chunk that is not stored: bit 63 set, and
//! the special kind in byte 7 (1 zeros, 2 NaNs, 4 uninitialised).

use std::format;
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::fields::invalid;
use super::header::{FrameHeader, FrameInfo, FrameKind};
use crate::blosc::Special;
use crate::chunk::{self, ChunkHeader, DecodeBudget, DEFAULT_MAX_NBYTES, EXTENDED_HEADER_LEN};
use crate::io::{read_full_at, read_vec_at, NotRegular, ReadAt, SharedSource, Storage};

/// Where one chunk of a frame's data is, as the offsets chunk says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChunkLocation {
    /// At this byte offset from the start of the frame (a contiguous frame).
    Offset(u64),
    /// In the sparse frame's file named [`chunk_file_name`] of this number.
    File(u64),
    /// Not stored: a chunk of zeros, NaNs or uninitialised bytes.
    Special(Special),
}

/// The chunk index of a frame: where each chunk of its data is.
///
/// ```
/// use b2nd_meta::frame::{open, ChunkIndex, ChunkLocation};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
/// let frame = open(path)?;
/// let index = ChunkIndex::read(&std::fs::File::open(path)?, &frame.header)?;
/// assert!(!index.locations.is_empty());
/// assert!(index.locations.iter().all(|l| matches!(l, ChunkLocation::Offset(_) | ChunkLocation::Special(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkIndex {
    /// Where the offsets chunk starts, from the start of the frame (0 when the frame
    /// holds no data and so no offsets chunk).
    pub offset: u64,
    /// The offsets chunk's stored length (0 when there is none).
    pub cbytes: u32,
    /// Where each chunk is, in order.
    pub locations: Vec<ChunkLocation>,
}

/// The name of a sparse frame's chunk file: `%08X.chunk`.
///
/// ```
/// assert_eq!(b2nd_meta::frame::chunk_file_name(26), "0000001A.chunk");
/// ```
pub fn chunk_file_name(number: u64) -> String {
    format!("{number:08X}.chunk")
}

/// The number a chunk file's name says (`0000001A.chunk`, either case of hex digits),
/// or `None` for any other name: what [`chunk_file_name`] writes, read back.
pub(crate) fn chunk_file_number(name: &str) -> Option<u64> {
    let hex = name.strip_suffix(".chunk")?;
    (hex.len() == 8 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(hex, 16).ok())?
}

/// The chunk file `number` of the sparse frame whose objects are `objects`, opened:
/// the source, its length and its label (one that is not a regular file refused before
/// it is opened). Without the objects, the chunk index entry at byte `entry` is refused
/// with `reason` (why a chunk file cannot be read there).
pub(crate) fn open_chunk_file(
    objects: Option<&dyn Storage>,
    number: u64,
    entry: u64,
    reason: &'static str,
) -> Result<(SharedSource, u64, PathBuf), FrameError> {
    let Some(objects) = objects else {
        return Err(invalid(entry, "chunk file number", number, reason));
    };
    let name = chunk_file_name(number);
    let label = objects.label(&name);
    let source = objects.open(&name).map_err(|e| storage_error(e, &label))?;
    let len = source.size().map_err(FrameError::io(Some(&label)))?;
    Ok((source, len, label))
}

/// A storage's error opening an object: one that is not a regular file as such.
pub(crate) fn storage_error(e: std::io::Error, label: &Path) -> FrameError {
    match e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<NotRegular>())
    {
        Some(NotRegular(file_type)) => {
            FrameError::new(FrameErrorKind::NotAFile { file_type }).in_file(label)
        }
        None => FrameError::io(Some(label))(e),
    }
}

/// Reads `buf.len()` bytes at `at`, or says the input ends first.
pub(super) fn read_exact_into<S: ReadAt + ?Sized>(
    src: &S,
    buf: &mut [u8],
    at: u64,
    what: &'static str,
) -> Result<(), FrameError> {
    let got = read_full_at(src, buf, at).map_err(FrameError::io(None))?;
    if got < buf.len() {
        return Err(truncated(src, at, buf.len(), got, what));
    }
    Ok(())
}

/// Reads `len` bytes at `at` into a new vector, or says the input ends first.
pub(super) fn read_exact_at<S: ReadAt + ?Sized>(
    src: &S,
    at: u64,
    len: usize,
    what: &'static str,
) -> Result<Vec<u8>, FrameError> {
    // Grows only as bytes arrive: a length the input does not hold costs nothing.
    let out = read_vec_at(src, at, len).map_err(FrameError::io(None))?;
    if out.len() < len {
        return Err(truncated(src, at, len, out.len(), what));
    }
    Ok(out)
}

/// `what`, `len` bytes at `at`, of which the input holds `got`: the input ends before
/// their end, perhaps before `at` (a length field past it), where it ends, as a slice's
/// length says.
fn truncated<S: ReadAt + ?Sized>(
    src: &S,
    at: u64,
    len: usize,
    got: usize,
    what: &'static str,
) -> FrameError {
    let end = at.saturating_add(len as u64);
    let available = src.size_up_to(end).unwrap_or(at + got as u64);
    FrameError::at(
        at,
        FrameErrorKind::Truncated {
            what,
            end,
            available,
        },
    )
}

/// Reads the stored bytes of the chunk at `at` into `raw`: its header first (32 bytes,
/// fewer when `end` comes first), then its `cbytes`, which must end by `end`. `nchunk`
/// names it in errors (`None`: the offsets chunk).
pub(super) fn read_stored<S: ReadAt + ?Sized>(
    src: &S,
    at: u64,
    end: u64,
    nchunk: Option<u64>,
    raw: &mut Vec<u8>,
) -> Result<ChunkHeader, FrameError> {
    let head_len = (EXTENDED_HEADER_LEN as u64).min(end.saturating_sub(at)) as usize;
    let mut head = [0u8; EXTENDED_HEADER_LEN];
    read_exact_into(src, &mut head[..head_len], at, "a chunk header")?;
    let header = ChunkHeader::parse(&head[..head_len]).map_err(|source| {
        let offset = at.saturating_add(source.offset().unwrap_or(0));
        let kind = FrameErrorKind::DataChunk {
            nchunk,
            chunk_offset: at,
            source,
        };
        FrameError::at(offset, kind)
    })?;
    if at.saturating_add(u64::from(header.cbytes)) > end {
        return Err(invalid(
            at + 12,
            "chunk cbytes",
            i128::from(header.cbytes),
            "the chunk would extend past the frame's data",
        ));
    }
    let cbytes = header.cbytes as usize;
    raw.clear();
    if raw.capacity() >= cbytes {
        raw.resize(cbytes, 0);
        read_exact_into(src, raw, at, "a chunk")?;
    } else {
        // Grows only as bytes arrive: a length the input does not hold costs nothing.
        *raw = read_vec_at(src, at, cbytes).map_err(FrameError::io(None))?;
        if raw.len() < cbytes {
            return Err(truncated(src, at, cbytes, raw.len(), "a chunk"));
        }
    }
    Ok(header)
}

/// Reads the whole chunk at `at` (see [`read_stored`]) and decodes it within
/// `max_nbytes` (and `budget`, when given).
fn read_chunk_at<S: ReadAt + ?Sized>(
    reader: &S,
    at: u64,
    limit: u64,
    max_nbytes: u32,
    budget: Option<&DecodeBudget>,
) -> Result<(ChunkHeader, Vec<u8>), FrameError> {
    let mut raw = Vec::new();
    let header = read_stored(reader, at, limit, None, &mut raw)?;
    match budget {
        Some(budget) => chunk::decode_within_limit(&raw, max_nbytes, budget),
        None => chunk::decode_with_limit(&raw, max_nbytes),
    }
    .map(|decoded| (header, decoded))
    .map_err(|source| {
        let offset = at.saturating_add(source.offset().unwrap_or(0));
        let kind = FrameErrorKind::DataChunk {
            nchunk: None,
            chunk_offset: at,
            source,
        };
        FrameError::at(offset, kind)
    })
}

/// The number of chunks the header implies, when it does (chunksize > 0).
fn fixed_nchunks(info: &FrameInfo) -> Result<Option<u64>, FrameError> {
    if info.nbytes <= 0 {
        return Ok(Some(0));
    }
    let nbytes = info.nbytes as u64;
    match info.chunksize {
        0 => Ok(None),
        c if c > 0 => Ok(Some(nbytes.div_ceil(c as u64))),
        c => Err(invalid(
            57,
            "chunksize",
            i128::from(c),
            "negative with data",
        )),
    }
}

impl ChunkIndex {
    /// Reads the index of the frame that starts at the reader's position 0 (for a
    /// sparse frame, its `chunks.b2frame`), after its `header`: one chunk header and
    /// the offsets chunk, whatever the size of the data. The offsets chunk decodes to
    /// at most [`DEFAULT_MAX_NBYTES`] (8 Mi chunks); C-Blosc2's checks apply: its
    /// `nbytes` is 8 per chunk, each offset leaves room for a chunk header in the data.
    pub fn read<S: ReadAt + ?Sized>(
        reader: &S,
        header: &FrameHeader,
    ) -> Result<ChunkIndex, FrameError> {
        ChunkIndex::read_within(reader, header, None)
    }

    /// [`ChunkIndex::read`], the offsets chunk decoded within `budget` (when given),
    /// and the index it makes spent from it too.
    pub(crate) fn read_within<S: ReadAt + ?Sized>(
        reader: &S,
        header: &FrameHeader,
        budget: Option<&DecodeBudget>,
    ) -> Result<ChunkIndex, FrameError> {
        let info = &header.info;
        let fixed = fixed_nchunks(info)?;
        if fixed == Some(0) {
            return Ok(ChunkIndex {
                offset: 0,
                cbytes: 0,
                locations: Vec::new(),
            });
        }
        let header_len = u64::from(info.header_len);
        let cbytes = u64::try_from(info.cbytes)
            .map_err(|_| invalid(38, "cbytes", i128::from(info.cbytes), "negative"))?;
        let at = match info.kind {
            FrameKind::Contiguous => header_len.saturating_add(cbytes),
            FrameKind::Sparse => header_len,
        };
        let expected = match fixed {
            Some(n) => n
                .checked_mul(8)
                .filter(|&b| b <= i32::MAX as u64)
                .ok_or_else(|| {
                    invalid(
                        29,
                        "nbytes",
                        i128::from(info.nbytes),
                        "too many chunks for the offsets index",
                    )
                })?,
            None => u64::from(DEFAULT_MAX_NBYTES),
        };
        // The index holds 8 bytes a chunk, as many as the header says (a file of
        // special chunks holds a large index in a few bytes: nothing in the file
        // bounds it). Within the call's budget when it has one (`--budget`: it pays
        // for the index, then its locations), else within the default budget of a
        // command ([`DecodeBudget::DEFAULT`]: 2^24 chunks).
        let cap = budget.map_or(DecodeBudget::DEFAULT, DecodeBudget::left);
        let limit = expected.min(cap).min(i32::MAX as u64) as u32;
        let (head, offsets) = read_chunk_at(reader, at, info.frame_len, limit, budget)?;
        let stored = head.cbytes;
        if (fixed.is_some() && offsets.len() as u64 != expected) || offsets.len() % 8 != 0 {
            return Err(invalid(
                at + 4,
                "offsets chunk nbytes",
                offsets.len() as i128,
                "expected 8 bytes per chunk of the frame",
            ));
        }
        let count = offsets.len() / 8;
        if let Some(budget) = budget {
            let held = (count * core::mem::size_of::<ChunkLocation>()) as u64;
            budget
                .take(held)
                .map_err(|e| FrameError::at(at, FrameErrorKind::OverBudget(e)))?;
        }
        let mut locations = Vec::with_capacity(count);
        for entry in offsets.chunks_exact(8) {
            let mut le = [0u8; 8];
            le.copy_from_slice(entry);
            let value = i64::from_le_bytes(le);
            locations.push(locate(value, info, at)?);
        }
        Ok(ChunkIndex {
            offset: at,
            cbytes: stored,
            locations,
        })
    }

    /// [`ChunkIndex::read`] from a frame held whole in memory.
    pub fn parse(frame: &[u8], header: &FrameHeader) -> Result<ChunkIndex, FrameError> {
        ChunkIndex::read(frame, header)
    }
}

/// Bit 63 of an offsets entry: a chunk that is not stored.
const SPECIAL_BIT: u64 = 1 << 63;
/// The special kind's shift in an offsets entry (byte 7).
const SPECIAL_KIND_SHIFT: u32 = 56;

impl ChunkLocation {
    /// The offsets chunk's entry for this location, as `frame_append_chunk` writes it,
    /// in a frame whose header is `header_len` bytes (the inverse of `locate`).
    pub(crate) fn entry(self, header_len: u64) -> i64 {
        let kind = |s: Special| -> u64 {
            match s {
                Special::Zero => 1,
                Special::Nan => 2,
                Special::Uninit => 4,
                // Never in an index: C stores a value chunk's bytes.
                Special::Value => 3,
            }
        };
        match self {
            ChunkLocation::Offset(pos) => pos.saturating_sub(header_len) as i64,
            ChunkLocation::File(n) => n as i64,
            ChunkLocation::Special(s) => (SPECIAL_BIT | kind(s) << SPECIAL_KIND_SHIFT) as i64,
        }
    }
}

/// One offsets entry as C reads it (`get_coffset`, `frame_special_chunk`).
fn locate(value: i64, info: &FrameInfo, index_at: u64) -> Result<ChunkLocation, FrameError> {
    if value < 0 {
        let kind = (value as u64 >> SPECIAL_KIND_SHIFT) as u8;
        return match kind {
            k if k & 1 != 0 => Ok(ChunkLocation::Special(Special::Zero)),
            k if k & 4 != 0 => Ok(ChunkLocation::Special(Special::Uninit)),
            k if k & 2 != 0 => Ok(ChunkLocation::Special(Special::Nan)),
            _ => Err(invalid(
                index_at,
                "chunk offset",
                i128::from(value),
                "a special value C-Blosc2 does not know",
            )),
        };
    }
    let offset = value as u64;
    match info.kind {
        FrameKind::Sparse => Ok(ChunkLocation::File(offset)),
        FrameKind::Contiguous => {
            let header_len = u64::from(info.header_len);
            let data_end = header_len + info.cbytes.max(0) as u64;
            let pos = header_len.saturating_add(offset);
            let room = EXTENDED_HEADER_LEN as u64;
            if pos.saturating_add(room) > data_end || pos.saturating_add(room) > info.frame_len {
                return Err(invalid(
                    index_at,
                    "chunk offset",
                    i128::from(value),
                    "the chunk would start outside the frame's data",
                ));
            }
            Ok(ChunkLocation::Offset(pos))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_file_numbers_read_as_c_writes_them() {
        for (name, n) in [
            ("00000000.chunk", Some(0)),
            ("0000001A.chunk", Some(26)),
            ("0000001a.chunk", Some(26)),
            ("1A.chunk", None),
            ("0000001A.chunks", None),
            ("+000001A.chunk", None),
            ("chunks.b2frame", None),
            (".0000001A.chunk.b2nd-meta.1.0.tmp", None),
        ] {
            assert_eq!(chunk_file_number(name), n, "{name}");
        }
    }
}
