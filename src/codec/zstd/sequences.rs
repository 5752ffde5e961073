//! The sequences section of a compressed block (`ZSTD_decodeSeqHeaders`,
//! `ZSTD_buildSeqTable`, `ZSTD_decodeSequence`, `ZSTD_execSequence` in
//! `lib/decompress/zstd_decompress_block.c`), executed straight into the output.

use alloc::boxed::Box;

use super::bits::BitStream;
use super::error::{refuse, Refusal};
use super::fse::{self, NCount, SeqTable};
use crate::simd::{ScalarKernel, Unit};

const LL_BASE: [u32; 36] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64,
    128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
];
const LL_BITS: [u8; 36] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11,
    12, 13, 14, 15, 16,
];
const ML_BASE: [u32; 53] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
    28, 29, 30, 31, 32, 33, 34, 35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027,
    2051, 4099, 8195, 16387, 32771, 65539,
];
const ML_BITS: [u8; 53] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
];
/// Offset codes: libzstd's `OF_base` is the offset itself (`(1 << code) - 3`) from code 2.
const OF_BASE: [u32; 32] = {
    let mut b = [0u32; 32];
    b[1] = 1;
    let mut c = 2;
    while c < 32 {
        b[c] = (1u32 << c) - 3;
        c += 1;
    }
    b
};
const OF_BITS: [u8; 32] = {
    let mut b = [0u8; 32];
    let mut c = 0;
    while c < 32 {
        b[c] = c as u8;
        c += 1;
    }
    b
};
const LL_DEFAULT: [i16; 36] = [
    4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
    -1, -1, -1, -1,
];
const ML_DEFAULT: [i16; 53] = [
    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
];
const OF_DEFAULT: [i16; 29] = [
    1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
];

/// One of the three codes: its name, largest symbol, largest log, value tables.
pub(super) struct Code {
    name: &'static str,
    pub(super) max: usize,
    pub(super) max_log: u32,
    pub(super) base: &'static [u32],
    pub(super) bits: &'static [u8],
    pub(super) default: &'static [i16],
    pub(super) default_log: u32,
    /// Its slot among the three (LL, OF, ML).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    slot: usize,
}

pub(super) const LL: Code = Code {
    name: "literal lengths",
    max: 35,
    max_log: 9,
    base: &LL_BASE,
    bits: &LL_BITS,
    default: &LL_DEFAULT,
    default_log: 6,
    slot: 0,
};
pub(super) const OF: Code = Code {
    name: "offsets",
    max: 31,
    max_log: 8,
    base: &OF_BASE,
    bits: &OF_BITS,
    default: &OF_DEFAULT,
    default_log: 5,
    slot: 1,
};
pub(super) const ML: Code = Code {
    name: "match lengths",
    max: 52,
    max_log: 9,
    base: &ML_BASE,
    bits: &ML_BITS,
    default: &ML_DEFAULT,
    default_log: 6,
    slot: 2,
};

impl Code {
    /// Reads a table description as a dictionary holds it (`ZSTD_loadDEntropy`).
    pub(super) fn read_table(
        &self,
        src: &[u8],
        table: &mut SeqTable,
    ) -> Result<usize, &'static str> {
        let n = fse::read_ncount(src, self.max)?;
        if n.log > self.max_log {
            return Err("an FSE table log within the maximum");
        }
        table.build(&n, self.base, self.bits);
        Ok(n.len)
    }

    /// Its predefined table into `table` (built once per process with `std`, as
    /// libzstd's are static), unless it is there.
    fn build_default(&self, table: &mut SeqTable) {
        if table.predefined {
            return;
        }
        #[cfg(feature = "std")]
        {
            static BUILT: [std::sync::OnceLock<SeqTable>; 3] =
                [const { std::sync::OnceLock::new() }; 3];
            let built = BUILT[self.slot].get_or_init(|| {
                let mut t = SeqTable::empty();
                self.build_predefined(&mut t);
                t
            });
            let size = 1 << built.log;
            table.log = built.log;
            table.cells[..size].copy_from_slice(&built.cells[..size]);
            table.predefined = true;
        }
        #[cfg(not(feature = "std"))]
        self.build_predefined(table);
    }

    /// `ZSTD_buildFSETable` of its predefined distribution.
    fn build_predefined(&self, table: &mut SeqTable) {
        let mut n = NCount {
            norm: [0; 256],
            max_symbol: self.default.len() - 1,
            log: self.default_log,
            len: 0,
        };
        n.norm[..self.default.len()].copy_from_slice(self.default);
        table.build(&n, self.base, self.bits);
        table.predefined = true;
    }
}

