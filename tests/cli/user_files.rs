//! A directory laid out as a user's: the file names the help's examples use
//! (`array.b2nd`, `sparse.b2nd`, `store.b2z`, `array.npy`, `data/`), copies of python-blosc2 files,
//! and the commands run in it.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::data_path;
use crate::{Run, BIN};

/// The directory, removed on drop.
pub struct UserFiles(pub PathBuf);

/// What `show data/` shows, in name order: a frame, a frame and a bundle whose names
/// say nothing (not `fake.b2nd`, text, `other.zip`, an empty zip, or `.hidden.b2nd`).
pub const SHOWN: [&str; 3] = ["data/bundle.zip", "data/one.b2nd", "data/renamed.dat"];
/// What `show -r data/` shows after them, from `data/sub/` (not through `sub/up`, a
/// link to `data/`): a frame, a sparse frame and a store directory, none by suffix.
pub const SHOWN_WITH_R: [&str; 3] = [
    "data/sub/deep.b2frame",
    "data/sub/sparse_dir",
    "data/sub/store_dir",
];

impl UserFiles {
    pub fn new(tag: &str) -> UserFiles {
        let root =
            std::env::temp_dir().join(format!("b2nd-meta-cli-{}-user-{tag}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let put = |from: &str, to: &str| copy(&data_path(from), &root.join(to));
        put("corpus/rewrite_2d_before.b2nd", "array.b2nd");
        put("corpus/sparse_2d.b2nd", "sparse.b2nd");
        put("arrays/blosc2-4.14.1/store_dict.b2z", "store.b2z");
        put("npy/v1_f8.npy", "array.npy");
        // data/: found by content, not by name.
        put("corpus/ndim2_i4.b2nd", "data/one.b2nd");
        put("corpus/ndim1_f8.b2nd", "data/renamed.dat");
        put("arrays/blosc2-4.14.1/store_dict.b2z", "data/bundle.zip");
        put("corpus/ndim2_i4.b2nd", "data/.hidden.b2nd");
        put("corpus/ndim0_i8.b2nd", "data/sub/deep.b2frame");
        put("frame/sparse.b2nd", "data/sub/sparse_dir");
        put(
            "containers/blosc2-4.14.1/dict_one.b2d",
            "data/sub/store_dir",
        );
        fs::write(root.join("data/readme.txt"), "not an array\n").unwrap();
        fs::write(root.join("data/fake.b2nd"), "a suffix is not a frame\n").unwrap();
        // An empty zip (its end of central directory only): a zip, not a bundle.
        let mut empty_zip = b"PK\x05\x06".to_vec();
        empty_zip.resize(22, 0);
        fs::write(root.join("data/other.zip"), empty_zip).unwrap();
        // A link back up: -r must not follow it.
        std::os::unix::fs::symlink("..", root.join("data/sub/up")).unwrap();
        UserFiles(root)
    }

    /// Runs b2nd-meta with `args` in this directory, stdin empty, output captured.
    pub fn run<I, S>(&self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let out = Command::new(BIN)
            .args(args)
            .current_dir(&self.0)
            .stdin(Stdio::null())
            .output()
            .expect("spawn b2nd-meta");
        Run {
            code: out.status.code(),
            stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        }
    }
}

impl Drop for UserFiles {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Copies a file, or a directory and everything in it, creating `to`'s parents.
fn copy(from: &Path, to: &Path) {
    fs::create_dir_all(to.parent().unwrap()).unwrap();
    if from.is_dir() {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        fs::copy(from, to).unwrap();
    }
}
