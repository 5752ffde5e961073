//! The sequences section (`ZSTD_compressSequences`, `ZSTD_encodeSequences` in
//! `lib/compress/zstd_compress.c`): the number of sequences, each code's table mode
//! (predefined, one symbol, or an FSE table of its own, whichever costs fewer bits),
//! then one backward bit stream of all sequences, last first.

use alloc::vec;
use alloc::vec::Vec;

use super::super::sequences::{Code, LL, ML, OF};
use super::bits::BitWriter;
use super::fse::{self, CTable};

/// One sequence: literals copied, then a match (`off_base`: a repeat code 1 to 3, or
/// the offset plus 3).
#[derive(Debug, Clone, Copy)]
pub(super) struct Sequence {
    pub lit_len: u32,
    pub match_len: u32,
    pub off_base: u32,
}

/// Table modes (`Compression_Modes`).
const PREDEFINED: u8 = 0;
const RLE: u8 = 1;
const FSE_COMPRESSED: u8 = 2;

fn highbit(v: u32) -> u32 {
    31 - v.leading_zeros()
}

/// The code of `value` in a table of baselines: the last baseline not above it.
#[cfg(test)]
fn code_of(base: &[u32], value: u32) -> u8 {
    (base.partition_point(|&b| b <= value) - 1) as u8
}

/// The codes of the values below `N` in the table of baselines `base`, looked up
/// rather than searched for each sequence (beyond them each code is one power of two).
const fn small_codes<const N: usize>(base: &[u32]) -> [u8; N] {
    let mut table = [0u8; N];
    let (mut value, mut code) = (0, 0);
    while value < N {
        while code + 1 < base.len() && base[code + 1] <= value as u32 {
            code += 1;
        }
        table[value] = code as u8;
        value += 1;
    }
    table
}

/// Literal lengths from 64 on have codes of one power of two each (25 for 64).
const LL_SMALL: [u8; 64] = small_codes(LL.base);
/// Match lengths from 131 on have codes of one power of two of `len - 3` each (43 for
/// 131).
const ML_SMALL: [u8; 131] = small_codes(ML.base);

#[inline(always)]
fn ll_code(lit_len: u32) -> u8 {
    match LL_SMALL.get(lit_len as usize) {
        Some(&c) => c,
        None => (highbit(lit_len) + 19).min(LL.max as u32) as u8,
    }
}

#[inline(always)]
fn ml_code(match_len: u32) -> u8 {
    match ML_SMALL.get(match_len as usize) {
        Some(&c) => c,
        None => (highbit(match_len - 3) + 36).min(ML.max as u32) as u8,
    }
}

/// One code's symbols for all sequences, and how they are coded.
struct Coded {
    symbols: Vec<u8>,
    mode: u8,
    /// The distribution described (FSE_COMPRESSED) or predefined, and its log.
    norm: Vec<i16>,
    log: u32,
}

/// Bits to code `counts` with `norm` (scaled by 256), `None` if a symbol has no cell.
fn cost(counts: &[u32], norm: &[i16], log: u32) -> Option<u64> {
    let mut bits = 0u64;
    for (s, &c) in counts.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let n = *norm.get(s)?;
        if n == 0 {
            return None;
        }
        let cells = f64::from(n.max(1));
        let per = (f64::from(log) - cells.log2()) * 256.0;
        bits += u64::from(c) * per as u64;
    }
    Some(bits)
}

