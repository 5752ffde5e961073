//! [`Storage`]: a keyed store of byte objects (a directory of files, a zip archive,
//! memory), the one way the crate reaches the objects of a sparse frame (`chunks.b2frame`,
//! `00000000.chunk`, ...) and of a `.b2d` store. Keys are `/`-separated relative paths.
//!
//! ```
//! use b2nd_meta::io::{Listed, MemoryStorage, ReadAt, Storage};
//!
//! let store = MemoryStorage::default();
//! store.put("a/b.b2nd", b"bytes")?;
//! assert_eq!(store.list("")?, [Listed::dir("a")]);
//! assert_eq!(store.list("a")?, [Listed::object("b.b2nd")]);
//! assert_eq!(store.open("a/b.b2nd")?.size()?, 5);
//! store.remove("a/b.b2nd")?;
//! assert!(store.open("a/b.b2nd").is_err());
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::sync::{Arc, Mutex};
use std::vec::Vec;

use super::read_at::SharedSource;
use super::staged::{is_staging_name, Staging};
use super::steps::Steps;

/// A keyed store of byte objects.
pub trait Storage: Send + Sync + core::fmt::Debug {
    /// What names object `key` in messages (`dir/key`, `store.b2z#key`).
    fn label(&self, key: &str) -> PathBuf;

    /// Object `key`, to be read at offsets. A key that is not a regular object (a
    /// directory, a FIFO, a device) is an error, given before anything could block.
    fn open(&self, key: &str) -> io::Result<SharedSource>;

    /// The names under `dir` (`""`: the top), one level, sorted; staging objects of
    /// writers are passed over.
    fn list(&self, dir: &str) -> io::Result<Vec<Listed>>;

    /// Writes object `key` whole, atomically: readers find the old object or the new
    /// one, never a part.
    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()>;

    /// Writes a new object `key` (refused when one is there), durable when this
    /// returns; not atomic: nothing may name it before it is complete.
    fn create(&self, key: &str, bytes: &[u8]) -> io::Result<()>;

    /// Removes object `key`.
    fn remove(&self, key: &str) -> io::Result<()>;
}

/// Why an object was not opened: it is not a regular file (a FIFO, a device: opening
/// one may block, reading it may never end). Inside the `io::Error` a storage returns.
#[derive(Debug)]
pub struct NotRegular(pub &'static str);

impl core::fmt::Display for NotRegular {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}, not a regular file", self.0)
    }
}

impl std::error::Error for NotRegular {}

/// The error of a write to a storage that takes none (a zip read in place).
pub(crate) fn read_only() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "this storage is read-only")
}

/// A key as a relative path that stays inside its root (no `..`, no absolute path).
fn relative(key: &str) -> io::Result<&Path> {
    let path = Path::new(key);
    let inside = path
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    match inside && !key.is_empty() {
        true => Ok(path),
        false => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            std::format!("{key:?} is not a key inside the storage"),
        )),
    }
}

/// A name under a directory of a [`Storage`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub struct Listed {
    /// The name (one level: no `/`).
    pub name: String,
    /// Whether it is a directory (holding more names), not an object.
    pub is_dir: bool,
    /// What it is when it is neither an object nor a directory (a FIFO, a device):
    /// opening it is refused.
    pub special: Option<&'static str>,
}

impl Listed {
    /// An object.
    pub fn object(name: impl Into<String>) -> Listed {
        Listed {
            name: name.into(),
            is_dir: false,
            special: None,
        }
    }

    /// A directory.
    pub fn dir(name: impl Into<String>) -> Listed {
        Listed {
            name: name.into(),
            is_dir: true,
            special: None,
        }
    }
}

