//! Finite State Entropy coding, the encoder's side (`lib/compress/fse_compress.c`): a
//! distribution normalized to `1 << log` cells, its description (`FSE_writeNCount`), the
//! table the decoder builds from it spread the same way (`FSE_buildCTable`), and the
//! states that encode symbols into a [`BitWriter`].

use alloc::vec::Vec;

use super::bits::{BitOut, BitWriter};

/// The smallest table (`FSE_MIN_TABLELOG`).
const MIN_LOG: u32 = 5;

fn highbit(v: u32) -> u32 {
    31 - v.leading_zeros()
}

/// The table log for `total` symbols up to `max_symbol` (`FSE_optimalTableLog`).
pub(super) fn optimal_log(max_log: u32, total: usize, max_symbol: usize) -> u32 {
    let total = total as u32;
    let max_bits_src = highbit(total.saturating_sub(1).max(1)).saturating_sub(2);
    let min_bits = (highbit(total.max(1)) + 1).min(highbit(max_symbol as u32 | 1) + 2);
    let mut log = max_log;
    if max_bits_src < log {
        log = max_bits_src;
    }
    if min_bits > log {
        log = min_bits;
    }
    log.clamp(MIN_LOG, max_log.max(MIN_LOG))
}

/// `counts` (of `total` symbols, more than one distinct, at most [`SYMBOLS`]) scaled to
/// `1 << log` cells: each present symbol gets at least one, a symbol too rare for one
/// gets -1 ("less than one", a cell of its own at the table's top), the rounding goes
/// to the commonest. The first `counts.len()` entries are the distribution; in an array,
/// not a vector (no allocation per block).
pub(super) fn normalize(counts: &[u32], total: usize, log: u32) -> [i16; SYMBOLS] {
    let size = 1i64 << log;
    // `(c * size + total / 2) / total` as the high half of a product with `ceil(2^64 /
    // total)`, exact for numerators and divisors below 2^32 (Lemire, Kaser and Kurz,
    // "Faster remainder by direct computation"): a division per symbol was half of the
    // time here.
    let total = total as u64;
    let exact = total >= 2 && total.saturating_mul(size as u64 + 1) <= 1 << 32;
    let inverse = if exact { u64::MAX / total + 1 } else { 0 };
    let scale = |c: u32| {
        let n = (u64::from(c) << log) + total / 2;
        match exact {
            true => ((u128::from(inverse) * u128::from(n)) >> 64) as u64,
            false => n / total,
        }
    };
    let mut norm = [0i16; SYMBOLS];
    let counts = &counts[..counts.len().min(SYMBOLS)];
    // The cells given, and the commonest symbol (the last of those), in the same pass.
    let (mut used, mut largest, mut most) = (0i64, 0, 0);
    for (s, (n, &c)) in norm.iter_mut().zip(counts).enumerate() {
        *n = match c {
            0 => 0,
            c => match scale(c) {
                0 => -1,
                scaled => scaled as i16,
            },
        };
        used += i64::from(n.unsigned_abs());
        if c >= most {
            (most, largest) = (c, s);
        }
    }
    let norm_len = counts.len();
    let diff = size - used;
    if diff > 0 {
        norm[largest] += diff as i16;
    }
    take_excess(&mut norm[..norm_len], -diff);
    norm
}

/// Takes `excess` cells from `norm`'s symbols with the most, one at a time, of those
/// with the most the last first, none below one; a round over the symbols per level of
/// cells (the ones with the most give as many rounds of one each as they stay the
/// most) where a round per cell cost a search per cell.
fn take_excess(norm: &mut [i16], mut excess: i64) {
    while excess > 0 {
        let Some(most) = norm.iter().copied().filter(|&n| n > 1).max() else {
            return;
        };
        // Down to the next level below, or to one.
        let next = norm
            .iter()
            .copied()
            .filter(|&n| n < most)
            .max()
            .unwrap_or(1);
        let rounds = i64::from(most - next.max(1));
        let at_most = norm.iter().filter(|&&n| n == most).count() as i64;
        let whole = rounds.min(excess / at_most);
        let mut partial = if whole < rounds { excess % at_most } else { 0 };
        excess -= whole * at_most + partial;
        for n in norm.iter_mut().rev().filter(|n| **n == most) {
            *n -= whole as i16 + i16::from(partial > 0);
            partial -= 1;
        }
    }
}

