//! The trailer of a [`FrameFile`], read at its first use and kept.

use super::{read_trailer, Trailer};
use crate::frame::lock::{lock_frame, Locking};
use crate::frame::staged::read_staged;
use crate::frame::{FrameError, FrameFile, FrameKind};

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
        let _shared = match self.source.locked {
            true => lock_frame(user_path, kind, false, Locking::Auto)?,
            false => None,
        };
        let src = &*self.source.bytes;
        // The frame_len of now (a writer may have moved the trailer since the open),
        // from the header read again without keeping any of its contents.
        let header = read_staged(src, 0).map_err(|e| e.in_file(path))?;
        read_trailer(src, &header).map_err(|e| e.in_file(path))
    }
}
