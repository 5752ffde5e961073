//! A node embedded in another frame's data (an EmbedStore's), read as a [`ReadAt`].

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::frame::DataReader;
use crate::io::{ReadAt, Window};

/// How many bytes one node may take from its store's special chunks (zeros, NaNs,
/// uninitialised: stored nowhere, so no byte read backs them). A node's header and
/// trailer are msgpack and compressed chunks, which hold no long runs of one value; a
/// header content may hold a run, and is kept up to [`CONTENT_CAP`] bytes: so is this.
/// Beyond it, a node's declared lengths would make memory grow with no byte read.
///
/// [`CONTENT_CAP`]: crate::frame::CONTENT_CAP
pub(crate) const UNSTORED_ALLOWANCE: u64 = crate::frame::CONTENT_CAP as u64;

/// The store's data, shared by the nodes read from it.
pub(crate) type StoreData = Arc<Mutex<DataReader<Window>>>;

/// Bytes `[start, start + len)` of another frame's data (an EmbedStore's), read from 0:
/// each read decodes only the chunks it covers, and takes at most
/// [`UNSTORED_ALLOWANCE`] bytes from special chunks in all.
pub(crate) struct Embedded {
    data: StoreData,
    start: u64,
    len: u64,
    unstored: AtomicU64,
}

impl Embedded {
    pub(crate) fn new(data: StoreData, start: u64, len: u64) -> Self {
        Embedded {
            data,
            start,
            len,
            unstored: AtomicU64::new(UNSTORED_ALLOWANCE),
        }
    }
}

impl ReadAt for Embedded {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let left = self.len.saturating_sub(offset);
        let n = usize::try_from(left).map_or(buf.len(), |left| left.min(buf.len()));
        if n == 0 {
            return Ok(0);
        }
        let mut data = self
            .data
            .lock()
            .map_err(|_| io::Error::other("the store's data reader failed before"))?;
        let mut unstored = self.unstored.load(Ordering::Relaxed);
        let bytes = data
            .read_range_within(self.start.saturating_add(offset), n, &mut unstored)
            .map_err(io::Error::other)?;
        self.unstored.store(unstored, Ordering::Relaxed);
        let got = bytes.len().min(n);
        if let (Some(dst), Some(src)) = (buf.get_mut(..got), bytes.get(..got)) {
            dst.copy_from_slice(src);
        }
        Ok(got)
    }

    fn size(&self) -> io::Result<u64> {
        Ok(self.len)
    }
}
