//! Huffman literals through libzstd's double-symbol decoder (`HUF_decompress4X2`,
//! `HUF_decompress1X2`), which it picks for 4 streams when it expects it to be faster
//! (`HUF_selectDecoder`) and always for a dictionary's table. On a valid stream it
//! gives the single-symbol decoder's literals; on a corrupted one its own: a lookup
//! takes two codes when both fit the table's bits, the last literal of a stream may
//! take two codes' bits (`HUF_decodeLastSymbolX2`), and a stream decoding faster than
//! the fourth may pass its segment's end.

use alloc::vec::Vec;

use super::bits::{BitStream, Status};
use super::fast4::Fast4;

/// A double-symbol table from a single-symbol one (`dt[v] = symbol << 8 | length`,
/// `log` bits): `first | second << 8 | bits << 16 | count << 24`.
pub(super) fn build(dt: &[u16], log: u32, out: &mut Vec<u32>) {
    let mask = (1usize << log) - 1;
    out.clear();
    out.extend((0..=mask).map(|v| {
        let e1 = dt[v];
        let n1 = u32::from(e1 & 0x3f);
        let s1 = u32::from(e1 >> 8);
        if n1 < log {
            let e2 = dt[(v << n1) & mask];
            let n2 = u32::from(e2 & 0x3f);
            if n1 + n2 <= log {
                return s1 | u32::from(e2 >> 8) << 8 | (n1 + n2) << 16 | 2 << 24;
            }
        }
        s1 | n1 << 16 | 1 << 24
    }));
}

/// `HUF_decodeSymbolX2`: writes two bytes at `p` (the second only inside `out`, as
/// libzstd's margins keep it), returns how many literals it decoded.
#[inline(always)]
fn symbol(bits: &mut BitStream<'_>, out: &mut [u8], p: usize, dt: &[u32], log: u32) -> usize {
    let e = dt[bits.peek_fast(log) as usize & (dt.len() - 1)];
    if let Some(first) = out.get_mut(p) {
        *first = e as u8;
    }
    if let Some(next) = out.get_mut(p + 1) {
        *next = (e >> 8) as u8;
    }
    bits.skip((e >> 16) & 0xff);
    (e >> 24) as usize
}

/// `HUF_decodeStreamX2`: fills `out[p..end]`.
fn stream(
    bits: &mut BitStream<'_>,
    out: &mut [u8],
    mut p: usize,
    end: usize,
    dt: &[u32],
    log: u32,
) {
    if end - p >= 8 {
        let (batch, margin) = if log <= 11 { (5, 9) } else { (4, 7) };
        while bits.reload() == Status::Unfinished && p + margin < end {
            for _ in 0..batch {
                p += symbol(bits, out, p, dt, log);
            }
        }
    } else {
        bits.reload();
    }
    if end - p >= 2 {
        while bits.reload() == Status::Unfinished && p + 2 <= end {
            p += symbol(bits, out, p, dt, log);
        }
        while p + 2 <= end {
            p += symbol(bits, out, p, dt, log);
        }
    }
    if p < end {
        // The last literal: a lookup of two codes skips both, then no further than
        // the stream's start.
        let e = dt[bits.peek_fast(log) as usize & (dt.len() - 1)];
        out[p] = e as u8;
        if e >> 24 == 1 {
            bits.skip((e >> 16) & 0xff);
        } else if bits.consumed() < 64 {
            bits.skip((e >> 16) & 0xff);
            bits.clamp_to_start();
        }
    }
}

/// One stream (`HUF_decompress1X2_usingDTable_internal_body`).
pub(super) fn decode1(
    src: &[u8],
    out: &mut [u8],
    dt: &[u32],
    log: u32,
) -> Result<(), &'static str> {
    let mut bits = BitStream::new(src, 0, src.len())
        .ok_or("a Huffman stream ending in a byte with its end mark")?;
    let end = out.len();
    stream(&mut bits, out, 0, end, dt, log);
    if !bits.finished() {
        return Err("a single Huffman stream ending exactly after its literals");
    }
    Ok(())
}

/// Four streams without the fast loop (`HUF_decompress4X2_usingDTable_internal_body`):
/// 4 lookups per stream and round while every stream has bits and the fourth is 8
/// literals or more from its end; then each stream finished, and wanted exactly used.
pub(super) fn decode4(
    src: &[u8],
    starts: [usize; 4],
    out: &mut [u8],
    dt: &[u32],
    log: u32,
) -> Result<(), &'static str> {
    let len = out.len();
    let seg = len.div_ceil(4);
    let ends = [starts[1], starts[2], starts[3], src.len()];
    let mut bits = Vec::with_capacity(4);
    for i in 0..4 {
        bits.push(
            BitStream::new(src, starts[i], ends[i])
                .ok_or("Huffman streams each ending in a byte with its end mark")?,
        );
    }
    let seg_end = [seg, 2 * seg, 3 * seg, len];
    let mut op = [0, seg, 2 * seg, 3 * seg];
    if len - op[3] >= 8 {
        let olimit = len - 7;
        while op[3] < olimit {
            for _ in 0..4 {
                for s in 0..4 {
                    op[s] += symbol(&mut bits[s], out, op[s], dt, log);
                }
            }
            let mut go = true;
            for b in bits.iter_mut() {
                go &= b.reload_fast() == Status::Unfinished;
            }
            if !go {
                break;
            }
        }
    }
    if op[0] > seg_end[0] || op[1] > seg_end[1] || op[2] > seg_end[2] {
        return Err("each Huffman stream's literals within its segment");
    }
    for s in 0..4 {
        stream(&mut bits[s], out, op[s], seg_end[s], dt, log);
    }
    if !bits.iter().all(BitStream::finished) {
        return Err("each Huffman stream ending exactly after its literals");
    }
    Ok(())
}

/// libzstd's fast loop for the double-symbol decoder (x86-64 with BMI2, 11-bit table,
/// streams of 8 bytes or more), then each stream finished without an end check.
/// `None` when libzstd would not take it.
pub(super) fn decode4_fast(
    src: &[u8],
    starts: [usize; 4],
    out: &mut [u8],
    dt: &[u32],
) -> Result<Option<()>, &'static str> {
    let len = out.len();
    let Some(mut f) = Fast4::start(src, starts, len) else {
        return Ok(None);
    };
    let oend = [f.op[1], f.op[2], f.op[3], len];
    loop {
        let room = oend.iter().zip(f.op).map(|(end, op)| (end - op) / 10);
        let iters = room.fold(f.ip[0] / 7, usize::min);
        let olimit = f.op[3] + iters * 5;
        if f.op[3] == olimit || f.crossed() {
            break;
        }
        // Symbol by symbol across the 4 streams (independent, so their lookups
        // overlap); each round writes at most 10 bytes per stream, within its segment.
        let table: &[u32; 2048] = dt.try_into().map_err(|_| "an 11-bit Huffman table")?;
        while f.op[3] < olimit {
            for _ in 0..5 {
                for s in 0..4 {
                    let e = table[(f.bits[s] >> 53) as usize];
                    let o = f.op[s];
                    out[o..o + 2].copy_from_slice(&(e as u16).to_le_bytes());
                    f.bits[s] <<= (e >> 16) & 0x3f;
                    f.op[s] = o + (e >> 24) as usize;
                }
            }
            f.reload(src)?;
        }
    }
    for i in 0..4 {
        let end = ((i + 1) * f.seg).min(len);
        let mut rest = f.rest(src, &starts, i, end)?;
        stream(&mut rest, out, f.op[i], end, dt, 11);
    }
    Ok(Some(()))
}
