//! Huffman-coded literals as libzstd 1.5.7 (C-Blosc2 3.3.5's; 1.5.6 alike) decodes them
//! (`lib/decompress/huf_decompress.c`): the tree description (`HUF_readStats`), a
//! single-symbol table of 11 or 12 bits (`HUF_readDTableX1`), one stream, and four: with
//! the x86-64 fast loop (`HUF_decompress4X1_usingDTable_internal_fast`, what libzstd runs
//! on a CPU with BMI2 when every stream has 8 bytes or more and the table 11 bits), whose
//! streams may read into the stream before them and are not checked to end exactly, or else
//! the plain loop, which wants each stream to end exactly after its literals.

use alloc::vec::Vec;

use super::bits::{BitStream, Status};
use super::fast4::Fast4;
use crate::simd::{ScalarKernel, Unit};

/// The largest Huffman table log (`HUF_TABLELOG_MAX`).
const TABLELOG_MAX: u32 = 12;
/// The table log of libzstd's fast 4-stream decoder (`HUF_DECODER_FAST_TABLELOG`).
const FAST_LOG: u32 = 11;

/// A decoding table: `dt[top dt_log bits] = symbol << 8 | code length`.
#[derive(Clone)]
pub(super) struct Table {
    log: u32,
    dt: Vec<u16>,
    /// The double-symbol table, when [`Table::double`].
    dt2: Vec<u32>,
    /// The spans `dt2` is made from (`huffman_x2::build`).
    spans: Vec<u32>,
    /// libzstd chose its double-symbol decoder for this table (`HUF_selectDecoder`).
    pub(super) double: bool,
}

impl Table {
    pub(super) const fn new() -> Self {
        Table {
            log: 0,
            dt: Vec::new(),
            dt2: Vec::new(),
            spans: Vec::new(),
            double: false,
        }
    }
}

/// Reads a tree description into `table`; returns the bytes it takes.
pub(super) fn read_table(src: &[u8], table: &mut Table) -> Result<usize, &'static str> {
    let mut weights = [0u8; 256];
    let (&head, rest) = src.split_first().ok_or("a Huffman tree description")?;
    let (n, used) = if head >= 128 {
        let n = usize::from(head - 127);
        let packed = rest
            .get(..n.div_ceil(2))
            .ok_or("Huffman weights within the literals")?;
        for (i, w) in weights.iter_mut().take(n).enumerate() {
            let b = packed[i / 2];
            *w = if i % 2 == 0 { b >> 4 } else { b & 15 };
        }
        (n, 1 + n.div_ceil(2))
    } else {
        let fse = rest
            .get(..usize::from(head))
            .ok_or("FSE-coded Huffman weights within the literals")?;
        (
            super::fse::weights(fse, &mut weights)?,
            1 + usize::from(head),
        )
    };
    let mut counts = [0u32; TABLELOG_MAX as usize + 1];
    let mut total = 0u32;
    for &w in &weights[..n] {
        if u32::from(w) > TABLELOG_MAX {
            return Err("Huffman weights of at most 12");
        }
        counts[usize::from(w)] += 1;
        total += (1 << w) >> 1;
    }
    if total == 0 {
        return Err("a Huffman weight over 0");
    }
    let log = 32 - total.leading_zeros();
    if log > TABLELOG_MAX {
        return Err("Huffman weights summing to at most 2^12");
    }
    let rest = (1u32 << log) - total;
    if !rest.is_power_of_two() {
        return Err("Huffman weights summing to a power of two with the implied last");
    }
    let last = rest.trailing_zeros() as u8 + 1;
    weights[n] = last;
    counts[usize::from(last)] += 1;
    if counts[1] < 2 || counts[1] % 2 != 0 {
        return Err("an even number of Huffman weight 1, at least 2");
    }
    build(&weights[..=n], &counts, log, table);
    Ok(used)
}

/// `HUF_readDTableX1`: weights rescaled to an 11-bit table when the tree is smaller,
/// codes of weight 1 first, each weight's symbols in order.
fn build(weights: &[u8], counts: &[u32; TABLELOG_MAX as usize + 1], log: u32, table: &mut Table) {
    let dt_log = log.max(FAST_LOG);
    let scale = dt_log - log;
    // Every entry is written below (the weights sum to the table's size, checked):
    // no zeroing first.
    table.dt.resize(1 << dt_log, 0);
    // Where each weight's run of entries starts (from the weights' counts; one pass
    // over the symbols then places them, each weight's in order).
    let mut starts = [0usize; TABLELOG_MAX as usize + 2];
    for w in 1..counts.len() {
        starts[w + 1] = starts[w] + ((counts[w] as usize) << (w as u32 + scale - 1));
    }
    for (s, &w) in weights.iter().enumerate() {
        if w > 0 {
            let len = 1usize << (u32::from(w) + scale - 1);
            let bits = (dt_log + 1 - (u32::from(w) + scale)) as u16;
            let at = starts[usize::from(w)];
            table.dt[at..at + len].fill((s as u16) << 8 | bits);
            starts[usize::from(w)] = at + len;
        }
    }
    table.log = dt_log;
    if table.double {
        super::huffman_x2::build(&table.dt, dt_log, &mut table.dt2, &mut table.spans);
    }
}

