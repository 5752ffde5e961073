//! The chunks of one commit: where each chunk of the new grid comes from (an old
//! chunk kept as it is, or zeros), the ones changed (decoded, held until the commit),
//! and the commit itself: each changed chunk compressed with the frame's parameters
//! (all zeros: C's special zero chunk) and stored, the new index put in place.

mod store;

use std::collections::BTreeMap;
use std::vec::Vec;

use self::store::{Job, Made};
use super::super::error::ArrayError;
use super::super::geometry::Grid;
use super::broadcast::Broadcast;
use super::composed::Composed;
use super::cut::Cut;
use super::partial::Partial;
use super::threads;
use crate::array::write::pipeline_check;
use crate::blosc::{Codec, Special, MAX_FILTERS};
use crate::chunk::{self, CParams, DecodeBudget};
use crate::frame::array::resized;
use crate::frame::edit::FrameEdit;
use crate::frame::{Chunk, ChunkLocation, FrameError, FrameErrorKind};

/// The chunks of the array being changed.
pub(super) struct Chunks {
    edit: FrameEdit,
    grid: Grid,
    itemsize: usize,
    /// Bytes of a decoded chunk (`extchunknitems * typesize`).
    chunk_nbytes: usize,
    /// For each chunk of the grid: the old chunk it is (its number), or none (zeros).
    origin: Vec<Option<u64>>,
    /// The chunks changed, decoded, by number.
    changed: BTreeMap<u64, Vec<u8>>,
    /// The chunks a resize cut and nothing else changed, by number (not decoded).
    cut: BTreeMap<u64, Cut>,
    /// The chunks written in a few blocks, by number (those blocks decoded).
    partial: BTreeMap<u64, Partial>,
    /// The chunks made from the written values alone, by number (nothing decoded).
    composed: BTreeMap<u64, Composed>,
    cparams: CParams,
    /// Threads a chunk is decoded and compressed on.
    threads: usize,
}

fn not_editable(why: &'static str) -> ArrayError {
    FrameError::new(FrameErrorKind::NotEditable { why }).into()
}

impl Chunks {
    /// The chunks of the frame `edit` holds, an array of `grid`; refused where this
    /// crate would not write what C-Blosc2 reads back exactly; each chunk decoded and
    /// compressed on up to `threads` threads.
    pub(super) fn new(edit: FrameEdit, grid: &Grid, threads: usize) -> Result<Chunks, ArrayError> {
        let info = &edit.header.info;
        let itemsize = info.typesize as usize;
        let chunk_nbytes = grid.chunk_items * itemsize;
        if info.chunksize < 0 || info.chunksize as usize != chunk_nbytes {
            return Err(not_editable(
                "its chunksize is not its chunk's bytes (a frame without data written with variable chunks)",
            ));
        }
        if info.use_dict {
            return Err(not_editable("its chunks use a zstd dictionary"));
        }
        if !matches!(
            info.codec,
            Codec::BloscLz | Codec::Lz4 | Codec::Lz4Hc | Codec::Zlib | Codec::Zstd
        ) {
            return Err(not_editable("its codec is not one this crate compresses"));
        }
        let mut filters = [(crate::blosc::Filter::None, 0); MAX_FILTERS];
        for (slot, f) in filters.iter_mut().enumerate() {
            *f = (info.filters[slot], info.filters_meta[slot]);
        }
        if let Some(reason) = pipeline_check::refusal(&filters) {
            return Err(ArrayError::new(crate::array::ArrayErrorKind::Pipeline {
                pipeline: std::format!("{:?}", info.filters),
                reason,
            }));
        }
        let cparams = CParams {
            codec: info.codec,
            clevel: info.clevel,
            typesize: itemsize,
            blocksize: usize::try_from(info.blocksize).unwrap_or(0),
            splitmode: info.splitmode,
            filters,
        };
        let count = edit.chunks.index.locations.len() as u64;
        Ok(Chunks {
            edit,
            grid: grid.clone(),
            itemsize,
            chunk_nbytes,
            origin: (0..count).map(Some).collect(),
            changed: BTreeMap::new(),
            cut: BTreeMap::new(),
            partial: BTreeMap::new(),
            composed: BTreeMap::new(),
            cparams,
            threads,
        })
    }

