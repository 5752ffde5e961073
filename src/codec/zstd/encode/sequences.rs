//! The sequences section (`ZSTD_compressSequences`, `ZSTD_encodeSequences` in
//! `lib/compress/zstd_compress.c`): the number of sequences, each code's table mode
//! (predefined, one symbol, or an FSE table of its own, whichever costs fewer bits),
//! then one backward bit stream of all sequences, last first.

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::super::sequences::{Code, LL, ML, OF};
use super::bits::BitOut;
use super::fse::{self, CTable};
use crate::simd::{ScalarKernel, Unit};

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

/// How one code is coded (its description already written), in arrays rather than
/// vectors: no allocation per block.
struct Coded {
    mode: u8,
    /// The distribution described (FSE_COMPRESSED) or predefined, its first `len`
    /// entries, and its log.
    norm: [i16; CODES],
    len: usize,
    log: u32,
    /// The symbol of an RLE mode.
    rle: u8,
}

impl Coded {
    /// The most bits the states write for `counts` (`FSE_encodeSymbol` writes `log -
    /// highbit(n - 1)` bits or one less for a symbol of `n > 1` cells, `log` for one
    /// of one cell or less), and the final state's.
    fn state_bits(&self, counts: &[u32; CODES]) -> u64 {
        if self.mode == RLE {
            return 0;
        }
        let per = |n: i16| match n {
            2.. => self.log - highbit(n as u32 - 1),
            _ => self.log,
        };
        let symbols: u64 = (self.norm[..self.len].iter().zip(counts))
            .map(|(&n, &c)| u64::from(c) * u64::from(per(n)))
            .sum();
        symbols + u64::from(self.log)
    }

    fn fill(&self, table: &mut CTable) {
        match self.mode {
            RLE => table.fill_rle(self.rle),
            _ => table.fill(&self.norm[..self.len], self.log),
        }
    }
}

/// Cells a distribution of ours may give a symbol, and beyond (a mask's range).
const CELLS: usize = 1024;

/// `ceil(log2(cells) * 256)` for `cells` below [`CELLS`] (0 for 0), computed once.
fn log2_256() -> &'static [u32; CELLS] {
    static TABLE: std::sync::OnceLock<[u32; CELLS]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| core::array::from_fn(|n| ((n.max(1) as f64).log2() * 256.0).ceil() as u32))
}

/// Bits to code `counts` with `norm` (scaled by 256), `None` if a symbol has no cell:
/// `(log - log2(cells)) * 256` per symbol rounded down (libzstd's doubles), in
/// integers as `log * 256` less the table's entry rounded up.
fn cost(counts: &[u32], norm: &[i16], log: u32) -> Option<u64> {
    let table = log2_256();
    let whole = log * 256;
    let mut bits = 0u64;
    for (s, &c) in counts.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let n = *norm.get(s)?;
        if n == 0 {
            return None;
        }
        let per = whole - table[n.max(1) as usize % CELLS];
        bits += u64::from(c) * u64::from(per);
    }
    Some(bits)
}

