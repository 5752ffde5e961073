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
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, FrameInfo, FrameKind};
use crate::chunk::{self, ChunkHeader, Special, DEFAULT_MAX_NBYTES, EXTENDED_HEADER_LEN};

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
/// let index = ChunkIndex::read(&mut std::fs::File::open(path)?, &frame.header)?;
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

fn invalid(at: u64, field: &'static str, value: i128, reason: &'static str) -> FrameError {
    FrameError::at(
        at,
        FrameErrorKind::InvalidField {
            field,
            value,
            reason,
        },
    )
}

/// Reads `len` bytes at `at`, or says the input ends first.
fn read_exact_at<R: Read + Seek>(
    reader: &mut R,
    at: u64,
    len: usize,
    what: &'static str,
) -> Result<Vec<u8>, FrameError> {
    reader
        .seek(SeekFrom::Start(at))
        .map_err(FrameError::io(None))?;
    let mut out = Vec::new();
    // Grows only as bytes arrive: a length the input does not hold costs nothing.
    reader
        .by_ref()
        .take(len as u64)
        .read_to_end(&mut out)
        .map_err(FrameError::io(None))?;
    if out.len() < len {
        return Err(FrameError::at(
            at,
            FrameErrorKind::Truncated {
                what,
                end: at + len as u64,
                available: at + out.len() as u64,
            },
        ));
    }
    Ok(out)
}

/// Reads the whole chunk whose header is at `at` (its cbytes from that header), which
/// must end by `limit`; decodes it within `max_nbytes`.
fn read_chunk_at<R: Read + Seek>(
    reader: &mut R,
    at: u64,
    limit: u64,
    max_nbytes: u32,
    nchunk: Option<u64>,
) -> Result<Vec<u8>, FrameError> {
    let chunk_error = |source: chunk::ChunkError| {
        let offset = at.saturating_add(source.offset().unwrap_or(0));
        let kind = FrameErrorKind::DataChunk {
            nchunk,
            chunk_offset: at,
            source,
        };
        FrameError::at(offset, kind)
    };
    let head = read_exact_at(reader, at, EXTENDED_HEADER_LEN, "a chunk header")?;
    let header = ChunkHeader::parse(&head).map_err(chunk_error)?;
    let end = at + u64::from(header.cbytes);
    if end > limit {
        return Err(invalid(
            at + 12,
            "chunk cbytes",
            i128::from(header.cbytes),
            "the chunk would extend past the frame's data",
        ));
    }
    let bytes = read_exact_at(reader, at, header.cbytes as usize, "a chunk")?;
    chunk::decode_with_limit(&bytes, max_nbytes).map_err(chunk_error)
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
    pub fn read<R: Read + Seek>(
        reader: &mut R,
        header: &FrameHeader,
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
        let limit = (expected as u32).min(DEFAULT_MAX_NBYTES);
        let offsets = read_chunk_at(reader, at, info.frame_len, limit, None)?;
        let head = read_exact_at(reader, at, EXTENDED_HEADER_LEN, "the offsets chunk header")?;
        let stored = ChunkHeader::parse(&head).map(|h| h.cbytes).unwrap_or(0);
        if (fixed.is_some() && offsets.len() as u64 != expected) || offsets.len() % 8 != 0 {
            return Err(invalid(
                at + 4,
                "offsets chunk nbytes",
                offsets.len() as i128,
                "expected 8 bytes per chunk of the frame",
            ));
        }
        let mut locations = Vec::with_capacity(offsets.len() / 8);
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
        ChunkIndex::read(&mut std::io::Cursor::new(frame), header)
    }
}

