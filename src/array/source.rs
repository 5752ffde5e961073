//! A frame opened for its values: its header and its stored chunks
//! ([`frame::StoredChunks`](crate::frame), the one reader of a frame's chunks), from a
//! contiguous frame at a byte range of a source or from a sparse frame's directory.

use std::path::Path;
use std::sync::Arc;

use super::error::ArrayError;
use crate::frame::{
    self, ChunkLocation, FrameError, FrameErrorKind, FrameHeader, FrameKind, StoredChunks,
    CONTENT_CAP,
};
use crate::io::{DirStorage, ReadAt, SharedSource, Storage, Window};

/// A frame opened for its data.
pub(crate) struct Frame {
    pub(crate) header: FrameHeader,
    pub(crate) chunks: StoredChunks<SharedSource>,
}

impl Frame {
    /// The frame at `path`: a contiguous frame's file or a sparse frame's directory.
    pub(crate) fn open(source: &frame::Source) -> Result<Frame, ArrayError> {
        // The file frame::open opened (and locked, when the lock protocol is in use),
        // or the bytes in memory.
        let file = frame::open(source.clone())?;
        let header_path = file.header_path;
        let objects: Option<Arc<dyn Storage>> = match file.header.info.kind {
            FrameKind::Contiguous => None,
            FrameKind::Sparse => Some(Arc::new(DirStorage::new(
                header_path.parent().unwrap_or(Path::new(".")),
            ))),
        };
        let chunks = StoredChunks::new(file.source.bytes, &file.header, objects, None)
            .map_err(|e| ArrayError::from(e).in_file(&header_path))?;
        Ok(Frame {
            header: file.header,
            chunks,
        })
    }

    /// The contiguous frame at bytes `[start, start + len)` of `src`.
    pub(crate) fn in_window(
        src: Arc<dyn ReadAt + Send + Sync>,
        start: u64,
        len: u64,
    ) -> Result<Frame, FrameError> {
        let window = Window::new(src, start, len);
        let header = frame::read_staged(&window, CONTENT_CAP)?;
        if header.info.kind != FrameKind::Contiguous {
            let kind = FrameErrorKind::WrongKind {
                expected: FrameKind::Contiguous,
                found: header.info.kind,
            };
            return Err(FrameError::at(26, kind));
        }
        let chunks = StoredChunks::new(Arc::new(window) as SharedSource, &header, None, None)?;
        Ok(Frame { header, chunks })
    }

    /// Where the index says chunk `n` is; an error when it holds fewer chunks.
    pub(crate) fn location(&self, n: u64) -> Result<ChunkLocation, FrameError> {
        self.chunks.location(n)
    }
}
