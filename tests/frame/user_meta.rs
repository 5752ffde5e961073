//! User metalayers of real python-blosc2 files (tests/data/values, written by
//! tests/data/values/generate.py with python-blosc2 2.7.1, 3.0.0, 3.12.2 and 4.14.1):
//! each decodes to exactly the JSON python's value maps to, and each recorded
//! same-length rewrite gives python's bytes and the recorded sha256 of the file.

use crate::common;

use common::scratch::sha256_hex;
use common::{data_path, unhex};

use std::collections::BTreeMap;
use std::path::PathBuf;

use b2nd_meta::frame::{self, FrameErrorKind};
use b2nd_meta::value::Value;
use serde_json::Value as Json;

fn expected() -> Json {
    let text = std::fs::read_to_string(data_path("values/expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn temp_copy(rel: &str, tag: &str) -> PathBuf {
    let dst =
        std::env::temp_dir().join(format!("b2nd-meta-user-{}-{tag}.b2nd", std::process::id()));
    std::fs::copy(data_path(rel), &dst).unwrap();
    dst
}

#[test]
fn every_user_metalayer_decodes_to_pythons_json() {
    let mut checked = 0;
    for file in expected()["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        let header = frame::open(data_path(path)).unwrap().header;
        for (name, entry) in file["metalayers"].as_object().unwrap() {
            let m = header.metalayer(name).unwrap();
            assert_eq!(
                m.content,
                unhex(entry["hex"].as_str().unwrap()),
                "{path} {name}"
            );
            let got = header.user_meta_value(name);
            if entry.get("decode_error").is_some() {
                let err = got.expect_err(&format!("{path} {name} is not one msgpack value"));
                assert!(err.offset().is_some(), "{path} {name}: {err}");
                assert!(header.user_meta::<Json>(name).is_err(), "{path} {name}");
                continue;
            }
            let value = got.unwrap_or_else(|e| panic!("{path} {name}: {e}"));
            assert_eq!(
                serde_json::to_value(&value).unwrap(),
                entry["json"],
                "{path} {name}"
            );
            // The JSON reads back into a value with the same JSON.
            let back: Value = serde_json::from_value(entry["json"].clone()).unwrap();
            assert_eq!(
                serde_json::to_value(&back).unwrap(),
                entry["json"],
                "{path} {name}"
            );
            // What python wrote is what the value writes back.
            assert_eq!(value.to_msgpack().unwrap(), m.content, "{path} {name}");
            checked += 1;
        }
    }
    assert!(checked >= 100, "only {checked} metalayers checked");
}

#[test]
fn plain_values_read_as_serde_types() {
    let path = data_path("values/blosc2-4.14.1/user_meta_containers.b2nd");
    let header = frame::open(path).unwrap().header;
    let file = expected()["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "values/blosc2-4.14.1/user_meta_containers.b2nd")
        .unwrap()
        .clone();
    let dict: Json = header.user_meta("dict").unwrap();
    assert_eq!(dict, file["metalayers"]["dict"]["json"]);
    let list: Vec<Json> = header.user_meta("list").unwrap();
    assert_eq!(Json::from(list), file["metalayers"]["list"]["json"]);
    let map: BTreeMap<String, Json> = header.user_meta("dict").unwrap();
    assert_eq!(map.len(), dict.as_object().unwrap().len());
    // A missing metalayer.
    assert!(matches!(
        header.user_meta::<Json>("nope"),
        Err(e) if matches!(e.kind(), FrameErrorKind::UnknownMetalayer { .. })
    ));
}

#[test]
fn rewrites_give_pythons_bytes_and_file() {
    for (i, case) in expected()["rewrites"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let name = case["name"].as_str().unwrap();
        let rel = case["file"].as_str().unwrap();
        let new_hex = unhex(case["new_hex"].as_str().unwrap());
        // python's new bytes are the new JSON's value (serde_json's maps sort their
        // keys, so the value is taken from python's bytes to keep python's key order).
        let new_value = Value::from_msgpack(&new_hex).unwrap();
        assert_eq!(
            serde_json::to_value(&new_value).unwrap(),
            case["new_json"],
            "{name}"
        );
        assert_eq!(
            frame::user_meta_bytes(&new_value).unwrap(),
            new_hex,
            "{name}"
        );
        let path = temp_copy(rel, &format!("{i}"));
        let before = std::fs::read(&path).unwrap();
        let result = frame::set_user_meta(&path, name, &new_value);
        let after = std::fs::read(&path).unwrap();
        match case["expect"].as_str().unwrap() {
            "ok" => {
                result.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(
                    sha256_hex(&after),
                    case["after_sha256"].as_str().unwrap(),
                    "{name}"
                );
                let header = frame::open(&path).unwrap().header;
                let back: Json = header.user_meta(name).unwrap();
                assert_eq!(back, case["python_reads_back"], "{name}");
                // The same from the JSON itself, where its key order is python's.
                if frame::user_meta_bytes(&case["new_json"]).unwrap() == new_hex {
                    std::fs::write(&path, &before).unwrap();
                    frame::set_user_meta(&path, name, &case["new_json"]).unwrap();
                    assert_eq!(
                        std::fs::read(&path).unwrap(),
                        after,
                        "{name} via serde_json"
                    );
                }
            }
            _ => {
                let err = result.unwrap_err();
                let (old, new) = (
                    case["old_len"].as_u64().unwrap() as usize,
                    case["new_len"].as_u64().unwrap() as usize,
                );
                assert!(
                    matches!(err.kind(), FrameErrorKind::ContentLengthMismatch { expected, found, .. } if (*expected, *found) == (old, new)),
                    "{name}: {err}"
                );
                let msg = err.to_string();
                assert!(
                    msg.contains(&old.to_string()) && msg.contains(&new.to_string()),
                    "{msg}"
                );
                assert_eq!(
                    after, before,
                    "{name}: a refused rewrite leaves the file as it was"
                );
            }
        }
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn decode_errors_carry_frame_offsets() {
    let path = data_path("values/blosc2-4.14.1/user_meta_raw.b2nd");
    let header = frame::open(path).unwrap().header;
    let m = header.metalayer("not_msgpack").unwrap();
    let err = header.user_meta_value("not_msgpack").unwrap_err();
    // 0xc1 is the first content byte.
    assert_eq!(err.offset(), Some(m.content_offset()));
    let err = header.user_meta::<Json>("trailing").unwrap_err();
    let m = header.metalayer("trailing").unwrap();
    assert_eq!(err.offset(), Some(m.content_offset() + 1), "{err}");
}
