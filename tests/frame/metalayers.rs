//! Hand-crafted metalayer sections: names, counts, offsets and content lengths.

use b2nd_meta::frame::{parse_header, rewrite_metalayer, FrameErrorKind, FIXED_HEADER_LEN};

use crate::common::frame::{fixstr, set_i32};
use crate::{build, common, simple, ALLOC_LIMIT};

#[test]
fn handcrafted_header_roundtrips() {
    let h = parse_header(&simple(&["a", "bb", "ccc"])).unwrap();
    assert_eq!(h.names().collect::<Vec<_>>(), ["a", "bb", "ccc"]);
    assert_eq!(h.metalayer("bb").unwrap().content, [1, 1]);
    assert_eq!(h.info.nthreads_comp, 2);
    assert_eq!(h.info.nthreads_decomp, 3);
    assert_eq!(h.info.splitmode, 4);
    // No metalayers, an empty content, and exactly 16 metalayers are fine.
    assert!(parse_header(&build(&[])).unwrap().metalayers.is_empty());
    let h = parse_header(&build(&[(fixstr(b""), vec![])])).unwrap();
    assert_eq!(
        (h.metalayers[0].name.as_str(), h.metalayers[0].content.len()),
        ("", 0)
    );
    let names: Vec<String> = (0..16).map(|i| format!("m{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(parse_header(&simple(&refs)).unwrap().metalayers.len(), 16);
}

#[test]
fn name_of_31_bytes_ok_32_bytes_error() {
    let n31 = [b'x'; 31];
    let h = parse_header(&build(&[(fixstr(&n31), vec![7])])).unwrap();
    assert_eq!(h.metalayers[0].name, "x".repeat(31));
    assert_eq!(h.metalayers[0].content, [7]);

    // 32 bytes cannot be a fixstr; msgpack would use str8 (0xd9).
    let mut str8 = vec![0xd9, 32];
    str8.extend_from_slice(&[b'x'; 32]);
    let err = parse_header(&build(&[(str8, vec![7])])).unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::NameTooLong {
                len: 32
            } if err.offset() == Some(94)),
        "{err}"
    );

    let mut str16 = vec![0xda, 0, 40];
    str16.extend_from_slice(&[b'x'; 40]);
    let err = parse_header(&build(&[(str16, vec![])])).unwrap_err();
    assert!(
        matches!(err.kind(), FrameErrorKind::NameTooLong { len: 40, .. }),
        "{err}"
    );

    // Other markers are not names at all.
    let err = parse_header(&build(&[(vec![0xc4, 1, b'x'], vec![])])).unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::BadMarker {
                found: 0xc4,
                ..
            } if err.offset() == Some(94)),
        "{err}"
    );
}

#[test]
fn names_are_read_as_c_blosc2_reads_them_and_noted() {
    // Not UTF-8: read (C holds bytes), shown with U+FFFD, noted where the bytes are.
    let h = parse_header(&build(&[(fixstr(&[0xff, 0xfe]), vec![])])).unwrap();
    assert_eq!(h.metalayers[0].name, "\u{fffd}\u{fffd}");
    assert_eq!(h.info.notes[0].offset, 95);
    // A NUL: C's name ends there.
    let h = parse_header(&build(&[(fixstr(b"a\0b"), vec![])])).unwrap();
    assert_eq!(h.metalayers[0].name, "a");
    assert_eq!(h.info.notes[0].offset, 96);
    // Twice the same name: both kept, the first found (as blosc2_meta_get finds it).
    let h = parse_header(&simple(&["b2nd", "x", "b2nd"])).unwrap();
    assert_eq!(h.names().collect::<Vec<_>>(), ["b2nd", "x", "b2nd"]);
    assert_eq!(h.metalayer("b2nd").unwrap().content, [0]);
    assert!(h.info.notes[0]
        .note
        .contains("second metalayer named \"b2nd\""));
    // Non-ASCII UTF-8 is fine.
    let h = parse_header(&build(&[(fixstr("métá".as_bytes()), vec![1])])).unwrap();
    assert_eq!(h.metalayers[0].name, "métá");
    assert!(h.info.notes.is_empty());
}

