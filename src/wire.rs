//! The byte layer: every marker the metalayer format uses, and the functions that write
//! and read them. Nothing here knows about serde; `ser` and `de` never touch bytes
//! except through this module.
//!
//! Widths are fixed by the format, never chosen by the value (see the crate's SPEC):
//!
//! | value                  | bytes                                  |
//! |------------------------|----------------------------------------|
//! | version, ndim, dtype_format | one positive fixint `0x00..=0x7f` |
//! | array of `n <= 16`     | `0x90 + n` (so `0xa0` for 16, as C writes it) |
//! | shape entry            | `0xd3` + 8 bytes big-endian (int64)    |
//! | chunkshape/blockshape entry | `0xd2` + 4 bytes big-endian (int32) |
//! | dtype                  | `0xdb` + 4-byte big-endian length + UTF-8 (str32) |
//! | frame metalayer content | `0xc6` + 4-byte big-endian length + bytes (bin32) |

use core::fmt;

use rmp::Marker;

use crate::error::{Error, ErrorKind, Expected};

/// `0x90`: a fixarray header is this plus the number of elements.
pub const FIXARRAY: u8 = Marker::FixArray(0).to_u8();
/// `0xd2`: int32, followed by 4 bytes big-endian.
pub const INT32: u8 = Marker::I32.to_u8();
/// `0xd3`: int64, followed by 8 bytes big-endian.
pub const INT64: u8 = Marker::I64.to_u8();
/// `0xdb`: str32, followed by a 4-byte big-endian length and the bytes.
pub const STR32: u8 = Marker::Str32.to_u8();
/// `0xc6`: bin32, followed by a 4-byte big-endian length and the bytes.
pub const BIN32: u8 = Marker::Bin32.to_u8();
/// The largest positive fixint.
pub const PFIX_MAX: u8 = 0x7f;
/// The most elements an array may have: C-Blosc2's `B2ND_MAX_DIM`.
///
/// C writes every array header as `0x90 + n` without a guard, so 16 elements give `0xa0`,
/// which generic msgpack reads as an empty fixstr. We read and write it as C does.
pub const MAX_ARRAY_LEN: usize = 16;

/// Size in bytes of an encoded int64 (marker + 8).
pub const INT64_LEN: usize = 9;
/// Size in bytes of an encoded int32 (marker + 4).
pub const INT32_LEN: usize = 5;
/// Size in bytes of a str32 or bin32 header (marker + 4).
pub const LEN32_HEADER_LEN: usize = 5;

/// The positive fixint holding `value`, or `None` when `value > 127`.
#[inline]
pub fn pfix(value: u8) -> Option<u8> {
    (value <= PFIX_MAX).then_some(value)
}

/// The header of an array of `len` elements, or `None` when `len > 16`.
#[inline]
pub fn array_header(len: usize) -> Option<u8> {
    // `len <= 16` so the sum is at most 0xa0: C's unguarded `0x90 + n`.
    (len <= MAX_ARRAY_LEN).then(|| FIXARRAY + len as u8)
}

/// `0xd3` followed by `value` big-endian.
#[inline]
pub fn int64(value: i64) -> [u8; INT64_LEN] {
    let b = value.to_be_bytes();
    [INT64, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]
}

/// `0xd2` followed by `value` big-endian.
#[inline]
pub fn int32(value: i32) -> [u8; INT32_LEN] {
    let b = value.to_be_bytes();
    [INT32, b[0], b[1], b[2], b[3]]
}

/// `marker` (str32 or bin32) followed by `len` as a 4-byte big-endian length, or `None`
/// when `len > i32::MAX` (C stores these lengths in an `int32_t`).
#[inline]
pub fn len32_header(marker: u8, len: usize) -> Option<[u8; LEN32_HEADER_LEN]> {
    let len = i32::try_from(len).ok()?;
    let b = len.to_be_bytes();
    Some([marker, b[0], b[1], b[2], b[3]])
}

