//! [`FrameEdit`]: a frame's chunks changed in place, crash-consistently, at the cost of
//! what changes: the one writer of an existing frame's data (docs/design/in-place-edits.md
//! has the C-Blosc2 3.3 rules it follows, each checked against python-blosc2 4.14.1).
//!
//! A contiguous frame (`header | data | offsets | trailer`): each new chunk is written
//! past the frame's end, then the new offsets chunk and the trailer (its bytes as they
//! were) after them, synced; then one write within the header's first page sets
//! `frame_len`, `nbytes`, `cbytes` (the data region, which now holds the old chunks, the
//! old offsets and the old trailer too: C finds the offsets at `header_len + cbytes`
//! and reads nothing it does not index) and the array metalayer when it changes, synced.
//! Until that write the file holds the old frame; after it, the new one.
//!
//! A sparse frame (a directory of `chunks.b2frame` and `%08X.chunk` files): each new
//! chunk goes into a file of a number no file there has, synced; the new
//! `chunks.b2frame` is staged beside the old one and renamed over it; the files only the
//! old index named are removed after. `cbytes` is kept as C keeps it, by the sizes of
//! the files dropped and added (the kept ones are not stat'ed); C requires every number
//! to be at most `cbytes - 32`: `cbytes` is raised to that where it is less.
//!
//! A frame left without chunks (an axis resized to 0) is written whole instead, staged
//! and renamed: C reads the trailer of a frame without data right after its header.
//!
//! The locks are those of every writer: C-Blosc2's `.b2lock` protocol (its generation
//! counter bumped, so python's locked handles read the new frame) and this crate's own
//! lock on the frame's header file, held from the read of the old frame to the commit.

use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::vec::Vec;

mod sparse;

use super::build::offsets_chunk;
use super::chunks::{chunk_file_name, ChunkLocation};
use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, FrameKind, CONTENT_CAP};
use super::lock::{lock_frame, open_locked, FrameLock, Locking};
use super::open::{check_kind, locate};
use super::parse::{OFF_CBYTES, OFF_FRAME_LEN, OFF_NBYTES};
use super::staged::read_staged;
use super::stored::StoredChunks;
use super::trailer::{locate as locate_trailer, TRAILER_MIN_LEN};
use crate::io::{read_exact_at, DirStorage, SharedSource, Staging, Steps, Storage, Unsynced};

/// The bytes of a header one atomic write may cover: its first page.
const HEADER_PAGE: u64 = 4096;
/// A frame opened for changing its chunks, under its locks.
pub(crate) struct FrameEdit {
    /// The file holding the header (the frame, or its `chunks.b2frame`).
    header_path: PathBuf,
    kind: FrameKind,
    /// That file, open for writing, this crate's lock held on it.
    file: Arc<File>,
    _sidecar: Option<FrameLock>,
    /// The header as read under the locks.
    pub(crate) header: FrameHeader,
    /// The frame's chunks as they are (the old ones a change keeps or reads).
    pub(crate) chunks: StoredChunks<SharedSource>,
    /// The trailer's bytes, kept as they are.
    trailer: Vec<u8>,
    /// Contiguous: where the next new chunk goes.
    end: u64,
    /// Sparse: its directory, the numbers taken (indexed or on disk), those added.
    objects: Option<DirStorage>,
    taken: BTreeSet<u64>,
    added: Vec<(u64, u64)>,
    /// Sparse: new chunk files written, not yet synced.
    pending: Unsynced,
    steps: Steps,
    committed: bool,
}

