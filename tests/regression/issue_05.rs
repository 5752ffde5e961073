//! Issue 5 (hardening: fuzzing, sweeps, allocation bounds, edge tests): the bugs its
//! edge tests found.

use crate::common;

use b2nd_meta::frame::{self, FrameErrorKind};
use common::frame::{build_with, real_fixed_part};

/// Found by the edge tests (tests/frame/edges/) while writing the name tests: a
/// metalayer name stored as a str8/str16/str32 of at most 31 bytes was reported as `NameTooLong`, whose message
/// then contradicts itself ("metalayer name of 4 bytes, at most 31 allowed"). C writes
/// names as fixstr only; a short name in another string type is a wrong marker, not a
/// long name.
#[test]
fn a_short_name_in_a_str8_is_not_reported_as_too_long() {
    // One metalayer "b2nd" (as str8: d9 04) holding 1 byte, on the fixed part of
    // tests/data/frame/contiguous.b2nd (python-blosc2 4.14.1).
    let name = vec![0xd9, 0x04, b'b', b'2', b'n', b'd'];
    let h = build_with(&real_fixed_part(), &[(name, vec![0x2a])]).bytes;
    assert_eq!(
        h[87..],
        [
            0x93, 0xcd, 0x00, 0x12, 0xde, 0x00, 0x01, 0xd9, 0x04, b'b', b'2', b'n', b'd', 0xd2,
            0x00, 0x00, 0x00, 0x6c, 0xdc, 0x00, 0x01, 0xc6, 0x00, 0x00, 0x00, 0x01, 0x2a
        ]
    );
    assert_eq!(h.len(), 114);
    // With the fixstr a4 "b2nd" in its place (one byte shorter, and the offsets and
    // sizes one less), the same header is accepted: only the marker is wrong.
    let mut fixstr = h.clone();
    fixstr.splice(94..96, [0xa4]);
    fixstr[90] = 0x11;
    fixstr[103] = 0x6b;
    fixstr[11..15].copy_from_slice(&113i32.to_be_bytes());
    fixstr[16..24].copy_from_slice(&113u64.to_be_bytes());
    assert_eq!(
        frame::parse_header(&fixstr).unwrap().metalayers[0].content,
        [0x2a]
    );
    for (marker_and_len, name_len) in [
        (&[0xd9, 0x04][..], 4),
        (&[0xda, 0x00, 0x04][..], 4),
        (&[0xdb, 0x00, 0x00, 0x00, 0x1f][..], 31),
    ] {
        let mut b = h.clone();
        b.splice(94..96, marker_and_len.iter().copied());
        let err = frame::parse_header(&b).expect_err("only fixstr names are C's");
        assert!(
            !matches!(err.kind(), FrameErrorKind::NameTooLong { len, .. } if *len <= 31),
            "a {name_len}-byte name: {err}"
        );
        assert!(
            !err.to_string()
                .contains(&format!("name of {name_len} bytes, at most 31")),
            "{err}"
        );
    }
}
