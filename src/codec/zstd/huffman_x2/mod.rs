//! Huffman literals through libzstd's double-symbol decoder (`HUF_decompress4X2`,
//! `HUF_decompress1X2`), which it picks for 4 streams when it expects it to be faster
//! (`HUF_selectDecoder`) and always for a dictionary's table. On a valid stream it
//! gives the single-symbol decoder's literals; on a corrupted one its own: a lookup
//! takes two codes when both fit the table's bits, the last literal of a stream may
//! take two codes' bits (`HUF_decodeLastSymbolX2`), and a stream decoding faster than
//! the fourth may pass its segment's end.

use alloc::vec::Vec;

mod table;
#[cfg(test)]
mod tests;

pub(super) use table::build;
use table::{count, length, literals};

use super::bits::{BitStream, Status};
use super::fast4::Fast4;
use crate::simd::{ScalarKernel, Unit};

/// The most literals a block has (`ZSTD_BLOCKSIZE_MAX`).
const MAX_LITERALS: usize = 128 << 10;

/// The bytes the fast loop writes in (the literals from its start): the places of
/// `MAX_LITERALS` literals and as many bytes as a round's lookups may go past them,
/// as far as the compiler can tell (see `rounds`).
const ROOM: usize = MAX_LITERALS + 2048;

/// The longest 4 streams (a compressed block's most, `ZSTD_BLOCKSIZE_MAX`).
const MAX_STREAMS: usize = 128 << 10;

/// Where the fast loop's copy of the table starts in its work area (after the room).
const TABLE_AT: usize = ROOM;

/// Where its copy of the entries' literals starts (after the table's 2048 entries
/// of 4 bytes).
const PAIRS_AT: usize = TABLE_AT + 4 * 2048;

/// Where its copy of the streams starts (after the 2048 pairs of literals).
const STREAMS_AT: usize = PAIRS_AT + 2 * 2048;

/// The fast loop's work area: the literals' room, the table, the streams and the 8
/// bytes a read may take past their end.
pub(super) const WORK: usize = STREAMS_AT + STREAMS_ROOM;

/// The streams the fast loop reads: the longest and the 8 bytes a read may take
/// past their end.
const STREAMS_ROOM: usize = MAX_STREAMS + 8;

/// `HUF_decodeSymbolX2`: writes two bytes at `p` (the second only inside `out`, as
/// libzstd's margins keep it), returns how many literals it decoded.
#[inline(always)]
fn symbol(bits: &mut BitStream<'_>, out: &mut [u8], p: usize, dt: &[u32], log: u32) -> usize {
    let e = dt[bits.peek_fast(log) as usize & (dt.len() - 1)];
    if let Some(first) = out.get_mut(p) {
        *first = literals(e) as u8;
    }
    if let Some(next) = out.get_mut(p + 1) {
        *next = (literals(e) >> 8) as u8;
    }
    bits.skip(length(e));
    count(e)
}

/// 5 lookups (`HUF_DECODE_SYMBOLX2_0` to `_2`) into the 10 bytes of `w`: the literals
/// they decoded. A count is 1 or 2, so the `i`th lookup writes at `2 * i` or before
/// (clamped there, so that no write needs a check).
#[inline(always)]
fn five(bits: &mut BitStream<'_>, w: &mut [u8; 10], dt: &[u32], log: u32) -> usize {
    let mut k = 0;
    for i in 0..5 {
        let e = dt[bits.peek_fast(log) as usize & (dt.len() - 1)];
        let at = k.min(2 * i);
        w[at..at + 2].copy_from_slice(&literals(e).to_le_bytes());
        bits.skip(length(e));
        k += count(e);
    }
    k
}

