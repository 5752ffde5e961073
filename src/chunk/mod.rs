//! Blosc2 chunks: the header, and decoding of any chunk C-Blosc2 writes (python-blosc2's
//! variable-length metalayers and an array's data chunks alike).
//!
//! The layout is C-Blosc2's `README_CHUNK_FORMAT.rst`; the checks are those of
//! `read_chunk_header` and `blosc_d` in `blosc/blosc2.c`. All integers are little-endian.
//!
//! Decoded: special chunks (zeros, NaNs, a repeated value, uninitialised), memcpyed
//! chunks, and blocks (split or not) of streams that are zeros, runs of a byte, stored
//! as they are, or compressed with BloscLZ, zstd (our own decoder, accepting and
//! refusing what libzstd 1.5.7 does, see `codec/zstd`), LZ4 and LZ4HC (our own decoder,
//! accepting what LZ4 1.10.0's `LZ4_decompress_safe` accepts) or, with the `std`
//! feature, zlib (miniz_oxide), all pure Rust, with the chunk's dictionary for zstd and
//! LZ4. The filters of the six slots are undone last slot first, through the buffers
//! C-Blosc2 3.3.5 uses (`pipeline.rs`): shuffle, bitshuffle, delta (every typesize),
//! bytedelta (filter 35), int_trunc (filter 36, a copy as C's); truncation of precision
//! needs no undoing. Chunks of variable-length blocks (C-Blosc2 3.x, python-blosc2's
//! BatchArray) decode to their blocks one after the other, as `blosc2_decompress` gives
//! them. Other plugin codecs and filters (NDLZ, ZFP, ndcell, user ids) are reported by
//! name and id
//! ([`ChunkErrorKind::CodecNotDecoded`], [`ChunkErrorKind::FilterNotDecoded`]); lazy
//! chunks, whose blocks are in their frame, as [`ChunkErrorKind::Unsupported`].
//!
//! The reference is C-Blosc2 3.3.5, what python-blosc2 4.14.1 runs: where it decodes,
//! this decoder gives its bytes; where it refuses, this decoder refuses, with a reason.
//!
//! Three ways to decode: [`decode`] a whole chunk into a new vector, within a
//! [`DecodeBudget`]; [`decode_into`] a whole chunk into the caller's buffer, as
//! `blosc2_decompress`; [`decode_range_into`] the blocks of a range that a mask picks
//! into a buffer holding that range (`..` for all, in place). [`Parts`] decodes a chunk
//! read in parts (its header, block starts and dictionary, then the blocks needed), as
//! C-Blosc2 reads a chunk of a frame on disk. With `std`, `compress` writes a chunk as
//! C-Blosc2 does.
//!
//! Nothing is allocated beyond what the input holds until the header's `nbytes` has been
//! checked against a limit (the budget's per-chunk one, [`DEFAULT_MAX_NBYTES`] by
//! default, or the destination's length), and no stream produces more than its block.
//!
//! ```
//! use b2nd_meta::chunk::{self, DecodeBudget};
//!
//! // python-blosc2 stores the 4-byte value {"a": 1} as a memcpyed chunk.
//! let budget = DecodeBudget::default();
//! let chunk = chunk::decode(&[
//!     5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0, // header: nbytes 4, cbytes 36
//!     0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, // filters: shuffle; zstd
//!     0x81, 0xa1, 0x61, 0x01,
//! ], &budget)?;
//! assert_eq!(chunk, [0x81, 0xa1, 0x61, 0x01]);
//! # Ok::<(), b2nd_meta::chunk::ChunkError>(())
//! ```

#[cfg(feature = "std")]
mod compress;
mod cursor;
mod decode;
mod dest;
mod error;
mod filters;
mod header;

#[cfg(feature = "std")]
pub use compress::{compress, compress_threads, CParams, CompressError};
#[cfg(feature = "std")]
pub(crate) use compress::{compress_into, splice, Fate, Input, Spliced};
/// The TRUNC_PREC filter on its own (the pipeline check's expected values).
#[cfg(feature = "std")]
pub(crate) use filters::trunc_prec::trunc_prec;
// The special-chunk rules, for the frame reader's shortcut (one place).
#[cfg(feature = "std")]
pub(crate) use decode::special_value;
pub use decode::{decode, decode_into, decode_range_into, DecodeBudget, Parts, DEFAULT_MAX_NBYTES};
// A per-chunk limit, with or without a budget, for the frame readers.
#[cfg(feature = "std")]
pub(crate) use decode::{decode_with_limit, decode_within_limit};
pub use error::{ChunkError, ChunkErrorKind, OverBudget};
pub use header::{ChunkHeader, EXTENDED_HEADER_LEN, MAX_BLOCKSIZE, MAX_BUFFERSIZE, MIN_HEADER_LEN};
