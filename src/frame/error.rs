//! [`FrameError`]: what went wrong reading or rewriting a frame, and where.

use std::fmt;
use std::io;
use std::path::Path;
use std::string::String;

use super::header::{FrameKind, MAX_FRAME_FORMAT_VERSION, MAX_METALAYERS, METALAYER_NAME_MAXLEN};
use super::shape::ShapeChangeRefusal;
use crate::located::{Class, Kind, Located};
use crate::wire::Found;

/// An error reading or rewriting a frame: what went wrong ([`FrameError::kind`]), where
/// in the frame ([`FrameError::offset`]) and, when a file is involved, which
/// ([`FrameError::path`]).
///
/// Offsets are byte offsets from the start of the frame (for a sparse frame, from the
/// start of `chunks.b2frame`). Displayed as `"[path: ]message[ at byte N]"`.
///
/// ```
/// use b2nd_meta::frame::{parse_header, FrameErrorKind};
///
/// // The magic "b2frame\0" starts at byte 2.
/// let err = parse_header(b"not a frame").unwrap_err();
/// assert_eq!(err.offset(), Some(2));
/// assert!(matches!(err.kind(), FrameErrorKind::BadMagic { found: b't', .. }));
/// assert!(err.to_string().ends_with(" at byte 2"), "{err}");
/// ```
pub type FrameError = Located<FrameErrorKind>;

