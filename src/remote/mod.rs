//! Arrays and stores over the network (the `remote` feature): [`Remote`], a
//! [`crate::io::ReadAt`] over HTTP(S) range requests, S3 (`s3://bucket/key`), Azure
//! Blob Storage (`az://container/blob`) and Caterva2 (`http://host/api/fetch/ROOT/PATH`;
//! by `/api/chunk` where it serves no ranges), so that whatever reads a file
//! reads a URL: [`Source::url`](crate::frame::Source::url) hands one to
//! [`Array::open`](crate::array::Array::open), [`container::open`](crate::container::open)
//! and [`frame::open`](crate::frame::open).
//!
//! Few requests, no more bytes than needed: the first read fetches the file's head,
//! which also gives its size (`Content-Range`: no HEAD, which Caterva2 refuses), and
//! then its tail (a frame's index and trailer exactly, where its header places them;
//! a zip's directory), each once; later reads fetch the byte ranges asked (the ranges
//! a reader hints, [`ReadAt::will_read`], in one request: a run of blocks, chunks read
//! whole) and keep them within a bound. The
//! first answer's ETag (or Last-Modified) is pinned: a file that changes between two
//! requests is an error, never mixed bytes. A server that ignores `Range` (a 200 with
//! the whole file) is read once, up to [`RemoteOptions::max_whole`] bytes.
//!
//! ```no_run
//! use b2nd_meta::array::Array;
//! use b2nd_meta::frame::Source;
//!
//! let array = Array::open(Source::url("https://example.com/data/a.b2nd"))?;
//! let corner: Vec<f32> = array.read(&"0:3, 0:5".parse()?)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod azure;
mod cache;
mod chunks;
mod gcs;
mod http;
mod plan;
mod s3;

use std::format;
use std::io;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;
use std::vec::Vec;

use crate::io::ReadAt;
use cache::Segments;
use http::{Answer, Endpoint};
use plan::State;

pub(crate) use chunks::Caterva2Chunks;

/// How a [`Remote`] talks to its server: bounds on time, retries and memory.
///
/// ```
/// use b2nd_meta::remote::RemoteOptions;
/// use std::time::Duration;
///
/// let options = RemoteOptions { timeout: Duration::from_secs(5), retries: 1, ..RemoteOptions::default() };
/// assert_eq!(options.prefetch, RemoteOptions::default().prefetch);
/// ```
#[derive(Debug, Clone)]
pub struct RemoteOptions {
    /// The longest one request may take, connection to last byte (30 s).
    pub timeout: Duration,
    /// How many times a request that failed to connect, timed out or got a 5xx is
    /// tried again (2), waiting `backoff`, then twice that, and so on.
    pub retries: u32,
    /// The first wait before a retry (200 ms).
    pub backoff: Duration,
    /// Bytes fetched at the head of the file on its first read (8 KiB, as
    /// python-blosc2's first read: a frame's header), and at its tail when it is not a
    /// frame (a zip's directory; a frame's index and trailer are fetched exactly).
    pub prefetch: u64,
    /// The least a fetch asks for (0: the bytes a read asks, as python-blosc2 reads;
    /// more makes a chunk's header, its block offsets and its first blocks one
    /// request, at the cost of bytes not needed where the blocks read are elsewhere).
    pub read_ahead: u64,
    /// The fetched bytes kept besides the head and the tail (8 MiB), and the most one
    /// fetch of hinted bytes holds.
    pub keep: u64,
    /// The most bytes read from a server that ignores `Range` and sends the whole
    /// file (128 MiB, the default decode budget's size): past it, an error.
    pub max_whole: u64,
    /// A Caterva2 user and password (logged in once, the cookie kept for the
    /// requests that follow; used for URLs with `/api/` only); by default
    /// `CATERVA2_USER` and `CATERVA2_PASSWORD`.
    pub login: Option<(String, String)>,
}