impl FrameEdit {
    /// Opens the frame at `path` for an edit: the locks taken, its header, index and
    /// trailer read. A frame cut short, or one whose trailer C would not find, is refused.
    pub(crate) fn open(
        path: &Path,
        locking: Locking,
        steps: Steps,
    ) -> Result<FrameEdit, FrameError> {
        let (header_path, kind) = locate(path)?;
        let p = header_path.as_path();
        let io = |e| FrameError::io(Some(p))(e);
        let sidecar = lock_frame(path, kind, true, locking)?;
        let file = Arc::new(open_locked(p, true, &locking)?);
        let file_len = file.metadata().map_err(io)?.len();
        let header = read_staged(&*file, CONTENT_CAP).map_err(|e| e.in_file(p))?;
        check_kind(p, kind, &header)?;
        let frame_len = header.info.frame_len;
        if file_len < frame_len {
            let kind = FrameErrorKind::TruncatedFrame {
                frame_len,
                file_len,
            };
            return Err(FrameError::new(kind).in_file(p));
        }
        let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
        let mut last = std::vec![0u8; (frame_len - last_at) as usize];
        read_exact_at(&*file, &mut last, last_at).map_err(io)?;
        let (at, len) = locate_trailer(&header.info, &last).map_err(|e| e.in_file(p))?;
        let mut trailer = std::vec![0u8; len as usize];
        read_exact_at(&*file, &mut trailer, at).map_err(io)?;
        let objects = match kind {
            FrameKind::Sparse => Some(DirStorage::new(path).with_steps(&steps)),
            FrameKind::Contiguous => None,
        };
        let shared: SharedSource = file.clone();
        let storage = objects
            .as_ref()
            .map(|o| Arc::new(DirStorage::new(o.root())) as Arc<dyn Storage>);
        let chunks = StoredChunks::new(shared, &header, storage, None).map_err(|e| e.in_file(p))?;
        let mut taken = BTreeSet::new();
        if let Some(objects) = &objects {
            for l in &chunks.index.locations {
                if let ChunkLocation::File(n) = l {
                    taken.insert(*n);
                }
            }
            sparse::remove_orphans(objects, &taken, &steps)?;
        }
        Ok(FrameEdit {
            header_path,
            kind,
            file,
            _sidecar: sidecar,
            header,
            chunks,
            trailer,
            end: frame_len,
            objects,
            taken,
            added: Vec::new(),
            pending: Unsynced::default(),
            steps,
            committed: false,
        })
    }

    /// Stores a new chunk where the old frame does not look: past its end, or in a file
    /// of a new number. Its location, for the new index.
    pub(crate) fn put(&mut self, chunk: &[u8]) -> Result<ChunkLocation, FrameError> {
        let len = chunk.len() as u64;
        match &self.objects {
            None => {
                let at = self.end;
                let io = |e| FrameError::io(Some(&self.header_path))(e);
                self.steps.write(&*self.file, chunk, at).map_err(io)?;
                self.end = at.saturating_add(len);
                Ok(ChunkLocation::Offset(at))
            }
            Some(objects) => {
                let n = (0..).find(|n| !self.taken.contains(n)).unwrap_or(u64::MAX);
                let name = chunk_file_name(n);
                let file = objects
                    .create_unsynced(&name, chunk)
                    .map_err(FrameError::io(Some(&objects.root().join(&name))))?;
                self.taken.insert(n);
                self.added.push((n, len));
                self.pending
                    .push(file, &self.steps)
                    .map_err(FrameError::io(Some(&self.header_path)))?;
                Ok(ChunkLocation::File(n))
            }
        }
    }

    /// Puts the new frame in place: `locations` its index (old locations kept, new ones
    /// from [`FrameEdit::put`], special chunks), `nbytes` its uncompressed size, and the
    /// metalayer `name` given the same-length `content` (the array's new shape).
    pub(crate) fn commit(
        mut self,
        locations: &[ChunkLocation],
        nbytes: i64,
        metalayer: Option<(&str, &[u8])>,
    ) -> Result<(), FrameError> {
        let p = self.header_path.clone();
        let io = |e| FrameError::io(Some(&p))(e);
        let info = &self.header.info;
        let header_len = u64::from(info.header_len);
        let patch = match metalayer {
            Some((name, content)) => {
                let m = super::write::target(&self.header, name, content.len())?;
                Some((m.content_offset(), content.to_vec()))
            }
            None => None,
        };
        if locations.is_empty() {
            self.commit_empty(patch)?;
            self.committed = true;
            return Ok(());
        }
        let offsets = offsets_chunk(locations, header_len)?;
        match self.kind {
            FrameKind::Contiguous => {
                let at = self.end;
                self.steps.write(&*self.file, &offsets, at).map_err(io)?;
                let trailer_at = at + offsets.len() as u64;
                self.steps
                    .write(&*self.file, &self.trailer, trailer_at)
                    .map_err(io)?;
                self.steps.sync_data(&*self.file).map_err(io)?;
                let frame_len = trailer_at + self.trailer.len() as u64;
                let sizes = Sizes {
                    frame_len,
                    nbytes,
                    cbytes: (at - header_len) as i64,
                };
                let head = self.patched_head(&sizes, patch.as_ref())?;
                self.steps
                    .write_in_page(&*self.file, &head, OFF_FRAME_LEN as u64)
                    .map_err(io)?;
                self.steps.sync_data(&*self.file).map_err(io)?;
            }
            FrameKind::Sparse => self.commit_sparse(locations, nbytes, &offsets, patch)?,
        }
        self.committed = true;
        Ok(())
    }

