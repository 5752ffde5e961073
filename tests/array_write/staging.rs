//! A new array is written to a staging file (or directory) beside its path,
//! `.<name>.b2nd-meta.<pid>.<n>.tmp`, and put in place in one atomic step: until then
//! the path is untouched; what may be replaced, and by what, follows one rule
//! (frame/writer.rs); a writer that does not finish leaves nothing; a staging a killed
//! writer left is removed by the next writer of the same path.

use b2nd_meta::array::write::NewArray;
use b2nd_meta::array::{Array, ArrayErrorKind, Selection};
use b2nd_meta::frame::FrameErrorKind;
use b2nd_meta::io::{is_staging_name, Steps};

use crate::cases::fixed_caches;
use crate::TempDir;

fn array(sparse: bool) -> NewArray {
    NewArray::new(&[30, 20], "<i2")
        .unwrap()
        .chunks(&[10, 20])
        .caches(fixed_caches())
        .sparse(sparse)
}

fn values(seed: i16) -> Vec<i16> {
    (0..600).map(|i| i as i16 * seed).collect()
}

fn names(dir: &TempDir) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn read(path: &std::path::Path) -> Vec<i16> {
    Array::open(path)
        .unwrap()
        .read::<i16>(&Selection::all())
        .unwrap()
}

/// The frame error under an array error.
fn frame_kind(err: &b2nd_meta::array::ArrayError) -> &FrameErrorKind {
    match err.kind() {
        ArrayErrorKind::Frame(e) => e.kind(),
        other => panic!("not a frame error: {other:?}"),
    }
}

#[test]
fn the_frame_is_staged_beside_the_target_until_it_is_finished() {
    for sparse in [false, true] {
        let dir = TempDir::new(&format!("stage{sparse}"));
        let path = dir.0.join("a.b2nd");
        let mut w = array(sparse).create(&path).unwrap();
        w.write_typed(&values(1)).unwrap();
        let during = names(&dir);
        assert_eq!(during.len(), 1, "{during:?}");
        assert!(is_staging_name(&during[0]) && !path.exists(), "{during:?}");
        w.finish().unwrap();
        assert_eq!(names(&dir), ["a.b2nd"]);
        assert_eq!(path.is_dir(), sparse);
        // Dropped before finishing: nothing is left.
        let other = dir.0.join("b.b2nd");
        let mut w = array(sparse).create(&other).unwrap();
        w.write_typed(&values(2)[..300]).unwrap();
        drop(w);
        assert_eq!(names(&dir), ["a.b2nd"]);
    }
}

#[test]
fn an_existing_frame_is_refused_unless_replacing_is_asked_for() {
    let dir = TempDir::new("exists");
    for sparse in [false, true] {
        let path = dir.0.join(format!("{sparse}.b2nd"));
        array(sparse).write_typed(&path, &values(1)).unwrap();
        let err = array(sparse).write_typed(&path, &values(2)).unwrap_err();
        assert!(matches!(frame_kind(&err), FrameErrorKind::Exists), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "{}: exists, and replacing it was not asked for",
                path.display()
            )
        );
        assert_eq!(read(&path), values(1));
        array(sparse)
            .overwrite(true)
            .write_typed(&path, &values(3))
            .unwrap();
        assert_eq!(read(&path), values(3));
        assert_eq!(path.is_dir(), sparse);
    }
    assert_eq!(names(&dir), ["false.b2nd", "true.b2nd"]);
}

#[test]
fn a_sparse_frame_replaced_keeps_its_directory_and_only_the_new_chunk_files() {
    let dir = TempDir::new("sparse-again");
    let path = dir.0.join("s.b2nd");
    array(true).write_typed(&path, &values(1)).unwrap();
    std::fs::write(path.join(".b2lock"), [0u8; 16]).unwrap();
    array(true)
        .overwrite(true)
        .write_typed(&path, &values(5))
        .unwrap();
    assert_eq!(read(&path), values(5));
    let mut inside: Vec<String> = std::fs::read_dir(&path)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    inside.sort();
    // Three chunks of rows, numbered past the old ones; the sidecar is kept.
    assert_eq!(
        inside,
        [
            ".b2lock",
            "00000003.chunk",
            "00000004.chunk",
            "00000005.chunk",
            "chunks.b2frame"
        ]
    );
}

