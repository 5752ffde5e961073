//! The files a store is made of: which layout a path asks for, the frame a node is put
//! from, and the counted writes of a member's bytes.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::string::String;

use crate::container::kind::Kind;
use crate::container::{ContainerError, ContainerErrorKind};
use crate::io::Steps;

/// A change refused as asked.
pub(super) fn refused(why: impl Into<String>) -> ContainerError {
    ContainerError::new(ContainerErrorKind::Refused { why: why.into() })
}

/// An I/O error in `path`.
pub(super) fn io_in(path: &Path) -> impl Fn(std::io::Error) -> ContainerError + '_ {
    move |e| ContainerError::io(e).in_file(path)
}

/// How a store keeps its members.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// A `.b2z` zip, rewritten whole for each change.
    Zip,
    /// A `.b2d` directory, one member file changed at a time.
    Dir,
    /// A `.b2e` EmbedStore, one frame rewritten whole for each change.
    Embed,
}

pub(super) fn layout_of_suffix(path: &Path) -> Result<Layout, ContainerError> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("b2z") => Ok(Layout::Zip),
        Some("b2d") => Ok(Layout::Dir),
        Some("b2e") => Ok(Layout::Embed),
        _ => Err(refused(
            "a store is made at a path ending in .b2z (zip DictStore or TreeStore), .b2d (directory) or .b2e (EmbedStore)",
        )),
    }
}

/// A node's frame file, opened: what it is put from.
pub(super) struct NodeFile {
    pub(super) file: File,
    pub(super) len: u64,
    /// The suffix python gives its member (`_external_ext`, `_expected_ext_from_kind`).
    pub(super) suffix: &'static str,
    /// Its bytes as python's threshold counts them (`DictStore._value_nbytes`): an
    /// array's shape times its item size, the SChunk's `nbytes` otherwise.
    pub(super) nbytes: u64,
}

/// The contiguous frame file `frame` of a node python keeps in stores: an NDArray
/// (`.b2nd`), an SChunk or an ObjectArray (`.b2f`), a BatchArray or a ListArray
/// (`.b2b`).
pub(super) fn open_node(frame: &Path) -> Result<NodeFile, ContainerError> {
    let node = crate::container::open(frame)?;
    let suffix = match node.kind {
        Kind::NDArray => ".b2nd",
        Kind::SChunk | Kind::ObjectArray => ".b2f",
        Kind::BatchArray | Kind::ListArray => ".b2b",
        _ => "",
    };
    if suffix.is_empty() || !fs::metadata(frame).map_err(io_in(frame))?.is_file() {
        return Err(refused(std::format!(
            "a node is put from a contiguous frame of an NDArray (.b2nd), an SChunk or ObjectArray (.b2f), a BatchArray or ListArray (.b2b); this is a {}",
            node.kind.name()
        ))
        .in_file(frame));
    }
    let file = File::open(frame).map_err(io_in(frame))?;
    let len = file.metadata().map_err(io_in(frame))?.len();
    let header = crate::frame::read_staged(&file, crate::frame::CONTENT_CAP)
        .map_err(|e| ContainerError::frame(e, 0).in_file(frame))?;
    let nbytes = match node.kind {
        Kind::NDArray => {
            let Some(Ok(array)) = header.array_info() else {
                return Err(refused("its array metalayer does not read").in_file(frame));
            };
            let itemsize = match &array.dtype {
                Some(Ok(dtype)) => dtype.itemsize(),
                _ => u64::from(header.info.typesize),
            };
            array.shape().iter().fold(itemsize, |n, &d| {
                n.saturating_mul(u64::try_from(d).unwrap_or(0))
            })
        }
        _ => u64::try_from(header.info.nbytes).unwrap_or(0),
    };
    Ok(NodeFile {
        file,
        len,
        suffix,
        nbytes,
    })
}

/// Copies `len` bytes of `src` into `dst`, every block a counted write.
pub(super) fn copy_into(
    dst: &File,
    src: &dyn crate::io::ReadAt,
    len: u64,
    steps: &Steps,
) -> std::io::Result<()> {
    let mut buf = std::vec![0u8; (4usize << 20).min(len as usize)];
    let mut done = 0u64;
    while done < len {
        let n = (len - done).min(buf.len() as u64) as usize;
        crate::io::read_exact_at(src, &mut buf[..n], done)?;
        steps.write(dst, &buf[..n], done)?;
        done += n as u64;
    }
    Ok(())
}

/// The directory `path` is in.
pub(super) fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}
