//! A frame's bytes as the value reader takes them: its header, its chunk index, and
//! each chunk's stored bytes read with positioned reads (so that threads share one open
//! file), from a contiguous frame at a byte range of a source or from a sparse frame's
//! chunk files.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::vec::Vec;

use super::error::ArrayError;
use crate::blosc::Special;
use crate::chunk::{ChunkError, ChunkHeader, EXTENDED_HEADER_LEN};
use crate::frame::{
    self, chunk_file_name, open_chunk_file, ChunkIndex, ChunkLocation, FrameError, FrameErrorKind,
    FrameHeader, FrameKind, CONTENT_CAP,
};
use crate::io::{ReadAt, Window};

/// Where a frame's chunks are.
enum Bytes {
    /// A contiguous frame: bytes `[start, start + len)` of `src`.
    Window {
        src: Arc<dyn ReadAt + Send + Sync>,
        start: u64,
        len: u64,
    },
    /// A sparse frame: its `%08X.chunk` files in `dir`.
    Sparse { dir: PathBuf },
}

/// A frame opened for its data.
pub(crate) struct Frame {
    pub(crate) header: FrameHeader,
    pub(crate) index: ChunkIndex,
    bytes: Bytes,
}

/// What [`Frame::fetch`] found for a chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fetched {
    /// Its stored bytes, now in the caller's buffer.
    Stored,
    /// Not stored: the index says it is all zeros, NaNs or uninitialised.
    Special(Special),
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

/// Reads `buf.len()` bytes at `offset`, or says the source ends first.
fn read_exact_at(
    src: &dyn ReadAt,
    buf: &mut [u8],
    offset: u64,
    what: &'static str,
) -> Result<(), FrameError> {
    let got = crate::io::read_full_at(src, buf, offset).map_err(FrameError::io(None))?;
    if got < buf.len() {
        let end = offset.saturating_add(buf.len() as u64);
        // The source may end before `offset`: where it ends.
        let available = src.size_up_to(end).unwrap_or(offset + got as u64);
        let kind = FrameErrorKind::Truncated {
            what,
            end,
            available,
        };
        return Err(FrameError::at(offset, kind));
    }
    Ok(())
}

impl Frame {
    /// The frame at `path`: a contiguous frame's file or a sparse frame's directory.
    pub(crate) fn open(path: &Path) -> Result<Frame, ArrayError> {
        // The file frame::open opened (and locked, when the lock protocol is in use).
        let file = frame::open(path)?;
        let header_path = file.header_path;
        let reader = file.source.bytes;
        let index = ChunkIndex::read(&*reader, &file.header)
            .map_err(|e| ArrayError::from(e).in_file(&header_path))?;
        let bytes = match file.header.info.kind {
            FrameKind::Contiguous => Bytes::Window {
                src: reader,
                start: 0,
                len: file.file_len,
            },
            FrameKind::Sparse => Bytes::Sparse {
                dir: header_path.parent().unwrap_or(Path::new(".")).to_path_buf(),
            },
        };
        Ok(Frame {
            header: file.header,
            index,
            bytes,
        })
    }

    /// The contiguous frame at bytes `[start, start + len)` of `src`.
    pub(crate) fn in_window(
        src: Arc<dyn ReadAt + Send + Sync>,
        start: u64,
        len: u64,
    ) -> Result<Frame, FrameError> {
        let window = Window::new(Arc::clone(&src), start, len);
        let header = frame::read_staged(&window, CONTENT_CAP)?;
        if header.info.kind != FrameKind::Contiguous {
            let kind = FrameErrorKind::WrongKind {
                expected: FrameKind::Contiguous,
                found: header.info.kind,
            };
            return Err(FrameError::at(26, kind));
        }
        let index = ChunkIndex::read(&window, &header)?;
        Ok(Frame {
            header,
            index,
            bytes: Bytes::Window { src, start, len },
        })
    }

