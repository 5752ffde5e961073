//! The serde `Serializer` of the fixed-width format.
//!
//! Each serde type maps to exactly one encoding, whatever the value (see [`crate::wire::write`]):
//! `u8` is a positive fixint, `i32` an int32, `i64` an int64, `str` a str32, bytes a
//! bin32, and sequences, tuples and structs an array of at most 16 elements. Every other
//! serde type is refused with [`ErrorKind::UnsupportedType`].

use alloc::string::ToString;
use alloc::vec::Vec;

use serde::ser::{self, Serialize};

use crate::meta::error::{Error, ErrorKind, Result};
use crate::wire::write;

/// Where the serializer puts bytes.
///
/// Implemented for `Vec<u8>` (grows) and `&mut` of any output; [`to_slice`] writes
/// into a caller's buffer (no allocation) and [`to_writer`] into any `std::io::Write`
/// through outputs of their own.
#[cfg_attr(
    not(feature = "std"),
    doc = "",
    doc = "[`to_writer`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/fn.to_writer.html"
)]
pub trait Output {
    /// Appends all of `bytes`, or fails without a partial write being reported as success.
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()>;
}

impl Output for Vec<u8> {
    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

impl<O: Output + ?Sized> Output for &mut O {
    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).write_bytes(bytes)
    }
}

/// A caller's buffer filled from the start; see [`crate::to_slice`].
#[derive(Debug)]
pub(crate) struct SliceOutput<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceOutput<'a> {
    /// An output writing into `buf` from its first byte.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceOutput { buf, len: 0 }
    }

    /// How many bytes have been written.
    pub fn len(&self) -> usize {
        self.len
    }
}

impl SliceOutput<'_> {
    #[cold]
    fn too_small(&self, more: usize) -> Error {
        Error::new(ErrorKind::BufferTooSmall {
            needed: self.len.saturating_add(more),
            available: self.buf.len(),
        })
    }
}

impl Output for SliceOutput<'_> {
    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        // `len <= buf.len()` always holds, so the subtraction cannot underflow.
        match self.buf.get_mut(self.len..) {
            Some(rest) if bytes.len() <= rest.len() => {
                rest[..bytes.len()].copy_from_slice(bytes);
                self.len += bytes.len();
                Ok(())
            }
            _ => Err(self.too_small(bytes.len())),
        }
    }
}

/// Any `std::io::Write` as an [`Output`]; see [`crate::to_writer`].
#[cfg(feature = "std")]
#[derive(Debug)]
pub(crate) struct IoOutput<W>(pub W);

#[cfg(feature = "std")]
impl<W: std::io::Write> Output for IoOutput<W> {
    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.0.write_all(bytes).map_err(Error::from)
    }
}

/// A serde `Serializer` writing the fixed-width metalayer format into an [`Output`].
///
/// ```
/// use serde::Serialize;
///
/// let mut out = Vec::new();
/// (7u8, -1i64).serialize(&mut b2nd_meta::Serializer::new(&mut out)).unwrap();
/// assert_eq!(out, [0x92, 0x07, 0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
/// ```
#[derive(Debug)]
pub struct Serializer<O> {
    out: O,
}

impl<O: Output> Serializer<O> {
    /// A serializer writing into `out`.
    pub fn new(out: O) -> Self {
        Serializer { out }
    }

    /// Gives back the output.
    pub fn into_inner(self) -> O {
        self.out
    }

    #[inline]
    fn array_header(&mut self, len: Option<usize>) -> Result<()> {
        let len = len.ok_or_else(|| {
            Error::new(ErrorKind::Unencodable {
                what: "a sequence",
                problem: "its length must be known before its elements".to_string(),
            })
        })?;
        let header = write::array_header(len)
            .ok_or_else(|| Error::new(ErrorKind::TooManyElements { len }))?;
        self.out.write_bytes(&[header])
    }

    #[inline]
    fn len32(&mut self, marker: u8, what: &'static str, bytes: &[u8]) -> Result<()> {
        let header = write::len32_header(marker, bytes.len()).ok_or_else(|| {
            Error::new(ErrorKind::Unencodable {
                what,
                problem: alloc::format!(
                    "its length {} exceeds i32::MAX, the most C-Blosc2 can store",
                    bytes.len()
                ),
            })
        })?;
        self.out.write_bytes(&header)?;
        self.out.write_bytes(bytes)
    }
}

fn unsupported<T>(type_name: &'static str) -> Result<T> {
    Err(Error::new(ErrorKind::UnsupportedType(type_name)))
}