/// The three tables in use, and whether they may be repeated (`fseEntropy`).
pub(super) struct Tables {
    pub(super) ll: Box<SeqTable>,
    pub(super) of: Box<SeqTable>,
    pub(super) ml: Box<SeqTable>,
    pub(super) repeatable: bool,
    pub(super) reps: [u32; 3],
}

impl Tables {
    pub(super) fn new() -> Self {
        Tables {
            ll: Box::new(SeqTable::empty()),
            of: Box::new(SeqTable::empty()),
            ml: Box::new(SeqTable::empty()),
            repeatable: false,
            reps: [1, 4, 8],
        }
    }

    /// Reads the sequences section header at the start of `seq` (byte `at` of the
    /// frame); returns the number of sequences and the header's length.
    pub(super) fn read_header(&mut self, seq: &[u8], at: usize) -> Result<(usize, usize), Refusal> {
        const FIELD: &str = "sequences section header";
        let Some(&first) = seq.first() else {
            return Err(refuse(at, FIELD, "a sequence count", 0));
        };
        let (count, mut pos) = match first {
            0..=127 => (usize::from(first), 1),
            255 => match seq.get(1..3) {
                Some(b) => (usize::from(u16::from_le_bytes([b[0], b[1]])) + 0x7f00, 3),
                None => return Err(refuse(at, FIELD, "a 3-byte count", seq.len() as u64)),
            },
            _ => match seq.get(1) {
                Some(&b) => ((usize::from(first) - 128) << 8 | usize::from(b), 2),
                None => return Err(refuse(at, FIELD, "a 2-byte count", seq.len() as u64)),
            },
        };
        if count == 0 {
            if pos != seq.len() {
                return Err(refuse(
                    at,
                    FIELD,
                    "no bytes after a count of 0 sequences",
                    seq.len() as u64,
                ));
            }
            return Ok((0, pos));
        }
        let Some(&modes) = seq.get(pos) else {
            return Err(refuse(at + pos, FIELD, "the modes byte", 0));
        };
        if modes & 3 != 0 {
            return Err(refuse(
                at + pos,
                "sequences section modes",
                "reserved bits 0-1 clear",
                u64::from(modes),
            ));
        }
        pos += 1;
        for (slot, code) in [&LL, &OF, &ML].into_iter().enumerate() {
            let table = match slot {
                0 => &mut self.ll,
                1 => &mut self.of,
                _ => &mut self.ml,
            };
            match (modes >> (6 - 2 * slot)) & 3 {
                0 => code.build_default(table),
                1 => {
                    let Some(&symbol) = seq.get(pos) else {
                        return Err(refuse(at + pos, code.name, "an RLE symbol", 0));
                    };
                    if usize::from(symbol) > code.max {
                        return Err(refuse(
                            at + pos,
                            code.name,
                            "an RLE symbol in the code table",
                            u64::from(symbol),
                        ));
                    }
                    let s = usize::from(symbol);
                    table.set_rle(code.base[s], code.bits[s]);
                    pos += 1;
                }
                2 => {
                    let used = code
                        .read_table(&seq[pos..], table)
                        .map_err(|e| refuse(at + pos, code.name, e, 0))?;
                    pos += used;
                }
                _ => {
                    if !self.repeatable {
                        return Err(refuse(
                            at + pos - 1,
                            code.name,
                            "a table to repeat (none before this block)",
                            3,
                        ));
                    }
                }
            }
        }
        Ok((count, pos))
    }
}