    pub(super) fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// Chunk `n`'s elements, decoded, to change.
    pub(super) fn get_mut(&mut self, n: u64) -> Result<&mut Vec<u8>, ArrayError> {
        if !self.changed.contains_key(&n) {
            let decoded = self.decoded(n)?;
            self.changed.insert(n, decoded);
        }
        self.changed
            .get_mut(&n)
            .ok_or_else(|| ArrayError::layout(std::format!("chunk {n} is not in the array")))
    }

    /// Whether chunk `n` is zeros before this write: none of the old chunks or C's zero
    /// special chunk, and not changed by this commit.
    pub(super) fn is_zeros(&self, n: u64) -> Result<bool, ArrayError> {
        let unchanged = !self.changed.contains_key(&n)
            && !self.cut.contains_key(&n)
            && !self.partial.contains_key(&n);
        Ok(unchanged
            && match self.origin.get(n as usize) {
                Some(None) => true,
                Some(&Some(old)) => {
                    matches!(self.edit.chunks.chunk(old)?, Chunk::Special(Special::Zero))
                }
                None => false,
            })
    }

    /// Chunk `n` made from the write's values alone (`composed`, zeros between them),
    /// whatever it held: nothing decoded, nothing laid out before the commit.
    pub(super) fn compose(&mut self, n: u64, composed: Composed) -> Result<(), ArrayError> {
        if n as usize >= self.origin.len() {
            return Err(ArrayError::layout(std::format!(
                "chunk {n} is not in the array"
            )));
        }
        self.changed.remove(&n);
        self.cut.remove(&n);
        self.partial.remove(&n);
        self.composed.insert(n, composed);
        Ok(())
    }

    /// Chunk `n`'s elements, to be overwritten whole: not decoded (zeros) unless this
    /// commit changed it already.
    pub(super) fn overwrite(&mut self, n: u64) -> Result<&mut Vec<u8>, ArrayError> {
        if n as usize >= self.origin.len() {
            return Err(ArrayError::layout(std::format!(
                "chunk {n} is not in the array"
            )));
        }
        let zeros = self.chunk_nbytes;
        self.cut.remove(&n);
        self.partial.remove(&n);
        Ok(self
            .changed
            .entry(n)
            .or_insert_with(|| std::vec![0u8; zeros]))
    }

    /// Chunk `n`'s elements, to change those of the blocks `mask` picks: where they are
    /// few in a stored chunk, only they are decoded now and compressed at the commit.
    pub(super) fn blocks_mut(&mut self, n: u64, mask: &[bool]) -> Result<&mut Vec<u8>, ArrayError> {
        let few = mask.iter().filter(|&&b| b).count() * 2 <= mask.len();
        let whole = self.changed.contains_key(&n) || self.cut.contains_key(&n);
        if !self.partial.contains_key(&n) && (whole || !few || !self.start_partial(n)?) {
            return self.get_mut(n);
        }
        if !self.partial.contains_key(&n) {
            return self.get_mut(n);
        }
        if let Some(Err((origin, e))) = self.partial.get_mut(&n).map(|p| p.touch(mask)) {
            return Err(self.chunk_error(origin, e));
        }
        self.partial
            .get_mut(&n)
            .map(Partial::buf_mut)
            .ok_or_else(|| ArrayError::layout(std::format!("chunk {n} is not in the array")))
    }

    /// `e`, found in old chunk `origin`, placed in the frame.
    fn chunk_error(&self, origin: u64, e: chunk::ChunkError) -> ArrayError {
        match self.edit.chunks.chunk(origin) {
            Ok(Chunk::Stored(stored)) => stored.error(e).into(),
            Ok(Chunk::Special(_)) => ArrayError::layout(std::format!("chunk {origin}: {e}")),
            Err(other) => other.into(),
        }
    }

