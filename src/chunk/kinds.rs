//! What a chunk header names: its codec, its filters, its special value.

use core::fmt::{self, Display};

/// The codec of a chunk: the format code in bits 5..7 of `flags`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChunkCodec {
    /// 0: BloscLZ.
    BloscLz,
    /// 1: LZ4 or LZ4HC.
    Lz4,
    /// 3: zlib.
    Zlib,
    /// 4: Zstandard.
    Zstd,
    /// 6: a user-defined codec, with its id from the extended header.
    UserDefined(u8),
    /// 2, 5, 7: reserved or kept in the super-chunk.
    Other(u8),
}

impl ChunkCodec {
    pub(super) fn from_format(format: u8, udcodec: u8) -> Self {
        match format {
            0 => ChunkCodec::BloscLz,
            1 => ChunkCodec::Lz4,
            3 => ChunkCodec::Zlib,
            4 => ChunkCodec::Zstd,
            6 => ChunkCodec::UserDefined(udcodec),
            other => ChunkCodec::Other(other),
        }
    }

    /// The codec's name, as python-blosc2 spells it (`"zstd"`, `"blosclz"`).
    ///
    /// ```
    /// assert_eq!(b2nd_meta::chunk::ChunkCodec::Zstd.name(), "zstd");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ChunkCodec::BloscLz => "blosclz",
            ChunkCodec::Lz4 => "lz4",
            ChunkCodec::Zlib => "zlib",
            ChunkCodec::Zstd => "zstd",
            ChunkCodec::UserDefined(_) => "user-defined codec",
            ChunkCodec::Other(_) => "reserved codec",
        }
    }
}

impl Display for ChunkCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChunkCodec::UserDefined(id) => match registered_codec(*id) {
                Some(name) => write!(f, "{name} (codec {id})"),
                None => write!(f, "user-defined codec {id}"),
            },
            ChunkCodec::Other(code) => write!(f, "reserved codec format {code}"),
            other => f.write_str(other.name()),
        }
    }
}

/// The codecs C-Blosc2 registers as plugins (`include/blosc2/codecs-registry.h`).
pub(crate) fn registered_codec(id: u8) -> Option<&'static str> {
    Some(match id {
        32 => "ndlz",
        33 => "zfp_acc",
        34 => "zfp_prec",
        35 => "zfp_rate",
        36 => "openhtj2k",
        37 => "grok",
        38 => "openzl",
        39 => "j2k",
        40 => "htj2k",
        _ => return None,
    })
}

/// The filters C-Blosc2 registers as plugins (`include/blosc2/filters-registry.h`).
fn registered_filter(id: u8) -> Option<&'static str> {
    Some(match id {
        32 => "ndcell",
        33 => "ndmean",
        34 => "bytedelta_buggy",
        36 => "int_trunc",
        _ => return None,
    })
}

/// One slot of the filter pipeline (`BLOSC_SHUFFLE` and the others).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Filter {
    /// 0: no filter.
    None,
    /// 1: byte shuffle; the meta byte, when not 0, is the element size.
    Shuffle,
    /// 2: bit shuffle.
    BitShuffle,
    /// 3: delta.
    Delta,
    /// 4: precision truncation.
    TruncPrec,
    /// 35: bytedelta (a C-Blosc2 plugin); the meta byte, when not 0, is the element size.
    ByteDelta,
    /// Any other id (registered or user-defined).
    Other(u8),
}

impl Filter {
    pub(super) fn from_id(id: u8) -> Self {
        match id {
            0 => Filter::None,
            1 => Filter::Shuffle,
            2 => Filter::BitShuffle,
            3 => Filter::Delta,
            4 => Filter::TruncPrec,
            35 => Filter::ByteDelta,
            other => Filter::Other(other),
        }
    }
}

impl Filter {
    /// The filter's id, as the header's filter slots hold it.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn id(self) -> u8 {
        match self {
            Filter::None => 0,
            Filter::Shuffle => 1,
            Filter::BitShuffle => 2,
            Filter::Delta => 3,
            Filter::TruncPrec => 4,
            Filter::ByteDelta => 35,
            Filter::Other(id) => id,
        }
    }
}

impl Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Filter::None => f.write_str("no filter"),
            Filter::Shuffle => f.write_str("shuffle"),
            Filter::BitShuffle => f.write_str("bitshuffle"),
            Filter::Delta => f.write_str("delta"),
            Filter::TruncPrec => f.write_str("trunc_prec"),
            Filter::ByteDelta => f.write_str("bytedelta"),
            Filter::Other(id) => match registered_filter(*id) {
                Some(name) => write!(f, "{name} (filter {id})"),
                None => write!(f, "filter {id}"),
            },
        }
    }
}

/// A chunk whose whole content is one special value (`blosc2_flags` bits 4..6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    /// 1: zeros.
    Zero,
    /// 2: NaNs of the type's width.
    Nan,
    /// 3: one value, stored after the header, repeated.
    Value,
    /// 4: not initialized (decoded as zeros).
    Uninit,
}