/// The names of `keys` (`/`-separated) under `dir`, one level, sorted, deduplicated.
pub(crate) fn list_keys<'a>(keys: impl Iterator<Item = &'a str>, dir: &str) -> Vec<Listed> {
    let prefix = match dir {
        "" => String::new(),
        _ => std::format!("{}/", dir.trim_end_matches('/')),
    };
    let mut names: Vec<Listed> = keys
        .filter_map(|key| key.strip_prefix(&prefix))
        .map(|rest| match rest.split_once('/') {
            Some((sub, _)) => Listed::dir(sub),
            None => Listed::object(rest),
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A directory of files. Writes are staged beside their object and renamed over it.
#[derive(Debug, Clone)]
pub struct DirStorage {
    root: PathBuf,
    steps: Steps,
}

impl DirStorage {
    /// The directory at `root`.
    pub fn new(root: impl Into<PathBuf>) -> DirStorage {
        DirStorage {
            root: root.into(),
            steps: Steps::unlimited(),
        }
    }

    /// The same directory, its writes taking `steps`.
    pub(crate) fn with_steps(mut self, steps: &Steps) -> DirStorage {
        self.steps = steps.clone();
        self
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// [`Storage::create`] but for its sync: the file, written, for the caller to sync
    /// (with others, [`Steps::sync_data_together`]) before anything points to it.
    pub(crate) fn create_unsynced(&self, key: &str, bytes: &[u8]) -> io::Result<File> {
        let path = self.path(key)?;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        let file = self.steps.open(&options, &path)?;
        self.steps.write(&file, bytes, 0)?;
        Ok(file)
    }

    fn path(&self, key: &str) -> io::Result<PathBuf> {
        Ok(self.root.join(relative(key)?))
    }
}

impl Storage for DirStorage {
    fn label(&self, key: &str) -> PathBuf {
        self.root.join(key)
    }

    fn open(&self, key: &str) -> io::Result<SharedSource> {
        let path = self.path(key)?;
        // A FIFO or a device would block or never end: refused before it is opened.
        let md = std::fs::metadata(&path)?;
        if let Some(what) = super::file::special_file(&md) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                NotRegular(what),
            ));
        }
        Ok(Arc::new(std::fs::File::open(&path)?))
    }

    fn list(&self, dir: &str) -> io::Result<Vec<Listed>> {
        let path = match dir {
            "" => self.root.clone(),
            _ => self.path(dir)?,
        };
        let mut names = Vec::new();
        for entry in std::fs::read_dir(path)? {
            let entry = entry?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if is_staging_name(&name) {
                continue;
            }
            // A link to a directory is not walked into (as `os.walk`); what a link to
            // a file names is what is opened.
            let is_dir = entry.file_type()?.is_dir();
            let special = match is_dir {
                true => None,
                false => std::fs::metadata(entry.path())
                    .ok()
                    .as_ref()
                    .and_then(super::file::special_file),
            };
            names.push(Listed {
                name,
                is_dir,
                special,
            });
        }
        names.sort();
        Ok(names)
    }

    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.path(key)?;
        let like = std::fs::metadata(&path).ok().filter(|md| md.is_file());
        let staging = Staging::file(&path, like.as_ref(), &self.steps)?;
        self.steps.write(staging.file_handle(), bytes, 0)?;
        staging.commit()
    }

    fn create(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        let file = self.create_unsynced(key, bytes)?;
        self.steps.sync_data(&file)
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        self.steps.remove_file(&self.path(key)?)
    }
}

/// Objects in memory.
#[derive(Debug, Default)]
pub struct MemoryStorage(Mutex<BTreeMap<String, Arc<Vec<u8>>>>);

impl MemoryStorage {
    fn objects(&self) -> io::Result<std::sync::MutexGuard<'_, BTreeMap<String, Arc<Vec<u8>>>>> {
        self.0
            .lock()
            .map_err(|_| io::Error::other("a writer panicked"))
    }
}

fn not_found(key: &str) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, std::format!("no object {key:?}"))
}

impl Storage for MemoryStorage {
    fn label(&self, key: &str) -> PathBuf {
        PathBuf::from(key)
    }

    fn open(&self, key: &str) -> io::Result<SharedSource> {
        let object = self.objects()?.get(key).cloned();
        object
            .map(|o| o as SharedSource)
            .ok_or_else(|| not_found(key))
    }

    fn list(&self, dir: &str) -> io::Result<Vec<Listed>> {
        Ok(list_keys(self.objects()?.keys().map(String::as_str), dir))
    }

    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        relative(key)?;
        self.objects()?
            .insert(key.to_string(), Arc::new(bytes.to_vec()));
        Ok(())
    }

    fn create(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        relative(key)?;
        match self.objects()?.entry(key.to_string()) {
            std::collections::btree_map::Entry::Occupied(_) => Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                std::format!("{key:?} exists"),
            )),
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(Arc::new(bytes.to_vec()));
                Ok(())
            }
        }
    }

    fn remove(&self, key: &str) -> io::Result<()> {
        self.objects()?
            .remove(key)
            .map(|_| ())
            .ok_or_else(|| not_found(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::ReadAt;

    #[test]
    fn a_directory_stores_lists_and_removes_and_keeps_keys_inside() {
        let root = std::env::temp_dir().join(std::format!("b2nd-storage-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("sub")).unwrap();
        let dir = DirStorage::new(&root);
        dir.put("sub/a.chunk", b"one").unwrap();
        dir.put("sub/a.chunk", b"two!").unwrap();
        assert_eq!(dir.open("sub/a.chunk").unwrap().size().unwrap(), 4);
        assert_eq!(dir.list("").unwrap(), [Listed::dir("sub")]);
        assert_eq!(dir.list("sub").unwrap(), [Listed::object("a.chunk")]);
        for bad in ["../x", "/etc/passwd", "sub/../../x", ""] {
            assert!(dir.put(bad, b"x").is_err(), "{bad}");
        }
        dir.remove("sub/a.chunk").unwrap();
        assert!(dir.open("sub/a.chunk").is_err());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
