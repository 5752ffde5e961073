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

/// The contiguous NDArray frame file `frame`, opened, and its length.
pub(super) fn open_frame(frame: &Path) -> Result<(File, u64), ContainerError> {
    let node = crate::container::open(frame)?;
    if node.kind != Kind::NDArray || !fs::metadata(frame).map_err(io_in(frame))?.is_file() {
        return Err(refused(std::format!(
            "a node is put from a contiguous NDArray frame (.b2nd); this is a {}",
            node.kind.name()
        ))
        .in_file(frame));
    }
    let src = File::open(frame).map_err(io_in(frame))?;
    let len = src.metadata().map_err(io_in(frame))?.len();
    Ok((src, len))
}

/// The bytes of the array in the frame file `frame` (its shape's product times its
/// item size, python's `NDArray.nbytes`).
pub(super) fn array_nbytes(frame: &Path) -> Result<u64, ContainerError> {
    let file = File::open(frame).map_err(io_in(frame))?;
    let header = crate::frame::read_staged(&file, crate::frame::CONTENT_CAP)
        .map_err(|e| ContainerError::frame(e, 0).in_file(frame))?;
    let itemsize = u64::from(header.info.typesize);
    let Some(Ok(array)) = header.array_info() else {
        return Err(refused("its array metalayer does not read").in_file(frame));
    };
    let itemsize = match &array.dtype {
        Some(Ok(dtype)) => dtype.itemsize(),
        _ => itemsize,
    };
    Ok(array.shape().iter().fold(itemsize, |n, &d| {
        n.saturating_mul(u64::try_from(d).unwrap_or(0))
    }))
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