    /// Chunk `n` as a [`Partial`], when it is a stored chunk of the grid's blocks.
    fn start_partial(&mut self, n: u64) -> Result<bool, ArrayError> {
        let Some(origin) = self.origin.get(n as usize).copied().flatten() else {
            return Ok(false);
        };
        let Chunk::Stored(stored) = self.edit.chunks.chunk(origin)? else {
            return Ok(false);
        };
        let mut raw = Vec::new();
        stored.read_all(&mut raw)?;
        let block_bytes = self.grid.block_items * self.itemsize;
        match Partial::new(origin, raw, self.chunk_nbytes, block_bytes) {
            Some(p) => {
                self.partial.insert(n, p);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Chunk `n` of the grid as it is before this commit's changes to it, decoded.
    fn decoded(&mut self, n: u64) -> Result<Vec<u8>, ArrayError> {
        if let Some(partial) = self.partial.remove(&n) {
            let origin = partial.origin;
            return partial.complete().map_err(|e| self.chunk_error(origin, e));
        }
        if let Some(cut) = self.cut.remove(&n) {
            let before = self.decode(Some(cut.origin))?;
            return Ok(cut.apply(&before, self.itemsize));
        }
        self.decode(self.origin.get(n as usize).copied().flatten())
    }

    /// Old chunk `origin` decoded on the array's threads (zeros for none).
    fn decode(&self, origin: Option<u64>) -> Result<Vec<u8>, ArrayError> {
        self.decode_on(origin, self.threads)
    }

    /// Old chunk `origin` decoded on up to `threads` threads (zeros for none).
    fn decode_on(&self, origin: Option<u64>, threads: usize) -> Result<Vec<u8>, ArrayError> {
        let Some(n) = origin else {
            return Ok(std::vec![0u8; self.chunk_nbytes]);
        };
        let stored = &self.edit.chunks;
        let bytes = match stored.chunk(n)? {
            Chunk::Special(special) => {
                let pattern = stored.special_pattern(special)?;
                pattern
                    .iter()
                    .copied()
                    .cycle()
                    .take(self.chunk_nbytes)
                    .collect()
            }
            Chunk::Stored(chunk) => {
                let mut raw = Vec::new();
                chunk.read_all(&mut raw)?;
                let limit = u32::try_from(self.chunk_nbytes).unwrap_or(u32::MAX);
                let budget = DecodeBudget::unlimited().with_max_chunk(limit);
                threads::decode(&raw, self.chunk_nbytes, threads, &budget)
                    .map_err(|e| chunk.error(e))?
            }
        };
        if bytes.len() != self.chunk_nbytes {
            return Err(ArrayError::layout(std::format!(
                "chunk {n} decodes to {} bytes, not the chunk's {}",
                bytes.len(),
                self.chunk_nbytes
            )));
        }
        Ok(bytes)
    }

    /// The chunks of the array resized to `shape`: chunks inside what is kept stay as
    /// they are; a chunk the resize cuts or grows into has every cell outside the kept
    /// region zeroed; new chunks are zeros. The new grid.
    pub(super) fn resize(&mut self, shape: &[u64]) -> Result<Grid, ArrayError> {
        let old = &self.grid.clone();
        if shape.len() != old.ndim() {
            return Err(ArrayError::layout(std::format!(
                "a new shape of {} dimension(s) for an array of {}",
                shape.len(),
                old.ndim()
            )));
        }
        let new = Grid::new(shape, &old.chunkshape, &old.blockshape)?;
        let keep: Vec<u64> = old
            .shape
            .iter()
            .zip(shape)
            .map(|(&a, &b)| a.min(b))
            .collect();
        let kept = Grid::new(&keep, &old.chunkshape, &old.blockshape)?;
        let count: u64 = new.chunks_per_axis.iter().product();
        let mut origin = Vec::with_capacity(count as usize);
        let mut changed = BTreeMap::new();
        let mut cut = BTreeMap::new();
        let mut partial = BTreeMap::new();
        let mut coords = std::vec![0u64; new.ndim()];
        for m in 0..count {
            let mut rest = m;
            for d in (0..new.ndim()).rev() {
                coords[d] = rest % new.chunks_per_axis[d];
                rest /= new.chunks_per_axis[d];
            }
            if coords.iter().zip(&old.chunks_per_axis).any(|(c, n)| c >= n) {
                origin.push(None);
                continue;
            }
            let n = old.chunk_number(&coords);
            let moved = (0..new.ndim()).any(|d| {
                let size = old.chunkshape[d];
                let (start, end) = (coords[d] * size, (coords[d] + 1) * size);
                let (lo, hi) = (keep[d], old.shape[d].max(shape[d]));
                old.shape[d] != shape[d] && start < hi && lo < end
            });
            if !moved {
                origin.push(self.origin.get(n as usize).copied().flatten());
                if let Some(buf) = self.changed.remove(&n) {
                    changed.insert(m, buf);
                }
                if let Some(c) = self.cut.remove(&n) {
                    cut.insert(m, c);
                }
                if let Some(p) = self.partial.remove(&n) {
                    partial.insert(m, p);
                }
                continue;
            }
            let inside = coords.iter().zip(&kept.chunks_per_axis).all(|(c, k)| c < k);
            let this = Cut {
                origin: 0,
                kept: inside.then(|| kept.clone()),
                coords: coords.clone(),
            };
            origin.push(None);
            let old_origin = self.origin.get(n as usize).copied().flatten();
            match (
                self.changed.contains_key(&n)
                    || self.cut.contains_key(&n)
                    || self.partial.contains_key(&n),
                old_origin,
            ) {
                // Changed in this commit already: cut what it holds now.
                (true, _) => {
                    let before = match self.changed.remove(&n) {
                        Some(buf) => buf,
                        None => self.decoded(n)?,
                    };
                    changed.insert(m, this.apply(&before, self.itemsize));
                }
                (false, Some(o)) => {
                    cut.insert(m, Cut { origin: o, ..this });
                }
                // Zeros before, zeros after.
                (false, None) => {}
            }
        }
        self.origin = origin;
        self.changed = changed;
        self.cut = cut;
        self.partial = partial;
        self.grid = new.clone();
        Ok(new)
    }

    /// Stores the changed chunks (the composed ones made from `values`) in their order,
    /// and puts the new frame in place (its array metalayer given `grid`'s shape
    /// when `reshaped`).
    pub(super) fn commit(
        mut self,
        grid: &Grid,
        reshaped: bool,
        values: Option<&Broadcast<'_>>,
    ) -> Result<(), ArrayError> {
        let origins = core::mem::take(&mut self.origin);
        // A chunk is in one of the maps; were it in several, the later one wins.
        let mut jobs: BTreeMap<u64, Job> = BTreeMap::new();
        jobs.extend(
            core::mem::take(&mut self.changed)
                .into_iter()
                .map(|(n, b)| (n, Job::Changed(b))),
        );
        jobs.extend(
            core::mem::take(&mut self.cut)
                .into_iter()
                .map(|(n, c)| (n, Job::Cut(c))),
        );
        jobs.extend(
            core::mem::take(&mut self.partial)
                .into_iter()
                .map(|(n, p)| (n, Job::Partial(p))),
        );
        jobs.extend(
            core::mem::take(&mut self.composed)
                .into_iter()
                .map(|(n, c)| (n, Job::Composed(c))),
        );
        // Made one at a time on all the array's threads and stored at once, so what is
        // held is one chunk. (Made at once, each on a thread of its own, a box across
        // chunks of one block each took longer: a new thread starts without the codec's
        // kept tables.)
        let threads = self.threads.max(1);
        let mut made: BTreeMap<u64, ChunkLocation> = BTreeMap::new();
        for (n, job) in jobs {
            let location = match self.make(job, values, threads)? {
                Made::Stored(bytes) => self.edit.put(&bytes)?,
                Made::Zero => ChunkLocation::Special(Special::Zero),
            };
            made.insert(n, location);
        }
        let mut locations = Vec::with_capacity(origins.len());
        for (m, origin) in origins.iter().enumerate() {
            let location = match (made.remove(&(m as u64)), origin) {
                (Some(location), _) => location,
                (None, Some(n)) => self.edit.chunks.location(*n)?,
                (None, None) => ChunkLocation::Special(Special::Zero),
            };
            locations.push(location);
        }
        let nbytes = (locations.len() as i64).saturating_mul(self.chunk_nbytes as i64);
        let metalayer = match reshaped {
            true => {
                let (name, _, bytes) = resized(&self.edit.header, &grid.shape)?;
                Some((name, bytes))
            }
            false => None,
        };
        let metalayer = metalayer.as_ref().map(|(n, b)| (n.as_str(), b.as_slice()));
        self.edit.commit(&locations, nbytes, metalayer)?;
        Ok(())
    }
}
