//! `CompressError`: why [`compress`](super::compress) refuses its parameters or input.

use core::fmt::{self, Display};

use crate::blosc::{Codec, Filter};
use crate::chunk::header::MAX_BUFFERSIZE;

/// Parameters or an input C-Blosc2 refuses to compress (`blosc2_compress_ctx`'s
/// `BLOSC2_ERROR_*`), or a filter this crate does not apply.
///
/// ```
/// use b2nd_meta::chunk::{compress, CParams, CompressError};
/// let params = CParams { clevel: 10, ..CParams::default() };
/// assert_eq!(compress(b"", &params), Err(CompressError::Clevel { found: 10 }));
/// ```
///
/// Its `Debug` is its message, on one line (as `main` prints it).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompressError {
    /// A codec this crate does not compress with (a plugin or an unknown id).
    Codec {
        /// The codec.
        codec: Codec,
    },
    /// More bytes than one chunk holds (`BLOSC2_MAX_BUFFERSIZE`).
    TooLarge {
        /// The input's length.
        nbytes: usize,
    },
    /// The level is not from 0 to 9.
    Clevel {
        /// The level given.
        found: u8,
    },
    /// The type size is 0.
    Typesize,
    /// The block size is not a multiple of the type size, or larger than C-Blosc2's
    /// largest block (`BLOSC2_MAXBLOCKSIZE`).
    Blocksize {
        /// The block size given.
        blocksize: usize,
        /// The type size.
        typesize: usize,
    },
    /// A filter this crate does not apply (a plugin or user filter).
    Filter {
        /// The slot.
        slot: usize,
        /// The filter.
        filter: Filter,
    },
    /// Truncation of precision on elements other than 4- or 8-byte floats, or with a
    /// number of bits that would keep or drop the whole mantissa.
    TruncPrec {
        /// The slot.
        slot: usize,
        /// The meta byte (an `i8`: bits kept when positive, dropped when negative).
        meta: u8,
        /// The type size.
        typesize: usize,
    },
}

impl Display for CompressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompressError::Codec { codec } => write!(
                f,
                "expected blosclz, lz4, lz4hc, zlib or zstd, found {codec}, which this crate does not compress with"
            ),
            CompressError::TooLarge { nbytes } => write!(
                f,
                "{nbytes} bytes do not fit one Blosc2 chunk (at most {MAX_BUFFERSIZE})"
            ),
            CompressError::Clevel { found } => {
                write!(f, "expected a compression level from 0 to 9, found {found}")
            }
            CompressError::Typesize => f.write_str("expected a type size of at least 1, found 0"),
            CompressError::Blocksize {
                blocksize,
                typesize,
            } => write!(
                f,
                "expected a block size that is a multiple of the type size {typesize} \
                 and at most 536866816, found {blocksize}"
            ),
            CompressError::Filter { slot, filter } => {
                write!(
                    f,
                    "{filter} in filter slot {slot} is not applied by this crate"
                )
            }
            CompressError::TruncPrec {
                slot,
                meta,
                typesize,
            } => write!(
                f,
                "trunc_prec in filter slot {slot}: expected 4- or 8-byte floats and a \
                 precision that keeps part of the mantissa, found type size {typesize} \
                 and precision {}",
                *meta as i8
            ),
        }
    }
}

impl core::error::Error for CompressError {}

crate::located::debug_as_display!(CompressError);
