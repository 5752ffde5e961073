//! The frame trailer and its variable-length metalayers (`vlmeta`), read as C-Blosc2's
//! `frame_get_vlmetalayers` / `get_vlmeta_from_trailer` (`blosc/frame.c`) read them, and
//! as strictly as the header.
//!
//! ```text
//! trailer = 0x94                         fixarray of 4
//!           version                      positive fixint (1; 0 before 2.0.0-beta.3)
//!           0x93                         fixarray of 3: the vlmetalayers
//!             0xcd idx_size              uint16: bytes from the 0xcd to the end of the index
//!             0xde n                     map16 of n <= 8192 entries:
//!               0xa0+len name 0xd2 off     fixstr name -> int32 offset (in the trailer) of
//!             0xdc n                     array16 of n contents, in index order:
//!               0xc6 len chunk             bin32: a Blosc2 chunk (see `crate::chunk`)
//!           0xce trailer_len             uint32: the trailer's length
//!           0xd8 type fingerprint[16]    fixext 16 (type 0: no fingerprint)
//! ```
//!
//! The trailer is found from the frame's end: its length is in the 25 last bytes of the
//! frame (`frame_len - 25`); it starts at `frame_len - trailer_len`, or right after the
//! header when the frame holds no data (`nbytes == 0`), as C's `get_trailer_offset`.
//! Only the header, those 25 bytes and the trailer are read, never the data.

mod kept;
pub(crate) mod parse;

#[cfg(test)]
pub(crate) use kept::TRAILER_READS;

use std::string::String;
use std::sync::OnceLock;
use std::vec::Vec;

use super::fields::{invalid, Bound, Fields};
use super::{FrameError, FrameErrorKind, FrameHeader, FrameInfo, FIXED_HEADER_LEN};
use crate::chunk;
use crate::io::{read_vec_at, ReadAt};
use crate::wire::marker::UINT32;
use crate::wire::read::Reader;
use parse::parse_trailer_bytes;

/// The shortest trailer, and the bytes C reads at the frame's end (`FRAME_TRAILER_MINLEN`).
pub const TRAILER_MIN_LEN: u32 = 25;
/// The most vlmetalayers a trailer holds (`BLOSC2_MAX_VLMETALAYERS`).
pub const MAX_VLMETALAYERS: u16 = 8 * 1024;
/// From the `0xce` of the trailer length to the trailer's end: 0xce, u32, 0xd8, type, 16.
pub(crate) const TAIL_LEN: u32 = 23;
/// Offset of the `0xce` marker in the 25 last bytes of a frame (`FRAME_TRAILER_LEN_OFFSET`).
const TAIL_IN_LAST: usize = (TRAILER_MIN_LEN - TAIL_LEN) as usize;
/// A chunk that starts before this offset cannot be preceded by a header (C's check).
const MIN_TRAILER_OFFSET: u64 = chunk::EXTENDED_HEADER_LEN as u64;
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
    /// The variable-length metalayers, in index order.
    pub vlmetalayers: Vec<VlMetalayer>,
    /// The fingerprint type (0: none) and its 16 bytes.
    pub fingerprint: (u8, [u8; FINGERPRINT_LEN]),
}

impl Trailer {
    /// The vlmetalayer called `name`, if any.
    pub fn vlmetalayer(&self, name: &str) -> Option<&VlMetalayer> {
        self.vlmetalayers.iter().find(|m| m.name == name)
    }

    /// The vlmetalayer names, in index order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vlmetalayers.iter().map(|m| m.name.as_str())
    }
}

