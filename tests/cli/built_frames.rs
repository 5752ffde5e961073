//! `show` on frames built by hand: a caterva metalayer, stale bytes after the
//! metalayer, an unparsable dtype.

use std::ffi::OsStr;

use crate::common::hex;
use crate::{frame_with, run, temp_path};

#[test]
fn a_caterva_frame_gets_the_assumed_dtype() {
    let caterva = hex("95 00 01 91 d3 00 00 00 00 00 00 00 0a 91 d2 00 00 00 05 91 d2 00 00 00 05");
    let path = temp_path("caterva.b2frame");
    std::fs::write(
        &path,
        frame_with(8, &[("caterva", &caterva), ("x", b"\x01")]),
    )
    .unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    let human = run([OsStr::new("show"), OsStr::new("-H"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(
        doc["metalayers"],
        serde_json::json!({
            "caterva": {"layout": "caterva-v0", "version": 0, "ndim": 1, "shape": [10],
                        "chunkshape": [5], "blockshape": [5]},
            "x": {"value": 1, "raw_hex": "01"}
        })
    );
    assert_eq!(doc["frame"]["codec"], "zstd");
    assert_eq!(doc["frame"]["typesize"], 8);
    assert_eq!(doc["array"]["metalayer"], "caterva");
    assert_eq!(
        doc["array"]["dtype"],
        serde_json::json!({"str": "|S8", "kind": "bytes", "itemsize": 8, "assumed": true})
    );
    assert_eq!(doc["array"]["problems"], serde_json::json!([]));

    human.assert_ok();
    assert!(
        human
            .stdout
            .contains("caterva (caterva-v0): shape (10,), chunks (5,), blocks (5,), dtype |S8"),
        "{}",
        human.stdout
    );
}

#[test]
fn stale_bytes_after_the_metalayer_are_ignored_as_c_blosc2_does() {
    // blosc2_meta_update can leave old bytes after shorter content; C reads the
    // metalayer from the start of the content and ignores them.
    let meta = b2nd_meta::MetaB2ndV1::new(vec![10], vec![4], vec![2], "<i4");
    let mut content = b2nd_meta::to_vec(&meta).unwrap();
    content.extend_from_slice(&[0xde, 0xad]);
    let frame = frame_with(4, &[("b2nd", &content)]);
    let path = temp_path("stale.b2frame");
    std::fs::write(&path, &frame).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    let human = run([OsStr::new("show"), OsStr::new("-H"), path.as_os_str()]);

    out.assert_ok();
    let doc = &out.json_lines()[0];
    assert_eq!(doc["metalayers"]["b2nd"]["shape"], serde_json::json!([10]));
    assert_eq!(doc["array"]["trailing_bytes"], 2);
    human.assert_ok();
    assert!(human.stdout.contains("2 stale byte(s)"), "{}", human.stdout);

    // The library reads it, and a resize keeps the stale bytes where they were.
    let header = b2nd_meta::frame::open(&path).unwrap().header;
    assert_eq!(header.array_meta().unwrap().shape(), [10]);
    b2nd_meta::frame::set_shape(&path, &[12]).unwrap();
    let after = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let changed: Vec<usize> = (0..frame.len()).filter(|&i| frame[i] != after[i]).collect();
    assert_eq!(changed.len(), 1, "only the low byte of shape[0]");
    assert_eq!(after[after.len() - 2..], [0xde, 0xad]);
}

#[test]
fn an_unparsable_dtype_is_reported_in_the_array() {
    let meta = b2nd_meta::MetaB2ndV1::new(vec![4], vec![2], vec![1], "<i3");
    let content = b2nd_meta::to_vec(&meta).unwrap();
    let path = temp_path("bad-dtype.b2frame");
    std::fs::write(&path, frame_with(4, &[("b2nd", &content)])).unwrap();
    let out = run([OsStr::new("show"), path.as_os_str()]);
    std::fs::remove_file(&path).unwrap();

    out.assert_ok();
    let dtype = &out.json_lines()[0]["array"]["dtype"];
    assert_eq!(dtype["str"], "<i3");
    assert!(
        dtype["error"].as_str().unwrap().contains("at byte"),
        "{dtype}"
    );
    assert!(dtype.get("itemsize").is_none());
}
