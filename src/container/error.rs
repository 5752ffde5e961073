//! [`ContainerError`]: why a store, a bundle or one of its nodes cannot be read, and
//! where (the byte offset in the file, the member or the store's data, as each message
//! says).

use std::io;
use std::string::String;

use crate::frame::FrameError;
use crate::located::{Class, Kind, Located};

/// An error reading a container: its kind, the byte offset it concerns when there is
/// one, and the file. Displayed as `"[path: ]message[ at byte N]"`.
///
/// ```
/// use b2nd_meta::container::{self, ContainerErrorKind};
///
/// let source = b2nd_meta::frame::Source::bytes(&b"neither a frame nor a zip"[..]);
/// let err = container::open(source).unwrap_err();
/// assert!(matches!(err.kind(), ContainerErrorKind::Frame(_)));
/// assert_eq!(err.offset(), Some(2));
/// ```
pub type ContainerError = Located<ContainerErrorKind>;

/// What went wrong; see [`ContainerError`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ContainerErrorKind {
    /// A frame (the store's own, or a node's) does not read; its offset is the
    /// frame's own, the error's is where the frame starts plus that.
    #[error("{}", .0.kind())]
    Frame(#[source] FrameError),
    /// An I/O error.
    #[error("I/O error: {0}")]
    Io(#[source] io::Error),
    /// The zip directory does not read, or a member is not where it says.
    #[error("not a readable zip: {reason}")]
    Zip {
        /// What is wrong.
        reason: String,
    },
    /// A zip member is compressed: a `.b2z` is read in place, so python-blosc2
    /// refuses a deflated `embed.b2e` and leaves other deflated members out.
    #[error("zip member {member:?} is compressed (method {method}); a .b2z is read in place, its members must be stored")]
    Compressed {
        /// The member.
        member: String,
        /// Its compression method (8: deflate).
        method: u16,
    },
    /// The store's `estore_metadata` vlmetalayer is not what python-blosc2 writes.
    #[error("embed map (vlmeta estore_metadata) not as python-blosc2 writes it: {reason}")]
    EmbedMap {
        /// What was expected and found.
        reason: String,
    },
    /// The EmbedStore's data (its chunk index) does not read, so no embedded node can.
    #[error("the embed store's data does not read: {reason}")]
    EmbedData {
        /// Why.
        reason: String,
    },
    /// A node's bytes lie outside what holds them.
    #[error("node {key:?} at offset {offset}, length {length}, lies outside the {available} bytes that hold it")]
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
    #[error("node {key:?} cannot be read: {reason}")]
    Unreadable {
        /// The node.
        key: String,
        /// Why.
        reason: String,
    },
    /// No node has this key.
    #[error("no node {key:?}")]
    UnknownKey {
        /// The key asked for.
        key: String,
    },
    /// A store change refused as asked (a key python-blosc2 refuses, a leaf over a
    /// group, a store kind not written): nothing was changed.
    #[error("{why}")]
    Refused {
        /// Why, and what would be accepted.
        why: String,
    },
    /// The node is a reference to a remote array: nothing here to read.
    #[error("node {key:?} is a remote reference; nothing to read here")]
    Remote {
        /// The key.
        key: String,
    },
}

impl Kind for ContainerErrorKind {
    fn class(&self) -> Class {
        match self {
            ContainerErrorKind::Io(_) => Class::Io,
            ContainerErrorKind::Frame(e) => e.classify(),
            ContainerErrorKind::Zip { .. } => Class::Syntax,
            ContainerErrorKind::Compressed { .. } | ContainerErrorKind::Remote { .. } => {
                Class::Unsupported
            }
            ContainerErrorKind::EmbedMap { .. }
            | ContainerErrorKind::EmbedData { .. }
            | ContainerErrorKind::NodeOutside { .. }
            | ContainerErrorKind::Unreadable { .. } => Class::Corrupt,
            ContainerErrorKind::UnknownKey { .. } => Class::NotFound,
            ContainerErrorKind::Refused { .. } => Class::Refused,
        }
    }
}

impl ContainerError {
    /// A frame error, its offset moved by `base` (where the frame starts).
    pub(crate) fn frame(e: FrameError, base: u64) -> Self {
        let offset = e.offset().map(|o| o.saturating_add(base));
        ContainerError::new(ContainerErrorKind::Frame(e)).moved_to(offset)
    }

    /// An I/O error.
    pub(crate) fn io(e: io::Error) -> Self {
        ContainerError::new(ContainerErrorKind::Io(e))
    }
}
