//! The metalayer section of a frame header, read as C-Blosc2's `get_meta_from_header`
//! reads it: the map16 index of (fixstr name, int32 offset) and, for each entry, the
//! bin32 content its offset points at. What C checks is refused with the offset; what
//! C does not read (the fixarray and index-size bytes, the contents array's header, the
//! order of the contents, `header_len` against their end) is noted, never refused.

use std::borrow::ToOwned;
use std::format;
use std::string::String;
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::fields::{invalid, Bound, Fields};
use super::header::{HeaderNote, Metalayer, FIXED_HEADER_LEN, MAX_METALAYERS};
use super::header::{CONTENT_PREFIX_LEN, METALAYER_NAME_MAXLEN};
use crate::error::Found;
use crate::marker::{
    ARRAY16, BIN32, FIXARRAY, FIXSTR, FIXSTR_MAX, INT32, MAP16, STR16, STR32, STR8, UINT16,
};
use crate::read::Reader;

/// Offset of the index size (uint16), from C-Blosc2's `blosc/frame.h`.
const OFF_IDX_SIZE: usize = 89;
/// The metalayer section is a fixarray of 3: index size, index, contents.
const SECTION_ARRAY: u8 = FIXARRAY + 3;

const NAME_MARKER: &str = "a msgpack fixstr marker (0xa0..=0xbf) for a metalayer name";

fn note(notes: &mut Vec<HeaderNote>, offset: usize, note: String) {
    notes.push(HeaderNote {
        offset: offset as u64,
        note,
    });
}

/// The byte at `at` of the header, when there is one.
fn byte_at(header: &[u8], at: usize) -> Option<u8> {
    header.get(at).copied()
}

/// Parse the metalayer section of `header` (exactly `header_len` bytes); returns the
/// metalayers in index order and what was noted.
pub(crate) fn parse_metalayers(
    header: &[u8],
    header_len: u32,
) -> Result<(Vec<Metalayer>, Vec<HeaderNote>), FrameError> {
    let mut notes = Vec::new();
    let mut c = Fields {
        r: Reader::new(header),
        bound: Bound::Header(header_len),
    };
    c.r.advance(FIXED_HEADER_LEN);
    // Not read by C.
    let section = c.byte("the metalayer section")?;
    if section != SECTION_ARRAY {
        note(
            &mut notes,
            FIXED_HEADER_LEN,
            format!(
                "expected 0x93 (msgpack fixarray of 3) at the start of the metalayers, found {}",
                Found(section)
            ),
        );
    }
    let size_marker = c.byte("the metalayer index size")?;
    if size_marker != UINT16 {
        note(
            &mut notes,
            FIXED_HEADER_LEN + 1,
            format!(
                "expected 0xcd (msgpack uint16) before the metalayer index size, found {}",
                Found(size_marker)
            ),
        );
    }
    let idx_size = c.read(Reader::be_u16, "metalayer index size")?;
    // What C checks from here on.
    c.marker(MAP16, "0xde (msgpack map16) before the metalayer index")?;
    let count_at = c.pos();
    let n = c.read(Reader::be_u16, "number of metalayers in the index")?;
    if usize::from(n) > MAX_METALAYERS {
        return Err(FrameError::at(
            count_at as u64,
            FrameErrorKind::TooManyMetalayers { count: n },
        ));
    }

    let mut metalayers: Vec<Metalayer> = Vec::with_capacity(usize::from(n));
    let mut offsets = Vec::with_capacity(usize::from(n));
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
        let name_at = c.pos();
        let raw = c.bytes(name_len, "metalayer name")?;
        let name = c_name(raw, name_at, &mut notes);
        if metalayers.iter().any(|m| m.name == name) {
            note(
                &mut notes,
                marker_at,
                format!(
                    "a second metalayer named {name:?} (C-Blosc2's blosc2_meta_get finds the first)"
                ),
            );
        }
        c.marker(INT32, "0xd2 (msgpack int32) before a metalayer offset")?;
        let offset_at = c.pos();
        let offset = c.read(Reader::be_i32, "metalayer offset")?;
        let offset = match u32::try_from(offset) {
            Ok(o) if o < header_len => o as usize,
            _ => {
                return Err(FrameError::at(
                    offset_at as u64,
                    FrameErrorKind::OffsetOutsideHeader {
                        name: name.to_owned(),
                        value: offset,
                        header_len,
                    },
                ))
            }
        };
        let content = content_at(header, header_len, offset)?;
        offsets.push(offset);
        metalayers.push(Metalayer {
            name,
            offset: offset as u64,
            content: content.to_vec(),
        });
    }
    let index_end = c.pos();

    // Not read by C: the index size, the contents array and the layout C writes.
    let span = index_end - FIXED_HEADER_LEN;
    if usize::from(idx_size) != span {
        note(
            &mut notes,
            OFF_IDX_SIZE,
            format!(
                "metalayer index size is {idx_size}, but the index spans {span} bytes from byte 87"
            ),
        );
    }
    match byte_at(header, index_end) {
        Some(ARRAY16) => {}
        Some(found) => note(
            &mut notes,
            index_end,
            format!(
                "expected 0xdc (msgpack array16) before the metalayer contents, found {}",
                Found(found)
            ),
        ),
        None => note(
            &mut notes,
            index_end,
            "the header ends before the metalayer contents array".into(),
        ),
    }
    let count = header
        .get(index_end + 1..index_end + 3)
        .map(|b| u16::from_be_bytes([b[0], b[1]]));
    if let Some(count) = count.filter(|&m| m != n) {
        note(
            &mut notes,
            index_end + 1,
            format!("the contents array holds {count} metalayers, but the index holds {n}"),
        );
    }
    let mut expected = index_end + 3;
    for (m, &offset) in metalayers.iter().zip(&offsets) {
        if offset != expected {
            note(
                &mut notes,
                offset,
                format!(
                    "the content of metalayer {:?} is at byte {offset}, C-Blosc2 writes it at byte {expected}",
                    m.name
                ),
            );
        }
        expected = offset + CONTENT_PREFIX_LEN as usize + m.content.len();
    }
    if expected != header_len as usize {
        note(
            &mut notes,
            expected,
            format!("header_len (byte 11) is {header_len}, but the metalayer section ends at byte {expected}"),
        );
    }
    Ok((metalayers, notes))
}

