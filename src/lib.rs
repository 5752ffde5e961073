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
//! - `ndarray`: `array::Array::read_ndarray`, a selection's values as an
//!   `ndarray::ArrayD`.
//! - `cli`: the `b2nd-meta` command-line tool (clap and serde_json, which the library
//!   alone never pulls in).

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "std")]
pub mod array;
pub mod blosc;
pub mod chunk;
mod codec;
#[cfg(feature = "std")]
pub mod container;
pub mod dtype;
pub mod error;
#[cfg(feature = "std")]
pub mod frame;
// The lowercase hex of the value mapping's `$bin`; public for the command line only.
#[cfg(feature = "cli")]
pub mod hex;
#[cfg(not(feature = "cli"))]
mod hex;
#[cfg(feature = "std")]
pub mod io;
mod meta;
pub mod value;
#[cfg(feature = "std")]
pub mod vlmeta;
mod wire;

#[doc = include_str!("../SPEC.md")]
pub mod spec {}

pub use error::AnyError;
#[cfg(feature = "std")]
pub use meta::de::io::from_reader;
pub use meta::de::{from_slice, take_from_slice, Deserializer};
pub use meta::error::{Error, ErrorKind, Expected, Found, Result};
#[cfg(feature = "std")]
pub use meta::ser::to_writer;
pub use meta::ser::{to_slice, to_vec, Output, Serializer};
pub use meta::{bytes, validate};
pub use meta::{
    Dims, Entries, Layout, Meta, MetaB2nd, MetaB2ndV1, MetaRef, MetaV0Caterva, SmallString,
    DTYPE_FORMAT_NUMPY, MAX_DIM, MAX_DTYPE_FORMAT, VERSION,
};

// The README's examples run as doctests, so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