/// Serializer methods for the serde types the format has no encoding for.
macro_rules! unsupported {
    ($($method:ident($ty:ty) => $name:literal,)*) => {$(
        fn $method(self, _: $ty) -> Result<()> {
            unsupported($name)
        }
    )*};
}

impl<O: Output> ser::Serializer for &mut Serializer<O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = Self;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn is_human_readable(&self) -> bool {
        false
    }

    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        let byte = write::pfix(v).ok_or_else(|| {
            Error::new(ErrorKind::Unencodable {
                what: "a u8",
                problem: alloc::format!("{v} does not fit a positive fixint (0..=127)"),
            })
        })?;
        self.out.write_bytes(&[byte])
    }

    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.out.write_bytes(&write::int32(v))
    }

    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.out.write_bytes(&write::int64(v))
    }

    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.len32(write::STR32, "a string", v.as_bytes())
    }

    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.len32(write::BIN32, "a byte string", v)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Self> {
        self.array_header(len)?;
        Ok(self)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Self> {
        self.array_header(Some(len))?;
        Ok(self)
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Self> {
        self.array_header(Some(len))?;
        Ok(self)
    }

    /// Structs are written as arrays of their fields, in order, without names.
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Self> {
        self.array_header(Some(len))?;
        Ok(self)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }

    unsupported! {
        serialize_bool(bool) => "bool",
        serialize_i8(i8) => "i8",
        serialize_i16(i16) => "i16",
        serialize_u16(u16) => "u16",
        serialize_u32(u32) => "u32",
        serialize_u64(u64) => "u64",
        serialize_f32(f32) => "f32",
        serialize_f64(f64) => "f64",
        serialize_char(char) => "char",
    }

    fn serialize_none(self) -> Result<()> {
        unsupported("Option")
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        unsupported("Option")
    }
    fn serialize_unit(self) -> Result<()> {
        unsupported("()")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        unsupported("a unit struct")
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<()> {
        unsupported("an enum")
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        unsupported("an enum")
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        unsupported("an enum")
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        unsupported("a map")
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        unsupported("an enum")
    }
}

/// Sequences, tuples and tuple structs are arrays whose elements follow their header:
/// each element is serialized in turn, and nothing closes them.
macro_rules! compound {
    ($($trait:ident::$method:ident),*) => {$(
        impl<O: Output> ser::$trait for &mut Serializer<O> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut **self)
            }
            #[inline]
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl<O: Output> ser::SerializeStruct for &mut Serializer<O> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        _key: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// Encodes `value` into a new vector.
///
/// ```
/// let bytes = b2nd_meta::to_vec(&b2nd_meta::MetaV0Caterva::default()).unwrap();
/// assert_eq!(bytes, [0x95, 0x00, 0x00, 0x90, 0x90, 0x90]);
/// ```
#[inline]
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    // One allocation instead of a chain of reallocations from empty: 384 bytes hold any
    // metalayer (12 + 19 * 16 bytes at most) with a dtype of up to 68 bytes.
    let mut out = Vec::with_capacity(384);
    value.serialize(&mut Serializer::new(&mut out))?;
    Ok(out)
}

/// Encodes `value` into the start of `buf`, allocating nothing; returns the number of
/// bytes written. The metalayer types' `encoded_len()` says how large `buf` must be.
///
/// ```
/// use b2nd_meta::MetaB2ndV1;
///
/// let meta = MetaB2ndV1::new([3, 4], [2, 4], [1, 2], "<i4");
/// let mut buf = [0u8; 64];
/// let n = b2nd_meta::to_slice(&meta, &mut buf).unwrap();
/// assert_eq!(n, meta.encoded_len());
/// assert!(b2nd_meta::to_slice(&meta, &mut [0u8; 10]).is_err());
/// ```
pub fn to_slice<T: ?Sized + Serialize>(value: &T, buf: &mut [u8]) -> Result<usize> {
    let mut out = SliceOutput::new(buf);
    value.serialize(&mut Serializer::new(&mut out))?;
    Ok(out.len())
}

/// Encodes `value` into a writer.
///
/// ```
/// let mut file = Vec::new(); // any std::io::Write
/// b2nd_meta::to_writer(&mut file, &b2nd_meta::MetaV0Caterva::default()).unwrap();
/// assert_eq!(file.len(), 6);
/// ```
#[cfg(feature = "std")]
pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    value.serialize(&mut Serializer::new(IoOutput(writer)))
}
