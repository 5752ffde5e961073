//! LZ4 blocks (LZ4 and LZ4HC chunks), decoded as C-Blosc2 decodes them: LZ4 1.10.0's
//! `LZ4_decompress_safe`, or `LZ4_decompress_safe_usingDict` with the chunk's dictionary
//! (`LZ4_decompress_generic` in `lz4.c`, full block, external dictionary).
//!
//! A block is sequences of a token (literal length in the high 4 bits, match length - 4
//! in the low 4; 15 means bytes follow, added while they are 255), the literals, a
//! little-endian 16-bit offset back into the output (or the dictionary's tail before it)
//! and the match, copied byte by byte so that it may overlap what it writes; the last
//! sequence is literals only.
//!
//! What C accepts is decided by where its two loops check: a fast loop while at least 64
//! output bytes remain, then a safe loop to the end. Both are mirrored here, check for
//! check, so that the same blocks are accepted and refused, at the same input byte (C's
//! negative result). Notably: literals must end 8 input bytes before the end and 12 output
//! bytes before it unless they are the last ones, which end the input exactly; a match
//! must end 5 output bytes before the end; but C's shortcuts for short sequences check
//! neither, and are mirrored too. Offset 0 (a copy of the bytes being written, whose
//! contents C leaves to its copy routine) is refused here, where C decodes.
//!
//! The copies are fixed-size moves (8, 16 or 32 bytes) wherever at least that much room
//! remains, the excess overwritten by the next sequence, and exact near the ends.

use super::error::Refusal;
// A length nibble of 15 means length bytes follow (`RUN_MASK`, `ML_MASK`).
use super::RUN_MASK as MORE;
use super::{LASTLITERALS, MFLIMIT, MINMATCH};
use crate::codec::copy::copy_match;

/// C's fast loop runs while this much output remains (`FASTLOOP_SAFE_DISTANCE`).
const FAST_LOOP_ROOM: usize = 64;

// What each refusal expects (`Refusal::expected`, before its `limit`).
const LITERAL_BYTES: &str = "literal-length bytes to end 15 bytes before the stream's end, by byte";
const MATCH_BYTES: &str = "match-length bytes to end 4 bytes before the stream's end, by byte";
const LAST_END: &str = "the last literals to end the stream at byte";
const LAST_FIT: &str = "the last literals to fit the output of";
const OFFSET_WITHIN: &str = "a match offset within the output and the dictionary, at most";
const OFFSET_ZERO: &str = "a match offset of at least";
const MATCH_END: &str = "a match to end 5 bytes before the output's end, at most at";

/// Where C's fast loop hands over to its safe loop (`safe_decode`, `safe_literal_copy`,
/// `safe_match_copy`).
enum Resume {
    Token,
    Literals { token: u8, len: usize },
    Match { offset: usize, len: usize },
}

/// An LZ4 block (C's `LZ4_decompress_safe`, or `LZ4_decompress_safe_usingDict` with the
/// chunk's dictionary) decoded into `dest`, LZ4 and LZ4HC alike: the number of bytes
/// written (C-Blosc2 refuses a block that does not fill its `dest`; the caller checks).
pub(crate) fn decompress_block(
    src: &[u8],
    dict: Option<&[u8]>,
    dest: &mut [u8],
) -> Result<usize, Refusal> {
    decompress_in::<false>(src, dict.unwrap_or(&[]), dest, 0).map(|(written, _)| written)
}

/// [`decompress_block`], but the block's first literals, where they are at least `row`
/// bytes long, are left in `src` for whole rows of `row` bytes (the byte-unshuffle's
/// rows, read where they are): `dest`'s first [`Lead::len`] bytes are not written
/// unless a match reads them, the same bytes accepted and refused.
pub(crate) fn decompress_block_rows(
    src: &[u8],
    dict: Option<&[u8]>,
    dest: &mut [u8],
    row: usize,
) -> Result<(usize, Lead), Refusal> {
    decompress_in::<true>(src, dict.unwrap_or(&[]), dest, row)
}

/// The block's first literals left unwritten ([`decompress_block_rows`]): the output's
/// first `len` bytes are `src[at..at + len]` (none when `len` is 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lead {
    /// Where they are in the block.
    pub(crate) at: usize,
    /// How many (a multiple of the row).
    pub(crate) len: usize,
}