/// `HUF_selectDecoder`: whether libzstd decodes 4 streams of `dst` literals from
/// `src` bytes (tree included) with its double-symbol decoder.
pub(super) fn selects_double(dst: usize, src: usize) -> bool {
    const TIME: [[(u32, u32); 2]; 16] = [
        [(0, 0), (1, 1)],
        [(0, 0), (1, 1)],
        [(150, 216), (381, 119)],
        [(170, 205), (514, 112)],
        [(177, 199), (539, 110)],
        [(197, 194), (644, 107)],
        [(221, 192), (735, 107)],
        [(256, 189), (881, 106)],
        [(359, 188), (1167, 109)],
        [(582, 187), (1570, 114)],
        [(688, 187), (1712, 122)],
        [(825, 186), (1965, 136)],
        [(976, 185), (2131, 150)],
        [(1180, 186), (2070, 175)],
        [(1377, 185), (1731, 202)],
        [(1412, 185), (1695, 202)],
    ];
    let q = if src >= dst { 15 } else { src * 16 / dst };
    let d256 = (dst >> 8) as u32;
    let [(t0, d0), (t1, d1)] = TIME[q];
    let time0 = t0 + d0 * d256;
    let mut time1 = t1 + d1 * d256;
    time1 += time1 >> 5;
    time1 < time0
}

/// `HUF_decodeStreamX1`: fills `out` from `bits`, 4 symbols per reload while the
/// stream has bits, then the rest without reloading.
fn decode_stream(bits: &mut BitStream<'_>, out: &mut [u8], table: &Table) {
    let dt = &table.dt[..];
    let log = table.log;
    let mut p = 0;
    let end = out.len();
    let mut one = |bits: &mut BitStream<'_>, p: usize| {
        let e = dt[bits.peek_fast(log) as usize & (dt.len() - 1)];
        out[p] = (e >> 8) as u8;
        bits.skip(u32::from(e & 0x3f));
    };
    if end > 3 {
        while bits.reload() == Status::Unfinished && p < end - 3 {
            one(bits, p);
            one(bits, p + 1);
            one(bits, p + 2);
            one(bits, p + 3);
            p += 4;
        }
    } else {
        bits.reload();
    }
    while p < end {
        one(bits, p);
        p += 1;
    }
}

/// One stream holding exactly `out.len()` literals.
pub(super) fn decode1(src: &[u8], out: &mut [u8], table: &Table) -> Result<(), &'static str> {
    if table.double {
        return super::huffman_x2::decode1(src, out, &table.dt2, table.log);
    }
    let mut bits = BitStream::new(src, 0, src.len())
        .ok_or("a Huffman stream ending in a byte with its end mark")?;
    decode_stream(&mut bits, out, table);
    if bits.consumed() > 64 || bits.reload() == Status::Overflow {
        return Err("every literal's code within its single Huffman stream");
    }
    if !bits.finished() {
        return Err("no bits left in the single Huffman stream after its literals");
    }
    Ok(())
}

fn le16(src: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([src[at], src[at + 1]]))
}

/// Four streams after a 6-byte jump table, `(len + 3) / 4` literals in each of the
/// first three and the rest in the fourth (`HUF_decompress4X_usingDTable`), written
/// at the start of `buf`: the double-symbol decoder's fast loop wants it to hold
/// [`super::huffman_x2::WORK`] bytes.
pub(super) fn decode4(
    (src, window): (&[u8], &[u8]),
    buf: &mut [u8],
    len: usize,
    table: &Table,
) -> Result<(), &'static str> {
    if src.len() < 10 {
        return Err("4 Huffman streams of at least 10 bytes with their jump table");
    }
    let (l1, l2, l3) = (le16(src, 0), le16(src, 2), le16(src, 4));
    let starts = [6, 6 + l1, 6 + l1 + l2, 6 + l1 + l2 + l3];
    let l4 = src.len().wrapping_sub(starts[3]);
    // HUF_DecompressFastArgs_init: the fast loop, or the plain one.
    if len > 0 && table.log == FAST_LOG && l1 >= 8 && l2 >= 8 && l3 >= 8 && l4 >= 8 {
        if l4 > src.len() {
            return Err("4 Huffman streams within the literals");
        }
        let done = if table.double {
            super::huffman_x2::decode4_fast((src, window), starts, buf, len, &table.dt2)?
        } else {
            decode4_fast(src, starts, &mut buf[..len], table)?
        };
        if done.is_some() {
            return Ok(());
        }
    }
    let out = &mut buf[..len];
    if len < 6 {
        return Err("at least 6 literals in 4 Huffman streams");
    }
    if starts[3] > src.len() {
        return Err("4 Huffman streams within the literals");
    }
    if table.double {
        return super::huffman_x2::decode4(src, starts, out, &table.dt2, table.log);
    }
    let seg = len.div_ceil(4);
    let ends = [starts[1], starts[2], starts[3], src.len()];
    for i in 0..4 {
        let chunk = &mut out[(i * seg).min(len)..((i + 1) * seg).min(len)];
        let mut bits = BitStream::new(src, starts[i], ends[i])
            .ok_or("Huffman streams each ending in a byte with its end mark")?;
        decode_stream(&mut bits, chunk, table);
        if !bits.finished() {
            return Err("each Huffman stream ending exactly after its literals");
        }
    }
    Ok(())
}

