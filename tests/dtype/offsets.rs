//! Where errors point: the byte offset of the first problem.

use b2nd_meta::dtype::{MAX_ITEMSIZE, MAX_NDIM, MAX_NESTING};

use crate::{at, offset_of, parse, parse_err};

#[test]
fn error_offsets_in_type_strings() {
    assert_eq!(offset_of(""), 0);
    assert_eq!(offset_of("<i3"), 2);
    assert_eq!(offset_of("f12"), 1);
    assert_eq!(offset_of("<x"), 1);
    assert_eq!(offset_of("<"), 1);
    assert_eq!(offset_of("Sx"), 0);
    assert_eq!(offset_of("S5x"), 2);
    assert_eq!(offset_of("S-1"), 1);
    assert_eq!(offset_of("<i4x"), 3);
    assert_eq!(offset_of("int32 "), 0);
    assert_eq!(offset_of("Float64"), 0);
    assert_eq!(offset_of(">int32"), 2);
    assert_eq!(offset_of("<l"), 1);
    assert_eq!(offset_of("intp"), 0);
    assert_eq!(offset_of("q8"), 1);
    assert_eq!(offset_of("<M8[parsec]"), 4);
    assert_eq!(offset_of("<M8[10parsec]"), 6);
    assert_eq!(offset_of("M8[ns"), 5);
    assert_eq!(offset_of("M8[ns]]"), 6);
    assert_eq!(offset_of("M8[]"), 3);
    assert_eq!(offset_of("M8[2147483648ns]"), 3);
    assert_eq!(offset_of("datetime64[ns]x"), 14);
    assert_eq!(offset_of("datetime64ns"), 10);
}

#[test]
fn error_offsets_in_literals() {
    // Unbalanced brackets.
    assert_eq!(offset_of("[('a', '<i4')"), 13);
    assert_eq!(parse_err("[('a', '<i4')").found(), "end of input");
    assert_eq!(offset_of("[('a', '<i4'))]"), 13);
    assert_eq!(offset_of("('<i4', (2,)"), 12);
    assert_eq!(offset_of("{'names': ['a'], 'formats': ['i4']"), 34);
    assert_eq!(offset_of("[('a', '<i4')]]"), 14);
    // Unbalanced quotes: an unterminated string is reported where it opens.
    assert_eq!(offset_of("[('a', '<i4)]"), 7);
    assert_eq!(offset_of("[('a, '<i4')]"), 7);
    assert_eq!(offset_of("'<i4"), 0);
    assert_eq!(offset_of("[('a\n', 'i4')]"), 2);
    // Trailing garbage.
    assert_eq!(offset_of("[('a', '<i4')]x"), 14);
    assert_eq!(offset_of("[('a', '<i4')] x"), 15);
    assert_eq!(offset_of("('<i4', (2,)) ,"), 14);
    // Errors inside a quoted format point into the format.
    assert_eq!(offset_of("[('a', '<i3')]"), 10);
    assert_eq!(offset_of("[('a', '<M8[parsec]')]"), 12);
    // ...or at its opening quote when it holds escapes.
    assert_eq!(offset_of("[('a', '\\x3ci3')]"), 7);
    // Bad structure.
    assert_eq!(offset_of("[('a', 'i4'), ('a', 'f8')]"), 15);
    assert_eq!(offset_of("[(('t', 'a'), 'i4'), ('t', 'f8')]"), 22);
    assert_eq!(offset_of("[('a',)]"), 1);
    assert_eq!(offset_of("[('a', 'i4', (-1,))]"), 14);
    assert_eq!(offset_of("[('a', 'i4', (2.0,))]"), 15);
    assert_eq!(offset_of("{'names': ['a', 'b'], 'formats': ['i4']}"), 33);
    assert_eq!(offset_of("{'formats': ['i4']}"), 0);
    assert_eq!(
        offset_of("{'names': ['a'], 'formats': ['i4'], 'itemsize': 2}"),
        48
    );
    let s = "{'names': ['a', 'b'], 'formats': ['i1', 'i4'], 'offsets': [0, 1], 'aligned': True}";
    assert_eq!(offset_of(s), s.find("1]").unwrap());
    assert_eq!(offset_of("('S0', (2,))"), 1);
    assert_eq!(offset_of("[('a', None)]"), 7);
}

