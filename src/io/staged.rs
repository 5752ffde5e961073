//! Putting a new file or directory at a path without ever leaving less than was there:
//! the one staging mechanism of the crate's writers, and the rules of what a path given
//! as output may be.
//!
//! [`Out`] looks at the path first (symbolic links followed: the file a link names is
//! what is replaced, the link stays): nothing, a regular file, a directory, or a special
//! file (a FIFO, a device, a socket). [`Staging`] is a new file or directory beside the
//! target, named `.<name>.b2nd-meta.<pid>.<n>.tmp` ([`is_staging_name`]), held under
//! an exclusive `flock` while it lives; [`Staging::commit`] syncs it, renames it over the
//! target (atomic: the path names the old file or the new one at every instant) and
//! syncs the directory. A staging dropped uncommitted removes itself; one left by a
//! killed process is removed by the next writer of the same target
//! ([`sweep_stale`]), which knows it is stale because its lock is free.

use std::ffi::OsString;
use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::file::special_file;
use super::steps::Steps;

/// What a path holds before it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Existing {
    /// Nothing (or a link to nothing is refused before this is reached).
    Nothing,
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A FIFO, a device or a socket: written into, never replaced.
    Special(&'static str),
}

/// A path a writer is asked to write, looked at once before anything is written.
#[derive(Debug)]
pub(crate) struct Out {
    /// Where the file is: the path, or what a symbolic link at it names.
    pub(crate) real: PathBuf,
    pub(crate) existing: Existing,
    metadata: Option<Metadata>,
}

impl Out {
    /// Looks at `path`: a link is followed, a link to nothing refused.
    pub(crate) fn inspect(path: &Path) -> io::Result<Out> {
        let (real, metadata) = match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => (path.to_path_buf(), None),
            Err(e) => return Err(e),
            Ok(md) if md.file_type().is_symlink() => match std::fs::metadata(path) {
                Ok(target) => (std::fs::canonicalize(path)?, Some(target)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    return Err(io::Error::new(
                        io::ErrorKind::NotFound,
                        "a symbolic link to nothing",
                    ));
                }
                Err(e) => return Err(e),
            },
            Ok(md) => (path.to_path_buf(), Some(md)),
        };
        let existing = match &metadata {
            None => Existing::Nothing,
            Some(md) if md.is_file() => Existing::File,
            Some(md) if md.is_dir() => Existing::Directory,
            Some(md) => Existing::Special(special_file(md).unwrap_or("not a regular file")),
        };
        Ok(Out {
            real,
            existing,
            metadata,
        })
    }

    /// The metadata of what is there.
    pub(crate) fn metadata(&self) -> Option<&Metadata> {
        self.metadata.as_ref()
    }

    /// Whether the path names the file `other` describes (the same device and inode):
    /// an output that is the input.
    pub(crate) fn is(&self, other: &Metadata) -> bool {
        self.metadata.as_ref().is_some_and(|md| same(md, other))
    }
}

