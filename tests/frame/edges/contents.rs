//! Where the metalayer contents are: their lengths and their offsets.

use b2nd_meta::frame::{self, FrameErrorKind};

use super::{assert_invalid_field, build, frame_err, frame_ok, noted, set_frame_len, two};
use crate::common::frame::{fixstr, set_i32, Built};

// ---------------------------------------------------------------------------
// Metalayer content lengths

#[test]
fn content_length_0_is_an_empty_content() {
    let built = build(&[(fixstr(b"empty"), vec![]), (fixstr(b"one"), vec![7])]);
    let header = frame_ok(&built.bytes);
    assert_eq!(header.metalayer("empty").unwrap().content, b"");
    assert_eq!(header.metalayer("one").unwrap().content, [7]);
}

#[test]
fn content_length_i32_max_points_outside_the_header() {
    let built = two();
    let mut b = built.bytes.clone();
    set_i32(&mut b, built.len_fields[1], i32::MAX);
    let err = frame_err(&b);
    assert!(
        matches!(*err.kind(), FrameErrorKind::OutOfHeader { end, .. }
            if err.offset() == Some(built.len_fields[1] as u64 + 4)
                && end == err.offset().unwrap() + i32::MAX as u64),
        "{err}"
    );
}

#[test]
fn content_length_negative_as_i32_is_refused() {
    let built = two();
    for v in [-1, i32::MIN, -2] {
        // u32::MAX, 0x80000000, 0xfffffffe as C's int32_t.
        for &at in &built.len_fields {
            let mut b = built.bytes.clone();
            set_i32(&mut b, at, v);
            assert_invalid_field(&frame_err(&b), at as u64, "metalayer content length");
        }
    }
}

#[test]
fn a_content_ending_exactly_at_the_header_end_is_accepted() {
    let built = two();
    let header = frame_ok(&built.bytes);
    let last = header.metalayers.last().unwrap();
    let end = last.content_offset() as usize + last.content.len();
    assert_eq!(end, header.info.header_len as usize);
    assert_eq!(end, built.bytes.len());
    // And it can be rewritten in place, up to that last byte.
    let mut b = built.bytes.clone();
    frame::rewrite_metalayer(
        b2nd_meta::frame::Target::bytes(&mut b),
        "user",
        b"\x81\xa6answer\x2b",
    )
    .unwrap();
    assert_eq!(b[..end - 1], built.bytes[..end - 1]);
    assert_eq!(b[end - 1], 0x2b);
}

#[test]
fn a_content_ending_one_byte_past_the_header_end_is_refused_and_one_into_the_next_is_read() {
    let built = two();
    let header_len = built.bytes.len();
    let mut b = built.bytes.clone();
    let at = built.len_fields[1];
    let len = i32::from_be_bytes(b[at..at + 4].try_into().unwrap());
    set_i32(&mut b, at, len + 1);
    // Even when the file goes on: the byte exists, but is not part of the header.
    b.extend_from_slice(&[0xee; 16]);
    let file_len = b.len() as u64;
    set_frame_len(&mut b, file_len);
    let err = frame_err(&b);
    assert!(
        matches!(*err.kind(), FrameErrorKind::OutOfHeader { end, header_len: h, .. }
            if end as usize == header_len + 1 && h as usize == header_len),
        "{err}"
    );
    // The first content one byte longer runs into the second's marker: C reads it so,
    // and the second from its own offset; noted there.
    let mut b = built.bytes.clone();
    let at = built.len_fields[0];
    let len = i32::from_be_bytes(b[at..at + 4].try_into().unwrap());
    set_i32(&mut b, at, len + 1);
    let second = frame_ok(&built.bytes).metalayers[1].offset;
    assert_eq!(noted(&b), [second]);
}

// ---------------------------------------------------------------------------
// Metalayer offsets

#[test]
fn offsets_outside_the_header_are_refused() {
    let built = two();
    let header_len = built.bytes.len() as i32;
    for v in [-1, i32::MIN, i32::MAX, header_len, header_len + 1] {
        for &at in &built.offset_fields {
            let mut b = built.bytes.clone();
            set_i32(&mut b, at, v);
            let err = frame_err(&b);
            assert!(
                matches!(*err.kind(), FrameErrorKind::OffsetOutsideHeader { value, .. }
                    if err.offset() == Some(at as u64) && value == v),
                "offset {v} at {at}: {err}"
            );
        }
    }
}

#[test]
fn offsets_must_point_at_a_content_as_c_checks() {
    let built = two();
    let header = frame_ok(&built.bytes);
    let first = header.metalayers[0].offset as i32;
    let second = header.metalayers[1].offset as i32;
    for (which, v) in [
        (0, 0),          // the start of the frame
        (0, 11),         // header_len
        (0, 87),         // the metalayer section
        (0, first - 1),  // one byte before its content
        (0, first + 1),  // one byte after
        (0, second),     // the next content
        (1, first),      // backwards: the previous content
        (1, 94),         // backwards: into the index
        (1, second + 5), // its own first content byte
        (1, header_len_of(&built) - 1),
    ] {
        // C's rule: an offset must point at a bin32 (0xc6) content inside the header.
        let at = built.offset_fields[which];
        let mut b = built.bytes.clone();
        set_i32(&mut b, at, v);
        if built.bytes[v as usize] == 0xc6 {
            assert!(noted(&b).contains(&(v as u64)), "metalayer {which} at {v}");
        } else {
            let err = frame_err(&b);
            assert!(
                matches!(*err.kind(), FrameErrorKind::BadMarker { .. } | FrameErrorKind::OutOfHeader { .. }
                    if err.offset() == Some(v as u64)),
                "metalayer {which} at {v}: {err}"
            );
        }
    }
}

fn header_len_of(built: &Built) -> i32 {
    built.bytes.len() as i32
}

#[test]
fn an_index_size_that_does_not_match_the_index_is_noted() {
    let built = two();
    let real = u16::from_be_bytes([built.bytes[89], built.bytes[90]]);
    for v in [0, real - 1, real + 1, u16::MAX] {
        let mut b = built.bytes.clone();
        b[89..91].copy_from_slice(&v.to_be_bytes());
        // C never reads the index size: noted at byte 89.
        assert_eq!(noted(&b), [89], "{v}");
    }
}
