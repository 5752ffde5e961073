//! Errors that point at the fix (issue 49): a store given where an array is expected
//! names its kind and some of its keys, a key without its leading `/` is accepted, a
//! `.npy` file and a Blosc2 frame given to the other's command are named as what they
//! are (by their content), numpy's advanced indexing is named as such, and a bare word
//! given as JSON is shown with the quotes it needs. Each is one line, asserted whole.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::{run, temp_path, BIN};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/arrays/blosc2-4.14.1")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Exit status 1, nothing on stdout, and exactly the line `b2nd-meta: <context>: <message>`.
fn assert_says(args: &[&str], context: &str, message: &str) {
    let r = run(args);
    assert_eq!(r.code, Some(1), "{args:?}: {}", r.stderr);
    assert_eq!(r.stdout, "", "{args:?}");
    assert_eq!(
        r.stderr,
        format!("b2nd-meta: {context}: {message}\n"),
        "{args:?}"
    );
}

#[test]
fn a_store_without_key_names_its_kind_and_keys() {
    for (name, what) in [
        (
            "store_dict.b2z",
            "a DictStore, not an array: give --key, one of /dir/ext, /dir/zeros, /emb",
        ),
        (
            "store_dict.b2d",
            "a DictStore, not an array: give --key, one of /dir/ext, /dir/zeros, /emb",
        ),
        (
            "store_tree.b2z",
            "a TreeStore, not an array: give --key, one of /g/h/big, /g/leaf",
        ),
        (
            "store_embed.b2e",
            "an EmbedStore, not an array: give --key, one of /a, /big",
        ),
    ] {
        let path = fixture(name);
        assert_says(&["export", &path, "-o", "-"], &path, what);
        assert_says(&["show", "--slice", "0", &path], &path, what);
    }
}

#[test]
fn a_key_without_its_leading_slash_is_accepted() {
    let path = fixture("store_dict.b2z");
    let export = |key: &str| {
        let out = Command::new(BIN)
            .args(["export", &path, "--key", key, "-o", "-"])
            .output()
            .unwrap();
        assert!(out.status.success() && out.stderr.is_empty(), "{key}");
        out.stdout
    };
    assert_eq!(export("emb"), export("/emb"));
    let bare = run(["show", "--slice", "0", "--key", "dir/ext", &path]);
    let rooted = run(["show", "--slice", "0", "--key", "/dir/ext", &path]);
    bare.assert_ok();
    assert_eq!(bare.stdout, rooted.stdout);
    let bare = run(["show", "--key", "emb", &path]);
    let rooted = run(["show", "--key", "/emb", &path]);
    bare.assert_ok();
    assert_eq!(bare.stdout, rooted.stdout);
    // A key in neither spelling is still not there, as given.
    assert_says(
        &["export", &path, "--key", "nope", "-o", "-"],
        &format!("{path}#nope"),
        "no node \"nope\"",
    );
}

#[test]
fn a_npy_file_given_for_a_frame_is_named_by_its_content() {
    // A .npy file under another name: its magic says what it is.
    let npy = temp_path("hint.bin");
    let out = Command::new(BIN)
        .args(["export", &fixture("ndim2_u2.b2nd"), "-o"])
        .arg(&npy)
        .output()
        .unwrap();
    assert!(out.status.success());
    let npy = npy.to_str().unwrap().to_string();
    let says = "a .npy file (numpy), not a Blosc2 frame: b2nd-meta import it first";
    assert_says(&["show", &npy], &npy, says);
    assert_says(&["show", "--slice", "0", &npy], &npy, says);
    assert_says(&["export", &npy, "-o", "-"], &npy, says);
    std::fs::remove_file(&npy).unwrap();
}