/// A marker byte shown with its msgpack name, for error messages: `0xcf (uint64)`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Found(pub u8);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match Marker::from_u8(self.0) {
            Marker::FixPos(_) => "positive fixint",
            Marker::FixNeg(_) => "negative fixint",
            Marker::FixMap(_) => "fixmap",
            // 0xa0 is where C's 16-element array header lands.
            Marker::FixStr(0) => "fixstr of length 0, or C's header of a 16-element array",
            Marker::FixStr(_) => "fixstr",
            Marker::FixArray(_) => "fixarray",
            Marker::Null => "nil",
            Marker::True | Marker::False => "bool",
            Marker::U8 => "uint8",
            Marker::U16 => "uint16",
            Marker::U32 => "uint32",
            Marker::U64 => "uint64",
            Marker::I8 => "int8",
            Marker::I16 => "int16",
            Marker::I32 => "int32",
            Marker::I64 => "int64",
            Marker::F32 => "float32",
            Marker::F64 => "float64",
            Marker::Str8 => "str8",
            Marker::Str16 => "str16",
            Marker::Str32 => "str32",
            Marker::Bin8 => "bin8",
            Marker::Bin16 => "bin16",
            Marker::Bin32 => "bin32",
            Marker::Array16 => "array16",
            Marker::Array32 => "array32",
            Marker::Map16 => "map16",
            Marker::Map32 => "map32",
            Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16
            | Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32 => "ext",
            Marker::Reserved => "reserved marker",
        };
        write!(f, "{:#04x} ({name})", self.0)
    }
}

impl fmt::Debug for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#04x}", self.0)
    }
}

/// A cursor over the input that reads the format's values, each checked, each error
/// carrying the byte offset where the offending value starts.
#[derive(Clone, Debug)]
pub(crate) struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
}

impl<'de> Reader<'de> {
    /// A reader at the start of `input`.
    #[inline]
    pub fn new(input: &'de [u8]) -> Self {
        Reader { input, pos: 0 }
    }