impl Lead {
    /// Writes them out before a match at `offset` back from `op` reads them.
    #[inline(always)]
    fn before_match(&mut self, dest: &mut [u8], src: &[u8], op: usize, offset: usize) {
        if op < offset.saturating_add(self.len) {
            self.write(dest, src);
        }
    }

    #[cold]
    #[inline(never)]
    fn write(&mut self, dest: &mut [u8], src: &[u8]) {
        // Within both (checked when they were read): a miss leaves `dest` as it is.
        if let (Some(to), Some(from)) = (
            dest.get_mut(..self.len),
            src.get(self.at..self.at + self.len),
        ) {
            to.copy_from_slice(from);
        }
        *self = Lead::default();
    }
}

#[cold]
fn refused(expected: &'static str, limit: usize, found: usize, at: usize) -> Refusal {
    Refusal {
        expected,
        limit: limit as u64,
        found: found as u64,
        at: at as u64,
    }
}

/// Decodes the LZ4 block `src` into `dest` (`dict`: the bytes before it that matches may
/// reach, empty for none) and returns the number of bytes written, as C does; the
/// caller checks that it is `dest.len()`. Errors name the input byte where C stops.
#[cfg(test)]
pub(super) fn decompress(src: &[u8], dict: &[u8], dest: &mut [u8]) -> Result<usize, Refusal> {
    decompress_in::<false>(src, dict, dest, 0).map(|(written, _)| written)
}

/// `decompress`, and with `LEAD` the first literals of at least `row` bytes left in
/// `src` by whole rows ([`decompress_block_rows`]).
fn decompress_in<const LEAD: bool>(
    src: &[u8],
    dict: &[u8],
    dest: &mut [u8],
    row: usize,
) -> Result<(usize, Lead), Refusal> {
    let (s, n) = (src.len(), dest.len());
    if n == 0 {
        // C: one zero token, nothing else, for no output.
        return match src {
            [0] => Ok((0, Lead::default())),
            _ => Err(refused("a stream of one zero byte, length", 1, s, 0)),
        };
    }
    if s == 0 {
        return Err(refused("a stream of at least", 1, 0, 0));
    }
    let (mut ip, mut op) = (0usize, 0usize);
    let mut resume = Resume::Token;
    let mut lead = Lead::default();
    if n >= FAST_LOOP_ROOM {
        (resume, ip, op, lead) = fast_loop::<LEAD>(src, dict, dest, row)?;
    }
    // C's safe loop, entered where the fast loop left.
    'safe: loop {
        let (offset, len) = 'sequence: {
            let (token, lit) = match resume {
                Resume::Match { offset, len } => break 'sequence (offset, len),
                Resume::Literals { token, len } => (token, len),
                Resume::Token => {
                    let token = byte(src, ip)?;
                    ip += 1;
                    let lit = usize::from(token >> 4);
                    // C's shortcut for short sequences: no end-of-block checks beyond
                    // the room for 16 literal and 18 match bytes.
                    if lit != MORE && ip + 16 < s && op + 32 <= n {
                        copy::<16>(dest, op, src, ip);
                        ip += lit;
                        op += lit;
                        let offset = offset_at(src, ip);
                        ip += 2;
                        let len = usize::from(token & 0x0f);
                        if len != MORE && offset >= 8 && offset + lead.len <= op {
                            copy_short_match(dest, op, offset);
                            op += len + MINMATCH;
                            continue 'safe;
                        }
                        break 'sequence (offset, match_length(src, &mut ip, token)?);
                    }
                    if lit == MORE {
                        let more =
                            read_length(src, &mut ip, s.saturating_sub(MORE), true, LITERAL_BYTES)?;
                        (token, lit + more)
                    } else {
                        (token, lit)
                    }
                }
            };
            let cpy = op.checked_add(lit).ok_or_else(|| overflow(ip))?;
            let iend = ip.checked_add(lit).ok_or_else(|| overflow(ip))?;
            if cpy.saturating_add(MFLIMIT) > n || iend.saturating_add(2 + 1 + LASTLITERALS) > s {
                // The last literals: they end the input exactly and fit the output.
                if iend != s {
                    return Err(refused(LAST_END, s, iend, ip));
                }
                if cpy > n {
                    return Err(refused(LAST_FIT, n, cpy, ip));
                }
                dest[op..cpy].copy_from_slice(&src[ip..iend]);
                return Ok((cpy, lead));
            }
            copy_literals(dest, op, src, ip, lit);
            (ip, op) = (iend, cpy);
            let offset = offset_at(src, ip);
            ip += 2;
            (offset, match_length(src, &mut ip, token)?)
        };
        resume = Resume::Token;
        lead.before_match(dest, src, op, offset);
        op = copy_any_match(dest, dict, op, offset, len, ip)?;
    }
}

