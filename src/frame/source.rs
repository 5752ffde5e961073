//! Where a call reads or edits, and how: [`Source`] (a path or bytes, with the decode
//! budget and the locking of the call) for every reader, [`Target`] (a path with its
//! locking, or a frame held in memory) for every in-place edit. One call over either
//! replaces the path and slice twins.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::vec::Vec;

use super::lock::Locking;
use crate::chunk::DecodeBudget;
use crate::io::SharedSource;

/// What a reader opens and how: a path (a frame's file, a sparse frame's directory, a
/// store or bundle) or bytes held in memory; the decode budget everything read from
/// it is spent from (a store's chunks, vlmeta values, an offsets index); the lock
/// protocol to follow ([`Locking::AUTO`] unless told).
///
/// Anything that is a path converts into one, so `open("a.b2nd")` reads as before.
///
/// ```
/// use b2nd_meta::chunk::DecodeBudget;
/// use b2nd_meta::frame::{Locking, Source};
/// use std::time::Duration;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let frame = b2nd_meta::frame::open(path)?;
/// let same = b2nd_meta::frame::open(Source::bytes(std::fs::read(path).unwrap()))?;
/// assert_eq!(frame.header.info, same.header.info);
///
/// // A command's budget and lock timeout, as the command line's --budget and
/// // --lock-timeout give them.
/// let careful = Source::path(path)
///     .budget(DecodeBudget::new(1 << 20))
///     .locking(Locking::AUTO.timeout(Duration::from_secs(2)));
/// let store = b2nd_meta::container::open(careful).unwrap();
/// assert_eq!(store.kind.name(), "NDArray");
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
#[derive(Debug, Clone)]
pub struct Source {
    pub(crate) place: Place,
    pub(crate) budget: Option<DecodeBudget>,
    pub(crate) locking: Locking,
}

/// Where a [`Source`] is.
#[derive(Clone)]
pub(crate) enum Place {
    Path(PathBuf),
    Bytes(Arc<Vec<u8>>),
    /// A file on a server, read by range requests.
    #[cfg(feature = "remote")]
    Remote(Arc<crate::remote::Remote>),
}

impl core::fmt::Debug for Place {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Place::Path(p) => f.debug_tuple("Path").field(p).finish(),
            Place::Bytes(b) => write!(f, "Bytes({} bytes)", b.len()),
            #[cfg(feature = "remote")]
            Place::Remote(r) => f.debug_tuple("Remote").field(&r.url()).finish(),
        }
    }
}

