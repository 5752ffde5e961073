//! header_len, frame_len and the other sizes of the fixed part, at their limits.

use b2nd_meta::frame::FrameErrorKind;

use super::{assert_invalid_field, frame_err, frame_ok, noted, set_frame_len, two};
use crate::common::frame::set_i32;

#[test]
fn header_len_0_negative_or_below_87_is_refused() {
    for v in [0, -1, i32::MIN, 1, 86] {
        let mut b = two().bytes;
        set_i32(&mut b, 11, v);
        assert_invalid_field(&frame_err(&b), 11, "header_len");
    }
}

#[test]
fn header_len_87_leaves_no_room_for_the_metalayers() {
    let mut b = two().bytes;
    set_i32(&mut b, 11, 87);
    // The section bytes are in the input, but past header_len: never read.
    assert!(
        matches!(*frame_err(&b).kind(), FrameErrorKind::OutOfHeader { .. } if frame_err(&b).offset() == Some(87)),
        "{}",
        frame_err(&b)
    );
}

#[test]
fn header_len_i32_max_points_outside_the_file() {
    let mut b = two().bytes;
    set_i32(&mut b, 11, i32::MAX);
    set_frame_len(&mut b, i64::MAX as u64);
    assert!(matches!(*frame_err(&b).kind(),
        FrameErrorKind::Truncated { end, available, .. }
            if end == i32::MAX as u64 && available == b.len() as u64
    ));
}

#[test]
fn header_len_one_past_the_end_of_the_file() {
    let mut b = two().bytes;
    let len = b.len();
    set_i32(&mut b, 11, len as i32 + 1);
    set_frame_len(&mut b, len as u64 + 1);
    assert!(matches!(
        frame_err(&b).kind(),
        FrameErrorKind::Truncated { .. }
    ));
    // With that byte present, the section ends one byte early: C reads it, we note it
    // where the section ends.
    b.push(0);
    assert_eq!(noted(&b), [len as u64]);
    let note = &frame_ok(&b).info.notes[0].note;
    assert!(
        note.contains(&format!("header_len (byte 11) is {}", len + 1)),
        "{note}"
    );
}

#[test]
fn header_len_pointing_back_into_the_index_or_the_contents() {
    let built = two();
    let len = built.bytes.len() as i32;
    // Into the index, onto the first offset field, and one byte short of the end.
    for v in [95, built.offset_fields[0] as i32, len - 1] {
        let mut b = built.bytes.clone();
        set_i32(&mut b, 11, v);
        let err = frame_err(&b);
        assert!(
            matches!(*err.kind(),
                FrameErrorKind::OutOfHeader { header_len, .. }
                    | FrameErrorKind::OffsetOutsideHeader { header_len, .. } if header_len as i32 == v
            ),
            "header_len {v}: {err}"
        );
    }
}

#[test]
fn header_len_larger_than_frame_len_is_refused() {
    let mut b = two().bytes;
    let len = b.len() as u64;
    set_frame_len(&mut b, len - 1);
    assert_invalid_field(&frame_err(&b), 11, "header_len");
    set_frame_len(&mut b, 0);
    assert_invalid_field(&frame_err(&b), 11, "header_len");
}

#[test]
fn frame_len_above_i64_max_is_refused_and_i64_max_is_not() {
    let mut b = two().bytes;
    for v in [u64::MAX, 1 << 63] {
        set_frame_len(&mut b, v);
        assert_invalid_field(&frame_err(&b), 16, "frame_len");
    }
    set_frame_len(&mut b, i64::MAX as u64);
    assert_eq!(frame_ok(&b).info.frame_len, i64::MAX as u64);
}

#[test]
fn negative_sizes_in_the_fixed_part_as_c_blosc2_judges_them() {
    // The base has data (nbytes 40) and a fixed chunksize (20): C-Blosc2 refuses a
    // negative cbytes or chunksize then, and never checks nbytes <= 0 or blocksize.
    let base = two().bytes;
    for (at, field, value, refused) in [
        (30usize, "nbytes", -1i64, false),
        (30, "nbytes", i64::MIN, false),
        (39, "cbytes", -1, true),
        (39, "cbytes", i64::MIN, true),
    ] {
        let mut b = base.clone();
        b[at..at + 8].copy_from_slice(&value.to_be_bytes());
        if refused {
            assert_invalid_field(&frame_err(&b), at as u64, field);
        } else {
            let info = frame_ok(&b).info;
            assert_eq!(info.nbytes, value);
            assert!(info.notes.iter().any(|n| n.offset == at as u64), "{field}");
        }
    }
    for (at, field, value, refused) in [
        (48usize, "typesize", 0i32, true),
        (48, "typesize", -1, true),
        (48, "typesize", i32::MIN, true),
        (53, "blocksize", -1, false),
        (53, "blocksize", i32::MIN, false),
        (58, "chunksize", -1, true),
        (58, "chunksize", i32::MIN, true),
    ] {
        let mut b = base.clone();
        set_i32(&mut b, at, value);
        if refused {
            assert_invalid_field(&frame_err(&b), at as u64, field);
        } else {
            let info = frame_ok(&b).info;
            assert_eq!(info.blocksize, value);
            assert!(info.notes.iter().any(|n| n.offset == at as u64), "{field}");
        }
    }
    // The limits themselves are fine: the most data C-Blosc2 can index (i32::MAX / 8
    // chunks of i32::MAX bytes; one byte more is a chunk too many).
    let max = (i64::from(i32::MAX) / 8) * i64::from(i32::MAX);
    let mut b = base.clone();
    b[30..38].copy_from_slice(&max.to_be_bytes());
    set_i32(&mut b, 48, i32::MAX);
    set_i32(&mut b, 53, 0);
    set_i32(&mut b, 58, i32::MAX);
    let info = frame_ok(&b).info;
    assert_eq!(
        (info.nbytes, info.typesize, info.blocksize, info.chunksize),
        (max, i32::MAX as u32, 0, i32::MAX)
    );
    b[30..38].copy_from_slice(&(max + 1).to_be_bytes());
    assert_invalid_field(&frame_err(&b), 30, "nbytes");
    // Without data, nothing about the sizes is checked.
    b[30..38].copy_from_slice(&0i64.to_be_bytes());
    set_i32(&mut b, 58, -1);
    assert_eq!(frame_ok(&b).info.chunksize, -1);
}
