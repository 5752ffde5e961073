//! C-Blosc2's exact metalayer bytes inside other serde formats.
//!
//! Through a generic format (rmp-serde, bincode, postcard, JSON) a [`MetaB2ndV1`] is a
//! sequence of ordinary numbers and strings: the fixed widths of the metalayer (int64
//! shape, int32 chunkshape, str32 dtype) are gone. With this module as
//! `#[serde(with = "b2nd_meta::bytes")]` the field is stored as one byte string (msgpack
//! bin, through `serde_bytes`) holding exactly what [`crate::to_vec`] writes and C-Blosc2
//! reads, and is decoded back strictly by [`crate::from_slice`]. [`Exact`] does the same
//! where an attribute cannot go: inside an `Option`, a `Vec` or a map.
//!
//! ```
//! use b2nd_meta::{Meta, MetaB2ndV1};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Doc {
//!     name: String,
//!     #[serde(with = "b2nd_meta::bytes")]
//!     meta: MetaB2ndV1,
//!     history: Vec<b2nd_meta::bytes::Exact<Meta>>,
//! }
//!
//! let meta = MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4");
//! let doc = Doc { name: "a".into(), meta: meta.clone(), history: vec![] };
//! let packed = rmp_serde::to_vec(&doc).unwrap();
//! // [ "a", bin8 of 53 bytes: the metalayer itself, [] ]
//! assert_eq!(&packed[..5], [0x93, 0xa1, b'a', 0xc4, 53]);
//! assert_eq!(&packed[5..58], b2nd_meta::to_vec(&meta).unwrap());
//! assert_eq!(rmp_serde::from_slice::<Doc>(&packed).unwrap(), doc);
//! ```
//!
//! [`MetaB2ndV1`]: crate::MetaB2ndV1

use alloc::vec::Vec;
use core::fmt;

use serde::de::{DeserializeOwned, Error as _};
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Writes `value` as the byte string of its exact metalayer bytes.
///
/// ```
/// let meta = b2nd_meta::MetaV0Caterva::default();
/// let mut out = Vec::new();
/// b2nd_meta::bytes::serialize(&meta, &mut rmp_serde::Serializer::new(&mut out)).unwrap();
/// assert_eq!(out, [0xc4, 6, 0x95, 0x00, 0x00, 0x90, 0x90, 0x90]);
/// ```
pub fn serialize<T: ?Sized + Serialize, S: Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let bytes = crate::meta::ser::to_vec(value).map_err(S::Error::custom)?;
    serde_bytes::serialize(&bytes, serializer)
}

/// Reads a byte string and decodes all of it strictly as a metalayer.
///
/// ```
/// let packed = [0xc4, 6, 0x95, 0x00, 0x00, 0x90, 0x90, 0x90];
/// let mut de = rmp_serde::Deserializer::new(&packed[..]);
/// let meta: b2nd_meta::Meta = b2nd_meta::bytes::deserialize(&mut de).unwrap();
/// assert_eq!(meta.ndim(), 0);
/// ```
pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    let bytes: Vec<u8> = serde_bytes::deserialize(deserializer)?;
    crate::meta::de::from_slice(&bytes).map_err(D::Error::custom)
}

/// A value stored as its exact metalayer bytes, for places where
/// `#[serde(with = "b2nd_meta::bytes")]` cannot go (`Option<Exact<Meta>>`,
/// `Vec<Exact<MetaB2ndV1>>`).
///
/// ```
/// use b2nd_meta::{bytes::Exact, MetaV0Caterva};
///
/// let v = Some(Exact(MetaV0Caterva::default()));
/// let packed = rmp_serde::to_vec(&v).unwrap();
/// assert_eq!(packed, [0xc4, 6, 0x95, 0x00, 0x00, 0x90, 0x90, 0x90]);
/// assert_eq!(rmp_serde::from_slice::<Option<Exact<MetaV0Caterva>>>(&packed).unwrap(), v);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Exact<T>(pub T);

impl<T: Serialize> Serialize for Exact<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(&self.0, serializer)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Exact<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize(deserializer).map(Exact)
    }
}

impl<T: fmt::Debug> fmt::Debug for Exact<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
