//! The byte layer's one error ([`ReadError`]: what the reader wanted and found, at
//! which byte), and the words it is said in ([`Expected`], [`Found`]), which the
//! metalayer format's error and the frame's errors use too.

use alloc::boxed::Box;
use core::fmt::{self, Display};

use super::marker;

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

/// Why the reader stopped, and where: the offset of the value it was reading.
pub(crate) struct ReadError {
    // Boxed so that the reader's results stay two words wide on the hot path.
    inner: Box<(usize, ReadErrorKind)>,
}

/// What the reader found wrong.
pub(crate) enum ReadErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd {
        /// The value being read.
        expected: Expected,
        /// Length of the whole input.
        input_len: usize,
        /// How many bytes are missing.
        needed: usize,
    },
    /// A marker byte other than the one the format puts here.
    InvalidMarker {
        /// The marker the format requires here.
        expected: Expected,
        /// The byte found instead.
        found: Found,
    },
    /// A str32 or bin32 length above `i32::MAX` (negative in C's `int32_t`).
    LengthOutOfRange {
        /// The length read.
        len: u32,
    },
    /// A string that is not UTF-8; the error's offset is the first invalid byte.
    InvalidUtf8 {
        /// Offset of the str32 marker.
        str_offset: usize,
    },
    /// An array of more than 16 elements was asked for.
    TooManyElements {
        /// The length asked for.
        len: usize,
    },
}

impl ReadError {
    /// An error at byte `offset` of the input.
    #[cold]
    pub(crate) fn at(offset: usize, kind: ReadErrorKind) -> Self {
        ReadError {
            inner: Box::new((offset, kind)),
        }
    }

    /// A wrong marker at byte `offset`.
    #[cold]
    pub(crate) fn marker(offset: usize, expected: Expected, found: u8) -> Self {
        let found = Found(found);
        ReadError::at(offset, ReadErrorKind::InvalidMarker { expected, found })
    }

    /// Where, and what.
    pub(crate) fn into_parts(self) -> (usize, ReadErrorKind) {
        *self.inner
    }
}