/// What went wrong; see [`FrameError`]. Offsets are in the error, not in the kind.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// Reading the data (an index, bytes expanded from special chunks) would take more
    /// than what is left of the call's decode budget
    /// ([`DecodeBudget`](crate::chunk::DecodeBudget)).
    #[error("{0}")]
    OverBudget(crate::chunk::OverBudget),
    /// Another process held the lock (the file named) longer than the call's
    /// [`Locking::timeout`](super::Locking::timeout).
    #[error("gave up after {:.1} s waiting for the lock another process holds", .waited.as_secs_f64())]
    LockTimeout {
        /// How long it waited.
        waited: core::time::Duration,
    },
    /// An I/O error.
    #[error("I/O error: {0}")]
    Io(#[source] io::Error),
    /// The input ends before the header does.
    #[error(
        "input truncated: {what} needs {end} bytes of input, but only {available} are available"
    )]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// The input length it needs.
        end: u64,
        /// The input length available.
        available: u64,
    },
    /// A byte of the magic `b"b2frame\0"` is wrong: not a Blosc2 frame.
    #[error("not a Blosc2 frame: expected {expected:#04x} of the magic \"b2frame\\0\", found {found:#04x}")]
    BadMagic {
        /// The magic byte expected.
        expected: u8,
        /// The byte found.
        found: u8,
    },
    /// A msgpack marker byte is wrong.
    #[error("expected {expected}, found {}", Found(*found))]
    BadMarker {
        /// What was expected there.
        expected: &'static str,
        /// The byte found.
        found: u8,
    },
    /// A field holds a value that is out of range.
    #[error("invalid {field} {value}: {reason}")]
    InvalidField {
        /// Which field.
        field: &'static str,
        /// The value found.
        value: i128,
        /// What was expected.
        reason: &'static str,
    },
    /// The frame format version is not one this module understands.
    #[error(
        "unsupported frame format version {version} (expected 1 to {MAX_FRAME_FORMAT_VERSION})"
    )]
    UnsupportedVersion {
        /// The version found.
        version: u8,
    },
    /// Something would extend past the end of the header.
    #[error(
        "{what} would extend to byte {end}, past the end of the header (header_len {header_len})"
    )]
    OutOfHeader {
        /// What was being read.
        what: &'static str,
        /// Where it would end.
        end: u64,
        /// The declared header length.
        header_len: u32,
    },
    /// More than 16 metalayers.
    #[error("{count} metalayers declared, at most {MAX_METALAYERS} allowed")]
    TooManyMetalayers {
        /// The count found.
        count: u16,
    },
    /// The trailer's index and its contents array disagree on the number of
    /// variable-length metalayers.
    #[error("the contents array holds {contents} metalayers, but the index holds {index}")]
    MetalayerCountMismatch {
        /// Count in the index (map16).
        index: u16,
        /// Count in the contents (array16).
        contents: u16,
    },
    /// A variable-length metalayer name is not valid (not UTF-8, or contains NUL).
    #[error("invalid metalayer name: {reason}")]
    InvalidName {
        /// Why.
        reason: &'static str,
    },
    /// Two variable-length metalayers have the same name.
    #[error("duplicate metalayer name {name:?}")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// A variable-length metalayer offset does not point at its content.
    #[error("metalayer {name:?} has offset {value}, but its content is at byte {actual}")]
    OffsetMismatch {
        /// The metalayer.
        name: String,
        /// The offset found.
        value: i32,
        /// Where its content actually is.
        actual: u64,
    },
    /// A metalayer content too long for its int32 length (a new frame's).
    #[error("metalayer {name:?} of {len} bytes, expected fewer than 2 GiB")]
    MetalayerTooLarge {
        /// The metalayer.
        name: String,
        /// Its length.
        len: u64,
    },
    /// A metalayer name is longer than 31 bytes (stored as str8/16/32).
    #[error("metalayer name of {len} bytes, at most {METALAYER_NAME_MAXLEN} allowed")]
    NameTooLong {
        /// The declared length.
        len: u64,
    },
    /// A metalayer offset is negative or does not point inside the header.
    #[error("metalayer {name:?} has offset {value}, outside the header (header_len {header_len})")]
    OffsetOutsideHeader {
        /// The metalayer.
        name: String,
        /// The offset found.
        value: i32,
        /// The declared header length.
        header_len: u32,
    },
    /// The frame type does not match the path (a file must hold a contiguous
    /// frame; a directory's `chunks.b2frame` a sparse one).
    #[error("the header's frame type (byte 26) says a {found} frame, expected a {expected} one")]
    WrongKind {
        /// The kind the path implies.
        expected: FrameKind,
        /// The kind the header declares.
        found: FrameKind,
    },
    /// The path is neither a regular file nor a directory (a FIFO, a socket, a device):
    /// refused before it is opened.
    #[error("{file_type}, not a frame file (a regular file, or a sparse frame's directory)")]
    NotAFile {
        /// What it is: `"a FIFO"`, `"a socket"`, `"a character device"`, ...
        file_type: &'static str,
    },
    /// The metalayer contents are not where C-Blosc2 writes them (see
    /// [`FrameInfo::contents_as_c_writes`](super::FrameInfo::contents_as_c_writes)):
    /// a rewrite in place could overwrite the index or another content.
    #[error("the metalayer contents are not where C-Blosc2 writes them; not rewritten in place")]
    UnusualLayout,
    /// No metalayer has this name.
    #[error("no metalayer named {name:?}")]
    UnknownMetalayer {
        /// The name asked for.
        name: String,
    },
    /// The frame has neither a `b2nd` nor a `caterva` metalayer: not an n-dimensional array.
    #[error("no b2nd or caterva metalayer: the frame does not hold an n-dimensional array")]
    NoArrayMetalayer,
    /// A user-metalayer write named the array's metalayer (see
    /// [`FrameHeader::is_array_metalayer`](super::FrameHeader::is_array_metalayer));
    /// its shape changes through [`set_shape`](super::set_shape).
    #[error(
        "metalayer {name:?} is the array's, not a user metalayer: its shape changes with set_shape"
    )]
    NotUserMetalayer {
        /// The name given.
        name: String,
    },
    /// The array metalayer does not decode. The source's offset counts from the start
    /// of the content, which starts at `content_offset` in the frame; the error's
    /// offset is the frame offset of the offending byte.
    #[error("{}", inner("metalayer", name, "content", *content_offset, source.offset(), source, source.kind()))]
    Metalayer {
        /// The metalayer.
        name: String,
        /// Where its content starts, from the start of the frame.
        content_offset: u64,
        /// Why it does not decode.
        #[source]
        source: crate::meta::error::Error,
    },
    /// A vlmetalayer's chunk does not decode. The source's offset counts from the start
    /// of the chunk, which starts at `content_offset` in the frame; the error's offset
    /// is the frame offset of the offending byte.
    #[error("{}", inner("vlmetalayer", name, "chunk", *content_offset, source.offset(), source, source.kind()))]
    VlmetaChunk {
        /// The vlmetalayer.
        name: String,
        /// Where its chunk starts, from the start of the frame.
        content_offset: u64,
        /// Why it does not decode.
        #[source]
        source: crate::chunk::ChunkError,
    },
    /// A chunk of the frame's data, or its offsets chunk (`nchunk` `None`), does not
    /// decode. The source's offset counts from the start of the chunk, which starts at
    /// `chunk_offset` in the frame (for a sparse frame's data chunk, in its `.chunk`
    /// file); the error's offset is the frame offset of the offending byte.
    #[error("{} (starting at byte {chunk_offset}) does not decode: {}", which_chunk(*nchunk), source.kind())]
    DataChunk {
        /// Which chunk, `None` for the offsets chunk.
        nchunk: Option<u64>,
        /// Where it starts.
        chunk_offset: u64,
        /// Why it does not decode.
        #[source]
        source: crate::chunk::ChunkError,
    },
    /// A vlmetalayer's uncompressed content is not one msgpack value of the type asked
    /// for; the source's offset counts from the start of that uncompressed content.
    #[error("{}", value_message(name, source))]
    VlmetaValue {
        /// The vlmetalayer.
        name: String,
        /// Why it does not decode.
        #[source]
        source: crate::meta::error::Error,
    },
    /// No vlmetalayer has this name.
    #[error("no vlmetalayer named {name:?}")]
    UnknownVlmetalayer {
        /// The name asked for.
        name: String,
    },
    /// A vlmeta change (set or delete) that is refused; nothing is written.
    #[error("vlmeta not changed: {reason}")]
    VlmetaChange {
        /// Why not.
        #[source]
        reason: super::vlmeta_refusal::VlmetaRefusal,
    },
    /// A shape change that cannot be written in place.
    #[error("cannot set the shape in place: {reason}")]
    ShapeChange {
        /// Why not.
        #[source]
        reason: ShapeChangeRefusal,
    },
    /// The new content does not have the length of the existing one.
    #[error("metalayer {name:?} holds {expected} bytes; new content of {found} bytes refused (only same-length rewrites are possible in place)")]
    ContentLengthMismatch {
        /// The metalayer.
        name: String,
        /// Its current length.
        expected: usize,
        /// The new content's length.
        found: usize,
    },
    /// A rewrite is refused because the frame's data is cut short: the file holding
    /// the header (for a sparse frame, `chunks.b2frame`) is shorter than `frame_len`.
    #[error("the header declares a frame of {frame_len} bytes, but the file has {file_len}: the frame is truncated, and is not rewritten")]
    TruncatedFrame {
        /// The frame length the header declares.
        frame_len: u64,
        /// The file's length.
        file_len: u64,
    },
    /// The metalayer's content is not the one the new content was decided from: the
    /// file changed in between (another writer, or a replaced file). Nothing written.
    #[error(
        "metalayer {name:?} changed between reading and writing (another writer?); nothing written"
    )]
    ContentChanged {
        /// The metalayer.
        name: String,
    },
    /// A new frame's path exists, and replacing it was not asked for.
    #[error("exists, and replacing it was not asked for")]
    Exists,
    /// What is at a writer's path cannot take what it writes (a directory that is not a
    /// sparse frame, a device, a frame of the other kind, the input itself).
    #[error("{why}")]
    NotReplaceable {
        /// Why, in a few words.
        why: String,
    },
    /// A frame this crate does not change in place, with why.
    #[error("not changed in place: {why}")]
    NotEditable {
        /// Why, in a few words.
        why: &'static str,
    },
}

