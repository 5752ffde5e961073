//! BloscLZ streams (`blosclz_decompress` in C-Blosc2's `blosc/blosclz.c`): an LZ77 of
//! FastLZ level-1 style, decoded here with every read and copy bounds-checked.
//!
//! Each control byte is either a literal run (below 32: the next `ctrl + 1` bytes) or a
//! match (`len - 2` in bits 5..7, 7 meaning more length bytes follow while they are 255;
//! then a distance byte added to bits 0..4 shifted by 8; a distance byte 255 with high
//! bits 31 means a 16-bit big-endian far distance follows, plus 8191). The copy starts
//! `distance + 1` bytes back and may overlap what it writes. As in C, the first control
//! byte keeps only its low 5 bits, and a match that is the stream's last byte is not
//! copied.

use alloc::format;

use super::Refusal;

/// Far matches add this to their 16-bit distance.
const MAX_DISTANCE: usize = 8191;
/// Control bytes below this are literal runs.
const LITERAL_LIMIT: u8 = 32;
/// Match length bits that mean "more length bytes follow".
const LONG_MATCH: usize = 7;

fn bad(message: alloc::string::String) -> Refusal {
    Refusal { message }
}

/// Decompresses `src` into `dest` (C's `blosclz_decompress` with `maxout = dest.len()`):
/// the stream's length as far as decoded, which the caller checks is `dest.len()` (as
/// `blosc_d` does). A match or run that would go past `dest` stops it there, and is
/// counted in the length returned (more than `dest.len()`: the stream holds at least that).
pub(crate) fn decompress(src: &[u8], dest: &mut [u8]) -> Result<usize, Refusal> {
    let (n, maxout) = (src.len(), dest.len());
    let Some(&first) = src.first() else {
        return Err(bad(format!(
            "an empty stream for a block of {maxout} bytes"
        )));
    };
    let mut ip = 1usize;
    let mut op = 0usize;
    let mut ctrl = first & (LITERAL_LIMIT - 1);
    loop {
        if ctrl >= LITERAL_LIMIT {
            let mut len = usize::from(ctrl >> 5) - 1;
            let ofs = usize::from(ctrl & (LITERAL_LIMIT - 1)) << 8;
            if len == LONG_MATCH - 1 {
                loop {
                    // C wants a byte after each length byte (`ip + 1 < ip_limit`).
                    let Some(&code) = src.get(ip).filter(|_| ip + 1 < n) else {
                        return Err(cut(ip));
                    };
                    ip += 1;
                    len += usize::from(code);
                    if code != 255 {
                        break;
                    }
                }
            } else if ip + 1 >= n {
                return Err(cut(ip));
            }
            let Some(&code) = src.get(ip) else {
                return Err(cut(ip));
            };
            ip += 1;
            len += 3;
            let mut back = ofs + usize::from(code);
            if code == 255 && ofs == 31 << 8 {
                let (Some(&hi), Some(&lo)) = (src.get(ip), src.get(ip + 1)) else {
                    return Err(cut(ip));
                };
                ip += 2;
                back = (usize::from(hi) << 8 | usize::from(lo)) + MAX_DISTANCE;
            }
            if op + len > maxout {
                // The stream holds more than the block: at least this much.
                return Ok(op + len);
            }
            // C copies from `op - back - 1`, and refuses a start before the block.
            if back + 1 > op {
                return Err(bad(format!(
                    "a match {} bytes back after {op} bytes of output",
                    back + 1
                )));
            }
            let Some(&c) = src.get(ip) else { break };
            ip += 1;
            copy_match(dest, op, back + 1, len);
            op += len;
            ctrl = c;
        } else {
            let run = usize::from(ctrl) + 1;
            if op + run > maxout {
                return Ok(op + run);
            }
            let Some(literal) = src.get(ip..ip + run) else {
                return Err(bad(format!(
                    "a literal run of {run} bytes at the stream's byte {ip} past its end"
                )));
            };
            // A run is at most 32 bytes: copied as 32 when both sides hold them (the
            // bytes past the run are written again later), a constant-length move.
            match (src.get(ip..ip + WILD), dest.get_mut(op..op + WILD)) {
                (Some(from), Some(to)) => to.copy_from_slice(from),
                _ => dest[op..op + run].copy_from_slice(literal),
            }
            op += run;
            ip += run;
            let Some(&c) = src.get(ip) else { break };
            ip += 1;
            ctrl = c;
        }
    }
    Ok(op)
}

/// Bytes moved at once where the stream and the block hold them (the longest literal run).
const WILD: usize = 32;

fn cut(ip: usize) -> Refusal {
    bad(format!("a match cut short at the stream's byte {ip}"))
}

/// Copies `len` bytes starting `dist` bytes before `op` to `op`, as a byte-by-byte
/// forward copy would (overlapping copies repeat the last `dist` bytes). The caller
/// checked `dist <= op` and `op + len <= dest.len()`.
#[inline]
fn copy_match(dest: &mut [u8], op: usize, dist: usize, len: usize) {
    let from = op - dist;
    if dist >= WILD && op + len.next_multiple_of(WILD) <= dest.len() {
        // Constant-length moves, each reading only bytes written before it; the last
        // may write past the match, into bytes written again later.
        for k in (0..len).step_by(WILD) {
            dest.copy_within(from + k..from + k + WILD, op + k);
        }
    } else if dist >= len {
        dest.copy_within(from..from + len, op);
    } else if dist == 1 {
        let b = dest[from];
        dest[op..op + len].fill(b);
    } else {
        // Each copy of `step` bytes reads only bytes already written; the pattern
        // doubles each time.
        let (mut done, mut step) = (0, dist);
        while done < len {
            let take = step.min(len - done);
            dest.copy_within(from..from + take, op + done);
            done += take;
            step += take;
        }
    }
}
