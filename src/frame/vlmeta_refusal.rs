//! Why a vlmeta change is refused: the reason a [`FrameErrorKind::VlmetaChange`] holds.
//! A leaf, as `shape.rs` is for shape changes, so that the frame's error type names it
//! without importing the trailer that uses it.
//!
//! [`FrameErrorKind::VlmetaChange`]: super::FrameErrorKind::VlmetaChange

use std::fmt;
use std::string::String;

use super::header::{MAX_METALAYERS, METALAYER_NAME_MAXLEN};

/// Why a vlmeta change is refused; nothing is written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VlmetaRefusal {
    /// A name longer than 31 bytes (C stores names as a fixstr).
    NameTooLong {
        /// The name.
        name: String,
    },
    /// A name holding a NUL byte (C reads names as C strings).
    NameHasNul {
        /// The name.
        name: String,
    },
    /// More than 16 entries: `frame_update_trailer` refuses them
    /// (`BLOSC2_MAX_METALAYERS`), and python-blosc2 fails on a 17th.
    TooMany {
        /// The count the change would leave.
        count: usize,
    },
    /// A value, or the trailer holding it, too large for the int32 lengths and offsets
    /// of the format.
    TooLarge {
        /// The name of the entry.
        name: String,
        /// Its size in bytes (msgpack, or the whole trailer).
        len: usize,
    },
    /// Deleting a name that is not there (python's `del vlmeta[k]` raises `KeyError`).
    Unknown {
        /// The name.
        name: String,
    },
    /// The trailer on disk is not the one C-Blosc2 writes for its own entries (another
    /// version or a fingerprint): it is not rewritten.
    UnusualTrailer,
    /// The frame's chunk-offsets index is not where the header says, so the space
    /// before the trailer is not known to be free.
    UnusualIndex,
    /// A frame without data gets its new trailer in a new file renamed over the old one
    /// (C reads its trailer right after the header, so there is no room to write it
    /// beside the old one), and this file cannot be replaced so without losing
    /// something.
    NotReplaceable {
        /// What would be lost.
        why: String,
    },
}

impl std::error::Error for VlmetaRefusal {}

impl fmt::Display for VlmetaRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VlmetaRefusal::NameTooLong { name } => write!(
                f,
                "the name {name:?} has {} bytes, at most {METALAYER_NAME_MAXLEN} allowed",
                name.len()
            ),
            VlmetaRefusal::NameHasNul { name } => {
                write!(f, "the name {name:?} holds a NUL byte")
            }
            VlmetaRefusal::TooMany { count } => write!(
                f,
                "{count} vlmetalayers, at most {MAX_METALAYERS} allowed (C-Blosc2's frame_update_trailer refuses more)"
            ),
            VlmetaRefusal::TooLarge { name, len } => write!(
                f,
                "vlmetalayer {name:?}: {len} bytes, too large for the trailer's int32 lengths"
            ),
            VlmetaRefusal::Unknown { name } => write!(f, "no vlmetalayer named {name:?}"),
            VlmetaRefusal::UnusualTrailer => f.write_str(
                "the trailer is not as C-Blosc2 writes it (version or fingerprint); not rewritten",
            ),
            VlmetaRefusal::UnusualIndex => f.write_str(
                "the chunk-offsets index is not where the header says; the trailer is not rewritten",
            ),
            VlmetaRefusal::NotReplaceable { why } => write!(
                f,
                "the frame holds no data, so its trailer is rewritten by replacing the file, and {why}"
            ),
        }
    }
}
