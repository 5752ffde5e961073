//! The metalayer section of a frame header: the index (names and offsets) and the
//! contents, checked against the layout C-Blosc2 writes.

use std::borrow::ToOwned;
use std::string::String;
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::fields::{invalid, Bound, Fields};
use super::header::{Metalayer, FIXED_HEADER_LEN, MAX_METALAYERS, METALAYER_NAME_MAXLEN};
use crate::marker::{
    ARRAY16, BIN32, FIXARRAY, FIXSTR, FIXSTR_MAX, INT32, MAP16, STR16, STR32, STR8, UINT16,
};
use crate::read::Reader;

/// Offset of the index size (uint16), from C-Blosc2's `blosc/frame.h`.
const OFF_IDX_SIZE: usize = 89;
/// The metalayer section is a fixarray of 3: index size, index, contents.
const SECTION_ARRAY: u8 = FIXARRAY + 3;

struct IndexEntry {
    name: String,
    offset_at: usize,
    offset: i32,
}

const NAME_MARKER: &str = "a msgpack fixstr marker (0xa0..=0xbf) for a metalayer name";

/// Parse the metalayer section of `header` (exactly `header_len` bytes).
pub(crate) fn parse_metalayers(
    header: &[u8],
    header_len: u32,
) -> Result<Vec<Metalayer>, FrameError> {
    let mut c = Fields {
        r: Reader::new(header),
        bound: Bound::Header(header_len),
    };
    c.r.advance(FIXED_HEADER_LEN);
    c.marker(
        SECTION_ARRAY,
        "0x93 (msgpack fixarray of 3) at the start of the metalayers",
    )?;
    c.marker(
        UINT16,
        "0xcd (msgpack uint16) before the metalayer index size",
    )?;
    let idx_size = c.read(Reader::be_u16, "metalayer index size")?;
    c.marker(MAP16, "0xde (msgpack map16) before the metalayer index")?;
    let count_at = c.pos();
    let n = c.read(Reader::be_u16, "number of metalayers in the index")?;
    if usize::from(n) > MAX_METALAYERS {
        return Err(FrameError::at(
            count_at as u64,
            FrameErrorKind::TooManyMetalayers { count: n },
        ));
    }

    let mut entries: Vec<IndexEntry> = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        let marker_at = c.pos();
        let marker = c.byte("metalayer name marker")?;
        let name_len = match marker {
            FIXSTR..=FIXSTR_MAX => usize::from(marker - FIXSTR),
            STR8 => {
                let len = c.byte("str8 length")?;
                return Err(not_fixstr(marker_at, marker, len.into()));
            }
            STR16 => {
                let len = c.read(Reader::be_u16, "str16 length")?;
                return Err(not_fixstr(marker_at, marker, len.into()));
            }
            STR32 => {
                let len = c.read(Reader::be_u32, "str32 length")?;
                return Err(not_fixstr(marker_at, marker, len.into()));
            }
            found => {
                return Err(FrameError::at(
                    marker_at as u64,
                    FrameErrorKind::BadMarker {
                        expected: NAME_MARKER,
                        found,
                    },
                ))
            }
        };
        let name_at = c.pos() as u64;
        let raw = c.bytes(name_len, "metalayer name")?;
        let bad_name = |reason| FrameError::at(name_at, FrameErrorKind::InvalidName { reason });
        if raw.contains(&0) {
            return Err(bad_name("contains a NUL byte"));
        }
        let name = std::str::from_utf8(raw).map_err(|_| bad_name("not valid UTF-8"))?;
        if entries.iter().any(|e| e.name == name) {
            return Err(FrameError::at(
                marker_at as u64,
                FrameErrorKind::DuplicateName {
                    name: name.to_owned(),
                },
            ));
        }
        c.marker(INT32, "0xd2 (msgpack int32) before a metalayer offset")?;
        let offset_at = c.pos();
        let offset = c.read(Reader::be_i32, "metalayer offset")?;
        if offset < 0 || offset as u32 >= header_len {
            return Err(FrameError::at(
                offset_at as u64,
                FrameErrorKind::OffsetOutsideHeader {
                    name: name.to_owned(),
                    value: offset,
                    header_len,
                },
            ));
        }
        entries.push(IndexEntry {
            name: name.to_owned(),
            offset_at,
            offset,
        });
    }

    let index_span = c.pos().saturating_sub(FIXED_HEADER_LEN) as u64;
    if u64::from(idx_size) != index_span {
        return Err(FrameError::at(
            OFF_IDX_SIZE as u64,
            FrameErrorKind::IndexSizeMismatch {
                declared: idx_size,
                actual: index_span,
            },
        ));
    }

    c.marker(
        ARRAY16,
        "0xdc (msgpack array16) before the metalayer contents",
    )?;
    let contents_at = c.pos();
    let m = c.read(Reader::be_u16, "number of metalayer contents")?;
    if m != n {
        return Err(FrameError::at(
            contents_at as u64,
            FrameErrorKind::MetalayerCountMismatch {
                index: n,
                contents: m,
            },
        ));
    }

    let mut metalayers = Vec::with_capacity(entries.len());
    for e in entries {
        let at = c.pos();
        if i64::from(e.offset) != at as i64 {
            return Err(FrameError::at(
                e.offset_at as u64,
                FrameErrorKind::OffsetMismatch {
                    name: e.name,
                    value: e.offset,
                    actual: at as u64,
                },
            ));
        }
        c.marker(BIN32, "0xc6 (msgpack bin32) before a metalayer content")?;
        let len_at = c.pos();
        let len = c.read(Reader::be_i32, "metalayer content length")?;
        let len = usize::try_from(len)
            .map_err(|_| invalid(len_at, "metalayer content length", len, "negative"))?;
        let content = c.bytes(len, "metalayer content")?.to_vec();
        metalayers.push(Metalayer {
            name: e.name,
            offset: at as u64,
            content,
        });
    }

    if c.pos() as u64 != u64::from(header_len) {
        return Err(FrameError::at(
            c.pos() as u64,
            FrameErrorKind::HeaderLenMismatch {
                header_len,
                section_end: c.pos() as u64,
            },
        ));
    }
    Ok(metalayers)
}

/// A name in a str8/16/32 (C writes only fixstr names): too long if it is, otherwise
/// simply the wrong marker.
fn not_fixstr(offset: usize, marker: u8, len: u64) -> FrameError {
    let kind = if len > METALAYER_NAME_MAXLEN as u64 {
        FrameErrorKind::NameTooLong { len }
    } else {
        FrameErrorKind::BadMarker {
            expected: NAME_MARKER,
            found: marker,
        }
    };
    FrameError::at(offset as u64, kind)
}
