//! Writing a new trailer into a frame file: it is written where
//! no live byte is, then the header's `frame_len` is flipped to it in one 8-byte write,
//! so that at every instant `frame_len` points at a complete trailer.
//!
//! C-Blosc2 finds the trailer at `frame_len - trailer_len` (`get_trailer_offset`) and
//! reads the chunk-offsets index from `header_len + cbytes` (a sparse frame's from
//! `header_len`), so the bytes between the index's end `D` and the trailer are never
//! read as data: C itself overwrites them when it next appends a chunk. With `O` the
//! old trailer's offset, `F` the old `frame_len` and `n` the new trailer's length:
//!
//! 1. if `D + n <= O`, the new trailer goes at `D` (it cannot touch the live one), and
//!    the file is cut at its end;
//! 2. otherwise it goes at `F`, past the end, and the space before it (less than the new
//!    trailer plus the old one) stays a gap until a later write fits there (step 1).
//!    Copying it down right away would need a second write and two more syncs; the
//!    gap is bounded by two trailers, never by the number of writes.
//!
//! Either way: write, `sync_data`, flip `frame_len` (and the header's
//! has-vlmetalayers byte, which C rewrites too and nobody reads), `sync_data`, then
//! truncate the file at the new `frame_len` (bytes past `frame_len` are never part of
//! the frame; C truncates there too). A crash leaves the old trailer or the new one,
//! the data bytes (chunks and index) untouched either way. The flip relies on an
//! 8-byte write at an 8-aligned offset of the file's first sector not being torn, as
//! storage does not tear writes inside a sector.
//!
//! A frame holding no data (`nbytes == 0`) cannot be written so: C reads its trailer
//! right after the header whatever `frame_len` says, so there is no room beside the old
//! one. C rewrites it in place, where a crash can leave a trailer that does not read;
//! we write the whole new frame (a header and a trailer, nothing else) to a staging
//! file and rename it over the old one (`replace.rs`): a crash leaves the old file or
//! the new one there.

use std::fs::File;
use std::path::Path;
use std::string::String;
use std::vec::Vec;

use super::parse::parse_trailer_bytes;
use super::replace::{replace, OFF_HAS_VLMETA};
use super::write::{refused, trailer_bytes, VlmetaRefusal, TRAILER_VERSION};
use super::{locate as locate_trailer, FINGERPRINT_LEN, TRAILER_MIN_LEN};
use crate::chunk::{self, ChunkHeader};
use crate::frame::open::check_kind;
use crate::frame::parse::OFF_FRAME_LEN;
use crate::frame::read_staged;
use crate::frame::{FrameError, FrameErrorKind, FrameHeader, FrameKind};
use crate::io::Steps;

/// A trailer's vlmetalayers: (name, stored chunk), in index order.
pub(crate) type Entries = Vec<(String, Vec<u8>)>;

/// Where a trailer rewrite put the trailer, or would put it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Moved {
    /// The old trailer's offset and length.
    pub(crate) old: (u64, u32),
    /// The new trailer's offset and length.
    pub(crate) new: (u64, u32),
    /// Whether any byte changes: not when the trailer is the same.
    pub(crate) changed: bool,
}

/// How a trailer rewrite goes: whether it writes, and the steps its writes take.
pub(crate) struct Rewrite<'a> {
    pub(crate) dry_run: bool,
    pub(crate) steps: &'a Steps,
}

