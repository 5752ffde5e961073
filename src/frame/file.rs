//! Reading a frame header from a reader or from the file system: bounded,
//! incremental reads, and [`open`].

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, FrameKind, CONTENT_CAP, SPARSE_HEADER_FILE};
use super::parse::OFF_FRAME_TYPE;
use super::staged::read_staged;
use crate::io::{Positional, Sequential};

/// A header read from a file or a sparse-frame directory by [`open`].
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
/// let frame = b2nd_meta::frame::open(path)?;
/// assert_eq!(frame.file_len, frame.header.info.frame_len);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameFile {
    /// The file the header was read from (the frame file itself, or the
    /// `chunks.b2frame` inside a sparse-frame directory).
    pub header_path: PathBuf,
    /// The parsed header.
    pub header: FrameHeader,
    /// Length of `header_path` on disk.
    pub file_len: u64,
    /// The trailer, once read ([`FrameFile::trailer`]).
    pub(crate) trailer_cache: super::trailer::TrailerCache,
}

impl FrameFile {
    /// Whether `header_path` is shorter than the declared `frame_len`, i.e. the
    /// data, the chunk-offsets index or the trailer is cut off.
    ///
    /// For a sparse frame `frame_len` covers `chunks.b2frame` only (C-Blosc2
    /// reads the trailer at `frame_len - 25` inside that file), so this compares
    /// that file; missing or short `.chunk` files are not detected, as that
    /// would need the chunk-offsets index, i.e. reading past the header.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
    /// assert!(!b2nd_meta::frame::open(path)?.is_truncated());
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn is_truncated(&self) -> bool {
        self.file_len < self.header.info.frame_len
    }

    /// Bytes `range` of the content of metalayer `name` (the first so named), read from
    /// `header_path`: what [`open`] did not keep of a content longer than
    /// [`CONTENT_CAP`]. The range is clipped to the content.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let frame = b2nd_meta::frame::open(path)?;
    /// assert_eq!(frame.read_content("user", 1..7)?, b"\xa6answer"[..6]);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn read_content(
        &self,
        name: &str,
        range: std::ops::Range<u64>,
    ) -> Result<Vec<u8>, FrameError> {
        let m = self.header.metalayer(name).ok_or_else(|| {
            FrameError::new(FrameErrorKind::UnknownMetalayer {
                name: std::borrow::ToOwned::to_owned(name),
            })
        })?;
        let len = u64::from(m.content_len);
        let (start, end) = (range.start.min(len), range.end.min(len));
        let want = usize::try_from(end.saturating_sub(start)).unwrap_or(usize::MAX);
        let path = self.header_path.as_path();
        let mut file = fs::File::open(path).map_err(FrameError::io(Some(path)))?;
        let mut src = Positional {
            file: &mut file,
            len: self.file_len,
        };
        use crate::io::Source;
        let bytes = src
            .read_at(m.content_offset() + start, want)
            .map_err(FrameError::io(Some(path)))?;
        if bytes.len() < want {
            return Err(FrameError::at(
                m.content_offset() + start,
                FrameErrorKind::Truncated {
                    what: "metalayer content",
                    end: m.content_offset() + end,
                    available: self.file_len,
                },
            )
            .in_file(path));
        }
        Ok(bytes)
    }

    /// How many bytes are missing from `header_path` (0 when not truncated).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
    /// assert_eq!(b2nd_meta::frame::open(path)?.missing_bytes(), 0);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn missing_bytes(&self) -> u64 {
        self.header.info.frame_len.saturating_sub(self.file_len)
    }
}

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
    read_staged(&mut Sequential::new(reader), usize::MAX)
}

/// What a path is, when it is neither a regular file nor a directory.
fn special(md: &fs::Metadata) -> Option<&'static str> {
    let ft = md.file_type();
    if ft.is_file() || ft.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("a FIFO");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
        if ft.is_char_device() {
            return Some("a character device");
        }
        if ft.is_block_device() {
            return Some("a block device");
        }
    }
    Some("not a regular file")
}

/// Refuses, before anything is opened, a path that is not a regular file: a FIFO or a
/// device would block or never end.
fn regular(path: &Path) -> Result<(), FrameError> {
    let md = fs::metadata(path).map_err(FrameError::io(Some(path)))?;
    match special(&md) {
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
    } else if let Some(file_type) = special(&md) {
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

/// An I/O error without a path gets `path`; other errors stay as they are.
pub(crate) fn with_path(e: FrameError, path: &Path) -> FrameError {
    match e.kind() {
        FrameErrorKind::Io(_) => e.in_file(path),
        _ => e,
    }
}

/// Read the header of the frame at `path`: a contiguous-frame file, or a
/// sparse-frame directory (its `chunks.b2frame` is read). Only the bytes of the header
/// the checks need are read, with positioned reads: the fixed part, the index, and at
/// most [`CONTENT_CAP`] bytes of each content (the rest with
/// [`FrameFile::read_content`]), so memory stays small whatever the file holds; the
/// file length comes from its metadata.
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
pub fn open(path: impl AsRef<Path>) -> Result<FrameFile, FrameError> {
    let (header_path, kind) = locate(path.as_ref())?;
    // Under the shared sidecar lock when C-Blosc2's lock protocol is in use.
    let _shared = super::lock::lock_frame(path.as_ref(), kind, false, super::lock::Locking::Auto)?;
    let io_err = FrameError::io(Some(&header_path));
    let mut file = fs::File::open(&header_path).map_err(io_err)?;
    let file_len = file
        .metadata()
        .map_err(FrameError::io(Some(&header_path)))?
        .len();
    let mut src = Positional {
        file: &mut file,
        len: file_len,
    };
    let header = read_staged(&mut src, CONTENT_CAP).map_err(|e| with_path(e, &header_path))?;
    check_kind(&header_path, kind, &header)?;
    Ok(FrameFile {
        header_path,
        header,
        file_len,
        trailer_cache: Default::default(),
    })
}
