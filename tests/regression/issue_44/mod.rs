//! Issue 44 (writes that never lose data): each finding of the audit, one test, run
//! through the command line on python-blosc2's files and the crafted ones of
//! tests/data/regression/issue44.py (`bad.b2nd`, `late.b2nd`, `many.b2nd`).
//!
//! The findings proven elsewhere, where their layer's tests live: every writer stopped
//! at every step (a sparse frame replaced with never a moment without one) in
//! tests/cli/crash.rs; the pipelines python-blosc2 reads back, recorded against python,
//! in tests/array_write/pipelines.rs; staging and its sweep in
//! tests/array_write/staging.rs.

mod export;
mod import;
mod messages;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_b2nd-meta");

/// A directory of its own for one test, removed on drop.
pub struct Dir(pub PathBuf);

impl Dir {
    pub fn new(tag: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("b2nd-meta-issue44-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The names in it that are not `kept` (stagings a command left, say).
    pub fn others(&self, kept: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !kept.contains(&n.as_str()))
            .collect();
        names.sort();
        names
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `b2nd-meta args...`, stdin empty.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// The one line on stderr of a run that failed with exit status 1.
pub fn failed(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// Runs and checks it succeeded.
pub fn ok<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    let out = run(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A `.npy` of the bytes `values`, as uint8, one axis.
pub fn npy_u1(path: &Path, values: &[u8]) {
    let bytes = [
        crate::common::npy::header("|u1", &[values.len()]),
        values.to_vec(),
    ]
    .concat();
    std::fs::write(path, bytes).unwrap();
}

/// A `.npy` of `n` little-endian int32, 0..n, in C order and shape `shape`.
pub fn npy_i4(path: &Path, shape: &[usize]) {
    crate::common::npy::write_i4(path, shape, |i| i);
}

/// `arr[slice]` of the array at `path`, as `show --slice` prints it.
pub fn values(path: &Path, slice: &str) -> String {
    let out = ok(&[
        "show".as_ref(),
        "--slice".as_ref(),
        slice.as_ref(),
        path.as_os_str(),
    ]);
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}
