//! Named tests for the edges that crafted files aim at (the classes C-Blosc2 fixed in
//! 2026: lengths at their limits and negative as i32, ndim 9 to 16 and beyond, frame
//! offsets outside the file or backwards, too many metalayers, long names), each with
//! the exact answer: `Ok`, or the error kind and offset.

mod common;

use b2nd_meta::frame::{self, FrameError, FrameErrorKind, FrameHeader};
use b2nd_meta::{Error, ErrorKind, Expected, Meta, MetaB2ndV1, MetaRef, MetaV0Caterva};
use common::frame::{build_with, fixstr, real_fixed_part, set_i32, Built};

// ---------------------------------------------------------------------------
// Metalayer helpers

/// A b2nd v1 metalayer of ndim 0 whose dtype str32 declares `len` and holds `payload`.
fn v1_dtype(len: u32, payload: &[u8]) -> Vec<u8> {
    let mut b = vec![0x97, 0x00, 0x00, 0x90, 0x90, 0x90, 0x00, 0xdb];
    b.extend_from_slice(&len.to_be_bytes());
    b.extend_from_slice(payload);
    b
}

/// Decoding fails, the same way through `Meta`, the typed struct and `MetaRef`.
#[track_caller]
fn decode_err(bytes: &[u8]) -> Error {
    let err = b2nd_meta::from_slice::<Meta>(bytes).expect_err("must be refused");
    let view = MetaRef::parse(bytes).expect_err("MetaRef must refuse it too");
    assert_eq!(view.offset(), err.offset(), "{view} / {err}");
    if bytes.first() == Some(&0x97) {
        let typed = b2nd_meta::from_slice::<MetaB2ndV1>(bytes).unwrap_err();
        assert_eq!(typed.offset(), err.offset(), "{typed} / {err}");
    }
    err
}

/// Decoding succeeds and re-encodes to the same bytes.
#[track_caller]
fn decode_ok(bytes: &[u8]) -> Meta {
    let meta: Meta = b2nd_meta::from_slice(bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b2nd_meta::to_vec(&meta).unwrap(), bytes);
    assert_eq!(MetaRef::parse(bytes).unwrap().to_meta(), meta);
    meta
}

fn meta_with_ndim(ndim: usize) -> MetaB2ndV1 {
    MetaB2ndV1::new(
        (0..ndim as i64).map(|i| 1000 + i).collect::<Vec<_>>(),
        (0..ndim as i32).map(|i| 100 + i).collect::<Vec<_>>(),
        (0..ndim as i32).map(|i| 10 + i).collect::<Vec<_>>(),
        "<f8",
    )
}

// ---------------------------------------------------------------------------
// Length fields of a metalayer: the dtype's str32

#[test]
fn dtype_length_0_is_an_empty_dtype() {
    let bytes = v1_dtype(0, b"");
    assert_eq!(decode_ok(&bytes).dtype(), Some(""));
    // Followed by a byte: that byte is trailing, not part of the dtype.
    let err = decode_err(&v1_dtype(0, b"x"));
    assert!(matches!(*err.kind(), ErrorKind::TrailingBytes { count: 1 }));
    assert_eq!(err.offset(), Some(12));
}

#[test]
fn dtype_length_i32_max_is_refused_as_missing_input() {
    let err = decode_err(&v1_dtype(i32::MAX as u32, b"<i4"));
    assert_eq!(err.offset(), Some(7), "{err}");
    match err.kind() {
        ErrorKind::UnexpectedEnd {
            expected: Expected::Str32,
            input_len: 15,
            needed,
        } => assert_eq!(*needed, i32::MAX as usize - 3),
        other => panic!("{other:?}"),
    }
}

#[test]
fn dtype_length_above_i32_max_is_refused_before_reading_it() {
    // 0x80000000 is i32::MIN in C's int32_t, 0xffffffff is -1, 0xfffffffe is -2.
    for len in [0x8000_0000u32, 0x8000_0001, 0xffff_fffe, u32::MAX] {
        let err = decode_err(&v1_dtype(len, b"<i4"));
        assert_eq!(err.offset(), Some(8), "{len:#x}: {err}");
        assert!(
            matches!(err.kind(), ErrorKind::LengthOutOfRange { len: l } if *l == len),
            "{len:#x}: {err}"
        );
    }
}

