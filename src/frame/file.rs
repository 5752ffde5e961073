//! [`FrameFile`]: a frame's header, read from a file (see `open.rs`) or from a store's
//! node, with the source it was read from kept, so that what comes later (a long
//! content, the trailer, the data) is read from the same file, never opened again; and
//! its trailer, read at its first use and kept.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, FrameKind};
use super::lock::{lock_frame, Locking};
use super::staged::read_staged;
use super::trailer::{read_trailer, Trailer, TrailerCache};
use crate::io::{read_vec_at, SharedSource};

/// A frame's header and where the rest of the frame is read from: the file [`open`]
/// opened (kept open), or a store's node (see `crate::container`).
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
/// let frame = b2nd_meta::frame::open(path)?;
/// assert_eq!(frame.file_len, frame.header.info.frame_len);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
///
/// [`open`]: super::open
#[derive(Clone)]
pub struct FrameFile {
    /// The file the header was read from (the frame file itself, or the
    /// `chunks.b2frame` inside a sparse-frame directory); for a store's node, the
    /// label that names it (`store.b2z#member`).
    pub header_path: PathBuf,
    /// The parsed header.
    pub header: FrameHeader,
    /// Length of `header_path` on disk (of the node, for a store's node).
    pub file_len: u64,
    /// Where the frame's bytes are read from.
    pub(crate) source: Backing,
    /// The trailer, once read ([`FrameFile::trailer`]).
    pub(crate) trailer_cache: TrailerCache,
}

/// Where a [`FrameFile`] reads its bytes: the source its header came from, and, when
/// that is a file of its own, how its reads take part in C-Blosc2's lock protocol.
#[derive(Clone)]
pub(crate) struct Backing {
    pub(crate) bytes: SharedSource,
    pub(crate) locking: Option<Locking>,
}

/// Two frames are equal when they were read from the same path, as the same header of
/// the same length: the file kept open and the trailer kept are not what a frame is.
impl PartialEq for FrameFile {
    fn eq(&self, other: &Self) -> bool {
        (&self.header_path, &self.header, self.file_len)
            == (&other.header_path, &other.header, other.file_len)
    }
}

impl Eq for FrameFile {}

impl core::fmt::Debug for FrameFile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FrameFile")
            .field("header_path", &self.header_path)
            .field("header", &self.header)
            .field("file_len", &self.file_len)
            .finish_non_exhaustive()
    }
}

impl FrameFile {
    /// A frame whose header was read from `source`, a file of its own read under
    /// `locking`, or (`None`) a store's node or bytes in memory.
    pub(crate) fn new(
        header_path: PathBuf,
        header: FrameHeader,
        file_len: u64,
        source: SharedSource,
        locking: Option<Locking>,
    ) -> FrameFile {
        FrameFile {
            header_path,
            header,
            file_len,
            source: Backing {
                bytes: source,
                locking,
            },
            trailer_cache: TrailerCache::default(),
        }
    }

    /// The same bytes, for a reader of the data or the trailer.
    pub(crate) fn bytes(&self) -> SharedSource {
        Arc::clone(&self.source.bytes)
    }

    /// Whether `header_path` is shorter than the declared `frame_len`, i.e. the
    /// data, the chunk-offsets index or the trailer is cut off.
    ///
    /// For a sparse frame `frame_len` covers `chunks.b2frame` only (C-Blosc2
    /// reads the trailer at `frame_len - 25` inside that file), so this compares
    /// that file; missing or short `.chunk` files are not detected, as that
    /// would need the chunk-offsets index, i.e. reading past the header.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
    /// assert!(!b2nd_meta::frame::open(path)?.is_truncated());
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn is_truncated(&self) -> bool {
        self.file_len < self.header.info.frame_len
    }

    /// Bytes `range` of the frame (for a sparse frame, of `chunks.b2frame`), read from
    /// where the header was (the file kept open, not opened again); the range is
    /// clipped to `file_len`.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let frame = b2nd_meta::frame::open(path)?;
    /// assert_eq!(frame.read_bytes(2..9)?, b"b2frame");
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn read_bytes(&self, range: Range<u64>) -> Result<Vec<u8>, FrameError> {
        let (start, end) = (range.start.min(self.file_len), range.end.min(self.file_len));
        let want = usize::try_from(end.saturating_sub(start)).unwrap_or(usize::MAX);
        let path = self.header_path.as_path();
        let bytes =
            read_vec_at(&*self.source.bytes, start, want).map_err(FrameError::io(Some(path)))?;
        if bytes.len() < want {
            let kind = FrameErrorKind::Truncated {
                what: "the bytes asked for",
                end,
                available: start + bytes.len() as u64,
            };
            return Err(FrameError::at(start, kind).in_file(path));
        }
        Ok(bytes)
    }

