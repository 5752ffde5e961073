//! Opening frames: [`open`] (a file or a sparse frame's directory, kept open),
//! [`open_with_trailer`], and [`read_header`] from any reader.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::{FrameError, FrameErrorKind};
use super::file::FrameFile;
use super::header::{FrameHeader, FrameKind, CONTENT_CAP, SPARSE_HEADER_FILE};
use super::lock::Locking;
use super::parse::OFF_FRAME_TYPE;
use super::source::{Reach, Source};
use super::staged::read_staged;
use super::trailer::Trailer;
use crate::io::{special_file, SharedSource, Stream};

/// Read a frame header from `reader`, positioned at the start of the frame.
///
/// Reads in stages, each after the checks of the one before: the 87-byte fixed part,
/// then the index (at most 689 bytes), then the contents as far as they go, then the
/// rest of the header up to `header_len` (read and dropped, to check it is there), and
/// never more: the cost does not depend on the size of the data that follows, and a
/// bogus `header_len` is refused at the first field C checks that it breaks. Memory
/// grows only with the bytes actually received.
///
/// ```
/// use std::io::Read;
/// use b2nd_meta::frame::read_header;
///
/// let bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/usermeta.b2nd"
/// ));
/// // A reader whose data goes on for a terabyte: only the header is read.
/// let mut reader = (&bytes[..]).chain(std::io::repeat(0).take(1 << 40));
/// let header = read_header(&mut reader)?;
/// assert_eq!(header.names().collect::<Vec<_>>(), ["b2nd", "user", &"m".repeat(31)]);
/// assert_eq!(header.metalayer("user").unwrap().content, b"\x81\xa6answer\x2a");
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn read_header<R: Read>(reader: R) -> Result<FrameHeader, FrameError> {
    read_staged(&Stream::new(reader), usize::MAX)
}

/// Refuses, before anything is opened, a path that is not a regular file: a FIFO or a
/// device would block or never end.
fn regular(path: &Path) -> Result<(), FrameError> {
    let md = fs::metadata(path).map_err(FrameError::io(Some(path)))?;
    match special_file(&md) {
        Some(file_type) => {
            Err(FrameError::new(FrameErrorKind::NotAFile { file_type }).in_file(path))
        }
        None => Ok(()),
    }
}

/// The file holding the header for `path`, and the frame kind it must hold. The path,
/// and the header file of a directory, must be regular files (checked before anything
/// is opened, so a FIFO never blocks).
pub(crate) fn locate(path: &Path) -> Result<(PathBuf, FrameKind), FrameError> {
    let md = fs::metadata(path).map_err(FrameError::io(Some(path)))?;
    if md.is_dir() {
        let header = path.join(SPARSE_HEADER_FILE);
        regular(&header)?;
        Ok((header, FrameKind::Sparse))
    } else if let Some(file_type) = special_file(&md) {
        Err(FrameError::new(FrameErrorKind::NotAFile { file_type }).in_file(path))
    } else {
        Ok((path.to_path_buf(), FrameKind::Contiguous))
    }
}

/// The header's frame type must be the one its path implies.
pub(crate) fn check_kind(
    path: &Path,
    expected: FrameKind,
    header: &FrameHeader,
) -> Result<(), FrameError> {
    if header.info.kind == expected {
        Ok(())
    } else {
        let kind = FrameErrorKind::WrongKind {
            expected,
            found: header.info.kind,
        };
        Err(FrameError::at(OFF_FRAME_TYPE as u64, kind).in_file(path))
    }
}

