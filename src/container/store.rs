//! DictStore and TreeStore leaves: the files of a `.b2d` directory or the members of a
//! `.b2z` zip (python-blosc2's `_update_map_tree` and `_update_map_tree_from_offsets`),
//! keyed `"/" + relative path minus its extension`; `.b2nd`, `.b2f` and `.b2b` are
//! trusted, other files are leaves when a frame header reads from them (python probes
//! them by opening). Sidecars are not leaves: `*.b2lock` locks, and `<leaf>.<pid>.tmp`
//! staging files a crash left behind.

use std::borrow::ToOwned;
use std::format;
use std::path::Path;
use std::string::{String, ToString};
use std::sync::Arc;
use std::vec::Vec;

use super::error::{ContainerError, ContainerErrorKind};
use super::node::{How, Location};
use super::zip::Member;
use crate::frame::storage_error;
use crate::io::{ReadAt, SharedSource, Storage, Window};

/// The name of the EmbedStore inside every DictStore and TreeStore.
pub const EMBED_NAME: &str = "embed.b2e";
/// The suffixes python-blosc2 gives external leaves: NDArray, SChunk (and
/// ObjectArray), BatchArray (and ListArray).
pub const LEAF_SUFFIXES: [&str; 3] = [".b2nd", ".b2f", ".b2b"];
/// How deep a `.b2d` directory is walked.
const MAX_DEPTH: usize = 64;

/// A sidecar python-blosc2 leaves beside leaves: a lock, or a crash's staging file.
pub(crate) fn sidecar(name: &str) -> Option<&'static str> {
    if name.ends_with(".b2lock") {
        return Some("a lock file (.b2lock)");
    }
    let stem = name.strip_suffix(".tmp")?;
    let (_, pid) = stem.rsplit_once('.')?;
    (!pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        .then_some("a staging file a crash left behind (<leaf>.<pid>.tmp)")
}

/// The key of the leaf at `rel` (`/`-separated): `"/" + rel` minus its extension, as
/// python's `_logical_key_from_relpath` (`os.path.splitext`).
pub(crate) fn key_of(rel: &str) -> String {
    let (dir, file) = rel.rsplit_once('/').map_or(("", rel), |(d, f)| (d, f));
    // splitext: the last dot, ignoring leading dots of the file name.
    let trimmed = file.trim_start_matches('.');
    let stem = match trimmed.rfind('.') {
        Some(i) => &file[..file.len() - trimmed.len() + i],
        None => file,
    };
    let mut key = String::from("/");
    if !dir.is_empty() {
        key.push_str(dir);
        key.push('/');
    }
    key.push_str(stem);
    key
}

