//! The sparse side of [`FrameEdit`]: the chunk files a killed edit left removed when an
//! edit opens, and the commit (new chunk files synced, `chunks.b2frame` staged and
//! renamed over the old one, the files only the old index named removed).

use std::collections::BTreeSet;
use std::vec::Vec;

use super::{FrameEdit, Sizes};
use crate::frame::chunk_file_number;
use crate::frame::chunks::{chunk_file_name, ChunkLocation};
use crate::frame::error::{FrameError, FrameErrorKind};
use crate::frame::header::SPARSE_HEADER_FILE;
use crate::io::{sweep_if_stale, DirStorage, Steps, Storage};

/// The smallest chunk C indexes (`BLOSC_EXTENDED_HEADER_LENGTH`): every sparse chunk
/// number must be at most `cbytes` minus this.
const MIN_CHUNK_LEN: u64 = 32;

/// Removes the chunk files of `objects` that no number of `taken` names, and the stale
/// stagings of `chunks.b2frame`.
///
/// Orphans are left by an edit killed before its rename, or after it while it removed
/// the old files: removed here, crashes never add up. The stagings are swept in the same
/// listing so that the commit need not list the directory again. Names only: a stat of
/// each of thousands of chunk files costs more than the edit of one.
pub(super) fn remove_orphans(
    objects: &DirStorage,
    taken: &BTreeSet<u64>,
    steps: &Steps,
) -> Result<(), FrameError> {
    let dir = objects.root();
    let io = |e| FrameError::io(Some(dir))(e);
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        match name.to_str().and_then(chunk_file_number) {
            Some(n) if !taken.contains(&n) => {
                let path = entry.path();
                steps
                    .remove_file(&path)
                    .map_err(FrameError::io(Some(&path)))?;
            }
            Some(_) => {}
            None => _ = sweep_if_stale(&entry, SPARSE_HEADER_FILE, steps),
        }
    }
    Ok(())
}

/// Removes the chunk files of `numbers` from `objects`.
pub(super) fn remove_chunk_files(
    objects: &DirStorage,
    numbers: impl IntoIterator<Item = u64>,
) -> Result<(), FrameError> {
    for n in numbers {
        let name = chunk_file_name(n);
        objects
            .remove(&name)
            .map_err(FrameError::io(Some(&objects.root().join(&name))))?;
    }
    Ok(())
}

impl FrameEdit {
    /// The new `chunks.b2frame`, staged and renamed over the old one; then the chunk
    /// files only the old index named removed.
    pub(super) fn commit_sparse(
        &mut self,
        locations: &[ChunkLocation],
        nbytes: i64,
        offsets: &[u8],
        patch: Option<(u64, Vec<u8>)>,
    ) -> Result<(), FrameError> {
        let p = self.header_path.clone();
        let io = |e| FrameError::io(Some(&p))(e);
        self.sync_pending()?;
        let Some(objects) = self.objects.as_ref() else {
            return Err(FrameError::new(FrameErrorKind::UnusualLayout));
        };
        self.steps.sync_dir(objects.root()).map_err(io)?;
        let mut largest = None;
        let mut kept = BTreeSet::new();
        for l in locations {
            if let ChunkLocation::File(n) = *l {
                largest = largest.max(Some(n));
                kept.insert(n);
            }
        }
        let old: BTreeSet<u64> = self
            .chunks
            .index
            .locations
            .iter()
            .filter_map(|l| match l {
                ChunkLocation::File(n) if !kept.contains(n) => Some(*n),
                _ => None,
            })
            .collect();
        // As C keeps `cbytes` (the live chunk files' sizes): the old count, less the
        // files dropped, plus the files added; the kept files are not read.
        let mut cbytes = u64::try_from(self.header.info.cbytes).unwrap_or(0);
        for n in &old {
            let name = objects.root().join(chunk_file_name(*n));
            let len = std::fs::metadata(&name)
                .map_err(FrameError::io(Some(&name)))?
                .len();
            cbytes = cbytes.saturating_sub(len);
        }
        for (n, len) in &self.added {
            if kept.contains(n) {
                cbytes = cbytes.saturating_add(*len);
            }
        }
        if let Some(n) = largest {
            cbytes = cbytes.max(n.saturating_add(MIN_CHUNK_LEN));
        }
        let header_len = u64::from(self.header.info.header_len);
        let frame_len = header_len + offsets.len() as u64 + self.trailer.len() as u64;
        let sizes = Sizes {
            frame_len,
            nbytes,
            cbytes: cbytes as i64,
        };
        self.replace_header_file(&sizes, patch.as_ref(), offsets)?;
        // The new index is in place: what fails from here leaves files no one reads.
        // Their removal is not synced: undone by a crash, it leaves such files, which
        // the next edit sees as taken names (a sync here cost as much as the edit's
        // other syncs together).
        self.added.clear();
        remove_chunk_files(objects, old)
    }
}