/// Where a block's sequences write: the frame's output so far, the block's limit,
/// and the dictionary's content as history before the output.
pub(super) struct Out<'o, 'd> {
    pub(super) dest: &'o mut [u8],
    pub(super) pos: usize,
    pub(super) limit: usize,
    pub(super) history: &'d [u8],
}

/// Copies a match of `len` bytes from `offset` bytes back (offset at least 1, within
/// the output), forward as LZ77 wants when the two overlap.
#[inline(always)]
fn copy_match(dest: &mut [u8], pos: usize, offset: usize, len: usize) {
    let from = pos - offset;
    // Most matches are short and far: 16 bytes copied at once, those past the match
    // written again by what follows (the frame must fill the output).
    if len <= 16 && offset >= 16 && pos + 16 <= dest.len() {
        let chunk: [u8; 16] = dest[from..from + 16].try_into().unwrap_or([0; 16]);
        dest[pos..pos + 16].copy_from_slice(&chunk);
        return;
    }
    // The others as LZ4's (constant-length moves, patterns, doubling; no `memmove`
    // call for a match of a few dozen bytes).
    crate::codec::copy::copy_match(dest, pos, offset, len);
}

/// Decodes `count` sequences from `src` (byte `at` of the frame) and executes them
/// with `lits`, then copies the last literals.
pub(super) fn execute(
    tables: &mut Tables,
    src: &[u8],
    at: usize,
    count: usize,
    lits: &[u8],
    out: &mut Out<'_, '_>,
) -> Result<(), Refusal> {
    let kernel = Execute {
        tables,
        src,
        at,
        count,
        lits,
        out,
    };
    Unit::scalar().run(kernel)
}

/// [`execute`] as a [`ScalarKernel`]: compiled for the scalar unit's features, whose shifts
/// by a register (BMI2's) are one instruction where x86-64's are three; the bit reads
/// are most of a sequence's work.
struct Execute<'a, 'o, 'd> {
    tables: &'a mut Tables,
    src: &'a [u8],
    at: usize,
    count: usize,
    lits: &'a [u8],
    out: &'a mut Out<'o, 'd>,
}

impl ScalarKernel for Execute<'_, '_, '_> {
    type Output = Result<(), Refusal>;

    #[inline(always)]
    fn run(self) -> Self::Output {
        run(self)
    }
}

