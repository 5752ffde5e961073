//! A frame holding no data (`nbytes == 0`) gets its new trailer in a new file, renamed
//! over the old one.
//!
//! C-Blosc2 reads such a frame's trailer right after the header, whatever `frame_len`
//! says (`get_trailer_offset`), so there is no free room to write a new trailer in and
//! flip to: C itself rewrites it in place, and a crash then can leave a trailer C cannot
//! read. Instead the whole new frame (the header as it is, but for `frame_len` and the
//! has-vlmetalayers byte, then the new trailer: a few hundred bytes plus the vlmeta) is
//! written to a staging file beside it (`.<name>.b2nd-meta.<pid>.<n>.tmp`, which listings
//! pass over: `crate::io::Staging`), given the file's
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

use std::fs::File;
use std::path::Path;
use std::vec::Vec;

use super::write::{refused, VlmetaRefusal};
use crate::frame::parse::OFF_FRAME_LEN;
use crate::frame::FrameError;
use crate::io::{Staging, Steps};
use crate::wire::marker::{FALSE, TRUE};

/// Offset of the has-vlmetalayers bool in the header (`FRAME_HAS_VLMETALAYERS`).
pub(crate) const OFF_HAS_VLMETA: usize = 68;

/// Replaces the frame file `file` (locked, at `p`) by its header's first `header_len`
/// bytes followed by `trailer`.
pub(super) fn replace(
    file: &File,
    p: &Path,
    header_len: u64,
    trailer: &[u8],
    has_vlmeta: bool,
    steps: &Steps,
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
    // The new file keeps the old one's mode and owner (refused when the owner cannot
    // be kept); dropped on an error, it leaves nothing.
    let staging = Staging::file(&target, Some(&md), steps).map_err(|e| {
        match e.kind() {
            std::io::ErrorKind::PermissionDenied => refused(VlmetaRefusal::NotReplaceable {
                why: std::format!("{e}"),
            }),
            _ => FrameError::io(None)(e),
        }
        .in_file(p)
    })?;
    let at_staging = |e| FrameError::io(Some(staging.path()))(e);
    steps
        .write(staging.file_handle(), &bytes, 0)
        .map_err(at_staging)?;
    staging.commit().map_err(io)
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
