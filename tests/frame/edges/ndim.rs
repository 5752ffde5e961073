//! ndim from 0 to 16 and beyond: in the array metalayer, and inside a frame.

use b2nd_meta::frame::{FrameError, FrameErrorKind};
use b2nd_meta::{ErrorKind, Expected, Meta, MetaV0Caterva};

use super::{build, decode_err, decode_ok, frame_ok, meta_with_ndim};
use crate::common::frame::fixstr;

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
