//! Raw access, a protocol of this format's [`Deserializer`]: a `Deserialize` impl may
//! read the remaining input as borrowed bytes, decode it directly, and say how many
//! bytes it used, or else decode it the ordinary way at the same place.
//!
//! It asks with `deserialize_newtype_struct(RAW, visitor)`. Other deserializers treat
//! that as any newtype struct (`visit_newtype_struct`, the ordinary way); this one calls
//! `visit_seq` with an access whose elements are, in order:
//! 1. the remaining input, as borrowed bytes (`visit_borrowed_bytes`);
//! 2. a sink for the number of bytes used: the seed calls `deserialize_tuple(used, _)`,
//!    and the deserializer moves past them (refusing, for [`crate::from_slice`], the
//!    bytes after them; 0 says nothing was decoded directly);
//! 3. this deserializer itself, at the same place, for the ordinary way (which names
//!    the first bad byte with this format's errors).
//!
//! The metalayer types use it to decode through `MetaRef`, the one direct reader.

use serde::de::{self, DeserializeSeed, Visitor};

use super::deserializer::Deserializer;
use crate::meta::error::{Error, ErrorKind, Result};

/// The newtype-struct name that asks for raw access.
pub(crate) const RAW: &str = "\0b2nd_meta::raw";

/// The elements of the raw-access protocol; see the module's docs.
pub(super) struct RawAccess<'a, 'de> {
    pub de: &'a mut Deserializer<'de>,
    pub step: u8,
}

impl<'de> de::SeqAccess<'de> for RawAccess<'_, 'de> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let step = self.step;
        self.step = step.saturating_add(1);
        match step {
            0 => seed.deserialize(Bytes(self.de.remaining())).map(Some),
            1 => {
                let mut used = None;
                let value = seed.deserialize(Used(&mut used))?;
                match used {
                    Some(n) if n <= self.de.remaining().len() => {
                        let end = self.de.position() + n;
                        // A value decoded directly ends here: refuse what follows
                        // before the value is built (0 means the ordinary way follows).
                        if let (1.., Some(e)) = (n, self.de.trailing_at(end)) {
                            return Err(e);
                        }
                        self.de.reader.advance(n);
                        Ok(Some(value))
                    }
                    _ => Err(protocol_error()),
                }
            }
            2 => seed.deserialize(&mut *self.de).map(Some),
            _ => Ok(None),
        }
    }
}

#[cold]
fn protocol_error() -> Error {
    Error::new(ErrorKind::Message(
        "raw access: the bytes used must be reported as a tuple length within the input".into(),
    ))
}

/// The remaining input, as borrowed bytes.
struct Bytes<'de>(&'de [u8]);

impl<'de> de::Deserializer<'de> for Bytes<'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.0)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map struct
        enum identifier ignored_any
    }
}

/// Takes the number of bytes used, as a tuple length.
struct Used<'a>(&'a mut Option<usize>);

impl<'de> de::Deserializer<'de> for Used<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(protocol_error())
    }

    #[inline]
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        *self.0 = Some(len);
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple_struct map struct
        enum identifier ignored_any
    }
}
