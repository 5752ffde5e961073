//! Read, write and change in place the files in which C-Blosc2 and python-blosc2 keep
//! n-dimensional arrays, in pure safe Rust: their metadata, their values (read, written
//! new, changed in place: `arr[sel] = x`, resize, append), their metalayers and vlmeta,
//! and the stores and bundles that hold several of them; byte for byte as C-Blosc2
//! writes them, every write crash-consistent.
//!
//! Open an array python-blosc2 wrote, read its metadata and its values (the README's
//! first example; this file ships with the crate):
//!
//! ```
//! use b2nd_meta::array::{Array, ArrayError, Selection};
//!
//! fn main() -> Result<(), ArrayError> {
//!     // A 7x6x5 float32 array: blosc2.asarray(x, urlpath="ndim3_f4.b2nd",
//!     // chunks=(3, 4, 2), blocks=(2, 3, 2)).
//!     let array = Array::open("tests/data/arrays/blosc2-4.14.1/ndim3_f4.b2nd")?;
//!
//!     // Its metadata: shape, chunks and blocks (each a `&[u64]`), dtype, codec.
//!     assert_eq!(array.shape(), [7, 6, 5]);
//!     assert_eq!(array.chunkshape(), [3, 4, 2]);
//!     assert_eq!(array.blockshape(), [2, 3, 2]);
//!     assert_eq!(array.dtype().to_string(), "<f4");
//!     assert_eq!(array.header().info.codec.name(), "zstd");
//!
//!     // Its values: python's arr[2, 1:5, ::2], a 4x3 array in C order.
//!     let values: Vec<f32> = array.read(&"2, 1:5, ::2".parse()?)?;
//!     let all: Vec<f32> = array.read(&Selection::all())?;
//!     assert_eq!(values.len(), 4 * 3);
//!     assert_eq!(values[0].to_bits(), all[(2 * 6 + 1) * 5].to_bits());
//!
//!     // The whole array into a buffer of yours, raw bytes as stored, on 2 threads.
//!     let array = array.with_threads(2);
//!     let mut buf = vec![0u8; 7 * 6 * 5 * 4];
//!     array.read_into(&Selection::all(), &mut buf)?;
//!
//!     // A node of a store or bundle (.b2z, .b2d, .b2e, a TreeStore leaf).
//!     let node = Array::open_key("tests/data/arrays/blosc2-4.14.1/store_dict.b2z", "/dir/ext")?;
//!     let column: Vec<i32> = node.read(&"..., -1".parse()?)?;
//!     assert_eq!(column.len(), 30);
//!     Ok(())
//! }
//! ```
//!
//! # Where things are
//!
//! - [`array`]: an array's values, any slice of them, typed or as raw bytes
//!   ([`array::Array`]).
//! - [`frame`]: one Blosc2 frame (a `.b2nd` file or a sparse frame's directory): its
//!   header (codec, filters, metalayers), its trailer (vlmeta), its chunks; rewrite a
//!   metalayer or the shape in place.
//! - [`vlmeta`]: variable-length metalayers (python's `arr.vlmeta`) as values, and
//!   their writes.
//! - [`container`]: stores and bundles (`.b2z`, `.b2d`, `.b2e`, TreeStore) and the
//!   kinds python-blosc2 names, listed with each node's shape, chunks and dtype.
//! - The crate root: the `b2nd` and `caterva` metalayers as a serde data format
//!   ([`Meta`], [`MetaB2ndV1`], [`to_vec`], [`from_slice`], [`to_writer`],
//!   [`from_reader`]), [`MetaRef`] (a checked zero-copy view), [`Dims`], [`Shapes`]
//!   (the three shapes as `u64`); [`validate`] (what C-Blosc2 accepts), [`bytes`] (the
//!   exact bytes inside other serde formats), [`spec`] (the format byte by byte).
//! - [`dtype`]: NumPy dtypes parsed from the metalayer's dtype string.
//! - [`value`]: msgpack values as python-blosc2 writes them (user metalayers, vlmeta).
//! - [`chunk`]: Blosc2 chunks, decoded (every codec and filter) and encoded.
//! - [`blosc`]: the Blosc vocabulary: codecs, filters, split modes and their names.
//! - [`io`]: the byte sources every reader reads through (files, memory, windows).
//! - [`error`]: [`AnyError`], every error of the crate in one type for `?`.
//!
//! # The metalayers
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
//! # Features
//!
//! - `std` (default): [`array`], [`frame`], [`vlmeta`], [`container`], [`io`], and the
//!   `std::io` entry points [`to_writer`] and [`from_reader`]; user metalayers read and
//!   write any serde type through rmp-serde.
//! - Without `std` the crate is `no_std` + `alloc` (it builds for
//!   `thumbv7em-none-eabihf`): the metalayer format at the crate root, [`validate`],
//!   [`bytes`], [`spec`], [`dtype`], [`value`], [`blosc`], [`error`], and [`chunk`]'s
//!   decoding (zlib chunks and [`chunk::compress`] need `std`).
//! - `ndarray`: [`array::Array::read_ndarray`], a selection's values as an
//!   `ndarray::ArrayD`, and `NewArray::write_ndarray`, a new array from one.
//! - `cli`: the `b2nd-meta` command-line tool (clap, clap_complete and serde_json,
//!   which the library alone never pulls in), and `hex`, the lowercase hex it prints
//!   bytes in.
//! - `remote`: [`remote`], arrays and stores read over HTTP(S), S3 and Caterva2 by
//!   range requests (`frame::Source::url`); brings ureq and rustls (with ring: C and
//!   assembly, this feature only).
//! - `repo-tests`: not for users; the repository's test suites and benches (they read
//!   tests/data, which the published crate does not hold).
// Without `std` the std-only items above are links to docs.rs (one doc line each: a
// link definition must start its own line), so that the list reads the same.
#![cfg_attr(
    not(feature = "std"),
    doc = "",
    doc = "[`array`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/array/index.html",
    doc = "[`array::Array`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/array/struct.Array.html",
    doc = "[`array::Array::read_ndarray`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/array/struct.Array.html#method.read_ndarray",
    doc = "[`frame`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/frame/index.html",
    doc = "[`vlmeta`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/vlmeta/index.html",
    doc = "[`container`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/container/index.html",
    doc = "[`io`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/io/index.html",
    doc = "[`to_writer`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/fn.to_writer.html",
    doc = "[`from_reader`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/fn.from_reader.html",
    doc = "[`chunk::compress`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/chunk/fn.compress.html"
)]
#![cfg_attr(feature = "std", doc = "", doc = "[`array`]: mod@array")]
#![cfg_attr(
    all(feature = "std", not(feature = "ndarray")),
    doc = "",
    doc = "[`array::Array::read_ndarray`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/array/struct.Array.html#method.read_ndarray"
)]
#![cfg_attr(docsrs, feature(doc_cfg))]
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
mod located;
mod meta;
// The vector unit the filters and codecs run on (runtime dispatch, or plain loops).
#[cfg(feature = "remote")]
pub mod remote;
mod simd;
#[cfg(test)]
mod test_rng;
pub mod value;
#[cfg(feature = "std")]
pub mod vlmeta;
mod wire;

/// The metalayers' wire format byte by byte, and how the revisions of its specification
/// were reconciled (the repository's SPEC.md).
///
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
    Dims, Entries, Layout, Meta, MetaB2nd, MetaB2ndV1, MetaRef, MetaV0Caterva, Shapes, SmallString,
    DTYPE_FORMAT_NUMPY, MAX_DIM, MAX_DTYPE_FORMAT, VERSION,
};

// The README's examples run as doctests, so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
