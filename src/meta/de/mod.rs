//! The serde `Deserializer` of the fixed-width format.
//!
//! Each `deserialize_*` call accepts exactly the one encoding [`crate::meta::ser`] writes for
//! that type (an `i64` must be `0xd3` + 8 bytes, never a compact fixint), so strictness
//! comes from the types being read. Errors carry the offset of the value that failed.

use serde::de::{self, DeserializeSeed, IgnoredAny, Visitor};
use serde::Deserialize;

use crate::meta::error::{Error, ErrorKind, Result};
use crate::wire::Expected;

#[cfg(feature = "std")]
pub(crate) mod io;
mod raw;
use crate::wire::read::Reader;
use crate::wire::write;
pub(crate) use raw::RAW;

/// A serde `Deserializer` reading the fixed-width metalayer format from a byte slice.
///
/// Strings and byte strings are borrowed from the input. Use [`Deserializer::end`] to
/// refuse trailing bytes, or [`Deserializer::position`] to learn where a value ended.
///
/// ```
/// use serde::Deserialize;
///
/// let bytes = [0x92, 0x07, 0xd2, 0x00, 0x00, 0x00, 0x2a, 0xff];
/// let mut de = b2nd_meta::Deserializer::from_slice(&bytes);
/// let value = <(u8, i32)>::deserialize(&mut de).unwrap();
/// assert_eq!(value, (7, 42));
/// assert_eq!(de.position(), 7);
/// assert!(de.end().is_err()); // the 0xff is left over
/// ```
#[derive(Clone, Debug)]
pub struct Deserializer<'de> {
    reader: Reader<'de>,
    /// Arrays open around the current position, bounded by [`MAX_DEPTH`].
    depth: usize,
    /// Whether the top-level value must fill the input ([`crate::from_slice`]): then
    /// trailing bytes are refused where that value ends, so that the value is returned
    /// where it was built rather than moved past a check.
    whole: bool,
}

/// How deeply arrays may nest. A metalayer nests two deep; the bound keeps a crafted
/// input (`0x91 0x91 0x91 ...`) from exhausting the stack through `deserialize_any`.
pub const MAX_DEPTH: usize = 32;

impl<'de> Deserializer<'de> {
    /// A deserializer at the start of `input`.
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            reader: Reader::new(input),
            depth: 0,
            whole: false,
        }
    }

    /// A deserializer whose top-level value must fill all of `input`.
    #[inline]
    pub(crate) fn whole(input: &'de [u8]) -> Self {
        Deserializer {
            whole: true,
            ..Deserializer::from_slice(input)
        }
    }

    /// Whether the top-level value ends `at` while bytes follow that the input must not
    /// have: the error for them.
    #[inline]
    fn trailing_at(&self, at: usize) -> Option<Error> {
        let len = self.reader.input_len();
        if !self.whole || self.depth != 0 || at >= len {
            return None;
        }
        Some(Error::at(at, ErrorKind::TrailingBytes { count: len - at }))
    }

    /// A value read by the deserializer itself (not by a nested visitor): located at
    /// `start`, and refused when it is the top-level value of a whole input and does
    /// not end it.
    #[inline]
    fn finish<T>(&self, start: usize, result: Result<T>) -> Result<T> {
        let value = Self::located(start, result)?;
        match self.trailing_at(self.position()) {
            None => Ok(value),
            Some(e) => Err(e),
        }
    }

    /// Offset of the next byte to read: after a value, its length.
    pub fn position(&self) -> usize {
        self.reader.position()
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> &'de [u8] {
        self.reader.remaining()
    }

    /// Succeeds only if the whole input has been read.
    pub fn end(&self) -> Result<()> {
        match self.reader.remaining().len() {
            0 => Ok(()),
            count => Err(Error::at(
                self.reader.position(),
                ErrorKind::TrailingBytes { count },
            )),
        }
    }

    /// Runs a visitor call for the value starting at `start`, giving its errors that
    /// offset when they have none (visitors cannot know where they are).
    #[inline]
    fn located<T>(start: usize, result: Result<T>) -> Result<T> {
        result.map_err(|e| e.or_at(start))
    }

    #[inline]
    fn seq<V: Visitor<'de>>(&mut self, start: usize, len: usize, visitor: V) -> Result<V::Value> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::at(start, ErrorKind::TooDeep { max: MAX_DEPTH }));
        }
        self.depth += 1;
        let mut access = SeqAccess {
            de: self,
            remaining: len,
        };
        let value = Self::located(start, visitor.visit_seq(&mut access));
        access.de.depth -= 1;
        let value = value?;
        if access.remaining != 0 {
            // The visitor stopped early: the layout has more elements than it takes.
            return Err(Error::at(
                start,
                ErrorKind::InvalidLength {
                    expected: alloc::format!("{} element(s)", len - access.remaining),
                    found: len,
                },
            ));
        }
        match self.trailing_at(self.position()) {
            None => Ok(value),
            Some(e) => Err(e),
        }
    }
}

fn unsupported<T>(type_name: &'static str) -> Result<T> {
    Err(Error::new(ErrorKind::UnsupportedType(type_name)))
}

macro_rules! unsupported {
    ($($method:ident => $name:literal,)*) => {$(
        fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
            unsupported($name).map_err(|e: Error| e.or_at(self.position()))
        }
    )*};
}

