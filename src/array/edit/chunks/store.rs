//! The commit's chunks made: each changed chunk compressed, or spliced from its old
//! one.

use std::vec::Vec;

use super::super::broadcast::Broadcast;
use super::super::composed::Composed;
use super::super::cut::Cut;
use super::super::partial::Partial;
use super::Chunks;
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::chunk::{self, Spliced};
use crate::frame::Chunk;

/// A chunk of the commit to make, and what it is made from.
pub(super) enum Job {
    /// Written in a few blocks of a stored chunk.
    Partial(Partial),
    /// Cut by a resize, not otherwise changed.
    Cut(Cut),
    /// Decoded and changed.
    Changed(Vec<u8>),
    /// The write's values alone.
    Composed(Composed),
}

/// What a job made.
pub(super) enum Made {
    /// A chunk to store.
    Stored(Vec<u8>),
    /// All zeros: C's zero special chunk, not stored.
    Zero,
}

impl Chunks {
    /// One job made on up to `threads` threads.
    pub(super) fn make(
        &self,
        job: Job,
        values: Option<&Broadcast<'_>>,
        threads: usize,
    ) -> Result<Made, ArrayError> {
        match job {
            Job::Partial(partial) => self.make_partial(partial, threads),
            Job::Cut(cut) => self.make_cut(&cut, threads),
            Job::Changed(decoded) => self.make_whole(&decoded, threads),
            Job::Composed(composed) => {
                let values = values.ok_or_else(|| {
                    ArrayError::layout("a chunk is made of values not given".into())
                })?;
                self.make_composed(&composed, values, threads)
            }
        }
    }

    /// A cut chunk: spliced from the old one where its blocks allow, else decoded, cut
    /// and compressed whole.
    fn make_cut(&self, cut: &Cut, threads: usize) -> Result<Made, ArrayError> {
        if let Chunk::Stored(stored) = self.edit.chunks.chunk(cut.origin)? {
            let mut raw = Vec::new();
            stored.read_all(&mut raw)?;
            match cut
                .splice(&raw, &self.cparams, self.itemsize)
                .map_err(|e| stored.error(e))?
            {
                Spliced::Chunk(spliced) => return Ok(Made::Stored(spliced)),
                Spliced::Zeros => return Ok(Made::Zero),
                Spliced::Whole => {}
            }
        }
        let before = self.decode_on(Some(cut.origin), threads)?;
        self.make_whole(&cut.apply(&before, self.itemsize), threads)
    }

    /// A chunk written in a few blocks: spliced from the old one where it can be, else
    /// decoded whole and compressed.
    fn make_partial(&self, partial: Partial, threads: usize) -> Result<Made, ArrayError> {
        let origin = partial.origin;
        match partial.splice(&self.cparams) {
            Ok(Spliced::Chunk(spliced)) => return Ok(Made::Stored(spliced)),
            Ok(Spliced::Zeros) => return Ok(Made::Zero),
            Ok(Spliced::Whole) => {}
            Err(e) => return Err(self.chunk_error(origin, e)),
        }
        let whole = partial
            .complete()
            .map_err(|e| self.chunk_error(origin, e))?;
        self.make_whole(&whole, threads)
    }

    /// A chunk made of the written values: C's special zero chunk when all zeros, else
    /// compressed from the values a block at a time.
    fn make_composed(
        &self,
        composed: &Composed,
        values: &Broadcast<'_>,
        threads: usize,
    ) -> Result<Made, ArrayError> {
        if composed.is_zeros(values)? {
            return Ok(Made::Zero);
        }
        let input = composed.input(values, self.itemsize, self.chunk_nbytes);
        let mut compressed = Vec::new();
        chunk::compress_into(&input, &self.cparams, threads, &mut compressed)?;
        Ok(Made::Stored(compressed))
    }

    /// A changed chunk: C's special zero chunk when all zeros, else compressed.
    fn make_whole(&self, decoded: &[u8], threads: usize) -> Result<Made, ArrayError> {
        if decoded.iter().all(|&b| b == 0) {
            return Ok(Made::Zero);
        }
        let compressed = chunk::compress_threads(decoded, &self.cparams, threads)
            .map_err(|e| ArrayError::new(ArrayErrorKind::Compress(e)))?;
        Ok(Made::Stored(compressed))
    }
}
