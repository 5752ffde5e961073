//! The trailer's bytes, marker by marker, over the one reader.

use std::string::{String, ToString};
use std::vec::Vec;

use super::{Trailer, VlMetalayer, FINGERPRINT_LEN, IDX_START, MAX_VLMETALAYERS, TAIL_LEN};
use crate::frame::{FrameError, FrameErrorKind};
use crate::meta::error::Expected;
use crate::wire::marker::{
    ARRAY16, BIN32, FIXARRAY, FIXEXT16, FIXSTR, INT32, MAP16, PFIX_MAX, UINT16, UINT32,
};
use crate::wire::read::Reader;

/// A reader error (the input ends) as a frame error, `base` bytes into the frame.
pub(super) fn reader_error(e: crate::meta::error::Error, base: u64) -> FrameError {
    FrameError::from_reader(e, base, crate::frame::lift::Past::Input)
}

/// Consumes `marker`, or reports what is there instead.
pub(super) fn expect(
    r: &mut Reader<'_>,
    marker: u8,
    expected: &'static str,
    base: u64,
) -> Result<(), FrameError> {
    let at = r.position();
    let found = r
        .byte(Expected::Described(expected))
        .map_err(|e| reader_error(e, base))?;
    if found != marker {
        return Err(FrameError::at(
            base + at as u64,
            FrameErrorKind::BadMarker { expected, found },
        ));
    }
    Ok(())
}

