//! [`FrameError`]: what went wrong reading or rewriting a frame header, and where.

use std::boxed::Box;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::string::String;

use super::header::{FrameKind, MAX_FRAME_FORMAT_VERSION, MAX_METALAYERS, METALAYER_NAME_MAXLEN};
use super::shape::ShapeChangeRefusal;
use crate::meta::error::Found;

/// An error reading or rewriting a frame header: what went wrong ([`FrameError::kind`]),
/// where in the frame ([`FrameError::offset`]) and, when a file is involved, which
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
pub struct FrameError {
    inner: Box<Inner>,
}

struct Inner {
    offset: Option<u64>,
    path: Option<PathBuf>,
    kind: FrameErrorKind,
}

/// What went wrong; see [`FrameError`]. Offsets are in the error, not in the kind.
#[derive(Debug)]
#[non_exhaustive]
pub enum FrameErrorKind {
    /// An I/O error.
    Io(io::Error),
    /// The input ends before the header does.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// The input length it needs.
        end: u64,
        /// The input length available.
        available: u64,
    },
    /// A byte of the magic `b"b2frame\0"` is wrong: not a Blosc2 frame.
    BadMagic {
        /// The magic byte expected.
        expected: u8,
        /// The byte found.
        found: u8,
    },
    /// A msgpack marker byte is wrong.
    BadMarker {
        /// What was expected there.
        expected: &'static str,
        /// The byte found.
        found: u8,
    },
    /// A field holds a value that is out of range.
    InvalidField {
        /// Which field.
        field: &'static str,
        /// The value found.
        value: i128,
        /// What was expected.
        reason: &'static str,
    },
    /// The frame format version is not one this module understands.
    UnsupportedVersion {
        /// The version found.
        version: u8,
    },
    /// Something would extend past the end of the header.
    OutOfHeader {
        /// What was being read.
        what: &'static str,
        /// Where it would end.
        end: u64,
        /// The declared header length.
        header_len: u32,
    },
    /// More than 16 metalayers.
    TooManyMetalayers {
        /// The count found.
        count: u16,
    },
    /// The trailer's index and its contents array disagree on the number of
    /// variable-length metalayers.
    MetalayerCountMismatch {
        /// Count in the index (map16).
        index: u16,
        /// Count in the contents (array16).
        contents: u16,
    },
    /// A variable-length metalayer name is not valid (not UTF-8, or contains NUL).
    InvalidName {
        /// Why.
        reason: &'static str,
    },
    /// Two variable-length metalayers have the same name.
    DuplicateName {
        /// The name.
        name: String,
    },
    /// A variable-length metalayer offset does not point at its content.
    OffsetMismatch {
        /// The metalayer.
        name: String,
        /// The offset found.
        value: i32,
        /// Where its content actually is.
        actual: u64,
    },
    /// A metalayer content too long for its int32 length (a new frame's).
    MetalayerTooLarge {
        /// The metalayer.
        name: String,
        /// Its length.
        len: u64,
    },
    /// A metalayer name is longer than 31 bytes (stored as str8/16/32).
    NameTooLong {
        /// The declared length.
        len: u64,
    },
    /// A metalayer offset is negative or does not point inside the header.
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
    WrongKind {
        /// The kind the path implies.
        expected: FrameKind,
        /// The kind the header declares.
        found: FrameKind,
    },
    /// The path is neither a regular file nor a directory (a FIFO, a socket, a device):
    /// refused before it is opened.
    NotAFile {
        /// What it is: `"a FIFO"`, `"a socket"`, `"a character device"`, ...
        file_type: &'static str,
    },
    /// The metalayer contents are not where C-Blosc2 writes them (see
    /// [`FrameInfo::contents_as_c_writes`](super::FrameInfo::contents_as_c_writes)):
    /// a rewrite in place could overwrite the index or another content.
    UnusualLayout,
    /// No metalayer has this name.
    UnknownMetalayer {
        /// The name asked for.
        name: String,
    },
    /// The frame has neither a `b2nd` nor a `caterva` metalayer: not an n-dimensional array.
    NoArrayMetalayer,
    /// A user-metalayer write named the array's metalayer (see
    /// [`FrameHeader::is_array_metalayer`](super::FrameHeader::is_array_metalayer));
    /// its shape changes through [`set_shape`](super::set_shape).
    NotUserMetalayer {
        /// The name given.
        name: String,
    },
    /// The array metalayer does not decode. The source's offset counts from the start
    /// of the content, which starts at `content_offset` in the frame; the error's
    /// offset is the frame offset of the offending byte.
    Metalayer {
        /// The metalayer.
        name: String,
        /// Where its content starts, from the start of the frame.
        content_offset: u64,
        /// Why it does not decode.
        source: crate::meta::error::Error,
    },
    /// A vlmetalayer's chunk does not decode. The source's offset counts from the start
    /// of the chunk, which starts at `content_offset` in the frame; the error's offset
    /// is the frame offset of the offending byte.
    VlmetaChunk {
        /// The vlmetalayer.
        name: String,
        /// Where its chunk starts, from the start of the frame.
        content_offset: u64,
        /// Why it does not decode.
        source: crate::chunk::ChunkError,
    },
    /// A chunk of the frame's data, or its offsets chunk (`nchunk` `None`), does not
    /// decode. The source's offset counts from the start of the chunk, which starts at
    /// `chunk_offset` in the frame (for a sparse frame's data chunk, in its `.chunk`
    /// file); the error's offset is the frame offset of the offending byte.
    DataChunk {
        /// Which chunk, `None` for the offsets chunk.
        nchunk: Option<u64>,
        /// Where it starts.
        chunk_offset: u64,
        /// Why it does not decode.
        source: crate::chunk::ChunkError,
    },
    /// A vlmetalayer's uncompressed content is not one msgpack value of the type asked
    /// for; the source's offset counts from the start of that uncompressed content.
    VlmetaValue {
        /// The vlmetalayer.
        name: String,
        /// Why it does not decode.
        source: crate::meta::error::Error,
    },
    /// No vlmetalayer has this name.
    UnknownVlmetalayer {
        /// The name asked for.
        name: String,
    },
    /// A vlmeta change (set or delete) that is refused; nothing is written.
    VlmetaChange {
        /// Why not.
        reason: super::vlmeta_refusal::VlmetaRefusal,
    },
    /// A shape change that cannot be written in place.
    ShapeChange {
        /// Why not.
        reason: ShapeChangeRefusal,
    },
    /// The new content does not have the length of the existing one.
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
    TruncatedFrame {
        /// The frame length the header declares.
        frame_len: u64,
        /// The file's length.
        file_len: u64,
    },
    /// The metalayer's content is not the one the new content was decided from: the
    /// file changed in between (another writer, or a replaced file). Nothing written.
    ContentChanged {
        /// The metalayer.
        name: String,
    },
}

