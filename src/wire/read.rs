//! The one reader: a bounds-checked cursor over a byte slice whose errors carry the
//! offset where the offending value starts. The codec (`de`, the view) reads the
//! metalayer format through it, and the frame parser reads frame headers through it.
//! Nothing here knows about serde.

use super::error::{Expected, ReadError, ReadErrorKind};
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

/// The big-endian integers a frame header and a trailer hold after their markers.
macro_rules! big_endian {
    ($($name:ident -> $ty:ty,)*) => {$(
        #[doc = concat!("A big-endian `", stringify!($ty), "` (no marker).")]
        #[inline]
        pub fn $name(&mut self, expected: Expected) -> Result<$ty, ReadError> {
            self.array(expected).map(<$ty>::from_be_bytes)
        }
    )*};
}

/// A marker and a big-endian integer of fixed width: its bytes checked at once, its
/// error (the marker, or the input's end) worked out only when there is one.
macro_rules! fixed_width {
    ($($(#[doc = $doc:literal])* $name:ident -> $ty:ty = $marker:ident, $len:ident, $value:ident, $expected:expr;)*) => {$(
        $(#[doc = $doc])*
        #[inline]
        pub fn $name(&mut self) -> Result<$ty, ReadError> {
            if let Some(entry @ &[$marker, ..]) = self.remaining().first_chunk::<$len>() {
                self.pos += $len;
                return Ok($value(entry));
            }
            Err(self.fixed_error($marker, $expected, $len))
        }
    )*};
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
    pub fn peek(&self, expected: Expected) -> Result<u8, ReadError> {
        match self.input.get(self.pos) {
            Some(&b) => Ok(b),
            None => Err(self.end_error(self.pos, expected, 1)),
        }
    }

    /// `n` bytes starting at the cursor, consumed; `start` and `expected` describe the
    /// value they belong to, for the error when the input is too short.
    #[inline]
    fn take(&mut self, n: usize, start: usize, expected: Expected) -> Result<&'de [u8], ReadError> {
        let rest = self.remaining();
        match rest.get(..n) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => Err(self.end_error(start, expected, n - rest.len())),
        }
    }

    fn end_error(&self, start: usize, expected: Expected, needed: usize) -> ReadError {
        ReadError::at(
            start,
            ReadErrorKind::UnexpectedEnd {
                expected,
                input_len: self.input.len(),
                needed,
            },
        )
    }

    /// Consumes the marker byte if it is `marker`; returns its offset.
    #[inline]
    pub fn marker(&mut self, marker: u8, expected: Expected) -> Result<usize, ReadError> {
        let start = self.pos;
        let found = self.peek(expected)?;
        if found != marker {
            return Err(ReadError::marker(start, expected, found));
        }
        self.pos += 1;
        Ok(start)
    }

    /// One byte.
    #[inline]
    pub fn byte(&mut self, expected: Expected) -> Result<u8, ReadError> {
        let start = self.pos;
        Ok(self.take(1, start, expected)?[0])
    }

    /// `n` bytes, borrowed from the input (nothing is allocated, whatever `n` is).
    #[inline]
    pub fn bytes(&mut self, n: usize, expected: Expected) -> Result<&'de [u8], ReadError> {
        let start = self.pos;
        self.take(n, start, expected)
    }

    /// `N` bytes, copied.
    #[inline]
    pub fn array<const N: usize>(&mut self, expected: Expected) -> Result<[u8; N], ReadError> {
        let start = self.pos;
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, start, expected)?);
        Ok(out)
    }

    big_endian! {
        be_u16 -> u16,
        be_i16 -> i16,
        be_u32 -> u32,
        be_i32 -> i32,
        be_u64 -> u64,
        be_i64 -> i64,
    }

    /// A positive fixint (`0x00..=0x7f`).
    #[inline]
    pub fn read_pfix(&mut self) -> Result<u8, ReadError> {
        match self.input.get(self.pos) {
            Some(&v) if v <= PFIX_MAX => {
                self.pos += 1;
                Ok(v)
            }
            Some(&found) => Err(ReadError::marker(self.pos, Expected::PositiveFixint, found)),
            None => Err(self.end_error(self.pos, Expected::PositiveFixint, 1)),
        }
    }

    // The fixed-width integers of the metalayer format: one bounds check and one
    // compare on the path every valid input takes.
    fixed_width! {
        /// An int64: `0xd3` + 8 bytes big-endian.
        read_int64 -> i64 = INT64, INT64_LEN, int64_value, Expected::Int64;
        /// An int32: `0xd2` + 4 bytes big-endian.
        read_int32 -> i32 = INT32, INT32_LEN, int32_value, Expected::Int32;
    }

    /// Why a fixed-width value of `len` bytes starting with `marker` is not at the cursor.
    #[cold]
    fn fixed_error(&self, marker: u8, expected: Expected, len: usize) -> ReadError {
        let rest = self.remaining();
        match rest.first() {
            None => self.end_error(self.pos, expected, 1),
            Some(&found) if found != marker => ReadError::marker(self.pos, expected, found),
            Some(_) => self.end_error(self.pos, expected, len - rest.len()),
        }
    }

    /// The header of an array of any length `0..=16`; returns the length.
    #[inline]
    pub fn read_array_header(&mut self) -> Result<usize, ReadError> {
        let expected = Expected::AnyArray;
        let found = self.peek(expected)?;
        match found.checked_sub(FIXARRAY) {
            Some(len) if usize::from(len) <= MAX_ARRAY_LEN => {
                self.pos += 1;
                Ok(usize::from(len))
            }
            _ => Err(ReadError::marker(self.pos, expected, found)),
        }
    }

    /// The header of an array of exactly `len` elements.
    #[inline]
    pub fn read_array_header_exact(&mut self, len: usize) -> Result<(), ReadError> {
        let expected = Expected::Array(len);
        match array_header(len) {
            Some(header) => self.marker(header, expected).map(drop),
            None => Err(ReadError::at(
                self.pos,
                ReadErrorKind::TooManyElements { len },
            )),
        }
    }

    /// An array of exactly `n` int64s (the shape): its header, then the entries, each
    /// checked in turn, so that an error names the first bad byte. (The fast path, with
    /// no error plumbing, is `codec::view::check_fast`.)
    pub fn read_int64_array(&mut self, n: usize) -> Result<(), ReadError> {
        self.read_array_header_exact(n)?;
        for _ in 0..n {
            self.read_int64()?;
        }
        Ok(())
    }

    /// An array of exactly `n` int32s (chunkshape, blockshape), as
    /// [`read_int64_array`](Self::read_int64_array).
    pub fn read_int32_array(&mut self, n: usize) -> Result<(), ReadError> {
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
    pub fn read_str32(&mut self) -> Result<&'de str, ReadError> {
        let start = self.pos;
        let bytes = self.read_len32(STR32, Expected::Str32)?;
        core::str::from_utf8(bytes).map_err(|e| {
            ReadError::at(
                start + LEN32_HEADER_LEN + e.valid_up_to(),
                ReadErrorKind::InvalidUtf8 { str_offset: start },
            )
        })
    }

    /// A bin32: `0xc6` + 4-byte big-endian length + that many bytes.
    #[inline]
    pub fn read_bin32(&mut self) -> Result<&'de [u8], ReadError> {
        self.read_len32(BIN32, Expected::Bin32)
    }

    fn read_len32(&mut self, marker: u8, expected: Expected) -> Result<&'de [u8], ReadError> {
        let start = self.marker(marker, expected)?;
        let b = self.take(4, start, expected)?;
        let len = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        // C keeps this length in an `int32_t`: above i32::MAX it is negative there.
        if i32::try_from(len).is_err() {
            return Err(ReadError::at(
                start + 1,
                ReadErrorKind::LengthOutOfRange { len },
            ));
        }
        // Checked against the input before anything is borrowed or allocated.
        self.take(len as usize, start, expected)
    }
}
