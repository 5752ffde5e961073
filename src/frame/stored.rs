//! [`StoredChunks`]: a frame's data chunks as stored, the one reader of them
//! ([`super::DataReader`] and the array reader read through it): where the index says
//! each one is, its stored bytes read with positioned reads (so that threads share one
//! source) from the frame or a sparse frame's chunk file, whole or in parts (its prefix,
//! then the blocks needed: [`chunk::Parts`]), every error placed at its byte of the
//! frame (or of the chunk's file).

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::vec::Vec;

use super::chunks::{open_chunk_file, read_exact_into, read_stored, ChunkIndex, ChunkLocation};
use super::error::{FrameError, FrameErrorKind};
use super::fields::invalid;
use super::header::{FrameHeader, FrameInfo};
use crate::blosc::Special;
use crate::chunk::{ChunkError, ChunkHeader, DecodeBudget, Parts, EXTENDED_HEADER_LEN};
use crate::io::{ReadAt, SharedSource, Storage};

/// A frame's data chunks: its index, and where their bytes are.
#[derive(Debug)]
pub(crate) struct StoredChunks<R> {
    reader: R,
    /// A sparse frame's objects (its directory), where its chunk files are.
    objects: Option<Arc<dyn Storage>>,
    pub(crate) info: FrameInfo,
    pub(crate) index: ChunkIndex,
    /// Where a contiguous frame's data ends: as its header says, or where its source
    /// does, when sooner.
    data_end: u64,
}

/// What the index says chunk `n` is.
pub(crate) enum Chunk<'a> {
    /// Not stored: all zeros, NaNs or uninitialised.
    Special(Special),
    /// Stored, in the frame or in its own file.
    Stored(StoredChunk<'a>),
}

/// Where one stored chunk's bytes are.
pub(crate) struct StoredChunk<'a> {
    n: u64,
    src: Source<'a>,
    /// Where the chunk starts in `src`.
    at: u64,
    /// Where the bytes it may hold end in `src` (the frame's data, the file).
    end: u64,
}

enum Source<'a> {
    Frame(&'a dyn ReadAt),
    /// A sparse frame's chunk file, and its label.
    File(SharedSource, PathBuf),
}

impl<R: ReadAt> StoredChunks<R> {
    /// The chunks of the frame that `reader` holds from its byte 0 (for a sparse frame,
    /// its `chunks.b2frame`, the chunk files among `objects`): its index is read.
    pub(crate) fn new(
        reader: R,
        header: &FrameHeader,
        objects: Option<Arc<dyn Storage>>,
        budget: Option<&DecodeBudget>,
    ) -> Result<StoredChunks<R>, FrameError> {
        let index = ChunkIndex::read_within(&reader, header, budget)?;
        let info = &header.info;
        let declared = u64::from(info.header_len) + info.cbytes.max(0) as u64;
        let size = reader.size_up_to(declared).map_err(FrameError::io(None))?;
        Ok(StoredChunks {
            reader,
            objects,
            info: header.info.clone(),
            index,
            data_end: declared.min(size),
        })
    }

    /// What the frame is read from (from its byte 0; a sparse frame's `chunks.b2frame`).
    pub(crate) fn reader(&self) -> &R {
        &self.reader
    }

    /// Where the index says chunk `n` is; an error when the index holds fewer chunks
    /// (C-Blosc2 opens such a frame, and fails reading the chunks it lacks).
    pub(crate) fn location(&self, n: u64) -> Result<ChunkLocation, FrameError> {
        usize::try_from(n)
            .ok()
            .and_then(|i| self.index.locations.get(i))
            .copied()
            .ok_or_else(|| {
                invalid(
                    self.index.offset,
                    "chunk number",
                    i128::from(n),
                    "past the last chunk of the frame's index",
                )
            })
    }