#[test]
fn blosc2_given_to_import_is_named_by_its_content() {
    let out = temp_path("hint-import.b2nd");
    let out = out.to_str().unwrap();
    let frame = fixture("ndim2_u2.b2nd");
    let says = "a Blosc2 frame, not a .npy file: b2nd-meta export it first";
    assert_says(&["import", &frame, out], &frame, says);
    for store in [fixture("store_dict.b2z"), fixture("store_dict.b2d")] {
        let says = "a Blosc2 store or bundle, not a .npy file: b2nd-meta export --key KEY it first";
        assert_says(&["import", &store, out], &store, says);
    }
    let sparse = crate::common::data_path("frame/sparse.b2nd");
    let sparse = sparse.to_str().unwrap();
    let says = "a Blosc2 sparse frame, not a .npy file: b2nd-meta export it first";
    assert_says(&["import", sparse, out], sparse, says);
    // On stdin, by its first bytes.
    let r = Command::new(BIN)
        .args(["import", "-", out])
        .stdin(std::fs::File::open(&frame).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(r.stderr).unwrap(),
        "b2nd-meta: -: a Blosc2 frame, not a .npy file: b2nd-meta export it first\n"
    );
    assert!(!std::path::Path::new(out).exists());
}

#[test]
fn numpys_advanced_indexing_is_named() {
    let path = fixture("ndim2_u2.b2nd");
    let lists = "lists (numpy's fancy indexing) are not supported: only ints, slices, ..., None";
    let bools = "booleans (numpy's boolean masks) are not supported: only ints, slices, ..., None";
    assert_says(
        &["export", &path, "--slice", "[1,2]", "-o", "-"],
        &path,
        &format!("--slice \"[1,2]\": {lists} at byte 0"),
    );
    assert_says(
        &["show", "--slice", "0, [1, 2]", &path],
        "show",
        &format!("--slice \"0, [1, 2]\": {lists} at byte 3"),
    );
    assert_says(
        &["show", "--slice", "False", &path],
        "show",
        &format!("--slice \"False\": {bools} at byte 0"),
    );
}

#[test]
fn a_bare_word_for_json_is_shown_quoted() {
    let copy = temp_path("hint-json.b2nd");
    std::fs::copy(fixture("ndim2_u2.b2nd"), &copy).unwrap();
    let copy = copy.to_str().unwrap().to_string();
    let needs = "the new value is not JSON: a string needs quotes:";
    assert_says(
        &["set-vlmeta", &copy, "note", "hi"],
        &copy,
        &format!("{needs} '\"hi\"'"),
    );
    assert_says(
        &["set-meta", &copy, "note", "it's"],
        &copy,
        &format!("{needs} '\"it'\\''s\"'"),
    );
    // JSON that is not a bare word: the parser's own words.
    assert_says(
        &["set-vlmeta", &copy, "note", "{x"],
        &copy,
        "the new value is not JSON of the mapping: key must be a string at line 1 column 2",
    );
    let out = temp_path("hint-json-out.b2nd");
    let npy = temp_path("hint-json.npy");
    let done = run([
        "export",
        &fixture("ndim2_u2.b2nd"),
        "-o",
        npy.to_str().unwrap(),
    ]);
    done.assert_ok();
    let out = out.to_str().unwrap();
    assert_says(
        &["import", npy.to_str().unwrap(), out, "--vlmeta", "n=hi"],
        out,
        "--vlmeta \"n=hi\": the value is not JSON: a string needs quotes: '\"hi\"'",
    );
    std::fs::remove_file(&copy).unwrap();
    std::fs::remove_file(&npy).unwrap();
}

#[test]
fn a_large_store_names_three_of_its_arrays() {
    let dir = crate::common::data_path("containers/blosc2-4.14.1");
    for (name, what) in [
        (
            "tree_many.b2z",
            "a TreeStore, not an array: give --key, one of /g0/n0000, /g0/n0010, /g0/n0020 (and 997 more)",
        ),
        ("tree_empty.b2z", "a TreeStore holding no arrays, not an array"),
    ] {
        let path = dir.join(name);
        let path = path.to_str().unwrap();
        assert_says(&["export", path, "-o", "-"], path, what);
    }
}