/// Appends the description of `norm` (`FSE_writeNCount`): the log less 5 in 4 bits,
/// then each count plus one in as few bits as what is left allows, runs of zero counts
/// as 2-bit repeat flags.
pub(super) fn write_ncount(norm: &[i16], log: u32, out: &mut Vec<u8>) {
    let mut bits: u64 = u64::from(log - MIN_LOG);
    let mut count_bits: u32 = 4;
    let size = 1i32 << log;
    let mut remaining = size + 1;
    let mut threshold = size;
    let mut nb_bits = log + 1;
    let mut symbol = 0usize;
    let mut previous_is_0 = false;
    // Written 4 bytes at a time (below 32 bits left after each step, at most 16 more
    // added by one) into room made once, not 2 bytes at a time into `out`.
    let at = out.len();
    out.resize(at + NCOUNT_ROOM, 0);
    let mut len = at;
    let mut flush = |bits: &mut u64, count_bits: &mut u32, out: &mut Vec<u8>| {
        if *count_bits >= 32 {
            out[len..len + 4].copy_from_slice(&(*bits as u32).to_le_bytes());
            len += 4;
            *bits >>= 32;
            *count_bits -= 32;
        }
    };
    while symbol < norm.len() && remaining > 1 {
        if previous_is_0 {
            let mut start = symbol;
            while symbol < norm.len() && norm[symbol] == 0 {
                symbol += 1;
            }
            while symbol >= start + 24 {
                start += 24;
                bits |= 0xffff << count_bits;
                count_bits += 16;
                flush(&mut bits, &mut count_bits, out);
            }
            while symbol >= start + 3 {
                start += 3;
                bits |= 3 << count_bits;
                count_bits += 2;
            }
            bits |= ((symbol - start) as u64) << count_bits;
            count_bits += 2;
            flush(&mut bits, &mut count_bits, out);
        }
        let mut count = i32::from(norm[symbol]);
        symbol += 1;
        let max = (2 * threshold - 1) - remaining;
        remaining -= count.abs();
        count += 1;
        if count >= threshold {
            count += max;
        }
        bits |= (count as u64) << count_bits;
        count_bits += nb_bits;
        if count < max {
            count_bits -= 1;
        }
        previous_is_0 = count == 1;
        while remaining < threshold {
            nb_bits -= 1;
            threshold >>= 1;
        }
        flush(&mut bits, &mut count_bits, out);
    }
    let bytes = count_bits.div_ceil(8) as usize;
    out[len..len + 8].copy_from_slice(&bits.to_le_bytes());
    out.truncate(len + bytes);
}

/// Room for a description: a count of at most `MAX_LOG + 1` bits per symbol, 2 bits of
/// flags per 3 symbols of zero, the log's 4, and the 8 bytes the last write copies.
const NCOUNT_ROOM: usize = (SYMBOLS * (MAX_LOG as usize + 1) + SYMBOLS + 4) / 8 + 16;

/// The largest table log of the encoder's distributions (`MaxMLBits`, `MaxLLBits`).
const MAX_LOG: u32 = 9;
/// Symbols of the largest alphabet (match length codes 0..=52) and beyond, rounded up
/// to a power of two so that a symbol indexes its entry with a mask, not a test.
pub(super) const SYMBOLS: usize = 64;

/// The encoding table of one distribution (`FSE_CTable`), in arrays of the largest
/// size (no allocation per table; a state indexes them with a mask, a symbol's byte
/// without one).
pub(super) struct CTable {
    log: u32,
    states: [u16; 1 << MAX_LOG],
    /// Per symbol: `deltaFindState` and `deltaNbBits`; those past the distribution's
    /// are never read.
    symbols: [(i32, u32); 256],
}