#[test]
fn dtype_length_one_more_or_one_less_than_the_bytes() {
    let err = decode_err(&v1_dtype(4, b"<i4"));
    assert!(matches!(
        err.kind(),
        ErrorKind::UnexpectedEnd { needed: 1, .. }
    ));
    let err = decode_err(&v1_dtype(2, b"<i4"));
    assert!(matches!(*err.kind(), ErrorKind::TrailingBytes { count: 1 }));
    let bytes = v1_dtype(2, b"<i4");
    let (meta, rest) = b2nd_meta::take_from_slice::<Meta>(&bytes).unwrap();
    assert_eq!((meta.dtype(), rest), (Some("<i"), &b"4"[..]));
}

// ---------------------------------------------------------------------------
// ndim

#[test]
fn ndim_0_to_16_round_trip_with_c_s_array_headers() {
    for ndim in 0..=16 {
        let meta = meta_with_ndim(ndim);
        let bytes = b2nd_meta::to_vec(&meta).unwrap();
        assert_eq!(bytes[2], ndim as u8);
        let header = 0x90 + ndim as u8; // 0xa0 at 16, as C writes it
        assert_eq!(bytes[3], header);
        assert_eq!(bytes[4 + 9 * ndim], header);
        assert_eq!(bytes[5 + 14 * ndim], header);
        assert_eq!(decode_ok(&bytes), Meta::B2ndV1(meta));
    }
}

#[test]
fn ndim_15_uses_the_last_fixarray_header() {
    let bytes = b2nd_meta::to_vec(&meta_with_ndim(15)).unwrap();
    assert_eq!(bytes[..4], [0x97, 0x00, 0x0f, 0x9f]);
    assert_eq!(decode_ok(&bytes).ndim(), 15);
}

#[test]
fn ndim_16_uses_0xa0_and_nothing_else() {
    let bytes = b2nd_meta::to_vec(&meta_with_ndim(16)).unwrap();
    assert_eq!(bytes[..4], [0x97, 0x00, 0x10, 0xa0]);
    assert_eq!(decode_ok(&bytes).ndim(), 16);
    // A generic msgpack array16 header for 16 elements is not C's encoding.
    let mut array16 = bytes[..3].to_vec();
    array16.extend_from_slice(&[0xdc, 0x00, 0x10]);
    array16.extend_from_slice(&bytes[4..]);
    let err = decode_err(&array16);
    assert_eq!(err.offset(), Some(3));
    assert!(matches!(
        err.kind(),
        ErrorKind::InvalidMarker {
            expected: Expected::Array(16),
            ..
        }
    ));
}

/// A v1 metalayer claiming `ndim`, with `entries` entries in each of its three arrays
/// under C's unguarded `0x90 + n` header.
fn claiming_ndim(ndim: u8, entries: usize) -> Vec<u8> {
    let header = 0x90u8.wrapping_add(entries as u8);
    let mut b = vec![0x97, 0x00, ndim, header];
    for _ in 0..entries {
        b.extend_from_slice(&[0xd3, 0, 0, 0, 0, 0, 0, 0, 1]);
    }
    for _ in 0..2 {
        b.push(header);
        for _ in 0..entries {
            b.extend_from_slice(&[0xd2, 0, 0, 0, 1]);
        }
    }
    b.extend_from_slice(&[0x00, 0xdb, 0, 0, 0, 3, b'<', b'i', b'4']);
    b
}

#[test]
fn ndim_17_is_refused_at_the_ndim_byte() {
    // With 17 entries under C's 0xa1 header, and with 16.
    for entries in [17, 16] {
        let err = decode_err(&claiming_ndim(17, entries));
        assert_eq!(err.offset(), Some(2), "{err}");
        assert!(
            matches!(*err.kind(), ErrorKind::InvalidValue { .. }),
            "{err}"
        );
    }
    // And never written.
    let err = b2nd_meta::to_vec(&meta_with_ndim(17)).unwrap_err();
    assert_eq!(err.offset(), None);
    let mut buf = [0u8; 1024];
    assert!(b2nd_meta::to_slice(&meta_with_ndim(17), &mut buf).is_err());
}

