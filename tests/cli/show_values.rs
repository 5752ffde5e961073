//! `show --slice`: every slice of every number fixture of tests/data/arrays printed as
//! JSON against python's values (the generator's bytes), element by element and in its
//! nesting (the slice's shape); a person's layout against numpy's print of the same
//! slice; refusals one line on stderr.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::BIN;

fn arrays() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/arrays/blosc2-4.14.1")
}

/// Runs `b2nd-meta show` with `args`: exit code, stdout, stderr.
fn show(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN).arg("show").args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

/// The lengths of the nested lists of `v` down its first elements (a scalar: none).
fn nested_shape(v: &Value) -> Vec<u64> {
    match v {
        Value::Array(items) => {
            let mut shape = vec![items.len() as u64];
            if let Some(first) = items.first() {
                shape.extend(nested_shape(first));
            }
            shape
        }
        _ => vec![],
    }
}

/// One element of python's bytes as the text it prints as (floats compared by value).
fn same(token: &str, bytes: &[u8], dtype: &str) -> bool {
    let big = dtype.starts_with('>');
    macro_rules! num {
        ($t:ty) => {{
            let b = bytes.try_into().unwrap();
            let want = if big {
                <$t>::from_be_bytes(b)
            } else {
                <$t>::from_le_bytes(b)
            };
            match token.parse::<$t>() {
                Ok(got) => got == want || (got != got && want != want),
                Err(_) => matches!(
                    (token, want.to_string().as_str()),
                    ("NaN", "NaN") | ("Infinity", "inf") | ("-Infinity", "-inf")
                ),
            }
        }};
    }
    match &dtype[1..] {
        "b1" => token == ["false", "true"][(bytes[0] != 0) as usize],
        "i1" => num!(i8),
        "i2" => num!(i16),
        "i4" => num!(i32),
        "i8" => num!(i64),
        "u1" => num!(u8),
        "u2" => num!(u16),
        "u4" => num!(u32),
        "u8" => num!(u64),
        "f4" => num!(f32),
        "f8" => num!(f64),
        other => panic!("no number dtype: {other}"),
    }
}

#[test]
fn every_number_slice_prints_pythons_values() {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(arrays().join("manifest.json")).unwrap())
            .unwrap();
    let mut checked = 0;
    for f in manifest["fixtures"].as_array().unwrap() {
        let (id, dtype) = (f["id"].as_str().unwrap(), f["dtype"].as_str().unwrap());
        let size = f["itemsize"].as_u64().unwrap() as usize;
        if !["b", "i", "u"].contains(&&dtype[1..2]) && !["f4", "f8"].contains(&&dtype[1..]) {
            continue;
        }
        let path = arrays().join(f["path"].as_str().unwrap());
        let values = std::fs::read(arrays().join(f["values"].as_str().unwrap())).unwrap();
        for slice in f["slices"].as_array().unwrap() {
            let spec = slice["spec"].as_str().unwrap();
            let mut args = vec!["--json", "--slice", spec, path.to_str().unwrap()];
            if let Some(key) = f["key"].as_str() {
                args.extend(["--key", key]);
            }
            let (code, out, err) = show(&args);
            assert_eq!(code, Some(0), "{id} [{spec}]: {err}");
            assert_eq!(out.lines().count(), 1, "{id} [{spec}]");
            // python's json writes NaN and Infinity, which serde_json refuses.
            let parsable = out.replace("-Infinity", "0").replace("Infinity", "0");
            let v: Value = serde_json::from_str(&parsable.replace("NaN", "0")).unwrap();
            let shape: Vec<u64> = slice["shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_u64().unwrap())
                .collect();
            if !shape.contains(&0) {
                assert_eq!(nested_shape(&v), shape, "{id} [{spec}]");
            }
            let tokens: Vec<&str> = out
                .split(|c: char| c == '[' || c == ']' || c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .collect();
            let at = slice["offset"].as_u64().unwrap() as usize;
            let python = &values[at..at + slice["nbytes"].as_u64().unwrap() as usize];
            assert_eq!(tokens.len() * size, python.len(), "{id} [{spec}]");
            for (token, bytes) in tokens.iter().zip(python.chunks_exact(size)) {
                assert!(
                    same(token, bytes, dtype),
                    "{id} [{spec}]: {token} vs {bytes:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked} slices");
}

#[test]
fn a_person_sees_numpys_print() {
    let path = crate::common::data_path("corpus/ndim3_u2.b2nd");
    let path = path.to_str().unwrap();
    let (code, out, err) = show(&["-H", "--slice", ":2, 1:3, ::2", path]);
    assert_eq!(code, Some(0), "{err}");
    // numpy's print(arr[:2, 1:3, ::2]), after a line naming what it is.
    let want = "[[[ 5  7  9]\n  [10 12 14]]\n\n [[25 27 29]\n  [30 32 34]]]\n";
    assert_eq!(
        out,
        format!("{path} [:2, 1:3, ::2]: shape (2, 2, 3), dtype <u2\n{want}")
    );
}

#[test]
fn refusals_are_one_line() {
    let path = crate::common::data_path("corpus/ndim3_u2.b2nd");
    let path = path.to_str().unwrap();
    for (slice, says) in [
        ("0, 0, 0, 0", "too many indices"),
        ("7", "out of bounds for axis 0"),
        ("1:2:0", "step"),
        ("x", "--slice"),
    ] {
        let (code, out, err) = show(&["--slice", slice, path]);
        assert_eq!((code, out.as_str()), (Some(1), ""), "[{slice}]");
        assert_eq!(err.lines().count(), 1, "[{slice}]: {err}");
        assert!(err.contains(says), "[{slice}]: {err}");
    }
    // --slice is about values, not a directory's scan or raw hex.
    let (code, _, _) = show(&["--slice", "0", "-r", path]);
    assert_eq!(code, Some(2));
}

#[test]
fn a_stores_arrays_by_key_and_a_frame_on_stdin() {
    let store = arrays().join("store_dict.b2z");
    let store = store.to_str().unwrap();
    // python: json.dumps(DictStore(PATH, mode="r")["/emb"][0].tolist())
    let (code, out, err) = show(&["--slice", "0", "--key", "/emb", store]);
    assert_eq!(code, Some(0), "{err}");
    let python = "[-9.51361859596778, NaN, -7.830660380345811, -9.137294544591779, Infinity]";
    assert_eq!(out, format!("{python}\n"));
    // Without --key: what to do instead.
    let (code, out, err) = show(&["--slice", "0", store]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(
        err,
        format!(
            "b2nd-meta: {store}: a DictStore, not an array: give --key, one of /dir/ext, \
             /dir/zeros, /emb\n"
        )
    );
    // A frame on stdin, named `-`; python: print(arr[0, :3]) after the line naming it.
    let frame = std::fs::File::open(arrays().join("ndim2_u2.b2nd")).unwrap();
    let out = Command::new(BIN)
        .args(["show", "-H", "--slice", "0, :3", "-"])
        .stdin(frame)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "- [0, :3]: shape (3,), dtype <u2\n[    2 65535     0]\n"
    );
}

#[test]
fn control_characters_are_escaped() {
    let path = arrays().join("dtype_S5.b2nd");
    // python: arr[0, 2] == b'z\x1bR\x885' (an ESC and a C1 byte, each read as latin-1).
    let (code, out, err) = show(&["--slice", "0, 2", path.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "\"z\\u001bR\\u00885\"\n");
    let (_, human, _) = show(&["-H", "--slice", "0, 2", path.to_str().unwrap()]);
    assert!(human.ends_with("\n\"z\\u001bR\\u00885\"\n"), "{human}");
}
