//! Rewriting a metalayer content in place, in a slice or in a file, and the file and
//! slice plumbing of [`set_shape`].

use std::borrow::ToOwned;
use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use super::array::reshaped;
use super::error::{FrameError, FrameErrorKind};
use super::file::{check_kind, locate, read_header, with_path};
use super::header::{FrameHeader, Metalayer};
use super::parse::parse_header;
use super::shape::Regrid;
use crate::Meta;

/// Find `name` in `header` and check `new_len` against it.
fn target<'h>(
    header: &'h FrameHeader,
    name: &str,
    new_len: usize,
) -> Result<&'h Metalayer, FrameError> {
    let m = header.metalayer(name).ok_or_else(|| {
        FrameError::new(FrameErrorKind::UnknownMetalayer {
            name: name.to_owned(),
        })
    })?;
    if m.content.len() != new_len {
        return Err(FrameError::new(FrameErrorKind::ContentLengthMismatch {
            name: name.to_owned(),
            expected: m.content.len(),
            found: new_len,
        }));
    }
    Ok(m)
}

/// Overwrite the content of metalayer `name` in a frame held in memory.
///
/// Only same-length rewrites are possible. On any error (not a valid frame
/// header, unknown name, other length) `buf` is left untouched; on success
/// exactly the content bytes change.
///
/// ```
/// use b2nd_meta::frame::{parse_header, rewrite_metalayer_in_slice, FrameErrorKind};
///
/// let mut bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/usermeta.b2nd"
/// ))
/// .to_vec();
/// rewrite_metalayer_in_slice(&mut bytes, "user", b"\x81\xa6answer\x2b")?;
/// let header = parse_header(&bytes)?;
/// assert_eq!(header.metalayer("user").unwrap().content, b"\x81\xa6answer\x2b");
///
/// let err = rewrite_metalayer_in_slice(&mut bytes, "user", b"short").unwrap_err();
/// assert!(matches!(err.kind(), FrameErrorKind::ContentLengthMismatch { .. }));
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn rewrite_metalayer_in_slice(
    buf: &mut [u8],
    name: &str,
    new_content: &[u8],
) -> Result<(), FrameError> {
    let header = parse_header(buf)?;
    let m = target(&header, name, new_content.len())?;
    let start = usize::try_from(m.content_offset()).ok();
    let dst = start
        .and_then(|s| Some(s..s.checked_add(new_content.len())?))
        .and_then(|r| buf.get_mut(r));
    match dst {
        Some(dst) => {
            dst.copy_from_slice(new_content);
            Ok(())
        }
        // Unreachable: parse_header checked the content lies in the header.
        None => Err(FrameError::at(
            m.content_offset(),
            FrameErrorKind::OutOfHeader {
                what: "metalayer content",
                end: m.content_offset().saturating_add(new_content.len() as u64),
                header_len: header.info.header_len,
            },
        )),
    }
}

/// Overwrite, in place, the content of metalayer `name` in the frame at
/// `path` (a contiguous-frame file, or a sparse-frame directory whose
/// `chunks.b2frame` is rewritten).
///
/// The file is opened for reading and writing (never created or truncated),
/// its header parsed and validated; then exactly `new_content.len()` bytes are
/// written at the content offset, and the file is synced. Nothing else
/// changes. Refused, with the file left untouched: a path that does not hold a
/// valid frame header of the right kind, an unknown name, or content of
/// another length than the existing one.
///
/// ```
/// use b2nd_meta::frame::{open, rewrite_metalayer};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-doc-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
///
/// rewrite_metalayer(&path, "user", b"\x81\xa6answer\x2b")?;
/// let frame = open(&path)?;
/// assert_eq!(frame.header.metalayer("user").unwrap().content, b"\x81\xa6answer\x2b");
/// assert!(rewrite_metalayer(&path, "nope", b"").is_err());
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn rewrite_metalayer(
    path: impl AsRef<Path>,
    name: &str,
    new_content: &[u8],
) -> Result<(), FrameError> {
    let (header_path, kind) = locate(path.as_ref())?;
    let p = header_path.as_path();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(p)
        .map_err(FrameError::io(Some(p)))?;
    let header = read_header(&mut file).map_err(|e| with_path(e, p))?;
    check_kind(p, kind, &header)?;
    let m = target(&header, name, new_content.len())?;
    file.seek(SeekFrom::Start(m.content_offset()))
        .map_err(FrameError::io(Some(p)))?;
    file.write_all(new_content)
        .map_err(FrameError::io(Some(p)))?;
    file.flush().map_err(FrameError::io(Some(p)))?;
    file.sync_data().map_err(FrameError::io(Some(p)))?;
    Ok(())
}

/// Changes the shape of the array in the frame at `path` in place, as C-Blosc2 does
/// when it resizes an array: only the shape entries of the `b2nd` (or `caterva`)
/// metalayer change, nothing else in the file.
///
/// Refused, leaving the file untouched: another number of dimensions, a shape C-Blosc2
/// would refuse, and, unless `regrid` is [`Regrid::Allow`], a shape with another
/// number of chunks along any axis (the chunks themselves are not rewritten). Returns
/// the new metadata.
///
/// ```
/// use b2nd_meta::frame::{open, set_shape, Regrid};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-set-shape-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path)?;
///
/// // (10, 7) in chunks of (4, 4): 3 x 2 chunks, like (12, 8).
/// set_shape(&path, &[12, 8], Regrid::Refuse)?;
/// assert_eq!(open(&path)?.header.array_meta()?.shape(), [12, 8]);
/// // (13, 8) would need a fourth row of chunks.
/// assert!(set_shape(&path, &[13, 8], Regrid::Refuse).is_err());
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn set_shape(
    path: impl AsRef<Path>,
    new_shape: &[i64],
    regrid: Regrid,
) -> Result<Meta, FrameError> {
    let path = path.as_ref();
    let frame = super::file::open(path)?;
    let (name, meta, bytes) = reshaped(&frame.header, new_shape, regrid)?;
    rewrite_metalayer(path, &name, &bytes)?;
    Ok(meta)
}

/// [`set_shape`] on a frame held in memory.
///
/// ```
/// use b2nd_meta::frame::{parse_header, set_shape_in_slice, Regrid};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
/// let mut bytes = std::fs::read(path)?;
/// set_shape_in_slice(&mut bytes, &[12, 8], Regrid::Refuse)?;
/// assert_eq!(parse_header(&bytes)?.array_meta()?.shape(), [12, 8]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn set_shape_in_slice(
    buf: &mut [u8],
    new_shape: &[i64],
    regrid: Regrid,
) -> Result<Meta, FrameError> {
    let header = parse_header(buf)?;
    let (name, meta, bytes) = reshaped(&header, new_shape, regrid)?;
    rewrite_metalayer_in_slice(buf, &name, &bytes)?;
    Ok(meta)
}
