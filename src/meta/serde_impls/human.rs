//! The human-readable form of a metalayer (JSON, TOML, ...): a struct whose `"layout"`
//! field names the layout; without it, the fields say which.

use alloc::string::String;
use core::fmt;

use serde::de::{self, Deserializer, MapAccess, Unexpected, Visitor};
use serde::Deserialize;

use super::fields::{Fixint, FIELDS};
use crate::meta::dims::Dims;
use crate::meta::layout::{Layout, Parts};
use crate::meta::small_string::SmallString;

pub(super) fn parts_from_map<'de, A: MapAccess<'de>>(
    expect: Option<Layout>,
    mut map: A,
) -> Result<Parts, A::Error> {
    let mut layout: Option<Layout> = None;
    let mut ndim: Option<u8> = None;
    let mut shape: Option<Dims<i64>> = None;
    let mut chunkshape: Option<Dims<i32>> = None;
    let mut blockshape: Option<Dims<i32>> = None;
    let mut dtype_format: Option<u8> = None;
    let mut dtype: Option<SmallString> = None;
    let mut seen_version = false;
    while let Some(key) = map.next_key::<Field>()? {
        fn set<T, E: de::Error>(slot: &mut Option<T>, name: &'static str, v: T) -> Result<(), E> {
            match slot.replace(v) {
                Some(_) => Err(E::duplicate_field(name)),
                None => Ok(()),
            }
        }
        match key {
            Field::Layout => {
                let name: String = map.next_value()?;
                let value = Layout::from_name(&name).ok_or_else(|| {
                    de::Error::unknown_variant(&name, &["caterva-v0", "b2nd", "b2nd-v1"])
                })?;
                set(&mut layout, "layout", value)?
            }
            Field::Version => {
                if core::mem::replace(&mut seen_version, true) {
                    return Err(de::Error::duplicate_field("version"));
                }
                map.next_value_seed(Fixint::Version)?;
            }
            Field::Ndim => set(&mut ndim, "ndim", map.next_value_seed(Fixint::Ndim)?)?,
            Field::Shape => set(&mut shape, "shape", map.next_value()?)?,
            Field::Chunkshape => set(&mut chunkshape, "chunkshape", map.next_value()?)?,
            Field::Blockshape => set(&mut blockshape, "blockshape", map.next_value()?)?,
            Field::DtypeFormat => set(
                &mut dtype_format,
                "dtype_format",
                map.next_value_seed(Fixint::DtypeFormat)?,
            )?,
            Field::Dtype => set(&mut dtype, "dtype", map.next_value()?)?,
        }
    }
    let shape = shape.ok_or_else(|| de::Error::missing_field("shape"))?;
    let chunkshape = chunkshape.ok_or_else(|| de::Error::missing_field("chunkshape"))?;
    let blockshape = blockshape.ok_or_else(|| de::Error::missing_field("blockshape"))?;
    // Without a "layout", the fields say which: what C writes today when there is a dtype.
    let inferred = match (&dtype, dtype_format) {
        (None, None) => Layout::V0Caterva,
        _ => Layout::B2ndV1,
    };
    let layout = match (layout, expect) {
        (Some(named), Some(expected)) if named != expected => {
            return Err(de::Error::invalid_value(
                Unexpected::Str(named.name()),
                &expected.name(),
            ));
        }
        (Some(named), _) => named,
        (None, Some(expected)) => expected,
        (None, None) => inferred,
    };
    if layout != Layout::B2ndV1 && dtype_format.is_some() {
        return Err(de::Error::custom(format_args!(
            "the {layout} layout has no dtype_format"
        )));
    }
    if layout == Layout::V0Caterva && dtype.is_some() {
        return Err(de::Error::custom("the caterva-v0 layout has no dtype"));
    }
    let dtype = match (layout, dtype) {
        (Layout::V0Caterva, _) => SmallString::new(),
        (_, Some(dtype)) => dtype,
        (_, None) => return Err(de::Error::missing_field("dtype")),
    };
    let parts = Parts {
        layout,
        shape,
        chunkshape,
        blockshape,
        dtype_format: dtype_format.unwrap_or(0),
        dtype,
    };
    if let Some(problem) = parts.as_ref().encode_problem() {
        return Err(de::Error::custom(problem));
    }
    if let Some(ndim) = ndim
        && usize::from(ndim) != parts.shape.len()
    {
        return Err(de::Error::custom(format_args!(
            "ndim is {ndim} but shape has {} entries",
            parts.shape.len()
        )));
    }
    Ok(parts)
}

/// A key of the human-readable form.
enum Field {
    Layout,
    Version,
    Ndim,
    Shape,
    Chunkshape,
    Blockshape,
    DtypeFormat,
    Dtype,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldVisitor;

        impl Visitor<'_> for FieldVisitor {
            type Value = Field;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a metalayer field name")
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<Field, E> {
                Ok(match key {
                    "layout" => Field::Layout,
                    "version" => Field::Version,
                    "ndim" => Field::Ndim,
                    "shape" => Field::Shape,
                    "chunkshape" => Field::Chunkshape,
                    "blockshape" => Field::Blockshape,
                    "dtype_format" => Field::DtypeFormat,
                    "dtype" => Field::Dtype,
                    other => return Err(E::unknown_field(other, FIELDS)),
                })
            }
        }

        deserializer.deserialize_identifier(FieldVisitor)
    }
}
