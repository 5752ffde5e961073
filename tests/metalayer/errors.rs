//! Every decoding and encoding error of the format: what kind it is, and at which byte
//! offset. Inputs are the C-Blosc2 vector of the golden table with one thing broken.

use crate::common;

use b2nd_meta::{ErrorKind, Expected, Meta, MetaB2nd, MetaB2ndV1, MetaV0Caterva};
use common::hex;

/// C-Blosc2's vector: shape (3,4), chunks (2,4), blocks (1,2), dtype "<i4".
/// Offsets: 0 header, 1 version, 2 ndim, 3 shape header, 4 and 13 shape entries,
/// 22 chunkshape header, 23 and 28 entries, 33 blockshape header, 34 and 39 entries,
/// 44 dtype_format, 45 dtype str32 (length at 46..50, bytes 50..53).
fn c_vector() -> Vec<u8> {
    hex("97 00 02
         92 d3 00 00 00 00 00 00 00 03  d3 00 00 00 00 00 00 00 04
         92 d2 00 00 00 02  d2 00 00 00 04
         92 d2 00 00 00 01  d2 00 00 00 02
         00
         db 00 00 00 03 3c 69 34")
}

fn with(offset: usize, byte: u8) -> Vec<u8> {
    let mut bytes = c_vector();
    bytes[offset] = byte;
    bytes
}

fn decode_err(bytes: &[u8]) -> b2nd_meta::Error {
    let typed = b2nd_meta::from_slice::<MetaB2ndV1>(bytes).unwrap_err();
    let any = b2nd_meta::from_slice::<Meta>(bytes).unwrap_err();
    // The dispatcher is exactly as strict as the typed struct, at the same place.
    assert_eq!(typed.offset(), any.offset(), "typed: {typed}; Meta: {any}");
    typed
}

fn assert_marker(err: &b2nd_meta::Error, offset: usize, expected: Expected, found: u8) {
    assert_eq!(err.offset(), Some(offset as u64), "{err}");
    match err.kind() {
        ErrorKind::InvalidMarker {
            expected: e,
            found: f,
        } => {
            assert_eq!((*e, f.0), (expected, found), "{err}")
        }
        other => panic!("expected InvalidMarker, got {other:?}"),
    }
}

#[test]
fn the_vector_itself_decodes() {
    let meta: MetaB2ndV1 = b2nd_meta::from_slice(&c_vector()).unwrap();
    assert_eq!(
        meta,
        MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4")
    );
}

#[test]
fn wrong_top_level_header() {
    // A typed struct wants its own header exactly.
    let err = b2nd_meta::from_slice::<MetaB2ndV1>(&with(0, 0x96)).unwrap_err();
    assert_marker(&err, 0, Expected::Array(7), 0x96);
    let err = b2nd_meta::from_slice::<MetaV0Caterva>(&c_vector()).unwrap_err();
    assert_marker(&err, 0, Expected::Array(5), 0x97);
    // Meta takes any array header, then refuses counts other than 5, 6 and 7.
    let err = b2nd_meta::from_slice::<Meta>(&with(0, 0x98)).unwrap_err();
    assert_eq!(err.offset(), Some(0));
    assert!(
        matches!(err.kind(), ErrorKind::InvalidLength { found: 8, .. }),
        "{err}"
    );
    // Not an array at all: a fixmap, and a str32.
    for byte in [0x87, 0xdb] {
        let err = b2nd_meta::from_slice::<Meta>(&with(0, byte)).unwrap_err();
        assert_marker(&err, 0, Expected::AnyArray, byte);
    }
    let err = b2nd_meta::from_slice::<Meta>(&[]).unwrap_err();
    assert!(err.is_eof());
    assert_eq!(err.offset(), Some(0));
}

#[test]
fn version_not_a_positive_fixint_or_not_zero() {
    assert_marker(
        &decode_err(&with(1, 0xcc)),
        1,
        Expected::PositiveFixint,
        0xcc,
    );
    let err = decode_err(&with(1, 0x01));
    assert_eq!(err.offset(), Some(1));
    match err.kind() {
        ErrorKind::InvalidValue { found, .. } => assert!(found.contains('1'), "{err}"),
        other => panic!("expected InvalidValue, got {other:?}"),
    }
    assert!(err.to_string().contains("version 0"), "{err}");
}

#[test]
fn ndim_not_a_positive_fixint_or_above_16() {
    assert_marker(
        &decode_err(&with(2, 0xd0)),
        2,
        Expected::PositiveFixint,
        0xd0,
    );
    for ndim in [17u8, 127] {
        let err = decode_err(&with(2, ndim));
        assert_eq!(err.offset(), Some(2), "{err}");
        assert!(
            matches!(err.kind(), ErrorKind::InvalidValue { .. }),
            "{err}"
        );
        assert!(err.to_string().contains("16"), "{err}");
    }
}

#[test]
fn array_header_not_0x90_plus_ndim() {
    // The header must agree with ndim = 2.
    assert_marker(&decode_err(&with(3, 0x93)), 3, Expected::Array(2), 0x93);
    assert_marker(&decode_err(&with(22, 0x91)), 22, Expected::Array(2), 0x91);
    assert_marker(&decode_err(&with(33, 0xdc)), 33, Expected::Array(2), 0xdc);
    // ndim says 3 while the arrays hold 2.
    assert_marker(&decode_err(&with(2, 0x03)), 3, Expected::Array(3), 0x92);
    // 0xa0 is an array header only when ndim is 16.
    assert_marker(&decode_err(&with(3, 0xa0)), 3, Expected::Array(2), 0xa0);
}

#[test]
fn element_marker_other_than_d3_or_d2() {
    // A compact or differently-sized integer is not the format's, whatever its value.
    for (offset, found, expected) in [
        (4, 0xcf, Expected::Int64),  // uint64
        (13, 0xd2, Expected::Int64), // int32 where int64 belongs
        (23, 0xd3, Expected::Int32), // int64 where int32 belongs
        (28, 0x04, Expected::Int32), // a positive fixint
        (39, 0xce, Expected::Int32), // uint32
    ] {
        assert_marker(&decode_err(&with(offset, found)), offset, expected, found);
    }
}

#[test]
fn dtype_format_not_a_positive_fixint() {
    assert_marker(
        &decode_err(&with(44, 0xcc)),
        44,
        Expected::PositiveFixint,
        0xcc,
    );
}

#[test]
fn dtype_marker_other_than_db() {
    // fixstr (what rmp-serde would write), str8, bin32.
    for marker in [0xa3, 0xd9, 0xc6] {
        assert_marker(&decode_err(&with(45, marker)), 45, Expected::Str32, marker);
    }
}

#[test]
fn length_running_past_the_end() {
    let mut bytes = c_vector();
    bytes[49] = 0x04; // claims 4 bytes, 3 remain
    let err = decode_err(&bytes);
    assert_eq!(err.offset(), Some(45));
    assert!(
        matches!(
            err.kind(),
            ErrorKind::UnexpectedEnd {
                expected: Expected::Str32,
                input_len: 53,
                needed: 1
            }
        ),
        "{err}"
    );
}

#[test]
fn length_above_i32_max_is_refused_before_reading() {
    // 0x80000000 and 0xffffffff: negative in C's int32_t.
    for len in [[0x80, 0, 0, 0], [0xff, 0xff, 0xff, 0xff]] {
        let mut bytes = c_vector();
        bytes[46..50].copy_from_slice(&len);
        let err = decode_err(&bytes);
        assert_eq!(err.offset(), Some(46), "{err}");
        assert!(
            matches!(err.kind(), ErrorKind::LengthOutOfRange { .. }),
            "{err}"
        );
    }
    // i32::MAX itself is a length, just far longer than the input.
    let mut bytes = c_vector();
    bytes[46..50].copy_from_slice(&[0x7f, 0xff, 0xff, 0xff]);
    let err = decode_err(&bytes);
    assert!(err.is_eof(), "{err}");
    assert_eq!(err.offset(), Some(45));
}

#[test]
fn invalid_utf8_in_dtype() {
    let mut bytes = c_vector();
    bytes[51] = 0xff; // "<\xff4"
    let err = decode_err(&bytes);
    assert_eq!(err.offset(), Some(51), "{err}");
    assert!(
        matches!(err.kind(), ErrorKind::InvalidUtf8 { str_offset: 45 }),
        "{err}"
    );
}

#[test]
fn trailing_bytes() {
    let mut bytes = c_vector();
    bytes.extend_from_slice(&[0, 0]);
    let err = decode_err(&bytes);
    assert_eq!(err.offset(), Some(53));
    assert!(
        matches!(err.kind(), ErrorKind::TrailingBytes { count: 2 }),
        "{err}"
    );
    // ... which take_from_slice hands back instead.
    let (meta, rest): (Meta, _) = b2nd_meta::take_from_slice(&bytes).unwrap();
    assert_eq!(meta.ndim(), 2);
    assert_eq!(rest, [0, 0]);
}

#[test]
fn truncation_at_every_point() {
    let bytes = c_vector();
    for len in 0..bytes.len() {
        let err = decode_err(&bytes[..len]);
        assert!(err.is_eof(), "prefix of {len}: {err}");
        let offset = err.offset().unwrap() as usize;
        assert!(offset <= len, "prefix of {len}: offset {offset}");
        match err.kind() {
            ErrorKind::UnexpectedEnd {
                input_len, needed, ..
            } => {
                assert_eq!(*input_len, len);
                assert!(*needed >= 1);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn layouts_are_not_interchangeable() {
    // A caterva metalayer is not a b2nd one, and the draft is not v1.
    let caterva = hex("95 00 00 90 90 90");
    assert_marker(
        &b2nd_meta::from_slice::<MetaB2nd>(&caterva).unwrap_err(),
        0,
        Expected::Array(6),
        0x95,
    );
    let draft = hex("96 00 00 90 90 90 db 00 00 00 00");
    assert_marker(
        &b2nd_meta::from_slice::<MetaB2ndV1>(&draft).unwrap_err(),
        0,
        Expected::Array(7),
        0x96,
    );
    // A v1 header with the draft's elements: dtype_format must be a fixint, not 0xdb.
    let mut v1_header_draft_body = draft.clone();
    v1_header_draft_body[0] = 0x97;
    assert_marker(
        &decode_err(&v1_header_draft_body),
        6,
        Expected::PositiveFixint,
        0xdb,
    );
}

fn encode_err(meta: &MetaB2ndV1) -> String {
    let err = b2nd_meta::to_vec(meta).unwrap_err();
    // The serde-free encoder refuses the same values with the same message.
    let direct = meta.encode_into(&mut [0u8; 1024]).unwrap_err();
    assert_eq!(direct.to_string(), err.to_string());
    let direct = meta.encode_to_vec().unwrap_err();
    assert_eq!(direct.to_string(), err.to_string());
    assert_eq!(err.offset(), None);
    assert!(matches!(err.kind(), ErrorKind::Message(_)), "{err:?}");
    // serde_json refuses the same values, for the same reason.
    let json = serde_json::to_string(meta).unwrap_err().to_string();
    assert!(json.starts_with(&err.to_string()), "{json} vs {err}");
    err.to_string()
}

#[test]
fn encoding_refuses_what_c_could_not_read() {
    let good = MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4");

    let mut m = good.clone();
    m.chunkshape.push(1);
    assert!(encode_err(&m).contains("found 2, 3 and 2 entries"));

    let mut m = good.clone();
    m.blockshape.pop();
    assert!(encode_err(&m).contains("found 2, 2 and 1 entries"));

    let m = MetaB2ndV1::new(vec![1; 17], vec![1; 17], vec![1; 17], "<i4");
    assert!(encode_err(&m).contains("at most 16 dimensions"));

    let mut m = good.clone();
    m.dtype_format = 128;
    assert!(encode_err(&m).contains("dtype_format"));

    // 127 is the largest that fits.
    let mut m = good;
    m.dtype_format = 127;
    assert_eq!(b2nd_meta::to_vec(&m).unwrap()[44], 0x7f);
}

#[test]
fn to_slice_reports_a_buffer_too_small() {
    let good = MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4");
    let mut buf = [0u8; 52];
    let err = b2nd_meta::to_slice(&good, &mut buf).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::BufferTooSmall {
                needed: 53,
                available: 52
            }
        ),
        "{err}"
    );
}

#[test]
fn unsupported_serde_types_are_named() {
    let err = b2nd_meta::to_vec(&1.5f64).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UnsupportedType("f64")),
        "{err}"
    );
    let err = b2nd_meta::from_slice::<u64>(&[0x01]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UnsupportedType("u64")),
        "{err}"
    );
    assert_eq!(err.offset(), Some(0));
    // u8 is a positive fixint: 128 does not fit.
    let err = b2nd_meta::to_vec(&128u8).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unencodable { .. }), "{err}");
    // More than 16 elements do not fit an array header.
    let err = b2nd_meta::to_vec(&vec![1i32; 17]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TooManyElements { len: 17 }),
        "{err}"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    use serde::de::IgnoredAny;
    // 100,000 nested one-element arrays: a self-describing read must stop early.
    let err = b2nd_meta::from_slice::<IgnoredAny>(&[0x91; 100_000]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TooDeep { max: 32, .. }),
        "{err}"
    );
    assert_eq!(err.offset(), Some(32));
    // 32 levels are fine.
    let mut ok = vec![0x91; 31];
    ok.push(0x90);
    assert!(b2nd_meta::from_slice::<IgnoredAny>(&ok).is_ok());
}