    /// Offset of the next byte to read.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    #[inline]
    pub fn remaining(&self) -> &'de [u8] {
        // `pos <= input.len()` always holds: every advance is bounds-checked first.
        self.input.get(self.pos..).unwrap_or(&[])
    }

    /// Skips `n` bytes already checked by the caller (at most the remaining length).
    #[inline]
    pub fn advance(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.input.len());
    }

    /// The next byte, without consuming it.
    #[inline]
    pub fn peek(&self, expected: Expected) -> Result<u8, Error> {
        match self.input.get(self.pos) {
            Some(&b) => Ok(b),
            None => Err(self.end_error(self.pos, expected, 1)),
        }
    }

    /// `n` bytes starting at the cursor, consumed; `start` and `expected` describe the
    /// value they belong to, for the error when the input is too short.
    #[inline]
    fn take(&mut self, n: usize, start: usize, expected: Expected) -> Result<&'de [u8], Error> {
        let rest = self.remaining();
        match rest.get(..n) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => Err(self.end_error(start, expected, n - rest.len())),
        }
    }

    fn end_error(&self, start: usize, expected: Expected, needed: usize) -> Error {
        Error::at(
            start,
            ErrorKind::UnexpectedEnd {
                expected,
                input_len: self.input.len(),
                needed,
            },
        )
    }

    /// Consumes the marker byte if it is `marker`.
    #[inline]
    fn marker(&mut self, marker: u8, expected: Expected) -> Result<usize, Error> {
        let start = self.pos;
        let found = self.peek(expected)?;
        if found != marker {
            return Err(Error::at(start, ErrorKind::invalid_marker(expected, found)));
        }
        self.pos += 1;
        Ok(start)
    }

    /// A positive fixint (`0x00..=0x7f`).
    #[inline]
    pub fn read_pfix(&mut self) -> Result<u8, Error> {
        match self.input.get(self.pos) {
            Some(&v) if v <= PFIX_MAX => {
                self.pos += 1;
                Ok(v)
            }
            Some(&found) => Err(Error::at(
                self.pos,
                ErrorKind::invalid_marker(Expected::PositiveFixint, found),
            )),
            None => Err(self.end_error(self.pos, Expected::PositiveFixint, 1)),
        }
    }

    /// An int64: `0xd3` + 8 bytes big-endian.
    #[inline]
    pub fn read_int64(&mut self) -> Result<i64, Error> {
        // One bounds check and one compare on the path every valid input takes.
        if let Some(&[INT64, a, b, c, d, e, f, g, h]) = self.remaining().get(..INT64_LEN) {
            self.pos += INT64_LEN;
            return Ok(i64::from_be_bytes([a, b, c, d, e, f, g, h]));
        }
        Err(self.fixed_error(INT64, Expected::Int64, INT64_LEN))
    }

    /// An int32: `0xd2` + 4 bytes big-endian.
    #[inline]
    pub fn read_int32(&mut self) -> Result<i32, Error> {
        if let Some(&[INT32, a, b, c, d]) = self.remaining().get(..INT32_LEN) {
            self.pos += INT32_LEN;
            return Ok(i32::from_be_bytes([a, b, c, d]));
        }
        Err(self.fixed_error(INT32, Expected::Int32, INT32_LEN))
    }

    /// Why a fixed-width value of `len` bytes starting with `marker` is not at the cursor.
    #[cold]
    fn fixed_error(&self, marker: u8, expected: Expected, len: usize) -> Error {
        let rest = self.remaining();
        match rest.first() {
            None => self.end_error(self.pos, expected, 1),
            Some(&found) if found != marker => {
                Error::at(self.pos, ErrorKind::invalid_marker(expected, found))
            }
            Some(_) => self.end_error(self.pos, expected, len - rest.len()),
        }
    }

    /// The header of an array of any length `0..=16`; returns the length.
    #[inline]
    pub fn read_array_header(&mut self) -> Result<usize, Error> {
        let expected = Expected::AnyArray;
        let found = self.peek(expected)?;
        match found.checked_sub(FIXARRAY) {
            Some(len) if usize::from(len) <= MAX_ARRAY_LEN => {
                self.pos += 1;
                Ok(usize::from(len))
            }
            _ => Err(Error::at(
                self.pos,
                ErrorKind::invalid_marker(expected, found),
            )),
        }
    }

    /// The header of an array of exactly `len` elements.
    #[inline]
    pub fn read_array_header_exact(&mut self, len: usize) -> Result<(), Error> {
        let expected = Expected::Array(len);
        match array_header(len) {
            Some(header) => self.marker(header, expected).map(drop),
            None => Err(Error::at(self.pos, ErrorKind::TooManyElements { len })),
        }
    }

    /// A str32: `0xdb` + 4-byte big-endian length + that many bytes of UTF-8.
    /// Borrowed from the input: nothing is allocated, whatever the length claims.
    #[inline]
    pub fn read_str32(&mut self) -> Result<&'de str, Error> {
        let start = self.pos;
        let bytes = self.read_len32(STR32, Expected::Str32)?;
        core::str::from_utf8(bytes).map_err(|e| {
            Error::at(
                start + LEN32_HEADER_LEN + e.valid_up_to(),
                ErrorKind::InvalidUtf8 { str_offset: start },
            )
        })
    }

    /// A bin32: `0xc6` + 4-byte big-endian length + that many bytes.
    #[inline]
    pub fn read_bin32(&mut self) -> Result<&'de [u8], Error> {
        self.read_len32(BIN32, Expected::Bin32)
    }

    fn read_len32(&mut self, marker: u8, expected: Expected) -> Result<&'de [u8], Error> {
        let start = self.marker(marker, expected)?;
        let b = self.take(4, start, expected)?;
        let len = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        // C keeps this length in an `int32_t`: above i32::MAX it is negative there.
        if i32::try_from(len).is_err() {
            return Err(Error::at(start + 1, ErrorKind::LengthOutOfRange { len }));
        }
        // Checked against the input before anything is borrowed or allocated.
        self.take(len as usize, start, expected)
    }
}
