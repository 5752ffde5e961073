//! The one error type of the crate, with the byte offset where decoding failed.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use core::fmt::{self, Display};

use crate::wire::marker;

/// The result type of this crate.
pub type Result<T, E = Error> = core::result::Result<T, E>;

/// An error while encoding or decoding a metalayer.
///
/// Decoding errors carry the byte offset ([`Error::offset`]) of the value that could not
/// be read; [`Error::kind`] says what was expected and what was found.
///
/// ```
/// use b2nd_meta::{ErrorKind, MetaB2ndV1};
///
/// // A b2nd v1 metalayer whose version byte is 0xcc (uint8) instead of a fixint.
/// let err = b2nd_meta::from_slice::<MetaB2ndV1>(&[0x97, 0xcc, 0x00]).unwrap_err();
/// assert_eq!(err.offset(), Some(1));
/// assert!(matches!(err.kind(), ErrorKind::InvalidMarker { found, .. } if found.0 == 0xcc));
/// assert_eq!(
///     err.to_string(),
///     "expected positive fixint (0x00..=0x7f), found 0xcc (uint8) at byte 1"
/// );
/// ```
pub struct Error {
    // Boxed so that `Result<T, Error>` stays one word wide on the hot path.
    inner: Box<Inner>,
}

struct Inner {
    offset: Option<u64>,
    kind: ErrorKind,
}

/// What went wrong; see [`Error`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value.
    #[error("the input ends at byte {input_len}, {needed} byte(s) short of the {expected}")]
    UnexpectedEnd {
        /// The value being read.
        expected: Expected,
        /// Length of the whole input.
        input_len: usize,
        /// How many bytes are missing.
        needed: usize,
    },
    /// A marker byte other than the one the format puts here.
    #[error("expected {expected}, found {found}")]
    InvalidMarker {
        /// The marker the format requires here.
        expected: Expected,
        /// The byte found instead.
        found: Found,
    },
    /// A str32 or bin32 length above `i32::MAX` (negative in C's `int32_t`).
    #[error("expected a length of at most i32::MAX, found {len}")]
    LengthOutOfRange {
        /// The length read.
        len: u32,
    },
    /// A dtype that is not valid UTF-8; the error's offset is the first invalid byte.
    #[error(
        "expected UTF-8 in the string starting at byte {str_offset}, found an invalid sequence"
    )]
    InvalidUtf8 {
        /// Offset of the str32 marker.
        str_offset: usize,
    },
    /// A well-formed value that the metalayer does not allow here, such as a version
    /// other than 0 or more than 16 dimensions.
    #[error("expected {expected}, found {found}")]
    InvalidValue {
        /// What is allowed.
        expected: String,
        /// What was found.
        found: String,
    },
    /// An array with another number of elements than the layout requires.
    #[error("expected {expected}, found {found} element(s)")]
    InvalidLength {
        /// What is allowed.
        expected: String,
        /// How many elements there are.
        found: usize,
    },
    /// Bytes after the end of the metalayer (see [`crate::take_from_slice`] to allow them).
    #[error("expected the end of the input, found {count} more byte(s)")]
    TrailingBytes {
        /// How many bytes follow the metalayer.
        count: usize,
    },
    /// An array of more than 16 elements was asked for; the format cannot hold it.
    #[error("expected at most 16 elements in an array, found {len}")]
    TooManyElements {
        /// The length asked for.
        len: usize,
    },
    /// Arrays (or maps) nested deeper than `max` levels: a metalayer nests two deep, a
    /// msgpack value at most [`crate::value::MAX_DEPTH`].
    #[error("expected arrays nested at most {max} deep, found deeper")]
    TooDeep {
        /// The bound.
        max: usize,
    },
    /// A value of a serde type the metalayer format has no encoding for.
    #[error("the metalayer format has no encoding for {0}")]
    UnsupportedType(&'static str),
    /// A value the metalayer format cannot represent, found while encoding.
    #[error("cannot encode {what}: {problem}")]
    Unencodable {
        /// The value.
        what: &'static str,
        /// Why not.
        problem: String,
    },
    /// The output buffer given to [`crate::to_slice`] is too small.
    #[error("the output buffer is too small: {needed} byte(s) needed, {available} available")]
    BufferTooSmall {
        /// Bytes needed so far.
        needed: usize,
        /// Capacity of the buffer.
        available: usize,
    },
    /// A message from a `Serialize` or `Deserialize` implementation.
    #[error("{0}")]
    Message(String),
    /// An I/O error from a reader or writer.
    #[cfg(feature = "std")]
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl ErrorKind {
    pub(crate) fn invalid_marker(expected: Expected, found: u8) -> Self {
        ErrorKind::InvalidMarker {
            expected,
            found: Found(found),
        }
    }
}

/// A marker byte shown with its msgpack name, for error messages: `0xcf (uint64)`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Found(pub u8);

impl Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#04x} ({})", self.0, marker::name(self.0))
    }
}