/// The rounds of [`decode4_fast`], as a [`ScalarKernel`]: compiled for the scalar
/// unit's features (BMI2's shifts take their count from any register).
struct Rounds<'a> {
    src: &'a [u8],
    out: &'a mut [u8],
    dt: &'a [u16; 1 << FAST_LOG],
    f: Fast4,
}

impl ScalarKernel for Rounds<'_> {
    type Output = Result<Fast4, &'static str>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        rounds(self.src, self.out, self.dt, self.f)
    }
}

/// Rounds of 5 literals per stream while every stream has 5 literals of room in its
/// segment and the first has 7 bytes to read.
#[inline(always)]
fn rounds(
    src: &[u8],
    out: &mut [u8],
    dt: &[u16; 1 << FAST_LOG],
    mut f: Fast4,
) -> Result<Fast4, &'static str> {
    loop {
        let iters = ((out.len() - f.op[3]) / 5).min(f.ip[0] / 7);
        let olimit = f.op[3] + iters * 5;
        if f.op[3] == olimit || f.crossed() {
            return Ok(f);
        }
        while f.op[3] < olimit {
            // Symbol by symbol across the 4 streams, whose lookups overlap.
            for k in 0..5 {
                for s in 0..4 {
                    let e = dt[(f.bits[s] >> 53) as usize];
                    f.bits[s] <<= e & 0x3f;
                    out[f.op[s] + k] = (e >> 8) as u8;
                }
            }
            for op in &mut f.op {
                *op += 5;
            }
            f.reload(src)?;
        }
    }
}

/// libzstd's fast 4-stream loop (5 literals per stream and round, each stream read
/// through a word with a sentinel bit), then each stream finished from where it
/// stands with the whole section below it readable and no end check. `None` when
/// libzstd would not take this path.
fn decode4_fast(
    src: &[u8],
    starts: [usize; 4],
    out: &mut [u8],
    table: &Table,
) -> Result<Option<()>, &'static str> {
    let Some(mut f) = Fast4::start(src, starts, out.len()) else {
        return Ok(None);
    };
    let dt: &[u16; 1 << FAST_LOG] = table.dt[..]
        .try_into()
        .map_err(|_| "an 11-bit Huffman table")?;
    f = Unit::scalar().run(Rounds { src, out, dt, f })?;
    for i in 0..4 {
        let end = ((i + 1) * f.seg).min(out.len());
        let mut rest = f.rest(src, &starts, i, end)?;
        decode_stream(&mut rest, &mut out[f.op[i]..end], table);
    }
    Ok(Some(()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The double-symbol table entry by entry (libzstd's definition): two codes when
    /// both fit the table's bits.
    fn double_entries(dt: &[u16], log: u32) -> Vec<u32> {
        let mask = (1usize << log) - 1;
        (0..=mask)
            .map(|v| {
                let e1 = dt[v];
                let (n1, s1) = (u32::from(e1 & 0x3f), u32::from(e1 >> 8));
                let e2 = dt[(v << n1) & mask];
                let n2 = u32::from(e2 & 0x3f);
                if n1 < log && n1 + n2 <= log {
                    (n1 + n2) | s1 << 8 | u32::from(e2 >> 8) << 16 | 2 << 24
                } else {
                    n1 | s1 << 8 | 1 << 24
                }
            })
            .collect()
    }

    /// Trees described by weights in 4 bits (random, those libzstd accepts) give the
    /// double-symbol table of the definition.
    #[test]
    fn double_tables_by_runs_as_entry_by_entry() {
        let mut x = 7u32;
        let mut next = move || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        };
        let mut checked = 0;
        while checked < 400 {
            let n = 2 + usize::from(next()) % 60;
            let top = 1 + next() % 11;
            let mut src = alloc::vec![127 + n as u8];
            for _ in 0..n.div_ceil(2) {
                let (hi, lo) = (next() % (top + 1), next() % (top + 1));
                src.push(hi << 4 | lo);
            }
            let mut table = Table::new();
            table.double = true;
            if read_table(&src, &mut table).is_ok() {
                assert_eq!(table.dt2, double_entries(&table.dt, table.log), "{src:?}");
                checked += 1;
            }
        }
    }
}