/// `HUF_decodeStreamX2` on up to 4 streams side by side, so that their lookups
/// overlap: each fills `out[p..end]` (their segments apart), its own steps in
/// libzstd's order.
fn decode_streams(
    bits: &mut [BitStream<'_>],
    out: &mut [u8],
    p: &mut [usize],
    end: &[usize],
    dt: &[u32],
    log: u32,
) {
    // Which streams take the loop of 5 lookups; the others take their branch now.
    let mut live = [false; 4];
    for (((bits, p), &end), live) in bits.iter_mut().zip(&mut *p).zip(end).zip(&mut live) {
        if end - *p >= 8 && log <= 11 {
            *live = true;
        } else if end - *p >= 8 {
            while bits.reload() == Status::Unfinished && *p + 7 < end {
                for _ in 0..4 {
                    *p += symbol(bits, out, *p, dt, log);
                }
            }
        } else {
            bits.reload();
        }
    }
    while live.contains(&true) {
        for (((bits, p), &end), live) in bits.iter_mut().zip(&mut *p).zip(end).zip(&mut live) {
            *live = *live && bits.reload() == Status::Unfinished && *p + 9 < end;
            if !*live {
                continue;
            }
            let Some(w) = out.get_mut(*p..).and_then(<[u8]>::first_chunk_mut) else {
                *live = false;
                continue;
            };
            *p += five(bits, w, dt, log);
        }
    }
    for ((bits, &p), &end) in bits.iter_mut().zip(&*p).zip(end) {
        finish(bits, out, p, end, dt, log);
    }
}

/// The end of `HUF_decodeStreamX2`: `out[p..end]` a lookup at a time.
fn finish(
    bits: &mut BitStream<'_>,
    out: &mut [u8],
    mut p: usize,
    end: usize,
    dt: &[u32],
    log: u32,
) {
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
        out[p] = literals(e) as u8;
        if count(e) == 1 {
            bits.skip(length(e));
        } else if bits.consumed() < 64 {
            bits.skip(length(e));
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
    decode_streams(
        core::slice::from_mut(&mut bits),
        out,
        &mut [0],
        &[end],
        dt,
        log,
    );
    if !bits.finished() {
        return Err("a single Huffman stream ending exactly after its literals");
    }
    Ok(())
}

/// The rounds of the fast loop, as a [`ScalarKernel`]: compiled for the scalar unit's
/// features (BMI2's shifts take their count from any register).
struct Rounds<'a> {
    work: &'a mut [u8; STREAMS_AT],
    streams: &'a [u8; STREAMS_ROOM],
    len: usize,
    f: Fast4,
}

impl ScalarKernel for Rounds<'_> {
    type Output = Result<Fast4, &'static str>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        rounds(self.work, self.streams, self.len, self.f)
    }
}

/// The `N` bytes at `at` of `work` (zeros past its end, which no caller reaches: the
/// compiler sees each `at` within it and drops the check).
#[inline(always)]
fn bytes<const N: usize, const M: usize>(area: &[u8; M], at: usize) -> [u8; N] {
    area.get(at..)
        .and_then(<[u8]>::first_chunk)
        .copied()
        .unwrap_or([0; N])
}

/// Rounds of 5 lookups per stream while every stream has 10 bytes of room in its
/// segment and the first has 7 bytes to read; `len` (at most `MAX_LITERALS`) of
/// `work` are the literals, the table and the streams after them (see [`WORK`]).
#[inline(always)]
fn rounds(
    work: &mut [u8; STREAMS_AT],
    streams: &[u8; STREAMS_ROOM],
    len: usize,
    mut f: Fast4,
) -> Result<Fast4, &'static str> {
    let oend = [f.op[1], f.op[2], f.op[3], len];
    loop {
        let room = oend.iter().zip(f.op).map(|(end, op)| (end - op) / 10);
        let iters = room.fold(f.ip[0] / 7, usize::min);
        let olimit = f.op[3] + iters * 5;
        if f.op[3] == olimit || f.crossed() {
            return Ok(f);
        }
        // Symbol by symbol across the 4 streams (independent, so their lookups
        // overlap), each lookup's two bytes written where its stream is, as libzstd
        // does: a round writes at most 10 bytes per stream, within its segment (a
        // count is 1 or 2, and the room was checked for the rounds). Every place is
        // taken below `MAX_LITERALS` at each round's start, and every read below
        // `MAX_STREAMS` (no-ops: `len` is at most the one, the streams' length at most
        // the other), so that the compiler sees every access of the round within
        // `work` or `streams` (4 counts of at most 255 further on): no bounds check in
        // the round, and one base register for the lookups (the table, the literals
        // and their places), the streams' own taken once a round.
        let (mut op, mut ip, mut bits) = (f.op, f.ip, f.bits);
        while op[3] < olimit {
            for op in &mut op {
                *op &= MAX_LITERALS - 1;
            }
            for _ in 0..5 {
                for s in 0..4 {
                    // The entry, and its literals from their own copy (one
                    // instruction fewer than taking them out of the entry).
                    let index = (bits[s] >> 53) as usize;
                    let e = u32::from_le_bytes(bytes(work, TABLE_AT + 4 * index));
                    let pair: [u8; 2] = bytes(work, PAIRS_AT + 2 * index);
                    work[op[s]..op[s] + 2].copy_from_slice(&pair);
                    bits[s] <<= e & 0x3f;
                    op[s] += count(e);
                }
            }
            for s in 0..4 {
                let ctz = bits[s].trailing_zeros();
                ip[s] = ip[s]
                    .checked_sub((ctz >> 3) as usize)
                    .ok_or("Huffman streams within the literals")?;
                let word = bytes(streams, ip[s] & (MAX_STREAMS - 1));
                bits[s] = (u64::from_le_bytes(word) | 1) << (ctz & 7);
            }
        }
        (f.op, f.ip, f.bits) = (op, ip, bits);
    }
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
    decode_streams(&mut bits, out, &mut op, &seg_end, dt, log);
    if !bits.iter().all(BitStream::finished) {
        return Err("each Huffman stream ending exactly after its literals");
    }
    Ok(())
}