/// Parses the trailer's bytes; `base` is the trailer's offset in the frame.
pub(crate) fn parse_trailer_bytes(bytes: &[u8], base: u64) -> Result<Trailer, FrameError> {
    let len = bytes.len() as u32;
    let mut r = Reader::new(bytes);
    let at = |pos: usize| base + pos as u64;
    let re = |e| reader_error(e, base);
    expect(
        &mut r,
        FIXARRAY + 4,
        "fixarray of 4 (0x94) starting the trailer",
        base,
    )?;
    let version_at = r.position();
    let version = r
        .byte(Expected::Described("the trailer version"))
        .map_err(re)?;
    if version > PFIX_MAX {
        return Err(FrameError::at(
            at(version_at),
            FrameErrorKind::BadMarker {
                expected: "positive fixint (the trailer version)",
                found: version,
            },
        ));
    }
    expect(
        &mut r,
        FIXARRAY + 3,
        "fixarray of 3 (0x93) before the vlmetalayers",
        base,
    )?;
    expect(
        &mut r,
        UINT16,
        "uint16 (0xcd) before the vlmetalayer index size",
        base,
    )?;
    let idx_size_at = r.position();
    let idx_size = r
        .be_u16(Expected::Described("the vlmetalayer index size"))
        .map_err(re)?;
    expect(
        &mut r,
        MAP16,
        "map16 (0xde) starting the vlmetalayer index",
        base,
    )?;
    let count_at = r.position();
    let count = r
        .be_u16(Expected::Described("the number of vlmetalayers"))
        .map_err(re)?;
    if count > MAX_VLMETALAYERS {
        return Err(FrameError::at(
            at(count_at),
            FrameErrorKind::InvalidField {
                field: "number of vlmetalayers",
                value: i128::from(count),
                reason: "expected at most 8192",
            },
        ));
    }
    // Each index entry takes at least 6 bytes: nothing is reserved beyond what is there.
    let mut index: Vec<(String, usize, i32)> =
        Vec::with_capacity(usize::from(count).min(bytes.len() / 6));
    for _ in 0..count {
        let name_at = r.position();
        let m = r
            .byte(Expected::Described("a vlmetalayer name (fixstr)"))
            .map_err(re)?;
        if m & 0xe0 != FIXSTR {
            return Err(FrameError::at(
                at(name_at),
                FrameErrorKind::BadMarker {
                    expected: "fixstr (0xa0..=0xbf) for a vlmetalayer name",
                    found: m,
                },
            ));
        }
        let raw = r
            .bytes(
                usize::from(m & 0x1f),
                Expected::Described("a vlmetalayer name"),
            )
            .map_err(re)?;
        let name = core::str::from_utf8(raw).map_err(|_| {
            FrameError::at(
                at(name_at + 1),
                FrameErrorKind::InvalidName {
                    reason: "not UTF-8",
                },
            )
        })?;
        if name.contains('\0') {
            return Err(FrameError::at(
                at(name_at + 1),
                FrameErrorKind::InvalidName {
                    reason: "contains NUL",
                },
            ));
        }
        if index.iter().any(|(n, _, _)| n == name) {
            return Err(FrameError::at(
                at(name_at),
                FrameErrorKind::DuplicateName {
                    name: name.to_string(),
                },
            ));
        }
        expect(
            &mut r,
            INT32,
            "int32 (0xd2) before a vlmetalayer offset",
            base,
        )?;
        let off_at = r.position();
        let off = r
            .be_i32(Expected::Described("a vlmetalayer offset"))
            .map_err(re)?;
        index.push((name.to_string(), off_at, off));
    }
    let idx_end = r.position();
    if usize::from(idx_size) != idx_end - IDX_START {
        return Err(FrameError::at(
            at(idx_size_at),
            FrameErrorKind::InvalidField {
                field: "vlmetalayer index size",
                value: i128::from(idx_size),
                reason: "expected the bytes from the 0xcd to the end of the index",
            },
        ));
    }
    expect(
        &mut r,
        ARRAY16,
        "array16 (0xdc) before the vlmetalayer contents",
        base,
    )?;
    let contents_at = r.position();
    let contents = r
        .be_u16(Expected::Described("the number of vlmetalayer contents"))
        .map_err(re)?;
    if contents != count {
        return Err(FrameError::at(
            at(contents_at),
            FrameErrorKind::MetalayerCountMismatch {
                index: count,
                contents,
            },
        ));
    }
    let mut vlmetalayers = Vec::with_capacity(index.len());
    for (name, off_at, off) in index {
        let here = r.position();
        if off < 0 || off as usize != here {
            return Err(FrameError::at(
                at(off_at),
                FrameErrorKind::OffsetMismatch {
                    name,
                    value: off,
                    actual: at(here),
                },
            ));
        }
        expect(
            &mut r,
            BIN32,
            "bin32 (0xc6) for a vlmetalayer content",
            base,
        )?;
        let content_len_at = r.position();
        let content_len = r
            .be_i32(Expected::Described("a vlmetalayer content length"))
            .map_err(re)?;
        let content_len = usize::try_from(content_len).map_err(|_| {
            FrameError::at(
                at(content_len_at),
                FrameErrorKind::InvalidField {
                    field: "vlmetalayer content length",
                    value: i128::from(content_len),
                    reason: "expected at least 0",
                },
            )
        })?;
        let content = r
            .bytes(content_len, Expected::Described("a vlmetalayer content"))
            .map_err(re)?
            .to_vec();
        vlmetalayers.push(VlMetalayer {
            name,
            offset: at(here),
            content,
        });
    }
    let tail_at = r.position();
    if tail_at as u64 + u64::from(TAIL_LEN) != u64::from(len) {
        return Err(FrameError::at(
            at(tail_at),
            FrameErrorKind::InvalidField {
                field: "trailer length",
                value: i128::from(len),
                reason:
                    "expected the vlmetalayer contents to end 23 bytes before the trailer's end",
            },
        ));
    }
    expect(
        &mut r,
        UINT32,
        "uint32 (0xce) before the trailer length",
        base,
    )?;
    let len_at = r.position();
    let stored = r
        .be_u32(Expected::Described("the trailer length"))
        .map_err(re)?;
    if stored != len {
        return Err(FrameError::at(
            at(len_at),
            FrameErrorKind::InvalidField {
                field: "trailer length",
                value: i128::from(stored),
                reason: "expected the length read from the frame's end",
            },
        ));
    }
    expect(
        &mut r,
        FIXEXT16,
        "fixext 16 (0xd8) for the fingerprint",
        base,
    )?;
    let kind = r
        .byte(Expected::Described("the fingerprint type"))
        .map_err(re)?;
    let fp: [u8; FINGERPRINT_LEN] = r
        .array(Expected::Described("the fingerprint"))
        .map_err(re)?;
    Ok(Trailer {
        offset: base,
        len,
        version,
        vlmetalayers,
        fingerprint: (kind, fp),
    })
}
