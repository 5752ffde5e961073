//! Zstandard frames, one after the other: each frame's header and blocks (raw, RLE or
//! compressed: literals then sequences), decoded straight into the block's output.

use super::dict::{self, Dict};
use super::error::{refuse, Refusal};
use super::literals::{Literals, Lits};
use super::sequences::{self, Out, Tables};

/// The zstd frame magic number, little-endian.
const MAGIC: u32 = 0xfd2f_b528;
/// Skippable frames: magic numbers 0x184D2A50 to 0x184D2A5F.
const SKIPPABLE: u32 = 0x184d_2a50;
/// The most a block holds or decompresses to (`ZSTD_BLOCKSIZE_MAX`).
const BLOCK_SIZE_MAX: usize = 128 << 10;
/// The largest window log (`ZSTD_WINDOWLOG_MAX` on 64-bit).
const WINDOW_LOG_MAX: u32 = 31;
/// Room libzstd's block decoder keeps after a block's literals (`WILDCOPY_OVERLENGTH`).
const WILDCOPY: usize = 32;

/// The `n` bytes of `what` at byte `at` of `frame` (which starts at byte `start` of the
/// stream), or the refusal saying how many are left.
fn bytes_at<'f>(
    frame: &'f [u8],
    at: usize,
    n: usize,
    start: usize,
    what: &'static str,
    expected: &'static str,
) -> Result<&'f [u8], Refusal> {
    let left = frame.len().saturating_sub(at) as u64;
    frame
        .get(at..at + n)
        .ok_or_else(|| refuse(start + at, what, expected, left))
}

/// A zstd decoder kept for all the streams of a chunk, with the chunk's dictionary.
pub(crate) struct Zstd {
    dict: Option<Dict>,
    lits: Literals,
    tables: Tables,
}

impl Zstd {
    /// A decoder for the chunk's streams; `dict` is the chunk's dictionary section,
    /// loaded as `ZSTD_createDDict` loads it.
    pub(crate) fn new(dict: Option<&[u8]>) -> Result<Self, Refusal> {
        let dict = match dict {
            Some(raw) => {
                Some(dict::load(raw).map_err(|e| refuse(0, "dictionary", e, raw.len() as u64))?)
            }
            None => None,
        };
        Ok(Zstd {
            dict,
            lits: Literals::new(),
            tables: Tables::new(),
        })
    }

    /// Decompresses the zstd stream `src` into `dest` (frames one after the other,
    /// skippable frames skipped): the bytes written, which the caller checks fill it.
    /// `readable` starts with `src` and may go on (the rest of the chunk): the Huffman
    /// fast loop then reads the streams where they are more often than from a copy.
    /// Nothing past `src` is taken as the stream's.
    pub(crate) fn decompress(
        &mut self,
        (src, readable): (&[u8], &[u8]),
        dest: &mut [u8],
    ) -> Result<usize, Refusal> {
        let starts_with_src =
            core::ptr::eq(readable.as_ptr(), src.as_ptr()) && readable.len() >= src.len();
        let readable = if starts_with_src { readable } else { src };
        let mut at = 0;
        let mut produced = 0;
        if src.len() < 5 {
            return Err(refuse(
                0,
                "frame header",
                "a zstd frame of at least 5 bytes",
                src.len() as u64,
            ));
        }
        while src.len() - at >= 5 {
            let magic = u32::from_le_bytes([src[at], src[at + 1], src[at + 2], src[at + 3]]);
            if magic & 0xffff_fff0 == SKIPPABLE {
                let size = src
                    .get(at + 4..at + 8)
                    .and_then(|b| {
                        (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize).checked_add(8)
                    })
                    .filter(|&n| n <= src.len() - at)
                    .ok_or_else(|| refuse(at, "skippable frame", "a frame within the stream", 0))?;
                at += size;
                continue;
            }
            if magic != MAGIC {
                return Err(refuse(
                    at,
                    "frame header",
                    "the zstd magic number",
                    u64::from(magic),
                ));
            }
            let (used, out) = self.frame((src, readable), at, &mut dest[produced..])?;
            at += used;
            produced += out;
        }
        if at != src.len() {
            return Err(refuse(
                at,
                "stream",
                "no bytes after the last frame",
                (src.len() - at) as u64,
            ));
        }
        Ok(produced)
    }

