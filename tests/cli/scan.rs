//! `show DIR`: what a directory holds, found by content, in name order; `-r` for its
//! subdirectories; nothing found is one error line.

use serde_json::Value;

use crate::user_files::{UserFiles, SHOWN, SHOWN_WITH_R};

/// The `"path"` of each record: a frame's, or a store's first line (not its entries',
/// which have a `"key"`).
fn paths(lines: &[Value]) -> Vec<&str> {
    lines
        .iter()
        .filter(|l| l.get("key").is_none())
        .filter_map(|l| l["path"].as_str())
        .collect()
}

#[test]
fn a_directory_shows_what_its_content_makes_a_frame_or_a_bundle() {
    let user = UserFiles::new("scan");
    let out = user.run(["show", "--json", "data"]);
    out.assert_ok();
    let lines = out.json_lines();
    assert_eq!(paths(&lines), SHOWN);
    // The bundle is listed as a store: its record, then one line per node.
    let keys: Vec<&str> = lines.iter().filter_map(|l| l["key"].as_str()).collect();
    assert_eq!(keys, ["/dir/ext", "/dir/zeros", "/emb"]);
}

#[test]
fn dash_r_looks_in_subdirectories_without_following_links() {
    let user = UserFiles::new("scan-r");
    for flag in ["-r", "--recursive"] {
        let out = user.run(["show", "--json", flag, "data/"]);
        out.assert_ok();
        let lines = out.json_lines();
        let want: Vec<&str> = SHOWN.iter().chain(&SHOWN_WITH_R).copied().collect();
        assert_eq!(paths(&lines), want, "{flag}");
        let sparse = lines.iter().find(|l| l["path"] == "data/sub/sparse_dir");
        assert_eq!(sparse.unwrap()["frame"]["kind"], "sparse");
        let store = lines.iter().find(|l| l["path"] == "data/sub/store_dir");
        assert_eq!(store.unwrap()["kind"], "DictStore");
    }
}

#[test]
fn directories_and_files_mix_in_the_order_given() {
    let user = UserFiles::new("scan-mix");
    let out = user.run(["show", "--json", "array.b2nd", "data", "sparse.b2nd"]);
    out.assert_ok();
    let mut want = vec!["array.b2nd"];
    want.extend(SHOWN);
    want.push("sparse.b2nd");
    assert_eq!(paths(&out.json_lines()), want);
}

#[test]
fn the_human_view_of_a_directory_names_the_same_paths() {
    let user = UserFiles::new("scan-human");
    let out = user.run(["show", "--human", "-r", "data"]);
    out.assert_ok();
    let firsts: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split(": ").next().unwrap())
        .collect();
    let want: Vec<&str> = SHOWN.iter().chain(&SHOWN_WITH_R).copied().collect();
    assert_eq!(firsts, want, "{}", out.stdout);
}

#[test]
fn a_directory_where_nothing_is_found_is_one_error_line() {
    let user = UserFiles::new("scan-none");
    let empty = user.0.join("empty");
    std::fs::create_dir_all(empty.join("deeper")).unwrap();
    std::fs::write(empty.join("deeper/notes.txt"), "text").unwrap();
    let out = user.run(["show", "empty"]);
    out.assert_one_error(
        "b2nd-meta: empty: nothing here is a Blosc2 frame, store or bundle (no \
         chunks.b2frame: not a sparse frame; -r looks in subdirectories)",
    );
    let out = user.run(["show", "-r", "empty"]);
    out.assert_one_error(
        "b2nd-meta: empty: nothing here or below is a Blosc2 frame, store or bundle (no \
         chunks.b2frame: not a sparse frame)",
    );
    // The others are still shown; the status says something failed.
    let out = user.run(["show", "--json", "empty", "array.b2nd"]);
    assert_eq!(out.code, Some(1));
    assert_eq!(paths(&out.json_lines()), ["array.b2nd"]);
}

#[test]
fn a_file_found_by_content_that_does_not_read_is_said() {
    let user = UserFiles::new("scan-broken");
    // A frame's start, cut short: found by its magic, then refused.
    let frame = std::fs::read(user.0.join("array.b2nd")).unwrap();
    std::fs::write(user.0.join("data/cut.bin"), &frame[..40]).unwrap();
    let out = user.run(["show", "--json", "data"]);
    out.assert_one_error("b2nd-meta: data/cut.bin: ");
    assert_eq!(paths(&out.json_lines()), SHOWN);
}
