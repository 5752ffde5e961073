//! `show -`: standard input, copied where a frame can be read (as decode, encode and
//! set-meta read it).
//!
//! `show` reads a frame's header at its start and its trailer at its end, so standard
//! input (a pipe, which cannot seek) is first copied to a new temporary file, shown
//! under the name `-`, and removed.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::output::{fatal, say, Fatal};

/// A file created for this run only, removed when dropped.
pub struct Spool(PathBuf);

impl Spool {
    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// A new file in the temporary directory that no one else has opened (`create_new`).
fn spool() -> io::Result<(Spool, File)> {
    let dir = std::env::temp_dir();
    let pid = std::process::id();
    let mut attempt = 0u32;
    loop {
        let path = dir.join(format!("b2nd-meta-stdin-{pid}-{attempt}.b2nd"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((Spool(path), file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => attempt += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Standard input copied to a new temporary file (removed when dropped); `None` when
/// stdin does not read (said on stderr).
pub fn copy() -> Result<Option<Spool>, Fatal> {
    let (spool, mut file) =
        spool().map_err(|e| fatal("-", format!("cannot copy stdin to a temporary file: {e}")))?;
    if let Err(e) = io::copy(&mut io::stdin().lock(), &mut file).and_then(|_| file.flush()) {
        say("-", &format!("cannot read stdin: {e}"));
        return Ok(None);
    }
    Ok(Some(spool))
}
