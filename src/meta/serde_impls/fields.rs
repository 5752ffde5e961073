//! The fields of a metalayer as a struct: their names, and the `u8` ones read with the
//! check of their place.

use serde::de::{DeserializeSeed, Deserializer};
use serde::Deserialize;

use crate::meta::layout::{check_dtype_format, check_ndim, check_version};

/// The field names, in the order of the layouts that have them.
pub(super) const FIELDS: &[&str] = &[
    "layout",
    "version",
    "ndim",
    "shape",
    "chunkshape",
    "blockshape",
    "dtype_format",
    "dtype",
];

/// A `u8` element, read with the check of its place.
#[derive(Clone, Copy)]
pub(super) enum Fixint {
    Version,
    Ndim,
    DtypeFormat,
}

impl<'de> DeserializeSeed<'de> for Fixint {
    type Value = u8;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u8, D::Error> {
        let v = u8::deserialize(deserializer)?;
        match self {
            Fixint::Version => check_version(v),
            Fixint::Ndim => check_ndim(v),
            Fixint::DtypeFormat => check_dtype_format(v),
        }
    }
}
