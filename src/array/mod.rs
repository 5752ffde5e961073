//! The values of arrays python-blosc2 writes: any slice, in C order, as raw bytes or
//! typed, decoding only the chunks the slice touches, in parallel.
//!
//! [`Array`] opens a contiguous `.b2nd` frame, a sparse frame's directory, or a node of
//! a store or bundle (`.b2z`, `.b2d`, `.b2e`, a TreeStore leaf). A [`Selection`] is
//! numpy's basic indexing, parsed from what python writes between the brackets
//! (`"2:8, ::3"`, `"..., 0"`, `"-1"`) or built in Rust; reads give numpy's result of
//! `arr[selection]`: integers drop their axis, slices clip to the shape, negative
//! steps run backwards, `None` adds an axis.
//!
//! ```
//! use b2nd_meta::array::{Array, Selection};
//!
//! // blosc2.asarray(np.ramp..., urlpath=..., chunks=(3, 4, 2), blocks=(2, 3, 2))
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim3_f4.b2nd");
//! let array = Array::open(path)?;
//! assert_eq!(array.shape(), [7, 6, 5]);
//!
//! let plane: Vec<f32> = array.read(&"2".parse()?)?;           // arr[2]: 6x5
//! let column: Vec<f32> = array.read(&"..., 4".parse()?)?;     // arr[..., 4]: 7x6
//! let all: Vec<f32> = array.read(&Selection::all())?;
//! assert_eq!(plane[..], all[2 * 30..3 * 30]);
//! assert_eq!(column[7], all[(1 * 6 + 1) * 5 + 4]);
//!
//! // Raw bytes into a buffer of the caller's, in the file's byte order.
//! let mut buf = vec![0u8; 7 * 6 * 5 * 4];
//! array.read_into(&Selection::all(), &mut buf)?;
//! # Ok::<(), b2nd_meta::array::ArrayError>(())
//! ```
//!
//! # Layout
//!
//! C-Blosc2 stores an array as chunks that tile it in C order, each made of blocks that
//! tile the chunk in C order, each block holding its elements in C order; the last
//! chunk and block along an axis are padded.
//!
//! - `geometry/`: where things sit, with no I/O and no decoding, for reads and writes
//!   alike: [`Selection`] (`selection`, `parse`) and its meeting with a shape
//!   (`resolve`); the b2nd layout (`grid`, the one place it is computed, and `stretch`,
//!   a chunk as stretches of the array); for one chunk, where each element taken sits
//!   and which blocks hold them (`plan`, [`Array::touched`]); the chunks cut into runs
//!   of blocks for threads (`pieces`) and a selection cut at block boundaries (`rows`).
//! - `read/`: [`Array`]'s read methods (`access`), the decoding of those pieces on
//!   [`Array::threads`] threads, reading and decoding only the blocks each needs
//!   (`reader`), and the copy of each one's share into the output, as bytes or as an
//!   [`Element`] (`sink`).
//! - `write/`: a new array from values ([`write::ArrayWriter`]); `handle` and `source`:
//!   an [`Array`] opened and its frame; `element`: the Rust types of elements; `npy`:
//!   `.npy` output; `error`: [`ArrayError`].
//!
//! Chunks the index marks as zeros, NaNs or uninitialised are never materialised;
//! uninitialised chunks read as zeros, as C-Blosc2 gives them to python.

#[cfg(feature = "remote")]
mod chunk_api;
mod edit;
mod element;
mod error;
mod geometry;
mod handle;
#[cfg(feature = "ndarray")]
mod nd;
mod npy;
mod read;
mod source;
pub mod write;

pub use edit::ArrayRw;
pub use element::Element;
pub use error::{ArrayError, ArrayErrorKind};
pub use geometry::{Index, Selection, Touched};
pub use handle::Array;
pub use npy::{npy_header, NpyHeader};
