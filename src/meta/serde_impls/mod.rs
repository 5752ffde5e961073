//! The serde side of the metalayer types: in a binary serde format a metalayer is a
//! tuple of its elements, each as the Rust type that fixes its width; in a
//! human-readable one (JSON, TOML, ...) it is a struct whose first field names the
//! layout. Bytes are never touched here: the `Serializer`/`Deserializer` of the format
//! (or any other serde format) do that.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeStruct, SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

use crate::meta::de::RAW;
use crate::meta::dims::Dims;
use crate::meta::layout::{layout_of_count, Layout, Parts, PartsRef, VERSION};
use crate::meta::view::{check_fast, Owned};

mod fields;
mod human;

use fields::{Fixint, FIELDS};

/// Serializes as a tuple (binary formats; `as_seq` makes it a length-prefixed
/// sequence, which [`crate::Meta`] needs to recognise the layout) or as a struct
/// (human-readable formats).
pub(crate) fn serialize_parts<S: Serializer>(
    parts: &PartsRef<'_>,
    serializer: S,
    as_seq: bool,
) -> Result<S::Ok, S::Error> {
    if let Some(problem) = parts.encode_problem() {
        return Err(ser::Error::custom(problem));
    }
    // Checked above: ndim <= 16.
    let ndim = parts.shape.len() as u8;
    if serializer.is_human_readable() {
        let fields = 6 + match parts.layout {
            Layout::V0Caterva => 0,
            Layout::B2nd => 1,
            Layout::B2ndV1 => 2,
        };
        let mut st = serializer.serialize_struct("Meta", fields)?;
        st.serialize_field("layout", parts.layout.name())?;
        st.serialize_field("version", &VERSION)?;
        st.serialize_field("ndim", &ndim)?;
        st.serialize_field("shape", parts.shape)?;
        st.serialize_field("chunkshape", parts.chunkshape)?;
        st.serialize_field("blockshape", parts.blockshape)?;
        if parts.layout == Layout::B2ndV1 {
            st.serialize_field("dtype_format", &parts.dtype_format)?;
        }
        if parts.layout != Layout::V0Caterva {
            st.serialize_field("dtype", parts.dtype_str())?;
        }
        return st.end();
    }
    // The elements in order, each as the Rust type that fixes its width: `u8` a
    // positive fixint, `Axes<i64>` int64s, `Axes<i32>` int32s, `str` a str32.
    macro_rules! elements {
        ($out:ident) => {{
            $out.serialize_element(&VERSION)?;
            $out.serialize_element(&ndim)?;
            $out.serialize_element(&Axes(parts.shape))?;
            $out.serialize_element(&Axes(parts.chunkshape))?;
            $out.serialize_element(&Axes(parts.blockshape))?;
            if parts.layout == Layout::B2ndV1 {
                $out.serialize_element(&parts.dtype_format)?;
            }
            if parts.layout != Layout::V0Caterva {
                $out.serialize_element(parts.dtype_str())?;
            }
            $out.end()
        }};
    }
    let len = parts.layout.element_count();
    if as_seq {
        use ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(len))?;
        elements!(seq)
    } else {
        let mut tuple = serializer.serialize_tuple(len)?;
        elements!(tuple)
    }
}

/// One entry per axis, as a tuple whose length is ndim (the element before).
struct Axes<'a, T>(&'a [T]);

impl<T: Serialize> Serialize for Axes<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(self.0.len())?;
        for v in self.0 {
            tuple.serialize_element(v)?;
        }
        tuple.end()
    }
}

/// Deserializes `T`: any layout for [`crate::Meta`], exactly its own for the others.
#[inline]
pub(crate) fn deserialize_parts<'de, D: Deserializer<'de>, T: Owned>(
    deserializer: D,
) -> Result<T, D::Error> {
    if deserializer.is_human_readable() {
        let visitor = PartsVisitor { expect: T::LAYOUT };
        deserializer
            .deserialize_struct("Meta", FIELDS, visitor)
            .map(T::from_parts)
    } else {
        // In this crate's format, straight through `MetaRef`; elsewhere element by element.
        deserializer.deserialize_newtype_struct(RAW, RawParts(PhantomData))
    }
}

/// The elements one by one, each through the deserializer.
fn deserialize_elements<'de, D: Deserializer<'de>>(
    deserializer: D,
    expect: Option<Layout>,
) -> Result<Parts, D::Error> {
    let visitor = PartsVisitor { expect };
    match expect {
        Some(layout) => deserializer.deserialize_tuple(layout.element_count(), visitor),
        // A sequence's exact length is known before its first element: that is the
        // whole of layout detection.
        None => deserializer.deserialize_seq(visitor),
    }
}

/// `T` through the raw-access protocol of this crate's `Deserializer` (see
/// `de/raw.rs`) when it is the one asked, element by element otherwise.
struct RawParts<T>(PhantomData<T>);

impl<'de, T: Owned> DeserializeSeed<'de> for RawParts<T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        deserialize_elements(deserializer, T::LAYOUT).map(T::from_parts)
    }
}

