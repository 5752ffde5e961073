//! The metalayer index: how many metalayers, and their names.

use b2nd_meta::frame::FrameErrorKind;

use super::{build, frame_err, frame_ok, noted, two};
use crate::common::frame::{fixstr, Built};

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
