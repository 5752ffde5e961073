//! Setting and deleting vlmetalayers in a frame file: the calls, under the locks;
//! `change.rs` says what changes, `commit.rs` writes it.

use serde::Serialize;
use std::path::Path;

use super::change::{apply, VlmetaChange, VlmetaPlan};
use crate::frame::lock::{lock_frame, open_locked, Locking};
use crate::frame::open::locate;
use crate::frame::trailer::commit::{rewrite, Rewrite};
use crate::frame::trailer::write::refused;
use crate::frame::FrameError;
use crate::io::Steps;

/// How [`update_vlmeta_with`] works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct VlmetaOptions {
    /// Decide and report only; nothing is written.
    pub dry_run: bool,
    /// When to take part in C-Blosc2's lock protocol.
    pub locking: Locking,
}

impl VlmetaOptions {
    /// A dry run: decide and report, write nothing.
    pub fn dry_run(mut self, yes: bool) -> Self {
        self.dry_run = yes;
        self
    }

    /// The lock protocol to follow.
    pub fn locking(mut self, locking: Locking) -> Self {
        self.locking = locking;
        self
    }
}

/// Sets vlmetalayer `name` of the frame at `path` (a contiguous file, or a sparse
/// frame's directory) to `value` (see [`update_vlmeta`]): python's
/// `arr.vlmeta[name] = value`.
///
/// ```
/// use b2nd_meta::frame::open;
/// use b2nd_meta::vlmeta::set_vlmeta;
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-setvl-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
/// set_vlmeta(&path, "units", "m/s")?;
/// let units: String = open(&path)?.vlmeta("units")?;
/// assert_eq!(units, "m/s");
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn set_vlmeta<T: ?Sized + Serialize>(
    path: impl AsRef<Path>,
    name: &str,
    value: &T,
) -> Result<VlmetaPlan, FrameError> {
    update_vlmeta(path, &[VlmetaChange::set(name, value)?])
}

/// Deletes vlmetalayer `name` of the frame at `path` (see [`update_vlmeta`]):
/// python's `del arr.vlmeta[name]`. An unknown name is refused.
///
/// ```
/// use b2nd_meta::frame::open;
/// use b2nd_meta::vlmeta::del_vlmeta;
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-delvl-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
/// let plan = del_vlmeta(&path, "int")?;
/// assert!(!plan.names.contains(&"int".to_string()));
/// assert!(del_vlmeta(&path, "int").is_err());
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn del_vlmeta(path: impl AsRef<Path>, name: &str) -> Result<VlmetaPlan, FrameError> {
    update_vlmeta(path, &[VlmetaChange::delete(name)])
}

/// Applies `changes`, in order, to the vlmetalayers of the frame at `path`, in one
/// write (python's `vlmeta[:] = {...}`), crash-consistently (see the module docs of
/// [`crate::frame`]). New names go at the end, replaced ones keep their place, and
/// unchanged entries keep their exact stored chunks.
///
/// Refused with nothing written: a name over 31 bytes or holding NUL, more than 16
/// entries, a value too large, deleting an unknown name, a truncated frame, a trailer
/// that does not read or that C-Blosc2 would not have written, a read-only file.
pub fn update_vlmeta(
    path: impl AsRef<Path>,
    changes: &[VlmetaChange],
) -> Result<VlmetaPlan, FrameError> {
    update_vlmeta_with(path, changes, VlmetaOptions::default())
}

/// [`update_vlmeta`] with options: a dry run, another [`Locking`].
///
/// ```
/// use b2nd_meta::vlmeta::{update_vlmeta_with, VlmetaChange, VlmetaOptions};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
/// let plan = update_vlmeta_with(path, &[VlmetaChange::set("k", &1)?], VlmetaOptions::default().dry_run(true))?;
/// assert_eq!(plan.added, ["k"]);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn update_vlmeta_with(
    path: impl AsRef<Path>,
    changes: &[VlmetaChange],
    options: VlmetaOptions,
) -> Result<VlmetaPlan, FrameError> {
    update_with_steps(path.as_ref(), changes, options, &Steps::of_process())
}

/// [`update_vlmeta_with`] that stops, as a crash would, once `budget` steps of writing
/// are taken (a write is two: nothing written, then half; a sync, a length set, the
/// 8-byte flip of `frame_len`, the rename replacing a frame without data: one each). A
/// stop leaves what a crash would, the staging file of a replacement included. For
/// crash tests.
#[doc(hidden)]
pub fn update_stopping_after(
    path: &Path,
    changes: &[VlmetaChange],
    options: VlmetaOptions,
    budget: u64,
) -> Result<VlmetaPlan, FrameError> {
    update_with_steps(path, changes, options, &Steps::stop_after(budget))
}

/// [`update_vlmeta_with`] taking the `steps` its writes take.
pub(crate) fn update_with_steps(
    path: &Path,
    changes: &[VlmetaChange],
    options: VlmetaOptions,
    steps: &Steps,
) -> Result<VlmetaPlan, FrameError> {
    let (header_path, kind) = locate(path)?;
    let p = header_path.as_path();
    let io = |e| FrameError::io(Some(p))(e);
    let _sidecar = lock_frame(path, kind, !options.dry_run, options.locking)?;
    let file = open_locked(p, !options.dry_run, &options.locking)?;
    let how = Rewrite {
        dry_run: options.dry_run,
        steps,
    };
    let result = rewrite(&file, p, kind, &how, |entries| {
        apply(entries, changes).map_err(refused)
    });
    let unlocked = file.unlock().map_err(io);
    let (mut plan, entries, moved) = result?;
    unlocked?;
    plan.names = entries.into_iter().map(|(name, _)| name).collect();
    plan.old_trailer = moved.old;
    plan.new_trailer = moved.new;
    plan.changed = moved.changed;
    Ok(plan)
}
