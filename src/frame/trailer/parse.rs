//! The trailer's bytes, marker by marker, over the one reader.

use std::string::{String, ToString};
use std::vec::Vec;

use super::model::{Trailer, VlMetalayer, FINGERPRINT_LEN, IDX_START, MAX_VLMETALAYERS, TAIL_LEN};
use crate::frame::error::{FrameError, FrameErrorKind};
use crate::frame::fields::{invalid, Bound, Fields};
use crate::wire::marker::{
    ARRAY16, BIN32, FIXARRAY, FIXEXT16, FIXSTR, INT32, MAP16, PFIX_MAX, UINT16, UINT32,
};
use crate::wire::read::Reader;

/// Parses the trailer's bytes; `base` is the trailer's offset in the frame.
pub(crate) fn parse_trailer_bytes(bytes: &[u8], base: u64) -> Result<Trailer, FrameError> {
    let len = bytes.len() as u32;
    let mut c = Fields::new(bytes, Bound::Input, base);
    c.marker(FIXARRAY + 4, "fixarray of 4 (0x94) starting the trailer")?;
    let version_at = c.pos();
    let version = c.byte("the trailer version")?;
    if version > PFIX_MAX {
        return Err(FrameError::at(
            c.at(version_at),
            FrameErrorKind::BadMarker {
                expected: "positive fixint (the trailer version)",
                found: version,
            },
        ));
    }
    c.marker(FIXARRAY + 3, "fixarray of 3 (0x93) before the vlmetalayers")?;
    c.marker(UINT16, "uint16 (0xcd) before the vlmetalayer index size")?;
    let idx_size_at = c.pos();
    let idx_size = c.read(Reader::be_u16, "the vlmetalayer index size")?;
    c.marker(MAP16, "map16 (0xde) starting the vlmetalayer index")?;
    let count_at = c.pos();
    let count = c.read(Reader::be_u16, "the number of vlmetalayers")?;
    if count > MAX_VLMETALAYERS {
        return Err(invalid(
            c.at(count_at),
            "number of vlmetalayers",
            i128::from(count),
            "expected at most 8192",
        ));
    }
    // Each index entry takes at least 6 bytes: nothing is reserved beyond what is there.
    let mut index: Vec<(String, usize, i32)> =
        Vec::with_capacity(usize::from(count).min(bytes.len() / 6));
    for _ in 0..count {
        let name_at = c.pos();
        let m = c.byte("a vlmetalayer name (fixstr)")?;
        if m & 0xe0 != FIXSTR {
            return Err(FrameError::at(
                c.at(name_at),
                FrameErrorKind::BadMarker {
                    expected: "fixstr (0xa0..=0xbf) for a vlmetalayer name",
                    found: m,
                },
            ));
        }
        let raw = c.bytes(usize::from(m & 0x1f), "a vlmetalayer name")?;
        let name = core::str::from_utf8(raw).map_err(|_| {
            FrameError::at(
                c.at(name_at + 1),
                FrameErrorKind::InvalidName {
                    reason: "not UTF-8",
                },
            )
        })?;
        if name.contains('\0') {
            return Err(FrameError::at(
                c.at(name_at + 1),
                FrameErrorKind::InvalidName {
                    reason: "contains NUL",
                },
            ));
        }
        // A name twice is kept twice, in its place: C-Blosc2 opens such a trailer, and
        // its lookups take a name's first entry (`Trailer::get`).
        c.marker(INT32, "int32 (0xd2) before a vlmetalayer offset")?;
        let off_at = c.pos();
        let off = c.read(Reader::be_i32, "a vlmetalayer offset")?;
        index.push((name.to_string(), off_at, off));
    }
    let idx_end = c.pos();
    if usize::from(idx_size) != idx_end - IDX_START {
        return Err(invalid(
            c.at(idx_size_at),
            "vlmetalayer index size",
            i128::from(idx_size),
            "expected the bytes from the 0xcd to the end of the index",
        ));
    }
    c.marker(ARRAY16, "array16 (0xdc) before the vlmetalayer contents")?;
    let contents_at = c.pos();
    let contents = c.read(Reader::be_u16, "the number of vlmetalayer contents")?;
    if contents != count {
        return Err(FrameError::at(
            c.at(contents_at),
            FrameErrorKind::MetalayerCountMismatch {
                index: count,
                contents,
            },
        ));
    }
    let mut vlmetalayers = Vec::with_capacity(index.len());
    for (name, off_at, off) in index {
        let here = c.pos();
        if off < 0 || off as usize != here {
            return Err(FrameError::at(
                c.at(off_at),
                FrameErrorKind::OffsetMismatch {
                    name,
                    value: off,
                    actual: c.at(here),
                },
            ));
        }
        c.marker(BIN32, "bin32 (0xc6) for a vlmetalayer content")?;
        let content_len_at = c.pos();
        let content_len = c.read(Reader::be_i32, "a vlmetalayer content length")?;
        let content_len = usize::try_from(content_len).map_err(|_| {
            invalid(
                c.at(content_len_at),
                "vlmetalayer content length",
                i128::from(content_len),
                "expected at least 0",
            )
        })?;
        let content = c.bytes(content_len, "a vlmetalayer content")?.to_vec();
        vlmetalayers.push(VlMetalayer {
            name,
            offset: c.at(here),
            content,
        });
    }
    let tail_at = c.pos();
    if tail_at as u64 + u64::from(TAIL_LEN) != u64::from(len) {
        return Err(invalid(
            c.at(tail_at),
            "trailer length",
            i128::from(len),
            "expected the vlmetalayer contents to end 23 bytes before the trailer's end",
        ));
    }
    c.marker(UINT32, "uint32 (0xce) before the trailer length")?;
    let len_at = c.pos();
    let stored = c.read(Reader::be_u32, "the trailer length")?;
    if stored != len {
        return Err(invalid(
            c.at(len_at),
            "trailer length",
            i128::from(stored),
            "expected the length read from the frame's end",
        ));
    }
    c.marker(FIXEXT16, "fixext 16 (0xd8) for the fingerprint")?;
    let kind = c.byte("the fingerprint type")?;
    let fp: [u8; FINGERPRINT_LEN] = c.read(Reader::array, "the fingerprint")?;
    Ok(Trailer {
        offset: base,
        len,
        version,
        vlmetalayers,
        fingerprint: (kind, fp),
    })
}
