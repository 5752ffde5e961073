//! `b2nd-meta show` on stores, bundles and object kinds: the record line, one JSON line
//! per entry with the keys python-blosc2 lists, `--human` trees, `show PATH --key KEY`.

use std::process::Command;

use serde_json::Value;

use crate::{data, view};

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

fn show(args: &[&str]) -> (Vec<String>, String, i32) {
    let out = Command::new(BIN).arg("show").args(args).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines = stdout.lines().map(str::to_owned).collect();
    (lines, stderr, out.status.code().unwrap_or(-1))
}

fn path(fixture: &str) -> String {
    data("blosc2-4.14.1")
        .join(fixture)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_store_prints_its_record_then_one_line_per_key() {
    for fixture in [
        "embed_empty.b2e",
        "embed_one.b2e",
        "embed_many.b2e",
        "embed_span.b2e",
        "dict.b2d",
        "dict.b2z",
        "dict_empty.b2z",
        "dict_one.b2d",
        "tree.b2z",
        "tree.b2d",
        "tree_empty.b2z",
        "tree_many.b2z",
    ] {
        let (lines, stderr, code) = show(&[&path(fixture)]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{fixture}");
        let py = view("blosc2-4.14.1", fixture);
        let record: Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(record["kind"], py["open"], "{fixture}");
        let keys: Vec<Value> = lines[1..]
            .iter()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["key"].clone())
            .collect();
        let expected: Vec<Value> = py["keys"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|k| !k.as_str().unwrap().ends_with(".4242"))
            .cloned()
            .collect();
        assert_eq!(keys, expected, "{fixture}");
        assert_eq!(record["entries"], keys.len(), "{fixture}");
    }
}

#[test]
fn human_draws_the_tree_with_attrs_indented() {
    let (lines, _, code) = show(&["--human", &path("tree.b2z")]);
    assert_eq!(code, 0);
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.trim_start().starts_with(needle))
            .unwrap_or_else(|| panic!("{needle:?} not in {lines:#?}"))
    };
    let indent = |i: usize| lines[i].len() - lines[i].trim_start().len();
    let (g1, g2, b, level2) = (
        at("g1/  group"),
        at("g2/  group"),
        at("b  NDArray"),
        at("attrs level: 2"),
    );
    assert!(g1 < g2 && g2 < level2 && level2 < b);
    assert!(indent(g1) < indent(g2) && indent(g2) < indent(b));
    assert!(indent(level2) > indent(g2));
    assert!(
        lines[b].contains("shape (3,)") && lines[b].contains("dtype <i2"),
        "{}",
        lines[b]
    );
    assert!(lines[at("t1  CTable")].contains("CTable"));
    assert!(lines[0].contains("TreeStore, 8 entries"), "{}", lines[0]);
    assert!(lines
        .iter()
        .any(|l| l.contains("attrs title: \"root attrs\"")));
}

#[test]
fn show_path_key_shows_one_node() {
    let (lines, _, code) = show(&[&path("tree.b2z"), "--key", "/g1/g2/c"]);
    assert_eq!((code, lines.len()), (0, 1));
    let node: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(node["key"], "/g1/g2/c");
    assert_eq!(node["kind"], "NDArray");
    assert_eq!(node["array"]["dtype"]["str"], "<c16");
    assert_eq!(node["location"]["in"], "embedded");
    // A hidden node (a CTable column) is reachable by its key too; -k before PATH.
    let (lines, _, code) = show(&["-k", "/tables/t1/_cols/id", &path("tree.b2z")]);
    assert_eq!(code, 0);
    let node: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(node["location"]["in"], "zip_member");
    // A CTable column's backing array is named with the column role it plays.
    let (lines, _, _) = show(&[&path("tree.b2z"), "--key=/tables/t1/_cols/cat_dict"]);
    let node: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(node["kind"], "BatchArray");
    assert_eq!(node["detail"]["py_type"], "str");
    // No such key: one error line, exit 1.
    let (lines, stderr, code) = show(&[&path("tree.b2z"), "--key", "/nope"]);
    assert_eq!((code, lines.len()), (1, 0));
    assert!(stderr.contains("no node \"/nope\""), "{stderr}");
}

