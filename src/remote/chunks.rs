//! Caterva2's chunk API, for a dataset whose `/api/fetch` serves no byte ranges:
//! [`Remote::refuses_ranges`], [`Remote::caterva2`] (`/api/info`, `/api/chunk`), and
//! [`Caterva2Chunks`], the dataset's chunks as the objects of a sparse frame
//! (`%08X.chunk`), each fetched whole from `/api/chunk/PATH?nchunk=N` when opened.

use std::collections::VecDeque;
use std::format;
use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::vec::Vec;

use super::http::Endpoint;
use super::{invalid, Remote};
use crate::frame::chunk_file_number;
use crate::io::{read_only, Listed, SharedSource, Storage};

/// The chunks of the dataset `remote`'s `/api/fetch/ROOT/PATH` URL names, read from
/// `/api/chunk/ROOT/PATH?nchunk=N`: object `0000001A.chunk` is chunk 26. Each chunk is
/// fetched once (threads that open it meanwhile wait for it) and kept, the oldest
/// dropped past [`RemoteOptions::keep`](super::RemoteOptions::keep) bytes.
#[derive(Debug)]
pub(crate) struct Caterva2Chunks {
    remote: Arc<Remote>,
    kept: Mutex<Kept>,
}

/// One chunk's slot: empty until its fetch ends.
type Slot = Arc<Mutex<Option<Arc<Vec<u8>>>>>;

/// The chunks fetched or being fetched, oldest first, and their bytes.
#[derive(Debug, Default)]
struct Kept {
    slots: VecDeque<(u64, Slot)>,
    bytes: u64,
}

impl Remote {
    /// Whether the server answered the open that it serves no byte ranges of this URL
    /// (a 416 with `Accept-Ranges: none`, as Caterva2 answers for a dataset it
    /// computes or holds inside a container; [`Array::open`](crate::array::Array::open)
    /// then reads a Caterva2 dataset chunk by chunk, `/api/info` and `/api/chunk`).
    ///
    /// ```
    /// let remote = b2nd_meta::remote::Remote::new("http://127.0.0.1:9/a.b2nd");
    /// assert!(!remote.refuses_ranges());
    /// ```
    pub fn refuses_ranges(&self) -> bool {
        self.state.lock().is_ok_and(|state| state.refused)
    }

    /// The whole answer of Caterva2's `/api/API/PATH?QUERY` for this `/api/fetch/PATH`
    /// URL (`api`: `info`, `chunk`), through the session of the open, at most
    /// [`RemoteOptions::max_whole`] bytes.
    pub(crate) fn caterva2(&self, api: &str, query: &str) -> io::Result<Vec<u8>> {
        let (base, path) = self
            .url
            .split_once("/api/fetch/")
            .ok_or_else(|| invalid("expected a Caterva2 URL (/api/fetch/ROOT/PATH)"))?;
        let (agent, endpoint) = {
            let mut state = self
                .state
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?;
            self.session(&mut state)?
        };
        let Endpoint::Http { cookie, .. } = endpoint else {
            return Err(invalid("expected a Caterva2 URL (/api/fetch/ROOT/PATH)"));
        };
        let url = format!("{base}/api/{api}/{path}{query}");
        let endpoint = Endpoint::Http { url, cookie };
        self.get(&agent, &endpoint, "").map(|answer| answer.bytes)
    }
}

impl Caterva2Chunks {
    pub(crate) fn new(remote: Arc<Remote>) -> Caterva2Chunks {
        Caterva2Chunks {
            remote,
            kept: Mutex::new(Kept::default()),
        }
    }

    /// Chunk `n`, fetched unless kept.
    fn chunk(&self, n: u64) -> io::Result<SharedSource> {
        let poisoned = || io::Error::other("poisoned");
        let slot = {
            let mut kept = self.kept.lock().map_err(|_| poisoned())?;
            match kept.slots.iter().find(|(m, _)| *m == n) {
                Some((_, slot)) => Arc::clone(slot),
                None => {
                    let slot = Slot::default();
                    kept.slots.push_back((n, Arc::clone(&slot)));
                    slot
                }
            }
        };
        // Only the threads that want this chunk wait here.
        let mut held = slot.lock().map_err(|_| poisoned())?;
        if let Some(chunk) = &*held {
            return Ok(Arc::clone(chunk) as SharedSource);
        }
        let chunk = self.remote.caterva2("chunk", &format!("?nchunk={n}"));
        let mut kept = self.kept.lock().map_err(|_| poisoned())?;
        let chunk = match chunk {
            Ok(chunk) => Arc::new(chunk),
            Err(e) => {
                kept.slots.retain(|(m, _)| *m != n);
                return Err(e);
            }
        };
        kept.bytes += chunk.len() as u64;
        *held = Some(Arc::clone(&chunk));
        drop(held);
        let cap = self.remote.options().keep;
        while kept.bytes > cap && kept.slots.len() > 1 {
            let Some((_, old)) = kept.slots.pop_front() else {
                break;
            };
            let size = old.lock().ok().and_then(|c| c.as_ref().map(|c| c.len()));
            kept.bytes = kept.bytes.saturating_sub(size.unwrap_or(0) as u64);
        }
        Ok(chunk as SharedSource)
    }
}

impl Storage for Caterva2Chunks {
    fn label(&self, key: &str) -> PathBuf {
        match chunk_file_number(key) {
            Some(n) => PathBuf::from(format!("{} (/api/chunk nchunk={n})", self.remote.url())),
            None => PathBuf::from(format!("{}#{key}", self.remote.url())),
        }
    }

    fn open(&self, key: &str) -> io::Result<SharedSource> {
        let n = chunk_file_number(key).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("expected a chunk file name (%08X.chunk), found {key:?}"),
            )
        })?;
        self.chunk(n)
    }

    fn list(&self, _dir: &str) -> io::Result<Vec<Listed>> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "a Caterva2 dataset's chunks are not listed",
        ))
    }

    fn put(&self, _key: &str, _bytes: &[u8]) -> io::Result<()> {
        Err(read_only())
    }

    fn create(&self, _key: &str, _bytes: &[u8]) -> io::Result<()> {
        Err(read_only())
    }

    fn remove(&self, _key: &str) -> io::Result<()> {
        Err(read_only())
    }
}
