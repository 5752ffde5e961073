//! Resize interop (issue 11.6): `set_shape` on a copy of each case of
//! `tests/data/resize/cases.json` (written by the fixtures generator, which patches the
//! shape on its own and checks the result in python-blosc2) gives the same verdict, the
//! same reason and, when it writes, a file with the same sha256. Until that file
//! exists, the two python-blosc2 rewrite pairs of tests/data/manifest.json stand in.

use crate::common;

use b2nd_meta::frame::{self, FrameError, FrameErrorKind, ShapeChangeRefusal};
use common::data_path;
use common::scratch::{sha256_hex, Scratch};
use serde_json::Value;

/// One resize: the file (relative to tests/data), the new shape, and what must follow.
struct Case {
    file: String,
    new_shape: Vec<i64>,
    expect: String,
    reason: Option<String>,
    after_sha256: Option<String>,
}

fn cases() -> Vec<Case> {
    let path = data_path("resize/cases.json");
    let shape = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_i64().unwrap())
            .collect()
    };
    if let Ok(text) = std::fs::read_to_string(&path) {
        let doc: Value = serde_json::from_str(&text).unwrap();
        return doc["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                if c["expect"] == "ok" {
                    assert_eq!(c["python"]["opens"], true, "{c}");
                    assert_eq!(c["python"]["shape"], c["new_shape"], "{c}");
                    assert_eq!(c["python"]["data_equal_to_python_resize"], true, "{c}");
                }
                Case {
                    file: c["file"].as_str().unwrap().to_owned(),
                    new_shape: shape(&c["new_shape"]),
                    expect: c["expect"].as_str().unwrap().to_owned(),
                    reason: c["reason"].as_str().map(str::to_owned),
                    after_sha256: c["after_sha256"].as_str().map(str::to_owned),
                }
            })
            .collect();
    }
    // The stand-in: python-blosc2's own resize of the "before" files, checked by
    // tests/data/generate.py (after_opens, blosc2_resize_identical).
    common::manifest()["rewrites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["after_opens"], true);
            assert_eq!(r["blosc2_resize_identical"], true);
            let after = std::fs::read(data_path(r["after_path"].as_str().unwrap())).unwrap();
            Case {
                file: r["before_path"].as_str().unwrap().to_owned(),
                new_shape: shape(&r["new_shape"]),
                expect: "ok".to_owned(),
                reason: None,
                after_sha256: Some(sha256_hex(&after)),
            }
        })
        .collect()
}

/// The reason, in the words of cases.json, for one of our refusals.
fn reason(err: &FrameError) -> &'static str {
    match err.kind() {
        FrameErrorKind::ShapeChange {
            reason: ShapeChangeRefusal::ChunkGrid { .. },
        } => "grid",
        FrameErrorKind::ShapeChange {
            reason: ShapeChangeRefusal::Ndim { .. },
        } => "ndim",
        // Data cut short, or the header itself.
        FrameErrorKind::TruncatedFrame { .. } | FrameErrorKind::Truncated { .. } => "truncated",
        FrameErrorKind::ShapeChange {
            reason: ShapeChangeRefusal::TooLong { .. } | ShapeChangeRefusal::Invalid(_),
        } => "invalid",
        _ => "other",
    }
}

#[test]
fn set_shape_agrees_with_the_python_verified_resizes() {
    let cases = cases();
    assert!(!cases.is_empty());
    for (n, case) in cases.iter().enumerate() {
        // A negative length is python's refusal ("invalid"); `set_shape` takes `u64`,
        // which cannot say it.
        let Ok(new_shape) = case
            .new_shape
            .iter()
            .map(|&d| u64::try_from(d))
            .collect::<Result<Vec<u64>, _>>()
        else {
            assert_eq!(
                (case.expect.as_str(), case.reason.as_deref()),
                ("refused", Some("invalid")),
                "{}",
                case.file
            );
            continue;
        };
        let copy = Scratch::of(&case.file, &n.to_string());
        let before = std::fs::read(copy.header_file()).unwrap();
        let result = frame::set_shape(&copy.0, &new_shape);
        let after = std::fs::read(copy.header_file()).unwrap();
        drop(copy);
        let what = format!("{} -> {:?}", case.file, case.new_shape);
        match (case.expect.as_str(), result) {
            ("ok", Ok(meta)) => assert_eq!(meta.shape(), case.new_shape, "{what}"),
            ("refused", Err(e)) => {
                assert_eq!(Some(reason(&e)), case.reason.as_deref(), "{what}: {e}");
                assert_eq!(after, before, "{what}: a refusal writes nothing");
            }
            (expect, got) => panic!("{what}: expected {expect}, got {got:?}"),
        }
        if let Some(sha) = &case.after_sha256 {
            assert_eq!(&sha256_hex(&after), sha, "{what}");
        }
    }
}
