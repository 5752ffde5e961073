//! Depth errors name what was found: nested maps said "expected arrays nested at most
//! 1024 deep".

use b2nd_meta::value::{Value, MAX_DEPTH};
use b2nd_meta::ErrorKind;

/// `levels` of `open` (a one-element container's head, then its key when a map)
/// around nil.
fn nested(open: &[u8], levels: usize) -> Vec<u8> {
    [open.repeat(levels), vec![0xc0]].concat()
}

#[test]
fn depth_errors_name_the_container_found_past_the_bound() {
    for (open, found) in [
        (&[0x91][..], "an array"),
        (&[0x81, 0xc0][..], "a map"),
        (&[0x81, 0xa1, b'k'][..], "a map"),
    ] {
        let err = Value::from_msgpack(&nested(open, MAX_DEPTH + 1)).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::TooDeep { max: MAX_DEPTH, found: f } if *f == found),
            "{err}"
        );
        assert_eq!(err.offset(), Some((MAX_DEPTH * open.len()) as u64));
        let message = err.to_string();
        assert!(
            message.contains(&format!("found {found} deeper")),
            "{message}"
        );
        assert!(Value::from_msgpack(&nested(open, MAX_DEPTH)).is_ok());
    }
    // Writing a value nested too deep names it too.
    let mut v = Value::Nil;
    for _ in 0..=MAX_DEPTH {
        v = Value::Map(vec![(Value::Nil, v)]);
    }
    let err = v.to_msgpack().unwrap_err();
    assert!(err.to_string().contains("found a map deeper"), "{err}");
    // Drop without recursion trouble: unwind it level by level.
    while let Value::Map(mut pairs) = v {
        v = pairs.pop().map_or(Value::Nil, |(_, inner)| inner);
    }
}
