//! `b2nd-meta set-shape` (issue 11.5), run as a separate process: in-place resizes of
//! contiguous and sparse frames that match python-blosc2's own resize byte for byte,
//! and refusals as exit status 1 with one line, the file untouched.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::data_path;

const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(args: &[&std::ffi::OsStr]) -> Run {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("spawn b2nd-meta");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn set_shape(path: &Path, shape: &str, dry_run: bool) -> Run {
    let mut args: Vec<&std::ffi::OsStr> = vec!["set-shape".as_ref()];
    if dry_run {
        args.push("--dry-run".as_ref());
    }
    args.push(path.as_os_str());
    args.push(shape.as_ref());
    run(&args)
}

/// A copy of a test file or sparse directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn of(relative: &str, tag: &str) -> Scratch {
        let src = data_path(relative);
        let dst =
            std::env::temp_dir().join(format!("b2nd-meta-cli-ss-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dst);
        if src.is_dir() {
            std::fs::create_dir_all(&dst).unwrap();
            for entry in std::fs::read_dir(&src).unwrap() {
                let entry = entry.unwrap();
                std::fs::copy(entry.path(), dst.join(entry.file_name())).unwrap();
            }
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
        Scratch(dst)
    }

    fn header_file(&self) -> PathBuf {
        if self.0.is_dir() {
            self.0.join("chunks.b2frame")
        } else {
            self.0.clone()
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn set_shape_matches_python_blosc2_resize_on_the_rewrite_pairs() {
    // tests/data/generate.py resized the "before" files with python-blosc2 and checked
    // the "after" ones open with the new shape (manifest "rewrites").
    for (before, after, shape) in [
        (
            "corpus/rewrite_2d_before.b2nd",
            "corpus/rewrite_2d_after.b2nd",
            "12,8",
        ),
        (
            "corpus/rewrite_3d_before.b2nd",
            "corpus/rewrite_3d_after.b2nd",
            "",
        ),
    ] {
        let manifest = common::manifest();
        let entry = manifest["rewrites"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["before_path"] == before)
            .unwrap();
        let shape = if shape.is_empty() {
            let dims: Vec<String> = entry["new_shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.to_string())
                .collect();
            dims.join(",")
        } else {
            shape.to_owned()
        };
        let scratch = Scratch::of(before, "pair");
        let out = set_shape(&scratch.0, &shape, false);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (Some(0), "", ""),
            "{before}"
        );
        assert_eq!(
            std::fs::read(&scratch.0).unwrap(),
            std::fs::read(data_path(after)).unwrap(),
            "{before}"
        );
    }
}

#[test]
fn set_shape_resizes_a_sparse_frame_in_place() {
    let scratch = Scratch::of("corpus/sparse_2d.b2nd", "sparse");
    let meta = b2nd_meta::frame::open(&scratch.0)
        .unwrap()
        .header
        .array_meta()
        .unwrap();
    let grid: Vec<String> = meta
        .shape()
        .iter()
        .zip(meta.chunkshape())
        .map(|(&s, &c)| {
            (if s == 0 {
                0
            } else {
                (s + i64::from(c) - 1) / i64::from(c) * i64::from(c)
            })
            .to_string()
        })
        .collect();
    let out = set_shape(&scratch.0, &grid.join(","), false);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let now = b2nd_meta::frame::open(&scratch.0)
        .unwrap()
        .header
        .array_meta()
        .unwrap();
    let now: Vec<String> = now.shape().iter().map(i64::to_string).collect();
    assert_eq!(now, grid);
}

#[test]
fn refusals_are_one_line_and_leave_the_file_untouched() {
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "refuse");
    let before = std::fs::read(&scratch.0).unwrap();
    for (shape, needle) in [
        (
            "-1,7",
            "the new length of axis 0 is -1; lengths cannot be negative",
        ),
        ("-1", "the array has 2 dimensions, the new shape 1"),
        ("13,7", "axis 0 would go from 3 to 4 chunks"),
        ("10,4", "axis 1 would go from 2 to 1 chunks"),
        ("10,7,1", "the array has 2 dimensions, the new shape 3"),
        ("", "the array has 2 dimensions, the new shape 0"),
    ] {
        for dry_run in [false, true] {
            let out = set_shape(&scratch.0, shape, dry_run);
            assert_eq!(out.code, Some(1), "{shape}: {}", out.stderr);
            assert_eq!(out.stdout, "");
            let lines: Vec<&str> = out.stderr.lines().collect();
            assert_eq!(lines.len(), 1, "{shape}: {}", out.stderr);
            let prefix = format!("b2nd-meta: {}: ", scratch.0.display());
            assert!(
                lines[0].starts_with(&prefix) && lines[0].contains(needle),
                "{shape}: {}",
                lines[0]
            );
        }
    }
    assert_eq!(std::fs::read(&scratch.0).unwrap(), before);

    // Not a frame, a missing file, a frame without an array (copies: a mistake here
    // must not write into tests/data).
    let not_a_frame = Scratch::of("README.md", "not-a-frame");
    let no_array = Scratch::of("corpus/schunk_no_b2nd.b2frame", "no-array");
    let missing = scratch.0.with_extension("missing");
    for (path, needle) in [
        (not_a_frame.0.clone(), "0x9e"),
        (missing, "cannot read or write"),
        (no_array.0.clone(), "no b2nd or caterva metalayer"),
    ] {
        let out = set_shape(&path, "1", false);
        assert_eq!(out.code, Some(1), "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains(needle), "{}", out.stderr);
    }
}

#[test]
fn a_truncated_frame_is_refused() {
    for (relative, tag) in [
        ("corpus/rewrite_2d_before.b2nd", "cut"),
        ("corpus/sparse_2d.b2nd", "cut-sparse"),
    ] {
        let scratch = Scratch::of(relative, tag);
        let file = scratch.header_file();
        let len = std::fs::metadata(&file).unwrap().len();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len(len - 25)
            .unwrap();
        let cut = std::fs::read(&file).unwrap();
        let shape: Vec<String> = b2nd_meta::frame::open(&scratch.0)
            .unwrap()
            .header
            .array_meta()
            .unwrap()
            .shape()
            .iter()
            .map(i64::to_string)
            .collect();
        for dry_run in [false, true] {
            let out = set_shape(&scratch.0, &shape.join(","), dry_run);
            assert_eq!(out.code, Some(1), "{relative}");
            assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
            let expected = format!("truncated: the header declares {len} bytes");
            assert!(out.stderr.contains(&expected), "{}", out.stderr);
            assert!(
                out.stderr.contains("a frame cut short is not rewritten"),
                "{}",
                out.stderr
            );
        }
        assert_eq!(std::fs::read(&file).unwrap(), cut);
    }
}

#[test]
fn dry_run_prints_the_old_and_new_metalayer_as_decode_does() {
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "dry");
    let before = std::fs::read(&scratch.0).unwrap();
    let out = set_shape(&scratch.0, "12,8", true);
    assert_eq!((out.code, out.stderr.as_str()), (Some(0), ""));
    let lines: Vec<&str> = out.stdout.lines().collect();
    let old = r#"{"layout":"b2nd-v1","version":0,"ndim":2,"shape":[10,7],"chunkshape":[4,4],"blockshape":[2,2],"dtype_format":0,"dtype":"<i4"}"#;
    let new = r#"{"layout":"b2nd-v1","version":0,"ndim":2,"shape":[12,8],"chunkshape":[4,4],"blockshape":[2,2],"dtype_format":0,"dtype":"<i4"}"#;
    assert_eq!(lines, [old, new]);
    assert_eq!(
        std::fs::read(&scratch.0).unwrap(),
        before,
        "nothing written"
    );
    // `decode` of the old content prints the first line.
    let header = b2nd_meta::frame::parse_header(&before).unwrap();
    let hex: String = header
        .array_metalayer()
        .unwrap()
        .content
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let decoded = run(&["decode".as_ref(), hex.as_ref()]);
    assert_eq!(decoded.stdout.trim_end(), old);
}

#[test]
fn help_has_an_example_and_readme_lists_the_command() {
    let help = run(&["set-shape".as_ref(), "--help".as_ref()]);
    assert_eq!(help.code, Some(0));
    assert!(help
        .stdout
        .contains("b2nd-meta set-shape --dry-run tests/data/corpus/rewrite_2d_before.b2nd 12,8"));
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("b2nd-meta set-shape"));
    // Malformed shapes are usage errors (exit 2), as for every command.
    let out = set_shape(Path::new("x.b2nd"), "12,x", false);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("dimension 2 (\"x\") is not an integer"),
        "{}",
        out.stderr
    );
}
