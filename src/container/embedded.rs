//! A node embedded in another frame's data (an EmbedStore's), read as a `Read + Seek`.

use std::cell::RefCell;
use std::io::{self, Read, Seek, SeekFrom};

use crate::frame::DataReader;
use crate::io::{seek_in, Window};

/// How many bytes one node may take from its store's special chunks (zeros, NaNs,
/// uninitialised: stored nowhere, so no byte read backs them). A node's header and
/// trailer are msgpack and compressed chunks, which hold no long runs of one value; a
/// header content may hold a run, and is kept up to [`CONTENT_CAP`] bytes: so is this.
/// Beyond it, a node's declared lengths would make memory grow with no byte read.
///
/// [`CONTENT_CAP`]: crate::frame::CONTENT_CAP
pub(crate) const UNSTORED_ALLOWANCE: u64 = crate::frame::CONTENT_CAP as u64;

/// Bytes `[start, start + len)` of another frame's data (an EmbedStore's), as a
/// `Read + Seek` from 0: each read decodes only the chunks it covers, and takes at
/// most `unstored` bytes from special chunks in all.
pub(crate) struct Embedded<'d> {
    pub(crate) data: &'d RefCell<DataReader<Window>>,
    pub(crate) start: u64,
    pub(crate) len: u64,
    pub(crate) pos: u64,
    pub(crate) unstored: u64,
}

impl Read for Embedded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.len.saturating_sub(self.pos);
        let n = (buf.len() as u64).min(left) as usize;
        if n == 0 {
            return Ok(0);
        }
        let bytes = self
            .data
            .borrow_mut()
            .read_range_within(self.start.saturating_add(self.pos), n, &mut self.unstored)
            .map_err(io::Error::other)?;
        let got = bytes.len().min(n);
        if let (Some(dst), Some(src)) = (buf.get_mut(..got), bytes.get(..got)) {
            dst.copy_from_slice(src);
        }
        self.pos += got as u64;
        Ok(got)
    }
}

impl Seek for Embedded<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        seek_in(&mut self.pos, self.len, to)
    }
}