impl fmt::Debug for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#04x}", self.0)
    }
}

/// What the format requires at the place a decoding error happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expected {
    /// A positive fixint, `0x00..=0x7f` (version, ndim, dtype_format).
    PositiveFixint,
    /// An int64, `0xd3` + 8 bytes (shape entries).
    Int64,
    /// An int32, `0xd2` + 4 bytes (chunkshape and blockshape entries).
    Int32,
    /// A str32, `0xdb` + length + bytes (dtype).
    Str32,
    /// A bin32, `0xc6` + length + bytes.
    Bin32,
    /// An array header of exactly this many elements, `0x90 + n`.
    Array(usize),
    /// An array header of any length, `0x90..=0xa0`.
    AnyArray,
    /// Any value of the format (for self-describing reads).
    AnyValue,
    /// A value described in words: a field of a frame header, such as
    /// `"int32 (0xd2) before header_len"`.
    Described(&'static str),
}

impl Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::PositiveFixint => f.write_str("positive fixint (0x00..=0x7f)"),
            Expected::Int64 => f.write_str("int64 (0xd3)"),
            Expected::Int32 => f.write_str("int32 (0xd2)"),
            Expected::Str32 => f.write_str("str32 (0xdb)"),
            Expected::Bin32 => f.write_str("bin32 (0xc6)"),
            // C's unguarded `0x90 + n` header, for the lengths the format allows.
            Expected::Array(n) if *n <= 16 => {
                write!(
                    f,
                    "array of {n} element(s) ({:#04x})",
                    marker::FIXARRAY + *n as u8
                )
            }
            Expected::Array(n) => write!(f, "array of {n} element(s)"),
            Expected::AnyArray => f.write_str("array header (0x90..=0xa0)"),
            Expected::AnyValue => f.write_str(
                "a value of the metalayer format (fixint, 0x90..=0xa0, 0xd2, 0xd3, 0xdb or 0xc6)",
            ),
            Expected::Described(what) => f.write_str(what),
        }
    }
}

impl Error {
    /// An error at byte `offset` of the input.
    pub(crate) fn at(offset: usize, kind: ErrorKind) -> Self {
        Error {
            inner: Box::new(Inner {
                offset: Some(offset as u64),
                kind,
            }),
        }
    }

    /// An error not at one place.
    pub(crate) fn new(kind: ErrorKind) -> Self {
        Error {
            inner: Box::new(Inner { offset: None, kind }),
        }
    }

    /// Sets the offset if the error has none yet (errors raised by serde visitors do
    /// not know where they are; the deserializer does).
    pub(crate) fn or_at(mut self, offset: usize) -> Self {
        self.inner.offset.get_or_insert(offset as u64);
        self
    }

    /// Byte offset from the start of the metalayer of the value that could not be
    /// decoded; `None` when the error is not at one place (encoding errors, I/O errors).
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// Consumes the error, giving what went wrong.
    pub fn into_kind(self) -> ErrorKind {
        self.inner.kind
    }

    /// True if the input ended too early: more bytes could make it valid.
    pub fn is_eof(&self) -> bool {
        matches!(self.inner.kind, ErrorKind::UnexpectedEnd { .. })
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(e))
    }
}

impl Error {
    /// For a metalayer of another layout than the type asked for (its first byte, the
    /// array header, says which): the type that reads it.
    fn layout_hint(&self) -> Option<&'static str> {
        let ErrorKind::InvalidMarker {
            expected: Expected::Array(5..=7),
            found,
        } = &self.inner.kind
        else {
            return None;
        };
        match (self.inner.offset, found.0) {
            (Some(0), 0x95) => Some("caterva metalayer: read it as `MetaV0Caterva` or `Meta`"),
            (Some(0), 0x96) => Some("draft b2nd metalayer: read it as `MetaB2nd` or `Meta`"),
            (Some(0), 0x97) => Some(
                "b2nd metalayer as C-Blosc2 and python-blosc2 write it: read it as `MetaB2ndV1` or `Meta`",
            ),
            _ => None,
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inner.offset {
            Some(offset) => write!(f, "{} at byte {offset}", self.inner.kind)?,
            None => Display::fmt(&self.inner.kind, f)?,
        }
        match self.layout_hint() {
            Some(hint) => write!(f, " (a {hint})"),
            None => Ok(()),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("offset", &self.inner.offset)
            .field("kind", &self.inner.kind)
            .finish()
    }
}

impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        core::error::Error::source(&self.inner.kind)
    }
}

impl serde::de::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string()))
    }

    fn invalid_value(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        Error::new(ErrorKind::InvalidValue {
            expected: exp.to_string(),
            found: unexp.to_string(),
        })
    }

    fn invalid_length(len: usize, exp: &dyn serde::de::Expected) -> Self {
        Error::new(ErrorKind::InvalidLength {
            expected: exp.to_string(),
            found: len,
        })
    }
}

impl serde::ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::new(ErrorKind::Message(msg.to_string()))
    }
}
