//! Paths and metalayer names with characters JSON must escape.

use std::ffi::OsStr;
use std::path::Path;

use crate::common::data_path;
use crate::{frame_with, run, temp_path};

#[test]
fn paths_are_printed_as_given() {
    // A path with characters JSON must escape.
    let dir = temp_path("we\"ird\\dir");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a \"b\".b2nd");
    std::fs::copy(data_path("corpus/ndim0_i8.b2nd"), &path).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_dir(&dir).unwrap();
    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(Path::new(doc["path"].as_str().unwrap()), path);
}

#[test]
fn odd_metalayer_names_stay_on_their_line() {
    let b2nd = b2nd_meta::to_vec(&b2nd_meta::MetaB2ndV1::new(
        vec![4],
        vec![2],
        vec![1],
        "<i4",
    ))
    .unwrap();
    let path = temp_path("odd-names.b2frame");
    std::fs::write(
        &path,
        frame_with(4, &[("b2nd", &b2nd), ("a\nb \"q\"", b"\x01\x02")]),
    )
    .unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    let human = run([OsStr::new("show"), OsStr::new("--human"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_ok();
    assert_eq!(out.stdout_lines().len(), 1);
    let doc = &out.json_lines()[0];
    assert_eq!(
        doc["metalayers"]["a\nb \"q\""],
        serde_json::json!({"raw_hex": "0102", "error": "not one msgpack value: expected the end of the input, found 1 more byte(s) at byte 1"})
    );
    assert_eq!(
        doc["frame"]["metalayer_names"],
        serde_json::json!(["b2nd", "a\nb \"q\""])
    );

    human.assert_ok();
    let lines: Vec<&str> = human.stdout.lines().collect();
    // This header-only frame has no trailer: a 4th line says so (vlmeta).
    assert_eq!(lines.len(), 4, "{}", human.stdout);
    assert_eq!(lines[2], r#"  "a\nb \"q\"": 2 bytes: 0102"#);
    assert!(lines[3].starts_with("  vlmeta: TRAILER DOES NOT READ: "));
}