/// The content whose bin32 marker is at `offset`, as C reads it: the marker, a
/// non-negative int32 length, and that many bytes, all inside the header.
fn content_at(header: &[u8], header_len: u32, offset: usize) -> Result<&[u8], FrameError> {
    let mut c = Fields {
        r: Reader::new(header),
        bound: Bound::Header(header_len),
    };
    c.r.advance(offset);
    c.marker(BIN32, "0xc6 (msgpack bin32) before a metalayer content")?;
    let len_at = c.pos();
    let len = c.read(Reader::be_i32, "metalayer content length")?;
    let len = usize::try_from(len)
        .map_err(|_| invalid(len_at, "metalayer content length", len, "negative"))?;
    c.bytes(len, "metalayer content")
}

/// A name as C holds it: the bytes up to the first NUL (C keeps a C string); bytes that
/// are not UTF-8 are replaced (U+FFFD). Both are noted.
fn c_name(raw: &[u8], at: usize, notes: &mut Vec<HeaderNote>) -> String {
    let cut = match raw.iter().position(|&b| b == 0) {
        Some(nul) => {
            note(
                notes,
                at + nul,
                "a NUL byte in a metalayer name: C-Blosc2 reads the name up to it".into(),
            );
            raw.get(..nul).unwrap_or_default()
        }
        None => raw,
    };
    match std::str::from_utf8(cut) {
        Ok(name) => name.to_owned(),
        Err(e) => {
            note(
                notes,
                at + e.valid_up_to(),
                "a metalayer name that is not UTF-8 (shown with U+FFFD)".into(),
            );
            String::from_utf8_lossy(cut).into_owned()
        }
    }
}

/// A name in a str8/16/32 (C writes only fixstr names, and refuses others): too long
/// if it is, otherwise simply the wrong marker.
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