    /// Chunk `n`'s stored bytes into `raw` (resized to its `cbytes`), or what the index
    /// says it is when it is not stored. Errors carry the byte offset in the frame (in
    /// the chunk's file, for a sparse frame).
    pub(crate) fn fetch(&self, n: u64, raw: &mut Vec<u8>) -> Result<Fetched, FrameError> {
        match self.location(n)? {
            ChunkLocation::Special(special) => Ok(Fetched::Special(special)),
            ChunkLocation::Offset(at) => {
                let Bytes::Window { src, start, len } = &self.bytes else {
                    return Err(invalid(
                        self.index.offset,
                        "chunk offset",
                        i128::from(at),
                        "an offset in a sparse frame",
                    ));
                };
                let info = &self.header.info;
                let data_end = (u64::from(info.header_len) + info.cbytes.max(0) as u64).min(*len);
                read_chunk(src.as_ref(), *start, at, data_end, n, raw)?;
                Ok(Fetched::Stored)
            }
            ChunkLocation::File(number) => {
                let dir = match &self.bytes {
                    Bytes::Sparse { dir } => Some(dir.as_path()),
                    Bytes::Window { .. } => None,
                };
                let reason = "a chunk file in a contiguous frame";
                let (file, len, path) = open_chunk_file(dir, number, self.index.offset, reason)?;
                read_chunk(&file, 0, 0, len, n, raw).map_err(|e| e.in_file(&path))?;
                Ok(Fetched::Stored)
            }
        }
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

    /// Where chunk `n` is: its offset in the frame, or its file and 0.
    fn place(&self, n: u64) -> (u64, Option<PathBuf>) {
        let location = usize::try_from(n)
            .ok()
            .and_then(|i| self.index.locations.get(i));
        match (location, &self.bytes) {
            (Some(ChunkLocation::Offset(at)), _) => (*at, None),
            (Some(ChunkLocation::File(number)), Bytes::Sparse { dir }) => {
                (0, Some(dir.join(chunk_file_name(*number))))
            }
            _ => (self.index.offset, None),
        }
    }

    /// Chunk `n` does not decode: the error at its byte (in the frame, or in the chunk's
    /// file).
    pub(crate) fn chunk_error(&self, n: u64, source: ChunkError) -> FrameError {
        let (at, path) = self.place(n);
        let offset = at.saturating_add(source.offset().unwrap_or(0));
        let kind = FrameErrorKind::DataChunk {
            nchunk: Some(n),
            chunk_offset: at,
            source,
        };
        let e = FrameError::at(offset, kind);
        match path {
            Some(path) => e.in_file(&path),
            None => e,
        }
    }

    /// Chunk `n` decodes to `found` bytes where the array's chunks hold `expected`.
    pub(crate) fn nbytes_error(&self, n: u64, found: usize, expected: usize) -> FrameError {
        let (at, path) = self.place(n);
        let reason = if found < expected {
            "fewer bytes than the array's chunks hold (extchunknitems x typesize)"
        } else {
            "more bytes than the array's chunks hold (extchunknitems x typesize)"
        };
        let e = invalid(at + 4, "chunk nbytes", found as i128, reason);
        match path {
            Some(path) => e.in_file(&path),
            None => e,
        }
    }
}

/// Reads the chunk at `at` (from the frame's start, which is at `base` in `src`), which
/// must end by `end`, into `raw`.
fn read_chunk(
    src: &dyn ReadAt,
    base: u64,
    at: u64,
    end: u64,
    n: u64,
    raw: &mut Vec<u8>,
) -> Result<(), FrameError> {
    let chunk_error = |source: ChunkError| {
        let offset = at.saturating_add(source.offset().unwrap_or(0));
        let kind = FrameErrorKind::DataChunk {
            nchunk: Some(n),
            chunk_offset: at,
            source,
        };
        FrameError::at(offset, kind)
    };
    let head_len = (EXTENDED_HEADER_LEN as u64).min(end.saturating_sub(at)) as usize;
    let mut head = [0u8; EXTENDED_HEADER_LEN];
    read_exact_at(src, &mut head[..head_len], base + at, "a chunk header")?;
    let header = ChunkHeader::parse(&head[..head_len]).map_err(chunk_error)?;
    if at.saturating_add(u64::from(header.cbytes)) > end {
        return Err(invalid(
            at + 12,
            "chunk cbytes",
            i128::from(header.cbytes),
            "the chunk would extend past the frame's data",
        ));
    }
    raw.clear();
    raw.resize(header.cbytes as usize, 0);
    read_exact_at(src, raw, base + at, "a chunk")
}
