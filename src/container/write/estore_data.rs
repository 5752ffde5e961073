//! An EmbedStore's new data being written (`estore.rs`): full chunks copied as they
//! are, new bytes gathered into chunks of the store's `chunksize` and compressed with
//! its parameters, then the offsets chunk, the trailer and the header.

use std::format;
use std::fs::File;
use std::vec::Vec;

use super::files::refused;
use crate::chunk::{self, CParams};
use crate::container::ContainerError;
use crate::frame::build::{offsets_chunk, NewHeader, Sizes};
use crate::frame::{ChunkLocation, FrameError};
use crate::io::Steps;

fn frame_err(e: FrameError) -> ContainerError {
    ContainerError::frame(e, 0)
}

/// The new frame's data being written: chunks at `base + pos`, their locations, and
/// the bytes not yet a full chunk.
pub(super) struct Data<'a> {
    out: &'a File,
    base: u64,
    steps: &'a Steps,
    /// Where the next chunk goes, from the frame's start.
    pos: u64,
    pub(super) locations: Vec<ChunkLocation>,
    params: CParams,
    buf: Vec<u8>,
    chunksize: usize,
    /// Bytes of data so far (the chunks', and `buf`'s).
    pub(super) nbytes: u64,
}

impl<'a> Data<'a> {
    /// Data written into `out` from `base + header_len`.
    pub(super) fn new(
        out: &'a File,
        base: u64,
        steps: &'a Steps,
        header_len: u64,
        params: CParams,
        chunksize: usize,
    ) -> Data<'a> {
        Data {
            out,
            base,
            steps,
            pos: header_len,
            locations: Vec::new(),
            params,
            buf: Vec::new(),
            chunksize,
            nbytes: 0,
        }
    }

    fn io(e: std::io::Error) -> ContainerError {
        ContainerError::io(e)
    }

    /// A stored chunk, as it is.
    pub(super) fn stored(&mut self, raw: &[u8]) -> Result<(), ContainerError> {
        self.steps
            .write(self.out, raw, self.base + self.pos)
            .map_err(Data::io)?;
        self.locations.push(ChunkLocation::Offset(self.pos));
        self.pos += raw.len() as u64;
        self.nbytes += self.chunksize as u64;
        Ok(())
    }

    /// Bytes of data: every full chunk compressed and written.
    pub(super) fn push(&mut self, mut bytes: &[u8]) -> Result<(), ContainerError> {
        while !bytes.is_empty() {
            let n = (self.chunksize - self.buf.len()).min(bytes.len());
            self.buf.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            self.nbytes += n as u64;
            if self.buf.len() == self.chunksize {
                self.compress()?;
            }
        }
        Ok(())
    }

    fn compress(&mut self) -> Result<(), ContainerError> {
        let chunk = chunk::compress(&self.buf, &self.params).map_err(|e| {
            refused(format!(
                "the EmbedStore's data is not compressed here with its own parameters: {e}"
            ))
        })?;
        self.steps
            .write(self.out, &chunk, self.base + self.pos)
            .map_err(Data::io)?;
        self.locations.push(ChunkLocation::Offset(self.pos));
        self.pos += chunk.len() as u64;
        self.buf.clear();
        Ok(())
    }

    /// The last, partial chunk.
    pub(super) fn flush(&mut self) -> Result<(), ContainerError> {
        match self.buf.is_empty() {
            true => Ok(()),
            false => self.compress(),
        }
    }

    /// The offsets chunk, the trailer, then the header with the sizes; the length.
    pub(super) fn finish(
        self,
        header: &NewHeader,
        header_len: u64,
        trailer: &(Vec<u8>, bool),
    ) -> Result<u64, ContainerError> {
        // C writes no offsets chunk for a frame without chunks.
        let index = match self.locations.is_empty() {
            true => Vec::new(),
            false => offsets_chunk(&self.locations, header_len).map_err(frame_err)?,
        };
        let trailer_at = self.pos + index.len() as u64;
        let sizes = Sizes {
            nbytes: self.nbytes as i64,
            cbytes: (self.pos - header_len) as i64,
            frame_len: trailer_at + trailer.0.len() as u64,
            has_vlmeta: trailer.1,
        };
        let header_bytes = header.to_bytes(&sizes).map_err(frame_err)?;
        let at = |x: u64| self.base + x;
        self.steps
            .write(self.out, &index, at(self.pos))
            .and_then(|()| self.steps.write(self.out, &trailer.0, at(trailer_at)))
            .and_then(|()| self.steps.write(self.out, &header_bytes, at(0)))
            .map_err(Data::io)?;
        Ok(sizes.frame_len)
    }
}
