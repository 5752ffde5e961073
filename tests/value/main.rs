//! `value::Value`: msgpack values as python-blosc2 writes them.
//!
//! Every hex string below is python-blosc2 4.14.1's output, made with
//! `$VENV/bin/python -c "from blosc2.msgpack_utils import msgpack_packb; print(msgpack_packb(<python>).hex())"`
//! (plain `msgpack.packb` for the rows marked so); the JSON is the crate's mapping
//! (CONVENTIONS / README; `$VENV`: the venv `.ci/references` installs) written by hand from python's value.

#[path = "../common/mod.rs"]
mod common;

use b2nd_meta::value::{Value, MAX_DEPTH};
use b2nd_meta::ErrorKind;
use common::hex;

/// (python source, python's bytes, JSON of our value)
#[rustfmt::skip]
const CASES: &[(&str, &str, &str)] = &[
    ("None", "c0", "null"),
    ("True", "c3", "true"),
    ("0", "00", "0"),
    ("127", "7f", "127"),
    ("128", "cc80", "128"),
    ("-1", "ff", "-1"),
    ("-33", "d0df", "-33"),
    ("-129", "d1ff7f", "-129"),
    ("65536", "ce00010000", "65536"),
    ("2**32", "cf0000000100000000", "4294967296"),
    ("-2**31-1", "d3ffffffff7fffffff", "-2147483649"),
    ("2**64-1", "cfffffffffffffffff", "18446744073709551615"),
    ("-2**63", "d38000000000000000", "-9223372036854775808"),
    ("1.5", "cb3ff8000000000000", "1.5"),
    ("float('nan')", "cb7ff8000000000000", "\"NaN\""),
    ("float('inf')", "cb7ff0000000000000", "\"Infinity\""),
    ("-float('inf')", "cbfff0000000000000", "\"-Infinity\""),
    ("np.float32(0.1)", "cb3fb99999a0000000", "0.10000000149011612"),
    ("msgpack.packb(0.1, use_single_float=True)", "ca3dcccccd", "0.10000000149011612"),
    ("'x'*32", "d9207878787878787878787878787878787878787878787878787878787878787878", "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\""),
    ("'é'", "a2c3a9", "\"é\""),
    ("b'\\x00\\xff'", "c40200ff", r#"{"$bin":"00ff"}"#),
    ("[1, [2]]", "92019102", "[1,[2]]"),
    ("(1, 'a')", "93a95f5f7475706c655f5f01a161", r#"[1,"a"]"#),
    ("()", "91a95f5f7475706c655f5f", "[]"),
    ("{'a': 1, 'b': (2,)}", "82a16101a16292a95f5f7475706c655f5f02", r#"{"a":1,"b":[2]}"#),
    ("{1: 'x', None: 2}", "8201a178c002", r#"{"1":"x","null":2}"#),
    ("list(range(16))", "dc0010000102030405060708090a0b0c0d0e0f", "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]"),
    ("{str(i): i for i in range(16)}", "de0010a13000a13101a13202a13303a13404a13505a13606a13707a13808a13909a231300aa231310ba231320ca231330da231340ea231350f", r#"{"0":0,"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"11":11,"12":12,"13":13,"14":14,"15":15}"#),
    ("1+2j", "d82c3ff00000000000004000000000000000", r#"{"$complex":[1.0,2.0]}"#),
    ("{3}", "d52d9103", r#"{"$set":[3]}"#),
    ("np.arange(3, dtype='<i2')", "c7252e83a5647479706581a3737472a33c6932a573686170659103a464617461c406000001000200", r#"{"$ndarray":{"dtype":"<i2","shape":[3],"data_hex":"000001000200"}}"#),
    ("np.zeros((2,0), dtype='>f8')", "c7202e83a5647479706581a3737472a33e6638a57368617065920200a464617461c400", r#"{"$ndarray":{"dtype":">f8","shape":[2,0],"data_hex":""}}"#),
    ("np.array([(1, 2.0)], dtype=[('a','<i4'),('b','<f4')])", "c7482e83a5647479706581a564657363729293a95f5f7475706c655f5fa161a33c693493a95f5f7475706c655f5fa162a33c6634a573686170659101a464617461c4080100000000000040", r#"{"$ndarray":{"dtype":"|V8","shape":[1],"data_hex":"0100000000000040"}}"#),
    ("np.array(['a', None], dtype=object)", "c7142e82a676616c75657392a161c0a573686170659102", r#"{"$ndarray":{"dtype":"|O","shape":[2],"values":["a",null]}}"#),
    ("msgpack.packb(ExtType(42, b'ab'))", "d52a6162", r#"{"$ext":{"type":42,"data_hex":"6162"}}"#),
    ("msgpack.packb(ExtType(43, b'\\x81\\xa1k\\x01'))", "d62b81a16b01", r#"{"$ext":{"type":43,"data_hex":"81a16b01"}}"#),
    ("msgpack.packb(ExtType(7, b'abc'))", "c70307616263", r#"{"$ext":{"type":7,"data_hex":"616263"}}"#),
];

#[test]
fn python_values_decode_to_the_json_mapping_and_encode_back_to_pythons_bytes() {
    for &(src, h, json) in CASES {
        let bytes = hex(h);
        let v = Value::from_msgpack(&bytes).unwrap_or_else(|e| panic!("{src}: {e}"));
        let want: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(serde_json::to_value(&v).unwrap(), want, "{src}");
        assert_eq!(v.to_msgpack().unwrap(), bytes, "{src}: to_msgpack");
        assert_eq!(
            rmp_serde::to_vec(&v).unwrap(),
            bytes,
            "{src}: rmp_serde::to_vec"
        );
    }
}

#[test]
fn tuples_sets_and_wide_ints_keep_their_kind() {
    let t = Value::from_msgpack(&hex("93a95f5f7475706c655f5f01a161")).unwrap();
    assert_eq!(t, Value::Tuple(vec![Value::Int(1), Value::Str("a".into())]));
    assert_eq!(
        Value::from_msgpack(&hex("cfffffffffffffffff")).unwrap(),
        Value::UInt(u64::MAX)
    );
    assert_eq!(Value::from_msgpack(&hex("cc80")).unwrap(), Value::Int(128));
    assert_eq!(
        Value::from_msgpack(&hex("d52d9103")).unwrap(),
        Value::Set(vec![Value::Int(3)])
    );
}

#[test]
fn non_string_keys_become_their_json_text() {
    // python: msgpack.packb({(1, 2): 0, True: 1, 1.5: 2, b'k': 3}) with msgpack_packb
    let v = Value::Map(vec![
        (
            Value::Tuple(vec![Value::Int(1), Value::Int(2)]),
            Value::Int(0),
        ),
        (Value::Bool(true), Value::Int(1)),
        (Value::F64(1.5), Value::Int(2)),
        (Value::Bin(b"k".to_vec()), Value::Int(3)),
        (Value::Str("q\"\n".into()), Value::Int(4)),
    ]);
    let want =
        serde_json::json!({"[1,2]": 0, "true": 1, "1.5": 2, "{\"$bin\":\"6b\"}": 3, "q\"\n": 4});
    assert_eq!(serde_json::to_value(&v).unwrap(), want);
    // The key text is serde_json's own text of the key's JSON.
    let keys = [
        Value::Array(vec![
            Value::Str("a\u{1}\u{7f}é".into()),
            Value::Nil,
            Value::F64(-0.25),
        ]),
        Value::F64(1e20),
        Value::F64(1e16),
        Value::F64(1e15),
        Value::F64(1e-5),
        Value::F64(1e-7),
        Value::F64(123456.0),
        Value::F64(1.5e16),
        Value::F64(1.2345678901234568e17),
        Value::F64(1.25e-7),
        Value::F64(0.001),
        Value::F64(5e-324),
        Value::F64(f64::MAX),
        Value::F64(0.0),
        Value::F64(-0.0),
        Value::F32(0.1),
        Value::Int(-3),
        Value::UInt(u64::MAX),
        Value::Complex {
            re: f64::NAN,
            im: 0.5,
        },
        Value::Set(vec![Value::Tuple(vec![])]),
    ];
    for k in keys {
        let text = serde_json::to_string(&k).unwrap();
        let m = Value::Map(vec![(k, Value::Nil)]);
        assert_eq!(
            serde_json::to_value(&m).unwrap(),
            serde_json::json!({ text: null })
        );
    }
}

/// (input hex, error offset, message)
const BAD: &[(&str, usize, &str)] = &[
    ("", 0, "the input ends at byte 0, 1 byte(s) short of the msgpack value"),
    ("c1", 0, "expected a msgpack value, found 0xc1 (reserved marker)"),
    ("92 01", 2, "the input ends at byte 2, 1 byte(s) short of the msgpack value"),
    ("df ffffffff", 5, "the input ends at byte 5, 1 byte(s) short of the msgpack value"),
    ("dd ffffffff 00", 6, "the input ends at byte 6, 1 byte(s) short of the msgpack value"),
    ("c6 ffffffff 00", 5, "the input ends at byte 6, 4294967294 byte(s) short of the bin bytes"),
    ("db 00000002 61", 5, "the input ends at byte 6, 1 byte(s) short of the string bytes"),
    ("a2 61 ff", 2, "expected UTF-8 in the string starting at byte 0, found an invalid sequence"),
    ("cd 00", 1, "the input ends at byte 2, 1 byte(s) short of the uint16"),
    ("c0 c0", 1, "expected the end of the input, found 1 more byte(s)"),
    ("d5 2c 0000", 0, "expected a complex (ext 44) of 16 bytes (two float64), found 2 byte(s)"),
    ("d5 2d 9000", 3, "expected the end of the input, found 1 more byte(s)"),
    ("d4 2d 01", 2, "expected a set (ext 45) holding a msgpack array, found an int"),
    ("d4 2d c1", 2, "expected a msgpack value, found 0xc1 (reserved marker)"),
    ("d5 2d 9192", 4, "the input ends at byte 4, 1 byte(s) short of the msgpack value"),
    ("d4 2e 80", 2, "expected a NumPy array (ext 46): a map of \"dtype\", \"shape\" and \"data\", or of \"values\" and \"shape\", found no \"shape\""),
    ("c7 05 2c 00", 3, "the input ends at byte 4, 4 byte(s) short of the ext payload"),
];

#[test]
fn bad_input_is_an_error_at_its_offset() {
    for &(h, offset, msg) in BAD {
        let err = Value::from_msgpack(&hex(h)).unwrap_err();
        assert_eq!(
            (err.offset(), err.kind().to_string()),
            (Some(offset as u64), msg.to_string()),
            "{h}"
        );
    }
}

#[test]
fn nesting_is_bounded() {
    let ok = [vec![0x91; MAX_DEPTH], vec![0xc0]].concat();
    assert!(Value::from_msgpack(&ok).is_ok());
    let deep = [vec![0x91; MAX_DEPTH + 1], vec![0xc0]].concat();
    let err = Value::from_msgpack(&deep).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::TooDeep { .. }));
    assert_eq!(err.offset(), Some(MAX_DEPTH as u64));
    // Sets nested inside sets count too: 200 levels of `d4 2d` around nil would be
    // 200 deep; here each level is a one-byte-longer ext8.
    let mut v = vec![0xc0];
    for _ in 0..MAX_DEPTH + 1 {
        let mut payload = vec![0x91];
        payload.extend_from_slice(&v);
        let mut ext = vec![0xc9];
        ext.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        ext.push(45);
        ext.extend_from_slice(&payload);
        v = ext;
    }
    assert!(matches!(
        Value::from_msgpack(&v).unwrap_err().kind(),
        ErrorKind::TooDeep { .. }
    ));
}

#[test]
fn every_truncation_of_a_valid_value_is_an_eof_error() {
    for &(src, h, _) in CASES {
        let bytes = hex(h);
        for cut in 0..bytes.len() {
            let err = Value::from_msgpack(&bytes[..cut]).unwrap_err();
            assert!(
                err.is_eof() || err.offset().is_some(),
                "{src} cut at {cut}: {err}"
            );
        }
    }
}

/// (JSON of the mapping, in python's key order; python's bytes for the python value
/// it stands for, from `msgpack_packb`)
const FROM_JSON: &[(&str, &str)] = &[
    (
        r#"{"units":"s","scale":20}"#,
        "82a5756e697473a173a57363616c6514",
    ),
    (
        r#"{"b":{"$bin":"00ff"},"c":{"$complex":[1.5,0.0]}}"#,
        "82a162c40200ffa163d82c3ff80000000000000000000000000000",
    ),
    (r#"{"$set":[1,3]}"#, "c7032d920103"),
    (
        r#"{"$ndarray":{"dtype":"<u2","shape":[2],"data_hex":"00000100"}}"#,
        "c7232e83a5647479706581a3737472a33c7532a573686170659102a464617461c40400000100",
    ),
    (
        r#"[null,true,-5,18446744073709551615]"#,
        "94c0c3fbcfffffffffffffffff",
    ),
];

#[test]
fn the_json_mapping_reads_back_into_pythons_bytes() {
    for &(json, h) in FROM_JSON {
        let v: Value = serde_json::from_str(json).unwrap();
        assert_eq!(v.to_msgpack().unwrap(), hex(h), "{json}");
        assert_eq!(serde_json::to_string(&v).unwrap(), json);
    }
    for bad in [
        r#"{"$bin":"0"}"#,
        r#"{"$complex":[1]}"#,
        r#"{"$ext":{"type":300,"data_hex":""}}"#,
        r#"{"$ndarray":{"dtype":"<u2"}}"#,
    ] {
        assert!(serde_json::from_str::<Value>(bad).is_err(), "{bad}");
    }
}

#[test]
fn rmp_serde_reads_values_with_ext_types() {
    for &(src, h, _) in CASES {
        let v: Value = rmp_serde::from_slice(&hex(h)).unwrap_or_else(|e| panic!("{src}: {e}"));
        let want = Value::from_msgpack(&hex(h)).unwrap();
        // NaN != NaN: compare the bytes.
        assert_eq!(v.to_msgpack().unwrap(), want.to_msgpack().unwrap(), "{src}");
    }
}

/// A finite double as the JSON `show` prints and the double JSON input reads back from
/// that text: bit for bit (issue 31: 0.9331238252043201 came back one ULP off).
fn json_round_trip(f: f64) -> f64 {
    let text = serde_json::to_string(&Value::F64(f)).unwrap();
    match serde_json::from_str::<Value>(&text).unwrap() {
        Value::F64(back) => back,
        Value::Int(i) => i as f64,
        other => panic!("{f:e} as {text} read back as {other:?}"),
    }
}

#[test]
fn doubles_read_back_from_json_exactly_at_the_edges() {
    for f in [
        0.9331238252043201,
        0.0,
        -0.0,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),                     // the smallest subnormal, 5e-324
        f64::from_bits(0x000f_ffff_ffff_ffff), // the largest subnormal
        f64::EPSILON,
        1.0 + f64::EPSILON,
        9007199254740993.0, // 2^53 + 1 rounds to 2^53
        1e23,
        8.98846567431158e307,
        2.225073858507201e-308,
    ] {
        assert_eq!(json_round_trip(f).to_bits(), f.to_bits(), "{f:e}");
    }
}

proptest::proptest! {
    /// Any bytes: an error or a value, never a panic; a value writes back to bytes
    /// that decode to the same value (bytes compared, as NaN != NaN).
    #[test]
    fn any_bytes_decode_totally(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..64)) {
        if let Ok(v) = Value::from_msgpack(&bytes) {
            let again = v.to_msgpack().unwrap();
            let back = Value::from_msgpack(&again).unwrap();
            proptest::prop_assert_eq!(back.to_msgpack().unwrap(), again);
            let _ = serde_json::to_string(&v).unwrap();
        }
    }

    /// Every finite double, by its bits: the JSON text read back is the same double.
    #[test]
    fn every_finite_double_reads_back_from_json_exactly(bits in proptest::num::u64::ANY) {
        let f = f64::from_bits(bits);
        if f.is_finite() {
            proptest::prop_assert_eq!(json_round_trip(f).to_bits(), bits, "{:e}", f);
        }
    }

    /// One byte of a python value changed: still total.
    #[test]
    fn mutated_python_values_decode_totally(case in 0..CASES.len(), at in 0usize..200, byte in proptest::num::u8::ANY) {
        let mut bytes = hex(CASES[case].1);
        let at = at % bytes.len();
        bytes[at] = byte;
        if let Ok(v) = Value::from_msgpack(&bytes) {
            let _ = serde_json::to_string(&v).unwrap();
            Value::from_msgpack(&v.to_msgpack().unwrap()).unwrap();
        }
    }
}

#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

#[test]
fn length_claims_allocate_nothing_beyond_the_bytes_present() {
    // (claim, input): each claims up to 2^32 - 1 of something in a few bytes.
    for h in [
        "dd ffffffff c0 c0",
        "df ffffffff c0 c0 c0",
        "c6 ffffffff 00",
        "db ffffffff 61",
        "c9 ffffffff 2d 90",
        "c9 00000005 2d dd ffffffff",
        "c9 00000005 2e df ffffffff",
    ] {
        let bytes = hex(h);
        let (result, peak) = common::alloc::peak_during(|| Value::from_msgpack(&bytes));
        assert!(result.is_err(), "{h}");
        // An error is boxed; a value takes 32 bytes, each at least one input byte.
        assert!(peak <= 64 * bytes.len() + 256, "{h}: {peak} bytes");
    }
}

/// What python-blosc2 4.14.1 reads from user metalayers nested 129 to 1,025 deep
/// (tests/data/values/deep.py): the same values up to python's 1,024 open arrays and
/// maps, and a refusal at the container python refuses. Read on a thread with a 2 MiB
/// stack: decoding keeps its open containers on the heap, not on the call stack.
#[test]
fn deep_values_read_as_python_reads_them_on_a_2_mib_stack() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/deep");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/deep.json")).unwrap())
            .unwrap();
    let header = b2nd_meta::frame::open(format!("{dir}/deep.b2nd"))
        .unwrap()
        .header;
    let cases = doc.as_object().unwrap().clone();
    assert_eq!(cases.len(), 11);
    let run = move || {
        for (name, python) in &cases {
            let content_offset = header.metalayer(name).unwrap().content_offset();
            let got = header.user_meta_value(name);
            match python["python"].as_str().unwrap() {
                "ok" => {
                    let value = got.unwrap_or_else(|e| panic!("{name}: {e}"));
                    // Walk down without recursion: one-element arrays or {"k": ..} maps.
                    let (mut v, mut depth) = (&value, 0);
                    loop {
                        match v {
                            Value::Array(items) if items.len() == 1 => v = &items[0],
                            Value::Map(pairs) if pairs.len() == 1 => v = &pairs[0].1,
                            Value::Array(items) if items.is_empty() => {
                                depth += 1;
                                break;
                            }
                            _ => break,
                        }
                        depth += 1;
                    }
                    assert_eq!(depth, python["depth"].as_u64().unwrap(), "{name}");
                    match &python["innermost"] {
                        serde_json::Value::Number(n) => {
                            assert_eq!(*v, Value::Int(n.as_i64().unwrap()), "{name}")
                        }
                        _ => assert_eq!(*v, Value::Array(vec![]), "{name}"),
                    }
                }
                "StackError" => {
                    let err = got.unwrap_err();
                    let Some(b2nd_meta::frame::FrameErrorKind::Metalayer { source, .. }) =
                        Some(err.kind())
                    else {
                        panic!("{name}: {err}");
                    };
                    assert!(
                        matches!(source.kind(), ErrorKind::TooDeep { max: 1024, .. }),
                        "{err}"
                    );
                    // The 1,025th container's first byte; msgpack's `tell()` stops at it
                    // (arrays, maps) or inside its header (array16: 2 bytes into it).
                    let at = source.offset().unwrap();
                    let python_at = python["offset"].as_u64().unwrap();
                    assert!(at <= python_at && python_at < at + 3, "{name}: {err}");
                    assert_eq!(err.offset(), Some(content_offset + at), "{name}");
                }
                other => panic!("{name}: {other}"),
            }
        }
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

/// A hostile value nesting far deeper than any bound (a million one-element arrays) is
/// refused at the 1,025th, on a 2 MiB stack, with nothing allocated per claimed element.
#[test]
fn a_million_nested_arrays_are_refused_at_the_bound_on_a_2_mib_stack() {
    let bytes = [vec![0x91; 1 << 20], vec![0xc0]].concat();
    let err = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || Value::from_msgpack(&bytes).unwrap_err())
        .unwrap()
        .join()
        .unwrap();
    assert!(matches!(
        err.kind(),
        ErrorKind::TooDeep { max: MAX_DEPTH, .. }
    ));
    assert_eq!(err.offset(), Some(MAX_DEPTH as u64));
    assert_eq!(MAX_DEPTH, 1024);
}
