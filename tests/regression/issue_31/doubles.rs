//! `set-vlmeta ... '[0.9331238252043201]'` stored 0.93312382520432 (one ULP off), and
//! so did `set-meta`: the JSON reader parsed floats inexactly.

#![cfg(feature = "cli")]

use b2nd_meta::frame;
use b2nd_meta::value::Value;

use super::run::b2nd_meta;
use crate::common::scratch::Scratch;

/// python's `meta={"x": 0.5}` (a float64 content of 9 bytes) on an array with data.
const FRAME: &str = "regression/issue31/double_meta.b2nd";

/// Doubles whose shortest text the inexact reader got wrong, and the edges.
const DOUBLES: [f64; 6] = [
    0.9331238252043201,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
    -0.0,
    2.225073858507201e-308,
];

#[test]
fn set_vlmeta_and_set_meta_store_the_double_given() {
    let copy = Scratch::of(FRAME, "issue31-doubles");
    let path = copy.0.to_str().unwrap();
    for f in DOUBLES {
        // serde_json's text of the double, as show prints it.
        let text = serde_json::to_string(&f).unwrap();
        let run = b2nd_meta(&["set-vlmeta", path, "d", &format!("[{text}]")], &[]);
        run.within_bounds("set-vlmeta of a double", 0);
        let stored = frame::open(path).unwrap().vlmeta_value("d").unwrap();
        assert!(
            matches!(stored, Value::Array(ref v) if matches!(v[..], [Value::F64(g)] if g.to_bits() == f.to_bits())),
            "{text}: {stored:?}"
        );
        let run = b2nd_meta(&["set-meta", path, "x", &text], &[]);
        run.within_bounds("set-meta of a double", 0);
        let header = frame::open(path).unwrap().header;
        let mut want = vec![0xcb];
        want.extend_from_slice(&f.to_be_bytes());
        assert_eq!(header.metalayer("x").unwrap().content, want, "{text}");
    }
}
