//! `b2nd-meta set-shape` (issue 11.5), run as a separate process: in-place resizes of
//! contiguous and sparse frames that match python-blosc2's own resize byte for byte,
//! and refusals as exit status 1 with one line, the file untouched.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::data_path;
use common::scratch::Scratch;

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
    let grid: Vec<String> = common::frame::grid_filled(&meta)
        .iter()
        .map(u64::to_string)
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
        (not_a_frame.0.clone(), "not a Blosc2 frame"),
        (missing, "cannot open"),
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
        .contains("b2nd-meta set-shape --dry-run array.b2nd 12,8"));
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("b2nd-meta set-shape"));
    // Malformed shapes are usage errors (exit 2), as for every command.
    let out = set_shape(Path::new("x.b2nd"), "12,x", false);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("axis 1 (\"x\") is not an integer"),
        "{}",
        out.stderr
    );
}

#[test]
#[clippy::msrv = "1.89"]
fn two_writer_processes_and_a_reader_never_see_a_broken_header() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    const SHAPES: [&str; 4] = ["10,7", "12,8", "9,5", "11,6"];
    const PER_WRITER: usize = 150;
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "processes");
    let path = Arc::new(scratch.0.clone());
    let before = std::fs::read(&scratch.0).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..2)
        .map(|w| {
            let path = Arc::clone(&path);
            std::thread::spawn(move || {
                for i in 0..PER_WRITER {
                    let out = set_shape(&path, SHAPES[(i + w) % SHAPES.len()], false);
                    assert_eq!(out.code, Some(0), "{}", out.stderr);
                }
            })
        })
        .collect();
    let reader = {
        let path = Arc::clone(&path);
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let mut reads = 0;
            while !done.load(Ordering::Relaxed) || reads == 0 {
                let file = std::fs::File::open(&*path).unwrap();
                file.lock_shared().unwrap();
                let bytes = std::fs::read(&*path).unwrap();
                drop(file);
                assert_eq!(bytes.len(), before.len());
                let meta = b2nd_meta::frame::parse_header(&bytes)
                    .unwrap()
                    .array_meta()
                    .unwrap();
                let shape = format!("{},{}", meta.shape()[0], meta.shape()[1]);
                assert!(SHAPES.contains(&shape.as_str()), "{shape}");
                reads += 1;
            }
            reads
        })
    };
    for w in writers {
        w.join().unwrap();
    }
    done.store(true, Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
}

#[test]
fn a_killed_set_shape_leaves_the_old_or_the_new_shape() {
    // SIGKILL at delays spread over a run's lifetime (0 to 3 ms after the spawn): the
    // file always parses, with every byte outside the shape entries as it was and the
    // shape one of the two.
    let scratch = Scratch::of("corpus/rewrite_2d_before.b2nd", "kill");
    let before = std::fs::read(&scratch.0).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..200u64 {
        let shape = if i % 2 == 0 { "12,8" } else { "10,7" };
        let mut child = Command::new(BIN)
            .args(["set-shape".as_ref(), scratch.0.as_os_str(), shape.as_ref()])
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros((i * 7919) % 3000));
        let _ = child.kill();
        child.wait().unwrap();
        let bytes = std::fs::read(&scratch.0).unwrap();
        assert_eq!(bytes.len(), before.len());
        let header = b2nd_meta::frame::parse_header(&bytes).unwrap();
        let meta = header.array_meta().unwrap();
        assert!(
            [[10, 7], [12, 8]].contains(&[meta.shape()[0], meta.shape()[1]]),
            "{:?}",
            meta.shape()
        );
        let start = header.array_metalayer().unwrap().content_offset() as usize;
        for (at, (a, b)) in before.iter().zip(&bytes).enumerate() {
            // Only the low bytes of the two shape entries may differ.
            assert!(a == b || at == start + 12 || at == start + 21, "byte {at}");
        }
        seen.insert(meta.shape().to_vec());
    }
    eprintln!("shapes seen after kills: {seen:?}");
}
