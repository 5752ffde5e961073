//! `ChunkError`: why a Blosc2 chunk does not decode, and where.

use alloc::boxed::Box;
use core::fmt::{self, Display};

use crate::blosc::{Codec, Filter};

/// A Blosc2 chunk that does not decode.
///
/// [`ChunkError::offset`] counts from the first byte of the chunk;
/// [`ChunkError::kind`] says what was expected and what was found.
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkErrorKind};
///
/// let err = chunk::decode(&[5, 1, 2, 1]).unwrap_err();
/// assert_eq!(err.offset(), Some(4));
/// assert!(matches!(err.kind(), ChunkErrorKind::UnexpectedEnd { .. }));
/// assert_eq!(
///     err.to_string(),
///     "the chunk ends at byte 4, 4 byte(s) short of nbytes (int32, little-endian) at byte 4"
/// );
/// ```
#[derive(Debug)]
pub struct ChunkError {
    inner: Box<Inner>,
}

#[derive(Debug)]
struct Inner {
    offset: Option<u64>,
    kind: ChunkErrorKind,
}

/// What is wrong with a chunk; see [`ChunkError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ChunkErrorKind {
    /// The input ends inside a field or a stream.
    #[error("the chunk ends at byte {input_len}, {needed} byte(s) short of {what}")]
    UnexpectedEnd {
        /// The field being read.
        what: &'static str,
        /// Length of the whole input.
        input_len: u64,
        /// How many bytes are missing.
        needed: u64,
    },
    /// A header field holds a value C-Blosc2 refuses.
    #[error("expected {field} {expected}, found {found}")]
    InvalidField {
        /// Which field.
        field: &'static str,
        /// What is allowed.
        expected: &'static str,
        /// The value found.
        found: i64,
    },
    /// A chunk format version this crate does not know the layout of.
    #[error("expected a chunk format version from 0 to {max}, found {found}")]
    UnsupportedVersion {
        /// The version byte.
        found: u8,
        /// The newest version known.
        max: u8,
    },
    /// A feature of the chunk format this decoder does not implement (lazy chunks,
    /// dictionaries, variable-length blocks).
    #[error("the chunk uses {feature}, which is not decoded")]
    Unsupported {
        /// The feature.
        feature: &'static str,
    },
    /// The chunk is compressed with a codec this crate does not decode.
    #[error("the chunk is compressed with {codec}, which is not decoded")]
    CodecNotDecoded {
        /// The codec.
        codec: Codec,
    },
    /// The chunk's filter pipeline holds a filter this crate does not undo.
    #[error("the chunk is filtered with {filter}, which is not decoded")]
    FilterNotDecoded {
        /// The filter.
        filter: Filter,
    },
    /// The chunk declares more decompressed bytes than the caller allows.
    #[error("expected at most {limit} decompressed bytes, found nbytes {nbytes}")]
    TooLarge {
        /// The header's `nbytes`.
        nbytes: u64,
        /// The limit.
        limit: u64,
    },
    /// A block start (`bstarts`) that does not point inside the chunk.
    #[error(
        "expected block {block} to start inside the chunk (bytes {min}..{cbytes}), found {found}"
    )]
    BadBlockStart {
        /// The block.
        block: u64,
        /// The start read.
        found: i64,
        /// The first byte after the bstarts section.
        min: u64,
        /// The chunk's `cbytes`.
        cbytes: u64,
    },
    /// A stream's token byte (after a negative `csize`) that is not a run of a byte.
    #[error("expected a run-length token (bit 0 set) after csize {csize}, found {token:#04x}")]
    BadToken {
        /// The negative csize.
        csize: i32,
        /// The token byte.
        token: u8,
    },
    /// A stream that decompresses to another length than the block needs.
    #[error("expected a stream of {expected} decompressed bytes, found {found}")]
    StreamLength {
        /// What the block needs.
        expected: u64,
        /// What the stream holds (at least this many).
        found: u64,
    },
    /// A zstd stream that libzstd 1.5.6 (C-Blosc2's zstd) refuses: a frame, block or
    /// section header, a dictionary, or entropy-coded data that does not decode or end
    /// where libzstd wants it to.
    #[error("expected {expected} in the zstd {field}, found {found} (byte {frame_offset} of the zstd frame)")]
    ZstdHeader {
        /// Which header.
        field: &'static str,
        /// What libzstd accepts.
        expected: &'static str,
        /// The value found.
        found: u64,
        /// Where, from the start of the zstd stream (its first frame); for the
        /// chunk's dictionary, from the dictionary's start.
        frame_offset: u64,
    },
    /// An LZ4 block that C's `LZ4_decompress_safe` (LZ4 1.10.0) refuses, at the input
    /// byte where C stops (its negative result), or whose match offset is 0 (a copy of
    /// the bytes being written: C decodes it to whatever its copy leaves).
    #[error("expected {expected} {limit}, found {found} (byte {stream_offset} of the LZ4 stream)")]
    Lz4 {
        /// The rule broken.
        expected: &'static str,
        /// The bound the rule sets (a byte position, a length or an offset).
        limit: u64,
        /// The value found.
        found: u64,
        /// Where C stops, from the start of the LZ4 stream.
        stream_offset: u64,
    },
    /// The codec's own error on a stream.
    #[error("the {codec} stream does not decompress: {message}")]
    Codec {
        /// The codec.
        codec: Codec,
        /// The codec's message.
        message: alloc::string::String,
    },
}

impl ChunkError {
    /// An error at byte `offset` of the chunk.
    pub(crate) fn at(offset: usize, kind: ChunkErrorKind) -> Self {
        ChunkError {
            inner: Box::new(Inner {
                offset: Some(offset as u64),
                kind,
            }),
        }
    }

    /// An error not at one place.
    #[allow(dead_code)] // the convention's constructor; every chunk error has a place so far
    pub(crate) fn new(kind: ChunkErrorKind) -> Self {
        ChunkError {
            inner: Box::new(Inner { offset: None, kind }),
        }
    }

    /// The byte offset from the start of the chunk, when the error is at one place.
    ///
    /// ```
    /// let err = b2nd_meta::chunk::decode(&[]).unwrap_err();
    /// assert_eq!(err.offset(), Some(0));
    /// ```
    pub fn offset(&self) -> Option<u64> {
        self.inner.offset
    }

    /// What went wrong.
    ///
    /// ```
    /// use b2nd_meta::chunk::ChunkErrorKind;
    /// let err = b2nd_meta::chunk::decode(&[]).unwrap_err();
    /// assert!(matches!(err.kind(), ChunkErrorKind::UnexpectedEnd { needed: 1, .. }));
    /// ```
    pub fn kind(&self) -> &ChunkErrorKind {
        &self.inner.kind
    }
}

impl Display for ChunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Display::fmt(&self.inner.kind, f)?;
        if let Some(offset) = self.inner.offset {
            write!(f, " at byte {offset}")?;
        }
        Ok(())
    }
}

impl core::error::Error for ChunkError {}
