//! A FIFO named `f.b2nd` inside a `.b2d` directory: `show` blocked forever in `open`
//! (a FIFO without the suffix was skipped). Now it is listed, never opened, with why.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use b2nd_meta::container::{self, ContainerErrorKind, Location};
use b2nd_meta::frame::FrameErrorKind;

use crate::common::data_path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    assert!(std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap()
        .success());
    // Were anything to block on it again, a writer opening it after 10 s unblocks it:
    // the test then fails on the time taken instead of hanging.
    let unblock = path.to_path_buf();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(10));
        let _ = std::fs::OpenOptions::new().write(true).open(unblock);
    });
}

/// A copy of python-blosc2's `dict.b2d` with a FIFO `f.b2nd` (and one without the
/// suffix) in it.
fn store_with_fifos(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "b2nd-meta-issue31-{tag}-{}.b2d",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&data_path("containers/blosc2-4.14.1/dict.b2d"), &dir);
    mkfifo(&dir.join("f.b2nd"));
    mkfifo(&dir.join("dir1/g"));
    dir
}

#[test]
fn a_fifo_in_a_store_directory_is_listed_with_why_and_never_opened() {
    let dir = store_with_fifos("lib");
    let start = Instant::now();
    let c = container::open(&dir).unwrap();
    let f = c
        .find("/f")
        .expect("a .b2nd name is a leaf, as python maps it");
    assert!(
        matches!(&f.location, Location::Invalid { reason } if reason.starts_with("a FIFO, not a regular file")),
        "{:?}",
        f.location
    );
    assert!(
        c.find("/dir1/g").is_none(),
        "a name python probes: not a frame"
    );
    let err = c.entry_info(&f).unwrap_err();
    assert!(err.to_string().contains("a FIFO"), "{err}");

    // A leaf that became a FIFO after the listing is refused before it is opened.
    let big = c.find("/dir1/big").unwrap();
    mkfifo(&dir.join("dir1/big.b2nd"));
    let err = c.entry_info(&big).unwrap_err();
    assert!(
        matches!(err.kind(), ContainerErrorKind::Frame(e) if matches!(e.kind(), FrameErrorKind::NotAFile { file_type: "a FIFO" })),
        "{err}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(feature = "cli")]
#[test]
fn show_lists_a_store_holding_a_fifo_at_once() {
    use super::run::b2nd_meta;
    let dir = store_with_fifos("cli");
    let run = b2nd_meta(&[Path::new("show"), &dir], &[]);
    // One entry does not read: said on stderr, exit 1, every other entry listed.
    run.within_bounds("FIFO f.b2nd in a .b2d", 1);
    assert!(run.time < Duration::from_secs(5), "{:?}", run.time);
    let stdout = run.stdout();
    let f = stdout
        .lines()
        .find(|l| l.contains(r#""key":"/f""#))
        .expect(&stdout);
    assert!(f.contains("a FIFO, not a regular file"), "{f}");
    assert!(stdout.contains(r#""key":"/dir1/big""#), "{stdout}");
    assert!(run.stderr.contains(r#"node "/f""#), "{}", run.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sparse_frames_chunk_file_that_is_a_fifo_is_refused_before_it_is_opened() {
    let dir = std::env::temp_dir().join(format!(
        "b2nd-meta-issue31-sparse-{}.b2nd",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&data_path("frame/sparse.b2nd"), &dir);
    mkfifo(&dir.join("00000000.chunk"));
    let frame = b2nd_meta::frame::open(&dir).unwrap();
    let start = Instant::now();
    let err = frame.data_reader().unwrap().read_chunk(0).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            FrameErrorKind::NotAFile {
                file_type: "a FIFO"
            }
        ),
        "{err}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
