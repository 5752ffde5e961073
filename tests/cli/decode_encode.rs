//! `decode` and `encode`: the C vector, round trips, and bad input.

use serde_json::Value;

use crate::{run, run_with, C_VECTOR, C_VECTOR_JSON};

#[test]
fn decode_the_c_vector() {
    for input in [
        C_VECTOR.to_owned(),
        C_VECTOR.replace(' ', ""),
        format!("0x{}", C_VECTOR.replace(' ', "").to_uppercase()),
        format!("  {C_VECTOR}\n"),
    ] {
        let out = run(["decode", input.as_str()]);
        out.assert_ok();
        assert_eq!(out.stdout, format!("{C_VECTOR_JSON}\n"), "input {input:?}");
    }
    // Several arguments are joined; - reads stdin.
    let words: Vec<&str> = C_VECTOR.split(' ').collect();
    let out = run(std::iter::once("decode").chain(words.iter().copied()));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{C_VECTOR_JSON}\n"));
    let out = run_with(["decode", "-"], Some(C_VECTOR));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{C_VECTOR_JSON}\n"));
}

#[test]
fn encode_the_c_vector() {
    let out = run(["encode", C_VECTOR_JSON]);
    out.assert_ok();
    assert_eq!(out.stdout, format!("{}\n", C_VECTOR.replace(' ', "")));
    let out = run_with(["encode", "-"], Some(C_VECTOR_JSON));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{}\n", C_VECTOR.replace(' ', "")));
}

#[test]
fn encode_then_decode_round_trips_every_layout() {
    let sixteen = format!("[{}]", vec!["1"; 16].join(","));
    let cases = [
        (
            r#"{"layout":"caterva-v0","version":0,"ndim":1,"shape":[10],"chunkshape":[5],"blockshape":[5]}"#.to_owned(),
            Some("950001"),
        ),
        (
            r#"{"layout":"caterva-v0","version":0,"ndim":0,"shape":[],"chunkshape":[],"blockshape":[]}"#.to_owned(),
            Some("950000909090"),
        ),
        (
            r#"{"layout":"b2nd","version":0,"ndim":2,"shape":[5,6],"chunkshape":[2,3],"blockshape":[1,1],"dtype":"int32"}"#.to_owned(),
            Some("960002"),
        ),
        (
            r#"{"layout":"b2nd-v1","version":0,"ndim":0,"shape":[],"chunkshape":[],"blockshape":[],"dtype_format":0,"dtype":"<i4"}"#.to_owned(),
            Some("97000090909000db000000033c6934"),
        ),
        (
            format!(
                r#"{{"layout":"b2nd-v1","version":0,"ndim":16,"shape":{sixteen},"chunkshape":{sixteen},"blockshape":{sixteen},"dtype_format":0,"dtype":"|u1"}}"#
            ),
            Some("970010a0"),
        ),
        (
            r#"{"layout":"b2nd-v1","version":0,"ndim":1,"shape":[-1],"chunkshape":[2147483647],"blockshape":[-2147483648],"dtype_format":127,"dtype":"caf\u00e9 \"quoted\""}"#.to_owned(),
            None,
        ),
    ];
    for (json, prefix) in cases {
        let enc = run(["encode", json.as_str()]);
        enc.assert_ok();
        let hex_out = enc.stdout.trim_end().to_owned();
        assert!(
            hex_out
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{hex_out}"
        );
        if let Some(prefix) = prefix {
            assert!(hex_out.starts_with(prefix), "{json}: {hex_out}");
        }
        let dec = run(["decode", hex_out.as_str()]);
        dec.assert_ok();
        let back: Value = serde_json::from_str(dec.stdout.trim_end()).unwrap();
        let original: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back, original, "{json}");
    }
}

#[test]
fn bad_hex_is_one_error_line() {
    for (input, needle) in [
        (
            "970",
            "expected two hex digits per byte, found 3 digit(s) at byte 3",
        ),
        ("zz", "expected a hex digit (0-9, a-f), found 'z' at byte 0"),
        ("97 00 0g", "found 'g' at byte 7"),
        (" 0x97z", "found 'z' at byte 5"),
        ("0x", ""),
        ("97 00 02 92 03", "at byte 4"),
        ("950000909090ff", "at byte 6"),
        ("98", "at byte 0"),
    ] {
        let out = run(["decode", input]);
        out.assert_one_error(needle);
        assert!(out.stdout_lines().is_empty(), "{input}: {}", out.stdout);
        assert!(
            out.stderr.starts_with("b2nd-meta: decode: "),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn bad_json_is_one_error_line() {
    let seventeen = format!("[{}]", vec!["1"; 17].join(","));
    for json in [
        "{".to_owned(),
        "not json".to_owned(),
        "[]".to_owned(),
        format!(
            r#"{{"layout":"b2nd-v1","version":0,"ndim":17,"shape":{seventeen},"chunkshape":{seventeen},"blockshape":{seventeen},"dtype_format":0,"dtype":"|u1"}}"#
        ),
        format!(r#"{{"shape":{seventeen},"chunkshape":{seventeen},"blockshape":{seventeen}}}"#),
        r#"{"layout":"b2nd-v1","shape":[3,4],"chunkshape":[2],"blockshape":[1,2],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","ndim":3,"shape":[3,4],"chunkshape":[2,4],"blockshape":[1,2],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","shape":[1],"chunkshape":[1],"blockshape":[1],"dtype_format":128,"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","version":1,"shape":[1],"chunkshape":[1],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","shape":[1],"chunkshape":[2147483648],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v1","shape":[9223372036854775808],"chunkshape":[1],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
        r#"{"layout":"b2nd-v2","shape":[1],"chunkshape":[1],"blockshape":[1],"dtype":"<i4"}"#.to_owned(),
    ] {
        let out = run(["encode", json.as_str()]);
        out.assert_one_error("b2nd-meta: encode: ");
        assert_eq!(out.stdout, "", "{json}");
    }
}
