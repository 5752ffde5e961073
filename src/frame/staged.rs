//! Reading a frame header in stages, from a slice, a reader or a file: the fixed part
//! first and its checks, then the index (at most [`INDEX_MAX_END`] bytes), then each
//! content where its offset points. Nothing is read or allocated beyond what the checks
//! so far allow: a bogus `header_len` costs nothing until a content needs its bytes.

use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, Metalayer, CONTENT_PREFIX_LEN, FIXED_HEADER_LEN};
use super::index::{content_len, layout_notes, parse_index, INDEX_MAX_END};
use super::parse::parse_fixed;
use crate::io::{read_vec_at, ReadAt};

/// Reads a frame header from `src` in stages, keeping at most `cap` bytes of each
/// content (a [`Metalayer`] records its full length).
pub(crate) fn read_staged<S: ReadAt + ?Sized>(
    src: &S,
    cap: usize,
) -> Result<FrameHeader, FrameError> {
    let io = FrameError::io(None);
    let fixed = read_vec_at(src, 0, FIXED_HEADER_LEN).map_err(io)?;
    let mut info = parse_fixed(&fixed)?;
    let header_len = info.header_len;
    let truncated = |src: &S| -> FrameError {
        match src.size_up_to(u64::from(header_len)) {
            Ok(available) => FrameError::at(
                0,
                FrameErrorKind::Truncated {
                    what: "the header (header_len at byte 11)",
                    end: u64::from(header_len),
                    available,
                },
            ),
            Err(e) => FrameError::io(None)(e),
        }
    };
    // The index: at most INDEX_MAX_END bytes, whatever header_len says.
    let want = (header_len as usize).min(INDEX_MAX_END);
    let prefix = read_vec_at(src, 0, want).map_err(FrameError::io(None))?;
    if prefix.len() < want {
        return Err(truncated(src));
    }
    let (entries, index_end, notes) = parse_index(&prefix, header_len)?;
    // The contents, each where its offset points.
    let mut metalayers = Vec::with_capacity(entries.len());
    let mut lens = Vec::with_capacity(entries.len());
    for e in &entries {
        let head = read_vec_at(src, u64::from(e.offset), CONTENT_PREFIX_LEN as usize)
            .map_err(FrameError::io(None))?;
        let Some(len) = content_len(&head, e.offset, header_len)? else {
            return Err(truncated(src));
        };
        let keep = (len as usize).min(cap);
        let at = u64::from(e.offset) + CONTENT_PREFIX_LEN;
        let content = read_vec_at(src, at, keep).map_err(FrameError::io(None))?;
        if content.len() < keep {
            return Err(truncated(src));
        }
        lens.push(len);
        metalayers.push(Metalayer {
            name: e.name.clone(),
            offset: u64::from(e.offset),
            content_len: len,
            content,
        });
    }
    // The whole header must be there, as C reads it whole.
    let available = src
        .size_up_to(u64::from(header_len))
        .map_err(FrameError::io(None))?;
    if available < u64::from(header_len) {
        return Err(truncated(src));
    }
    info.notes.extend(notes);
    info.contents_as_c_writes =
        layout_notes(&entries, &lens, index_end, header_len, &mut info.notes);
    Ok(FrameHeader { info, metalayers })
}

/// Parse a frame header from a buffer holding at least the whole header (it
/// may hold the whole frame; bytes past `header_len` are ignored).
///
/// ```
/// use b2nd_meta::frame::{parse_header, FrameKind};
///
/// let bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/contiguous.b2nd"
/// ));
/// let header = parse_header(bytes)?;
/// assert_eq!(header.info.kind, FrameKind::Contiguous);
/// assert_eq!(header.info.codec.name(), "lz4");
/// assert_eq!(header.info.clevel, 5);
/// assert_eq!(header.info.typesize, 4);
/// assert_eq!(header.names().collect::<Vec<_>>(), ["b2nd"]);
///
/// // Any prefix shorter than the header is an error, never a panic.
/// assert!(parse_header(&bytes[..100]).is_err());
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn parse_header(buf: &[u8]) -> Result<FrameHeader, FrameError> {
    read_staged(buf, usize::MAX)
}