    /// One frame at byte `at` of `src` (`ZSTD_decompressFrame`; `readable` starts with
    /// `src`): returns the bytes it takes and the bytes it writes at the start of `dest`.
    fn frame(
        &mut self,
        (src, readable): (&[u8], &[u8]),
        start: usize,
        dest: &mut [u8],
    ) -> Result<(usize, usize), Refusal> {
        const FIELD: &str = "frame header";
        let frame = &src[start..];
        if frame.len() < 6 + 3 {
            return Err(refuse(
                start,
                FIELD,
                "a frame header and a block header",
                frame.len() as u64,
            ));
        }
        let descriptor = frame[4];
        let single = descriptor & 0x20 != 0;
        let did_len = [0, 1, 2, 4][usize::from(descriptor & 3)];
        let fcs_code = descriptor >> 6;
        let fcs_len = [usize::from(single), 2, 4, 8][usize::from(fcs_code)];
        let header_len = 5 + usize::from(!single) + did_len + fcs_len;
        if frame.len() < header_len + 3 {
            return Err(refuse(
                start,
                FIELD,
                "a frame header and a block header",
                frame.len() as u64,
            ));
        }
        if descriptor & 0x08 != 0 {
            return Err(refuse(
                start + 4,
                "frame header descriptor",
                "reserved bit 3 clear",
                u64::from(descriptor),
            ));
        }
        let le = |at: usize, n: usize| {
            frame[at..at + n]
                .iter()
                .rev()
                .fold(0u64, |v, &b| v << 8 | u64::from(b))
        };
        let mut at = 5;
        let mut window = 0u64;
        if !single {
            let wd = frame[at];
            let log = u32::from(wd >> 3) + 10;
            if log > WINDOW_LOG_MAX {
                return Err(refuse(
                    start + at,
                    "window descriptor",
                    "a window log of at most 31",
                    u64::from(log),
                ));
            }
            window = 1 << log;
            window += (window >> 3) * u64::from(wd & 7);
            at += 1;
        }
        let dict_id = le(at, did_len) as u32;
        at += did_len;
        let content = match fcs_code {
            0 if !single => None,
            1 => Some(le(at, 2) + 256),
            _ => Some(le(at, fcs_len)),
        };
        if single {
            window = content.unwrap_or(0);
        }
        let ours = self.dict.as_ref().map_or(0, |d| d.id);
        if dict_id != 0 && dict_id != ours {
            return Err(refuse(
                start + 5,
                FIELD,
                "no dictionary id or the chunk dictionary's",
                u64::from(dict_id),
            ));
        }
        let checksum = descriptor & 0x04 != 0;
        let block_max = window.min(BLOCK_SIZE_MAX as u64) as usize;
        // ZSTD_decompressBegin_usingDDict: the dictionary's tables and offsets, or none.
        let history: &[u8] = match &self.dict {
            Some(d) => &d.content,
            None => &[],
        };
        match self.dict.as_ref().and_then(|d| d.entropy.as_ref()) {
            Some(e) => {
                self.lits.table.clone_from(&e.huffman);
                self.lits.repeatable = true;
                self.tables.ll.clone_from(&e.ll);
                self.tables.of.clone_from(&e.of);
                self.tables.ml.clone_from(&e.ml);
                self.tables.repeatable = true;
                self.tables.reps = e.reps;
            }
            None => {
                self.lits.repeatable = false;
                self.tables.repeatable = false;
                self.tables.reps = [1, 4, 8];
            }
        }
        let mut at = header_len;
        let mut pos = 0;
        loop {
            let head = bytes_at(frame, at, 3, start, "block header", "3 bytes")?;
            let head = u32::from(head[0]) | u32::from(head[1]) << 8 | u32::from(head[2]) << 16;
            let last = head & 1 != 0;
            let kind = (head >> 1) & 3;
            let size = (head >> 3) as usize;
            let block_at = start + at;
            at += 3;
            if kind == 3 {
                return Err(refuse(block_at, "block header", "block type 0, 1 or 2", 3));
            }
            let stored = if kind == 1 { 1 } else { size };
            if stored > frame.len() - at {
                return Err(refuse(
                    block_at,
                    "block header",
                    "a block within the stream",
                    size as u64,
                ));
            }
            let body = &frame[at..at + stored];
            let room = dest.len() - pos;
            match kind {
                0 => {
                    if size > room {
                        return Err(refuse(
                            block_at,
                            "block header",
                            "a raw block within the output",
                            size as u64,
                        ));
                    }
                    dest[pos..pos + size].copy_from_slice(body);
                    pos += size;
                }
                1 => {
                    if size > room {
                        return Err(refuse(
                            block_at,
                            "block header",
                            "an RLE block within the output",
                            size as u64,
                        ));
                    }
                    dest[pos..pos + size].fill(body[0]);
                    pos += size;
                }
                _ => {
                    if size > block_max {
                        return Err(refuse(
                            block_at,
                            "block header",
                            "a compressed block of at most the window and 128 KiB",
                            size as u64,
                        ));
                    }
                    pos = block(
                        &mut self.lits,
                        &mut self.tables,
                        (body, &readable[start + at..]),
                        start + at,
                        block_max,
                        history,
                        dest,
                        pos,
                    )?;
                }
            }
            at += stored;
            if last {
                break;
            }
        }
        if let Some(c) = content
            && c != pos as u64
        {
            return Err(refuse(
                start + 5,
                FIELD,
                "a frame content size equal to the frame's output",
                c,
            ));
        }
        if checksum {
            let b = bytes_at(frame, at, 4, start, "content checksum", "4 bytes")?;
            let found = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if found != dict::xxh64(&dest[..pos]) as u32 {
                return Err(refuse(
                    start + at,
                    "content checksum",
                    "the output's XXH64 (low 32 bits)",
                    u64::from(found),
                ));
            }
            at += 4;
        }
        Ok((at, pos))
    }
}