/// Whether two metadata describe the same file.
#[cfg(unix)]
pub(crate) fn same(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
pub(crate) fn same(_a: &Metadata, _b: &Metadata) -> bool {
    false
}

/// The directory `path` is in (`.` for a bare name).
pub(crate) fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

const STAGING_MARK: &str = ".b2nd-meta.";
const STAGING_END: &str = ".tmp";

/// Whether `name` is a staging name of this crate's writers
/// (`.<name>.b2nd-meta.<pid>.<n>.tmp`): listings pass over it.
///
/// ```
/// use b2nd_meta::io::is_staging_name;
///
/// assert!(is_staging_name(".a.b2nd.b2nd-meta.4242.0.tmp"));
/// assert!(!is_staging_name("a.b2nd"));
/// ```
pub fn is_staging_name(name: &str) -> bool {
    staged_target(name).is_some()
}

/// The target name a staging name stages (`a.b2nd` for `.a.b2nd.b2nd-meta.1.0.tmp`).
fn staged_target(name: &str) -> Option<&str> {
    let rest = name.strip_prefix('.')?.strip_suffix(STAGING_END)?;
    let at = rest.rfind(STAGING_MARK)?;
    let (target, ids) = (&rest[..at], &rest[at + STAGING_MARK.len()..]);
    let (pid, n) = ids.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (!target.is_empty() && digits(pid) && digits(n)).then_some(target)
}

/// A new staging name for `target` (unique in this process).
fn staging_name(target: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut name = OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(std::format!(
        "{STAGING_MARK}{}.{}{STAGING_END}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    target.with_file_name(name)
}

/// Removes the staging files and directories of `target` that a killed process left
/// (their lock is free); those of live writers stay. Returns how many were removed.
pub(crate) fn sweep_stale(target: &Path, steps: &Steps) -> usize {
    let Some(name) = target.file_name().and_then(|n| n.to_str()) else {
        return 0;
    };
    let Ok(entries) = std::fs::read_dir(parent(target)) else {
        return 0;
    };
    let swept = entries.flatten().filter(|e| sweep_if_stale(e, name, steps));
    swept.count()
}

/// Removes `entry` when it is a staging of `target_name` (a name in the same directory)
/// that a killed process left; whether it did. For a writer that lists the directory
/// anyway, and then stages with [`Staging::file_swept`].
pub(crate) fn sweep_if_stale(entry: &std::fs::DirEntry, target_name: &str, steps: &Steps) -> bool {
    let file_name = entry.file_name();
    if file_name.to_str().and_then(staged_target) != Some(target_name) {
        return false;
    }
    let path = entry.path();
    // Ours, and its writer gone: the lock it held while it lived is free.
    let Ok(held) = File::open(&path) else {
        return false;
    };
    if held.try_lock().is_err() {
        return false;
    }
    let gone = match entry.file_type() {
        Ok(t) if t.is_dir() => remove_tree(&path, steps),
        _ => steps.remove_file(&path),
    };
    gone.is_ok()
}

/// Removes a directory of files (a sparse frame's staging: no subdirectories).
pub(crate) fn remove_tree(dir: &Path, steps: &Steps) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        match entry.file_type()?.is_dir() {
            true => remove_tree(&entry.path(), steps)?,
            false => steps.remove_file(&entry.path())?,
        }
    }
    steps.remove_dir(dir)
}

/// A new file or directory being written beside its target, to be renamed over it.
#[derive(Debug)]
pub(crate) struct Staging {
    target: PathBuf,
    path: PathBuf,
    /// The staging file, or the directory opened for its lock.
    file: File,
    is_dir: bool,
    steps: Steps,
    done: bool,
}

impl Staging {
    /// A new staging file for `target` (a real path: see [`Out::real`]), with the mode
    /// and owner of `like` (the file it replaces) when given; stale stagings of the
    /// same target are removed first.
    pub(crate) fn file(
        target: &Path,
        like: Option<&Metadata>,
        steps: &Steps,
    ) -> io::Result<Staging> {
        sweep_stale(target, steps);
        Staging::file_swept(target, like, steps)
    }

    /// As [`Staging::file`], for a writer that removed the stale stagings itself
    /// ([`sweep_if_stale`] over a listing it makes anyway: a sparse frame's directory
    /// holds thousands of chunk files).
    pub(crate) fn file_swept(
        target: &Path,
        like: Option<&Metadata>,
        steps: &Steps,
    ) -> io::Result<Staging> {
        let path = staging_name(target);
        let mut options = OpenOptions::new();
        options.read(true).write(true).create_new(true);
        let file = steps.open(&options, &path)?;
        let staging = Staging {
            target: target.to_path_buf(),
            path,
            file,
            is_dir: false,
            steps: steps.clone(),
            done: false,
        };
        staging.file.try_lock().map_err(lock_error)?;
        if let Some(md) = like {
            keep_owner(&staging.file, md)?;
            staging.file.set_permissions(md.permissions())?;
        }
        Ok(staging)
    }

    /// A new staging directory for `target` (a sparse frame's).
    pub(crate) fn dir(target: &Path, steps: &Steps) -> io::Result<Staging> {
        sweep_stale(target, steps);
        let path = staging_name(target);
        steps.create_dir(&path)?;
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) => {
                let _ = std::fs::remove_dir(&path);
                return Err(e);
            }
        };
        let staging = Staging {
            target: target.to_path_buf(),
            path,
            file,
            is_dir: true,
            steps: steps.clone(),
            done: false,
        };
        staging.file.try_lock().map_err(lock_error)?;
        Ok(staging)
    }

    /// The staging file (for a directory, the directory itself, open for reading).
    pub(crate) fn file_handle(&self) -> &File {
        &self.file
    }

    /// Where the staging is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Syncs the staging (a file's data and metadata; a directory's entries), renames it
    /// over the target, and syncs the target's directory.
    pub(crate) fn commit(mut self) -> io::Result<()> {
        match self.is_dir {
            true => self.steps.sync_dir(&self.path)?,
            false => self.steps.sync_all(&self.file)?,
        }
        self.steps.rename(&self.path, &self.target)?;
        self.done = true;
        self.steps.sync_dir(&parent(&self.target))
    }
}

impl Drop for Staging {
    /// Uncommitted and not stopped by a crash test: nothing is left behind.
    fn drop(&mut self) {
        if self.done || self.steps.stopped() {
            return;
        }
        let _ = match self.is_dir {
            true => remove_tree(&self.path, &Steps::unlimited()),
            false => std::fs::remove_file(&self.path),
        };
    }
}

fn lock_error(e: std::fs::TryLockError) -> io::Error {
    match e {
        std::fs::TryLockError::Error(e) => e,
        std::fs::TryLockError::WouldBlock => {
            io::Error::other("a new staging file is locked by someone else")
        }
    }
}

/// The new file gets the old one's owner and group (a no-op for a file of one's own);
/// when that is not allowed, nothing is replaced.
#[cfg(unix)]
pub(crate) fn keep_owner(new: &File, md: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let now = new.metadata()?;
    if (now.uid(), now.gid()) == (md.uid(), md.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(new, Some(md.uid()), Some(md.gid())).map_err(|e| {
        io::Error::new(
            e.kind(),
            std::format!(
                "the owner (uid {}, gid {}) cannot be kept on a new file: {e}",
                md.uid(),
                md.gid()
            ),
        )
    })
}

#[cfg(not(unix))]
pub(crate) fn keep_owner(_new: &File, _md: &Metadata) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staging_names_are_recognised_and_name_their_target() {
        for (name, target) in [
            (".a.b2nd.b2nd-meta.1.0.tmp", Some("a.b2nd")),
            (".x.b2nd-meta.y.b2nd-meta.22.3.tmp", Some("x.b2nd-meta.y")),
            ("a.b2nd.1.tmp", None),
            (".a.b2nd.b2nd-meta.1.tmp", None),
            (".a.b2nd.b2nd-meta..0.tmp", None),
            (".b2nd-meta.1.0.tmp", None),
            (".a.b2nd-meta.1.x.tmp", None),
        ] {
            assert_eq!(staged_target(name), target, "{name}");
        }
        let made = staging_name(Path::new("d/a.b2nd"));
        let made = made.file_name().unwrap().to_str().unwrap();
        assert_eq!(staged_target(made), Some("a.b2nd"));
    }
}