impl fmt::Display for FrameErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FrameErrorKind::*;
        match self {
            Io(source) => write!(f, "I/O error: {source}"),
            Truncated {
                what,
                end,
                available,
            } => write!(
                f,
                "input truncated: {what} needs {end} bytes of input, but only {available} are available"
            ),
            BadMagic { expected, found } => write!(
                f,
                "not a Blosc2 frame: expected {expected:#04x} of the magic \"b2frame\\0\", found {found:#04x}"
            ),
            BadMarker { expected, found } => {
                write!(f, "expected {expected}, found {}", Found(*found))
            }
            InvalidField {
                field,
                value,
                reason,
            } => write!(f, "invalid {field} {value}: {reason}"),
            UnsupportedVersion { version } => write!(
                f,
                "unsupported frame format version {version} (expected 1 to {MAX_FRAME_FORMAT_VERSION})"
            ),
            OutOfHeader {
                what,
                end,
                header_len,
            } => write!(
                f,
                "{what} would extend to byte {end}, past the end of the header (header_len {header_len})"
            ),
            TooManyMetalayers { count } => write!(
                f,
                "{count} metalayers declared, at most {MAX_METALAYERS} allowed"
            ),
            MetalayerCountMismatch { index, contents } => write!(
                f,
                "the contents array holds {contents} metalayers, but the index holds {index}"
            ),
            InvalidName { reason } => write!(f, "invalid metalayer name: {reason}"),
            DuplicateName { name } => write!(f, "duplicate metalayer name {name:?}"),
            OffsetMismatch {
                name,
                value,
                actual,
            } => write!(
                f,
                "metalayer {name:?} has offset {value}, but its content is at byte {actual}"
            ),
            MetalayerTooLarge { name, len } => write!(
                f,
                "metalayer {name:?} of {len} bytes, expected fewer than 2 GiB"
            ),
            NameTooLong { len } => write!(
                f,
                "metalayer name of {len} bytes, at most {METALAYER_NAME_MAXLEN} allowed"
            ),
            OffsetOutsideHeader {
                name,
                value,
                header_len,
            } => write!(
                f,
                "metalayer {name:?} has offset {value}, outside the header (header_len {header_len})"
            ),
            WrongKind { expected, found } => write!(
                f,
                "the header's frame type (byte 26) says a {found} frame, expected a {expected} one"
            ),
            NotAFile { file_type } => write!(
                f,
                "{file_type}, not a frame file (a regular file, or a sparse frame's directory)"
            ),
            UnusualLayout => f.write_str(
                "the metalayer contents are not where C-Blosc2 writes them; not rewritten in place",
            ),
            UnknownMetalayer { name } => write!(f, "no metalayer named {name:?}"),
            NoArrayMetalayer => f.write_str(
                "no b2nd or caterva metalayer: the frame does not hold an n-dimensional array",
            ),
            NotUserMetalayer { name } => write!(
                f,
                "metalayer {name:?} is the array's, not a user metalayer: its shape changes with set_shape"
            ),
            Metalayer {
                name,
                content_offset,
                source,
            } => match source.offset() {
                Some(at) => write!(
                    f,
                    "metalayer {name:?} does not decode: {} (byte {at} of its content, which starts at frame byte {content_offset})",
                    source.kind()
                ),
                None => write!(
                    f,
                    "metalayer {name:?}, whose content starts at frame byte {content_offset}, does not decode: {source}"
                ),
            },
            DataChunk {
                nchunk,
                chunk_offset,
                source,
            } => {
                match nchunk {
                    Some(n) => write!(f, "data chunk {n}")?,
                    None => f.write_str("the chunk offsets index")?,
                }
                write!(
                    f,
                    " (starting at byte {chunk_offset}) does not decode: {}",
                    source.kind()
                )
            }
            VlmetaChunk {
                name,
                content_offset,
                source,
            } => match source.offset() {
                Some(at) => write!(
                    f,
                    "vlmetalayer {name:?} does not decode: {} (byte {at} of its chunk, which starts at frame byte {content_offset})",
                    source.kind()
                ),
                None => write!(
                    f,
                    "vlmetalayer {name:?}, whose chunk starts at frame byte {content_offset}, does not decode: {source}"
                ),
            },
            VlmetaValue { name, source } => match source.offset() {
                Some(at) => write!(
                    f,
                    "vlmetalayer {name:?} does not decode: {} (byte {at} of its uncompressed value)",
                    source.kind()
                ),
                None => write!(f, "vlmetalayer {name:?} does not decode: {source}"),
            },
            UnknownVlmetalayer { name } => write!(f, "no vlmetalayer named {name:?}"),
            ShapeChange { reason } => write!(f, "cannot set the shape in place: {reason}"),
            VlmetaChange { reason } => write!(f, "vlmeta not changed: {reason}"),
            ContentLengthMismatch {
                name,
                expected,
                found,
            } => write!(
                f,
                "metalayer {name:?} holds {expected} bytes; new content of {found} bytes refused (only same-length rewrites are possible in place)"
            ),
            TruncatedFrame {
                frame_len,
                file_len,
            } => write!(
                f,
                "the header declares a frame of {frame_len} bytes, but the file has {file_len}: the frame is truncated, and is not rewritten"
            ),
            ContentChanged { name } => write!(
                f,
                "metalayer {name:?} changed between reading and writing (another writer?); nothing written"
            ),
        }
    }
}