/// One line a case: what is at the path, the kind written, and what happens.
#[test]
fn what_may_be_replaced_and_by_what() {
    let dir = TempDir::new("rules");
    let file = dir.0.join("file.b2nd");
    let sparse = dir.0.join("sparse.b2nd");
    let plain_dir = dir.0.join("plain");
    std::fs::create_dir(&plain_dir).unwrap();
    std::fs::write(plain_dir.join("keep"), b"keep").unwrap();
    array(false).write_typed(&file, &values(1)).unwrap();
    array(true).write_typed(&sparse, &values(1)).unwrap();
    for (path, to_sparse, expected) in [
        (&file, true, "a file: a sparse frame (a directory) cannot replace it atomically; remove it first"),
        (&sparse, false, "a sparse frame (a directory): a contiguous frame (a file) cannot replace it atomically; remove it first"),
        (&plain_dir, false, "a directory that is not a sparse frame: it is never replaced"),
        (&plain_dir, true, "a directory that is not a sparse frame: it is never replaced"),
    ] {
        let err = array(to_sparse)
            .overwrite(true)
            .write_typed(path, &values(2))
            .unwrap_err();
        assert_eq!(err.to_string(), format!("{}: {expected}", path.display()));
    }
    assert_eq!(read(&file), values(1));
    assert_eq!(read(&sparse), values(1));
    assert_eq!(std::fs::read(plain_dir.join("keep")).unwrap(), b"keep");
    #[cfg(unix)]
    {
        let err = array(false)
            .overwrite(true)
            .write_typed("/dev/null", &values(2))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "/dev/null: a character device: a frame is staged in a new file and renamed into place"
        );
        assert!(std::fs::metadata("/dev/null").is_ok());
    }
}

#[test]
fn a_symbolic_link_stays_and_the_file_it_names_is_replaced() {
    let dir = TempDir::new("link");
    let file = dir.0.join("real.b2nd");
    let link = dir.0.join("link.b2nd");
    array(false).write_typed(&file, &values(1)).unwrap();
    std::os::unix::fs::symlink(&file, &link).unwrap();
    array(false)
        .overwrite(true)
        .write_typed(&link, &values(4))
        .unwrap();
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(read(&file), values(4));
}

#[test]
fn a_staging_a_killed_writer_left_is_removed_by_the_next_writer() {
    for sparse in [false, true] {
        let dir = TempDir::new(&format!("stale{sparse}"));
        let path = dir.0.join("a.b2nd");
        // Stopped before its last step, as a crash would stop it: the staging stays.
        let stopped = array(sparse)
            .steps(Steps::stop_after(6))
            .write_typed(&path, &values(1));
        assert!(stopped.is_err());
        let left = names(&dir);
        assert!(left.len() == 1 && is_staging_name(&left[0]), "{left:?}");
        array(sparse).write_typed(&path, &values(2)).unwrap();
        assert_eq!(names(&dir), ["a.b2nd"]);
        assert_eq!(read(&path), values(2));
    }
}

#[test]
fn an_edit_of_a_sparse_frame_removes_what_killed_editors_left_and_nothing_else() {
    let dir = TempDir::new("edit-stale");
    let path = dir.0.join("a.b2nd");
    array(true).write_typed(&path, &values(1)).unwrap();
    let staging = |n: u32| path.join(format!(".chunks.b2frame.b2nd-meta.{n}.0.tmp"));
    std::fs::write(staging(1), b"left by a killed editor").unwrap();
    let orphan = path.join("000000FF.chunk");
    std::fs::write(&orphan, b"a chunk file no index names").unwrap();
    let live = std::fs::File::create(staging(2)).unwrap();
    live.try_lock().unwrap();
    let mut rw = Array::open_rw(&path).unwrap();
    rw.write(&Selection::parse("0, 0").unwrap(), &[7i16])
        .unwrap();
    drop(rw);
    assert!(!staging(1).exists(), "the stale staging stays");
    assert!(!orphan.exists(), "the orphan chunk file stays");
    assert!(staging(2).exists(), "a live staging was removed");
    let mut expected = values(1);
    expected[0] = 7;
    assert_eq!(read(&path), expected);
}

#[test]
fn a_live_writers_staging_is_left_alone() {
    let dir = TempDir::new("busy");
    let path = dir.0.join("a.b2nd");
    let mut first = array(false).create(&path).unwrap();
    first.write_typed(&values(1)).unwrap();
    // A second writer of the same path while the first is at work: each its own
    // staging, the first's untouched; the last to finish is what the path holds.
    array(false).write_typed(&path, &values(2)).unwrap();
    assert_eq!(names(&dir).len(), 2, "{:?}", names(&dir));
    assert!(first.finish().is_err(), "the path exists now");
    assert_eq!(names(&dir), ["a.b2nd"]);
    assert_eq!(read(&path), values(2));
}
