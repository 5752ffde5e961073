//! Where a new array's frame goes while it is written, and how it is put in place: a
//! staging file (or directory, for a sparse frame) beside the target, python-blosc2's
//! `<name>.<pid>.tmp`, holding the header, the chunks as they come, then the offsets
//! chunk and the trailer and the header again with the final sizes; synced, then
//! renamed over the target and the directory synced. A crash leaves the target as it
//! was (and perhaps the staging file), never a half-written frame under its name.
//!
//! A contiguous frame is `header | chunks | offsets chunk | trailer`; a sparse frame is
//! a directory of `chunks.b2frame` (`header | offsets chunk | trailer`) and one
//! `%08X.chunk` file per stored chunk, numbered in order (C's `frame_append_chunk`).

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::vec::Vec;

use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::frame::build::{offsets_chunk, NewHeader, Sizes};
use crate::frame::{chunk_file_name, ChunkLocation, FrameKind, SPARSE_HEADER_FILE};
use crate::io::{staging_path, sync_dir, write_all_at};

/// Bytes of chunks written between two syncs while a frame is written: enough that a
/// sync costs little per byte, few enough that the last one leaves little to the end.
const SETTLE_BYTES: u64 = 16 << 20;

/// A frame being written in its staging place.
#[derive(Debug)]
pub(crate) struct Output {
    target: PathBuf,
    staging: PathBuf,
    overwrite: bool,
    kind: FrameKind,
    /// The contiguous file, or the sparse frame's `chunks.b2frame`.
    file: File,
    header_len: u64,
    /// Bytes of chunks stored so far (the header's `cbytes`).
    cbytes: u64,
    /// Bytes of chunks synced so far ([`Output::settle`]).
    settled: u64,
    /// Chunk files written so far (sparse).
    files: u64,
    done: bool,
}

fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> ArrayError + '_ {
    move |e| ArrayError::from(e).in_file(path)
}

/// Whether something (a file, a directory, a link) is at `path`.
fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