/// A compressed block at byte `at` of the stream (`ZSTD_decompressBlock_internal`),
/// written at `dest[pos..]`; returns where its output ends.
#[allow(clippy::too_many_arguments)]
fn block(
    state: &mut Literals,
    tables: &mut Tables,
    (block, rest): (&[u8], &[u8]),
    at: usize,
    block_max: usize,
    history: &[u8],
    dest: &mut [u8],
    pos: usize,
) -> Result<usize, Refusal> {
    let room = dest.len() - pos;
    let (lit_len, lits) = state.read((block, rest), at, block_max, room)?;
    let seq = &block[lit_len..];
    let (count, header) = tables.read_header(seq, at + lit_len)?;
    // Where libzstd stops the block's output (`ZSTD_allocateLiteralsBuffer`): stored
    // literals far enough from the block's end are read in place, and the output may
    // fill the room; others are copied where the output is bounded by them: past the
    // block when the room allows (the output then stops 32 bytes past the block's
    // maximum), apart when at most 64 KiB, or split at the end of the block's room.
    let (lits, n, in_place): (&[u8], usize, bool) = match lits {
        Lits::Stored(a, b) => (&block[a..b], b - a, b + WILDCOPY <= block.len()),
        Lits::Decoded(n) => (&state.buf[..n], n, false),
    };
    let limit = if !in_place && room > block_max + WILDCOPY + n + WILDCOPY {
        pos + block_max + WILDCOPY
    } else {
        dest.len()
    };
    let mut out = Out {
        dest,
        pos,
        limit,
        history,
    };
    sequences::execute(
        tables,
        &seq[header..],
        at + lit_len + header,
        count,
        lits,
        &mut out,
    )?;
    Ok(out.pos)
}

#[cfg(test)]
mod tests;