    /// A frame without chunks: C reads its trailer right after the header, so the
    /// header file is written whole (header, trailer), staged and renamed over the old
    /// one; a sparse frame's chunk files go after.
    fn commit_empty(&mut self, patch: Option<(u64, Vec<u8>)>) -> Result<(), FrameError> {
        let p = self.header_path.clone();
        let io = |e| FrameError::io(Some(&p))(e);
        let header_len = u64::from(self.header.info.header_len);
        let sizes = Sizes {
            frame_len: header_len + self.trailer.len() as u64,
            nbytes: 0,
            cbytes: 0,
        };
        self.replace_header_file(&sizes, patch.as_ref(), &[])?;
        self.added.clear();
        if let Some(objects) = &self.objects {
            let numbers = self.chunks.index.locations.iter().filter_map(|l| match l {
                ChunkLocation::File(n) => Some(*n),
                _ => None,
            });
            sparse::remove_chunk_files(objects, numbers)?;
            self.steps.sync_dir(objects.root()).map_err(io)?;
        }
        Ok(())
    }

    /// The header file written whole (its header with `sizes` and `patch`, `offsets`,
    /// the trailer) into a staging file of its mode and owner, renamed over it. A sparse
    /// frame's directory was swept of stale stagings when it was listed.
    fn replace_header_file(
        &self,
        sizes: &Sizes,
        patch: Option<&(u64, Vec<u8>)>,
        offsets: &[u8],
    ) -> Result<(), FrameError> {
        let io = |e| FrameError::io(Some(&self.header_path))(e);
        let mut whole = std::vec![0u8; self.header.info.header_len as usize];
        read_exact_at(&*self.file, &mut whole, 0).map_err(io)?;
        let head = self.patched_head(sizes, patch)?;
        whole[OFF_FRAME_LEN..OFF_FRAME_LEN + head.len()].copy_from_slice(&head);
        whole.extend_from_slice(offsets);
        whole.extend_from_slice(&self.trailer);
        let like = self.file.metadata().ok();
        let staging = match self.objects {
            Some(_) => Staging::file_swept(&self.header_path, like.as_ref(), &self.steps),
            None => Staging::file(&self.header_path, like.as_ref(), &self.steps),
        }
        .map_err(io)?;
        self.steps
            .write(staging.file_handle(), &whole, 0)
            .map_err(io)?;
        staging.commit().map_err(io)
    }

    /// Makes the new chunk files written so far durable, together.
    fn sync_pending(&mut self) -> Result<(), FrameError> {
        self.pending
            .sync(&self.steps)
            .map_err(FrameError::io(Some(&self.header_path)))
    }

    /// The header's bytes from `frame_len` to the end of what changes, as they will be:
    /// the sizes, and the metalayer content when it changes. One write, within the
    /// header's first page.
    fn patched_head(
        &self,
        sizes: &Sizes,
        patch: Option<&(u64, Vec<u8>)>,
    ) -> Result<Vec<u8>, FrameError> {
        let p = &self.header_path;
        let start = OFF_FRAME_LEN as u64;
        let end = patch
            .map_or(0, |(at, c)| at + c.len() as u64)
            .max(OFF_CBYTES as u64 + 8);
        if end > HEADER_PAGE {
            let kind = FrameErrorKind::NotEditable {
                why: "its array metalayer ends past the header's first 4096 bytes (not written in one step)",
            };
            return Err(FrameError::new(kind).in_file(p));
        }
        let mut head = std::vec![0u8; (end - start) as usize];
        read_exact_at(&*self.file, &mut head, start).map_err(FrameError::io(Some(p)))?;
        let put = |head: &mut Vec<u8>, at: usize, bytes: &[u8]| {
            let at = at - OFF_FRAME_LEN;
            head[at..at + bytes.len()].copy_from_slice(bytes);
        };
        put(&mut head, OFF_FRAME_LEN, &sizes.frame_len.to_be_bytes());
        put(&mut head, OFF_NBYTES, &sizes.nbytes.to_be_bytes());
        put(&mut head, OFF_CBYTES, &sizes.cbytes.to_be_bytes());
        if let Some((at, content)) = patch {
            put(&mut head, *at as usize, content);
        }
        Ok(head)
    }
}

impl Drop for FrameEdit {
    /// Not committed, and not stopped by a crash test: the chunk files it added go (a
    /// contiguous frame's new bytes past its end are not part of it).
    fn drop(&mut self) {
        if self.committed || self.steps.stopped() {
            return;
        }
        if let Some(objects) = &self.objects {
            for (n, _) in &self.added {
                let _ = objects.remove(&chunk_file_name(*n));
            }
        }
    }
}

/// The sizes the header says.
struct Sizes {
    frame_len: u64,
    nbytes: i64,
    cbytes: i64,
}
