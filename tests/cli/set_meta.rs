//! `b2nd-meta set-meta` against the python-verified rewrites of
//! tests/data/values/expected.json: python's bytes and sha256, or exit 1 with both lengths.

use crate::common;

use common::scratch::sha256_hex;
use common::{data_path, unhex};

use std::process::Command;

use b2nd_meta::value::Value;
use serde_json::Value as Json;

/// `b2nd-meta set-meta PATH NAME JSON`.
fn set_meta(path: &std::path::Path, name: &str, json: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_b2nd-meta"))
        .args([
            "set-meta".as_ref(),
            path.as_os_str(),
            name.as_ref(),
            json.as_ref(),
        ])
        .output()
        .unwrap()
}

#[test]
fn set_meta_writes_pythons_bytes_or_refuses_with_both_lengths() {
    let text = std::fs::read_to_string(data_path("values/expected.json")).unwrap();
    let expected: Json = serde_json::from_str(&text).unwrap();
    for (i, case) in expected["rewrites"].as_array().unwrap().iter().enumerate() {
        let name = case["name"].as_str().unwrap();
        // The JSON text in python's key order: the mapping of python's new bytes.
        let value = Value::from_msgpack(&unhex(case["new_hex"].as_str().unwrap())).unwrap();
        let json = serde_json::to_string(&value).unwrap();
        assert_eq!(
            serde_json::from_str::<Json>(&json).unwrap(),
            case["new_json"]
        );
        let path = std::env::temp_dir().join(format!(
            "b2nd-meta-set-meta-{}-{i}.b2nd",
            std::process::id()
        ));
        std::fs::copy(data_path(case["file"].as_str().unwrap()), &path).unwrap();
        let before = std::fs::read(&path).unwrap();
        let out = set_meta(&path, name, &json);
        let after = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if case["expect"] == "ok" {
            assert!(out.status.success(), "{name}: {stderr}");
            assert_eq!(
                sha256_hex(&after),
                case["after_sha256"].as_str().unwrap(),
                "{name}"
            );
        } else {
            assert_eq!(out.status.code(), Some(1), "{name}");
            let (old, new) = (case["old_len"].to_string(), case["new_len"].to_string());
            assert!(
                stderr.contains(&format!("holds {old} bytes"))
                    && stderr.contains(&format!("encodes to {new}")),
                "{stderr}"
            );
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert_eq!(after, before, "{name}: untouched");
        }
    }
}

#[test]
fn set_meta_refuses_the_array_metalayer_and_bad_json() {
    let path =
        std::env::temp_dir().join(format!("b2nd-meta-set-meta-{}-x.b2nd", std::process::id()));
    std::fs::copy(
        data_path("values/blosc2-4.14.1/rewrite_user_meta.b2nd"),
        &path,
    )
    .unwrap();
    for (name, json) in [
        ("b2nd", "1"),
        ("dict", "{bad"),
        ("nope", "1"),
        ("dict", r#"{"$bin":"zz"}"#),
    ] {
        let out = set_meta(&path, name, json);
        assert_eq!(out.status.code(), Some(1), "{name} {json}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
    let after = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        after,
        std::fs::read(data_path("values/blosc2-4.14.1/rewrite_user_meta.b2nd")).unwrap()
    );
}