/// The cheapest mode for `n` symbols counted in `counts`, its description (the RLE
/// symbol, or the FSE table's) appended to `out`: written there once for its cost, and
/// taken back if the predefined table costs less.
fn choose(code: &Code, counts: &[u32; CODES], n: usize, out: &mut Vec<u8>) -> Coded {
    let counts = &counts[..=code.max];
    // The last symbol present and how many are, in one pass without branches.
    let (mut max_symbol, mut distinct) = (0, 0);
    for (s, &c) in counts.iter().enumerate() {
        max_symbol = if c > 0 { s } else { max_symbol };
        distinct += usize::from(c > 0);
    }
    if distinct == 1 {
        out.push(max_symbol as u8);
        return Coded {
            mode: RLE,
            norm: [0; CODES],
            len: 0,
            log: 0,
            rle: max_symbol as u8,
        };
    }
    let predefined = cost(&counts[..=max_symbol], code.default, code.default_log);
    if distinct > 1 {
        let log = fse::optimal_log(code.max_log, n, max_symbol);
        let norm = fse::normalize(&counts[..=max_symbol], n, log);
        let at = out.len();
        fse::write_ncount(&norm[..=max_symbol], log, out);
        let header = (out.len() - at) as u64;
        let own =
            cost(&counts[..=max_symbol], &norm[..=max_symbol], log).map(|c| c + header * 8 * 256);
        if predefined.is_none() || own < predefined {
            return Coded {
                mode: FSE_COMPRESSED,
                norm,
                len: max_symbol + 1,
                log,
                rle: 0,
            };
        }
        out.truncate(at);
    }
    let mut norm = [0; CODES];
    norm[..code.default.len()].copy_from_slice(code.default);
    Coded {
        mode: PREDEFINED,
        norm,
        len: code.default.len(),
        log: code.default_log,
        rle: 0,
    }
}

/// Symbols of the codes' counts, the largest alphabet (match lengths, 53) rounded up
/// to a power of two so that a code indexes them with a mask.
const CODES: usize = 64;

/// `bits` (extra bits per code) over 256 entries: a code's byte indexes them without
/// a mask.
const fn widened(bits: &[u8]) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < bits.len() {
        table[c] = bits[c];
        c += 1;
    }
    table
}

const LL_BITS: [u8; 256] = widened(LL.bits);
const ML_BITS: [u8; 256] = widened(ML.bits);

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
    // The codes (`ZSTD_seqToCodes`) and their counts, in one pass, into a buffer kept
    // between blocks.
    // (Its bytes zeroed only when it grows: each block overwrites the ones it uses.)
    let mut kept = KEPT.take().unwrap_or_else(|| {
        Box::new(Kept {
            codes: Vec::new(),
            tables: [CTable::EMPTY, CTable::EMPTY, CTable::EMPTY],
        })
    });
    let Kept { codes, tables } = &mut *kept;
    if codes.len() < n {
        codes.resize(n, [0; 4]);
    }
    let codes = &mut codes[..n];
    let mut counts = [[0u32; CODES]; 3];
    for (s, c) in seqs.iter().zip(codes.iter_mut()) {
        let (ll, of, ml) = (
            ll_code(s.lit_len),
            highbit(s.off_base) as u8,
            ml_code(s.match_len),
        );
        *c = [ll, of, ml, 0];
        counts[0][usize::from(ll) % CODES] += 1;
        counts[1][usize::from(of) % CODES] += 1;
        counts[2][usize::from(ml) % CODES] += 1;
    }
    let modes_at = out.len();
    out.push(0);
    let ll = choose(&LL, &counts[0], n, out);
    let of = choose(&OF, &counts[1], n, out);
    let ml = choose(&ML, &counts[2], n, out);
    out[modes_at] = ll.mode << 6 | of.mode << 4 | ml.mode << 2;
    ll.fill(&mut tables[0]);
    of.fill(&mut tables[1]);
    ml.fill(&mut tables[2]);
    // Room for the stream: each sequence's extra bits and at most a table log per
    // state, the final states, and the 8 bytes a flush writes.
    let extra: u64 = (0..CODES)
        .map(|c| {
            u64::from(counts[0][c]) * u64::from(LL_BITS[c])
                + u64::from(counts[1][c]) * c as u64
                + u64::from(counts[2][c]) * u64::from(ML_BITS[c])
        })
        .sum();
    // (Their most bits, not a table log each: these bytes are zeroed only to be
    // overwritten.)
    let states = ll.state_bits(&counts[0]) + of.state_bits(&counts[1]) + ml.state_bits(&counts[2]);
    let bound = ((extra + states) / 8) as usize + 16;
    let at = out.len();
    out.resize(at + bound, 0);
    let len = Unit::scalar().run(Encode {
        seqs,
        codes,
        tables,
        out: &mut out[at..],
    });
    out.truncate(at + len);
    KEPT.set(Some(kept));
}

