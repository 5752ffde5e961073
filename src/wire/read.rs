//! The one reader: a bounds-checked cursor over a byte slice whose errors carry the
//! offset where the offending value starts. The codec (`de`, the view) reads the
//! metalayer format through it, and the frame parser reads frame headers through it.
//! Nothing here knows about serde.

use crate::meta::error::{Error, ErrorKind, Expected};
use crate::wire::marker::{BIN32, FIXARRAY, INT32, INT64, PFIX_MAX, STR32};
use crate::wire::write::{array_header, INT32_LEN, INT64_LEN, LEN32_HEADER_LEN, MAX_ARRAY_LEN};

/// The value of an int64 whose marker was checked.
#[inline(always)]
pub(crate) fn int64_value(entry: &[u8; INT64_LEN]) -> i64 {
    let [_, a, b, c, d, e, f, g, h] = *entry;
    i64::from_be_bytes([a, b, c, d, e, f, g, h])
}

/// The value of an int32 whose marker was checked.
#[inline(always)]
pub(crate) fn int32_value(entry: &[u8; INT32_LEN]) -> i32 {
    let [_, a, b, c, d] = *entry;
    i32::from_be_bytes([a, b, c, d])
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

    /// A reader over `input` whose cursor starts at `pos` (clamped to the input), so
    /// that a value nested inside another (a msgpack ext payload) is read with offsets
    /// counted from the start of the whole content: pass the content cut at the end of
    /// the payload and the payload's start.
    #[inline]
    pub fn new_at(input: &'de [u8], pos: usize) -> Self {
        Reader {
            input,
            pos: pos.min(input.len()),
        }
    }

    /// Offset of the next byte to read.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Length of the whole input.
    #[inline]
    pub fn input_len(&self) -> usize {
        self.input.len()
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

    /// Consumes the marker byte if it is `marker`; returns its offset.
    #[inline]
    pub fn marker(&mut self, marker: u8, expected: Expected) -> Result<usize, Error> {
        let start = self.pos;
        let found = self.peek(expected)?;
        if found != marker {
            return Err(Error::at(start, ErrorKind::invalid_marker(expected, found)));
        }
        self.pos += 1;
        Ok(start)
    }

    /// One byte.
    #[inline]
    pub fn byte(&mut self, expected: Expected) -> Result<u8, Error> {
        let start = self.pos;
        Ok(self.take(1, start, expected)?[0])
    }

    /// `n` bytes, borrowed from the input (nothing is allocated, whatever `n` is).
    #[inline]
    pub fn bytes(&mut self, n: usize, expected: Expected) -> Result<&'de [u8], Error> {
        let start = self.pos;
        self.take(n, start, expected)
    }

    /// `N` bytes, copied.
    #[inline]
    pub fn array<const N: usize>(&mut self, expected: Expected) -> Result<[u8; N], Error> {
        let start = self.pos;
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, start, expected)?);
        Ok(out)
    }

    /// A big-endian `u16` (no marker).
    #[inline]
    pub fn be_u16(&mut self, expected: Expected) -> Result<u16, Error> {
        self.array(expected).map(u16::from_be_bytes)
    }

    /// A big-endian `i16` (no marker).
    #[inline]
    pub fn be_i16(&mut self, expected: Expected) -> Result<i16, Error> {
        self.array(expected).map(i16::from_be_bytes)
    }

    /// A big-endian `u32` (no marker).
    #[inline]
    pub fn be_u32(&mut self, expected: Expected) -> Result<u32, Error> {
        self.array(expected).map(u32::from_be_bytes)
    }

    /// A big-endian `i32` (no marker).
    #[inline]
    pub fn be_i32(&mut self, expected: Expected) -> Result<i32, Error> {
        self.array(expected).map(i32::from_be_bytes)
    }

    /// A big-endian `u64` (no marker).
    #[inline]
    pub fn be_u64(&mut self, expected: Expected) -> Result<u64, Error> {
        self.array(expected).map(u64::from_be_bytes)
    }

    /// A big-endian `i64` (no marker).
    #[inline]
    pub fn be_i64(&mut self, expected: Expected) -> Result<i64, Error> {
        self.array(expected).map(i64::from_be_bytes)
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
        if let Some(entry @ &[INT64, ..]) = self.remaining().first_chunk::<INT64_LEN>() {
            self.pos += INT64_LEN;
            return Ok(int64_value(entry));
        }
        Err(self.fixed_error(INT64, Expected::Int64, INT64_LEN))
    }

    /// An int32: `0xd2` + 4 bytes big-endian.
    #[inline]
    pub fn read_int32(&mut self) -> Result<i32, Error> {
        if let Some(entry @ &[INT32, ..]) = self.remaining().first_chunk::<INT32_LEN>() {
            self.pos += INT32_LEN;
            return Ok(int32_value(entry));
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

    /// An array of exactly `n` int64s (the shape): its header, then the entries, each
    /// checked in turn, so that an error names the first bad byte. (The fast path, with
    /// no error plumbing, is `codec::view::check_fast`.)
    pub fn read_int64_array(&mut self, n: usize) -> Result<(), Error> {
        self.read_array_header_exact(n)?;
        for _ in 0..n {
            self.read_int64()?;
        }
        Ok(())
    }

    /// An array of exactly `n` int32s (chunkshape, blockshape), as
    /// [`read_int64_array`](Self::read_int64_array).
    pub fn read_int32_array(&mut self, n: usize) -> Result<(), Error> {
        self.read_array_header_exact(n)?;
        for _ in 0..n {
            self.read_int32()?;
        }
        Ok(())
    }

    /// The fast path of [`read_pfix`](Self::read_pfix).
    #[inline(always)]
    pub fn try_pfix(&mut self) -> Option<u8> {
        let v = *self.input.get(self.pos)?;
        if v > PFIX_MAX {
            return None;
        }
        self.pos += 1;
        Some(v)
    }

    /// The fast path of [`read_str32`](Self::read_str32), returning the checked bytes.
    #[inline(always)]
    pub fn try_str32_bytes(&mut self) -> Option<&'de [u8]> {
        let rest = self.remaining();
        let (&[marker, a, b, c, d], rest) = rest.split_first_chunk::<LEN32_HEADER_LEN>()?;
        let len = u32::from_be_bytes([a, b, c, d]);
        // C keeps this length in an `int32_t`.
        if marker != STR32 || i32::try_from(len).is_err() {
            return None;
        }
        let bytes = rest.get(..len as usize)?;
        // A loop rather than `is_ascii`, which calls out for a dtype of a few bytes.
        if bytes.iter().any(|&b| b >= 0x80) {
            core::str::from_utf8(bytes).ok()?;
        }
        self.pos += LEN32_HEADER_LEN + bytes.len();
        Some(bytes)
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
