//! vlmeta we write, as python-blosc2 2.7.1, 3.0.0 and 4.14.1 and C-Blosc2 2.15.3 read it.
//!
//! `tests/data/vlmeta_write/generate.py` had our CLI apply each scenario to base frames
//! python-blosc2 wrote, and had each python-blosc2 read every value back, change the
//! file further (a value, a resize that appends a chunk) and read again; its verdicts
//! and the sha256 of each file we wrote are in `manifest.json`. Here the same ops run
//! again on the committed base frames: the results must be those files byte for byte,
//! so the recorded verdicts hold for what we write today. C-Blosc2 (blosc2-src) then
//! opens each result from its path and `blosc2_vlmeta_get` must return our exact
//! msgpack, and every chunk the same data as in the base frame.

use std::path::Path;

use b2nd_meta::frame;
use b2nd_meta::value::Value;
use b2nd_meta::vlmeta::{self, VlmetaChange};
use serde_json::Value as Json;

use super::c_vlmeta::c_read;
use crate::common::data_path;
use crate::common::scratch::{sha256_hex, Scratch};

fn manifest() -> Json {
    let text = std::fs::read_to_string(data_path("vlmeta_write/manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The 1 MiB string of generate.py's `mib_string()`, as JSON.
fn mib_json() -> String {
    let s: String = (0..1usize << 20)
        .map(|i| char::from(97 + ((i * 7919 + (i >> 10)) % 26) as u8))
        .collect();
    serde_json::to_string(&s).unwrap()
}

fn op_json(j: &Json) -> String {
    match j {
        Json::String(s) => s.clone(),
        Json::Object(o) if o.get("gen").and_then(Json::as_str) == Some("mib") => mib_json(),
        other => panic!("unexpected op value {other}"),
    }
}

fn msgpack_of(json: &str) -> Vec<u8> {
    serde_json::from_str::<Value>(json)
        .unwrap()
        .to_msgpack()
        .unwrap()
}

/// The ops of a scenario, as the CLI runs them (one write each); each result's Ok/Err.
fn run_ops(path: &Path, ops: &[Json]) -> Vec<bool> {
    ops.iter()
        .map(|op| {
            let op = op.as_array().unwrap();
            let name = op[1].as_str().unwrap();
            let change = match op[0].as_str().unwrap() {
                "set" => {
                    let value: Value = serde_json::from_str(&op_json(&op[2])).unwrap();
                    VlmetaChange::set_value(name, &value).unwrap()
                }
                _ => VlmetaChange::delete(name),
            };
            vlmeta::update_vlmeta(path, &[change]).is_ok()
        })
        .collect()
}

fn header_file(path: &Path) -> std::path::PathBuf {
    if path.is_dir() {
        path.join("chunks.b2frame")
    } else {
        path.to_path_buf()
    }
}

#[test]
fn we_write_the_files_python_read_back_and_c_reads_our_exact_msgpack() {
    let m = manifest();
    let versions: Vec<&str> = m["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(versions, ["2.7.1", "3.0.0", "4.14.1"]);
    let results = m["results"].as_array().unwrap();
    assert_eq!(results.len(), 54);
    for (i, r) in results.iter().enumerate() {
        let id = r["id"].as_str().unwrap();
        let base = format!("vlmeta_write/base/{}", r["base"].as_str().unwrap());
        let scenario = r["scenario"].as_str().unwrap();
        let ops = m["scenarios"][scenario].as_array().unwrap();
        // python's verdicts on the file we wrote then.
        for v in &versions {
            let verdict = &r["verdicts"][v];
            assert_eq!(verdict["read"], "ok", "{id}: python-blosc2 {v}");
            assert_eq!(
                verdict["changed_by_python"], "ok",
                "{id}: python-blosc2 {v}"
            );
            assert_eq!(
                verdict["msgpack_differs_from_python"],
                serde_json::json!([]),
                "{id}: python-blosc2 {v}"
            );
        }
        // Our writer today, on the same base frame.
        let copy = Scratch::of(&base, &format!("vlpy{i}"));
        let before = c_read(&copy.0, false);
        let statuses = run_ops(&copy.0, ops);
        let recorded: Vec<bool> = r["statuses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s == 0)
            .collect();
        assert_eq!(statuses, recorded, "{id}: which ops succeed");
        let written = std::fs::read(header_file(&copy.0)).unwrap();
        assert_eq!(
            sha256_hex(&written),
            r["sha256"],
            "{id}: not the file python read"
        );
        // C-Blosc2 2.15.3 reads our exact msgpack, and the same data as before.
        let after = c_read(&copy.0, false);
        let names: Vec<&str> = after.vlmeta().iter().map(|(n, _)| n.as_str()).collect();
        let expected: Vec<&str> = r["expected_names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert_eq!(names, expected, "{id}");
        let ours = frame::open(&copy.0).unwrap();
        for (name, msgpack) in after.vlmeta() {
            assert_eq!(&ours.vlmeta_bytes(name).unwrap(), msgpack, "{id}: {name}");
            // What python-blosc2's C decompressed is those bytes too.
            assert_eq!(r["raw_sha256"][name], sha256_hex(msgpack), "{id}: {name}");
        }
        for op in ops.iter().filter(|op| op[0] == "set") {
            let name = op[1].as_str().unwrap();
            if let Some((_, got)) = after.vlmeta().iter().find(|(n, _)| n == name) {
                assert_eq!(*got, msgpack_of(&op_json(&op[2])), "{id}: {name}");
            }
        }
        assert_eq!(after.data(), before.data(), "{id}: the data");
    }
}

#[test]
fn c_appends_to_a_frame_we_wrote_and_reads_it_back() {
    // C writes the new chunk where the offsets index was, then the index and the
    // trailer after it: our gap (if any) is overwritten.
    for base in [
        "4.14.1.b2nd",
        "2.7.1_sparse.b2nd",
        "3.0.0.b2nd",
        "4.14.1_empty.b2nd",
        "3.0.0_empty_sparse.b2nd",
    ] {
        let copy = Scratch::of(&format!("vlmeta_write/base/{base}"), "vlappend");
        vlmeta::set_vlmeta(&copy.0, "units", "m/s").unwrap();
        vlmeta::set_vlmeta(&copy.0, "big", &"x".repeat(5000)).unwrap();
        vlmeta::del_vlmeta(&copy.0, "existing").unwrap();
        let before = c_read(&copy.0, false);
        let appended = c_read(&copy.0, true);
        assert_eq!(appended.vlmeta(), before.vlmeta(), "{base}");
        assert_eq!(
            &appended.data()[..before.data().len()],
            before.data(),
            "{base}"
        );
        assert!(appended.data().len() > before.data().len(), "{base}");
        // And we read what C wrote.
        let ours = frame::open(&copy.0).unwrap();
        assert_eq!(ours.vlmeta::<String>("units").unwrap(), "m/s", "{base}");
    }
}

#[test]
fn frames_python_changed_after_us_read_back_here() {
    for v in ["2.7.1", "3.0.0", "4.14.1"] {
        let path = data_path(&format!("vlmeta_write/python_changed/kinds_a_{v}.b2nd"));
        let f = frame::open(&path).unwrap();
        let names = f.vlmeta_names().unwrap();
        assert_eq!(names.last().map(String::as_str), Some("py_added"), "{v}");
        assert_eq!(f.vlmeta::<String>("py_added").unwrap(), "from python");
        assert_eq!(f.vlmeta::<String>("ustr").unwrap(), "ñandú 🙂");
        assert_eq!(f.vlmeta::<u64>("u64max").unwrap(), u64::MAX);
        assert_eq!(f.header.array_meta().unwrap().shape(), [9, 10], "{v}");
        let c = c_read(&path, false);
        assert_eq!(c.data().len(), 9 * 10 * 4, "{v}");
    }
}
