//! [`FrameWriter`]: a new frame written where it cannot be seen until it is complete,
//! then put at its path in one atomic step; the one writer of whole frames.
//!
//! A contiguous frame (`header | chunks | offsets chunk | trailer`) is written to a
//! staging file beside its path and renamed over it. A sparse frame (a directory of
//! `chunks.b2frame` = `header | offsets chunk | trailer`, and one `%08X.chunk` file per
//! stored chunk) is written to a staging directory renamed onto its path, or, over an
//! existing sparse frame, into that directory: its chunks under numbers no file there
//! has (C-Blosc2 reads a sparse frame's chunk files by the numbers its index holds, and
//! numbers its own new chunks past the largest), its `chunks.b2frame` staged beside the
//! old one and renamed over it, the old chunk files removed after. At every instant the
//! path holds the old frame or the new one, complete.
//!
//! What may be at the path: nothing; a file, replaced when asked, by a contiguous frame;
//! a sparse frame, replaced when asked, by a sparse frame. A sparse frame does not
//! replace a file, nor a contiguous frame a directory (neither can be done atomically),
//! a directory that is not a sparse frame is never touched, and a FIFO, a device or a
//! socket is refused. The lock: C-Blosc2's `.b2lock` protocol (see `lock.rs`) and this
//! crate's own lock on the frame replaced are taken for the switch.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

use super::build::{offsets_chunk, NewHeader, Sizes};
use super::chunks::{chunk_file_name, ChunkLocation};
use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameKind, SPARSE_HEADER_FILE};
use super::lock::{lock_frame, open_locked, FrameLock, Locking};
use crate::io::{DirStorage, Existing, Listed, Out, Staging, Steps, Storage, Unsynced};

/// Bytes of chunks written between two syncs of a contiguous frame: enough that a sync
/// costs little per byte, few enough that the last one leaves little to the end.
const SETTLE_BYTES: u64 = 16 << 20;

/// How a new frame is written.
#[derive(Debug, Clone, Default)]
pub(crate) struct WriteOptions {
    /// Whether a frame (or file) at the path may be replaced.
    pub(crate) overwrite: bool,
    /// The steps its file changes take (crash tests stop them).
    pub(crate) steps: Steps,
    /// C-Blosc2's lock protocol.
    pub(crate) locking: Locking,
    /// The file the frame is made from, which must not be the one replaced.
    pub(crate) input: Option<PathBuf>,
}

/// Where a new frame is written until it is put in place.
#[derive(Debug)]
enum Place {
    /// Contiguous: the staging file, renamed over the path.
    File(Staging),
    /// Sparse, nothing at the path: a staging directory renamed onto it, and its
    /// `chunks.b2frame`.
    NewDir {
        staging: Staging,
        objects: DirStorage,
        header: File,
    },
    /// Sparse, over a sparse frame: its directory, the new `chunks.b2frame` staged in
    /// it, the chunk files there before (removed once the new header is in place), and
    /// this crate's lock on the old `chunks.b2frame`, held throughout.
    InDir {
        objects: DirStorage,
        header: Staging,
        old_files: Vec<String>,
        added: Added,
        _held: File,
    },
}

/// A new frame being written.
#[derive(Debug)]
pub(crate) struct FrameWriter {
    /// The path as given (the lock's, the messages').
    path: PathBuf,
    /// Where the file is (a symbolic link followed).
    real: PathBuf,
    place: Place,
    kind: FrameKind,
    steps: Steps,
    locking: Locking,
    overwrite: bool,
    header_len: u64,
    /// Bytes of chunks stored so far (the header's `cbytes`).
    cbytes: u64,
    /// Bytes of chunks synced so far.
    settled: u64,
    /// The number of the next chunk file (sparse).
    next_file: u64,
    /// Sparse: chunk files written, not yet synced.
    unsynced: Unsynced,
}

fn refused(why: impl Into<String>) -> FrameError {
    FrameError::new(FrameErrorKind::NotReplaceable { why: why.into() })
}

/// The numbers of the chunk files among `names`, and the names of every chunk file.
fn chunk_files(names: &[Listed]) -> (u64, Vec<String>) {
    let mut next = 0;
    let mut files = Vec::new();
    for listed in names {
        let Some(hex) = listed.name.strip_suffix(".chunk") else {
            continue;
        };
        if let Ok(n) = u64::from_str_radix(hex, 16) {
            next = next.max(n.saturating_add(1));
        }
        if !listed.is_dir {
            files.push(listed.name.clone());
        }
    }
    (next, files)
}

