//! Chosen behaviour: byte order, names, fields, serde, the error's accessors.

use b2nd_meta::dtype::{ByteOrder, DatetimeUnit, Dtype, DtypeErrorKind, Kind, MAX_ITEMSIZE};

use crate::{parse, parse_err};

#[test]
fn native_and_missing_byte_order_resolve_to_little() {
    for input in [
        "=f8", "f8", "|f8", "float64", "d", "=U3", "|U3", "=M8[ns]", "|i4",
    ] {
        let dt = parse(input);
        assert_eq!(dt.byte_order(), ByteOrder::Little, "{input:?}");
        assert!(dt.to_string().starts_with('<'), "{input:?} -> {dt}");
    }
    for input in ["=i1", ">u1", "<b1", ">S5", "<V8", ">O", "|?"] {
        let dt = parse(input);
        assert_eq!(dt.byte_order(), ByteOrder::NotApplicable, "{input:?}");
        assert!(dt.to_string().starts_with('|'), "{input:?} -> {dt}");
    }
    assert_eq!(parse(">f8").byte_order(), ByteOrder::Big);
    assert_eq!(parse("[('a', '=i4')]").to_string(), "[('a', '<i4')]");
}

#[test]
fn char_codes_numpy_accepts_are_types_not_errors() {
    // '<q' is NumPy's int64 code and 'S' its unsized byte string, not errors.
    assert_eq!(parse("<q").to_string(), "<i8");
    assert_eq!(parse("S").to_string(), "|S0");
    assert_eq!(parse("S").itemsize(), 0);
    assert_eq!(parse("[('a', 'S')]").to_string(), "[('a', 'S')]");
}

#[test]
fn for_typesize_is_a_byte_string() {
    for (size, text) in [
        (0, "|S0"),
        (1, "|S1"),
        (8, "|S8"),
        (u32::MAX, "|S4294967295"),
    ] {
        let dt = Dtype::for_typesize(size);
        assert_eq!(dt.to_string(), text);
        assert_eq!(dt.kind(), Kind::Bytes);
        assert_eq!(dt.itemsize(), u64::from(size));
        assert_eq!(dt, parse(text));
    }
}

#[test]
fn empty_field_names_from_dicts_keep_the_dict_form() {
    // NumPy prints "[('', '<i4')]" here, which both NumPy and this crate read
    // back with the field renamed 'f0'; the dict form keeps the name.
    let dt = parse("{'names': [''], 'formats': ['i4']}");
    assert_eq!(dt.fields().unwrap()[0].name(), "");
    let text = dt.to_string();
    assert_eq!(
        text,
        "{'names': [''], 'formats': ['<i4'], 'offsets': [0], 'itemsize': 4}"
    );
    assert_eq!(parse(&text), dt);
    assert_eq!(parse("[('', '<i4')]").fields().unwrap()[0].name(), "f0");
}

#[test]
fn aligned_flag_is_kept_and_printed() {
    let dt = parse("{'names': ['a', 'b'], 'formats': ['i1', 'i4'], 'aligned': True}");
    assert!(dt.is_aligned_struct());
    let packed =
        parse("{'names': ['a', 'b'], 'formats': ['i1', 'i4'], 'offsets': [0, 4], 'itemsize': 8}");
    assert!(!packed.is_aligned_struct());
    assert_ne!(dt, packed);
    assert_eq!(dt.fields(), packed.fields());
    assert_eq!(dt.itemsize(), packed.itemsize());
}

#[test]
fn huge_sizes_do_not_allocate() {
    let dt = parse("S99999999999");
    assert_eq!(dt.itemsize(), 99_999_999_999);
    let dt = parse("[('a', 'S99999999999', (99999,)), ('b', '<U99999999')]");
    assert_eq!(dt.itemsize(), 99_999_999_999 * 99_999 + 4 * 99_999_999);
    assert_eq!(parse(&format!("S{MAX_ITEMSIZE}")).itemsize(), MAX_ITEMSIZE);
    assert_eq!(
        parse(&format!("U{}", MAX_ITEMSIZE / 4)).itemsize(),
        MAX_ITEMSIZE / 4 * 4
    );
}

#[test]
fn datetime_units() {
    let dt = parse("<M8[10ms]");
    assert_eq!(dt.kind(), Kind::Datetime);
    assert_eq!(dt.datetime_unit(), Some((DatetimeUnit::Millisecond, 10)));
    assert_eq!(
        parse("m8").datetime_unit(),
        Some((DatetimeUnit::Generic, 1))
    );
    assert_eq!(parse("M8[\u{3bc}s]").to_string(), "<M8[us]");
    assert_eq!(parse("M8[1ns]").to_string(), "<M8[ns]");
    assert_eq!(parse("M8[2generic]").to_string(), "<M8");
    assert_eq!(parse("timedelta64[3h]").to_string(), "<m8[3h]");
}