#[test]
fn ndim_127_is_refused_at_the_ndim_byte() {
    let err = decode_err(&claiming_ndim(127, 0));
    assert_eq!(err.offset(), Some(2));
    assert!(
        matches!(*err.kind(), ErrorKind::InvalidValue { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("127"), "{err}");
}

#[test]
fn ndim_128_and_above_is_not_a_positive_fixint() {
    for ndim in [0x80u8, 0x8f, 0x90, 0xa0, 0xcc, 0xd3, 0xff] {
        let err = decode_err(&claiming_ndim(ndim, 0));
        assert_eq!(err.offset(), Some(2), "{ndim:#x}: {err}");
        assert!(
            matches!(
                err.kind(),
                ErrorKind::InvalidMarker { expected: Expected::PositiveFixint, found }
                    if found.0 == ndim
            ),
            "{ndim:#x}: {err}"
        );
    }
}

#[test]
fn an_array_header_other_than_ndim_is_refused_where_it_stands() {
    for ndim in 0..=16usize {
        let good = b2nd_meta::to_vec(&meta_with_ndim(ndim)).unwrap();
        for at in [3, 4 + 9 * ndim, 5 + 14 * ndim] {
            for delta in [1u8, 0xff] {
                let mut bad = good.clone();
                bad[at] = bad[at].wrapping_add(delta);
                let err = decode_err(&bad);
                assert_eq!(
                    err.offset(),
                    Some(at as u64),
                    "ndim {ndim}, byte {at}: {err}"
                );
                assert!(
                    matches!(err.kind(), ErrorKind::InvalidMarker { expected: Expected::Array(n), .. } if *n == ndim),
                    "ndim {ndim}, byte {at}: {err}"
                );
            }
        }
    }
}

#[test]
fn top_level_arrays_of_other_lengths_are_refused_at_byte_0() {
    let v1 = b2nd_meta::to_vec(&meta_with_ndim(2)).unwrap();
    for header in (0x90u8..=0x94).chain(0x98..=0xa0) {
        let mut bad = v1.clone();
        bad[0] = header;
        let err = decode_err(&bad);
        assert_eq!(err.offset(), Some(0), "{header:#x}: {err}");
    }
    for header in [0xa1u8, 0xdc, 0xdd, 0x80, 0x00] {
        let mut bad = v1.clone();
        bad[0] = header;
        let err = decode_err(&bad);
        assert_eq!(err.offset(), Some(0), "{header:#x}: {err}");
        assert!(
            matches!(*err.kind(), ErrorKind::InvalidMarker { .. }),
            "{header:#x}: {err}"
        );
    }
}

#[test]
fn version_and_dtype_format_at_their_limits() {
    let good = b2nd_meta::to_vec(&meta_with_ndim(1)).unwrap();
    let format_at = 6 + 19;
    for (at, value, ok) in [
        (1, 1u8, false),
        (1, 0x7f, false),
        (1, 0x80, false),
        (format_at, 1, true),
        (format_at, 0x7f, true),
        (format_at, 0x80, false),
        (format_at, 0xff, false),
    ] {
        let mut b = good.clone();
        b[at] = value;
        if ok {
            assert_eq!(decode_ok(&b).dtype_format(), Some(value));
        } else {
            assert_eq!(
                decode_err(&b).offset(),
                Some(at as u64),
                "byte {at} = {value:#x}"
            );
        }
    }
}

#[test]
fn shape_entries_at_the_integer_limits_round_trip() {
    // Decoding judges bytes, not meaning: negative and extreme values are kept.
    let meta = MetaV0Caterva {
        shape: vec![i64::MIN, -1, 0, i64::MAX].into(),
        chunkshape: vec![i32::MIN, -1, 0, i32::MAX].into(),
        blockshape: vec![i32::MAX, 0, -1, i32::MIN].into(),
    };
    let bytes = b2nd_meta::to_vec(&meta).unwrap();
    assert_eq!(decode_ok(&bytes), Meta::V0Caterva(meta));
}

// ---------------------------------------------------------------------------
// Frame helpers

/// A header on the real fixed part (python-blosc2's contiguous fixture).
fn build(entries: &[(Vec<u8>, Vec<u8>)]) -> Built {
    build_with(&real_fixed_part(), entries)
}

fn set_frame_len(b: &mut [u8], v: u64) {
    b[16..24].copy_from_slice(&v.to_be_bytes());
}

/// Two metalayers: a b2nd one and a user one.
fn two() -> Built {
    let b2nd = b2nd_meta::to_vec(&meta_with_ndim(2)).unwrap();
    build(&[
        (fixstr(b"b2nd"), b2nd),
        (fixstr(b"user"), b"\x81\xa6answer\x2a".to_vec()),
    ])
}

/// Parsing fails, the same way through `parse_header` and `read_header`.
#[track_caller]
fn frame_err(bytes: &[u8]) -> FrameError {
    let err = frame::parse_header(bytes).expect_err("must be refused");
    let read = frame::read_header(bytes).expect_err("read_header must refuse it too");
    assert_eq!(read.to_string(), err.to_string());
    err
}

/// Parsing succeeds (as C-Blosc2 reads it), with notes at these offsets.
#[track_caller]
fn noted(bytes: &[u8]) -> Vec<u64> {
    frame_ok(bytes)
        .info
        .notes
        .iter()
        .map(|n| n.offset)
        .collect()
}

#[track_caller]
fn frame_ok(bytes: &[u8]) -> FrameHeader {
    let header = frame::parse_header(bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(frame::read_header(bytes).unwrap(), header);
    header
}

#[test]
fn the_builder_writes_what_c_writes() {
    // Rebuilt from its parsed metalayers, a real header comes out byte for byte.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/frame/contiguous.b2nd"
    );
    let real = std::fs::read(path).unwrap();
    let header = frame_ok(&real);
    let entries: Vec<_> = header
        .metalayers
        .iter()
        .map(|m| (fixstr(m.name.as_bytes()), m.content.clone()))
        .collect();
    let mut built = build(&entries).bytes;
    set_frame_len(&mut built, header.info.frame_len);
    assert_eq!(built, real[..header.info.header_len as usize]);
    let two = two();
    assert_eq!(
        frame_ok(&two.bytes).names().collect::<Vec<_>>(),
        ["b2nd", "user"]
    );
}

// ---------------------------------------------------------------------------
// header_len

#[track_caller]
fn assert_invalid_field(err: &FrameError, at: u64, name: &str) {
    assert!(
        matches!(*err.kind(), FrameErrorKind::InvalidField { field, .. } if err.offset().unwrap() == at && field == name),
        "{err}"
    );
}

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
    frame::rewrite_metalayer_in_slice(&mut b, "user", b"\x81\xa6answer\x2b").unwrap();
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

// ---------------------------------------------------------------------------
// Number of metalayers

fn n_metalayers(n: usize) -> Built {
    let entries: Vec<_> = (0..n)
        .map(|i| (fixstr(format!("m{i:02}").as_bytes()), vec![i as u8]))
        .collect();
    build(&entries)
}

#[test]
fn zero_and_16_metalayers_are_accepted() {
    assert!(frame_ok(&n_metalayers(0).bytes).metalayers.is_empty());
    let header = frame_ok(&n_metalayers(16).bytes);
    assert_eq!(header.metalayers.len(), 16);
    assert_eq!(header.metalayers[15].name, "m15");
    assert_eq!(header.metalayers[15].content, [15]);
}

#[test]
fn more_than_16_metalayers_are_refused_at_the_count() {
    // 17 and 100 complete entries, and a count of 65535 with none.
    for n in [17, 100] {
        let err = frame_err(&n_metalayers(n).bytes);
        assert!(
            matches!(*err.kind(), FrameErrorKind::TooManyMetalayers { count } if usize::from(count) == n && err.offset() == Some(92)),
            "{err}"
        );
    }
    let mut b = n_metalayers(1).bytes;
    b[92..94].copy_from_slice(&u16::MAX.to_be_bytes());
    assert!(matches!(
        frame_err(&b).kind(),
        FrameErrorKind::TooManyMetalayers { count: 65535, .. }
    ));
}

#[test]
fn index_and_contents_counts_that_disagree_are_noted() {
    let built = two();
    let at = built.offset_fields[1] + 4 + 1; // after the 0xdc
    for v in [0u16, 1, 3, 16, 17, u16::MAX] {
        let mut b = built.bytes.clone();
        b[at..at + 2].copy_from_slice(&v.to_be_bytes());
        // C never reads the contents count: noted there.
        if v != 2 {
            assert_eq!(noted(&b), [at as u64], "{v}");
        }
    }
}

// ---------------------------------------------------------------------------
// Names

#[test]
fn a_31_byte_name_is_accepted() {
    let name = [b'n'; 31];
    let built = build(&[(fixstr(&name), vec![1, 2, 3])]);
    assert_eq!(built.bytes[94], 0xbf);
    let header = frame_ok(&built.bytes);
    assert_eq!(header.metalayers[0].name.as_bytes(), name);
}

#[test]
fn a_32_byte_name_is_refused() {
    // A fixstr cannot hold 32 bytes: it takes a str8 (0xd9), a str16 or a str32.
    let name = [b'n'; 32];
    for encoded in [
        [&[0xd9, 32][..], &name].concat(),
        [&[0xda, 0, 32][..], &name].concat(),
        [&[0xdb, 0, 0, 0, 32][..], &name].concat(),
    ] {
        let built = build(&[(encoded, vec![1, 2, 3])]);
        let err = frame_err(&built.bytes);
        assert!(
            matches!(*err.kind(),
                FrameErrorKind::NameTooLong {
                    len: 32
                } if err.offset() == Some(94)),
            "{err}"
        );
    }
}

#[test]
fn names_that_are_not_c_strings_are_read_as_c_reads_them_and_noted() {
    for (name, offset) in [
        (&b"b2\0d"[..], 97u64), // NUL: C reads "b2"
        (&b"\xff\xfe"[..], 95), // not UTF-8
    ] {
        // C keeps the bytes (up to a NUL): read, and noted where the odd byte is.
        let built = build(&[(fixstr(name), vec![1])]);
        assert_eq!(noted(&built.bytes), [offset], "{name:?}");
    }
    let built = build(&[(fixstr(b"same"), vec![1]), (fixstr(b"same"), vec![2])]);
    let header = frame_ok(&built.bytes);
    assert_eq!(header.metalayer("same").unwrap().content, [1]);
    assert_eq!(noted(&built.bytes).len(), 1);
}

// ---------------------------------------------------------------------------
// ndim inside a frame: the header is opaque to it, the array metalayer is not

#[test]
fn a_frame_whose_b2nd_metalayer_claims_ndim_17_or_more_is_refused_by_array_meta() {
    for (ndim, entries) in [(17u8, 17usize), (17, 16), (127, 0), (0x80, 0), (0xff, 0)] {
        let built = build(&[(fixstr(b"b2nd"), claiming_ndim(ndim, entries))]);
        let header = frame_ok(&built.bytes);
        match header.array_meta().map_err(FrameError::into_kind) {
            Err(FrameErrorKind::Metalayer { name, source, .. }) => {
                assert_eq!(name, "b2nd");
                assert_eq!(source.offset(), Some(2), "ndim {ndim:#x}: {source}");
            }
            other => panic!("ndim {ndim:#x}: {other:?}"),
        }
    }
    for ndim in [9u8, 15, 16] {
        let built = build(&[(fixstr(b"b2nd"), claiming_ndim(ndim, usize::from(ndim)))]);
        let meta = frame_ok(&built.bytes).array_meta().unwrap();
        assert_eq!(meta.ndim(), usize::from(ndim));
    }
}
