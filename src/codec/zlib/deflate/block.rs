//! A block's symbols, and the block written stored, with the fixed codes or with its
//! own trees, whichever is smallest (zlib's _tr_flush_block).

use super::bits::{
    canonical_codes, dist_base, dist_code, length_base, length_code, static_codes, BitWriter, Code,
    StaticCodes, BL_CODES, BL_ORDER, D_CODES, END_BLOCK, EXTRA_DBITS, EXTRA_LBITS, L_CODES,
};
use super::trees::{build_trees, length_runs, Costs};
use alloc::vec::Vec;

/// Symbols per block: zlib's lit_bufsize at memLevel 8 (1 << 14), less one (a block
/// ends when its buffer holds lit_bufsize - 1 symbols).
const BLOCK_SYMBOLS: usize = (1 << 14) - 1;

/// The symbols of the open block, their frequencies, and the fixed codes.
pub(super) struct Block {
    /// A literal as its byte; a match as distance << 8 | length - 3.
    syms: Vec<u32>,
    lfreq: [u16; L_CODES],
    dfreq: [u16; D_CODES],
    fixed: StaticCodes,
}

impl Block {
    pub fn new() -> Self {
        let mut b = Block {
            syms: Vec::with_capacity(BLOCK_SYMBOLS),
            lfreq: [0; L_CODES],
            dfreq: [0; D_CODES],
            fixed: static_codes(),
        };
        b.clear();
        b
    }

    /// Empties the block (also one left open by an abandoned stream).
    pub fn clear(&mut self) {
        self.syms.clear();
        self.lfreq = [0; L_CODES];
        self.dfreq = [0; D_CODES];
        self.lfreq[END_BLOCK] = 1;
    }

    pub fn is_empty(&self) -> bool {
        self.syms.is_empty()
    }

    /// Adds a literal; true when the block is full.
    #[inline(always)]
    pub fn literal(&mut self, c: u8) -> bool {
        self.syms.push(u32::from(c));
        self.lfreq[usize::from(c)] += 1;
        self.syms.len() == BLOCK_SYMBOLS
    }

    /// Adds a match (distance 1 to 32 Ki, length 3 to 258); true when the block is full.
    #[inline(always)]
    pub fn matched(&mut self, dist: usize, len: usize) -> bool {
        let len3 = (len - 3) as u8;
        self.syms.push((dist as u32) << 8 | u32::from(len3));
        self.lfreq[257 + length_code(len3)] += 1;
        self.dfreq[dist_code((dist - 1) as u16)] += 1;
        self.syms.len() == BLOCK_SYMBOLS
    }

    /// Writes the block as the smallest of stored (when its input, `stored`, is still
    /// at hand), fixed codes and dynamic codes, as zlib's _tr_flush_block chooses.
    pub fn flush(&mut self, w: &mut BitWriter, stored: Option<&[u8]>, last: bool) {
        let mut costs = Costs::default();
        let trees = (!self.is_empty()).then(|| build_trees(&self.lfreq, &self.dfreq, &mut costs));
        let static_lenb = (costs.stat.wrapping_add(3 + 7)) >> 3;
        let opt_lenb = match trees {
            Some(_) => ((costs.opt.wrapping_add(3 + 7)) >> 3).min(static_lenb),
            None => 0,
        };
        let last_bit = u64::from(last);
        match (stored, trees) {
            (Some(bytes), _) if bytes.len() + 4 <= opt_lenb => {
                w.send(last_bit, 3);
                w.align();
                let n = bytes.len() as u16;
                w.out.extend_from_slice(&n.to_le_bytes());
                w.out.extend_from_slice(&(!n).to_le_bytes());
                w.out.extend_from_slice(bytes);
            }
            (_, Some(t)) if static_lenb != opt_lenb => {
                w.send(2 << 1 | last_bit, 3);
                let mut lcodes = [Code::default(); L_CODES];
                let mut dcodes = [Code::default(); D_CODES];
                let mut blcodes = [Code::default(); BL_CODES];
                canonical_codes(&t.l.len, &mut lcodes);
                canonical_codes(&t.d.len[..D_CODES], &mut dcodes);
                canonical_codes(&t.bl.len[..BL_CODES], &mut blcodes);
                w.send((t.l.max_code + 1 - 257) as u64, 5);
                w.send(t.d.max_code as u64, 5);
                w.send((t.bl_sent - 4) as u64, 4);
                for &sym in &BL_ORDER[..t.bl_sent] {
                    w.send(u64::from(t.bl.len[usize::from(sym)]), 3);
                }
                for tree in [&t.l, &t.d] {
                    length_runs(tree, |sym, extra, bits| {
                        w.code(blcodes[sym]);
                        w.send(extra, bits);
                    });
                }
                send_symbols(w, &self.syms, &lcodes, &dcodes);
            }
            _ => {
                w.send(1 << 1 | last_bit, 3);
                send_symbols(w, &self.syms, &self.fixed.lit, &self.fixed.dist);
            }
        }
        self.clear();
        if last {
            w.align();
        }
    }
}

/// The block's symbols and its end, in the given codes.
fn send_symbols(w: &mut BitWriter, syms: &[u32], lcodes: &[Code], dcodes: &[Code]) {
    for &s in syms {
        let dist = s >> 8;
        if dist == 0 {
            w.code(lcodes[(s & 0xff) as usize]);
            continue;
        }
        let len3 = s as u8;
        let lc = length_code(len3);
        let l = lcodes[257 + lc];
        let mut bits = u64::from(l.bits);
        let mut n = u32::from(l.len);
        bits |= u64::from(len3 - length_base(lc)) << n;
        n += u32::from(EXTRA_LBITS[lc]);
        let dist1 = (dist - 1) as u16;
        let dc = dist_code(dist1);
        let d = dcodes[dc];
        bits |= u64::from(d.bits) << n;
        n += u32::from(d.len);
        bits |= u64::from(dist1 - dist_base(dc)) << n;
        n += u32::from(EXTRA_DBITS[dc]);
        w.send(bits, n);
    }
    w.code(lcodes[END_BLOCK]);
}
