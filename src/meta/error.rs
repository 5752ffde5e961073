//! [`Error`]: why a metalayer does not encode or decode, and at which byte.

use alloc::string::{String, ToString};
use core::fmt::Display;

use crate::located::{Class, Kind, Located};
use crate::wire::marker::FIXARRAY;
pub use crate::wire::{Expected, Found};
use crate::wire::{ReadError, ReadErrorKind};

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
pub type Error = Located<ErrorKind>;

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
    /// Arrays or maps nested deeper than `max` levels: a metalayer nests two deep, a
    /// msgpack value at most [`crate::value::MAX_DEPTH`].
    #[error("expected arrays and maps nested at most {max} deep, found {found} deeper")]
    TooDeep {
        /// The bound.
        max: usize,
        /// What was found past it: `"an array"`, `"a map"`, `"a set"`, `"a NumPy array"`.
        found: &'static str,
    },
    /// A msgpack value of more values (its elements, keys and their own, each held as
    /// a [`Value`](crate::value::Value)) than the caller's budget holds.
    #[error("expected at most {max} values in all (what the decode budget holds), found more")]
    TooManyValues {
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

impl Error {
    /// True if the input ended too early: more bytes could make it valid.
    pub fn is_eof(&self) -> bool {
        matches!(self.kind(), ErrorKind::UnexpectedEnd { .. })
    }
}

impl Kind for ErrorKind {
    fn class(&self) -> Class {
        use ErrorKind::*;
        match self {
            UnexpectedEnd { .. } => Class::Truncated,
            InvalidMarker { .. } | LengthOutOfRange { .. } | InvalidUtf8 { .. } => Class::Syntax,
            TrailingBytes { .. } => Class::Syntax,
            InvalidValue { .. } | InvalidLength { .. } | Message(_) => Class::Invalid,
            TooManyElements { .. }
            | TooDeep { .. }
            | TooManyValues { .. }
            | BufferTooSmall { .. } => Class::TooLarge,
            UnsupportedType(_) => Class::Unsupported,
            Unencodable { .. } => Class::Refused,
            #[cfg(feature = "std")]
            Io(_) => Class::Io,
        }
    }

    /// For a metalayer of another layout than the type asked for (its first byte, the
    /// array header, says which): the type that reads it.
    fn note(&self, offset: Option<u64>) -> Option<&'static str> {
        let ErrorKind::InvalidMarker {
            expected: Expected::Array(5..=7),
            found,
        } = self
        else {
            return None;
        };
        // The array header of 5, 6 or 7 elements that the metalayer starts with.
        match (offset, found.0.wrapping_sub(FIXARRAY)) {
            (Some(0), 5) => Some("a caterva metalayer: read it as `MetaV0Caterva` or `Meta`"),
            (Some(0), 6) => Some("a draft b2nd metalayer: read it as `MetaB2nd` or `Meta`"),
            (Some(0), 7) => Some(
                "a b2nd metalayer as C-Blosc2 and python-blosc2 write it: read it as `MetaB2ndV1` or `Meta`",
            ),
            _ => None,
        }
    }
}

/// The byte layer's error, as the metalayer format's: the same kind, at the same byte.
impl From<ReadError> for Error {
    #[cold]
    fn from(e: ReadError) -> Self {
        let (offset, kind) = e.into_parts();
        let kind = match kind {
            ReadErrorKind::UnexpectedEnd {
                expected,
                input_len,
                needed,
            } => ErrorKind::UnexpectedEnd {
                expected,
                input_len,
                needed,
            },
            ReadErrorKind::InvalidMarker { expected, found } => {
                ErrorKind::InvalidMarker { expected, found }
            }
            ReadErrorKind::LengthOutOfRange { len } => ErrorKind::LengthOutOfRange { len },
            ReadErrorKind::InvalidUtf8 { str_offset } => ErrorKind::InvalidUtf8 { str_offset },
            ReadErrorKind::TooManyElements { len } => ErrorKind::TooManyElements { len },
        };
        Error::at(offset, kind)
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