/// A block's codes and tables, kept between the blocks one thread compresses: the
/// tables built in place (in one place, the encoder's loop reaching all three from
/// one register) rather than zeroed and moved each block.
struct Kept {
    codes: Vec<[u8; 4]>,
    /// Literal lengths', offsets', match lengths'.
    tables: [CTable; 3],
}

std::thread_local! {
    static KEPT: core::cell::Cell<Option<Box<Kept>>> = const { core::cell::Cell::new(None) };
}

/// [`encode`] as a kernel, run on [`Unit::scalar`]: compiled with BMI2's shifts and
/// masks by a register where the CPU has them.
struct Encode<'a> {
    seqs: &'a [Sequence],
    codes: &'a [[u8; 4]],
    tables: &'a [CTable; 3],
    out: &'a mut [u8],
}

impl ScalarKernel for Encode<'_> {
    type Output = usize;

    #[inline(always)]
    fn run(self) -> usize {
        encode(self.seqs, self.codes, self.tables, self.out)
    }
}

/// The sequences' bit stream (`ZSTD_encodeSequences`): last first, each one's three
/// states then its extra bits, flushed where the fields could overflow the container
/// (the 7 bits a flush leaves, 26 of states, then at most 16 + 16 + 31 of extras);
/// returns its length.
#[inline(always)]
fn encode(seqs: &[Sequence], codes: &[[u8; 4]], tables: &[CTable; 3], out: &mut [u8]) -> usize {
    let [ll_t, of_t, ml_t] = tables;
    let mut bw = BitOut::new(out);
    let (Some((last, rest)), Some((&[llc, ofc, mlc, _], rest_codes))) =
        (seqs.split_last(), codes.split_last())
    else {
        return 0;
    };
    let mut ml_state = ml_t.start(mlc);
    let mut of_state = of_t.start(ofc);
    let mut ll_state = ll_t.start(llc);
    let ll_bits = |c: u8| u32::from(LL_BITS[usize::from(c)]);
    let ml_bits = |c: u8| u32::from(ML_BITS[usize::from(c)]);
    bw.add(u64::from(last.lit_len), ll_bits(llc));
    bw.add(u64::from(last.match_len - 3), ml_bits(mlc));
    bw.add(u64::from(last.off_base), u32::from(ofc));
    bw.flush();
    for (s, &[llc, ofc, mlc, _]) in rest.iter().zip(rest_codes).rev() {
        let (llb, ofb, mlb) = (ll_bits(llc), u32::from(ofc), ml_bits(mlc));
        of_t.encode_out(&mut bw, &mut of_state, ofc);
        ml_t.encode_out(&mut bw, &mut ml_state, mlc);
        ll_t.encode_out(&mut bw, &mut ll_state, llc);
        if llb + ofb + mlb >= 64 - 7 - 26 {
            bw.flush();
        }
        bw.add(u64::from(s.lit_len), llb);
        bw.add(u64::from(s.match_len - 3), mlb);
        if llb + ofb + mlb > 56 {
            bw.flush();
        }
        bw.add(u64::from(s.off_base), ofb);
        bw.flush();
    }
    for (t, state) in [(ml_t, ml_state), (of_t, of_state), (ll_t, ll_state)] {
        let (v, bits) = t.last(state);
        bw.add(v, bits);
        bw.flush();
    }
    bw.close()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`cost`]'s integers are the doubles of `ZSTD_crossEntropyCost` /
    /// `ZSTD_fseBitCost` rounded down, for every table log and count of cells.
    #[test]
    fn integer_costs_are_the_doubles() {
        for log in 0..=9u32 {
            for n in 1..=1i16 << log {
                let double = f64::from(log) * 256.0 - f64::from(n).log2() * 256.0;
                assert_eq!(
                    cost(&[3], &[n], log),
                    Some(3 * double as u64),
                    "log {log}, {n} cells"
                );
            }
        }
    }

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