#[test]
fn metalayer_counts_are_checked_or_noted() {
    // 17 in both places.
    let names: Vec<String> = (0..17).map(|i| format!("m{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let err = parse_header(&simple(&refs)).unwrap_err();
    assert!(
        matches!(err.kind(),
            FrameErrorKind::TooManyMetalayers {
                count: 17
            } if err.offset() == Some(92)),
        "{err}"
    );

    // The contents array count disagrees with the index.
    let mut h = simple(&["a", "b"]);
    let dc = FIXED_HEADER_LEN + 7 + 2 * 7;
    assert_eq!(h[dc], 0xdc);
    h[dc + 2] = 1;
    // C never reads it: read, and noted.
    let notes = parse_header(&h).unwrap().info.notes;
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].offset, dc as u64 + 1);
    assert!(notes[0]
        .note
        .contains("holds 1 metalayers, but the index holds 2"));

    // A huge count in the index with a small header.
    let mut h = simple(&["a"]);
    h[92..94].copy_from_slice(&u16::MAX.to_be_bytes());
    assert!(matches!(
        parse_header(&h).unwrap_err().kind(),
        FrameErrorKind::TooManyMetalayers {
            count: u16::MAX,
            ..
        }
    ));

    // Index size that does not match the index.
    let mut h = simple(&["a"]);
    h[89..91].copy_from_slice(&13u16.to_be_bytes());
    // C never reads it: read, and noted.
    let notes = parse_header(&h).unwrap().info.notes;
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].offset, 89);
    assert!(notes[0]
        .note
        .contains("index size is 13, but the index spans 14 bytes"));
}

#[test]
fn offsets_and_lengths_never_point_outside_the_header() {
    // Entry layout for name "a": 0xa1 'a' 0xd2 [offset at 97..101].
    let base = simple(&["a", "b"]);
    let header_len = base.len() as i32;
    for bad in [i32::MIN, -1, header_len, header_len + 1, i32::MAX] {
        let mut h = base.clone();
        set_i32(&mut h, 97, bad);
        let err = parse_header(&h).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::OffsetOutsideHeader { value, .. } if *value == bad && err.offset() == Some(97)),
            "{bad}: {err}"
        );
    }
    // In the header but not where the content is (e.g. swapped, or pointing
    // at some other 0xc6 or into the fixed part).
    let first = i32::from_be_bytes(base[97..101].try_into().unwrap());
    let second = i32::from_be_bytes(base[104..108].try_into().unwrap());
    // C checks that an offset points at a bin32 (0xc6) content inside the header,
    // nothing more: elsewhere it is refused at the byte pointed at, at the other
    // content it is read (and noted).
    for bad in [0, 50, first + 1] {
        let mut h = base.clone();
        set_i32(&mut h, 97, bad);
        let err = parse_header(&h).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::BadMarker { .. } if err.offset() == Some(bad as u64)),
            "{bad}: {err}"
        );
    }
    let mut h = base.clone();
    set_i32(&mut h, 97, second);
    let header = parse_header(&h).unwrap();
    assert_eq!(header.metalayers[0].content, header.metalayers[1].content);
    assert!(header.info.notes.iter().any(|n| n.offset == second as u64));
    // Contents C reads elsewhere than where it writes them are not rewritten in place.
    assert!(!header.info.contents_as_c_writes);
    let before = h.clone();
    let err = rewrite_metalayer(b2nd_meta::frame::Target::bytes(&mut h), "b", &[9, 9]).unwrap_err();
    assert!(matches!(err.kind(), FrameErrorKind::UnusualLayout), "{err}");
    assert_eq!(h, before);
    assert!(parse_header(&base).unwrap().info.contents_as_c_writes);
    // Content lengths: negative, past the header, overflowing.
    let c0 = first as usize;
    // One byte longer runs into the next content's marker: inside the header, C reads
    // it so (and the next content from its own offset); noted.
    let mut h = base.clone();
    set_i32(&mut h, c0 + 1, 2);
    let header = parse_header(&h).unwrap();
    assert_eq!(header.metalayers[0].content, [0, 0xc6]);
    assert_eq!(header.metalayers[1].content, [1, 1]);
    assert!(!header.info.notes.is_empty());
    for bad in [-1, i32::MIN, 1000, i32::MAX] {
        let mut h = base.clone();
        set_i32(&mut h, c0 + 1, bad);
        let err = parse_header(&h).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                FrameErrorKind::InvalidField { .. }
                    | FrameErrorKind::OutOfHeader { .. }
                    | FrameErrorKind::BadMarker { .. }
            ),
            "{bad}: {err}"
        );
    }
    let mut h = base.clone();
    set_i32(&mut h, c0 + 1, i32::MAX);
    assert!(matches!(parse_header(&h).unwrap_err().kind(),
        FrameErrorKind::OutOfHeader { end, .. } if *end == (c0 + 5) as u64 + i32::MAX as u64
    ));
    // A wrong content marker.
    let mut h = base.clone();
    h[c0] = 0xc5;
    assert!(matches!(
        parse_header(&h).unwrap_err().kind(),
        FrameErrorKind::BadMarker { found: 0xc5, .. }
    ));
    assert!(common::alloc::largest_ever() < ALLOC_LIMIT);
}
