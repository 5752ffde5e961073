//! Finding the trailer from the frame's end and reading it, from bytes in memory or any
//! source.

use super::model::{Trailer, MIN_TRAILER_OFFSET, TAIL_IN_LAST, TRAILER_MIN_LEN};
use super::parse::parse_trailer_bytes;
use crate::frame::chunks::read_exact_at;
use crate::frame::error::{FrameError, FrameErrorKind};
use crate::frame::fields::{invalid, Bound, Fields};
use crate::frame::header::{FrameHeader, FrameInfo, FIXED_HEADER_LEN};
use crate::io::ReadAt;
use crate::wire::marker::UINT32;
use crate::wire::read::Reader;

/// Where the trailer starts and how long it is, from the header and the frame's 25
/// last bytes (`last`, read at `frame_len - 25`), with C-Blosc2's checks.
pub(crate) fn locate(info: &FrameInfo, last: &[u8]) -> Result<(u64, u32), FrameError> {
    let frame_len = info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let mut c = Fields::new(last, Bound::Input, last_at);
    c.r.advance(TAIL_IN_LAST);
    c.marker(UINT32, "uint32 (0xce) before the trailer length")?;
    let len = c.read(Reader::be_u32, "the trailer length")?;
    let len_at = last_at + TAIL_IN_LAST as u64 + 1;
    let max = frame_len.saturating_sub(FIXED_HEADER_LEN as u64);
    if len < TRAILER_MIN_LEN || i32::try_from(len).is_err() || u64::from(len) > max {
        return Err(invalid(
            len_at,
            "trailer length",
            i128::from(len),
            "expected from 25 to frame_len - 87",
        ));
    }
    let offset = if info.nbytes > 0 {
        frame_len - u64::from(len)
    } else {
        u64::from(info.header_len)
    };
    if offset < MIN_TRAILER_OFFSET || offset + u64::from(len) > frame_len {
        return Err(invalid(
            len_at,
            "trailer length",
            i128::from(len),
            "the trailer would not fit between the header and frame_len",
        ));
    }
    Ok((offset, len))
}

/// Parses the trailer of a frame held whole in memory (`frame` starts at the frame's
/// first byte; for a sparse frame, `chunks.b2frame`), after its `header`.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd"))?;
/// let header = b2nd_meta::frame::parse_header(&bytes)?;
/// let trailer = b2nd_meta::frame::parse_trailer(&bytes, &header)?;
/// assert_eq!(trailer.offset + u64::from(trailer.len), header.info.frame_len);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_trailer(frame: &[u8], header: &FrameHeader) -> Result<Trailer, FrameError> {
    let frame_len = header.info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = slice(
        frame,
        last_at,
        u64::from(TRAILER_MIN_LEN),
        "the trailer length (the frame's 25 last bytes)",
    )?;
    let (offset, len) = locate(&header.info, last)?;
    let bytes = slice(frame, offset, u64::from(len), "the trailer")?;
    parse_trailer_bytes(bytes, offset)
}

/// Reads the trailer of the frame that starts at byte 0 of `src`, after its `header`:
/// two reads (25 bytes, then the trailer), whatever the size of the data between.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let file = std::fs::File::open(path)?;
/// let header = b2nd_meta::frame::read_header(&file)?;
/// let trailer = b2nd_meta::frame::read_trailer(&file, &header)?;
/// assert_eq!(trailer.version, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_trailer<S: ReadAt>(src: S, header: &FrameHeader) -> Result<Trailer, FrameError> {
    let frame_len = header.info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = read_exact_at(
        &src,
        last_at,
        TRAILER_MIN_LEN as usize,
        "the trailer length (the frame's 25 last bytes)",
    )?;
    let (offset, len) = locate(&header.info, &last)?;
    let bytes = read_exact_at(&src, offset, len as usize, "the trailer")?;
    parse_trailer_bytes(&bytes, offset)
}

fn slice<'a>(
    frame: &'a [u8],
    at: u64,
    len: u64,
    what: &'static str,
) -> Result<&'a [u8], FrameError> {
    let end = at.saturating_add(len);
    usize::try_from(at)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(a, e)| frame.get(a..e))
        .ok_or(FrameError::at(
            at,
            FrameErrorKind::Truncated {
                what,
                end,
                available: frame.len() as u64,
            },
        ))
}
