//! `ChunkError`: why a Blosc2 chunk does not decode, and where.

use crate::blosc::{Codec, Filter};
use crate::codec;
use crate::located::{Class, Kind, Located};

/// A Blosc2 chunk that does not decode.
///
/// [`ChunkError::offset`] counts from the first byte of the chunk;
/// [`ChunkError::kind`] says what was expected and what was found.
///
/// ```
/// use b2nd_meta::chunk::{self, ChunkErrorKind};
///
/// let err = chunk::decode(&[5, 1, 2, 1], &chunk::DecodeBudget::default()).unwrap_err();
/// assert_eq!(err.offset(), Some(4));
/// assert!(matches!(err.kind(), ChunkErrorKind::UnexpectedEnd { .. }));
/// assert_eq!(
///     err.to_string(),
///     "the chunk ends at byte 4, 4 byte(s) short of nbytes (int32, little-endian) at byte 4"
/// );
/// ```
pub type ChunkError = Located<ChunkErrorKind>;

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
    /// A block read on its own (a chunk read in parts, as C-Blosc2 reads a chunk of a
    /// frame on disk) ends inside a field or a stream: its stored bytes end where the
    /// next block's start.
    #[error("the block's stored bytes end at byte {end} (the next block's start), {needed} byte(s) short of {what}")]
    BlockEnd {
        /// The field being read.
        what: &'static str,
        /// Where the block's stored bytes end, in the chunk.
        end: u64,
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
    /// A chunk format version from the future whose `blosc2_flags2` (byte 30) holds
    /// features this decoder does not know (C-Blosc2 3.3.5 reads a newer version as its
    /// own unless it does).
    #[error(
        "expected a chunk format version at most {max}, or blosc2_flags2 without other \
         features than variable-length blocks, found version {found} with blosc2_flags2 {flags2:#04x}"
    )]
    UnsupportedVersion {
        /// The version byte.
        found: u8,
        /// The newest version known.
        max: u8,
        /// `blosc2_flags2` (byte 30).
        flags2: u8,
    },
    /// A feature of the chunk format this decoder does not implement (lazy chunks,
    /// whose blocks are in their frame).
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
    /// The chunk's `nbytes` is more than what is left of the call's decode budget
    /// ([`DecodeBudget`](super::DecodeBudget)).
    #[error("{0}")]
    OverBudget(OverBudget),
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
    /// A zstd stream that libzstd 1.5.7 (C-Blosc2 3.3.5's zstd) refuses: a frame, block or
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

/// A header or section field at byte `offset` that C-Blosc2 refuses.
pub(super) fn invalid(
    offset: usize,
    field: &'static str,
    expected: &'static str,
    found: i64,
) -> ChunkError {
    ChunkError::at(
        offset,
        ChunkErrorKind::InvalidField {
            field,
            expected,
            found,
        },
    )
}

impl Kind for ChunkErrorKind {
    fn class(&self) -> Class {
        use ChunkErrorKind::*;
        match self {
            UnexpectedEnd { .. } => Class::Truncated,
            BlockEnd { .. } => Class::Syntax,
            UnsupportedVersion { .. }
            | Unsupported { .. }
            | CodecNotDecoded { .. }
            | FilterNotDecoded { .. } => Class::Unsupported,
            TooLarge { .. } => Class::TooLarge,
            OverBudget(_) => Class::TooLarge,
            InvalidField { .. }
            | BadBlockStart { .. }
            | BadToken { .. }
            | StreamLength { .. }
            | ZstdHeader { .. }
            | Lz4 { .. }
            | Codec { .. } => Class::Syntax,
        }
    }
}

/// The codecs' refusals, each in its own words, as chunk errors (offsets still in the
/// stream: the caller moves them into the chunk).
impl From<codec::lz4::Refusal> for ChunkErrorKind {
    fn from(r: codec::lz4::Refusal) -> Self {
        ChunkErrorKind::Lz4 {
            expected: r.expected,
            limit: r.limit,
            found: r.found,
            stream_offset: r.at,
        }
    }
}

impl From<codec::zstd::Refusal> for ChunkErrorKind {
    fn from(r: codec::zstd::Refusal) -> Self {
        ChunkErrorKind::ZstdHeader {
            field: r.field,
            expected: r.expected,
            found: r.found,
            frame_offset: r.at,
        }
    }
}

impl From<codec::blosclz::Refusal> for ChunkErrorKind {
    fn from(r: codec::blosclz::Refusal) -> Self {
        ChunkErrorKind::Codec {
            codec: Codec::BloscLz,
            message: r.message,
        }
    }
}

#[cfg(feature = "std")]
impl From<codec::zlib::Refusal> for ChunkErrorKind {
    fn from(r: codec::zlib::Refusal) -> Self {
        ChunkErrorKind::Codec {
            codec: Codec::Zlib,
            message: r.message,
        }
    }
}

/// A decode refused because the budget does not hold it
/// ([`DecodeBudget`](super::DecodeBudget)). Its `Debug` is its message (as `main`
/// prints it).
#[derive(Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected at most {left} more decoded bytes (what is left of a decode budget of \
     {limit}), found {nbytes}"
)]
pub struct OverBudget {
    /// What the decode would produce.
    pub nbytes: u64,
    /// What is left of the budget.
    pub left: u64,
    /// The whole budget.
    pub limit: u64,
}

crate::located::debug_as_display!(OverBudget);
