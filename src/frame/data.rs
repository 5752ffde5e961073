//! [`DataReader`]: byte ranges of a frame's data (the concatenation of its decoded
//! chunks) through its [`ChunkIndex`], decoding only the chunks a range covers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::vec::Vec;

use super::chunks::ChunkIndex;
use super::error::{FrameError, FrameErrorKind};
use super::fields::invalid;
use super::header::{FrameHeader, FrameKind};
use super::stored::{Chunk, StoredChunks};
use crate::chunk::{self, DecodeBudget, DEFAULT_MAX_NBYTES};
use crate::io::{DirStorage, ReadAt, SharedSource};
use std::sync::Arc;

/// Reads bytes of a frame's data (the concatenation of its decoded chunks) through its
/// [`ChunkIndex`], decoding only the chunks a range covers (the last one is kept for
/// the next read; within a decode budget, every one, each decoded once).
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
    chunks: StoredChunks<R>,
    /// Where each chunk starts in the data, as far as known (variable-size chunks).
    starts: Vec<u64>,
    /// The chunks decoded: the last one, or (within a budget) each one.
    kept: BTreeMap<usize, Decoded>,
    /// What every decode and every byte taken from a special chunk is spent from;
    /// without one, chunks are decoded within the frame's chunksize.
    budget: Option<DecodeBudget>,
    /// Within a budget, the chunks that did not decode, with why: each is decoded once,
    /// and said again without spending the budget again.
    failed: BTreeMap<usize, Failed>,
}

/// A data chunk's decode that failed: the error's parts, to make it again.
#[derive(Debug)]
struct Failed {
    offset: Option<u64>,
    path: Option<PathBuf>,
    nchunk: Option<u64>,
    chunk_offset: u64,
    source: crate::chunk::ChunkError,
}

impl Failed {
    /// The parts of `e` when it is a chunk's decode failing (not a read that did not
    /// reach it, which spent nothing).
    fn of(e: &FrameError) -> Option<Failed> {
        match e.kind() {
            FrameErrorKind::DataChunk {
                nchunk,
                chunk_offset,
                source,
            } => Some(Failed {
                offset: e.offset(),
                path: e.path().map(Path::to_path_buf),
                nchunk: *nchunk,
                chunk_offset: *chunk_offset,
                source: source.clone(),
            }),
            _ => None,
        }
    }

    fn error(&self) -> FrameError {
        let kind = FrameErrorKind::DataChunk {
            nchunk: self.nchunk,
            chunk_offset: self.chunk_offset,
            source: self.source.clone(),
        };
        let e = FrameError::new(kind).moved_to(self.offset);
        match &self.path {
            Some(path) => e.in_file(path),
            None => e,
        }
    }
}

/// A chunk's bytes: decoded, or one pattern repeated (a special chunk), not
/// materialised.
#[derive(Debug)]
enum Decoded {
    /// Decoded bytes.
    Bytes(Vec<u8>),
    /// `pattern` repeated to `len` bytes (`len` a multiple of its length).
    Repeat {
        /// The repeated bytes (zeros, a NaN, the chunk's value).
        pattern: Vec<u8>,
        /// The chunk's length.
        len: u64,
    },
}

impl Decoded {
    fn len(&self) -> u64 {
        match self {
            Decoded::Bytes(b) => b.len() as u64,
            Decoded::Repeat { len, .. } => *len,
        }
    }
}

impl<R: ReadAt> DataReader<R> {
    /// A reader of the contiguous frame that starts at `reader`'s position 0.
    pub fn new(reader: R, header: &FrameHeader) -> Result<DataReader<R>, FrameError> {
        DataReader::with(reader, header, None)
    }

    /// A reader whose decodes are spent from `budget` (the index, each chunk once, the
    /// bytes taken from special chunks), a chunk never decoded past
    /// [`DEFAULT_MAX_NBYTES`] whatever the frame's chunksize says; every chunk decoded
    /// is kept (the budget bounds them), so that reads in any order decode each once.
    pub(crate) fn within(
        reader: R,
        header: &FrameHeader,
        budget: DecodeBudget,
    ) -> Result<DataReader<R>, FrameError> {
        DataReader::with(reader, header, Some(budget))
    }

    fn with(
        reader: R,
        header: &FrameHeader,
        budget: Option<DecodeBudget>,
    ) -> Result<DataReader<R>, FrameError> {
        Ok(DataReader {
            chunks: StoredChunks::new(reader, header, None, budget.as_ref())?,
            starts: std::vec![0],
            kept: BTreeMap::new(),
            budget,
            failed: BTreeMap::new(),
        })
    }

