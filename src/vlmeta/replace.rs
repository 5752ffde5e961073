//! A frame holding no data (`nbytes == 0`) gets its new trailer in a new file, renamed
//! over the old one.
//!
//! C-Blosc2 reads such a frame's trailer right after the header, whatever `frame_len`
//! says (`get_trailer_offset`), so there is no free room to write a new trailer in and
//! flip to: C itself rewrites it in place, and a crash then can leave a trailer C cannot
//! read. Instead the whole new frame (the header as it is, but for `frame_len` and the
//! has-vlmetalayers byte, then the new trailer: a few hundred bytes plus the vlmeta) is
//! written to `<name>.<pid>.tmp` beside the file (python-blosc2's own staging name, in
//! `DictStore.__setitem__`; our container listing skips such files), given the file's
//! owner and mode, synced, renamed over the file (atomic), and the directory synced. A
//! crash leaves the old file or the new one at the path, and perhaps the staging file.
//! (python-blosc2's DictStore discovery opens files of other suffixes to probe them,
//! so a staging file left complete by a crash just before the rename, its own or ours,
//! would be listed there as a leaf: the caveat its docs give for its own.)
//!
//! Readers see one file or the other: C-Blosc2 2.15.3 opens the file by path for every
//! access, and 3.3 (python-blosc2 4.x) checks its cached handle against the path
//! (`frame_reader_revalidate`: `st_dev`/`st_ino`) before each header read, so handles
//! with `locking=True` see the new file at their next locked access. Our writers lock
//! the file the path names once they hold the lock (`lock::open_locked`), so one that
//! waited on the old file starts over on the new one. A file with other hard links is
//! refused (they would keep the old vlmeta), as is one whose owner cannot be kept.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::vec::Vec;

use super::budget::Budget;
use super::write::{refused, VlmetaRefusal};
use crate::frame::parse::OFF_FRAME_LEN;
use crate::frame::FrameError;
use crate::wire::marker::{FALSE, TRUE};

/// Offset of the has-vlmetalayers bool in the header (`FRAME_HAS_VLMETALAYERS`).
pub(super) const OFF_HAS_VLMETA: usize = 68;

/// Replaces the frame file `file` (locked, at `p`) by its header's first `header_len`
/// bytes followed by `trailer`.
pub(super) fn replace(
    file: &File,
    p: &Path,
    header_len: u64,
    trailer: &[u8],
    has_vlmeta: bool,
    w: &mut Budget,
) -> Result<(), FrameError> {
    let io = |e| FrameError::io(Some(p))(e);
    // A symlink stays one: the file it names is replaced.
    let target = std::fs::canonicalize(p).map_err(io)?;
    let md = file.metadata().map_err(io)?;
    check_links(&md).map_err(|r| refused(r).in_file(p))?;
    let mut bytes: Vec<u8> = std::vec![0; header_len as usize];
    crate::io::read_exact_at(file, &mut bytes, 0).map_err(io)?;
    let frame_len = header_len + trailer.len() as u64;
    if let Some(field) = bytes.get_mut(OFF_FRAME_LEN..OFF_FRAME_LEN + 8) {
        field.copy_from_slice(&frame_len.to_be_bytes());
    }
    if let Some(flag) = bytes.get_mut(OFF_HAS_VLMETA) {
        *flag = if has_vlmeta { TRUE } else { FALSE };
    }
    bytes.extend_from_slice(trailer);
    let tmp = crate::io::staging_path(&target);
    let result = stage_and_rename(&md, &tmp, &target, &bytes, w);
    if result.is_err() && !w.stopped {
        // A real failure, not a simulated crash: leave nothing behind.
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| e.in_file(p))
}

fn stage_and_rename(
    md: &std::fs::Metadata,
    tmp: &Path,
    target: &Path,
    bytes: &[u8],
    w: &mut Budget,
) -> Result<(), FrameError> {
    let at_tmp = |e| FrameError::io(Some(tmp))(e);
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let new = options.open(tmp).map_err(at_tmp)?;
    keep_owner(&new, md)?;
    new.set_permissions(md.permissions()).map_err(at_tmp)?;
    w.write(&new, 0, bytes).map_err(at_tmp)?;
    w.sync_all(&new).map_err(at_tmp)?;
    w.rename(tmp, target).map_err(at_tmp)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    w.sync_dir(dir).map_err(FrameError::io(Some(dir)))
}

#[cfg(unix)]
fn check_links(md: &std::fs::Metadata) -> Result<(), VlmetaRefusal> {
    use std::os::unix::fs::MetadataExt;
    match md.nlink() {
        0 | 1 => Ok(()),
        links => Err(VlmetaRefusal::NotReplaceable {
            why: std::format!("it has {links} hard links, which would keep the old vlmeta"),
        }),
    }
}

#[cfg(not(unix))]
fn check_links(_md: &std::fs::Metadata) -> Result<(), VlmetaRefusal> {
    Ok(())
}

/// The new file gets the old one's owner and group (a no-op for the usual case, a file
/// of one's own); when that is not allowed, nothing is replaced.
#[cfg(unix)]
fn keep_owner(new: &File, md: &std::fs::Metadata) -> Result<(), FrameError> {
    use std::os::unix::fs::MetadataExt;
    let now = new.metadata().map_err(FrameError::io(None))?;
    if (now.uid(), now.gid()) == (md.uid(), md.gid()) {
        return Ok(());
    }
    std::os::unix::fs::fchown(new, Some(md.uid()), Some(md.gid())).map_err(|e| {
        refused(VlmetaRefusal::NotReplaceable {
            why: std::format!(
                "its owner (uid {}, gid {}) cannot be kept on a new file: {e}",
                md.uid(),
                md.gid()
            ),
        })
    })
}

#[cfg(not(unix))]
fn keep_owner(_new: &File, _md: &std::fs::Metadata) -> Result<(), FrameError> {
    Ok(())
}