    /// Bytes `range` of the content of metalayer `name` (the first so named), read from
    /// where the header was: what [`open`](super::open) did not keep of a content
    /// longer than [`CONTENT_CAP`](super::CONTENT_CAP). The range is clipped to the
    /// content.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let frame = b2nd_meta::frame::open(path)?;
    /// assert_eq!(frame.read_content("user", 1..7)?, b"\xa6answer"[..6]);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn read_content(&self, name: &str, range: Range<u64>) -> Result<Vec<u8>, FrameError> {
        let m = self.header.metalayer(name).ok_or_else(|| {
            FrameError::new(FrameErrorKind::UnknownMetalayer {
                name: std::borrow::ToOwned::to_owned(name),
            })
        })?;
        let len = u64::from(m.content_len);
        let (start, end) = (range.start.min(len), range.end.min(len));
        let at = m.content_offset();
        let want = usize::try_from(end.saturating_sub(start)).unwrap_or(usize::MAX);
        let path = self.header_path.as_path();
        let bytes = read_vec_at(&*self.source.bytes, at + start, want)
            .map_err(FrameError::io(Some(path)))?;
        if bytes.len() < want {
            return Err(FrameError::at(
                at + start,
                FrameErrorKind::Truncated {
                    what: "metalayer content",
                    end: at + end,
                    available: self.file_len,
                },
            )
            .in_file(path));
        }
        Ok(bytes)
    }

    /// How many bytes are missing from `header_path` (0 when not truncated).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
    /// assert_eq!(b2nd_meta::frame::open(path)?.missing_bytes(), 0);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn missing_bytes(&self) -> u64 {
        self.header.info.frame_len.saturating_sub(self.file_len)
    }
}

#[cfg(test)]
std::thread_local! {
    /// How many times this thread read a trailer from a file (tests).
    pub(crate) static TRAILER_READS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

impl FrameFile {
    /// The trailer of this frame, read from its file at the first call (two small
    /// reads at the frame's end, after the header's fixed part is read again for the
    /// current `frame_len`, under the shared sidecar lock when C-Blosc2's lock protocol
    /// is in use: see [`lock_frame`](crate::frame::lock_frame)) and kept for every later
    /// call on this `FrameFile` (this returns a copy of it; the `vlmeta*` methods read it
    /// in place). A failed read is not kept.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// assert_eq!(trailer.version, 1);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn trailer(&self) -> Result<Trailer, FrameError> {
        self.kept_trailer().cloned()
    }

    /// The kept trailer, read at the first call.
    pub(crate) fn kept_trailer(&self) -> Result<&Trailer, FrameError> {
        if let Some(trailer) = self.trailer_cache.0.get() {
            return Ok(trailer);
        }
        let trailer = self.read_trailer_now()?;
        Ok(self.trailer_cache.0.get_or_init(|| trailer))
    }

    /// Reads the trailer now (the caller holds the lock when there is one) and keeps
    /// it when it reads.
    pub(crate) fn read_kept_trailer(&self) -> Result<Trailer, FrameError> {
        #[cfg(test)]
        TRAILER_READS.with(|n| n.set(n.get() + 1));
        let trailer = read_trailer(&*self.source.bytes, &self.header)
            .map_err(|e| e.in_file(&self.header_path))?;
        let _ = self.trailer_cache.0.set(trailer.clone());
        Ok(trailer)
    }

    fn read_trailer_now(&self) -> Result<Trailer, FrameError> {
        #[cfg(test)]
        TRAILER_READS.with(|n| n.set(n.get() + 1));
        let path = &self.header_path;
        let kind = self.header.info.kind;
        let user_path = match kind {
            FrameKind::Sparse => path.parent().unwrap_or(path),
            _ => path,
        };
        let _shared = match self.source.locking {
            Some(locking) => lock_frame(user_path, kind, false, locking)?,
            None => None,
        };
        let src = &*self.source.bytes;
        // The frame_len of now (a writer may have moved the trailer since the open),
        // from the header read again without keeping any of its contents.
        let header = read_staged(src, 0).map_err(|e| e.in_file(path))?;
        read_trailer(src, &header).map_err(|e| e.in_file(path))
    }
}