/// `deserialize_*` of a value the reader reads in one call (`read`), handed to the
/// visitor's `visit`, with the error placed at the value's first byte.
macro_rules! scalars {
    ($($method:ident => $read:ident, $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.position();
            let v = self.reader.$read()?;
            self.finish(start, visitor.$visit(v))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        false
    }

    /// The format is self-describing: each marker names its type.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.position();
        match self.reader.peek(Expected::AnyValue)? {
            0x00..=write::PFIX_MAX => self.deserialize_u8(visitor),
            write::INT32 => self.deserialize_i32(visitor),
            write::INT64 => self.deserialize_i64(visitor),
            write::STR32 => self.deserialize_str(visitor),
            write::BIN32 => self.deserialize_bytes(visitor),
            b if (write::FIXARRAY..=write::FIXARRAY + write::MAX_ARRAY_LEN as u8).contains(&b) => {
                self.deserialize_seq(visitor)
            }
            found => Err(Error::at(
                start,
                ErrorKind::invalid_marker(Expected::AnyValue, found),
            )),
        }
    }

    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    // The format's fixed-width values: read, then handed to the visitor.
    scalars! {
        deserialize_u8 => read_pfix, visit_u8;
        deserialize_i32 => read_int32, visit_i32;
        deserialize_i64 => read_int64, visit_i64;
        deserialize_str => read_str32, visit_borrowed_str;
        deserialize_bytes => read_bin32, visit_borrowed_bytes;
    }

    #[inline]
    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    /// An array of any length `0..=16`; the visitor sees the exact length as its
    /// `size_hint`, which is how [`crate::Meta`] tells the layouts apart.
    #[inline]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.position();
        let len = self.reader.read_array_header()?;
        self.seq(start, len, visitor)
    }

    /// An array of exactly `len` elements: its header must be `0x90 + len`.
    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        let start = self.position();
        self.reader.read_array_header_exact(len)?;
        self.seq(start, len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    /// Structs are arrays of their fields, in order, as [`crate::Serializer`] writes them.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(fields.len(), visitor)
    }

    /// A newtype struct is its content, except for the raw-access protocol
    /// (`raw.rs`).
    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == raw::RAW {
            return visitor.visit_seq(raw::RawAccess { de: self, step: 0 });
        }
        let start = self.position();
        let value = visitor.visit_newtype_struct(&mut *self);
        // Its content was checked where it ended, unless the visitor read none.
        self.finish(start, value)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(IgnoredAny)?;
        visitor.visit_unit()
    }

    unsupported! {
        deserialize_bool => "bool",
        deserialize_i8 => "i8",
        deserialize_i16 => "i16",
        deserialize_u16 => "u16",
        deserialize_u32 => "u32",
        deserialize_u64 => "u64",
        deserialize_f32 => "f32",
        deserialize_f64 => "f64",
        deserialize_char => "char",
        deserialize_option => "Option",
        deserialize_unit => "()",
        deserialize_map => "a map",
        deserialize_identifier => "an identifier",
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Result<V::Value> {
        unsupported("a unit struct")
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        unsupported("an enum")
    }
}

/// The elements of one array; `size_hint` is exact.
struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    remaining: usize,
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        let start = self.de.position();
        Deserializer::located(start, seed.deserialize(&mut *self.de)).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

/// Decodes a value that fills all of `bytes`; trailing bytes are an error
/// ([`ErrorKind::TrailingBytes`]). Use [`take_from_slice`] when more may follow.
///
/// ```
/// use b2nd_meta::{ErrorKind, MetaV0Caterva};
///
/// let bytes = [0x95, 0x00, 0x00, 0x90, 0x90, 0x90];
/// assert_eq!(b2nd_meta::from_slice::<MetaV0Caterva>(&bytes).unwrap(), MetaV0Caterva::default());
///
/// let err = b2nd_meta::from_slice::<MetaV0Caterva>(&[0x95, 0x00, 0x00, 0x90, 0x90, 0x90, 0x00])
///     .unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::TrailingBytes { count: 1 }));
/// assert_eq!(err.offset(), Some(6));
/// ```
#[inline]
pub fn from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T> {
    // The deserializer refuses trailing bytes where the value ends, so the value is
    // returned where it was built, with no check (and move) after it.
    T::deserialize(&mut Deserializer::whole(bytes))
}

/// Decodes a value at the start of `bytes` and returns it with the bytes after it.
///
/// This is how C-Blosc2 reads a metalayer: it returns the number of bytes consumed, and
/// a content updated in place with `blosc2_meta_update` can be followed by stale bytes.
///
/// ```
/// use b2nd_meta::Meta;
///
/// let bytes = [0x95, 0x00, 0x00, 0x90, 0x90, 0x90, 0xde, 0xad];
/// let (meta, rest): (Meta, _) = b2nd_meta::take_from_slice(&bytes).unwrap();
/// assert_eq!(meta.ndim(), 0);
/// assert_eq!(rest, [0xde, 0xad]);
/// ```
pub fn take_from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<(T, &'a [u8])> {
    let mut de = Deserializer::from_slice(bytes);
    let value = T::deserialize(&mut de)?;
    Ok((value, de.remaining()))
}
