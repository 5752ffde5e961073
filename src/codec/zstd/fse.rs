//! FSE tables: their description (`FSE_readNCount` in `lib/common/entropy_common.c`,
//! ported with its reads near the end of the input), the sequence decoding tables
//! (`ZSTD_buildFSETable`) and the FSE-coded Huffman weights (`FSE_decompress_wksp`).

use super::bits::{BitStream, Status};

/// The normalized counts of a table description.
pub(super) struct NCount {
    pub(super) norm: [i16; 256],
    /// The largest symbol described.
    pub(super) max_symbol: usize,
    pub(super) log: u32,
    /// Bytes the description takes.
    pub(super) len: usize,
}

fn le32(src: &[u8], at: usize) -> u32 {
    src.get(at..)
        .and_then(|s| s.first_chunk::<4>())
        .map_or(0, |b| u32::from_le_bytes(*b))
}

/// `FSE_readNCount` with at most `max_symbol` symbols; `Err` says what is wrong.
pub(super) fn read_ncount(src: &[u8], max_symbol: usize) -> Result<NCount, &'static str> {
    if src.len() < 8 {
        // libzstd reads a copy padded with zeros, then wants the description within.
        let mut buf = [0u8; 8];
        buf[..src.len()].copy_from_slice(src);
        let n = read_ncount_body(&buf, max_symbol)?;
        if n.len > src.len() {
            return Err("an FSE table description within its section");
        }
        return Ok(n);
    }
    read_ncount_body(src, max_symbol)
}

/// The body of `FSE_readNCount`, on at least 8 bytes.
fn read_ncount_body(src: &[u8], max_symbol: usize) -> Result<NCount, &'static str> {
    let iend = src.len() as i64;
    let mut norm = [0i16; 256];
    let max_sv1 = max_symbol as u32 + 1;
    let mut ip: i64 = 0;
    let mut bit_stream = le32(src, 0);
    let mut nb_bits = (bit_stream & 15) as i32 + 5;
    if nb_bits > 15 {
        return Err("an FSE table log of at most 15");
    }
    let log = nb_bits as u32;
    bit_stream >>= 4;
    let mut bit_count: i32 = 4;
    let mut remaining: i32 = (1 << nb_bits) + 1;
    let mut threshold: i32 = 1 << nb_bits;
    nb_bits += 1;
    let mut charnum: u32 = 0;
    let mut previous0 = false;
    // Moves to the next bits, or, near the end, reads the last 4 bytes further in.
    let advance = |ip: &mut i64, bit_count: &mut i32| {
        if *ip <= iend - 7 || *ip + i64::from(*bit_count >> 3) <= iend - 4 {
            *ip += i64::from(*bit_count >> 3);
            *bit_count &= 7;
        } else {
            *bit_count -= (8 * (iend - 4 - *ip)) as i32;
            *bit_count &= 31;
            *ip = iend - 4;
        }
    };
    loop {
        if previous0 {
            let mut repeats = (!bit_stream | 0x8000_0000).trailing_zeros() >> 1;
            while repeats >= 12 {
                charnum += 3 * 12;
                if ip <= iend - 7 {
                    ip += 3;
                } else {
                    bit_count -= (8 * (iend - 7 - ip)) as i32;
                    bit_count &= 31;
                    ip = iend - 4;
                }
                bit_stream = le32(src, ip as usize) >> bit_count;
                repeats = (!bit_stream | 0x8000_0000).trailing_zeros() >> 1;
            }
            charnum += 3 * repeats;
            bit_stream >>= 2 * repeats;
            bit_count += 2 * repeats as i32;
            charnum += bit_stream & 3;
            bit_count += 2;
            if charnum >= max_sv1 {
                break;
            }
            advance(&mut ip, &mut bit_count);
            bit_stream = le32(src, ip as usize) >> bit_count;
        }
        let max = (2 * threshold - 1) - remaining;
        let mut count: i32;
        if (bit_stream & (threshold - 1) as u32) < max as u32 {
            count = (bit_stream & (threshold - 1) as u32) as i32;
            bit_count += nb_bits - 1;
        } else {
            count = (bit_stream & (2 * threshold - 1) as u32) as i32;
            if count >= threshold {
                count -= max;
            }
            bit_count += nb_bits;
        }
        count -= 1;
        remaining -= count.abs();
        norm[charnum as usize] = count as i16;
        charnum += 1;
        previous0 = count == 0;
        if remaining < threshold {
            if remaining <= 1 {
                break;
            }
            nb_bits = 32 - (remaining as u32).leading_zeros() as i32;
            threshold = 1 << (nb_bits - 1);
        }
        if charnum >= max_sv1 {
            break;
        }
        advance(&mut ip, &mut bit_count);
        bit_stream = le32(src, ip as usize) >> bit_count;
    }
    if remaining != 1 {
        return Err("FSE normalized counts summing to the table size");
    }
    if charnum > max_sv1 {
        return Err("no more FSE symbols than the table allows");
    }
    if bit_count > 32 {
        return Err("an FSE table description within its section");
    }
    ip += i64::from((bit_count + 7) >> 3);
    Ok(NCount {
        norm,
        max_symbol: charnum as usize - 1,
        log,
        len: ip as usize,
    })
}