/// One offsets entry as C reads it (`get_coffset`, `frame_special_chunk`).
fn locate(value: i64, info: &FrameInfo, index_at: u64) -> Result<ChunkLocation, FrameError> {
    if value < 0 {
        let kind = (value as u64 >> 56) as u8;
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

/// Reads bytes of a frame's data (the concatenation of its decoded chunks) through its
/// [`ChunkIndex`], decoding only the chunks a range covers (the last one is kept for
/// the next read).
///
/// ```
/// use b2nd_meta::frame::{open, DataReader};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
/// let frame = open(path)?;
/// let mut data = DataReader::new(std::fs::File::open(path)?, &frame.header)?;
/// let all = data.read_range(0, data.nbytes() as usize)?;
/// assert_eq!(all.len() as i64, frame.header.info.nbytes);
/// assert_eq!(data.read_range(4, 8)?, all[4..12]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct DataReader<R> {
    reader: R,
    dir: Option<PathBuf>,
    info: FrameInfo,
    index: ChunkIndex,
    /// Where each chunk starts in the data, as far as known (variable-size chunks).
    starts: Vec<u64>,
    cache: Option<(usize, Vec<u8>)>,
}

impl<R: Read + Seek> DataReader<R> {
    /// A reader of the contiguous frame that starts at `reader`'s position 0.
    pub fn new(mut reader: R, header: &FrameHeader) -> Result<DataReader<R>, FrameError> {
        let index = ChunkIndex::read(&mut reader, header)?;
        Ok(DataReader {
            reader,
            dir: None,
            info: header.info.clone(),
            index,
            starts: std::vec![0],
            cache: None,
        })
    }

    /// A reader of a sparse frame: `reader` reads its `chunks.b2frame`, its chunk files
    /// are in `dir`.
    pub fn sparse(
        reader: R,
        header: &FrameHeader,
        dir: impl AsRef<Path>,
    ) -> Result<DataReader<R>, FrameError> {
        let mut data = DataReader::new(reader, header)?;
        data.dir = Some(dir.as_ref().to_path_buf());
        Ok(data)
    }

    /// The chunk index.
    pub fn index(&self) -> &ChunkIndex {
        &self.index
    }

    /// Bytes of data the header declares.
    pub fn nbytes(&self) -> u64 {
        self.info.nbytes.max(0) as u64
    }

    /// The decoded bytes of chunk `n`.
    pub fn read_chunk(&mut self, n: usize) -> Result<Vec<u8>, FrameError> {
        let nchunks = self.index.locations.len();
        let location = *self.index.locations.get(n).ok_or_else(|| {
            invalid(
                0,
                "chunk number",
                n as i128,
                "past the last chunk of the frame",
            )
        })?;
        let chunksize = u64::try_from(self.info.chunksize).unwrap_or(0);
        let expected = match chunksize {
            0 => None,
            c if n + 1 == nchunks && !self.nbytes().is_multiple_of(c) => Some(self.nbytes() % c),
            c => Some(c),
        };
        let limit = expected.map_or(DEFAULT_MAX_NBYTES, |e| e.min(u64::from(u32::MAX)) as u32);
        let nchunk = Some(n as u64);
        let bytes = match location {
            ChunkLocation::Offset(at) => {
                let data_end = u64::from(self.info.header_len) + self.info.cbytes.max(0) as u64;
                read_chunk_at(&mut self.reader, at, data_end, limit, nchunk)?
            }
            ChunkLocation::File(number) => {
                let Some(dir) = &self.dir else {
                    return Err(invalid(
                        self.index.offset,
                        "chunk file number",
                        i128::from(number),
                        "a sparse frame's chunk, read without its directory",
                    ));
                };
                let path = dir.join(chunk_file_name(number));
                let mut file = std::fs::File::open(&path).map_err(FrameError::io(Some(&path)))?;
                let len = file.metadata().map_err(FrameError::io(Some(&path)))?.len();
                read_chunk_at(&mut file, 0, len, limit, nchunk).map_err(|e| e.in_file(&path))?
            }
            ChunkLocation::Special(special) => {
                let Some(len) = expected else {
                    return Err(invalid(
                        self.index.offset,
                        "chunk offset",
                        -1,
                        "a special chunk in a frame of variable-size chunks",
                    ));
                };
                special_bytes(special, len as usize, self.info.typesize).ok_or_else(|| {
                    invalid(
                        47,
                        "typesize",
                        i128::from(self.info.typesize),
                        "NaN chunks need a typesize of 4 or 8",
                    )
                })?
            }
        };
        if let Some(e) = expected.filter(|&e| e != bytes.len() as u64) {
            return Err(invalid(
                self.index.offset,
                "chunk nbytes",
                bytes.len() as i128,
                if e > bytes.len() as u64 {
                    "smaller than the frame's chunksize"
                } else {
                    "larger than the frame's chunksize"
                },
            ));
        }
        Ok(bytes)
    }

    /// Where chunk `n` starts in the data (reads the headers of variable-size chunks
    /// before it, once).
    fn chunk_start(&mut self, n: usize) -> Result<u64, FrameError> {
        if let Ok(c) = u64::try_from(self.info.chunksize) {
            if c > 0 {
                return Ok(n as u64 * c);
            }
        }
        while self.starts.len() <= n {
            let i = self.starts.len() - 1;
            let len = self.read_chunk(i)?.len() as u64;
            let last = self.starts.last().copied().unwrap_or(0);
            self.starts.push(last + len);
        }
        Ok(self.starts.get(n).copied().unwrap_or(0))
    }

    /// The chunk holding data byte `at`, and where it starts.
    fn chunk_of(&mut self, at: u64) -> Result<(usize, u64), FrameError> {
        if let Some(n) = u64::try_from(self.info.chunksize)
            .ok()
            .and_then(|c| at.checked_div(c).map(|n| (n, c)))
        {
            return Ok((n.0 as usize, n.0 * n.1));
        }
        let mut n = 0;
        while n + 1 < self.index.locations.len() && self.chunk_start(n + 1)? <= at {
            n += 1;
        }
        Ok((n, self.chunk_start(n)?))
    }

    /// Bytes `[start, start + len)` of the data: only the chunks that range covers are
    /// read and decoded.
    pub fn read_range(&mut self, start: u64, len: usize) -> Result<Vec<u8>, FrameError> {
        let end = start.saturating_add(len as u64);
        if end > self.nbytes() {
            return Err(FrameError::at(
                start,
                FrameErrorKind::Truncated {
                    what: "a range of the frame's data",
                    end,
                    available: self.nbytes(),
                },
            ));
        }
        let mut out = Vec::with_capacity(len.min(1 << 20));
        let mut at = start;
        while at < end {
            let (n, chunk_start) = self.chunk_of(at)?;
            let bytes = match self.cache.take() {
                Some((cached, bytes)) if cached == n => bytes,
                _ => self.read_chunk(n)?,
            };
            let from = (at - chunk_start) as usize;
            let to = ((end - chunk_start) as usize).min(bytes.len());
            let piece = bytes.get(from..to).unwrap_or_default();
            if piece.is_empty() {
                return Err(invalid(
                    0,
                    "data range",
                    i128::from(at),
                    "not covered by the frame's chunks",
                ));
            }
            out.extend_from_slice(piece);
            at += piece.len() as u64;
            self.cache = Some((n, bytes));
        }
        Ok(out)
    }
}

/// The bytes of a special chunk of `len` bytes.
fn special_bytes(special: Special, len: usize, typesize: u32) -> Option<Vec<u8>> {
    match special {
        Special::Zero | Special::Uninit => Some(std::vec![0; len]),
        Special::Nan => {
            let nan: &[u8] = match typesize {
                4 => &[0, 0, 0xc0, 0x7f],
                8 => &[0, 0, 0, 0, 0, 0, 0xf8, 0x7f],
                _ => return None,
            };
            Some(nan.iter().copied().cycle().take(len).collect())
        }
        Special::Value => None,
    }
}

impl super::FrameFile {
    /// A [`DataReader`] of this frame's data (its file; for a sparse frame, its
    /// directory too).
    ///
    /// ```
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/sparse.b2nd");
    /// let frame = b2nd_meta::frame::open(dir)?;
    /// let mut data = frame.data_reader()?;
    /// assert_eq!(data.read_range(0, 4)?.len(), 4);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn data_reader(&self) -> Result<DataReader<std::fs::File>, FrameError> {
        let path = &self.header_path;
        let file = std::fs::File::open(path).map_err(FrameError::io(Some(path)))?;
        match self.header.info.kind {
            FrameKind::Contiguous => {
                DataReader::new(file, &self.header).map_err(|e| e.in_file(path))
            }
            FrameKind::Sparse => {
                let dir = path.parent().unwrap_or(Path::new("."));
                DataReader::sparse(file, &self.header, dir).map_err(|e| e.in_file(path))
            }
        }
    }
}
