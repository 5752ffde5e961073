//! Reading a frame header in stages, from a slice, a reader or a file: the fixed part
//! first and its checks, then the index (at most [`INDEX_MAX_END`] bytes), then each
//! content where its offset points. Nothing is read or allocated beyond what the checks
//! so far allow: a bogus `header_len` costs nothing until a content needs its bytes.

use std::io::{self, Read, Seek, SeekFrom};
use std::vec::Vec;

use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameHeader, Metalayer, CONTENT_PREFIX_LEN, FIXED_HEADER_LEN};
use super::index::{content_len, layout_notes, parse_index, INDEX_MAX_END};
use super::parse::parse_fixed;

/// Where the bytes of a frame come from.
pub(crate) trait Source {
    /// Up to `len` bytes from `at`: fewer only where the input ends.
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>>;
    /// The length of the input, or `want` if it holds at least that much.
    fn len_up_to(&mut self, want: u64) -> io::Result<u64>;
}

/// A frame in memory.
pub(crate) struct SliceSource<'a>(pub(crate) &'a [u8]);

impl Source for SliceSource<'_> {
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let start = usize::try_from(at).unwrap_or(usize::MAX).min(self.0.len());
        let end = start.saturating_add(len).min(self.0.len());
        Ok(self.0.get(start..end).unwrap_or_default().to_vec())
    }

    fn len_up_to(&mut self, want: u64) -> io::Result<u64> {
        Ok((self.0.len() as u64).min(want))
    }
}

/// A reader read from its start, once: the bytes read are kept as far as a content
/// needs them; the rest of the header is read and dropped.
pub(crate) struct Sequential<R> {
    reader: R,
    kept: Vec<u8>,
    dropped: u64,
}

impl<R: Read> Sequential<R> {
    pub(crate) fn new(reader: R) -> Self {
        Sequential {
            reader,
            kept: Vec::new(),
            dropped: 0,
        }
    }
}

impl<R: Read> Source for Sequential<R> {
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let end = usize::try_from(at)
            .unwrap_or(usize::MAX)
            .saturating_add(len);
        if self.dropped == 0 && self.kept.len() < end {
            let more = end - self.kept.len();
            read_up_to(&mut self.reader, more, &mut self.kept)?;
        }
        SliceSource(&self.kept).read_at(at, len)
    }

    fn len_up_to(&mut self, want: u64) -> io::Result<u64> {
        let mut scratch = [0u8; 8192];
        loop {
            let have = self.kept.len() as u64 + self.dropped;
            if have >= want {
                return Ok(want);
            }
            let n = (want - have).min(scratch.len() as u64) as usize;
            let got = read_fully(&mut self.reader, scratch.get_mut(..n).unwrap_or_default())?;
            if got == 0 {
                return Ok(have);
            }
            self.dropped += got as u64;
        }
    }
}

/// A seekable file of known length: only the bytes asked for are read.
pub(crate) struct Positional<F> {
    pub(crate) file: F,
    pub(crate) len: u64,
}

impl<F: Read + Seek> Source for Positional<F> {
    fn read_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let len = (len as u64).min(self.len.saturating_sub(at)) as usize;
        let mut out = Vec::new();
        if len > 0 {
            self.file.seek(SeekFrom::Start(at))?;
            read_up_to(&mut self.file, len, &mut out)?;
        }
        Ok(out)
    }

    fn len_up_to(&mut self, want: u64) -> io::Result<u64> {
        Ok(self.len.min(want))
    }
}

/// Reads a frame header from `src` in stages, keeping at most `cap` bytes of each
/// content (a [`Metalayer`] records its full length).
pub(crate) fn read_staged<S: Source>(src: &mut S, cap: usize) -> Result<FrameHeader, FrameError> {
    let io = FrameError::io(None);
    let fixed = src.read_at(0, FIXED_HEADER_LEN).map_err(io)?;
    let mut info = parse_fixed(&fixed)?;
    let header_len = info.header_len;
    let truncated = |src: &mut S| -> FrameError {
        match src.len_up_to(u64::from(header_len)) {
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
    let prefix = src.read_at(0, want).map_err(FrameError::io(None))?;
    if prefix.len() < want {
        return Err(truncated(src));
    }
    let (entries, index_end, notes) = parse_index(&prefix, header_len)?;
    // The contents, each where its offset points.
    let mut metalayers = Vec::with_capacity(entries.len());
    let mut lens = Vec::with_capacity(entries.len());
    for e in &entries {
        let head = src
            .read_at(u64::from(e.offset), CONTENT_PREFIX_LEN as usize)
            .map_err(FrameError::io(None))?;
        let Some(len) = content_len(&head, e.offset, header_len)? else {
            return Err(truncated(src));
        };
        let keep = (len as usize).min(cap);
        let at = u64::from(e.offset) + CONTENT_PREFIX_LEN;
        let content = src.read_at(at, keep).map_err(FrameError::io(None))?;
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
        .len_up_to(u64::from(header_len))
        .map_err(FrameError::io(None))?;
    if available < u64::from(header_len) {
        return Err(truncated(src));
    }
    info.notes.extend(notes);
    info.contents_as_c_writes =
        layout_notes(&entries, &lens, index_end, header_len, &mut info.notes);
    Ok(FrameHeader { info, metalayers })
}

/// Read up to `buf.len()` bytes, stopping early only at end of input.
pub(crate) fn read_fully<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        let dst = buf.get_mut(got..).unwrap_or_default();
        match r.read(dst) {
            Ok(0) => break,
            Ok(k) if k <= dst.len() => got += k,
            Ok(_) => return Err(io::Error::other("reader returned more bytes than asked")),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Append up to `n` more bytes from `r` to `out`, growing `out` only as data
/// arrives (a bogus huge `n` costs nothing if the input is short).
pub(crate) fn read_up_to<R: Read>(r: &mut R, mut n: usize, out: &mut Vec<u8>) -> io::Result<()> {
    let mut chunk = [0u8; 8192];
    while n > 0 {
        let want = n.min(chunk.len());
        let got = read_fully(r, chunk.get_mut(..want).unwrap_or_default())?;
        out.extend_from_slice(chunk.get(..got).unwrap_or_default());
        n -= got;
        if got < want {
            break;
        }
    }
    Ok(())
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
    read_staged(&mut SliceSource(buf), usize::MAX)
}
