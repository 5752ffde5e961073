//! Writes that stop, as a crash would, when their budget is spent: the one way the
//! trailer writers touch files, so that the crash tests (`update_stopping_after`) can
//! stop them between any two units of work.

use std::fs::File;
use std::path::Path;

/// The units of work left before the "crash".
pub(super) struct Budget {
    left: u64,
    /// Whether the budget ran out (a simulated crash: nothing is cleaned up after it).
    pub(super) stopped: bool,
}

impl Budget {
    pub(super) fn new(left: u64) -> Budget {
        Budget {
            left,
            stopped: false,
        }
    }

    fn spend(&mut self, units: u64) -> std::io::Result<u64> {
        if self.left == 0 {
            self.stopped = true;
            return Err(std::io::Error::other("stopped (crash test)"));
        }
        let spent = units.min(self.left);
        self.left -= spent;
        Ok(spent)
    }

    /// One unit per byte.
    pub(super) fn write(&mut self, file: &File, at: u64, bytes: &[u8]) -> std::io::Result<()> {
        let k = self.spend(bytes.len() as u64)? as usize;
        crate::io::write_all_at(file, bytes.get(..k).unwrap_or(bytes), at)?;
        if k < bytes.len() {
            self.stopped = true;
            return Err(std::io::Error::other("stopped (crash test)"));
        }
        Ok(())
    }

    /// An 8-byte write at an 8-aligned offset of the first sector: one unit, all or
    /// nothing (storage tears writes at sector boundaries, not inside one).
    pub(super) fn flip(&mut self, file: &File, at: u64, bytes: &[u8; 8]) -> std::io::Result<()> {
        self.spend(1)?;
        crate::io::write_all_at(file, bytes, at)
    }

    pub(super) fn sync(&mut self, file: &File) -> std::io::Result<()> {
        self.spend(1)?;
        file.sync_data()
    }

    /// Data and metadata (the length, the mode, the owner) of a new file.
    pub(super) fn sync_all(&mut self, file: &File) -> std::io::Result<()> {
        self.spend(1)?;
        file.sync_all()
    }

    pub(super) fn truncate(&mut self, file: &File, len: u64) -> std::io::Result<()> {
        self.spend(1)?;
        if file.metadata()?.len() > len {
            file.set_len(len)?;
        }
        Ok(())
    }

    pub(super) fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        self.spend(1)?;
        std::fs::rename(from, to)
    }

    /// Makes a rename in `dir` durable (on Unix: `fsync` of the directory).
    pub(super) fn sync_dir(&mut self, dir: &Path) -> std::io::Result<()> {
        self.spend(1)?;
        crate::io::sync_dir(dir)
    }
}