impl CTable {
    /// A table to [`fill`](CTable::fill).
    pub(super) const EMPTY: CTable = CTable {
        log: 0,
        states: [0; 1 << MAX_LOG],
        symbols: [(0, 0); 256],
    };

    pub(super) fn new(norm: &[i16], log: u32) -> Self {
        let mut table = Self::EMPTY;
        table.fill(norm, log);
        table
    }

    /// Builds the table of `norm` in place (kept between blocks: not zeroed first).
    pub(super) fn fill(&mut self, norm: &[i16], log: u32) {
        debug_assert!(log <= MAX_LOG && norm.len() <= SYMBOLS);
        let size = 1usize << log;
        let mut cells = [0u8; 1 << MAX_LOG];
        // Each symbol's next state, indexed by its byte: no test per cell below.
        let mut cumul = [0u16; 256];
        let mut next = 0;
        let mut high = size - 1;
        for (s, &n) in norm.iter().enumerate() {
            cumul[usize::from(s as u8)] = next;
            if n == -1 {
                next += 1;
                cells[high] = s as u8;
                high = high.wrapping_sub(1);
            } else {
                next += n.max(0) as u16;
            }
        }
        let step = (size >> 1) + (size >> 3) + 3;
        let mask = size - 1;
        if high == mask {
            // No symbol less than one (the usual case): the symbols laid out in order,
            // 8 bytes at a time, then dealt to the cells in one loop without the
            // branches of a loop per symbol (`FSE_buildCTable_wksp`'s fast spread).
            let mut spread = [0u8; (1 << MAX_LOG) + 8];
            let mut at = 0;
            for (s, &n) in norm.iter().enumerate() {
                let word = u64::from(s as u8) * 0x0101_0101_0101_0101;
                let n = n.max(0) as usize;
                let mut i = 0;
                loop {
                    if let Some(b) = spread.get_mut(at + i..at + i + 8) {
                        b.copy_from_slice(&word.to_le_bytes());
                    }
                    i += 8;
                    if i >= n {
                        break;
                    }
                }
                at += n;
            }
            let mut pos = 0;
            for &s in &spread[..size] {
                cells[pos % (1 << MAX_LOG)] = s;
                pos = (pos + step) & mask;
            }
        } else {
            let mut pos = 0;
            for (s, &n) in norm.iter().enumerate() {
                for _ in 0..n.max(0) {
                    cells[pos % (1 << MAX_LOG)] = s as u8;
                    pos = (pos + step) & mask;
                    while pos > high {
                        pos = (pos + step) & mask;
                    }
                }
            }
        }
        let states = &mut self.states;
        for (u, &s) in cells[..size].iter().enumerate() {
            let s = usize::from(s);
            states[usize::from(cumul[s]) % (1 << MAX_LOG)] = (size + u) as u16;
            cumul[s] += 1;
        }
        let symbols = &mut self.symbols;
        let mut total: i32 = 0;
        for (s, &n) in norm.iter().enumerate() {
            symbols[s] = match n {
                0 => (0, ((log + 1) << 16) - (1 << log)),
                -1 | 1 => {
                    let entry = (total - 1, (log << 16) - (1 << log));
                    total += 1;
                    entry
                }
                n => {
                    let n = n as u32;
                    let max_bits_out = log - highbit(n - 1);
                    let min_state_plus = n << max_bits_out;
                    let entry = (total - n as i32, (max_bits_out << 16) - min_state_plus);
                    total += n as i32;
                    entry
                }
            };
        }
        self.log = log;
    }

    /// The table of a distribution of one symbol, `symbol` (`FSE_buildCTable_rle`):
    /// one state, which codes it in no bits.
    pub(super) fn fill_rle(&mut self, symbol: u8) {
        self.log = 0;
        self.states[0] = 0;
        self.symbols[usize::from(symbol)] = (0, 0);
    }

