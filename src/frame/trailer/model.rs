//! The trailer's model: [`Trailer`], its [`VlMetalayer`]s, the format's sizes, and the
//! trailer a [`FrameFile`](crate::frame::FrameFile) keeps once read.

use std::string::String;
use std::sync::OnceLock;
use std::vec::Vec;

use crate::chunk;

/// The shortest trailer, and the bytes C reads at the frame's end (`FRAME_TRAILER_MINLEN`).
pub const TRAILER_MIN_LEN: u32 = 25;
/// The most vlmetalayers a trailer holds (`BLOSC2_MAX_VLMETALAYERS`).
pub const MAX_VLMETALAYERS: u16 = 8 * 1024;
/// From the `0xce` of the trailer length to the trailer's end: 0xce, u32, 0xd8, type, 16.
pub(crate) const TAIL_LEN: u32 = 23;
/// Offset of the `0xce` marker in the 25 last bytes of a frame (`FRAME_TRAILER_LEN_OFFSET`).
pub(super) const TAIL_IN_LAST: usize = (TRAILER_MIN_LEN - TAIL_LEN) as usize;
/// A chunk that starts before this offset cannot be preceded by a header (C's check).
pub(super) const MIN_TRAILER_OFFSET: u64 = chunk::EXTENDED_HEADER_LEN as u64;
/// Where the vlmetalayer index size sits in the trailer; idx_size counts from here.
pub(crate) const IDX_START: usize = 3;
/// Fingerprint bytes after the fixext 16's type byte.
pub(crate) const FINGERPRINT_LEN: usize = 16;

/// A variable-length metalayer: its name and its content, a Blosc2 chunk.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VlMetalayer {
    /// Its name (UTF-8, at most 31 bytes).
    pub name: String,
    /// Offset from the start of the frame of its `0xc6` marker; the chunk starts 5
    /// bytes later.
    pub offset: u64,
    /// The stored chunk (compressed or not): decode it with [`VlMetalayer::decode`].
    pub content: Vec<u8>,
}

/// A parsed trailer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Trailer {
    /// Offset of the trailer from the start of the frame.
    pub offset: u64,
    /// Its length (the uint32 near its end).
    pub len: u32,
    /// The trailer format version (byte 1).
    pub version: u8,
    /// The variable-length metalayers, in index order (a name the index holds twice is
    /// here twice: C-Blosc2 opens such a frame, its lookups taking the first).
    pub vlmetalayers: Vec<VlMetalayer>,
    /// The fingerprint type (0: none) and its 16 bytes.
    pub fingerprint: (u8, [u8; FINGERPRINT_LEN]),
}

impl Trailer {
    /// The vlmetalayer called `name`, if any: the first of that name, as C-Blosc2's
    /// lookups (and so python-blosc2's `vlmeta[name]`) take it.
    pub fn vlmetalayer(&self, name: &str) -> Option<&VlMetalayer> {
        self.vlmetalayers.iter().find(|m| m.name == name)
    }

    /// The vlmetalayer names, in index order, a name held twice given twice (python's
    /// `vlmeta.keys()`).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vlmetalayers.iter().map(|m| m.name.as_str())
    }
}

/// The trailer of a [`FrameFile`](crate::frame::FrameFile), read at its first use and
/// kept: one read serves every vlmeta call on that `FrameFile` (python's
/// `schunk.vlmeta` is one object too).
#[derive(Clone, Default)]
pub(crate) struct TrailerCache(pub(crate) OnceLock<Trailer>);