/// Where the trailer starts and how long it is, from the header and the frame's 25
/// last bytes (`last`, read at `frame_len - 25`), with C-Blosc2's checks.
pub(crate) fn locate(info: &FrameInfo, last: &[u8]) -> Result<(u64, u32), FrameError> {
    let frame_len = info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let mut c = Fields::new(last, Bound::Input, last_at);
    c.r.advance(TAIL_IN_LAST);
    c.marker(UINT32, "uint32 (0xce) before the trailer length")?;
    let len = c.read(Reader::be_u32, "the trailer length")?;
    let len_at = last_at + TAIL_IN_LAST as u64 + 1;
    let max = frame_len.saturating_sub(FIXED_HEADER_LEN as u64);
    if len < TRAILER_MIN_LEN || i32::try_from(len).is_err() || u64::from(len) > max {
        return Err(invalid(
            len_at,
            "trailer length",
            i128::from(len),
            "expected from 25 to frame_len - 87",
        ));
    }
    let offset = if info.nbytes > 0 {
        frame_len - u64::from(len)
    } else {
        u64::from(info.header_len)
    };
    if offset < MIN_TRAILER_OFFSET || offset + u64::from(len) > frame_len {
        return Err(invalid(
            len_at,
            "trailer length",
            i128::from(len),
            "the trailer would not fit between the header and frame_len",
        ));
    }
    Ok((offset, len))
}

/// Parses the trailer of a frame held whole in memory (`frame` starts at the frame's
/// first byte; for a sparse frame, `chunks.b2frame`), after its `header`.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd"))?;
/// let header = b2nd_meta::frame::parse_header(&bytes)?;
/// let trailer = b2nd_meta::frame::parse_trailer(&bytes, &header)?;
/// assert_eq!(trailer.offset + u64::from(trailer.len), header.info.frame_len);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_trailer(frame: &[u8], header: &FrameHeader) -> Result<Trailer, FrameError> {
    let frame_len = header.info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = slice(
        frame,
        last_at,
        u64::from(TRAILER_MIN_LEN),
        "the trailer length (the frame's 25 last bytes)",
    )?;
    let (offset, len) = locate(&header.info, last)?;
    let bytes = slice(frame, offset, u64::from(len), "the trailer")?;
    parse_trailer_bytes(bytes, offset)
}

/// Reads the trailer of the frame that starts at byte 0 of `src`, after its `header`:
/// two reads (25 bytes, then the trailer), whatever the size of the data between.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let file = std::fs::File::open(path)?;
/// let header = b2nd_meta::frame::read_header(&file)?;
/// let trailer = b2nd_meta::frame::read_trailer(&file, &header)?;
/// assert_eq!(trailer.version, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_trailer<S: ReadAt>(src: S, header: &FrameHeader) -> Result<Trailer, FrameError> {
    let frame_len = header.info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = read_at(
        &src,
        last_at,
        TRAILER_MIN_LEN,
        "the trailer length (the frame's 25 last bytes)",
    )?;
    let (offset, len) = locate(&header.info, &last)?;
    let bytes = read_at(&src, offset, len, "the trailer")?;
    parse_trailer_bytes(&bytes, offset)
}

fn slice<'a>(
    frame: &'a [u8],
    at: u64,
    len: u64,
    what: &'static str,
) -> Result<&'a [u8], FrameError> {
    let end = at.saturating_add(len);
    usize::try_from(at)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(a, e)| frame.get(a..e))
        .ok_or(FrameError::at(
            at,
            FrameErrorKind::Truncated {
                what,
                end,
                available: frame.len() as u64,
            },
        ))
}

fn read_at<S: ReadAt>(
    src: &S,
    at: u64,
    len: u32,
    what: &'static str,
) -> Result<Vec<u8>, FrameError> {
    // Grows only as bytes arrive: a trailer length the file does not hold costs nothing.
    let out = read_vec_at(src, at, len as usize).map_err(FrameError::io(None))?;
    if out.len() < len as usize {
        return Err(FrameError::at(
            at,
            FrameErrorKind::Truncated {
                what,
                end: at + u64::from(len),
                available: at + out.len() as u64,
            },
        ));
    }
    Ok(out)
}

/// The trailer of a [`FrameFile`](crate::frame::FrameFile), read at its first use and
/// kept: one read serves every vlmeta call on that `FrameFile` (python's
/// `schunk.vlmeta` is one object too).
#[derive(Clone, Default)]
pub(crate) struct TrailerCache(OnceLock<Trailer>);