    /// A reader of a sparse frame: `reader` reads its `chunks.b2frame`, its chunk files
    /// are in `dir`.
    pub fn sparse(
        reader: R,
        header: &FrameHeader,
        dir: impl AsRef<Path>,
    ) -> Result<DataReader<R>, FrameError> {
        Ok(DataReader {
            chunks: StoredChunks::new(
                reader,
                header,
                Some(Arc::new(DirStorage::new(dir.as_ref()))),
                None,
            )?,
            starts: std::vec![0],
            kept: BTreeMap::new(),
            budget: None,
            failed: BTreeMap::new(),
        })
    }

    /// The chunk index.
    pub fn index(&self) -> &ChunkIndex {
        &self.chunks.index
    }

    /// Bytes of data the header declares.
    pub fn nbytes(&self) -> u64 {
        self.chunks.info.nbytes.max(0) as u64
    }

    /// The decoded bytes of chunk `n` (a special chunk expanded: its length is the
    /// frame's chunksize, which the caller asked for).
    pub fn read_chunk(&mut self, n: usize) -> Result<Vec<u8>, FrameError> {
        Ok(match self.load(n)? {
            Decoded::Bytes(bytes) => bytes,
            Decoded::Repeat { pattern, len } => repeat(&pattern, 0, len as usize),
        })
    }

    /// Chunk `n`: decoded, or the pattern of a special chunk (one the index says is
    /// not stored, or whose header says it is one value repeated), never expanded.
    fn load(&mut self, n: usize) -> Result<Decoded, FrameError> {
        let nchunks = self.chunks.index.locations.len();
        if n >= nchunks {
            return Err(invalid(
                0,
                "chunk number",
                n as i128,
                "past the last chunk of the frame",
            ));
        }
        let chunksize = u64::try_from(self.chunks.info.chunksize).unwrap_or(0);
        let expected = match chunksize {
            0 => None,
            c if n + 1 == nchunks && !self.nbytes().is_multiple_of(c) => Some(self.nbytes() % c),
            c => Some(c),
        };
        // Within a budget, a store's chunksize never raises the decoder's own limit.
        let ceiling = match self.budget {
            Some(_) => DEFAULT_MAX_NBYTES,
            None => u32::MAX,
        };
        let limit = expected.map_or(DEFAULT_MAX_NBYTES, |e| e.min(u64::from(ceiling)) as u32);
        let chunk = match self.chunks.chunk(n as u64)? {
            Chunk::Stored(stored) => {
                let mut raw = Vec::new();
                let header = stored.read_all(&mut raw)?;
                // A chunk whose header says it is one value repeated is not expanded
                // (`chunk::special_value`: the decoder's checks and value); any other,
                // or one those checks refuse, is decoded (and its error given).
                let pattern = header
                    .special()
                    .filter(|_| header.nbytes <= limit)
                    .and_then(|special| chunk::special_value(&header, special, &raw).ok())
                    .filter(|pattern| !pattern.is_empty());
                match (pattern, &self.budget) {
                    (Some(pattern), _) => Decoded::Repeat {
                        pattern: pattern.to_vec(),
                        len: u64::from(header.nbytes),
                    },
                    (None, Some(budget)) => chunk::decode_within_limit(&raw, limit, budget)
                        .map(Decoded::Bytes)
                        .map_err(|e| stored.error(e))?,
                    (None, None) => chunk::decode_with_limit(&raw, limit)
                        .map(Decoded::Bytes)
                        .map_err(|e| stored.error(e))?,
                }
            }
            Chunk::Special(special) => {
                let Some(len) = expected else {
                    return Err(invalid(
                        self.chunks.index.offset,
                        "chunk offset",
                        -1,
                        "a special chunk in a frame of variable-size chunks",
                    ));
                };
                let pattern = self.chunks.special_pattern(special)?.to_vec();
                Decoded::Repeat { pattern, len }
            }
        };
        if let Some(e) = expected.filter(|&e| e != chunk.len()) {
            return Err(invalid(
                self.chunks.index.offset,
                "chunk nbytes",
                chunk.len() as i128,
                if e > chunk.len() {
                    "smaller than the frame's chunksize"
                } else {
                    "larger than the frame's chunksize"
                },
            ));
        }
        Ok(chunk)
    }