/// `metalayer "b2nd" does not decode: <why> (byte N of its content, which starts at frame
/// byte M)`, or without an offset `metalayer "b2nd", whose content starts at frame byte
/// M, does not decode: <why>`.
fn inner(
    what: &str,
    name: &str,
    part: &str,
    content_offset: u64,
    at: Option<u64>,
    source: &dyn fmt::Display,
    kind: &dyn fmt::Display,
) -> String {
    match at {
        Some(at) => std::format!(
            "{what} {name:?} does not decode: {kind} (byte {at} of its {part}, which starts at frame byte {content_offset})"
        ),
        None => std::format!(
            "{what} {name:?}, whose {part} starts at frame byte {content_offset}, does not decode: {source}"
        ),
    }
}

/// `data chunk N`, or `the chunk offsets index`.
fn which_chunk(nchunk: Option<u64>) -> String {
    match nchunk {
        Some(n) => std::format!("data chunk {n}"),
        None => "the chunk offsets index".into(),
    }
}

/// A vlmetalayer whose uncompressed value does not decode.
fn value_message(name: &str, source: &crate::meta::error::Error) -> String {
    match source.offset() {
        Some(at) => std::format!(
            "vlmetalayer {name:?} does not decode: {} (byte {at} of its uncompressed value)",
            source.kind()
        ),
        None => std::format!("vlmetalayer {name:?} does not decode: {source}"),
    }
}

