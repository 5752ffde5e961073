//! Rewriting a metalayer's content in place: in memory, or in a file as one locked,
//! checked operation on one open handle.
//!
//! The file operation is: open read-write, take an exclusive advisory lock
//! ([`std::fs::File::lock`]) on the file the path still names once locked (a vlmeta
//! write may replace a frame without data meanwhile), read and check the header, refuse a frame whose data is
//! cut short, decide the new content from what was read, read the bytes to be
//! replaced again and check they are exactly the bytes the decision used, write the
//! new content with one positioned write, sync, unlock. Writers using this crate never
//! interleave; a writer that does not take the lock (C-Blosc2 takes none) and changes
//! the metalayer between the read and the write is caught by the re-read, unless it
//! writes in the microseconds between that re-read and the write.

use std::fs::File;
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

use super::array::reshaped;
use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, FrameKind, Metalayer};
use super::lock::{lock_frame, open_locked, Locking};
use super::open::{check_kind, locate};
use super::source::Target;
use super::staged::{parse_header, read_staged};
use crate::io::{read_exact_at, Steps};
use crate::meta::Meta;

/// Find `name` in `header` and check `new_len` against it.
pub(super) fn target<'h>(
    header: &'h FrameHeader,
    name: &str,
    new_len: usize,
) -> Result<&'h Metalayer, FrameError> {
    if !header.info.contents_as_c_writes {
        return Err(FrameError::new(FrameErrorKind::UnusualLayout));
    }
    let m = header.metalayer(name).ok_or_else(|| {
        FrameError::new(FrameErrorKind::UnknownMetalayer {
            name: name.to_string(),
        })
    })?;
    if m.content.len() != new_len {
        return Err(FrameError::new(FrameErrorKind::ContentLengthMismatch {
            name: name.to_string(),
            expected: m.content.len(),
            found: new_len,
        }));
    }
    Ok(m)
}

/// Overwrites, in place, the content of metalayer `name` of the frame at `frame`: a
/// path (a contiguous-frame file, or a sparse-frame directory whose `chunks.b2frame`
/// is rewritten), as one locked operation (see the [module docs](super)), or a frame
/// held in memory ([`Target::bytes`]).
///
/// Nothing else changes. Refused, with the frame left untouched: what does not hold a
/// valid frame header of the right kind, a frame whose data is cut short
/// ([`FrameErrorKind::TruncatedFrame`]), an unknown name, content of another length than
/// the existing one, and a metalayer changed by someone else while this call held the
/// lock ([`FrameErrorKind::ContentChanged`]). Where two metalayers share the name, the
/// first is rewritten, as `blosc2_meta_update` does.
///
/// ```
/// use b2nd_meta::frame::{open, parse_header, rewrite_metalayer, FrameErrorKind, Target};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-doc-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
///
/// rewrite_metalayer(&path, "user", b"\x81\xa6answer\x2b")?;
/// let frame = open(&path)?;
/// assert_eq!(frame.header.metalayer("user").unwrap().content, b"\x81\xa6answer\x2b");
/// assert!(rewrite_metalayer(&path, "nope", b"").is_err());
///
/// // The same in memory.
/// let mut bytes = std::fs::read(src).unwrap();
/// rewrite_metalayer(Target::bytes(&mut bytes), "user", b"\x81\xa6answer\x2b")?;
/// assert_eq!(parse_header(&bytes)?.metalayer("user").unwrap().content, b"\x81\xa6answer\x2b");
/// let err = rewrite_metalayer(Target::bytes(&mut bytes), "user", b"short").unwrap_err();
/// assert!(matches!(err.kind(), FrameErrorKind::ContentLengthMismatch { .. }));
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn rewrite_metalayer<'a>(
    frame: impl Into<Target<'a>>,
    name: &str,
    new_content: &[u8],
) -> Result<(), FrameError> {
    update(frame.into(), |_| {
        Ok((name.to_string(), new_content.to_vec(), ()))
    })
}

