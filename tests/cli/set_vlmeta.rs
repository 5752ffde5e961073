//! `set-vlmeta` and `del-vlmeta`: values set and deleted as python sees them (the
//! python verdicts are in tests/frame/vlmeta_python.rs), `--dry-run`, and every refusal
//! leaving each byte as it was, with one line on stderr.

use std::path::Path;

use super::{run, run_with, temp_path};
use crate::common::data_path;
use crate::common::scratch::Scratch;

const BASE: &str = "vlmeta_write/base/4.14.1.b2nd";

fn bytes(path: &Path) -> Vec<u8> {
    if path.is_dir() {
        std::fs::read(path.join("chunks.b2frame")).unwrap()
    } else {
        std::fs::read(path).unwrap()
    }
}

fn vlmeta_json(path: &Path) -> serde_json::Value {
    let out = run(["show", path.to_str().unwrap()]);
    out.assert_ok();
    out.json_lines()[0]["vlmeta"].clone()
}

#[test]
fn set_and_delete_read_back_through_show() {
    for base in [BASE, "vlmeta_write/base/2.7.1_sparse.b2nd"] {
        let scratch = Scratch::of(base, "setvl-roundtrip");
        let p = &scratch.0;
        let ps = p.to_str().unwrap();
        run(["set-vlmeta", ps, "units", r#""m/s""#]).assert_ok();
        run_with(
            ["set-vlmeta", ps, "attrs", "-"],
            Some(r#"{"scale": 0.5, "tags": ["a", "b"], "raw": {"$bin": "00ff"}}"#),
        )
        .assert_ok();
        run(["del-vlmeta", ps, "existing"]).assert_ok();
        let vl = vlmeta_json(p);
        assert_eq!(vl["units"], "m/s", "{base}");
        assert_eq!(vl["attrs"]["tags"], serde_json::json!(["a", "b"]), "{base}");
        assert_eq!(
            vl["attrs"]["raw"],
            serde_json::json!({"$bin": "00ff"}),
            "{base}"
        );
        // (serde_json's map sorts keys; the order is checked against C in tests/frame.)
        assert_eq!(
            vl.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["attrs", "n", "units"],
            "{base}"
        );
    }
}

#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let scratch = Scratch::of(BASE, "setvl-dry");
    let p = &scratch.0;
    let ps = p.to_str().unwrap();
    let before = bytes(p);
    let out = run(["set-vlmeta", "--dry-run", ps, "units", r#""m/s""#]);
    out.assert_ok();
    let plan = &out.json_lines()[0];
    assert_eq!(plan["added"], serde_json::json!(["units"]));
    assert_eq!(plan["names"], serde_json::json!(["existing", "n", "units"]));
    assert_eq!(plan["changed"], true);
    let out = run(["del-vlmeta", "--dry-run", ps, "n"]);
    out.assert_ok();
    assert_eq!(out.json_lines()[0]["deleted"], serde_json::json!(["n"]));
    assert_eq!(bytes(p), before);
}

#[test]
fn an_empty_frame_takes_vlmeta_too() {
    // nbytes == 0: C reads the trailer right after the header; it is rewritten there.
    let scratch = Scratch::of("corpus/bigaxis_emptyaxis.b2nd", "setvl-empty");
    let p = &scratch.0;
    let ps = p.to_str().unwrap();
    run(["set-vlmeta", ps, "k", "[1, 2]"]).assert_ok();
    run([
        "set-vlmeta",
        ps,
        "s",
        r#""a longer value than the first one""#,
    ])
    .assert_ok();
    run(["del-vlmeta", ps, "k"]).assert_ok();
    let vl = vlmeta_json(p);
    assert_eq!(
        vl,
        serde_json::json!({"s": "a longer value than the first one"})
    );
}

/// Each refusal: exit 1, one line containing `needle`, the file as it was.
fn refused(path: &Path, args: &[&str], stdin: Option<&str>, needle: &str) {
    let before = bytes(path);
    run_with(args, stdin).assert_one_error(needle);
    assert_eq!(bytes(path), before, "{args:?}");
}

#[test]
fn bad_input_is_refused_and_leaves_every_byte() {
    let scratch = Scratch::of(BASE, "setvl-refuse");
    let p = &scratch.0;
    let ps = p.to_str().unwrap();
    let long = "n".repeat(32);
    refused(p, &["set-vlmeta", ps, &long, "1"], None, "at most 31");
    refused(p, &["set-vlmeta", ps, "k", "{not json"], None, "not JSON");
    refused(
        p,
        &["del-vlmeta", ps, "nope"],
        None,
        "no vlmetalayer named \"nope\"",
    );
    for i in 0..14 {
        run(["set-vlmeta", ps, &format!("k{i:02}"), "1"]).assert_ok();
    }
    refused(p, &["set-vlmeta", ps, "k14", "1"], None, "at most 16");
    // Replacing one of the 16 is fine.
    run(["set-vlmeta", ps, "k00", "2"]).assert_ok();
}

#[test]
fn damaged_frames_are_refused_and_left_as_they_are() {
    let base = std::fs::read(data_path(BASE)).unwrap();
    let frame_len = base.len();
    let trailer_len = u32::from_be_bytes(base[frame_len - 22..frame_len - 18].try_into().unwrap());
    let trailer_at = frame_len - trailer_len as usize;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", base[..frame_len - 1].to_vec(), "truncated"),
        (
            "trailer",
            {
                let mut b = base.clone();
                b[trailer_at] = 0x00;
                b
            },
            "fixarray of 4",
        ),
        (
            "fingerprint",
            {
                // A fingerprint type C never writes: not rewritten.
                let mut b = base.clone();
                b[frame_len - 17] = 3;
                b
            },
            "not as C-Blosc2 writes it",
        ),
        (
            "notaframe",
            b"root:x:0:0:root:/root:/bin/bash\n".to_vec(),
            "magic",
        ),
    ];
    for (tag, content, needle) in cases {
        let p = temp_path(&format!("setvl-damaged-{tag}"));
        std::fs::write(&p, &content).unwrap();
        refused(
            &p,
            &["set-vlmeta", p.to_str().unwrap(), "k", "1"],
            None,
            needle,
        );
        refused(&p, &["del-vlmeta", p.to_str().unwrap(), "n"], None, needle);
        std::fs::remove_file(&p).unwrap();
    }
    let missing = temp_path("setvl-missing");
    run(["set-vlmeta", missing.to_str().unwrap(), "k", "1"]).assert_one_error("No such file");
}

#[test]
fn a_read_only_file_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::of(BASE, "setvl-readonly");
    let p = &scratch.0;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o444)).unwrap();
    if std::fs::OpenOptions::new().write(true).open(p).is_ok() {
        // Root writes to any file: nothing to test here.
        eprintln!("skipped: this user can write read-only files (root?)");
        return;
    }
    refused(
        p,
        &["set-vlmeta", p.to_str().unwrap(), "k", "1"],
        None,
        "Permission denied",
    );
}