/// Where each state of a table of `1 << log` cells goes, the "less than 1" symbols
/// at the top (`FSE_TABLESTEP` spreading); returns the symbol of each cell, or
/// `None` when the spreading does not come back to 0.
fn spread(n: &NCount, cells: &mut [u8]) -> Option<()> {
    let size = 1usize << n.log;
    let mut high = size - 1;
    for (s, &c) in n.norm.iter().enumerate().take(n.max_symbol + 1) {
        if c == -1 {
            cells[high] = s as u8;
            high = high.wrapping_sub(1);
        }
    }
    let step = (size >> 1) + (size >> 3) + 3;
    let mask = size - 1;
    let mut pos = 0;
    for (s, &c) in n.norm.iter().enumerate().take(n.max_symbol + 1) {
        for _ in 0..c.max(0) {
            cells[pos] = s as u8;
            pos = (pos + step) & mask;
            while pos > high {
                pos = (pos + step) & mask;
            }
        }
    }
    (pos == 0).then_some(())
}

/// One cell of a sequence decoding table.
#[derive(Clone, Copy, Default)]
pub(super) struct Cell {
    pub(super) base: u32,
    pub(super) extra: u8,
    pub(super) bits: u8,
    pub(super) next: u16,
}

/// A sequence decoding table (literal lengths, offsets or match lengths).
#[derive(Clone)]
pub(super) struct SeqTable {
    pub(super) log: u32,
    pub(super) cells: [Cell; 512],
    /// It holds its code's predefined distribution (libzstd's static default tables):
    /// a block that asks for it again needs no new table.
    pub(super) predefined: bool,
}

impl SeqTable {
    pub(super) fn empty() -> Self {
        SeqTable {
            log: 0,
            cells: [Cell::default(); 512],
            predefined: false,
        }
    }

    /// A table of one symbol (RLE mode).
    pub(super) fn set_rle(&mut self, base: u32, extra: u8) {
        self.log = 0;
        self.predefined = false;
        self.cells[0] = Cell {
            base,
            extra,
            bits: 0,
            next: 0,
        };
    }

    /// `ZSTD_buildFSETable` from valid normalized counts (log at most 9).
    pub(super) fn build(&mut self, n: &NCount, base: &[u32], extra: &[u8]) {
        let size = 1usize << n.log;
        let mut cells = [0u8; 512];
        // Counts that sum to the table size always spread back to 0.
        let _ = spread(n, &mut cells);
        let mut next = [0u16; 256];
        for (s, &c) in n.norm.iter().enumerate().take(n.max_symbol + 1) {
            next[s] = if c == -1 { 1 } else { c.max(0) as u16 };
        }
        for (u, &s) in cells.iter().enumerate().take(size) {
            let s = usize::from(s);
            let state = u32::from(next[s]);
            next[s] += 1;
            let bits = n.log - (31 - state.leading_zeros());
            self.cells[u] = Cell {
                base: base.get(s).copied().unwrap_or(0),
                extra: extra.get(s).copied().unwrap_or(0),
                bits: bits as u8,
                next: ((state << bits) - size as u32) as u16,
            };
        }
        self.log = n.log;
        self.predefined = false;
    }
}

/// The most a Huffman weights' FSE workspace holds (`HUF_READ_STATS_WORKSPACE_SIZE_U32`).
const WEIGHTS_WKSP_U32: usize = wksp_u32(6, 11);

/// `FSE_DECOMPRESS_WKSP_SIZE_U32`.
const fn wksp_u32(log: usize, max_symbol: usize) -> usize {
    (1 + (1 << log)) + 1 + (2 * (max_symbol + 1) + (1 << log) + 8).div_ceil(4) + 128 + 1
}

