//! Byte-exact reading and writing of the metalayers in which Blosc2 stores n-dimensional
//! array metadata: the `b2nd` metalayer of C-Blosc2 and python-blosc2, its draft, and the
//! older `caterva` metalayer.
//!
//! A metalayer is a msgpack array whose integers and strings have fixed widths, so that an
//! array can grow or shrink and have its metalayer rewritten in place. Generic msgpack
//! encoders pick the most compact width and so produce bytes C-Blosc2 misreads; this crate
//! is a serde data format that writes exactly C-Blosc2's bytes and reads them back strictly.
//!
//! ```
//! use b2nd_meta::{Meta, MetaB2ndV1};
//!
//! let meta = MetaB2ndV1::new([3, 4], [2, 4], [1, 2], "<i4");
//! let bytes = b2nd_meta::to_vec(&meta)?;
//! assert_eq!(bytes.len(), 53);
//!
//! // Any layout, recognised from the bytes.
//! let any: Meta = b2nd_meta::from_slice(&bytes)?;
//! assert_eq!(any.shape(), [3, 4]);
//! assert_eq!(any.dtype(), Some("<i4"));
//! # Ok::<(), b2nd_meta::Error>(())
//! ```
//!
//! The types are ordinary serde types too: in JSON a metalayer is an object
//! (`{"layout":"b2nd-v1","version":0,"ndim":2,"shape":[3,4],...}`).
//!
//! The wire format, byte by byte, and how the revisions of its specification were
//! reconciled, is in the [`spec`] module.
//!
//! # Features
//! - `std` (default): the `std::io` entry points [`to_writer`] and [`from_reader`], and
//!   the `frame` module, whose user metalayers read and write any serde type through
//!   rmp-serde. Without it the codec, `dtype`, `validate`, [`value`] and [`bytes`] need
//!   only `core` and `alloc`.
//! - `cli`: the `b2nd-meta` command-line tool (clap and serde_json, which the library
//!   alone never pulls in).

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod bytes;
pub mod chunk;
mod codec;
#[cfg(feature = "std")]
pub mod container;
pub mod de;
pub mod dtype;
pub mod error;
#[cfg(feature = "std")]
pub mod frame;
mod inline;
#[cfg(feature = "std")]
mod io;
pub mod marker;
mod meta;
mod read;
#[cfg(feature = "std")]
pub mod report;
pub mod ser;
mod serde_impls;
pub mod validate;
pub mod value;
pub mod wire;

#[doc = include_str!("../SPEC.md")]
pub mod spec {}

use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

pub use codec::view::{Entries, MetaRef};
pub use codec::{Layout, MAX_DIM, MAX_DTYPE_FORMAT, VERSION};
pub use de::Deserializer;
pub use error::{Error, ErrorKind, Expected, Found, Result};
pub use inline::{Dims, SmallString};
pub use meta::{Meta, MetaB2nd, MetaB2ndV1, MetaV0Caterva};
pub use ser::Serializer;

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
    let mut out = ser::SliceOutput::new(buf);
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
    value.serialize(&mut Serializer::new(ser::IoOutput(writer)))
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

/// Decodes a value from `reader`, reading exactly the bytes it needs, then one more to
/// check that nothing follows ([`ErrorKind::TrailingBytes`], with a count of 1: the
/// reader is not read further).
///
/// Bytes are read as the value reveals its size (a header, then its elements), so
/// memory grows with the bytes actually received, never with a length field, and an
/// endless reader is read no further than the value needs. A reader that reports more
/// bytes than the buffer it was given is an error ([`ErrorKind::Io`]).
///
/// ```
/// let bytes: &[u8] = &[0x95, 0x00, 0x00, 0x90, 0x90, 0x90];
/// let meta: b2nd_meta::Meta = b2nd_meta::from_reader(bytes).unwrap();
/// assert_eq!(meta.layout(), b2nd_meta::Layout::V0Caterva);
///
/// // A metalayer followed by endless zeros: one more byte is read, and refused.
/// use std::io::Read;
/// let endless = bytes.chain(std::io::repeat(0));
/// let err = b2nd_meta::from_reader::<_, b2nd_meta::Meta>(endless).unwrap_err();
/// assert_eq!(err.to_string(), "expected the end of the input, found 1 more byte(s) at byte 6");
/// ```
#[cfg(feature = "std")]
pub fn from_reader<R: std::io::Read, T: serde::de::DeserializeOwned>(reader: R) -> Result<T> {
    io::from_reader(reader)
}

// The README's examples run as doctests, so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
