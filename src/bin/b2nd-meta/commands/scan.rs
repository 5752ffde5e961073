//! `show DIR`: the frames, sparse frames, stores and bundles in a directory, found by
//! their content (`container::sniff`: a frame's magic, a zip holding `embed.b2e`, a
//! directory holding `chunks.b2frame` or `embed.b2e`), never by their suffix; with
//! `-r`, in its subdirectories too. Entries go in name order; hidden ones (`.name`) and
//! symbolic links to directories are passed over, as `fd` does; a sparse frame or a
//! store directory is shown whole, not looked into.

use std::fs;
use std::path::{Path, PathBuf};

use b2nd_meta::container::{sniff, Sniffed};

use crate::output::{say, Outcome};
use crate::progress::Progress;

/// What a scan does with each path it finds: shows it, `Ok(false)` when that failed
/// (said on stderr).
pub type Show<'a> = dyn FnMut(&Path) -> Outcome + 'a;

/// Whether `path` is a directory to look into rather than a thing to show (a file is
/// not sniffed: `show` opens it once, to show it).
pub fn is_plain_dir(path: &Path) -> bool {
    path.is_dir() && matches!(sniff(path), Ok(Sniffed::Dir))
}

/// Shows what `dir` holds (and, with `recursive`, its subdirectories); `Ok(false)`
/// when something failed or nothing was found (each said on stderr).
pub fn scan(dir: &Path, recursive: bool, progress: &mut Progress, show: &mut Show) -> Outcome {
    let mut walk = Walk {
        recursive,
        progress,
        found: 0,
        ok: true,
    };
    walk.dir(dir, show)?;
    // Nothing found, and nothing failed to say why.
    if walk.found == 0 && walk.ok {
        walk.progress.clear();
        let (here, hint) = match recursive {
            true => ("here or below", ""),
            false => ("here", "; -r looks in subdirectories"),
        };
        say(
            &dir.to_string_lossy(),
            &format!(
                "nothing {here} is a Blosc2 frame, store or bundle (no chunks.b2frame: \
                 not a sparse frame{hint})"
            ),
        );
        return Ok(false);
    }
    Ok(walk.ok)
}

struct Walk<'p> {
    recursive: bool,
    progress: &'p mut Progress,
    found: u64,
    ok: bool,
}

impl Walk<'_> {
    fn dir(&mut self, dir: &Path, show: &mut Show) -> Result<(), crate::output::Fatal> {
        self.progress.dir();
        let mut entries: Vec<(PathBuf, bool)> = match fs::read_dir(dir) {
            Ok(list) => list
                .filter_map(Result::ok)
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| {
                    let link = e.file_type().is_ok_and(|t| t.is_symlink());
                    (e.path(), link)
                })
                .collect(),
            Err(e) => {
                self.fail(dir, &format!("cannot read the directory: {e}"));
                return Ok(());
            }
        };
        entries.sort();
        for (path, link) in entries {
            self.progress.entry();
            match sniff(&path) {
                Ok(Sniffed::Frame | Sniffed::Bundle | Sniffed::SparseFrame | Sniffed::StoreDir) => {
                    self.found += 1;
                    self.progress.clear();
                    self.ok &= show(&path)?;
                    self.progress.shown();
                }
                Ok(Sniffed::Dir) if self.recursive && !link => self.dir(&path, show)?,
                Ok(_) => {}
                // A dangling link is not a file to show.
                Err(_) if link => {}
                Err(e) => self.fail(&path, &format!("cannot read: {e}")),
            }
        }
        Ok(())
    }

    fn fail(&mut self, path: &Path, message: &str) {
        self.progress.clear();
        say(&path.to_string_lossy(), message);
        self.ok = false;
    }
}