    /// Chunk `n`, kept or loaded now (the caller keeps it again): without a budget, only
    /// the last chunk is kept, the one loaded now replacing it.
    fn take_chunk(&mut self, n: usize) -> Result<Decoded, FrameError> {
        if let Some(chunk) = self.kept.remove(&n) {
            return Ok(chunk);
        }
        if let Some(failed) = self.failed.get(&n) {
            return Err(failed.error());
        }
        if self.budget.is_none() {
            self.kept.clear();
            return self.load(n);
        }
        let loaded = self.load(n);
        if let Some(failed) = loaded.as_ref().err().and_then(Failed::of) {
            self.failed.insert(n, failed);
        }
        loaded
    }

    /// Where chunk `n` starts in the data (reads the headers of variable-size chunks
    /// before it, once).
    fn chunk_start(&mut self, n: usize) -> Result<u64, FrameError> {
        if let Ok(c) = u64::try_from(self.chunks.info.chunksize)
            && c > 0
        {
            return Ok(n as u64 * c);
        }
        while self.starts.len() <= n {
            let i = self.starts.len() - 1;
            let chunk = self.take_chunk(i)?;
            let len = chunk.len();
            self.kept.insert(i, chunk);
            let last = self.starts.last().copied().unwrap_or(0);
            self.starts.push(last + len);
        }
        Ok(self.starts.get(n).copied().unwrap_or(0))
    }

    /// The chunk holding data byte `at`, and where it starts.
    fn chunk_of(&mut self, at: u64) -> Result<(usize, u64), FrameError> {
        if let Some(n) = u64::try_from(self.chunks.info.chunksize)
            .ok()
            .and_then(|c| at.checked_div(c).map(|n| (n, c)))
        {
            return Ok((n.0 as usize, n.0 * n.1));
        }
        let mut n = 0;
        while n + 1 < self.chunks.index.locations.len() && self.chunk_start(n + 1)? <= at {
            n += 1;
        }
        Ok((n, self.chunk_start(n)?))
    }

    /// Bytes `[start, start + len)` of the data: only the chunks that range covers are
    /// read and decoded, and a special chunk gives only the bytes asked of it.
    pub fn read_range(&mut self, start: u64, len: usize) -> Result<Vec<u8>, FrameError> {
        let mut unlimited = u64::MAX;
        self.read_range_within(start, len, &mut unlimited)
    }

    /// [`DataReader::read_range`], taking at most `*unstored` bytes from special chunks
    /// (bytes no stored byte backs) and counting them off: past that, an error before
    /// they are made.
    pub(crate) fn read_range_within(
        &mut self,
        start: u64,
        len: usize,
        unstored: &mut u64,
    ) -> Result<Vec<u8>, FrameError> {
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
            let chunk = self.take_chunk(n)?;
            let from = at - chunk_start;
            let to = (end - chunk_start).min(chunk.len());
            let taken = to.saturating_sub(from);
            if taken == 0 {
                return Err(invalid(
                    0,
                    "data range",
                    i128::from(at),
                    "not covered by the frame's chunks",
                ));
            }
            match &chunk {
                Decoded::Bytes(bytes) => {
                    out.extend_from_slice(bytes.get(from as usize..to as usize).unwrap_or_default())
                }
                Decoded::Repeat { pattern, .. } => {
                    if let Some(budget) = &self.budget {
                        budget
                            .take(taken)
                            .map_err(|e| FrameError::at(at, FrameErrorKind::OverBudget(e)))?;
                    }
                    *unstored = unstored.checked_sub(taken).ok_or_else(|| {
                        invalid(
                            self.chunks.index.offset,
                            "data range",
                            i128::from(at),
                            "would take more bytes from special chunks (stored nowhere) than allowed",
                        )
                    })?;
                    out.extend(repeat(pattern, from, taken as usize));
                }
            }
            at += taken;
            self.kept.insert(n, chunk);
        }
        Ok(out)
    }
}

/// `len` bytes of `pattern` repeated, from byte `from` of the repetition.
fn repeat(pattern: &[u8], from: u64, len: usize) -> Vec<u8> {
    let phase = (from % pattern.len().max(1) as u64) as usize;
    pattern
        .iter()
        .copied()
        .cycle()
        .skip(phase)
        .take(len)
        .collect()
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
    pub fn data_reader(&self) -> Result<DataReader<SharedSource>, FrameError> {
        let path = &self.header_path;
        match self.header.info.kind {
            FrameKind::Contiguous => {
                DataReader::new(self.bytes(), &self.header).map_err(|e| e.in_file(path))
            }
            FrameKind::Sparse => {
                let dir = path.parent().unwrap_or(Path::new("."));
                DataReader::sparse(self.bytes(), &self.header, dir).map_err(|e| e.in_file(path))
            }
        }
    }
}