impl FrameError {
    /// An error at `offset` bytes from the start of the frame.
    pub(crate) fn at(offset: u64, kind: FrameErrorKind) -> Self {
        FrameError {
            inner: Box::new(Inner {
                offset: Some(offset),
                path: None,
                kind,
            }),
        }
    }

    /// An error that is not at one place in the frame.
    pub(crate) fn new(kind: FrameErrorKind) -> Self {
        FrameError {
            inner: Box::new(Inner {
                offset: None,
                path: None,
                kind,
            }),
        }
    }

    /// The error with `path` as its file, unless it has one already.
    pub(crate) fn in_file(mut self, path: &Path) -> Self {
        if self.inner.path.is_none() {
            self.inner.path = Some(path.to_path_buf());
        }
        self
    }

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

    /// The byte offset in the frame where the problem is, when it is at one place:
    /// for a metalayer that does not decode, the frame offset of the offending byte.
    ///
    /// ```
    /// let err = b2nd_meta::frame::parse_header(b"not a frame").unwrap_err();
    /// assert_eq!(err.offset(), Some(2));
    /// ```
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// What went wrong.
    ///
    /// ```
    /// use b2nd_meta::frame::{parse_header, FrameErrorKind};
    /// let err = parse_header(b"\x9e\xa8b2frame").unwrap_err();
    /// assert!(matches!(err.kind(), FrameErrorKind::Truncated { available: 9, .. }));
    /// ```
    pub fn kind(&self) -> &FrameErrorKind {
        &self.inner.kind
    }

