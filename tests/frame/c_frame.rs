//! Differential test of the frame-header reader against C-Blosc2: every case of
//! tests/data/mutations/cases.json (one overwrite of a real frame) is read by us
//! (`frame::parse_header`), by C-Blosc2 2.15.3 (`blosc2_schunk_from_buffer` of
//! blosc2-src, in a forked child) and compared with the verdict of python-blosc2 4.14.1
//! (C-Blosc2 3.3.5) recorded in the file.

use crate::c_ffi;
use crate::common;

use std::collections::BTreeMap;

use b2nd_meta::frame;
use c_ffi::frame::{c_open_frame, CFrame};
use common::{data_path, unhex};
use serde_json::Value;

struct Case {
    file: String,
    field: String,
    label: String,
    bytes: Vec<u8>,
    py_opens: bool,
    py_meta: Option<BTreeMap<String, Vec<u8>>>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(data_path("mutations/cases.json")).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let file = c["file"].as_str().unwrap().to_owned();
            let mut bytes = files
                .entry(file.clone())
                .or_insert_with(|| std::fs::read(data_path(&file)).unwrap())
                .clone();
            let at = c["offset"].as_u64().unwrap() as usize;
            let patch = unhex(c["bytes_hex"].as_str().unwrap());
            bytes[at..at + patch.len()].copy_from_slice(&patch);
            let py = &c["python"];
            Case {
                file,
                field: c["field"].as_str().unwrap().to_owned(),
                label: c["label"].as_str().unwrap().to_owned(),
                bytes,
                py_opens: py["opens"].as_bool().unwrap(),
                py_meta: py["metalayers"].as_object().map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.clone(), unhex(v.as_str().unwrap())))
                        .collect()
                }),
            }
        })
        .collect()
}

/// Our reading: `None` when refused, else the metalayers (name, content) in header order.
fn ours(bytes: &[u8]) -> Result<Vec<(String, Vec<u8>)>, String> {
    frame::parse_header(bytes)
        .map_err(|e| e.to_string())
        .and_then(|h| match h.info.kind {
            // A buffer holds a contiguous frame, as a file does for `open`.
            frame::FrameKind::Contiguous => Ok(h),
            frame::FrameKind::Sparse => Err("a sparse frame where a contiguous one is".into()),
        })
        .map(|h| {
            h.metalayers
                .into_iter()
                .map(|m| (m.name, m.content))
                .collect()
        })
}

/// Why we accept a case python-blosc2 (C-Blosc2 3.3.5) refuses: each is a check C makes
/// past the header (SPEC.md, "Where we and C-Blosc2 disagree"), one line per field, with
/// the number of cases. A new disagreement, or one more or fewer, fails the test.
#[rustfmt::skip]
const WE_ACCEPT_C_REFUSES: &[(&str, usize, &str)] = &[
    ("frame_len", 30, "C's blosc2_schunk_from_buffer refuses frame_len != the buffer's length; we read the header (open reports a short file)"),
    ("nbytes", 23, "C checks nbytes against the chunk-offsets index and the trailer, past the header"),
    ("cbytes", 18, "C finds the chunk-offsets index at header_len + cbytes and checks it, past the header"),
    ("chunksize", 10, "C checks the chunk count from chunksize against the chunk-offsets index, past the header"),
    ("header_len", 15, "C looks for the chunk-offsets index after header_len; a header_len moved into the data breaks that (we note the mismatch)"),
];

/// Where C-Blosc2 2.15.3 (blosc2-src) and 3.3.5 (python-blosc2 4.14.1) disagree, as data:
/// (field, 2.15.3's verdict, 3.3.5's verdict, cases).
const C215_VS_C335: &[(&str, &str, &str, usize)] = &[
    ("cbytes", "crash 11", "refused", 2),
    ("chunksize", "opens", "refused", 6),
    ("general_flags", "opens", "refused", 75),
    ("metalayer_content_len", "crash 11", "refused", 6),
    ("nbytes", "opens", "refused", 4),
];

fn verdict(c: &CFrame) -> String {
    match c {
        CFrame::Opens(_) => "opens".into(),
        CFrame::Refused => "refused".into(),
        CFrame::Crashed(s) => format!("crash {s}"),
    }
}

#[test]
fn every_header_mutation_is_judged_as_c_blosc2_judges_it() {
    let cases = cases();
    assert!(cases.len() > 1000);
    let mut we_accept: BTreeMap<String, usize> = BTreeMap::new();
    let mut c215_vs_c335: BTreeMap<(String, String, String), usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for c in &cases {
        let what = format!("{} {} {}", c.file, c.field, c.label);
        let us = ours(&c.bytes);
        let c215 = c_open_frame(&c.bytes);
        let py = if c.py_opens { "opens" } else { "refused" };
        if verdict(&c215) != py {
            *c215_vs_c335
                .entry((c.field.clone(), verdict(&c215), py.to_owned()))
                .or_default() += 1;
        }
        match (&us, c.py_opens) {
            (Err(e), true) => failures.push(format!("{what}: C opens, we refuse: {e}")),
            (Ok(_), false) => *we_accept.entry(c.field.clone()).or_default() += 1,
            _ => {}
        }
        // Where both open: the metalayers C returns, by name, are ours.
        if let (Ok(layers), Some(py_meta)) = (&us, &c.py_meta) {
            for (name, content) in py_meta {
                let first = layers.iter().find(|(n, _)| n == name).map(|(_, c)| c);
                if first != Some(content) {
                    failures.push(format!("{what}: metalayer {name:?} differs from C 3.3.5's"));
                }
            }
            let names: Vec<&String> = layers.iter().map(|(n, _)| n).collect();
            if names.iter().any(|n| !py_meta.contains_key(n.as_str())) {
                failures.push(format!(
                    "{what}: names {names:?}, C 3.3.5 {:?}",
                    py_meta.keys()
                ));
            }
        }
        if let (Ok(layers), CFrame::Opens(c_layers)) = (&us, &c215) {
            for (name, content) in c_layers {
                let first = layers
                    .iter()
                    .find(|(n, _)| n.as_bytes() == name.as_slice())
                    .map(|(_, c)| c);
                if std::str::from_utf8(name).is_ok() && first != Some(content) {
                    failures.push(format!(
                        "{what}: metalayer {name:?} differs from C 2.15.3's"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let expected: BTreeMap<String, usize> = WE_ACCEPT_C_REFUSES
        .iter()
        .map(|(f, n, _)| (f.to_string(), *n))
        .collect();
    assert_eq!(
        we_accept, expected,
        "cases we accept and C-Blosc2 3.3.5 refuses"
    );
    let expected: BTreeMap<(String, String, String), usize> = C215_VS_C335
        .iter()
        .map(|(f, a, b, n)| ((f.to_string(), a.to_string(), b.to_string()), *n))
        .collect();
    assert_eq!(c215_vs_c335, expected, "C-Blosc2 2.15.3 against 3.3.5");
}
