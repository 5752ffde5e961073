//! A stored chunk a write changes in a few of its blocks: only the blocks written are
//! decoded, and at the commit only they are compressed again, the others' stored
//! streams copied as they are (a box in a 64 MiB chunk costs its blocks, not the chunk).

use std::vec::Vec;

use crate::chunk::{self, ChunkError, ChunkHeader, Fate, Spliced};

/// A stored chunk being written a block at a time.
pub(super) struct Partial {
    /// The old chunk's number.
    pub(super) origin: u64,
    /// The old chunk as stored.
    raw: Vec<u8>,
    /// The chunk's bytes: the blocks `decoded` says hold its values, the others zeros.
    buf: Vec<u8>,
    decoded: Vec<bool>,
    /// The blocks written.
    dirty: Vec<bool>,
    block_bytes: usize,
}

impl Partial {
    /// Old chunk `origin`, stored as `raw`, of `nbytes` in blocks of `block_bytes`, when
    /// its header says so; none otherwise (the caller decodes it whole).
    pub(super) fn new(
        origin: u64,
        raw: Vec<u8>,
        nbytes: usize,
        block_bytes: usize,
    ) -> Option<Partial> {
        let header = ChunkHeader::parse(&raw).ok()?;
        let fits = header.nbytes as usize == nbytes
            && header.blocksize as usize == block_bytes
            && header.special().is_none()
            && !header.vl_blocks();
        if !fits || block_bytes == 0 {
            return None;
        }
        let nblocks = nbytes.div_ceil(block_bytes);
        Some(Partial {
            origin,
            raw,
            buf: std::vec![0u8; nbytes],
            decoded: std::vec![false; nblocks],
            dirty: std::vec![false; nblocks],
            block_bytes,
        })
    }

    /// The blocks `mask` picks decoded and marked written (the error with the old
    /// chunk's number).
    pub(super) fn touch(&mut self, mask: &[bool]) -> Result<(), (u64, ChunkError)> {
        let want: Vec<bool> = (0..self.decoded.len())
            .map(|j| mask.get(j).copied().unwrap_or(false) && !self.decoded[j])
            .collect();
        self.decode(&want).map_err(|e| (self.origin, e))?;
        for (d, &m) in self.dirty.iter_mut().zip(mask) {
            *d |= m;
        }
        Ok(())
    }

    /// The chunk's bytes (the blocks touched hold its values), to be written.
    pub(super) fn buf_mut(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// The whole chunk's bytes, every block decoded.
    pub(super) fn complete(mut self) -> Result<Vec<u8>, ChunkError> {
        let want: Vec<bool> = self.decoded.iter().map(|d| !d).collect();
        self.decode(&want)?;
        Ok(self.buf)
    }

    /// The new chunk: the blocks written compressed with `params`, the others' streams
    /// copied ([`Spliced::Whole`] where that cannot be done).
    pub(super) fn splice(&self, params: &chunk::CParams) -> Result<Spliced, ChunkError> {
        let fate = |j: usize| match self.dirty.get(j) {
            Some(true) => Fate::Put,
            _ => Fate::Keep,
        };
        let put = |j: usize, block: &mut [u8]| {
            let start = j * self.block_bytes;
            if let Some(bytes) = self.buf.get(start..start + block.len()) {
                block.copy_from_slice(bytes);
            }
        };
        chunk::splice(&self.raw, params, fate, put)
    }

    fn decode(&mut self, want: &[bool]) -> Result<(), ChunkError> {
        if want.iter().any(|&w| w) {
            chunk::decode_range_into(
                &self.raw,
                ..,
                |j| want.get(j).copied().unwrap_or(false),
                &mut self.buf,
            )?;
            for (d, &w) in self.decoded.iter_mut().zip(want) {
                *d |= w;
            }
        }
        Ok(())
    }
}
