//! Special files: refused at once, before anything is opened (a FIFO never blocks).

use std::fs;
use std::path::Path;

use b2nd_meta::frame::{open, rewrite_metalayer, FrameErrorKind};

use crate::scratch;

#[test]
fn special_files_are_refused_at_once() {
    let dir = scratch("special");
    let fifo = dir.join("fifo.b2nd");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let sock = dir.join("socket.b2nd");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    // A directory whose chunks.b2frame is a FIFO.
    let sparse = dir.join("sparse_fifo.b2nd");
    fs::create_dir(&sparse).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(sparse.join("chunks.b2frame"))
        .status()
        .unwrap();
    assert!(status.success());
    for (path, what) in [
        (fifo.as_path(), "a FIFO"),
        (sock.as_path(), "a socket"),
        (Path::new("/dev/null"), "a character device"),
        (sparse.as_path(), "a FIFO"),
    ] {
        let err = open(path).unwrap_err();
        assert!(
            matches!(err.kind(), FrameErrorKind::NotAFile { file_type } if *file_type == what),
            "{}: {err}",
            path.display()
        );
        assert!(err.path().is_some(), "{err}");
        assert!(rewrite_metalayer(path, "b2nd", &[]).is_err());
    }
    // A directory that is not a sparse frame: an I/O error naming chunks.b2frame.
    let empty = dir.join("empty_dir");
    fs::create_dir(&empty).unwrap();
    let err = open(&empty).unwrap_err();
    assert!(matches!(err.kind(), FrameErrorKind::Io(_)), "{err}");
    assert!(err.path().unwrap().ends_with("chunks.b2frame"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}