/// Compare and write: overwrite the content of metalayer `name` with `new_content`
/// only if it is exactly `expected_old`, as one locked operation (see
/// [`rewrite_metalayer`]).
///
/// Use it when the new content was decided from an earlier read: a change of the file
/// since then (another writer, or the file replaced by another one) is refused with
/// [`FrameErrorKind::ContentChanged`], and the file is left as it is.
///
/// ```
/// use b2nd_meta::frame::{open, rewrite_metalayer_if, FrameErrorKind};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-cas-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
///
/// let old = open(&path)?.header.metalayer("user").unwrap().content.clone();
/// rewrite_metalayer_if(&path, "user", &old, b"\x81\xa6answer\x2b")?;
/// // A second write decided from the same old content is refused.
/// let err = rewrite_metalayer_if(&path, "user", &old, b"\x81\xa6answer\x2c").unwrap_err();
/// assert!(matches!(err.kind(), FrameErrorKind::ContentChanged { .. }));
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn rewrite_metalayer_if<'a>(
    frame: impl Into<Target<'a>>,
    name: &str,
    expected_old: &[u8],
    new_content: &[u8],
) -> Result<(), FrameError> {
    update(frame.into(), |header| {
        let m = target(header, name, new_content.len())?;
        if m.content != expected_old {
            return Err(FrameError::new(FrameErrorKind::ContentChanged {
                name: name.to_string(),
            }));
        }
        Ok((name.to_string(), new_content.to_vec(), ()))
    })
}

/// Changes the shape of the array in the frame at `frame` (a path, or bytes: see
/// [`Target`]) in place, as C-Blosc2 does when it resizes an array: only the shape
/// entries of the `b2nd` (or `caterva`) metalayer change, nothing else in the file. The
/// decision and the write are one locked operation on one open file (see
/// [`rewrite_metalayer`]).
///
/// The shape is in `u64`, as [`Array::shape`](crate::array::Array::shape) gives it; the
/// metalayer stores `int64`, so a length above `i64::MAX` is refused
/// ([`ShapeChangeRefusal::TooLong`](super::ShapeChangeRefusal::TooLong)).
///
/// Refused, leaving the frame untouched: another number of dimensions, a length above
/// `i64::MAX`, a shape with another number of chunks along any axis (the chunks and
/// their offsets are not rewritten), a shape C-Blosc2 would refuse, and a frame whose
/// data is cut short. Returns the new metadata.
///
/// ```
/// use b2nd_meta::frame::{open, set_shape};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/corpus/rewrite_2d_before.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-set-shape-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path)?;
///
/// // (10, 7) in chunks of (4, 4): 3 x 2 chunks, like (12, 8).
/// set_shape(&path, &[12, 8])?;
/// assert_eq!(open(&path)?.header.array_meta()?.shape(), [12, 8]);
/// // (13, 8) would need a fourth row of chunks.
/// assert!(set_shape(&path, &[13, 8]).is_err());
/// // An array's shape as `Array::shape` gives it.
/// let shape = b2nd_meta::array::Array::open(&path)?.shape().to_vec();
/// assert_eq!(set_shape(&path, &shape)?.shape(), [12, 8]);
/// std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn set_shape<'a>(frame: impl Into<Target<'a>>, new_shape: &[u64]) -> Result<Meta, FrameError> {
    update(frame.into(), |header| {
        let (name, meta, bytes) = reshaped(header, new_shape)?;
        Ok((name, bytes, meta))
    })
}