#[test]
fn encoded_len_saturates_instead_of_overflowing() {
    use b2nd_meta::Layout;
    assert_eq!(Layout::B2ndV1.encoded_len(usize::MAX, 3), usize::MAX);
    assert_eq!(Layout::B2nd.encoded_len(1, usize::MAX), usize::MAX);
    assert_eq!(Expected::Array(17).to_string(), "array of 17 element(s)");
    assert_eq!(
        Expected::Array(16).to_string(),
        "array of 16 element(s) (0xa0)"
    );
}

/// `from_slice` refuses the bytes after any top-level value, at the offset where that
/// value ends, whatever its type; a value nested in another is not checked on its own.
#[test]
fn trailing_bytes_after_any_value() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Wrapped(u8);
    let caterva = [0x95, 0x00, 0x00, 0x90, 0x90, 0x90];
    let trailing = |bytes: &[u8], result: b2nd_meta::Result<()>| {
        let err = result.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::TrailingBytes { count: 1 }),
            "{bytes:02x?}: {err}"
        );
        err.offset()
    };
    let at = |bytes: &[u8]| [bytes, &[0xff]].concat();
    let u8_value = at(&[0x07]);
    assert_eq!(
        trailing(&u8_value, b2nd_meta::from_slice::<u8>(&u8_value).map(drop)),
        Some(1)
    );
    let i32_value = at(&[0xd2, 0, 0, 0, 1]);
    assert_eq!(
        trailing(
            &i32_value,
            b2nd_meta::from_slice::<i32>(&i32_value).map(drop)
        ),
        Some(5)
    );
    let str_value = at(&[0xdb, 0, 0, 0, 1, b'a']);
    assert_eq!(
        trailing(
            &str_value,
            b2nd_meta::from_slice::<&str>(&str_value).map(drop)
        ),
        Some(6)
    );
    let tuple = at(&[0x92, 0x07, 0x08]);
    assert_eq!(
        trailing(&tuple, b2nd_meta::from_slice::<(u8, u8)>(&tuple).map(drop)),
        Some(3)
    );
    let newtype = at(&[0x07]);
    assert_eq!(
        trailing(
            &newtype,
            b2nd_meta::from_slice::<Wrapped>(&newtype).map(drop)
        ),
        Some(1)
    );
    let meta = at(&caterva);
    assert_eq!(
        trailing(&meta, b2nd_meta::from_slice::<Meta>(&meta).map(drop)),
        Some(6)
    );
    // A metalayer inside a tuple: the tuple's end is checked, not the metalayer's.
    let nested = [&[0x92][..], &caterva, &[0x07]].concat();
    assert!(b2nd_meta::from_slice::<(Meta, u8)>(&nested).is_ok());
    assert_eq!(
        trailing(
            &at(&nested),
            b2nd_meta::from_slice::<(Meta, u8)>(&at(&nested)).map(drop)
        ),
        Some(8)
    );
    // A bad metalayer followed by bytes: its own error comes first (here, the version).
    let bad = at(&[0x95, 0x01, 0x00, 0x90, 0x90, 0x90]);
    let err = b2nd_meta::from_slice::<Meta>(&bad).unwrap_err();
    assert_eq!(err.offset(), Some(1), "{err}");
}
