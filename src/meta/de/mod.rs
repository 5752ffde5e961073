//! The serde `Deserializer` of the fixed-width format.
//!
//! Each `deserialize_*` call accepts exactly the one encoding [`crate::meta::ser`] writes for
//! that type (an `i64` must be `0xd3` + 8 bytes, never a compact fixint), so strictness
//! comes from the types being read. Errors carry the offset of the value that failed.

use serde::Deserialize;

mod deserializer;
#[cfg(feature = "std")]
pub(crate) mod io;
mod raw;
mod visit;

use crate::meta::error::Result;
pub use deserializer::Deserializer;
pub(crate) use raw::RAW;

/// Decodes a value that fills all of `bytes`; trailing bytes are an error
/// ([`ErrorKind::TrailingBytes`](crate::ErrorKind::TrailingBytes)). Use [`take_from_slice`] when more may follow.
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