impl Default for RemoteOptions {
    fn default() -> Self {
        let login = match (
            std::env::var("CATERVA2_USER"),
            std::env::var("CATERVA2_PASSWORD"),
        ) {
            (Ok(user), Ok(password)) if !user.is_empty() => Some((user, password)),
            _ => None,
        };
        RemoteOptions {
            timeout: Duration::from_secs(30),
            retries: 2,
            backoff: Duration::from_millis(200),
            prefetch: 8 << 10,
            read_ahead: 0,
            keep: 8 << 20,
            max_whole: crate::chunk::DecodeBudget::DEFAULT,
            login,
        }
    }
}

/// What a [`Remote`] has cost so far: requests answered (or failed) and bytes received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RemoteStats {
    /// GET requests sent (retries included).
    pub requests: u64,
    /// Body bytes received.
    pub bytes: u64,
}

/// A file on a server, read by range requests: `http://`, `https://` (a Caterva2
/// server's `/api/fetch/ROOT/PATH` among them), `s3://bucket/key` or
/// `az://container/blob`, `gs://bucket/object` (endpoint and credentials from the
/// `AWS_*`, `AZURE_STORAGE_*` and Google's variables, see [`Remote::new`]). Nothing is sent
/// before the first read; clones of an `Arc<Remote>` share what it fetched. An open
/// that failed is not tried again: later reads give its error (a new `Remote` tries).
///
/// ```
/// use b2nd_meta::io::ReadAt;
/// use b2nd_meta::remote::Remote;
///
/// // Nothing listens on port 9 of 127.0.0.1: the error names the URL's problem.
/// let remote = Remote::new("http://127.0.0.1:9/a.b2nd");
/// assert_eq!(remote.url(), "http://127.0.0.1:9/a.b2nd");
/// assert!(remote.size().is_err());
/// assert!(Remote::new("ftp://host/a.b2nd").size().unwrap_err().to_string().contains("http://"));
/// ```
pub struct Remote {
    url: String,
    label: PathBuf,
    options: RemoteOptions,
    state: Mutex<State>,
    /// Told when a fetch ends: the threads waiting for its bytes look again.
    fetched: Condvar,
    requests: AtomicU64,
    bytes: AtomicU64,
}

struct Opened {
    agent: ureq::Agent,
    endpoint: Endpoint,
    size: u64,
    version: Option<String>,
    /// The whole file, when the server ignores `Range`.
    whole: Option<Vec<u8>>,
}

impl core::fmt::Debug for Remote {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Remote")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// Whether `s` names a file [`Remote`] reads (`http://`, `https://`, `s3://`, `az://`,
/// `gs://`).
///
/// ```
/// assert!(b2nd_meta::remote::is_url("s3://bucket/a.b2nd"));
/// assert!(!b2nd_meta::remote::is_url("data/a.b2nd"));
/// ```
pub fn is_url(s: &str) -> bool {
    ["http://", "https://", "s3://", "az://", "gs://"]
        .iter()
        .any(|p| s.starts_with(p))
}

impl Remote {
    /// The file at `url` with [`RemoteOptions::default`]. For `s3://bucket/key`:
    /// `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (an S3-compatible server, path-style
    /// requests), else AWS in `AWS_REGION` (or `AWS_DEFAULT_REGION`, us-east-1);
    /// signed with `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` (and
    /// `AWS_SESSION_TOKEN`) when set, unsigned otherwise. For `az://container/blob`:
    /// `AZURE_STORAGE_ENDPOINT`, else `https://ACCOUNT.blob.core.windows.net` for
    /// `AZURE_STORAGE_ACCOUNT`; signed with Shared Key by `AZURE_STORAGE_KEY` when set.
    /// For `gs://bucket/object`: `STORAGE_EMULATOR_HOST`, else Google's endpoint, with
    /// `GOOGLE_OAUTH_ACCESS_TOKEN` (or `CLOUDSDK_AUTH_ACCESS_TOKEN`) as a bearer token
    /// when set.
    pub fn new(url: &str) -> Remote {
        Remote::with_options(url, RemoteOptions::default())
    }