impl Kind for FrameErrorKind {
    fn class(&self) -> Class {
        use FrameErrorKind::*;
        match self {
            Io(_) => Class::Io,
            BadMagic { .. } | NotAFile { .. } => Class::NotBlosc2,
            Truncated { .. }
            | BadMarker { .. }
            | InvalidField { .. }
            | OutOfHeader { .. }
            | TooManyMetalayers { .. }
            | NameTooLong { .. }
            | OffsetOutsideHeader { .. }
            | WrongKind { .. } => Class::Syntax,
            UnsupportedVersion { .. } => Class::Unsupported,
            MetalayerCountMismatch { .. }
            | InvalidName { .. }
            | DuplicateName { .. }
            | OffsetMismatch { .. }
            | Metalayer { .. }
            | VlmetaChunk { .. }
            | DataChunk { .. }
            | VlmetaValue { .. } => Class::Corrupt,
            UnknownMetalayer { .. } | NoArrayMetalayer | UnknownVlmetalayer { .. } => {
                Class::NotFound
            }
            UnusualLayout
            | MetalayerTooLarge { .. }
            | NotUserMetalayer { .. }
            | VlmetaChange { .. }
            | ShapeChange { .. }
            | ContentLengthMismatch { .. }
            | Exists
            | NotReplaceable { .. }
            | NotEditable { .. } => Class::Refused,
            TruncatedFrame { .. } => Class::Truncated,
            OverBudget(_) => Class::TooLarge,
            ContentChanged { .. } | LockTimeout { .. } => Class::Conflict,
        }
    }
}

impl FrameErrorKind {
    /// Whether this is a decode refused by the call's decode budget
    /// ([`DecodeBudget`](crate::chunk::DecodeBudget)), not by anything in the file: a
    /// chunk or bytes past what is left of it, a value holding more values than it does.
    ///
    /// ```
    /// use b2nd_meta::chunk::DecodeBudget;
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// let err = trailer.vlmetalayers[0].value_within(&DecodeBudget::new(0)).unwrap_err();
    /// assert!(err.kind().is_over_budget());
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn is_over_budget(&self) -> bool {
        use crate::chunk::ChunkErrorKind;
        match self {
            FrameErrorKind::OverBudget(_) => true,
            FrameErrorKind::VlmetaChunk { source, .. }
            | FrameErrorKind::DataChunk { source, .. } => {
                matches!(source.kind(), ChunkErrorKind::OverBudget(_))
            }
            FrameErrorKind::VlmetaValue { source, .. } => {
                matches!(source.kind(), crate::ErrorKind::TooManyValues { .. })
            }
            _ => false,
        }
    }
}

impl FrameError {
    /// An I/O error on `path` (when there is one).
    pub(crate) fn io(path: Option<&Path>) -> impl FnOnce(io::Error) -> FrameError + '_ {
        move |source| {
            let e = FrameError::new(FrameErrorKind::Io(source));
            match path {
                Some(p) => e.in_file(p),
                None => e,
            }
        }
    }
}
