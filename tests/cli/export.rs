//! `export`: every fixture of tests/data/arrays written as numpy's `.npy` of python's
//! values (np.save's header, recorded by the generator, then the values), to stdout and
//! to a file; its refusals one line on stderr.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::common::unhex;
use crate::BIN;

fn arrays(producer: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/arrays")
        .join(producer)
}

/// Runs `b2nd-meta export` with `args`: exit code, stdout bytes, stderr.
fn export(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(BIN).arg("export").args(args).output().unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn every_fixture_exports_as_numpy_saves_pythons_values() {
    for producer in ["blosc2-4.14.1", "blosc2-3.0.0", "blosc2-2.7.1"] {
        let manifest: Value = serde_json::from_str(
            &std::fs::read_to_string(arrays(producer).join("manifest.json")).unwrap(),
        )
        .unwrap();
        for f in manifest["fixtures"].as_array().unwrap() {
            let id = f["id"].as_str().unwrap();
            let path = arrays(producer).join(f["path"].as_str().unwrap());
            let mut args = vec![path.to_str().unwrap(), "-o", "-"];
            if let Some(key) = f["key"].as_str() {
                args.extend(["--key", key]);
            }
            let (code, stdout, stderr) = export(&args);
            assert_eq!(code, Some(0), "{id}: {stderr}");
            let header = unhex(f["npy_header"].as_str().unwrap());
            let values =
                std::fs::read(arrays(producer).join(f["values"].as_str().unwrap())).unwrap();
            let full = &f["slices"][0];
            assert_eq!(full["spec"], "...");
            assert!(stdout[..header.len()] == header[..], "{id}: header");
            assert!(
                stdout[header.len()..] == values[..full["nbytes"].as_u64().unwrap() as usize],
                "{id}: values"
            );
        }
    }
}

#[test]
fn a_slice_to_a_file() {
    let dir = std::env::temp_dir().join(format!("b2nd-meta-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("plane.npy");
    let src = arrays("blosc2-4.14.1").join("ndim3_f4.b2nd");
    let (code, stdout, stderr) = export(&[
        src.to_str().unwrap(),
        "--slice",
        "2, ::-1",
        "--threads",
        "3",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!((code, stdout.len(), stderr.as_str()), (Some(0), 0, ""));
    let npy = std::fs::read(&out).unwrap();
    let text = String::from_utf8_lossy(&npy[10..128]);
    assert!(
        text.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (6, 5), }"),
        "{text}"
    );
    assert_eq!(npy.len(), 128 + 6 * 5 * 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Refusals, one line each, and no file left behind.
#[test]
fn refusals_are_one_line() {
    let d = arrays("blosc2-4.14.1");
    let p = |name: &str| d.join(name).to_str().unwrap().to_string();
    let cases: &[(&[&str], &str)] = &[
        (
            &[&p("ndim2_u2.b2nd"), "-s", "0, 11", "-o", "-"],
            "--slice \"0, 11\": index 11 is out of bounds for axis 1 with size 11",
        ),
        (
            &[&p("ndim2_u2.b2nd"), "-s", "1:2:0", "-o", "-"],
            "--slice \"1:2:0\": slice step cannot be zero (axis 0)",
        ),
        (
            &[&p("ndim2_u2.b2nd"), "-s", "x", "-o", "-"],
            "--slice \"x\": expected an integer, found 'x' at byte 0",
        ),
        (
            &[&p("store_dict.b2z"), "-k", "/nope", "-o", "-"],
            "no node \"/nope\"",
        ),
        (
            &[&p("store_tree.b2z"), "-k", "/g", "-o", "-"],
            "expected an NDArray, found a group",
        ),
    ];
    for (args, message) in cases {
        let (code, stdout, stderr) = export(args);
        assert_eq!(code, Some(1), "{args:?}");
        assert!(stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.trim_end().ends_with(message), "{stderr}");
        assert!(stderr.starts_with("b2nd-meta: "), "{stderr}");
    }
    // Chunks of variable-length blocks decode (as C-Blosc2 3.3.5 decodes them).
    let out = std::env::temp_dir().join(format!("b2nd-meta-export-vl-{}.npy", std::process::id()));
    let (code, _, stderr) = export(&[&p("vlblocks_uneven.b2nd"), "-o", out.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(std::fs::read(&out).unwrap().starts_with(b"\x93NUMPY"));
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn help_shows_an_example() {
    let out = Command::new(BIN)
        .args(["export", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("b2nd-meta export array.b2nd -o array.npy"),
        "{help}"
    );
    assert!(help.contains("--slice"));
}