impl FrameWriter {
    /// Starts a frame of `header` at `path`, as `options` say.
    pub(crate) fn create(
        path: &Path,
        header: &NewHeader,
        options: &WriteOptions,
    ) -> Result<FrameWriter, FrameError> {
        let in_path = |e: FrameError| e.in_file(path);
        let io = |e| FrameError::io(Some(path))(e);
        let out = Out::inspect(path).map_err(io)?;
        let kind = header.kind;
        let steps = &options.steps;
        if let Some(input) = &options.input
            && out.is(&std::fs::metadata(input).map_err(FrameError::io(Some(input)))?)
        {
            return Err(in_path(refused(
                "is the input: writing it would destroy what is read",
            )));
        }
        let sparse_frame = out.existing == Existing::Directory && is_sparse_frame(&out.real);
        match out.existing {
            Existing::Special(what) => {
                return Err(in_path(refused(std::format!(
                    "{what}: a frame is staged in a new file and renamed into place"
                ))));
            }
            Existing::Directory if !sparse_frame => {
                return Err(in_path(refused(
                    "a directory that is not a sparse frame: it is never replaced",
                )));
            }
            Existing::File | Existing::Directory if !options.overwrite => {
                return Err(in_path(FrameError::new(FrameErrorKind::Exists)));
            }
            Existing::File if kind == FrameKind::Sparse => {
                return Err(in_path(refused(
                    "a file: a sparse frame (a directory) cannot replace it atomically; remove it first",
                )));
            }
            Existing::Directory if kind == FrameKind::Contiguous => {
                return Err(in_path(refused(
                    "a sparse frame (a directory): a contiguous frame (a file) cannot replace it atomically; remove it first",
                )));
            }
            _ => {}
        }
        // The header's length does not depend on the sizes it holds: it is written once
        // they are known.
        let header_len = header.to_bytes(&Sizes::default())?.len() as u64;
        let (place, next_file) = match (kind, out.existing) {
            (FrameKind::Contiguous, _) => {
                let staging = Staging::file(&out.real, out.metadata(), steps).map_err(io)?;
                (Place::File(staging), 0)
            }
            (FrameKind::Sparse, Existing::Nothing) => {
                let staging = Staging::dir(&out.real, steps).map_err(io)?;
                let header_path = staging.path().join(SPARSE_HEADER_FILE);
                let mut create = OpenOptions::new();
                create.read(true).write(true).create_new(true);
                let header = steps
                    .open(&create, &header_path)
                    .map_err(FrameError::io(Some(&header_path)))?;
                let objects = DirStorage::new(staging.path()).with_steps(steps);
                (
                    Place::NewDir {
                        staging,
                        objects,
                        header,
                    },
                    0,
                )
            }
            (FrameKind::Sparse, _) => {
                let header_path = out.real.join(SPARSE_HEADER_FILE);
                let held = open_locked(&header_path, true, &options.locking)?;
                let objects = DirStorage::new(&out.real).with_steps(steps);
                let names = objects.list("").map_err(io)?;
                let (next_file, old_files) = chunk_files(&names);
                let like = held.metadata().ok();
                let header = Staging::file(&header_path, like.as_ref(), steps)
                    .map_err(FrameError::io(Some(&header_path)))?;
                let added = Added {
                    objects: objects.clone(),
                    first: next_file,
                    next: next_file,
                    steps: steps.clone(),
                    kept: false,
                };
                let place = Place::InDir {
                    objects,
                    header,
                    old_files,
                    added,
                    _held: held,
                };
                (place, next_file)
            }
        };
        Ok(FrameWriter {
            path: path.to_path_buf(),
            real: out.real,
            place,
            kind,
            steps: steps.clone(),
            locking: options.locking,
            overwrite: options.overwrite,
            header_len,
            cbytes: 0,
            settled: 0,
            next_file,
            unsynced: Unsynced::default(),
        })
    }

    /// The file the header, the index and the trailer go to.
    fn header_file(&self) -> &File {
        match &self.place {
            Place::File(staging) => staging.file_handle(),
            Place::NewDir { header, .. } => header,
            Place::InDir { header, .. } => header.file_handle(),
        }
    }

