//! [`ContainerError`]: why a store, a bundle or one of its nodes cannot be read, and
//! where (the byte offset in the file, the member or the store's data, as each message
//! says).

use std::boxed::Box;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::string::String;

use crate::frame::FrameError;

/// An error reading a container: its kind, the byte offset it concerns when there is
/// one, and the file. Displayed as `"[path: ]message[ at byte N]"`.
///
/// ```
/// use b2nd_meta::container::{self, ContainerErrorKind};
///
/// let err = container::open_bytes(b"neither a frame nor a zip").unwrap_err();
/// assert!(matches!(err.kind(), ContainerErrorKind::Frame(_)));
/// assert_eq!(err.offset(), Some(2));
/// ```
pub struct ContainerError {
    inner: Box<Inner>,
}

struct Inner {
    offset: Option<u64>,
    path: Option<PathBuf>,
    kind: ContainerErrorKind,
}

/// What went wrong; see [`ContainerError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum ContainerErrorKind {
    /// An I/O error.
    Io(io::Error),
    /// A frame (the store's own, or a node's) does not read; its offset is the
    /// frame's own, the error's is where the frame starts plus that.
    Frame(FrameError),
    /// The zip directory does not read, or a member is not where it says.
    Zip {
        /// What is wrong.
        reason: String,
    },
    /// A zip member is compressed: a `.b2z` is read in place, so python-blosc2
    /// refuses a deflated `embed.b2e` and leaves other deflated members out.
    Compressed {
        /// The member.
        member: String,
        /// Its compression method (8: deflate).
        method: u16,
    },
    /// The store's `estore_metadata` vlmetalayer is not what python-blosc2 writes.
    EmbedMap {
        /// What was expected and found.
        reason: String,
    },
    /// The EmbedStore's data (its chunk index) does not read, so no embedded node can.
    EmbedData {
        /// Why.
        reason: String,
    },
    /// A node's bytes lie outside what holds them.
    NodeOutside {
        /// The node.
        key: String,
        /// Where they start.
        offset: u64,
        /// How many.
        length: u64,
        /// How many bytes the holder has.
        available: u64,
    },
    /// A node listed with why it cannot be read: an embed map entry that is not what
    /// python-blosc2 writes, a zip member whose local header does not read.
    Unreadable {
        /// The node.
        key: String,
        /// Why.
        reason: String,
    },
    /// No node has this key.
    UnknownKey {
        /// The key asked for.
        key: String,
    },
    /// The node is a reference to a remote array: nothing here to read.
    Remote {
        /// The key.
        key: String,
    },
}

impl ContainerError {
    pub(crate) fn new(kind: ContainerErrorKind) -> Self {
        ContainerError {
            inner: Box::new(Inner {
                offset: None,
                path: None,
                kind,
            }),
        }
    }

    pub(crate) fn at(offset: u64, kind: ContainerErrorKind) -> Self {
        let mut e = ContainerError::new(kind);
        e.inner.offset = Some(offset);
        e
    }

    /// A frame error, its offset moved by `base` (where the frame starts).
    pub(crate) fn frame(e: FrameError, base: u64) -> Self {
        let offset = e.offset().map(|o| o.saturating_add(base));
        let mut out = ContainerError::new(ContainerErrorKind::Frame(e));
        out.inner.offset = offset;
        out
    }

    pub(crate) fn io(e: io::Error) -> Self {
        ContainerError::new(ContainerErrorKind::Io(e))
    }

    pub(crate) fn in_file(mut self, path: &Path) -> Self {
        if self.inner.path.is_none() {
            self.inner.path = Some(path.to_path_buf());
        }
        self
    }

    /// The byte offset the error concerns, when there is one.
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// The file involved, when one is.
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ContainerErrorKind {
        &self.inner.kind
    }
}

impl fmt::Display for ContainerErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContainerErrorKind::Io(e) => write!(f, "I/O error: {e}"),
            ContainerErrorKind::Frame(e) => write!(f, "{}", e.kind()),
            ContainerErrorKind::Zip { reason } => write!(f, "not a readable zip: {reason}"),
            ContainerErrorKind::Compressed { member, method } => write!(
                f,
                "zip member {member:?} is compressed (method {method}); a .b2z is read in place, its members must be stored"
            ),
            ContainerErrorKind::EmbedMap { reason } => {
                write!(
                    f,
                    "embed map (vlmeta estore_metadata) not as python-blosc2 writes it: {reason}"
                )
            }
            ContainerErrorKind::EmbedData { reason } => {
                write!(f, "the embed store's data does not read: {reason}")
            }
            ContainerErrorKind::NodeOutside {
                key,
                offset,
                length,
                available,
            } => write!(
                f,
                "node {key:?} at offset {offset}, length {length}, lies outside the {available} bytes that hold it"
            ),
            ContainerErrorKind::UnknownKey { key } => write!(f, "no node {key:?}"),
            ContainerErrorKind::Unreadable { key, reason } => {
                write!(f, "node {key:?} cannot be read: {reason}")
            }
            ContainerErrorKind::Remote { key } => {
                write!(
                    f,
                    "node {key:?} is a remote reference; nothing to read here"
                )
            }
        }
    }
}

impl fmt::Display for ContainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.inner.path {
            write!(f, "{}: ", p.display())?;
        }
        write!(f, "{}", self.inner.kind)?;
        if let Some(o) = self.inner.offset {
            write!(f, " at byte {o}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for ContainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContainerError")
            .field("offset", &self.inner.offset)
            .field("path", &self.inner.path)
            .field("kind", &self.inner.kind)
            .finish()
    }
}

impl std::error::Error for ContainerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.kind {
            ContainerErrorKind::Io(e) => Some(e),
            ContainerErrorKind::Frame(e) => Some(e),
            _ => None,
        }
    }
}