#[test]
fn fields_and_subarrays() {
    let dt = parse(
        "[(('Title', 'a'), '<i4', (2, 3)), ('b', [('c', '>f8')]), ('d', ('u1', (2,)), (3,))]",
    );
    let fields = dt.fields().unwrap();
    assert_eq!(fields[0].title(), Some("Title"));
    assert_eq!(fields[0].shape(), &[2, 3]);
    assert_eq!(fields[0].base().to_string(), "<i4");
    assert_eq!(fields[0].dtype().kind(), Kind::Subarray);
    assert_eq!(fields[1].offset(), 24);
    assert_eq!(
        fields[1].dtype().fields().unwrap()[0].base().byte_order(),
        ByteOrder::Big
    );
    assert!(fields[1].shape().is_empty());
    assert_eq!(fields[2].offset(), 32);
    assert_eq!(fields[2].shape(), &[3]);
    assert_eq!(fields[2].base().subarray().unwrap().1, &[2]);
    assert_eq!(dt.itemsize(), 38);
    assert_eq!(
        dt.to_string(),
        "[(('Title', 'a'), '<i4', (2, 3)), ('b', [('c', '>f8')]), ('d', ('u1', (2,)), (3,))]"
    );
}

#[test]
fn field_names_are_python_literals() {
    let cases = [
        ("[(\"it's\", 'i4')]", "it's", "[(\"it's\", '<i4')]"),
        ("[('a\\\\b', 'i4')]", "a\\b", "[('a\\\\b', '<i4')]"),
        (
            "[('\\x41\\u00e9\\U0001F600\\101\\n', 'i4')]",
            "A\u{e9}\u{1f600}A\n",
            "[('A\u{e9}\u{1f600}A\\n', '<i4')]",
        ),
        ("[('\\'\"', 'i4')]", "'\"", "[('\\'\"', '<i4')]"),
        (
            "[('\\u200b\\xa0\\x7f', 'i4')]",
            "\u{200b}\u{a0}\u{7f}",
            "[('\\u200b\\xa0\\x7f', '<i4')]",
        ),
        ("[('a\\q', 'i4')]", "a\\q", "[('a\\\\q', '<i4')]"),
    ];
    for (input, name, canonical) in cases {
        let dt = parse(input);
        assert_eq!(dt.fields().unwrap()[0].name(), name, "{input:?}");
        assert_eq!(dt.to_string(), canonical, "{input:?}");
        assert_eq!(parse(canonical), dt);
    }
}

#[test]
fn serde_uses_the_canonical_string() {
    let dt = parse("int32");
    assert_eq!(serde_json::to_string(&dt).unwrap(), "\"<i4\"");
    let back: Dtype = serde_json::from_str("\"[('a', 'i4'), ('b', 'f8')]\"").unwrap();
    assert_eq!(back.to_string(), "[('a', '<i4'), ('b', '<f8')]");
    let list: Vec<Dtype> = serde_json::from_str(r#"["|u1", "bool", "=f2"]"#).unwrap();
    assert_eq!(
        list.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        ["|u1", "|b1", "<f2"]
    );
    let err = serde_json::from_str::<Dtype>("\"<i3\"").unwrap_err();
    assert!(err.to_string().contains("found \"3\" at byte 2"), "{err}");
    assert!(serde_json::from_str::<Dtype>("4").is_err());
}

#[test]
fn error_accessors_and_message() {
    let err = parse_err("<i3");
    assert_eq!(err.offset(), Some(2));
    assert_eq!(err.expected(), "a size of 1, 2, 4 or 8 bytes for kind 'i'");
    assert_eq!(err.found(), "\"3\"");
    assert_eq!(
        err.to_string(),
        "expected a size of 1, 2, 4 or 8 bytes for kind 'i', found \"3\" at byte 2"
    );
    let err = parse_err("");
    assert_eq!((err.offset(), err.found()), (Some(0), "end of input"));
}

#[test]
fn error_kinds() {
    use DtypeErrorKind::{Invalid, LimitExceeded, Syntax, Unsupported};
    let kind = |s: &str| match parse_err(s).kind() {
        Syntax { .. } => "syntax",
        Invalid { .. } => "invalid",
        Unsupported { .. } => "unsupported",
        LimitExceeded { .. } => "limit",
        other => panic!("{s:?}: a new kind {other:?}"),
    };
    for (input, expected) in [
        ("", "syntax"),
        ("<x", "syntax"),
        ("M8[parsec]", "syntax"),
        ("[('a', '<i4')", "syntax"),
        ("[('a', '<i4)]", "syntax"),
        ("[('a', 'i4')]x", "syntax"),
        ("<i3", "invalid"),
        ("q8", "invalid"),
        ("('S0', (2,))", "invalid"),
        ("[('a',)]", "invalid"),
        ("[('a', 'i4'), ('a', 'f8')]", "invalid"),
        (
            "{'names': ['a'], 'formats': ['i4'], 'itemsize': 2}",
            "invalid",
        ),
        ("{'formats': ['i4']}", "invalid"),
        ("int", "unsupported"),
        ("intp", "unsupported"),
        ("<l", "unsupported"),
        ("S18446744073709551616", "limit"),
        ("M8[2147483648ns]", "limit"),
        ("[('a', '<f8', (4294967296, 4294967296))]", "limit"),
        ("('u1', (9223372036854775808,))", "limit"),
    ] {
        assert_eq!(kind(input), expected, "{input:?}: {}", parse_err(input));
    }
    let err = parse_err("intp");
    assert_eq!(
        err.kind(),
        &Unsupported {
            expected: "a dtype whose size does not depend on the platform".into(),
            found: "\"intp\"".into(),
        }
    );
    assert_eq!(
        err.to_string(),
        "expected a dtype whose size does not depend on the platform, found \"intp\" at byte 0"
    );
}