/// Under the locks (the caller's): reads the header and the trailer of the frame in
/// `file` (at `p`, of `kind`), lets `decide` change its entries, and, unless a dry run
/// or nothing changed, writes the new trailer crash-consistently (module docs).
pub(crate) fn rewrite<T>(
    file: &File,
    p: &Path,
    kind: FrameKind,
    how: &Rewrite<'_>,
    decide: impl FnOnce(&mut Entries) -> Result<T, FrameError>,
) -> Result<(T, Entries, Moved), FrameError> {
    let io = |e| FrameError::io(Some(p))(e);
    let file_len = file.metadata().map_err(io)?.len();
    // The whole header checked, none of its contents kept: memory stays small whatever
    // the user metalayers hold.
    let header = read_staged(file, 0).map_err(|e| e.in_file(p))?;
    check_kind(p, kind, &header)?;
    let frame_len = header.info.frame_len;
    if file_len < frame_len {
        return Err(FrameError::new(FrameErrorKind::TruncatedFrame {
            frame_len,
            file_len,
        })
        .in_file(p));
    }
    let in_file = |e: FrameError| e.in_file(p);
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = read_exact(file, last_at, TRAILER_MIN_LEN as usize).map_err(io)?;
    let (old_at, old_len) = locate_trailer(&header.info, &last).map_err(in_file)?;
    let old_bytes = read_exact(file, old_at, old_len as usize).map_err(io)?;
    let old = parse_trailer_bytes(&old_bytes, old_at).map_err(in_file)?;
    let mut entries: Entries = old
        .vlmetalayers
        .into_iter()
        .map(|m| (m.name, m.content))
        .collect();
    let as_c_writes = old.version == TRAILER_VERSION
        && old.fingerprint == (0, [0; FINGERPRINT_LEN])
        && trailer_bytes(&borrowed(&entries)).is_ok_and(|b| b == old_bytes);
    if !as_c_writes {
        return Err(refused(VlmetaRefusal::UnusualTrailer).in_file(p));
    }
    let decided = decide(&mut entries).map_err(in_file)?;
    let new_bytes = trailer_bytes(&borrowed(&entries)).map_err(|r| refused(r).in_file(p))?;
    let n = new_bytes.len() as u64;
    let data_end = data_end(file, &header, old_at).map_err(in_file)?;
    let changed = new_bytes != old_bytes;
    let at = match () {
        _ if !changed => old_at,
        // No data: C reads the trailer right after the header; a new file holds it
        // there (`replace.rs`).
        _ if header.info.nbytes <= 0 => old_at,
        _ if data_end + n <= old_at => data_end,
        _ => frame_len,
    };
    let moved = Moved {
        old: (old_at, old_len),
        new: (at, new_bytes.len() as u32),
        changed,
    };
    if how.dry_run || !changed {
        return Ok((decided, entries, moved));
    }
    let steps = how.steps;
    if header.info.nbytes <= 0 {
        let header_len = u64::from(header.info.header_len);
        replace(file, p, header_len, &new_bytes, !entries.is_empty(), steps)?;
        return Ok((decided, entries, moved));
    }
    steps.write(file, &new_bytes, at).map_err(io)?;
    steps.sync_data(file).map_err(io)?;
    steps
        .flip(file, &(at + n).to_be_bytes(), OFF_FRAME_LEN as u64)
        .map_err(io)?;
    let has_vlmeta = if entries.is_empty() { 0xc2 } else { 0xc3 };
    steps
        .write(file, &[has_vlmeta], OFF_HAS_VLMETA as u64)
        .map_err(io)?;
    steps.sync_data(file).map_err(io)?;
    if file.metadata().map_err(io)?.len() > at + n {
        steps.set_len(file, at + n).map_err(io)?;
    }
    Ok((decided, entries, moved))
}

/// The entries borrowed, as [`trailer_bytes`] takes them.
pub(crate) fn borrowed(entries: &[(String, Vec<u8>)]) -> Vec<(&str, &[u8])> {
    entries
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_slice()))
        .collect()
}

/// Where the chunk-offsets index ends (the header's end when there is no data); it must
/// end at or before the trailer.
fn data_end(file: &File, h: &FrameHeader, trailer_at: u64) -> Result<u64, FrameError> {
    let header_len = u64::from(h.info.header_len);
    if h.info.nbytes <= 0 {
        return Ok(header_len);
    }
    let cbytes = u64::try_from(h.info.cbytes).unwrap_or(u64::MAX);
    let index_at = match h.info.kind {
        FrameKind::Sparse => header_len,
        _ => header_len.saturating_add(cbytes),
    };
    let unusual = || refused(VlmetaRefusal::UnusualIndex);
    let room = trailer_at.checked_sub(index_at).ok_or_else(unusual)?;
    let want = room.min(chunk::EXTENDED_HEADER_LEN as u64) as usize;
    let head = read_exact(file, index_at, want).map_err(FrameError::io(None))?;
    let index = ChunkHeader::parse(&head).map_err(|_| unusual())?;
    let end = index_at + u64::from(index.cbytes);
    if end > trailer_at {
        return Err(unusual());
    }
    Ok(end)
}

fn read_exact(file: &File, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
    let mut buf = std::vec![0u8; len];
    crate::io::read_exact_at(file, &mut buf, at)?;
    Ok(buf)
}