/// FSE-coded Huffman weights (`FSE_decompress_wksp` with a table log of at most 6 and
/// at most 255 weights); returns how many.
pub(super) fn weights(src: &[u8], out: &mut [u8; 256]) -> Result<usize, &'static str> {
    let n = read_ncount(src, 255)?;
    if n.log > 6 {
        return Err("an FSE table log for the Huffman weights of at most 6");
    }
    if wksp_u32(n.log as usize, n.max_symbol) > WEIGHTS_WKSP_U32 {
        return Err("FSE-coded Huffman weights that fit libzstd's workspace");
    }
    let size = 1usize << n.log;
    let mut symbol = [0u8; 64];
    spread(&n, &mut symbol).ok_or("an FSE table for the Huffman weights that fills")?;
    let mut next = [0u16; 256];
    for (s, &c) in n.norm.iter().enumerate().take(n.max_symbol + 1) {
        next[s] = if c == -1 { 1 } else { c.max(0) as u16 };
    }
    let mut bits = [0u8; 64];
    let mut base = [0u16; 64];
    for u in 0..size {
        let s = usize::from(symbol[u]);
        let state = u32::from(next[s]);
        next[s] += 1;
        let nb = n.log - (31 - state.leading_zeros());
        bits[u] = nb as u8;
        base[u] = ((state << nb) - size as u32) as u16;
    }
    let mut bs = BitStream::new(src, n.len, src.len())
        .ok_or("FSE-coded Huffman weights ending in a byte with its end mark")?;
    let mut states = [bs.read(n.log) as usize, 0];
    bs.reload();
    states[1] = bs.read(n.log) as usize;
    // libzstd 1.5.7 (C-Blosc2 3.3.5's; 1.5.6 read missing bits as zeros): both initial
    // states must be whole ("Throw error if Huffman weight initial states are truncated").
    if bs.reload() == Status::Overflow {
        return Err("FSE-coded Huffman weights holding both initial states");
    }
    // FSE_decompress_usingDTable_generic: the two states alternate; the stream ends
    // when a reload overflows, and the other state gives one more weight.
    let mut count = 0;
    // Its fast loop: 4 weights a reload while a container's bits are left before them
    // (so none of the 4 reads past the stream's start: the end is found as below).
    while count < 255 - 3 && bs.reload() == Status::Unfinished {
        for k in 0..4 {
            let s = states[k % 2] & 63;
            out[count + k] = symbol[s];
            states[k % 2] = usize::from(base[s]) + bs.read(u32::from(bits[s])) as usize;
        }
        count += 4;
    }
    loop {
        for k in 0..2 {
            if count > 255 - 2 {
                return Err("at most 255 Huffman weights");
            }
            let s = states[k] & 63;
            out[count] = symbol[s];
            count += 1;
            states[k] = usize::from(base[s]) + bs.read(u32::from(bits[s])) as usize;
            if bs.reload() == Status::Overflow {
                out[count] = symbol[states[1 - k] & 63];
                return Ok(count + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-assembled descriptions (4 bits of table log minus 5, then each symbol's
    /// count plus 1 in as few bits as the remaining total allows): (bytes, max symbol,
    /// result as (counts of the symbols, table log, bytes taken)).
    #[test]
    fn descriptions() {
        type Read = Result<(&'static [i16], u32, usize), &'static str>;
        let cases: [(&[u8], usize, Read); 5] = [
            // One symbol of count 32 (6 bits 63: past the short range of 30).
            (&[0xf0, 0x03], 35, Ok((&[32], 5, 2))),
            // Two of 16 (5 bits 17, then 5 bits 31 once the total is 17).
            (&[0x10, 0x3f], 35, Ok((&[16, 16], 5, 2))),
            // Only symbol 0 allowed: its 16 leave the total short, as C finds it.
            (
                &[0x10, 0x3f],
                0,
                Err("FSE normalized counts summing to the table size"),
            ),
            (&[0x0b, 0x00], 35, Err("an FSE table log of at most 15")),
            (
                &[0xf0],
                35,
                Err("an FSE table description within its section"),
            ),
        ];
        for (i, (src, max, expected)) in cases.into_iter().enumerate() {
            let found = read_ncount(src, max).map(|n| {
                let counts = &n.norm[..=n.max_symbol];
                (counts.to_vec(), n.log, n.len)
            });
            let expected = expected.map(|(c, log, len)| (c.to_vec(), log, len));
            assert_eq!(found, expected, "case {i}");
        }
    }
}
