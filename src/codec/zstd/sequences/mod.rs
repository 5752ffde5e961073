//! The sequences section of a compressed block (`ZSTD_decodeSeqHeaders`,
//! `ZSTD_buildSeqTable`, `ZSTD_decodeSequence`, `ZSTD_execSequence` in
//! `lib/decompress/zstd_decompress_block.c`), executed straight into the output: here
//! the code tables and the section's header, in `execute` the sequences themselves.

mod execute;

use alloc::boxed::Box;

use super::error::{refuse, Refusal};
use super::fse::{self, NCount, SeqTable};

pub(super) use execute::{execute, Out};

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