/// libzstd's fast loop for the double-symbol decoder (x86-64 with BMI2, 11-bit table,
/// streams of 8 bytes or more) on the `len` literals at the start of `buf` (which
/// holds [`WORK`] bytes), then the streams finished side by side without an end check.
/// `window` starts with `src` and may go on (the rest of the chunk): see
/// [`streams_in`]. `None` when libzstd would not take the loop.
pub(super) fn decode4_fast(
    (src, window): (&[u8], &[u8]),
    starts: [usize; 4],
    buf: &mut [u8],
    len: usize,
    dt: &[u32],
) -> Result<Option<()>, &'static str> {
    let Some(mut f) = Fast4::start(src, starts, len) else {
        return Ok(None);
    };
    let (work, copy) = buf
        .split_first_chunk_mut::<STREAMS_AT>()
        .filter(|_| len <= MAX_LITERALS)
        .ok_or("at most 128 KiB of literals")?;
    let Some(streams) = streams_in((src, window), copy) else {
        // Longer than a block: refused before (`BLOCK_SIZE_MAX`).
        return Ok(None);
    };
    copy_table(work, dt)?;
    f = Unit::scalar().run(Rounds {
        work,
        streams,
        len,
        f,
    })?;
    let ends: [usize; 4] = core::array::from_fn(|i| ((i + 1) * f.seg).min(len));
    let [r0, r1, r2, r3] = [0, 1, 2, 3].map(|i| f.rest(src, &starts, i, ends[i]));
    let mut rest = [r0?, r1?, r2?, r3?];
    decode_streams(&mut rest, &mut buf[..len], &mut f.op, &ends, dt, 11);
    Ok(Some(()))
}

/// The streams `src` for the fast loop: where they are when the frame (`window`,
/// from the streams' start) goes on far enough, else copied into `copy`. `None`
/// when they are longer than a block.
fn streams_in<'a>(
    (src, window): (&[u8], &'a [u8]),
    copy: &'a mut [u8],
) -> Option<&'a [u8; STREAMS_ROOM]> {
    if let Some(streams) = window.first_chunk::<STREAMS_ROOM>() {
        return Some(streams);
    }
    let copy = copy.first_chunk_mut::<STREAMS_ROOM>()?;
    copy.get_mut(..src.len())?.copy_from_slice(src);
    Some(copy)
}

/// The 11-bit table `dt` where the fast loop reads it: its entries, then their
/// literals alone.
fn copy_table(work: &mut [u8; STREAMS_AT], dt: &[u32]) -> Result<(), &'static str> {
    if dt.len() != 2048 {
        return Err("an 11-bit Huffman table");
    }
    let (entries, pairs) = work[TABLE_AT..].split_at_mut(PAIRS_AT - TABLE_AT);
    for (at, &e) in entries.chunks_exact_mut(4).zip(dt) {
        at.copy_from_slice(&e.to_le_bytes());
    }
    for (pair, &e) in pairs.chunks_exact_mut(2).zip(dt) {
        pair.copy_from_slice(&literals(e).to_le_bytes());
    }
    Ok(())
}