fn choose(code: &Code, symbols: Vec<u8>) -> Coded {
    let mut counts = vec![0u32; code.max + 1];
    for &s in &symbols {
        counts[usize::from(s)] += 1;
    }
    let max_symbol = (0..counts.len())
        .rev()
        .find(|&s| counts[s] > 0)
        .unwrap_or(0);
    let distinct = counts.iter().filter(|&&c| c > 0).count();
    let n = symbols.len();
    if distinct == 1 {
        return Coded {
            symbols,
            mode: RLE,
            norm: Vec::new(),
            log: 0,
        };
    }
    let predefined = cost(&counts, code.default, code.default_log);
    let mut best = Coded {
        symbols: Vec::new(),
        mode: PREDEFINED,
        norm: code.default.to_vec(),
        log: code.default_log,
    };
    if distinct > 1 {
        let log = fse::optimal_log(code.max_log, n, max_symbol);
        let norm = fse::normalize(&counts[..=max_symbol], n, log);
        let mut header = Vec::new();
        fse::write_ncount(&norm, log, &mut header);
        let own = cost(&counts, &norm, log).map(|c| c + header.len() as u64 * 8 * 256);
        if predefined.is_none() || own < predefined {
            best = Coded {
                symbols: Vec::new(),
                mode: FSE_COMPRESSED,
                norm,
                log,
            };
        }
    }
    best.symbols = symbols;
    best
}

/// Appends the sequences section of `seqs`.
pub(super) fn write_sequences(seqs: &[Sequence], out: &mut Vec<u8>) {
    let n = seqs.len();
    if n < 128 {
        out.push(n as u8);
    } else if n < 0x7f00 {
        out.extend_from_slice(&[(n >> 8) as u8 + 0x80, n as u8]);
    } else {
        out.push(0xff);
        out.extend_from_slice(&((n - 0x7f00) as u16).to_le_bytes());
    }
    if n == 0 {
        return;
    }
    let ll = choose(&LL, seqs.iter().map(|s| ll_code(s.lit_len)).collect());
    let of = choose(
        &OF,
        seqs.iter().map(|s| highbit(s.off_base) as u8).collect(),
    );
    let ml = choose(&ML, seqs.iter().map(|s| ml_code(s.match_len)).collect());
    out.push(ll.mode << 6 | of.mode << 4 | ml.mode << 2);
    for c in [&ll, &of, &ml] {
        match c.mode {
            RLE => out.push(c.symbols[0]),
            FSE_COMPRESSED => fse::write_ncount(&c.norm, c.log, out),
            _ => {}
        }
    }
    let table = |c: &Coded| (c.mode != RLE).then(|| CTable::new(&c.norm, c.log));
    let (ll_t, of_t, ml_t) = (table(&ll), table(&of), table(&ml));
    let mut bw = BitWriter::new(out);
    let start = |t: &Option<CTable>, s: u8| t.as_ref().map_or(0, |t| t.start(s));
    let last = n - 1;
    let mut ml_state = start(&ml_t, ml.symbols[last]);
    let mut of_state = start(&of_t, of.symbols[last]);
    let mut ll_state = start(&ll_t, ll.symbols[last]);
    let extras = |bw: &mut BitWriter<'_>, i: usize| {
        let s = &seqs[i];
        let (llc, mlc, ofc) = (ll.symbols[i], ml.symbols[i], of.symbols[i]);
        bw.add(
            u64::from(s.lit_len - LL.base[usize::from(llc)]),
            u32::from(LL.bits[usize::from(llc)]),
        );
        bw.add(
            u64::from(s.match_len - ML.base[usize::from(mlc)]),
            u32::from(ML.bits[usize::from(mlc)]),
        );
        bw.add(u64::from(s.off_base), u32::from(ofc));
    };
    extras(&mut bw, last);
    for i in (0..last).rev() {
        if let Some(t) = &of_t {
            t.encode(&mut bw, &mut of_state, of.symbols[i]);
        }
        if let Some(t) = &ml_t {
            t.encode(&mut bw, &mut ml_state, ml.symbols[i]);
        }
        if let Some(t) = &ll_t {
            t.encode(&mut bw, &mut ll_state, ll.symbols[i]);
        }
        extras(&mut bw, i);
    }
    for (t, state) in [(&ml_t, ml_state), (&of_t, of_state), (&ll_t, ll_state)] {
        if let Some(t) = t {
            t.flush(&mut bw, state);
        }
    }
    bw.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looked_up_codes_are_the_baseline_tables_codes() {
        for v in 0..=1 << 17 {
            assert_eq!(ll_code(v), code_of(LL.base, v), "literal length {v}");
            if v >= 3 {
                assert_eq!(ml_code(v), code_of(ML.base, v), "match length {v}");
            }
        }
    }
}
