//! The serde `Deserializer` impl of the fixed-width format: each `deserialize_*` call
//! accepts exactly the one encoding the serializer writes for that type.

use serde::de::{self, DeserializeSeed, IgnoredAny, Visitor};

use super::deserializer::{Deserializer, MAX_DEPTH};
use super::raw;
use crate::meta::error::{Error, ErrorKind, Result};
use crate::wire::write;
use crate::wire::Expected;

impl<'de> Deserializer<'de> {
    #[inline]
    fn seq<V: Visitor<'de>>(&mut self, start: usize, len: usize, visitor: V) -> Result<V::Value> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::at(
                start,
                ErrorKind::TooDeep {
                    max: MAX_DEPTH,
                    found: "an array",
                },
            ));
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