#[test]
fn several_keys_print_one_line_each_in_the_order_given() {
    let (lines, stderr, code) = show(&[
        "--human",
        &path("dict.b2z"),
        "-k",
        "/tiny",
        "-k",
        "/nope",
        "-k",
        "/dir1/big",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("no node \"/nope\""), "{stderr}");
    let keys: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(keys, ["/tiny", "/dir1/big"], "{lines:?}");
}

#[test]
fn a_key_is_never_guessed_from_a_path() {
    // Two PATHs are two paths: a key-like second one is a missing file, with a hint.
    let (lines, stderr, code) = show(&[&path("tree.b2z"), "/g1/g2/c"]);
    assert_eq!(code, 1);
    let record: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(record["kind"], "TreeStore");
    assert_eq!(lines.len(), 9, "the record and 8 entries: {lines:?}");
    assert!(
        stderr.contains("b2nd-meta: /g1/g2/c: cannot open"),
        "{stderr}"
    );
    assert!(stderr.contains(" --key /g1/g2/c"), "{stderr}");
    // The help says so.
    let (help, _, code) = show(&["--help"]);
    assert_eq!(code, 0);
    let help = help.join("\n");
    assert!(help.contains("-k, --key <KEY>"), "{help}");
    assert!(
        help.contains("`show STORE /dir/name` shows two paths"),
        "{help}"
    );
    // --key takes one PATH, and it must be a store or bundle.
    let (lines, stderr, code) = show(&[&path("dict.b2z"), &path("tree.b2z"), "-k", "/x"]);
    assert_eq!((code, lines.len()), (1, 0));
    assert!(stderr.contains("expected one PATH, found 2"), "{stderr}");
    let (lines, stderr, code) = show(&[&path("objectarray.b2f"), "-k", "/x"]);
    assert_eq!((code, lines.len()), (1, 0));
    assert!(
        stderr.contains("this ObjectArray holds no nodes: --key names a node"),
        "{stderr}"
    );
}

#[test]
fn object_kinds_are_named_with_their_metadata() {
    for (fixture, kind) in [
        ("objectarray.b2f", "ObjectArray"),
        ("batcharray.b2b", "BatchArray"),
        ("listarray.b2b", "ListArray"),
        ("lazyexpr.b2nd", "LazyExpr"),
        ("ctable.b2z", "CTable"),
    ] {
        let (lines, _, code) = show(&[&path(fixture)]);
        assert_eq!(code, 0, "{fixture}");
        let first: Value = serde_json::from_str(&lines[0]).unwrap();
        assert_eq!(first["kind"], kind, "{fixture}");
        let (human, _, _) = show(&["-H", &path(fixture)]);
        assert!(human[0].contains(kind), "{fixture}: {}", human[0]);
    }
    let (lines, _, _) = show(&[&path("lazyexpr.b2nd")]);
    let first: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(first["detail"]["kind"], "lazyexpr");
    let (lines, _, _) = show(&[&path("ctable.b2z")]);
    let first: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(first["detail"]["kind"], "ctable");
    assert!(first["detail"]["schema"]
        .as_str()
        .unwrap()
        .contains("\"utf8\""));
}

#[test]
fn a_broken_node_is_an_error_line_and_the_others_are_listed() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-containers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = data("blosc2-4.14.1").join("dict.b2d");
    let dst = dir.join("dict.b2d");
    copy_dir(&src, &dst);
    // Cut the external leaf short.
    let big = dst.join("dir1/big.b2nd");
    let bytes = std::fs::read(&big).unwrap();
    std::fs::write(&big, &bytes[..100]).unwrap();
    let (lines, stderr, code) = show(&[dst.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 6, "{lines:#?}");
    let big: Value = serde_json::from_str(&lines[2]).unwrap();
    assert_eq!(big["key"], "/dir1/big");
    assert!(big["error"].as_str().unwrap().contains("byte"), "{big}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("/dir1/big"), "{stderr}");
}

fn copy_dir(src: &std::path::Path, dst: &std::path::Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to);
        } else {
            std::fs::copy(e.path(), to).unwrap();
        }
    }
}