    /// Consumes the error, giving what went wrong.
    ///
    /// ```
    /// use b2nd_meta::frame::{parse_header, FrameErrorKind};
    /// let kind = parse_header(b"").unwrap_err().into_kind();
    /// assert!(matches!(kind, FrameErrorKind::Truncated { .. }));
    /// ```
    pub fn into_kind(self) -> FrameErrorKind {
        self.inner.kind
    }

    /// The file involved, when there is one (I/O errors, a frame of the wrong kind for
    /// its path).
    ///
    /// ```
    /// let err = b2nd_meta::frame::open("/no/such/frame.b2nd").unwrap_err();
    /// assert_eq!(err.path(), Some(std::path::Path::new("/no/such/frame.b2nd")));
    /// ```
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.inner.path {
            write!(f, "{}: ", path.display())?;
        }
        fmt::Display::fmt(&self.inner.kind, f)?;
        if let Some(offset) = self.inner.offset {
            write!(f, " at byte {offset}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameError")
            .field("offset", &self.inner.offset)
            .field("path", &self.inner.path)
            .field("kind", &self.inner.kind)
            .finish()
    }
}

impl std::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.kind {
            FrameErrorKind::Io(source) => Some(source),
            FrameErrorKind::Metalayer { source, .. } => Some(source),
            FrameErrorKind::VlmetaChunk { source, .. } => Some(source),
            FrameErrorKind::DataChunk { source, .. } => Some(source),
            FrameErrorKind::VlmetaValue { source, .. } => Some(source),
            FrameErrorKind::ShapeChange { reason } => Some(reason),
            FrameErrorKind::VlmetaChange { reason } => Some(reason),
            _ => None,
        }
    }
}