fn trusted(name: &str) -> bool {
    LEAF_SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// A leaf found, with where it is, or a note on a file that is not one.
pub(crate) enum Found {
    Leaf(String, Location),
    Skipped(String),
}

/// The leaves of the directory `objects` holds (not following symlinked directories,
/// as `os.walk`), with notes on the sidecars skipped; its files are named with
/// `objects`' labels (the directory's path joined with theirs).
pub(crate) fn walk(objects: &dyn Storage) -> Result<Vec<Found>, ContainerError> {
    let mut found = Vec::new();
    let mut stack = std::vec![(String::new(), 0usize)];
    while let Some((rel, depth)) = stack.pop() {
        let listed = objects
            .list(&rel)
            .map_err(|e| ContainerError::io(e).in_file(&objects.label(&rel)))?;
        for entry in listed {
            let name = entry.name;
            let rel_name = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            if entry.is_dir {
                if depth < MAX_DEPTH {
                    stack.push((rel_name, depth + 1));
                } else {
                    found.push(Found::Skipped(format!(
                        "{rel_name}: deeper than {MAX_DEPTH} levels, not walked"
                    )));
                }
                continue;
            }
            if rel_name == EMBED_NAME {
                continue;
            }
            if let Some(what) = sidecar(&name) {
                found.push(Found::Skipped(format!("{rel_name}: {what}, not a node")));
                continue;
            }
            let path = objects.label(&rel_name);
            // A FIFO is never opened (it would block).
            if let Some(file_type) = entry.special {
                if trusted(&name) {
                    let reason = format!("{file_type}, not a regular file: not opened");
                    found.push(Found::Leaf(key_of(&rel_name), Location::Invalid { reason }));
                }
                continue;
            }
            if trusted(&name) || probe(objects, &rel_name) {
                found.push(Found::Leaf(key_of(&rel_name), Location::External { path }));
            }
        }
    }
    Ok(found)
}

/// Whether a frame header reads from object `key` (python's probe).
fn probe(objects: &dyn Storage, key: &str) -> bool {
    objects
        .open(key)
        .is_ok_and(|src| crate::frame::read_staged(&*src, 0).is_ok())
}

/// The leaves among the members of a zip (stored members only: python leaves
/// compressed ones unmapped), with notes on what was skipped.
pub(crate) fn zip_leaves(
    src: &SharedSource,
    members: &[(String, Result<Member, ContainerError>)],
) -> Vec<Found> {
    let mut found = Vec::new();
    for (name, member) in members {
        if name == EMBED_NAME {
            continue;
        }
        let file = name.rsplit('/').next().unwrap_or(name);
        if let Some(what) = sidecar(file) {
            found.push(Found::Skipped(format!("{name}: {what}, not a node")));
            continue;
        }
        let m = match member {
            Ok(m) => m,
            Err(e) if trusted(file) => {
                let reason = format!("zip member {name:?}: {e}");
                found.push(Found::Leaf(key_of(name), Location::Invalid { reason }));
                continue;
            }
            Err(e) => {
                found.push(Found::Skipped(format!("{name}: {e}")));
                continue;
            }
        };
        if m.method != 0 {
            let e = ContainerErrorKind::Compressed {
                member: name.clone(),
                method: m.method,
            };
            found.push(Found::Skipped(format!(
                "{e}; left out, as python-blosc2 does"
            )));
            continue;
        }
        let probe = || {
            let w = Window::new(Arc::clone(src), m.offset, m.length);
            crate::frame::read_staged(&w, usize::MAX).is_ok()
        };
        if trusted(file) || probe() {
            found.push(Found::Leaf(
                key_of(name),
                Location::ZipMember {
                    name: name.to_owned(),
                    offset: m.offset,
                    length: m.length,
                },
            ));
        }
    }
    found
}

/// Reads an external leaf or a zip member's frame, from the store's `objects` (its
/// directory, or its zip) labelled `label`.
pub(crate) fn describe_leaf<T>(
    objects: Option<&dyn Storage>,
    key: &str,
    location: &Location,
    label: &Path,
    how: How<T>,
) -> Result<T, ContainerError> {
    let object = match (location, objects) {
        (Location::External { path }, Some(_)) => {
            let rel = path.strip_prefix(label).unwrap_or(path);
            Some((rel.to_string_lossy().into_owned(), path.clone(), 0))
        }
        (Location::ZipMember { name, offset, .. }, Some(objects)) => {
            Some((name.clone(), objects.label(name), *offset))
        }
        _ => None,
    };
    match (location, object, objects) {
        (_, Some((rel, path, at)), Some(objects)) => {
            // Checked before the open: a FIFO put there since the walk would block it.
            let src = objects
                .open(&rel)
                .map_err(|e| ContainerError::frame(storage_error(e, &path), at))?;
            let len = src
                .size()
                .map_err(|e| ContainerError::io(e).in_file(&path))?;
            let in_file = |e: ContainerError| match location {
                Location::External { .. } => e.in_file(&path),
                _ => e,
            };
            how(src, len, &path).map_err(|e| in_file(ContainerError::frame(e, at)))
        }
        (Location::Remote { .. }, ..) => Err(ContainerError::new(ContainerErrorKind::Remote {
            key: key.to_string(),
        })),
        _ => Err(ContainerError::new(ContainerErrorKind::UnknownKey {
            key: key.to_string(),
        })),
    }
}
