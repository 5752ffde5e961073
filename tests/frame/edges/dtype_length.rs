//! Length fields of a metalayer: the dtype's str32.

use b2nd_meta::{ErrorKind, Expected, Meta};

use super::{decode_err, decode_ok, v1_dtype};

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