#[test]
fn error_offsets_for_overflowing_sizes() {
    assert_eq!(offset_of("S18446744073709551616"), 1);
    assert_eq!(offset_of(&format!("S{}", MAX_ITEMSIZE + 1)), 1);
    assert_eq!(offset_of(&format!("|V{}", MAX_ITEMSIZE + 1)), 2);
    assert_eq!(offset_of(&format!("<U{}", MAX_ITEMSIZE / 4 + 1)), 2);
    assert_eq!(offset_of("[('a', 'S18446744073709551616')]"), 9);
    // Subarray products.
    assert_eq!(offset_of("[('a', '<f8', (4294967296, 4294967296))]"), 14);
    assert_eq!(offset_of("('<f8', (65536, 65536, 65536, 65536, 65536))"), 8);
    assert_eq!(offset_of("('S9223372036854775807', 2)"), 25);
    // A dimension or offset past the limit, or a Python int past u64.
    assert_eq!(offset_of("('u1', (9223372036854775808,))"), 8);
    assert_eq!(offset_of("('u1', (18446744073709551616,))"), 8);
    // Struct totals.
    let s = "[('a', 'S9223372036854775807'), ('b', 'u1')]";
    assert_eq!(offset_of(s), s.find("('b'").unwrap());
    let s = "{'names': ['a'], 'formats': ['i4'], 'offsets': [9223372036854775807]}";
    assert_eq!(offset_of(s), s.find("922").unwrap());
    let s = "{'names': ['a'], 'formats': ['i4'], 'itemsize': 18446744073709551616}";
    assert_eq!(offset_of(s), s.find("184").unwrap());
    // Too many dimensions.
    let dims = vec!["1"; MAX_NDIM + 1].join(", ");
    assert_eq!(offset_of(&format!("('i4', ({dims}))")), 7);
    let dims = vec!["1"; MAX_NDIM].join(", ");
    assert_eq!(
        parse(&format!("('i4', ({dims}))"))
            .subarray()
            .unwrap()
            .1
            .len(),
        MAX_NDIM
    );
}

/// A struct nested `levels` deep: the innermost format is at level `levels`.
fn nested_struct(levels: usize) -> String {
    format!("{}'<i4'{}", "[('a', ".repeat(levels), ")]".repeat(levels))
}

/// A subarray nested `levels` deep.
fn nested_subarray(levels: usize) -> String {
    format!("{}'<i4'{}", "(".repeat(levels), ", (1,))".repeat(levels))
}

#[test]
fn nesting_up_to_the_limit_parses() {
    let dt = parse(&nested_struct(MAX_NESTING));
    assert_eq!(dt.itemsize(), 4);
    assert_eq!(dt.to_string(), nested_struct(MAX_NESTING));
    let dt = parse(&nested_subarray(MAX_NESTING));
    assert_eq!(dt.itemsize(), 4);
    assert_eq!(dt.to_string(), nested_subarray(MAX_NESTING));
}

#[test]
fn nesting_past_the_limit_is_an_error() {
    let s = nested_struct(MAX_NESTING + 1);
    let err = parse_err(&s);
    assert_eq!(at(&err), "[('a', ".len() * (MAX_NESTING + 1));
    assert!(err.expected().contains("nested"), "{err}");
    let s = nested_subarray(MAX_NESTING + 1);
    assert_eq!(offset_of(&s), MAX_NESTING + 1);
    // A field shape puts its format one level further down.
    let s = format!(
        "{}'<i4', (2,){}",
        "[('a', ".repeat(MAX_NESTING),
        ")]".repeat(MAX_NESTING)
    );
    assert_eq!(offset_of(&s), "[('a', ".len() * MAX_NESTING);
    // Very deep brackets of any kind fail without exhausting the stack.
    for open in ["[", "(", "{'names': ['a'], 'formats': ["] {
        let err = parse_err(&open.repeat(100_000));
        assert!(at(&err) < 10_000, "{open}: {err}");
    }
}
