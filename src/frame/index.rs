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
use super::header::{HeaderNote, FIXED_HEADER_LEN, MAX_METALAYERS};
use super::header::{CONTENT_PREFIX_LEN, METALAYER_NAME_MAXLEN};
use crate::wire::marker::{
    ARRAY16, BIN32, FIXARRAY, FIXSTR, FIXSTR_MAX, INT32, MAP16, STR16, STR32, STR8, UINT16,
};
use crate::wire::read::Reader;
use crate::wire::Found;

/// Offset of the index size (uint16), from C-Blosc2's `blosc/frame.h`.
pub(super) const OFF_IDX_SIZE: usize = 89;
/// The metalayer section is a fixarray of 3: index size, index, contents.
pub(super) const SECTION_ARRAY: u8 = FIXARRAY + 3;

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

/// One entry of the index: a name and the offset of its content's bin32 marker.
pub(crate) struct Entry {
    pub(crate) name: String,
    pub(crate) offset: u32,
}

/// The most bytes the metalayer section can take up to the end of the contents
/// array's header: 7 bytes of section header, 16 entries of at most 1 + 31 + 5 bytes,
/// 3 bytes of array16 header.
pub(crate) const INDEX_MAX_END: usize = FIXED_HEADER_LEN + 7 + MAX_METALAYERS * 37 + 3;

/// Parse the index from `prefix` (the header's first bytes: at least
/// `min(header_len, INDEX_MAX_END)`); returns the entries, where the index ends, and
/// what was noted.
pub(crate) fn parse_index(
    prefix: &[u8],
    header_len: u32,
) -> Result<(Vec<Entry>, usize, Vec<HeaderNote>), FrameError> {
    let header = prefix.get(..header_len as usize).unwrap_or(prefix);
    let mut notes = Vec::new();
    let mut c = Fields::new(header, Bound::Header(header_len), 0);
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

    let mut entries: Vec<Entry> = Vec::with_capacity(usize::from(n));
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
                ));
            }
        };
        let name_at = c.pos();
        let raw = c.bytes(name_len, "metalayer name")?;
        let name = c_name(raw, name_at, &mut notes);
        if entries.iter().any(|e| e.name == name) {
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
            Ok(o) if o < header_len => o,
            _ => {
                return Err(FrameError::at(
                    offset_at as u64,
                    FrameErrorKind::OffsetOutsideHeader {
                        name,
                        value: offset,
                        header_len,
                    },
                ));
            }
        };
        entries.push(Entry { name, offset });
    }
    let index_end = c.pos();

    // Not read by C: the index size and the contents array's header.
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
    Ok((entries, index_end, notes))
}

/// The length of the content whose bin32 marker is at `offset`, checked as C checks
/// it (the marker, a non-negative int32, the content inside the header), from `head`:
/// the bytes of the input from `offset`, up to 5. `Ok(None)`: the input ends first.
pub(crate) fn content_len(
    head: &[u8],
    offset: u32,
    header_len: u32,
) -> Result<Option<u32>, FrameError> {
    let at = u64::from(offset);
    let Some(&marker) = head.first() else {
        return Ok(None);
    };
    if marker != BIN32 {
        return Err(FrameError::at(
            at,
            FrameErrorKind::BadMarker {
                expected: "0xc6 (msgpack bin32) before a metalayer content",
                found: marker,
            },
        ));
    }
    if at + CONTENT_PREFIX_LEN > u64::from(header_len) {
        return Err(FrameError::at(
            at + 1,
            FrameErrorKind::OutOfHeader {
                what: "metalayer content length",
                end: at + CONTENT_PREFIX_LEN,
                header_len,
            },
        ));
    }
    let Some(&[_, a, b, c, d]) = head.get(..5) else {
        return Ok(None);
    };
    let len = i32::from_be_bytes([a, b, c, d]);
    let len = u32::try_from(len).map_err(|_| {
        invalid(
            (at + 1) as usize,
            "metalayer content length",
            len,
            "negative",
        )
    })?;
    let end = at + CONTENT_PREFIX_LEN + u64::from(len);
    if end > u64::from(header_len) {
        return Err(FrameError::at(
            at + CONTENT_PREFIX_LEN,
            FrameErrorKind::OutOfHeader {
                what: "metalayer content",
                end,
                header_len,
            },
        ));
    }
    Ok(Some(len))
}

/// Notes on the layout of the contents C-Blosc2 writes (back to back in index order,
/// ending at header_len), which C does not check: `laid` holds each content's offset
/// and length, in index order.
pub(crate) fn layout_notes(
    entries: &[Entry],
    lens: &[u32],
    index_end: usize,
    header_len: u32,
    notes: &mut Vec<HeaderNote>,
) -> bool {
    let before = notes.len();
    let mut expected = index_end as u64 + 3;
    for (e, &len) in entries.iter().zip(lens) {
        let offset = u64::from(e.offset);
        if offset != expected {
            notes.push(HeaderNote {
                offset,
                note: format!(
                    "the content of metalayer {:?} is at byte {offset}, C-Blosc2 writes it at byte {expected}",
                    e.name
                ),
            });
        }
        expected = offset + CONTENT_PREFIX_LEN + u64::from(len);
    }
    if expected != u64::from(header_len) {
        notes.push(HeaderNote {
            offset: expected,
            note: format!(
                "header_len (byte 11) is {header_len}, but the metalayer section ends at byte {expected}"
            ),
        });
    }
    notes.len() == before
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
