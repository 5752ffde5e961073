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

use super::error::Refusal;

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

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Decodes `src` into `n` bytes: the bytes (or the length when past `n`), or the
    /// refusal.
    fn run(src: &[u8], n: usize) -> Result<Vec<u8>, String> {
        let mut dest = vec![0; n];
        match decompress(src, &mut dest) {
            Ok(len) if len <= n => Ok(dest[..len].to_vec()),
            Ok(len) => Ok(vec![0xee; len]),
            Err(e) => Err(e.message),
        }
    }

    /// Hand-assembled streams, one per rule: (stream, block length, result).
    #[test]
    fn edge_cases() {
        let ok = |b: &[u8]| Ok(b.to_vec());
        let err = |m: &str| Err(String::from(m));
        type Case<'a> = (&'a [u8], usize, Result<Vec<u8>, String>);
        let cases: [Case; 11] = [
            // A literal run of ctrl + 1 bytes; the first control byte keeps its low 5 bits.
            (b"\x02abc", 3, ok(b"abc")),
            (b"\x22abc", 3, ok(b"abc")),
            // A match of (ctrl >> 5) + 2 bytes, distance byte + 1 back, overlapping.
            (b"\x01ab\x40\x01\x00z", 7, ok(b"abababz")),
            // Length bits 7: a length byte follows (here 2, for 11 bytes).
            (b"\x00a\xe0\x02\x00\x00z", 13, ok(b"aaaaaaaaaaaaz")),
            // A match wants a byte after it; a distance before the block is refused.
            (
                b"\x01ab\x40\x01",
                7,
                err("a match cut short at the stream's byte 4"),
            ),
            (
                b"\x01ab\xe0\xff\xff",
                300,
                err("a match cut short at the stream's byte 5"),
            ),
            (
                b"\x00a\x40\x05\x00z",
                6,
                err("a match 6 bytes back after 1 bytes of output"),
            ),
            // Runs past the stream; runs and matches past the block give the length.
            (
                b"\x05a",
                6,
                err("a literal run of 6 bytes at the stream's byte 1 past its end"),
            ),
            (b"\x02abc", 2, Ok(vec![0xee; 3])),
            (b"\x01ab\x40\x01\x00z", 5, Ok(vec![0xee; 6])),
            (b"", 3, err("an empty stream for a block of 3 bytes")),
        ];
        for (i, (src, n, expected)) in cases.into_iter().enumerate() {
            assert_eq!(run(src, n), expected, "case {i}");
        }
    }

    /// A far match: distance byte 255 with bits 31, then 16 big-endian bits plus 8191.
    #[test]
    fn far_match() {
        let out: Vec<u8> = (0..32 * 258).map(|i| (i * 7 % 251) as u8).collect();
        let mut src = Vec::new();
        for run in out.chunks(32) {
            src.push(31);
            src.extend_from_slice(run);
        }
        // 3 bytes from 5 + 8191 + 1 back, then a literal 'z'.
        src.extend_from_slice(b"\x3f\xff\x00\x05\x00z");
        let from = out.len() - 8197;
        let expected = [&out[..], &out[from..from + 3], b"z"].concat();
        assert_eq!(run(&src, expected.len()), Ok(expected));
    }
}
