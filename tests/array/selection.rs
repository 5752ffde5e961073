//! The selection syntax (python's, between the brackets) and numpy's resolution of it
//! against a shape, one line per case.

use b2nd_meta::array::{Array, Index, Selection};

use crate::data;

/// Text, and the selection printed back (python's spelling).
const PARSED: &[(&str, &str)] = &[
    ("5", "5"),
    ("-1", "-1"),
    ("2:8, ::3", "2:8, ::3"),
    ("...,0", "..., 0"),
    (" ( 1 , ) ", "1"),
    ("()", "()"),
    ("None, :", "None, :"),
    ("np.newaxis, Ellipsis", "None, ..."),
    ("1_000:-2_0:+3", "1000:-20:3"),
    ("None:None:None", ":"),
    (":", ":"),
    ("::", ":"),
    ("- 3", "-3"),
    ("-9223372036854775808", "-9223372036854775808"),
    ("9223372036854775807:", "9223372036854775807:"),
];

/// Text that is not a basic index, and why (with the byte).
const REFUSED: &[(&str, &str)] = &[
    ("", "expected an index, found end of input at byte 0"),
    ("1,,2", "expected an index, found ',' at byte 2"),
    ("1:2:3:4", "expected ',' or the end, found ':' at byte 5"),
    ("x", "expected an integer, found 'x' at byte 0"),
    ("1__0", "expected an integer, found '_' at byte 2"),
    ("10_", "expected an integer, found end of input at byte 3"),
    (
        "[1, 2]",
        "lists (numpy's fancy indexing) are not supported: only ints, slices, ..., None at byte 0",
    ),
    (
        "0, True",
        "booleans (numpy's boolean masks) are not supported: only ints, slices, ..., None at byte 3",
    ),
    ("Truex", "expected an integer, found 'T' at byte 0"),
    (
        "9223372036854775808",
        "expected an integer that fits in 64 bits, found '9' at byte 0",
    ),
    ("(1, 2", "expected an integer, found '(' at byte 0"),
    ("(1) 2", "expected an integer, found '(' at byte 0"),
    ("(1)) ", "expected ',' or ')', found ')' at byte 2"),
    ("1.5", "expected ',' or the end, found '.' at byte 1"),
    ("Nonesuch", "expected an integer, found 'N' at byte 0"),
];

#[test]
fn python_syntax_parses_and_prints_back() {
    for (text, printed) in PARSED {
        let sel = Selection::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(sel.to_string(), *printed, "{text:?}");
        assert_eq!(Selection::parse(printed).unwrap(), sel, "{printed:?}");
    }
}

#[test]
fn other_text_is_refused_at_its_byte() {
    for (text, message) in REFUSED {
        let err = Selection::parse(text).unwrap_err();
        assert_eq!(err.to_string(), *message, "{text:?}");
    }
}

#[test]
fn selections_build_from_rust() {
    let built = Selection::default()
        .and(2..8)
        .and(Index::slice(None, None, Some(3)));
    assert_eq!(built, Selection::parse("2:8, ::3").unwrap());
    let built = Selection::from([Index::Ellipsis, Index::Int(0)]);
    assert_eq!(built, Selection::parse("..., 0").unwrap());
    assert_eq!(
        Selection::from([Index::from(..4), Index::from(1..), Index::from(..)]).to_string(),
        ":4, 1:, :"
    );
}

/// Against a 7x6x5 array: the result's shape, or numpy's refusal.
const RESOLVED: &[(&str, Result<&[u64], &str>)] = &[
    ("...", Ok(&[7, 6, 5])),
    ("()", Ok(&[7, 6, 5])),
    ("1", Ok(&[6, 5])),
    ("-7", Ok(&[6, 5])),
    ("1, 2, 3", Ok(&[])),
    ("..., 0", Ok(&[7, 6])),
    ("0, ..., 0", Ok(&[6])),
    ("None, ..., None", Ok(&[1, 7, 6, 5, 1])),
    ("::2", Ok(&[4, 6, 5])),
    ("::-2", Ok(&[4, 6, 5])),
    ("-100:100", Ok(&[7, 6, 5])),
    ("5:2", Ok(&[0, 6, 5])),
    ("5:2:-1", Ok(&[3, 6, 5])),
    ("10:", Ok(&[0, 6, 5])),
    (":, :, :, None", Ok(&[7, 6, 5, 1])),
    ("7", Err("index 7 is out of bounds for axis 0 with size 7")),
    (
        "0, -7",
        Err("index -7 is out of bounds for axis 1 with size 6"),
    ),
    (
        "0, 0, 0, 0",
        Err("too many indices for array: array is 3-dimensional, but 4 were indexed"),
    ),
    (
        "..., ...",
        Err("an index can only have a single ellipsis ('...')"),
    ),
    ("0, ::0", Err("slice step cannot be zero (axis 1)")),
];

#[test]
fn numpy_resolves_against_the_shape() {
    let array = Array::open(data("blosc2-4.14.1").join("ndim3_f4.b2nd")).unwrap();
    for (text, want) in RESOLVED {
        let sel = Selection::parse(text).unwrap();
        match (array.shape_of(&sel), want) {
            (Ok(shape), Ok(want)) => assert_eq!(shape, *want, "{text}"),
            (Err(e), Err(want)) => assert_eq!(e.to_string(), *want, "{text}"),
            (got, want) => panic!("{text}: {got:?}, expected {want:?}"),
        }
    }
}

#[test]
fn errors_name_the_axis() {
    let array = Array::open(data("blosc2-4.14.1").join("ndim3_f4.b2nd")).unwrap();
    let axis = |t: &str| array.read_bytes(&t.parse().unwrap()).unwrap_err().axis();
    assert_eq!(axis("7"), Some(0));
    assert_eq!(axis("0, 0, -6"), Some(2));
    assert_eq!(axis("..., ::0"), Some(2));
    assert_eq!(axis("0, 0, 0, 0"), None);
}
