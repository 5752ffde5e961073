//! Writing new arrays (`b2nd_meta::array::write`), against python-blosc2 and C-Blosc2:
//! the chunk and block shapes python chooses; every kind of array written and read back
//! by our reader and by C-Blosc2 3.3.5; python-blosc2's own reading of and work on files
//! we wrote (fixtures); refusals; the staging and replacing of the target; a property
//! test of random arrays and parameters. And arrays changed in place (`edit`: writes,
//! resizes and appends against numpy and python-blosc2).

mod c_b2nd;
mod cases;
mod defaults;
mod edit;
mod like;
mod pipelines;
mod props;
mod python;
mod refusals;
mod roundtrip;
mod staging;

use std::path::PathBuf;

/// A directory of the test's own under the temporary directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "b2nd-meta-array-write-{}-{tag}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
