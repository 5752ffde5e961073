//! `show` on the corpus: every file's JSON document against its manifest entry.

use std::ffi::OsStr;
use std::path::PathBuf;

use b2nd_meta::Meta;
use serde_json::Value;

use crate::common::{data_path, manifest, unhex};
use crate::{run, u};

fn numpy_kind(word: &str) -> &'static str {
    match word {
        "bool" => "b",
        "int" => "i",
        "uint" => "u",
        "float" => "f",
        "complex" => "c",
        "bytes" => "S",
        "unicode" => "U",
        "void" | "struct" | "subarray" => "V",
        "datetime" => "M",
        "timedelta" => "m",
        "object" => "O",
        other => panic!("unknown kind {other:?}"),
    }
}

/// Checks one `show` document against its manifest entry.
fn check_against_manifest(doc: &Value, file: &Value) {
    let name = file["name"].as_str().unwrap();
    let fr = &doc["frame"];
    let expected_kind = if file["contiguous"] == true {
        "contiguous"
    } else {
        "sparse"
    };
    assert_eq!(fr["kind"], expected_kind, "{name}");
    for key in [
        "header_len",
        "frame_len",
        "typesize",
        "blocksize",
        "chunksize",
        "nbytes",
        "cbytes",
        "codec_code",
        "clevel",
    ] {
        assert_eq!(u(&fr[key]), u(&file[key]), "{name}: {key}");
    }
    assert_eq!(
        fr["codec"].as_str().unwrap().to_uppercase(),
        file["codec"].as_str().unwrap(),
        "{name}: codec"
    );
    let header_file_len = std::fs::metadata(data_path(file["header_path"].as_str().unwrap()))
        .unwrap()
        .len();
    assert_eq!(u(&fr["file_len"]), header_file_len, "{name}: file_len");
    assert_eq!(fr["truncated"], false, "{name}");
    assert_eq!(fr["metalayer_names"], file["metalayer_names"], "{name}");

    // Key order: the document is written by hand, so check it is as documented.
    let keys: Vec<&String> = fr.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 21, "{name}: frame keys {keys:?}");

    let layers = doc["metalayers"].as_object().unwrap();
    let names: Vec<&str> = layers.keys().map(String::as_str).collect();
    let mut expected_names: Vec<&str> = file["metalayer_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    expected_names.sort_unstable(); // serde_json's Map sorts keys
    assert_eq!(names, expected_names, "{name}");
    for m in file["metalayers"].as_array().unwrap() {
        let mname = m["name"].as_str().unwrap();
        let raw_hex = m["raw_hex"].as_str().unwrap();
        let shown = &layers[mname];
        if mname == "b2nd" {
            // The library's own JSON of the raw bytes, and the manifest's facts.
            let meta: Meta = b2nd_meta::from_slice(&unhex(raw_hex)).unwrap();
            let lib_json: Value =
                serde_json::from_str(&serde_json::to_string(&meta).unwrap()).unwrap();
            assert_eq!(shown, &lib_json, "{name}: b2nd");
            assert_eq!(shown["layout"], "b2nd-v1", "{name}");
            assert_eq!(shown["version"], file["b2nd_version"], "{name}");
            assert_eq!(shown["ndim"], file["ndim"], "{name}");
            assert_eq!(shown["shape"], file["shape"], "{name}");
            assert_eq!(shown["chunkshape"], file["chunks"], "{name}");
            assert_eq!(shown["blockshape"], file["blocks"], "{name}");
            assert_eq!(shown["dtype_format"], file["dtype_format"], "{name}");
            assert_eq!(shown["dtype"], file["dtype_stored"], "{name}");
        } else {
            assert_eq!(shown["raw_hex"], raw_hex, "{name}: {mname}");
            // A user metalayer: its raw bytes and their msgpack value.
            let value = b2nd_meta::value::Value::from_msgpack(&unhex(raw_hex)).unwrap();
            assert_eq!(
                shown["value"],
                serde_json::to_value(&value).unwrap(),
                "{name}: {mname}"
            );
            assert_eq!(shown.as_object().unwrap().len(), 2, "{name}: {mname}");
        }
    }

    if file["is_ndarray"] == true {
        let array = &doc["array"];
        assert_eq!(array["metalayer"], "b2nd", "{name}");
        let dtype = &array["dtype"];
        assert!(dtype.get("error").is_none(), "{name}: {dtype}");
        assert!(dtype.get("assumed").is_none(), "{name}: {dtype}");
        assert_eq!(
            u(&dtype["itemsize"]),
            u(&file["dtype_itemsize"]),
            "{name}: itemsize"
        );
        assert_eq!(
            numpy_kind(dtype["kind"].as_str().unwrap()),
            file["dtype_kind"].as_str().unwrap(),
            "{name}: kind"
        );
        // NumPy's dtype.str, except for structs, which are shown as str(dtype).
        let expected_str = if dtype["kind"] == "struct" {
            b2nd_meta::dtype::Dtype::parse(file["dtype_stored"].as_str().unwrap())
                .unwrap()
                .to_string()
        } else {
            file["dtype_numpy_str"].as_str().unwrap().to_owned()
        };
        assert_eq!(dtype["str"], expected_str.as_str(), "{name}: dtype str");
        assert_eq!(array["problems"], serde_json::json!([]), "{name}");
        assert_eq!(
            array["blocks_within_chunks"],
            serde_json::json!([]),
            "{name}"
        );
    } else {
        assert!(doc.get("array").is_none(), "{name}: {doc}");
    }
}

