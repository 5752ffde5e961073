//! [`sniff`]: what a path is, told from its first bytes (a frame's magic), its end (a
//! zip's directory) or its entries (a sparse frame's `chunks.b2frame`, a store's
//! `embed.b2e`), before anything is parsed; never from its name.

use std::fs;
use std::io;
use std::path::Path;
use std::sync::Arc;

use super::store::EMBED_NAME;
use super::zip;
use crate::frame::SPARSE_HEADER_FILE;
use crate::io::{read_full_at, SharedSource};

/// What [`sniff`] found at a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sniffed {
    /// A file that starts as a Blosc2 frame does (`.b2nd`, `.b2frame`, `.b2e`, ...).
    Frame,
    /// A zip holding an `embed.b2e` member: a python-blosc2 bundle (`.b2z`).
    Bundle,
    /// Another zip.
    Zip,
    /// A directory holding `embed.b2e`: a DictStore or TreeStore directory (`.b2d`).
    StoreDir,
    /// A directory holding `chunks.b2frame` and no `embed.b2e`: a sparse frame.
    SparseFrame,
    /// Another directory.
    Dir,
    /// Anything else: another file, a FIFO, a device.
    Other,
}

/// What `path` holds, as [`open`](super::open) would take it, from at most its first
/// 10 bytes, its zip directory, or two names in it; symbolic links are followed.
///
/// ```
/// use b2nd_meta::container::{sniff, Sniffed};
///
/// let file = |path| sniff(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path));
/// assert_eq!(file("tests/data/frame/contiguous.b2nd")?, Sniffed::Frame);
/// assert_eq!(file("tests/data/frame/sparse.b2nd")?, Sniffed::SparseFrame);
/// assert_eq!(file("tests/data/arrays/blosc2-4.14.1/store_dict.b2z")?, Sniffed::Bundle);
/// assert_eq!(file("tests/data/frame")?, Sniffed::Dir);
/// assert_eq!(file("Cargo.toml")?, Sniffed::Other);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn sniff(path: impl AsRef<Path>) -> io::Result<Sniffed> {
    let path = path.as_ref();
    let md = fs::metadata(path)?;
    if md.is_dir() {
        return Ok(if path.join(EMBED_NAME).exists() {
            Sniffed::StoreDir
        } else if path.join(SPARSE_HEADER_FILE).exists() {
            Sniffed::SparseFrame
        } else {
            Sniffed::Dir
        });
    }
    if !md.is_file() {
        return Ok(Sniffed::Other);
    }
    let src: SharedSource = Arc::new(fs::File::open(path)?);
    let mut start = [0u8; 10];
    let n = read_full_at(&*src, &mut start, 0)?;
    if n == start.len() && crate::frame::parse::starts_with_magic(&start) {
        return Ok(Sniffed::Frame);
    }
    if !zip::is_zip(&src) {
        return Ok(Sniffed::Other);
    }
    let bundle = zip::members(&src).is_ok_and(|m| m.iter().any(|(name, _)| name == EMBED_NAME));
    Ok(if bundle {
        Sniffed::Bundle
    } else {
        Sniffed::Zip
    })
}