    /// The file at `url`, talked to as `options` say.
    pub fn with_options(url: &str, options: RemoteOptions) -> Remote {
        Remote {
            url: url.to_string(),
            label: PathBuf::from(url),
            options,
            state: Mutex::new(State {
                opened: None,
                held: Segments::new(0),
                coming: Vec::new(),
                in_flight: Vec::new(),
                failed: None,
                refused: false,
                session: None,
            }),
            fetched: Condvar::new(),
            requests: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
        }
    }
}

impl Remote {
    /// The URL as given.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The URL as a path: what errors name the file by.
    pub fn label(&self) -> &Path {
        &self.label
    }

    /// How it talks to its server.
    pub(crate) fn options(&self) -> &RemoteOptions {
        &self.options
    }

    /// The requests sent and bytes received so far.
    pub fn stats(&self) -> RemoteStats {
        RemoteStats {
            requests: self.requests.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
        }
    }

    /// The state, the file opened (its head and tail fetched) on the first call.
    fn state(&self) -> io::Result<std::sync::MutexGuard<'_, State>> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| io::Error::other("poisoned"))?;
        if let Some((kind, message)) = &state.failed {
            return Err(io::Error::new(*kind, message.clone()));
        }
        if state.opened.is_none() {
            // An open that failed is not tried again: each later read gives its error
            // (a command that opens a URL twice sends its retries once).
            let opened = self
                .session(&mut state)
                .and_then(|(agent, endpoint)| self.open(agent, endpoint));
            let (opened, held) = opened.inspect_err(|e| {
                state.failed = Some((e.kind(), e.to_string()));
                state.refused = http::refused(e);
            })?;
            state.opened = Some(opened);
            state.held = held;
        }
        Ok(state)
    }

    /// The agent and the endpoint (logged in, for Caterva2) requests go through, made
    /// once and kept, an open that failed too.
    fn session(&self, state: &mut State) -> io::Result<(ureq::Agent, Endpoint)> {
        if let Some(session) = &state.session {
            return Ok(session.clone());
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(self.options.timeout))
            .http_status_as_error(false)
            .build()
            .into();
        let endpoint = self.endpoint(&agent)?;
        state.session = Some((agent.clone(), endpoint.clone()));
        Ok((agent, endpoint))
    }

    fn endpoint(&self, agent: &ureq::Agent) -> io::Result<Endpoint> {
        if let Some(bucket_key) = self.url.strip_prefix("s3://") {
            let object = s3::object(bucket_key).map_err(|e| invalid(&e))?;
            return Ok(Endpoint::S3(object));
        }
        if let Some(container_blob) = self.url.strip_prefix("az://") {
            let blob = azure::blob(container_blob).map_err(|e| invalid(&e))?;
            return Ok(Endpoint::Azure(blob));
        }
        if let Some(bucket_object) = self.url.strip_prefix("gs://") {
            let object = gcs::object(bucket_object).map_err(|e| invalid(&e))?;
            return Ok(Endpoint::Gcs(object));
        }
        if !is_url(&self.url) {
            return Err(invalid(
                "expected a URL starting http://, https://, s3://, az:// or gs://",
            ));
        }
        // Only a Caterva2 URL logs in: other servers have no such endpoint.
        let cookie = match &self.options.login {
            Some((user, password)) if self.url.contains("/api/") => {
                Some(http::caterva2_login(agent, &self.url, user, password)?)
            }
            _ => None,
        };
        Ok(Endpoint::Http {
            url: self.url.clone(),
            cookie,
        })
    }

    /// One GET, counted.
    fn get(&self, agent: &ureq::Agent, endpoint: &Endpoint, range: &str) -> io::Result<Answer> {
        let counter = &self.requests;
        let answer = http::get(
            agent,
            endpoint,
            range,
            self.options.max_whole,
            &self.options,
            counter,
        )?;
        self.bytes
            .fetch_add(answer.bytes.len() as u64, Ordering::Relaxed);
        Ok(answer)
    }
}