/// Rewrites one metalayer of a frame held in memory: `decide` sees its header.
fn update_in_memory<T>(
    buf: &mut [u8],
    decide: impl FnOnce(&FrameHeader) -> Result<(String, Vec<u8>, T), FrameError>,
) -> Result<T, FrameError> {
    let header = parse_header(buf)?;
    let (name, new_content, value) = decide(&header)?;
    let m = target(&header, &name, new_content.len())?;
    let start = usize::try_from(m.content_offset()).ok();
    let dst = start
        .and_then(|s| Some(s..s.checked_add(new_content.len())?))
        .and_then(|r| buf.get_mut(r));
    match dst {
        Some(dst) => {
            dst.copy_from_slice(&new_content);
            Ok(value)
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

/// The one locked read-decide-check-write operation. `decide` sees the header read
/// under the lock and returns the metalayer to rewrite, its new content and a result.
pub(super) fn update<T>(
    frame: Target<'_>,
    decide: impl FnOnce(&FrameHeader) -> Result<(String, Vec<u8>, T), FrameError>,
) -> Result<T, FrameError> {
    match frame {
        Target::Path { path, locking } => update_with_hook(&path, locking, decide, |_| {}),
        Target::Bytes(buf) => update_in_memory(buf, decide),
    }
}

/// [`update`], with `between` called after the decision and before the re-read (tests
/// change the file there).
// `File::lock` is stable since Rust 1.89; the crate's rust-version follows it.
#[clippy::msrv = "1.89"]
pub(super) fn update_with_hook<T>(
    path: &Path,
    locking: Locking,
    decide: impl FnOnce(&FrameHeader) -> Result<(String, Vec<u8>, T), FrameError>,
    between: impl FnOnce(&Path),
) -> Result<T, FrameError> {
    let (header_path, kind) = locate(path)?;
    let p = header_path.as_path();
    let io = |e| FrameError::io(Some(p))(e);
    // C-Blosc2's lock protocol first (when it applies), then our own lock on the file
    // the path names once locked (a vlmeta write may replace it meanwhile).
    let _sidecar = lock_frame(path, kind, true, locking)?;
    let file = open_locked(p, true, &locking)?;
    let result = locked(&file, p, kind, decide, between);
    // Closing the file releases the lock too; unlock first so that an error here is
    // reported rather than silently deferred.
    let unlocked = file.unlock().map_err(io);
    let value = result?;
    unlocked?;
    Ok(value)
}

fn locked<T>(
    file: &File,
    p: &Path,
    kind: FrameKind,
    decide: impl FnOnce(&FrameHeader) -> Result<(String, Vec<u8>, T), FrameError>,
    between: impl FnOnce(&Path),
) -> Result<T, FrameError> {
    let io = |e| FrameError::io(Some(p))(e);
    let file_len = file.metadata().map_err(io)?.len();
    let header = read_staged(file, usize::MAX).map_err(|e| e.in_file(p))?;
    check_kind(p, kind, &header)?;
    if file_len < header.info.frame_len {
        return Err(FrameError::new(FrameErrorKind::TruncatedFrame {
            frame_len: header.info.frame_len,
            file_len,
        })
        .in_file(p));
    }
    let (name, new_content, value) = decide(&header)?;
    let m = target(&header, &name, new_content.len())?;
    between(p);
    let mut now = std::vec![0u8; m.content.len()];
    read_exact_at(file, &mut now, m.content_offset()).map_err(io)?;
    if now != m.content {
        return Err(FrameError::new(FrameErrorKind::ContentChanged { name }).in_file(p));
    }
    let steps = Steps::of_process();
    steps
        .write_in_page(file, &new_content, m.content_offset())
        .map_err(io)?;
    steps.sync_data(file).map_err(io)?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let src = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/frame/usermeta.b2nd"
        );
        let path = std::env::temp_dir().join(std::format!(
            "b2nd-meta-write-{}-{name}",
            std::process::id()
        ));
        std::fs::copy(src, &path).unwrap();
        path
    }

    #[test]
    fn a_change_between_decide_and_write_is_refused() {
        let path = scratch("between");
        let before = std::fs::read(&path).unwrap();
        let err = update_with_hook(
            &path,
            Locking::AUTO,
            |_| Ok(("user".into(), b"\x81\xa6answer\x2b".to_vec(), ())),
            // Another writer, taking no lock, changes the content meanwhile.
            |p| {
                let mut bytes = std::fs::read(p).unwrap();
                rewrite_metalayer(Target::bytes(&mut bytes), "user", b"\x81\xa6answer\x2c")
                    .unwrap();
                std::fs::write(p, bytes).unwrap();
            },
        )
        .unwrap_err();
        assert!(matches!(err.kind(), FrameErrorKind::ContentChanged { name } if name == "user"));
        let after = std::fs::read(&path).unwrap();
        // Only the other writer's byte differs: ours was not written.
        let diff: Vec<usize> = (0..before.len())
            .filter(|&i| before[i] != after[i])
            .collect();
        assert_eq!(diff.len(), 1);
        assert_eq!(after[diff[0]], 0x2c);
        std::fs::remove_file(&path).unwrap();
    }
}