    /// Tells the source that chunks `numbers` of a contiguous frame are about to be
    /// read whole ([`ReadAt::will_read`]: a remote file fetches neighbours at once).
    /// A chunk's bytes are taken to end where the next chunk's start, when that is
    /// after it and within a chunk's largest stored size (its `chunksize`, its header
    /// and block starts); else it is not hinted.
    pub(crate) fn will_read_whole(&self, numbers: &[u64], nblocks: usize) {
        if self.objects.is_some() {
            return;
        }
        let largest = u64::try_from(self.info.chunksize.max(0)).unwrap_or(0)
            + EXTENDED_HEADER_LEN as u64
            + 4 * nblocks as u64;
        let offset = |n: u64| match self.location(n) {
            Ok(ChunkLocation::Offset(at)) => Some(at),
            _ => None,
        };
        for &n in numbers {
            let Some(at) = offset(n) else { continue };
            let next = match n + 1 == self.index.locations.len() as u64 {
                true => Some(self.index.offset),
                false => offset(n + 1),
            };
            if let Some(end) = next.filter(|&e| e > at && e - at <= largest) {
                self.reader.will_read(at, end - at);
            }
        }
    }

    /// Chunk `n`: not stored, or where its bytes are (a sparse frame's chunk file is
    /// opened).
    pub(crate) fn chunk(&self, n: u64) -> Result<Chunk<'_>, FrameError> {
        match self.location(n)? {
            ChunkLocation::Special(special) => Ok(Chunk::Special(special)),
            ChunkLocation::Offset(at) => {
                if self.objects.is_some() {
                    return Err(self.misplaced("chunk offset", at, "an offset in a sparse frame"));
                }
                Ok(Chunk::Stored(StoredChunk {
                    n,
                    src: Source::Frame(&self.reader),
                    at,
                    end: self.data_end,
                }))
            }
            ChunkLocation::File(number) => {
                let (file, len, path) = open_chunk_file(
                    self.objects.as_deref(),
                    number,
                    self.index.offset,
                    "a chunk file in a contiguous frame (or read without its directory)",
                )?;
                Ok(Chunk::Stored(StoredChunk {
                    n,
                    src: Source::File(file, path),
                    at: 0,
                    end: len,
                }))
            }
        }
    }

    /// The bytes a chunk the index says is not stored repeats.
    pub(crate) fn special_pattern(&self, special: Special) -> Result<&'static [u8], FrameError> {
        match special {
            Special::Zero | Special::Uninit => Ok(&[0]),
            Special::Nan if self.info.typesize == 4 => Ok(&[0, 0, 0xc0, 0x7f]),
            Special::Nan if self.info.typesize == 8 => Ok(&[0, 0, 0, 0, 0, 0, 0xf8, 0x7f]),
            _ => Err(invalid(
                47,
                "typesize",
                i128::from(self.info.typesize),
                "NaN chunks need a typesize of 4 or 8",
            )),
        }
    }

    fn misplaced(&self, field: &'static str, value: u64, reason: &'static str) -> FrameError {
        invalid(self.index.offset, field, i128::from(value), reason)
    }
}