#[test]
fn show_matches_the_manifest_for_every_corpus_file() {
    let manifest = manifest();
    let files = manifest["files"].as_array().unwrap();
    assert!(files.len() >= 50);
    for file in files {
        let path = data_path(file["path"].as_str().unwrap());
        let out = run([OsStr::new("show"), path.as_os_str()]);
        out.assert_ok();
        let docs = out.json_lines();
        assert_eq!(docs.len(), 1, "{}", out.stdout);
        assert_eq!(docs[0]["path"], path.to_str().unwrap());
        check_against_manifest(&docs[0], file);
    }
}

#[test]
fn show_prints_one_line_per_path_in_order() {
    let manifest = manifest();
    let files = manifest["files"].as_array().unwrap();
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|f| data_path(f["path"].as_str().unwrap()))
        .collect();
    let out = run(std::iter::once(OsStr::new("show")).chain(paths.iter().map(|p| p.as_os_str())));
    out.assert_ok();
    let docs = out.json_lines();
    assert_eq!(docs.len(), files.len());
    for ((doc, file), path) in docs.iter().zip(files).zip(&paths) {
        assert_eq!(doc["path"], path.to_str().unwrap());
        check_against_manifest(doc, file);
    }
}

#[test]
fn show_keeps_the_documented_key_order() {
    let out = run(["show", "tests/data/corpus/user_meta.b2nd"]);
    out.assert_ok();
    let line = out.stdout.trim_end();
    let order = [
        r#"{"path":"tests/data/corpus/user_meta.b2nd","frame":{"kind":"contiguous","header_len":196,"#,
        r#""frame_len":423,"file_len":423,"truncated":false,"typesize":2,"#,
        r#""nbytes":"#,
        r#""codec":"zstd","codec_code":5,"clevel":5,"codec_meta":0,"filters":[0,0,0,0,0,1],"#,
        r#""filters_meta":[0,0,0,0,0,0],"splitmode":3,"use_dict":false,"nchunks":1,"cratio":0.2,"#,
        r#""metalayer_names":["b2nd","mine","other"]},"#,
        r#""metalayers":{"b2nd":{"layout":"b2nd-v1","#,
        r#""mine":{"value":{"answer":42,"tag":"x"},"raw_hex":"82a6616e737765722aa3746167a178"},"other":{"value":[1,2,3],"raw_hex":"93010203"}},"#,
        r#""array":{"metalayer":"b2nd","dtype":{"str":"<i2","kind":"int","itemsize":2},"problems":[],"blocks_within_chunks":[],"trailing_bytes":0}}"#,
    ];
    let mut at = 0;
    for part in order {
        let found = line[at..]
            .find(part)
            .unwrap_or_else(|| panic!("{part:?} not after byte {at} of {line}"));
        at += found + part.len();
    }
    assert_eq!(at, line.len());
}

#[test]
fn show_on_a_frame_without_an_array() {
    let out = run(["show", "tests/data/corpus/schunk_no_b2nd.b2frame"]);
    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(
        doc["metalayers"],
        serde_json::json!({"mine": {"value": "abc", "raw_hex": "a3616263"}})
    );
    assert!(doc.get("array").is_none());
}