/// C's fast loop, from the block's start while 64 output bytes remain (so literals of at
/// most 14 bytes and short matches are copied with fixed-size moves): where the safe
/// loop resumes, and the input and output positions there. Not inlined: sharing the
/// safe loop's registers, its positions and bases spilled to the stack. With `LEAD`,
/// the block's first literals are left in `src` by whole rows of `row` bytes, and
/// written out before a match reads them.
#[inline(never)]
fn fast_loop<const LEAD: bool>(
    src: &[u8],
    dict: &[u8],
    dest: &mut [u8],
    row: usize,
) -> Result<(Resume, usize, usize, Lead), Refusal> {
    let (s, n) = (src.len(), dest.len());
    let (mut ip, mut op) = (0usize, 0usize);
    let mut lead = Lead::default();
    let resume = loop {
        let token = byte(src, ip)?;
        ip += 1;
        let lit = usize::from(token >> 4);
        let offset = if lit == MORE {
            let lit = lit + read_length(src, &mut ip, s.saturating_sub(MORE), true, LITERAL_BYTES)?;
            let cpy = op.checked_add(lit).ok_or_else(|| overflow(ip))?;
            let iend = ip.checked_add(lit).ok_or_else(|| overflow(ip))?;
            if cpy.saturating_add(32) > n || iend.saturating_add(32) > s {
                break Resume::Literals { token, len: lit };
            }
            if LEAD && op == 0 && row > 0 && lit >= row {
                let len = lit / row * row;
                lead = Lead { at: ip, len };
                dest[len..cpy].copy_from_slice(&src[ip + len..iend]);
            } else if lit <= 32 {
                copy::<32>(dest, op, src, ip);
            } else {
                dest[op..cpy].copy_from_slice(&src[ip..iend]);
            }
            (ip, op) = (iend, cpy);
            offset_at(src, ip)
        } else if let Some(ahead) = src.get(ip..).and_then(|rest| rest.first_chunk::<17>()) {
            // The literals (at most 14) as 16 bytes, and the offset after them, from
            // the 17 bytes C checks are there.
            dest[op..][..16].copy_from_slice(&ahead[..16]);
            (ip, op) = (ip + lit, op + lit);
            usize::from(u16::from_le_bytes([ahead[lit], ahead[lit + 1]]))
        } else {
            break Resume::Literals { token, len: lit };
        };
        ip += 2;
        let mut len = usize::from(token & 0x0f);
        if len == MORE {
            len += read_length(src, &mut ip, s.saturating_sub(4), false, MATCH_BYTES)? + MINMATCH;
            if op
                .checked_add(len)
                .ok_or_else(|| overflow(ip))?
                .saturating_add(FAST_LOOP_ROOM)
                >= n
            {
                break Resume::Match { offset, len };
            }
        } else {
            len += MINMATCH;
            if op + len + FAST_LOOP_ROOM >= n {
                break Resume::Match { offset, len };
            }
            if offset >= 8 && offset <= op && (!LEAD || offset + lead.len <= op) {
                copy_short_match(dest, op, offset);
                op += len;
                continue;
            }
        }
        if LEAD {
            lead.before_match(dest, src, op, offset);
        }
        op = copy_any_match(dest, dict, op, offset, len, ip)?;
    };
    Ok((resume, ip, op, lead))
}