/// Read the header of the frame at `path`: a contiguous-frame file, or a
/// sparse-frame directory (its `chunks.b2frame` is read). Only the bytes of the header
/// the checks need are read, with positioned reads: the fixed part, the index, and at
/// most [`CONTENT_CAP`] bytes of each content (the rest with
/// [`FrameFile::read_content`]), so memory stays small whatever the file holds; the
/// file length comes from its metadata. The file stays open in the [`FrameFile`]: its
/// trailer and its data are read from it, never opened again.
///
/// The frame type in the header must match: a file must hold a contiguous
/// frame, a directory's `chunks.b2frame` a sparse one (as C-Blosc2 checks).
///
/// ```
/// use b2nd_meta::frame::{open, FrameKind};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/sparse.b2nd");
/// let frame = open(dir)?;
/// assert_eq!(frame.header.info.kind, FrameKind::Sparse);
/// assert!(frame.header_path.ends_with("chunks.b2frame"));
/// assert_eq!(frame.header.info.codec.name(), "zstd");
/// assert!(!frame.is_truncated());
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn open(source: impl Into<Source>) -> Result<FrameFile, FrameError> {
    open_source(&source.into(), false).map(|(frame, _)| frame)
}

/// [`open`], and the trailer read at once under the same shared lock (one lock, one
/// open of the file): the frame, and its trailer or why that does not read. The
/// trailer is kept too ([`FrameFile::trailer`] gives it without reading it again).
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let (frame, trailer) = b2nd_meta::frame::open_with_trailer(path)?;
/// assert_eq!(trailer?.version, frame.trailer()?.version);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn open_with_trailer(
    source: impl Into<Source>,
) -> Result<(FrameFile, Result<Trailer, FrameError>), FrameError> {
    let (frame, trailer) = open_source(&source.into(), true)?;
    let trailer = trailer.unwrap_or_else(|| frame.trailer());
    Ok((frame, trailer))
}

/// A frame file (under its locking), or a contiguous frame held in memory.
fn open_source(
    source: &Source,
    with_trailer: bool,
) -> Result<(FrameFile, Option<Result<Trailer, FrameError>>), FrameError> {
    let (bytes, label) = match source.reach() {
        Reach::Path(path) => return open_file(path, None, with_trailer, source.locking),
        Reach::Shared(bytes, label) => (bytes, label.to_path_buf()),
    };
    let len = bytes.size().map_err(FrameError::io(Some(&label)))?;
    let header = read_staged(&*bytes, CONTENT_CAP).map_err(|e| e.in_file(&label))?;
    check_kind(&label, FrameKind::Contiguous, &header)?;
    let frame = FrameFile::new(label, header, len, bytes, None);
    let trailer = with_trailer.then(|| frame.read_kept_trailer());
    Ok((frame, trailer))
}

/// The one way a frame file is opened: `path` located (a file, or a sparse frame's
/// directory), its sidecar lock taken when the protocol is in use, `file` (already
/// opened by the caller, or opened here) read for the header, and the trailer too when
/// asked, under the same lock.
pub(crate) fn open_file(
    path: &Path,
    file: Option<fs::File>,
    with_trailer: bool,
    locking: Locking,
) -> Result<(FrameFile, Option<Result<Trailer, FrameError>>), FrameError> {
    let (header_path, kind) = locate(path)?;
    // Under the shared sidecar lock when C-Blosc2's lock protocol is in use.
    let _shared = super::lock::lock_frame(path, kind, false, locking)?;
    let io = |e| FrameError::io(Some(&header_path))(e);
    let file = match file {
        // Opened before the lock (to see what the path holds): a vlmeta write to a frame
        // without data may have renamed a new file over it meanwhile; then the file the
        // path names now is the one read, as when it is opened under the lock.
        Some(file) if super::lock::same_file(&file, &header_path).map_err(io)? => file,
        _ => fs::File::open(&header_path).map_err(io)?,
    };
    let file_len = file.metadata().map_err(io)?.len();
    let source: SharedSource = Arc::new(file);
    let header = read_staged(&*source, CONTENT_CAP).map_err(|e| e.in_file(&header_path))?;
    check_kind(&header_path, kind, &header)?;
    let frame = FrameFile::new(header_path, header, file_len, source, Some(locking));
    let trailer = with_trailer.then(|| frame.read_kept_trailer());
    Ok((frame, trailer))
}