    fn io(&self) -> impl FnOnce(std::io::Error) -> FrameError + '_ {
        FrameError::io(Some(&self.path))
    }

    /// Stores one compressed chunk after the ones before, and says where it is.
    pub(crate) fn put(&mut self, chunk: &[u8]) -> Result<ChunkLocation, FrameError> {
        let location = match &mut self.place {
            Place::File(staging) => {
                let at = self.header_len + self.cbytes;
                self.steps
                    .write(staging.file_handle(), chunk, at)
                    .map_err(FrameError::io(Some(&self.path)))?;
                ChunkLocation::Offset(at)
            }
            Place::NewDir { objects, .. } | Place::InDir { objects, .. } => {
                let n = self.next_file;
                let name = chunk_file_name(n);
                let created = objects.create_unsynced(&name, chunk);
                let label = objects.label(&name);
                if let Place::InDir { added, .. } = &mut self.place {
                    // Removed on a failure too: the file may be there, in part.
                    added.next = n + 1;
                }
                let file = created.map_err(FrameError::io(Some(&label)))?;
                self.unsynced
                    .push(file, &self.steps)
                    .map_err(FrameError::io(Some(&label)))?;
                self.next_file += 1;
                ChunkLocation::File(n)
            }
        };
        self.cbytes += chunk.len() as u64;
        Ok(location)
    }

    /// Syncs a contiguous frame's chunks stored so far once [`SETTLE_BYTES`] more are
    /// (a sparse frame's chunk files are synced 64 at a time, together): called while
    /// other chunks are compressed, so the sync that puts the frame in place has little
    /// left to wait for.
    pub(crate) fn settle(&mut self) -> Result<(), FrameError> {
        if self.kind == FrameKind::Contiguous && self.cbytes - self.settled >= SETTLE_BYTES {
            self.steps
                .sync_data(self.header_file())
                .map_err(self.io())?;
            self.settled = self.cbytes;
        }
        Ok(())
    }

    /// Writes the offsets chunk of `locations`, the trailer and the header with the
    /// final sizes (`nbytes`: the chunks' uncompressed bytes), then puts the frame at
    /// its path under the locks.
    pub(crate) fn finish(
        mut self,
        header: &NewHeader,
        locations: &[ChunkLocation],
        nbytes: u64,
        trailer: &(Vec<u8>, bool),
    ) -> Result<(), FrameError> {
        // Every chunk file durable before the index that names them is.
        self.unsynced.sync(&self.steps).map_err(self.io())?;
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
        // C requires every chunk file's number to be at most `cbytes - 32`
        // (`validate_offsets_chunk`): numbered past an old frame's files, a few small
        // chunks may need more than their bytes (docs/design/in-place-edits.md).
        let largest = locations.iter().filter_map(|l| match l {
            ChunkLocation::File(n) => Some(n.saturating_add(32)),
            _ => None,
        });
        let cbytes = largest.fold(self.cbytes, u64::max);
        let sizes = Sizes {
            nbytes: nbytes as i64,
            cbytes: cbytes as i64,
            frame_len: trailer_at + trailer.0.len() as u64,
            has_vlmeta: trailer.1,
        };
        let header_bytes = header.to_bytes(&sizes)?;
        let file = self.header_file();
        let steps = &self.steps;
        let written = steps
            .write(file, &index, index_at)
            .and_then(|()| steps.write(file, &trailer.0, trailer_at))
            .and_then(|()| steps.write(file, &header_bytes, 0))
            .and_then(|()| steps.set_len(file, sizes.frame_len));
        written.map_err(self.io())?;
        self.put_in_place()
    }

    /// The switch: under the sidecar lock (when the protocol is in use) and this crate's
    /// lock on the frame replaced, the staging renamed over the path.
    fn put_in_place(self) -> Result<(), FrameError> {
        let path = self.path.clone();
        let io = |e| FrameError::io(Some(&path))(e);
        // Something put there since the start, by another writer.
        if !self.overwrite && self.real.symlink_metadata().is_ok() {
            return Err(FrameError::new(FrameErrorKind::Exists).in_file(&path));
        }
        let _sidecar: Option<FrameLock> = match self.place {
            // A new directory has no sidecar yet: nothing can hold it.
            Place::NewDir { .. } => None,
            _ => lock_frame(&self.real, self.kind, true, self.locking)?,
        };
        match self.place {
            Place::File(staging) => {
                // A frame of ours being rewritten in place there waits for this.
                let _held = match self.real.is_file() {
                    true => Some(open_locked(&self.real, true, &self.locking)?),
                    false => None,
                };
                staging.commit().map_err(io)
            }
            Place::NewDir {
                staging, header, ..
            } => {
                self.steps.sync_all(&header).map_err(io)?;
                drop(header);
                staging.commit().map_err(io)
            }
            Place::InDir {
                objects,
                header,
                old_files,
                mut added,
                _held,
            } => {
                header.commit().map_err(io)?;
                added.kept = true;
                for name in &old_files {
                    objects
                        .remove(name)
                        .map_err(FrameError::io(Some(&objects.label(name))))?;
                }
                self.steps.sync_dir(objects.root()).map_err(io)
            }
        }
    }
}

/// Whether the directory `dir` holds a sparse frame (its `chunks.b2frame` reads as one).
fn is_sparse_frame(dir: &Path) -> bool {
    let Ok(file) = File::open(dir.join(SPARSE_HEADER_FILE)) else {
        return false;
    };
    super::read_staged(&file, 0).is_ok_and(|h| h.info.kind == FrameKind::Sparse)
}

/// The chunk files a writer adds to an existing sparse frame's directory: removed if it
/// stops before the new header is in place (unless a crash test stopped it).
#[derive(Debug)]
struct Added {
    objects: DirStorage,
    first: u64,
    next: u64,
    steps: Steps,
    kept: bool,
}

impl Drop for Added {
    fn drop(&mut self) {
        if self.kept || self.steps.stopped() {
            return;
        }
        for n in self.first..self.next {
            let _ = self.objects.remove(&chunk_file_name(n));
        }
    }
}