impl StoredChunk<'_> {
    fn reader(&self) -> &dyn ReadAt {
        match &self.src {
            Source::Frame(r) => *r,
            Source::File(f, _) => &**f,
        }
    }

    /// `e` as this chunk's error, in its file when it has one.
    fn placed(&self, e: FrameError) -> FrameError {
        match &self.src {
            Source::File(_, path) => e.in_file(path),
            Source::Frame(_) => e,
        }
    }

    /// Tells its source that bytes `range` of the chunk are about to be read, in
    /// pieces ([`ReadAt::will_read`]: a remote file fetches them in one request).
    pub(crate) fn will_read(&self, range: Range<usize>) {
        let len = range.len() as u64;
        self.reader()
            .will_read(self.at.saturating_add(range.start as u64), len);
    }

    /// The chunk does not decode: the error at its byte.
    pub(crate) fn error(&self, source: ChunkError) -> FrameError {
        let offset = self.at.saturating_add(source.offset().unwrap_or(0));
        let kind = FrameErrorKind::DataChunk {
            nchunk: Some(self.n),
            chunk_offset: self.at,
            source,
        };
        self.placed(FrameError::at(offset, kind))
    }

    /// The chunk decodes to `found` bytes, which `reason` says is wrong.
    pub(crate) fn nbytes_error(&self, found: usize, reason: &'static str) -> FrameError {
        self.placed(invalid(self.at + 4, "chunk nbytes", found as i128, reason))
    }

    /// All of its stored bytes, into `raw` (its `cbytes`, from its header, must end
    /// within the frame's data).
    pub(crate) fn read_all(&self, raw: &mut Vec<u8>) -> Result<ChunkHeader, FrameError> {
        read_stored(self.reader(), self.at, self.end, Some(self.n), raw).map_err(|e| self.placed(e))
    }

    /// Bytes `range` of the chunk (from its start) into `buf`.
    fn read(
        &self,
        range: Range<usize>,
        buf: &mut [u8],
        what: &'static str,
    ) -> Result<(), FrameError> {
        let at = self.at + range.start as u64;
        read_exact_into(self.reader(), buf, at, what).map_err(|e| self.placed(e))
    }

    /// Its prefix (header, bstarts, dictionary: see [`Parts::prefix_len`]) into
    /// `prefix`, read in as few reads as its header allows: `guess` bytes first (what
    /// the caller expects it to hold), then what the chunk says is missing.
    pub(crate) fn read_prefix(&self, prefix: &mut Vec<u8>, guess: usize) -> Result<(), FrameError> {
        let room = self.end.saturating_sub(self.at);
        let mut len = guess
            .max(EXTENDED_HEADER_LEN)
            .min(room.min(u64::from(u32::MAX)) as usize);
        prefix.clear();
        loop {
            let have = prefix.len();
            if len > have {
                prefix.resize(len, 0);
                self.read(
                    have..len,
                    &mut prefix[have..],
                    "a chunk's header and block starts",
                )?;
            }
            let need = Parts::prefix_len(prefix).map_err(|e| self.error(e))?;
            let cbytes = ChunkHeader::parse(prefix).map(|h| h.cbytes).unwrap_or(0);
            if self.at.saturating_add(u64::from(cbytes)) > self.end {
                return Err(self.placed(invalid(
                    self.at + 12,
                    "chunk cbytes",
                    i128::from(cbytes),
                    "the chunk would extend past the frame's data",
                )));
            }
            if need <= prefix.len() {
                prefix.truncate(need);
                return Ok(());
            }
            len = need;
        }
    }

    /// The stored bytes of the blocks `needed` names (in increasing order; see
    /// [`Parts::needed`]) into `buf`, one read per run of adjacent blocks; `places` gets
    /// each block and where its bytes are in `buf` (which only grows: bytes past them
    /// are left as they were).
    pub(crate) fn read_blocks(
        &self,
        parts: &Parts<'_>,
        needed: impl Iterator<Item = usize>,
        buf: &mut Vec<u8>,
        places: &mut Vec<(usize, Range<usize>)>,
    ) -> Result<(), FrameError> {
        places.clear();
        places.extend(needed.filter_map(|b| Some((b, parts.extent(b)?))));
        let total: usize = places.iter().map(|(_, e)| e.len()).sum();
        if buf.len() < total {
            buf.resize(total, 0);
        }
        // Each run of blocks adjacent in the chunk is one read; the extents become
        // places in `buf`.
        let mut at = 0;
        let mut i = 0;
        while i < places.len() {
            let start = places[i].1.start;
            let mut end = places[i].1.end;
            let first = i;
            i += 1;
            while i < places.len() && places[i].1.start == end {
                end = places[i].1.end;
                i += 1;
            }
            self.read(
                start..end,
                &mut buf[at..at + (end - start)],
                "a block's stored bytes",
            )?;
            for place in &mut places[first..i] {
                let len = place.1.len();
                place.1 = at..at + len;
                at += len;
            }
        }
        Ok(())
    }
}
