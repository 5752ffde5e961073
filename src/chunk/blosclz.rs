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
use alloc::vec::Vec;

use super::error::ChunkErrorKind;
use super::header::ChunkCodec;

/// Far matches add this to their 16-bit distance.
const MAX_DISTANCE: usize = 8191;
/// Control bytes below this are literal runs.
const LITERAL_LIMIT: u8 = 32;
/// Match length bits that mean "more length bytes follow".
const LONG_MATCH: usize = 7;

fn bad(message: alloc::string::String) -> ChunkErrorKind {
    ChunkErrorKind::Codec {
        codec: ChunkCodec::BloscLz,
        message,
    }
}

/// Decompresses `src` into exactly `neblock` more bytes of `out`.
pub(super) fn decompress(
    src: &[u8],
    neblock: usize,
    out: &mut Vec<u8>,
) -> Result<(), ChunkErrorKind> {
    let start = out.len();
    let limit = start + neblock;
    let mut ip = 0usize;
    let next = |ip: &mut usize, what: &str| -> Result<u8, ChunkErrorKind> {
        let b = src
            .get(*ip)
            .copied()
            .ok_or_else(|| bad(format!("the stream ends before {what} at its byte {ip}")))?;
        *ip += 1;
        Ok(b)
    };
    let Some(&first) = src.first() else {
        return Err(bad(format!(
            "an empty stream for a block of {neblock} bytes"
        )));
    };
    ip += 1;
    let mut ctrl = first & (LITERAL_LIMIT - 1);
    loop {
        if ctrl >= LITERAL_LIMIT {
            let mut len = usize::from(ctrl >> 5);
            let mut distance = usize::from(ctrl & (LITERAL_LIMIT - 1)) << 8;
            if len == LONG_MATCH {
                loop {
                    let code = next(&mut ip, "a match length")?;
                    len += usize::from(code);
                    if code != 255 {
                        break;
                    }
                }
            }
            // C wants one more byte than the distance byte here (`ip + 1 < ip_limit`).
            if ip + 1 >= src.len() {
                return Err(bad(format!("a match cut short at the stream's byte {ip}")));
            }
            let code = next(&mut ip, "a match distance")?;
            len += 2; // C: (bits - 1 + extra) + 3
            distance += usize::from(code);
            if code == 255 && distance == (31 << 8) + 255 {
                if ip + 1 >= src.len() {
                    return Err(bad(format!(
                        "a far match cut short at the stream's byte {ip}"
                    )));
                }
                let hi = next(&mut ip, "a far distance")?;
                let lo = next(&mut ip, "a far distance")?;
                distance = (usize::from(hi) << 8 | usize::from(lo)) + MAX_DISTANCE;
            }
            let back = distance + 1;
            if out.len() + len > limit {
                return Err(stream_too_long(neblock, out.len() + len - start));
            }
            if back > out.len() - start {
                return Err(bad(format!(
                    "a match {back} bytes back after {} bytes of output",
                    out.len() - start
                )));
            }
            let Some(&c) = src.get(ip) else { break };
            ip += 1;
            let from = out.len() - back;
            for k in 0..len {
                let b = out.get(from + k).copied().unwrap_or(0);
                out.push(b);
            }
            ctrl = c;
        } else {
            let run = usize::from(ctrl) + 1;
            if out.len() + run > limit {
                return Err(stream_too_long(neblock, out.len() + run - start));
            }
            let Some(literal) = src.get(ip..ip + run) else {
                return Err(bad(format!(
                    "a literal run of {run} bytes at the stream's byte {ip} past its end"
                )));
            };
            out.extend_from_slice(literal);
            ip += run;
            let Some(&c) = src.get(ip) else { break };
            ip += 1;
            ctrl = c;
        }
    }
    let produced = out.len() - start;
    if produced != neblock {
        return Err(ChunkErrorKind::StreamLength {
            expected: neblock as u64,
            found: produced as u64,
        });
    }
    Ok(())
}

fn stream_too_long(neblock: usize, found: usize) -> ChunkErrorKind {
    ChunkErrorKind::StreamLength {
        expected: neblock as u64,
        found: found as u64,
    }
}