/// A match after C's fast paths (`safe_match_copy`): refused before the dictionary, or
/// ending within 5 bytes of the output's end, or at offset 0 (here only); else copied
/// from the dictionary and the output, or from the output.
#[inline(always)]
fn copy_any_match(
    dest: &mut [u8],
    dict: &[u8],
    op: usize,
    offset: usize,
    len: usize,
    ip: usize,
) -> Result<usize, Refusal> {
    if offset > op + dict.len() {
        return Err(refused(OFFSET_WITHIN, op + dict.len(), offset, ip));
    }
    let end = op.checked_add(len).ok_or_else(|| overflow(ip))?;
    if end.saturating_add(LASTLITERALS) > dest.len() {
        let limit = dest.len().saturating_sub(LASTLITERALS);
        return Err(refused(MATCH_END, limit, end, ip));
    }
    if offset > op {
        let back = offset - op;
        let start = dict.len() - back;
        if len <= back {
            dest[op..end].copy_from_slice(&dict[start..start + len]);
        } else {
            // The dictionary's tail, then the output from its start (which may overlap).
            dest[op..op + back].copy_from_slice(&dict[start..]);
            copy_match(dest, op + back, op + back, len - back);
        }
    } else if offset == 0 {
        return Err(refused(OFFSET_ZERO, 1, 0, ip));
    } else {
        copy_match(dest, op, offset, len);
    }
    Ok(end)
}

fn overflow(ip: usize) -> Refusal {
    refused("a length of at most", usize::MAX, usize::MAX, ip)
}

#[inline(always)]
fn byte(src: &[u8], ip: usize) -> Result<u8, Refusal> {
    // Never past the end (C's checks keep it inside), but refused rather than a panic.
    let at_end = || refused("a token before the stream's end, at", src.len(), ip, ip);
    src.get(ip).copied().ok_or_else(at_end)
}

#[inline(always)]
fn offset_at(src: &[u8], ip: usize) -> usize {
    // The callers' checks keep both bytes inside; else offset 0, which is refused.
    match src.get(ip..ip + 2) {
        Some(&[low, high]) => usize::from(u16::from_le_bytes([low, high])),
        _ => 0,
    }
}

/// The match length of `token` and its extension bytes, plus 4.
#[inline(always)]
fn match_length(src: &[u8], ip: &mut usize, token: u8) -> Result<usize, Refusal> {
    let len = usize::from(token & 0x0f);
    if len == MORE {
        let more = read_length(src, ip, src.len().saturating_sub(4), false, MATCH_BYTES)?;
        len.checked_add(more)
            .map(|l| l + MINMATCH)
            .ok_or_else(|| overflow(*ip))
    } else {
        Ok(len + MINMATCH)
    }
}

/// C's `read_variable_length`: bytes added while they are 255, each of which must end
/// by `limit` (15 bytes before the input's end for literals, 4 for matches).
#[inline]
fn read_length(
    src: &[u8],
    ip: &mut usize,
    limit: usize,
    initial_check: bool,
    expected: &'static str,
) -> Result<usize, Refusal> {
    if initial_check && *ip >= limit {
        return Err(refused(expected, limit, *ip + 1, *ip));
    }
    let mut len = 0usize;
    loop {
        let b = byte(src, *ip)?;
        *ip += 1;
        len += usize::from(b);
        if *ip > limit {
            return Err(refused(expected, limit, *ip, *ip));
        }
        // C's accumulator check (it only matters where usize is 32 bits).
        if len > usize::MAX / 2 {
            return Err(overflow(*ip));
        }
        if b != 255 {
            return Ok(len);
        }
    }
}

/// Copies `N` bytes from `src[ip..]` to `dest[op..]` (a fixed-size move).
#[inline(always)]
fn copy<const N: usize>(dest: &mut [u8], op: usize, src: &[u8], ip: usize) {
    let chunk: &[u8; N] = src[ip..ip + N].try_into().expect("N bytes");
    dest[op..op + N].copy_from_slice(chunk);
}

/// A match of at most 18 bytes at offset 8 or more, as three moves of 8, 8 and 2 (each
/// reads only bytes already written), with room for all 18.
#[inline(always)]
fn copy_short_match(dest: &mut [u8], op: usize, offset: usize) {
    // One window from the match to the copy's end, `offset + 18` bytes: the offset is
    // 16 bits, so every index below is known within it (one bounds check).
    let window = &mut dest[op - offset..][..offset + 18];
    for (from, len) in [(0, 8), (8, 8), (16, 2)] {
        window.copy_within(from..from + len, offset + from);
    }
}

/// Non-final literals (at least 12 output and 8 input bytes before the ends).
#[inline(always)]
fn copy_literals(dest: &mut [u8], op: usize, src: &[u8], ip: usize, len: usize) {
    if len <= 16 && op + 16 <= dest.len() && ip + 16 <= src.len() {
        copy::<16>(dest, op, src, ip);
    } else {
        dest[op..op + len].copy_from_slice(&src[ip..ip + len]);
    }
}

#[cfg(test)]
mod tests;