/// How a [`Source`] is read: a path, or a source of bytes and what errors name it by.
pub(crate) enum Reach<'a> {
    Path(&'a Path),
    Shared(SharedSource, &'a Path),
}

/// The label of bytes held in memory in errors.
pub(crate) const BYTES_LABEL: &str = "<bytes>";

impl Source {
    /// The file or directory at `path`.
    pub fn path(path: impl AsRef<Path>) -> Source {
        Source {
            place: Place::Path(path.as_ref().to_path_buf()),
            budget: None,
            locking: Locking::AUTO,
        }
    }

    /// A contiguous frame or a zip held in memory (named `<bytes>` in errors).
    pub fn bytes(bytes: impl Into<Vec<u8>>) -> Source {
        Source {
            place: Place::Bytes(Arc::new(bytes.into())),
            budget: None,
            locking: Locking::AUTO,
        }
    }

    /// The file at `url` (`http://`, `https://`, `s3://bucket/key`, `az://container/blob`), read by range
    /// requests ([`Remote`](crate::remote::Remote), default options; named by its URL
    /// in errors). Nothing is sent before the open.
    ///
    /// ```
    /// use b2nd_meta::frame::Source;
    ///
    /// let source = Source::url("http://127.0.0.1:9/a.b2nd");
    /// assert_eq!(source.label(), std::path::Path::new("http://127.0.0.1:9/a.b2nd"));
    /// // Nothing listens there: the open fails, naming the URL.
    /// let err = b2nd_meta::frame::open(source).unwrap_err();
    /// assert!(err.to_string().starts_with("http://127.0.0.1:9/a.b2nd"), "{err}");
    /// ```
    #[cfg(feature = "remote")]
    pub fn url(url: &str) -> Source {
        Source::remote(Arc::new(crate::remote::Remote::new(url)))
    }

    /// The file `remote` reads (keep a clone of the `Arc` to read its
    /// [`stats`](crate::remote::Remote::stats)).
    ///
    /// ```
    /// use b2nd_meta::frame::Source;
    /// use b2nd_meta::remote::{Remote, RemoteOptions};
    /// use std::sync::Arc;
    ///
    /// let options = RemoteOptions { retries: 0, ..RemoteOptions::default() };
    /// let remote = Arc::new(Remote::with_options("http://127.0.0.1:9/a.b2nd", options));
    /// assert!(b2nd_meta::array::Array::open(Source::remote(remote.clone())).is_err());
    /// assert_eq!(remote.stats().requests, 1);
    /// ```
    #[cfg(feature = "remote")]
    pub fn remote(remote: Arc<crate::remote::Remote>) -> Source {
        Source {
            place: Place::Remote(remote),
            budget: None,
            locking: Locking::AUTO,
        }
    }

    /// Everything decoded from it spent from `budget` (shared with its clones); without
    /// one, [`DecodeBudget::default`] for each call that opens it.
    pub fn budget(mut self, budget: DecodeBudget) -> Source {
        self.budget = Some(budget);
        self
    }

    /// The lock protocol to follow (bytes in memory take no lock).
    pub fn locking(mut self, locking: Locking) -> Source {
        self.locking = locking;
        self
    }

    /// The path, when it is one.
    pub fn as_path(&self) -> Option<&Path> {
        match &self.place {
            Place::Path(p) => Some(p),
            _ => None,
        }
    }

    /// What errors name it by: the path, the URL, or `<bytes>`.
    pub fn label(&self) -> &Path {
        match &self.place {
            Place::Path(p) => p,
            #[cfg(feature = "remote")]
            Place::Remote(r) => r.label(),
            Place::Bytes(_) => Path::new(BYTES_LABEL),
        }
    }

    /// Its path, or what a source not on the file system reads from (bytes in memory,
    /// a remote file) and its label.
    pub(crate) fn reach(&self) -> Reach<'_> {
        match &self.place {
            Place::Path(p) => Reach::Path(p),
            Place::Bytes(b) => Reach::Shared(Arc::clone(b) as SharedSource, Path::new(BYTES_LABEL)),
            #[cfg(feature = "remote")]
            Place::Remote(r) => Reach::Shared(Arc::clone(r) as SharedSource, r.label()),
        }
    }

    /// The remote file it reads, when it is one.
    #[cfg(feature = "remote")]
    pub(crate) fn as_remote(&self) -> Option<&Arc<crate::remote::Remote>> {
        match &self.place {
            Place::Remote(r) => Some(r),
            _ => None,
        }
    }

    /// Its budget, or a new default one.
    pub(crate) fn budget_or_default(&self) -> DecodeBudget {
        self.budget.clone().unwrap_or_default()
    }
}

impl<P: AsRef<Path>> From<P> for Source {
    fn from(path: P) -> Source {
        Source::path(path)
    }
}

/// Where an in-place edit happens: the frame at a path (a file, or a sparse frame's
/// directory whose `chunks.b2frame` is rewritten), under the lock protocol as its
/// [`Locking`] says, or a frame held in memory.
///
/// ```
/// use b2nd_meta::frame::{set_shape, Locking, Target};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
/// let mut bytes = std::fs::read(path)?;
/// // (10, 7) in chunks of (4, 4): the same chunk grid as (9, 5).
/// let meta = set_shape(Target::bytes(&mut bytes), &[9, 5])?;
/// assert_eq!(meta.shape(), [9, 5]);
///
/// let copy = std::env::temp_dir().join(format!("b2nd-meta-target-{}.b2nd", std::process::id()));
/// std::fs::write(&copy, &bytes)?;
/// set_shape(Target::path(&copy).locking(Locking::ALWAYS), &[12, 8])?;
/// assert_eq!(b2nd_meta::frame::open(&copy)?.header.array_meta()?.shape(), [12, 8]);
/// # std::fs::remove_file(&copy)?;
/// # std::fs::remove_file(copy.with_extension("b2nd.b2lock"))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub enum Target<'a> {
    /// The frame at a path, locked as said.
    Path {
        /// A contiguous frame's file or a sparse frame's directory.
        path: PathBuf,
        /// The lock protocol to follow.
        locking: Locking,
    },
    /// A frame held in memory, edited where it is.
    Bytes(&'a mut [u8]),
}

impl<'a> Target<'a> {
    /// The frame at `path`, [`Locking::AUTO`].
    pub fn path(path: impl AsRef<Path>) -> Target<'a> {
        Target::Path {
            path: path.as_ref().to_path_buf(),
            locking: Locking::AUTO,
        }
    }

    /// The frame in `bytes`.
    pub fn bytes(bytes: &'a mut [u8]) -> Target<'a> {
        Target::Bytes(bytes)
    }

    /// The lock protocol to follow (no effect on bytes in memory).
    pub fn locking(self, locking: Locking) -> Target<'a> {
        match self {
            Target::Path { path, .. } => Target::Path { path, locking },
            bytes => bytes,
        }
    }
}

impl<P: AsRef<Path>> From<P> for Target<'_> {
    fn from(path: P) -> Self {
        Target::path(path)
    }
}
