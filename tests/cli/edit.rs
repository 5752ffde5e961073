//! `b2nd-meta write`, `resize` and `append` (issue 45), run as a separate process: one
//! line on stderr and exit status 1 when an edit is refused, the array untouched; nothing
//! printed and exit status 0 when it is done. The values are tests/data/edit/'s bases
//! and inputs (what those edits make is tests/array_write/edit.rs's subject).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common;

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

/// A copy of `tests/data/<relative>` (a file, or a directory and all under it) in a
/// directory of its own, removed on drop.
struct Copy {
    dir: PathBuf,
    path: PathBuf,
}

impl Copy {
    fn of(relative: &str, tag: &str) -> Copy {
        let dir =
            std::env::temp_dir().join(format!("b2nd-meta-cli-edit-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let src = common::data_path(relative);
        let path = dir.join(src.file_name().unwrap());
        copy(&src, &path);
        Copy { dir, path }
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// Every file under `path` (or `path` itself) with its bytes, sorted.
fn contents(path: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    if path.is_file() {
        return vec![(path.to_path_buf(), std::fs::read(path).unwrap())];
    }
    let mut all: Vec<_> = std::fs::read_dir(path)
        .unwrap()
        .flat_map(|e| contents(&e.unwrap().path()))
        .collect();
    all.sort();
    all
}

/// Runs `b2nd-meta ARGS` on a copy of `base` (`{}` in ARGS), the values read from
/// tests/data/edit/inputs/ (or stdin, for `-`): exit status, stdout, stderr, and whether
/// the copy changed.
fn run(base: &str, args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String, bool) {
    let tag = args.join("_").replace(['/', ' ', ',', ':', '.'], "-");
    let target = Copy::of(base, &tag);
    let before = contents(&target.path);
    let inputs = common::data_path("edit/inputs");
    let args: Vec<String> = args
        .iter()
        .map(|a| match *a {
            // Named from the directory it runs in, as the line names it.
            "{}" => target
                .path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned(),
            a if a.ends_with(".npy") => inputs.join(a).to_string_lossy().into_owned(),
            a => a.to_string(),
        })
        .collect();
    let mut child = Command::new(BIN)
        .args(&args)
        .current_dir(&target.dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn b2nd-meta");
    let mut input = child.stdin.take().unwrap();
    if let Some(npy) = stdin {
        std::io::Write::write_all(&mut input, &std::fs::read(inputs.join(npy)).unwrap()).unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    let changed = contents(&target.path) != before;
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        changed,
    )
}

const I4: &str = "edit/base/i4_1d.b2nd"; // int32 (29,)
const F8: &str = "edit/base/f8_2d.b2nd"; // float64 (30, 20)
const STORE: &str = "containers/blosc2-4.14.1/dict.b2d"; // /tiny embedded, /dir1/big a file
const I4_5: &str = "i4_append_0.npy"; // int32 (5,)
const F8_20: &str = "f8_write_row_broadcast_0.npy"; // float64 (20,)
const F8_30X4: &str = "f8_append_axis1_0.npy"; // float64 (30, 4)
const U1_0D: &str = "u1_write_ellipsis_middle_0.npy"; // uint8 ()

#[test]
fn a_refused_edit_says_why_in_one_line_and_leaves_the_array() {
    #[rustfmt::skip]
    let cases: &[(&str, &[&str], &str)] = &[
        (I4, &["write", "{}", F8_20],
         "the values' dtype <f8 is not the array's <i4 (convert it first, e.g. numpy's astype)"),
        (I4, &["append", "{}", F8_20],
         "the values' dtype <f8 is not the array's <i4 (convert it first, e.g. numpy's astype)"),
        (I4, &["write", "{}", "--slice", "0:4", I4_5],
         "could not broadcast input array from shape [5] into shape [4]"),
        (F8, &["write", "{}", "--slice", "0", F8_30X4],
         "could not broadcast input array from shape [30, 4] into shape [20]"),
        (I4, &["write", "{}", "--slice", "40", I4_5],
         "index 40 is out of bounds for axis 0 with size 29"),
        (I4, &["write", "{}", "--slice", "::0", I4_5],
         "slice step cannot be zero (axis 0)"),
        (I4, &["append", "{}", "--axis", "1", I4_5],
         "--axis 1: the array has 1 dimension"),
        (F8, &["append", "{}", "--axis", "2", F8_30X4],
         "--axis 2: the array has 2 dimensions"),
        (F8, &["append", "{}", F8_30X4],
         "the values' shape [30, 4] does not extend the array's [30, 20] along axis 0: expected [N, 20]"),
        (F8, &["append", "{}", F8_20],
         "the values' shape [20] does not extend the array's [30, 20] along axis 0: expected [N, 20]"),
        (F8, &["resize", "{}", "3"],
         "the new shape has 1 length, the array 2 dimensions"),
        (I4, &["resize", "{}", "3,4"],
         "the new shape has 2 lengths, the array 1 dimension"),
        (STORE, &["write", "{}", "--key", "/tiny", U1_0D],
         "node \"/tiny\" is inside the store's embed file, not a file of its own: only the array files of a .b2d store are changed in place"),
        (STORE, &["resize", "{}", "--key", "/tiny", "5"],
         "node \"/tiny\" is inside the store's embed file, not a file of its own: only the array files of a .b2d store are changed in place"),
        (STORE, &["append", "{}", "--key", "/nope", U1_0D],
         "no node \"/nope\" in this store"),
    ];
    for (base, args, line) in cases {
        let (code, stdout, stderr, changed) = run(base, args, None);
        let name = Path::new(base).file_name().unwrap().to_string_lossy();
        let want = format!("b2nd-meta: {name}: {line}\n");
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (Some(1), "", want.as_str()),
            "{args:?}"
        );
        assert!(!changed, "{args:?} changed the array");
    }
}

#[test]
fn a_done_edit_prints_nothing() {
    #[rustfmt::skip]
    let cases: &[(&str, &[&str], Option<&str>)] = &[
        (I4, &["write", "{}", "--slice", "2:7", I4_5], None),
        (I4, &["write", "{}", "--slice", "::-6", "-"], Some(I4_5)),
        (I4, &["resize", "{}", "45"], None),
        (I4, &["append", "{}", I4_5], None),
        (I4, &["append", "{}", "-"], Some(I4_5)),
        (F8, &["write", "{}", "--slice", "::7", F8_20], None),
        (F8, &["append", "{}", "--axis", "1", F8_30X4], None),
        (F8, &["resize", "{}", "49,33"], None),
        ("edit/base/i4_1d_sparse.b2nd", &["append", "{}", I4_5], None),
        (STORE, &["resize", "{}", "--key", "/dir1/big", "300"], None),
    ];
    for (base, args, stdin) in cases {
        let (code, stdout, stderr, changed) = run(base, args, *stdin);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (Some(0), "", ""),
            "{args:?}"
        );
        assert!(changed, "{args:?} left the array as it was");
    }
}