impl<'de, T: Owned> Visitor<'de> for RawParts<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        PartsVisitor { expect: T::LAYOUT }.expecting(f)
    }

    /// Any other deserializer: the ordinary way.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        deserialize_elements(d, T::LAYOUT).map(T::from_parts)
    }

    /// This crate's: the input, checked by `MetaRef` and built straight from it; where
    /// that fails, the ordinary way at the same place names the error.
    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
        let missing = || de::Error::invalid_length(0, &"raw access");
        let input = seq.next_element_seed(BorrowedBytes)?.ok_or_else(missing)?;
        let checked = check_fast(input, T::LAYOUT);
        let used = checked.map_or(0, |(checked, _)| checked.view.as_bytes().len());
        seq.next_element_seed(ReportUsed(used))?
            .ok_or_else(missing)?;
        match checked {
            Some((checked, _)) => Ok(T::from_checked(&checked)),
            None => seq.next_element_seed(self)?.ok_or_else(missing),
        }
    }
}

/// The input, borrowed.
struct BorrowedBytes;

impl<'de> DeserializeSeed<'de> for BorrowedBytes {
    type Value = &'de [u8];

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'de [u8], D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de> Visitor<'de> for BorrowedBytes {
    type Value = &'de [u8];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the input, borrowed")
    }

    #[inline]
    fn visit_borrowed_bytes<E: de::Error>(self, v: &'de [u8]) -> Result<&'de [u8], E> {
        Ok(v)
    }
}

/// Says how many bytes were used, as a tuple length.
struct ReportUsed(usize);

impl<'de> DeserializeSeed<'de> for ReportUsed {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_tuple(self.0, de::IgnoredAny).map(drop)
    }
}

struct PartsVisitor {
    expect: Option<Layout>,
}

impl<'de> Visitor<'de> for PartsVisitor {
    type Value = Parts;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.expect {
            Some(layout) => write!(
                f,
                "a {layout} metalayer of {} elements",
                layout.element_count()
            ),
            None => f.write_str("a metalayer of 5 (caterva-v0), 6 (b2nd) or 7 (b2nd-v1) elements"),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Parts, A::Error> {
        let layout = match self.expect {
            Some(layout) => layout,
            None => match seq.size_hint() {
                Some(n) => layout_of_count(n)?,
                None => {
                    return Err(de::Error::custom(
                        "a Meta needs a format that records sequence lengths; \
                         decode one of the typed metalayers instead",
                    ));
                }
            },
        };
        let missing = |index| de::Error::invalid_length(index, &self);
        seq.next_element_seed(Fixint::Version)?
            .ok_or_else(|| missing(0))?;
        let ndim = seq
            .next_element_seed(Fixint::Ndim)?
            .ok_or_else(|| missing(1))?;
        let ndim = usize::from(ndim);
        let mut parts = Parts::new(layout);
        seq.next_element_seed(AxesInto {
            dims: &mut parts.shape,
            ndim,
        })?
        .ok_or_else(|| missing(2))?;
        seq.next_element_seed(AxesInto {
            dims: &mut parts.chunkshape,
            ndim,
        })?
        .ok_or_else(|| missing(3))?;
        seq.next_element_seed(AxesInto {
            dims: &mut parts.blockshape,
            ndim,
        })?
        .ok_or_else(|| missing(4))?;
        if layout.has_dtype_format() {
            parts.dtype_format = seq
                .next_element_seed(Fixint::DtypeFormat)?
                .ok_or_else(|| missing(5))?;
        }
        if layout.has_dtype() {
            parts.dtype = seq
                .next_element()?
                .ok_or_else(|| missing(layout.element_count() - 1))?;
        }
        Ok(parts)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Parts, A::Error> {
        human::parts_from_map(self.expect, map)
    }
}

/// Exactly `ndim` entries of `T`, one per axis, read into a [`Dims`] in place.
struct AxesInto<'a, T> {
    dims: &'a mut Dims<T>,
    ndim: usize,
}

impl<'de, T: Deserialize<'de> + Copy + Default> DeserializeSeed<'de> for AxesInto<'_, T> {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_tuple(self.ndim, self)
    }
}

impl<'de, T: Deserialize<'de> + Copy + Default> Visitor<'de> for AxesInto<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        de::Expected::fmt(&AxesExpected(self.ndim), f)
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let ndim = self.ndim;
        // ndim <= 16 was checked when it was read: the entries stay inline.
        let Some(slots) = self.dims.inline_slots(ndim) else {
            return Err(de::Error::invalid_length(ndim, &AxesExpected(ndim)));
        };
        for (i, slot) in slots.iter_mut().enumerate() {
            match seq.next_element()? {
                Some(v) => *slot = v,
                None => {
                    return Err(de::Error::invalid_length(i, &AxesExpected(ndim)));
                }
            }
        }
        Ok(())
    }
}

/// What a shape array is expected to hold.
struct AxesExpected(usize);

impl de::Expected for AxesExpected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} entries, one per axis", self.0)
    }
}