    /// The state that starts with `symbol`, writing no bits (`FSE_initCState2`).
    #[inline(always)]
    pub(super) fn start(&self, symbol: u8) -> u32 {
        let (find, delta_bits) = self.symbols[usize::from(symbol)];
        let nb = (delta_bits + (1 << 15)) >> 16;
        let value = (nb << 16).wrapping_sub(delta_bits);
        u32::from(self.states[((value >> nb) as i32 + find) as usize % (1 << MAX_LOG)])
    }

    /// Encodes `symbol` from `state` (`FSE_encodeSymbol`).
    #[inline(always)]
    pub(super) fn encode(&self, bw: &mut BitWriter<'_>, state: &mut u32, symbol: u8) {
        let (find, delta_bits) = self.symbols[usize::from(symbol)];
        let nb = (*state + delta_bits) >> 16;
        bw.add(u64::from(*state), nb);
        *state = u32::from(self.states[((*state >> nb) as i32 + find) as usize % (1 << MAX_LOG)]);
    }

    /// [`encode`](CTable::encode) into a [`BitOut`] (at most [`MAX_LOG`] bits, not
    /// flushed).
    #[inline(always)]
    pub(super) fn encode_out(&self, bw: &mut BitOut<'_>, state: &mut u32, symbol: u8) {
        let (find, delta_bits) = self.symbols[usize::from(symbol)];
        let nb = (*state + delta_bits) >> 16;
        bw.add(u64::from(*state), nb);
        *state = u32::from(self.states[((*state >> nb) as i32 + find) as usize % (1 << MAX_LOG)]);
    }

    /// The final state's bits (`FSE_flushCState`), and how many.
    #[inline(always)]
    pub(super) fn last(&self, state: u32) -> (u64, u32) {
        (u64::from(state), self.log)
    }

    /// Writes the final state (`FSE_flushCState`).
    pub(super) fn flush(&self, bw: &mut BitWriter<'_>, state: u32) {
        bw.add(u64::from(state), self.log);
    }
}

/// Appends `symbols` (at least two) FSE-coded with two interleaved states, as Huffman
/// weights are (`FSE_compress_usingCTable`): symbol `i` by state `i % 2`, the last two
/// starting the states, the first state flushed last so that the decoder reads it
/// first.
pub(super) fn encode_two_states(table: &CTable, symbols: &[u8], out: &mut Vec<u8>) {
    let n = symbols.len();
    let mut states = [0u32; 2];
    states[(n - 1) % 2] = table.start(symbols[n - 1]);
    states[(n - 2) % 2] = table.start(symbols[n - 2]);
    let mut bw = BitWriter::new(out);
    for i in (0..n - 2).rev() {
        table.encode(&mut bw, &mut states[i % 2], symbols[i]);
    }
    table.flush(&mut bw, states[1]);
    table.flush(&mut bw, states[0]);
    bw.close();
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    /// [`super::take_excess`] as it reads: a cell at a time from the last of those with
    /// the most (the bytes of every frame depend on it).
    #[test]
    fn excess_taken_as_a_cell_at_a_time() {
        let one_at_a_time = |norm: &mut [i16], excess: i64| {
            for _ in 0..excess {
                let Some(most) = (0..norm.len())
                    .filter(|&s| norm[s] > 1)
                    .max_by_key(|&s| norm[s])
                else {
                    break;
                };
                norm[most] -= 1;
            }
        };
        let mut rng = crate::test_rng::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move |m: u64| rng.next_u64() % m;
        for _ in 0..20_000 {
            let len = next(60) as usize + 1;
            let top = [3, 8, 60, 300][next(4) as usize];
            let mut a: Vec<i16> = (0..len).map(|_| next(top) as i16 - 1).collect();
            let mut b = a.clone();
            let excess = next(400) as i64;
            one_at_a_time(&mut a, excess);
            super::take_excess(&mut b, excess);
            assert_eq!(a, b, "excess {excess}");
        }
    }
}