#[inline(always)]
fn run(k: Execute<'_, '_, '_>) -> Result<(), Refusal> {
    let Execute {
        tables,
        src,
        at,
        count,
        lits,
        out,
    } = k;
    const FIELD: &str = "sequences";
    let mut lit = 0usize;
    let mut pos = out.pos;
    if count > 0 {
        tables.repeatable = true;
        let mut bits = BitStream::new(src, 0, src.len()).ok_or_else(|| {
            refuse(
                at,
                FIELD,
                "a bitstream ending in a byte with its end mark",
                0,
            )
        })?;
        let (ll_t, of_t, ml_t) = (&*tables.ll, &*tables.of, &*tables.ml);
        let mut ll_s = bits.read(ll_t.log) as usize;
        bits.reload();
        let mut of_s = bits.read(of_t.log) as usize;
        bits.reload();
        let mut ml_s = bits.read(ml_t.log) as usize;
        bits.reload();
        let mut reps = tables.reps.map(|r| r as usize);
        let history = out.history.len();
        for left in (0..count).rev() {
            let ll_c = ll_t.cells[ll_s & 511];
            let of_c = of_t.cells[of_s & 511];
            let ml_c = ml_t.cells[ml_s & 511];
            let of_bits = u32::from(of_c.extra);
            let offset;
            if of_bits > 1 {
                offset = (of_c.base as usize).wrapping_add(bits.read_fast(of_bits) as usize);
                reps[2] = reps[1];
                reps[1] = reps[0];
                reps[0] = offset;
            } else {
                let ll0 = usize::from(ll_c.base == 0);
                if of_bits == 0 {
                    offset = reps[ll0];
                    reps[1] = reps[1 - ll0];
                    reps[0] = offset;
                } else {
                    let code = of_c.base as usize + ll0 + bits.read_fast(1) as usize;
                    let mut temp = if code == 3 {
                        reps[0].wrapping_sub(1)
                    } else {
                        reps[code]
                    };
                    // 0 is not an offset: libzstd makes it one that cannot be.
                    temp = temp.wrapping_sub(usize::from(temp == 0));
                    if code != 1 {
                        reps[2] = reps[1];
                    }
                    reps[1] = reps[0];
                    reps[0] = temp;
                    offset = temp;
                }
            }
            let mut ml = ml_c.base as usize;
            if ml_c.extra > 0 {
                ml += bits.read_fast(u32::from(ml_c.extra)) as usize;
            }
            if u32::from(ll_c.extra) + u32::from(ml_c.extra) + of_bits >= 31 {
                bits.reload();
            }
            let mut ll = ll_c.base as usize;
            if ll_c.extra > 0 {
                ll += bits.read_fast(u32::from(ll_c.extra)) as usize;
            }
            if left > 0 {
                ll_s = usize::from(ll_c.next) + bits.read(u32::from(ll_c.bits)) as usize;
                ml_s = usize::from(ml_c.next) + bits.read(u32::from(ml_c.bits)) as usize;
                of_s = usize::from(of_c.next) + bits.read(u32::from(of_c.bits)) as usize;
                bits.reload();
            }
            // ZSTD_execSequence: the whole sequence within the block's output, its
            // literals within the literals, its match within what precedes it.
            if ll + ml > out.limit - pos {
                return Err(refuse(
                    at,
                    FIELD,
                    "sequences within the block's output",
                    (pos + ll + ml) as u64,
                ));
            }
            if ll > lits.len() - lit {
                return Err(refuse(
                    at,
                    FIELD,
                    "sequences within the block's literals",
                    (lit + ll) as u64,
                ));
            }
            if ll <= 16 && lit + 16 <= lits.len() && pos + 16 <= out.dest.len() {
                // Short literals: 16 bytes at once, the rest overwritten by the match.
                out.dest[pos..pos + 16].copy_from_slice(&lits[lit..lit + 16]);
            } else if ll <= 32 && lit + 32 <= lits.len() && pos + 32 <= out.dest.len() {
                out.dest[pos..pos + 32].copy_from_slice(&lits[lit..lit + 32]);
            } else {
                out.dest[pos..pos + ll].copy_from_slice(&lits[lit..lit + ll]);
            }
            lit += ll;
            pos += ll;
            // Offsets are at least 1 (a 0 becomes an impossible one, as in libzstd).
            if offset > pos || offset == 0 {
                if offset > pos + history || offset == 0 {
                    return Err(refuse(
                        at,
                        FIELD,
                        "match offsets within the output and dictionary",
                        offset as u64,
                    ));
                }
                // From the dictionary's content, then from the output's start.
                let from = history - (offset - pos);
                let n = ml.min(offset - pos);
                out.dest[pos..pos + n].copy_from_slice(&out.history[from..from + n]);
                let rest = ml - n;
                for k in 0..rest {
                    out.dest[pos + n + k] = out.dest[k];
                }
            } else {
                copy_match(out.dest, pos, offset, ml);
            }
            pos += ml;
        }
        if !bits.finished() {
            return Err(refuse(
                at,
                FIELD,
                "a bitstream ending exactly after its sequences",
                bits.consumed() as u64,
            ));
        }
        tables.reps = reps.map(|r| r as u32);
    }
    let rest = lits.len() - lit;
    if rest > out.limit - pos {
        return Err(refuse(
            at,
            FIELD,
            "the last literals within the block's output",
            (pos + rest) as u64,
        ));
    }
    out.dest[pos..pos + rest].copy_from_slice(&lits[lit..]);
    out.pos = pos + rest;
    Ok(())
}
