//! Copies of test files for the tests that write, and the sha256 the fixtures record.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// A copy of a file or sparse directory under `tests/data`, in the temporary directory,
/// removed on drop with the `.b2lock` sidecar a write may have created beside a file
/// (a sparse frame's is inside its directory). `tag` tells copies of one test binary
/// apart.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// Copies `tests/data/<relative>` (a file, or a directory's files).
    pub fn of(relative: &str, tag: &str) -> Scratch {
        let src = super::data_path(relative);
        let dst = std::env::temp_dir().join(format!(
            "b2nd-meta-{}-{}-{tag}",
            env!("CARGO_CRATE_NAME"),
            std::process::id()
        ));
        remove(&dst);
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

    /// The file holding the header: the copy itself, or a sparse frame's `chunks.b2frame`.
    pub fn header_file(&self) -> PathBuf {
        if self.0.is_dir() {
            self.0.join("chunks.b2frame")
        } else {
            self.0.clone()
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        remove(&self.0);
        let mut sidecar = self.0.clone().into_os_string();
        sidecar.push(".b2lock");
        remove(Path::new(&sidecar));
    }
}

/// Removes a file or a directory, whichever `path` is, if it exists.
pub fn remove(path: &Path) {
    let _ = std::fs::remove_dir_all(path);
    let _ = std::fs::remove_file(path);
}

/// The sha256 of `data` as lowercase hex, as the fixtures' `after_sha256` fields hold it.
pub fn sha256_hex(data: &[u8]) -> String {
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