impl Output {
    /// Creates the staging file or directory for `target`, for a frame with `header`.
    /// An existing target is refused unless `overwrite`;
    /// so is a staging name that exists (another writer's, or a crash's leftover).
    pub(crate) fn create(
        target: &Path,
        header: &NewHeader,
        overwrite: bool,
    ) -> Result<Output, ArrayError> {
        if exists(target) && !overwrite {
            return Err(ArrayError::new(ArrayErrorKind::Exists).in_file(target));
        }
        // The header's length does not depend on the sizes it holds: it is written once
        // they are known.
        let header_len = header.to_bytes(&Sizes::default())?.len() as u64;
        let staging = staging_path(target);
        let kind = header.kind;
        let file_path = match kind {
            FrameKind::Contiguous => staging.clone(),
            FrameKind::Sparse => {
                std::fs::create_dir(&staging).map_err(io_at(&staging))?;
                staging.join(SPARSE_HEADER_FILE)
            }
        };
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&file_path);
        let file = match file {
            Ok(file) => file,
            Err(e) => {
                if kind == FrameKind::Sparse {
                    let _ = std::fs::remove_dir(&staging);
                }
                return Err(io_at(&file_path)(e));
            }
        };
        Ok(Output {
            target: target.to_path_buf(),
            staging,
            overwrite,
            kind,
            file,
            header_len,
            cbytes: 0,
            settled: 0,
            files: 0,
            done: false,
        })
    }

    /// Stores one compressed chunk after the ones before, and says where it is.
    pub(crate) fn put(&mut self, chunk: &[u8]) -> Result<ChunkLocation, ArrayError> {
        let location = match self.kind {
            FrameKind::Contiguous => {
                let at = self.header_len + self.cbytes;
                write_all_at(&self.file, chunk, at).map_err(io_at(&self.staging))?;
                ChunkLocation::Offset(at)
            }
            FrameKind::Sparse => {
                let path = self.staging.join(chunk_file_name(self.files));
                let file = File::create_new(&path).map_err(io_at(&path))?;
                write_all_at(&file, chunk, 0).map_err(io_at(&path))?;
                file.sync_all().map_err(io_at(&path))?;
                self.files += 1;
                ChunkLocation::File(self.files - 1)
            }
        };
        self.cbytes += chunk.len() as u64;
        Ok(location)
    }

    /// Syncs a contiguous frame's chunks stored so far once [`SETTLE_BYTES`] more are
    /// (a sparse frame's chunk files are synced as they are written): called while
    /// other chunks are compressed, so the sync that puts the frame in place has little
    /// left to wait for.
    pub(crate) fn settle(&mut self) -> Result<(), ArrayError> {
        if self.kind == FrameKind::Contiguous && self.cbytes - self.settled >= SETTLE_BYTES {
            self.file.sync_data().map_err(io_at(&self.staging))?;
            self.settled = self.cbytes;
        }
        Ok(())
    }

    /// Writes the offsets chunk of `locations`, the trailer and the header with the
    /// final sizes (`nbytes`: the chunks' uncompressed bytes), syncs, and renames the
    /// frame over the target.
    pub(crate) fn finish(
        mut self,
        header: &NewHeader,
        locations: &[ChunkLocation],
        nbytes: u64,
        trailer: &(Vec<u8>, bool),
    ) -> Result<(), ArrayError> {
        let io = io_at(&self.staging);
        let index_at = match self.kind {
            FrameKind::Contiguous => self.header_len + self.cbytes,
            FrameKind::Sparse => self.header_len,
        };
        let index = match locations.is_empty() {
            // C writes no offsets chunk for a frame without chunks.
            true => Vec::new(),
            false => offsets_chunk(locations, self.header_len)?,
        };
        let trailer_at = index_at + index.len() as u64;
        let sizes = Sizes {
            nbytes: nbytes as i64,
            cbytes: self.cbytes as i64,
            frame_len: trailer_at + trailer.0.len() as u64,
            has_vlmeta: trailer.1,
        };
        let header_bytes = header.to_bytes(&sizes)?;
        let file = &self.file;
        let written = write_all_at(file, &index, index_at)
            .and_then(|()| write_all_at(file, &trailer.0, trailer_at))
            .and_then(|()| write_all_at(file, &header_bytes, 0))
            .and_then(|()| file.set_len(sizes.frame_len))
            .and_then(|()| file.sync_all());
        written.map_err(io)?;
        if self.kind == FrameKind::Sparse {
            sync_dir(&self.staging).map_err(io_at(&self.staging))?;
        }
        self.rename()?;
        self.done = true;
        Ok(())
    }

    /// Puts the staging frame at the target: a rename, atomic when the target is a file
    /// or absent. A directory in the way (a sparse frame) is first moved aside to
    /// `<name>.<pid>.old` and removed after, so a crash between the two leaves it
    /// there.
    fn rename(&self) -> Result<(), ArrayError> {
        let target = &self.target;
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let in_the_way = target.symlink_metadata().ok();
        if in_the_way.is_some() && !self.overwrite {
            return Err(ArrayError::new(ArrayErrorKind::Exists).in_file(target));
        }
        let aside = match &in_the_way {
            Some(md) if md.is_dir() || self.kind == FrameKind::Sparse => {
                let mut name = target.file_name().unwrap_or_default().to_os_string();
                name.push(std::format!(".{}.old", std::process::id()));
                let aside = target.with_file_name(name);
                std::fs::rename(target, &aside).map_err(io_at(target))?;
                Some((aside, md.is_dir()))
            }
            _ => None,
        };
        std::fs::rename(&self.staging, target).map_err(io_at(target))?;
        sync_dir(&dir).map_err(io_at(&dir))?;
        if let Some((aside, is_dir)) = aside {
            let removed = match is_dir {
                true => std::fs::remove_dir_all(&aside),
                false => std::fs::remove_file(&aside),
            };
            removed.map_err(io_at(&aside))?;
        }
        Ok(())
    }
}

impl Drop for Output {
    /// A frame not finished (an error, a writer dropped) leaves nothing behind.
    fn drop(&mut self) {
        if !self.done {
            let _ = match self.kind {
                FrameKind::Contiguous => std::fs::remove_file(&self.staging),
                FrameKind::Sparse => std::fs::remove_dir_all(&self.staging),
            };
        }
    }
}