impl Opened {
    /// That `answer` is of the version first read and starts at `start`.
    fn check(&self, answer: &Answer, start: u64) -> io::Result<()> {
        if let (Some(first), Some(now)) = (&self.version, &answer.version)
            && first != now
        {
            return Err(changed(&format!("{first} then {now}")));
        }
        if answer.size != self.size {
            return Err(changed(&format!(
                "{} bytes then {}",
                self.size, answer.size
            )));
        }
        if !answer.whole && answer.start != start {
            return Err(io::Error::other(format!(
                "asked for bytes from {start}, the server sent them from {}",
                answer.start
            )));
        }
        Ok(())
    }
}

fn changed(how: &str) -> io::Error {
    io::Error::other(format!("the file changed while it was read ({how})"))
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, what.to_string())
}

impl ReadAt for Remote {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let mut state = self.state()?;
        let (size, agent, endpoint) = loop {
            let opened = state
                .opened
                .as_ref()
                .ok_or_else(|| io::Error::other("not opened"))?;
            if let Some(whole) = &opened.whole {
                return whole.as_slice().read_at(buf, offset);
            }
            if offset >= opened.size || buf.is_empty() {
                return Ok(0);
            }
            if let Some(n) = state.held.serve(buf, offset) {
                return Ok(n);
            }
            // Another thread is fetching these bytes: wait for them, not fetch twice.
            if !state
                .in_flight
                .iter()
                .any(|(s, e)| *s <= offset && offset < *e)
            {
                break (opened.size, opened.agent.clone(), opened.endpoint.clone());
            }
            state = self
                .fetched
                .wait(state)
                .map_err(|_| io::Error::other("poisoned"))?;
        };
        let (start, end) = state.fetch_range(offset, buf.len() as u64, &self.options, size);
        state.in_flight.push((start, end));
        // Unlocked while the request is out: other threads read what is held, or fetch.
        drop(state);
        let answer = self.get(&agent, &endpoint, &format!("bytes={start}-{}", end - 1));
        let mut state = self.state()?;
        state.in_flight.retain(|range| *range != (start, end));
        self.fetched.notify_all();
        let answer = answer?;
        let opened = state
            .opened
            .as_mut()
            .ok_or_else(|| io::Error::other("not opened"))?;
        opened.check(&answer, start)?;
        if answer.whole {
            opened.whole = Some(answer.bytes);
            drop(state);
            return self.read_at(buf, offset);
        }
        let bytes = answer.bytes;
        let from = bytes
            .get(usize::try_from(offset - start).unwrap_or(usize::MAX)..)
            .unwrap_or_default();
        let n = from.len().min(buf.len());
        buf.get_mut(..n)
            .zip(from.get(..n))
            .ok_or_else(|| io::Error::other("short answer"))
            .map(|(dst, src)| dst.copy_from_slice(src))?;
        state.held.insert(start, bytes, false);
        Ok(n)
    }

    fn size(&self) -> io::Result<u64> {
        let state = self.state()?;
        Ok(state.opened.as_ref().map_or(0, |o| o.size))
    }

    fn will_read(&self, offset: u64, len: u64) {
        // Before the open nothing is fetched; a poisoned lock drops the hint.
        if let Ok(mut state) = self.state.lock() {
            state.hint(offset, offset.saturating_add(len));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_a_url() {
        for (s, url) in [
            ("http://h/a.b2nd", true),
            ("https://h/a.b2z", true),
            ("s3://b/k", true),
            ("az://c/b", true),
            ("gs://b/o", true),
            ("/data/a.b2nd", false),
            ("file:///a", false),
        ] {
            assert_eq!(is_url(s), url, "{s}");
        }
        let _ = Vec::<u8>::new();
    }
}
