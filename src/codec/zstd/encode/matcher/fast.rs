//! libzstd's fast strategy as `ZSTD_compressBlock_fast_noDict_generic` (zstd 1.5,
//! `lib/compress/zstd_fast.c`) runs it: two positions in flight, the hash of the next
//! computed while the current one's candidate is loaded, the last offset tried once per
//! pair (two bytes ahead), and the step growing by one every 128 bytes without a match.
//! A candidate whose first 4 bytes match is taken (the hash covers `min_match` bytes).
//!
//! The loop is compiled once per table size and hashed byte count (as libzstd compiles
//! one per `mls`): the table is an array of its size, which a hash (its top bits)
//! indexes without a bounds test, and the input is cut at the block's end, below which
//! every position searched is at least 8 bytes, so that its reads are tested once.

use alloc::vec::Vec;

use super::{count, Matcher, Sequence, SEARCH_STRENGTH, TAIL};

/// Bytes searched before the step grows by one (`kStepIncr`).
const STEP_INCR: usize = 1 << (SEARCH_STRENGTH - 1);
/// The first step (`stepSize` for a target length of 0).
const STEP_START: usize = 2;
/// `prime8bytes` of `ZSTD_hashPtr`.
const PRIME: u64 = 0xcf1b_bcdc_b7a5_6463;

#[inline(always)]
fn read32(src: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(src[at..at + 4].try_into().unwrap_or_default())
}

/// Whether the candidate `cand` (valid when before `ip`) has the 4 bytes at `ip`,
/// without a branch on its validity, which data that matches here and there makes
/// unpredictable (`ZSTD_match4Found_cmov`): an invalid one reads at 0 and is told
/// apart in the same test as the bytes.
#[inline(always)]
fn matches(src: &[u8], cand: usize, ip: usize) -> bool {
    // Not `cand.min(ip)`: a minimum is compiled with a branch.
    let there = read32(src, core::hint::select_unpredictable(cand < ip, cand, 0));
    // Invalid as a bit above the bytes' difference: one test for both.
    let invalid = !(cand.wrapping_sub(ip) as u64) & 1 << 63;
    (u64::from(read32(src, ip) ^ there) | invalid) == 0
}

/// The hash of the `MLS` bytes at `at` (`ZSTD_hashPtr`), `N` entries.
#[inline(always)]
fn hash<const N: usize, const MLS: u32>(src: &[u8], at: usize) -> usize {
    let v = u64::from_le_bytes(src[at..at + 8].try_into().unwrap_or_default());
    ((v << (64 - 8 * MLS)).wrapping_mul(PRIME) >> (64 - N.trailing_zeros())) as usize
}

impl Matcher {
    /// The fast strategy's [`block`](Matcher::block).
    pub(super) fn fast_block(
        &mut self,
        src: &[u8],
        start: usize,
        end: usize,
        seqs: &mut Vec<Sequence>,
        lits: &mut Vec<u8>,
    ) -> usize {
        let mut table = core::mem::take(&mut self.hash);
        let src = &src[..end];
        let mut run = Fast {
            base: self.base as u32,
            reps: self.reps,
            seqs,
            lits,
        };
        // The (hash log, bytes hashed) of the levels of the fast strategy.
        let rest = match (self.p.hash_log, self.p.min_match) {
            (13, 6) => run.block::<{ 1 << 13 }, 6>(table.as_mut_slice(), src, start),
            (14, 6) => run.block::<{ 1 << 14 }, 6>(table.as_mut_slice(), src, start),
            (14, 7) => run.block::<{ 1 << 14 }, 7>(table.as_mut_slice(), src, start),
            (15, 5) => run.block::<{ 1 << 15 }, 5>(table.as_mut_slice(), src, start),
            p => unreachable!("no fast strategy of (hash log, min match) {p:?}"),
        };
        self.reps = run.reps;
        self.hash = table;
        rest
    }
}

/// One block's search: what it keeps in registers.
struct Fast<'a> {
    /// Added to positions in the table.
    base: u32,
    reps: [u32; 3],
    seqs: &'a mut Vec<Sequence>,
    lits: &'a mut Vec<u8>,
}

impl Fast<'_> {
    /// Appends the sequences of `src[start..]` (earlier bytes are the window) and their
    /// literals; returns the literals after the last sequence's match start.
    #[inline(never)]
    fn block<const N: usize, const MLS: u32>(
        &mut self,
        table: &mut [u32],
        src: &[u8],
        start: usize,
    ) -> usize {
        let Ok(table) = <&mut [u32; N]>::try_from(table) else {
            unreachable!("a fast table of {N} entries")
        };
        let end = src.len();
        let ilimit = end.saturating_sub(TAIL);
        let base = self.base;
        let mut anchor = start;
        let mut ip0 = start + usize::from(start == 0);
        'search: loop {
            // C's loop from `_start` to a match.
            let mut step = STEP_START;
            let mut next_step = ip0 + STEP_INCR;
            let mut ip1 = ip0 + 1;
            let mut ip2 = ip0 + step;
            let mut ip3 = ip2 + 1;
            if ip3 >= ilimit {
                break;
            }
            let mut hash0 = hash::<N, MLS>(src, ip0);
            let mut hash1 = hash::<N, MLS>(src, ip1);
            let mut entry = table[hash0];
            let rep = self.reps[0] as usize;
            let (mut at, mut from, mut known, current);
            loop {
                table[hash0] = base + ip0 as u32;
                // The last offset, two bytes ahead.
                if rep < ip2 && read32(src, ip2) == read32(src, ip2 - rep) {
                    table[hash1] = base + ip1 as u32;
                    let back = usize::from(src[ip2 - 1] == src[ip2 - 1 - rep]);
                    at = ip2 - back;
                    from = at - rep;
                    known = 4 + back;
                    current = ip0;
                    break;
                }
                let cand = entry.wrapping_sub(base) as usize;
                if matches(src, cand, ip0) {
                    table[hash1] = base + ip1 as u32;
                    (at, from, known, current) = (ip0, cand, 4, ip0);
                    break;
                }
                entry = table[hash1];
                hash0 = hash1;
                hash1 = hash::<N, MLS>(src, ip2);
                ip0 = ip1;
                ip1 = ip2;
                ip2 = ip3;
                table[hash0] = base + ip0 as u32;
                let cand = entry.wrapping_sub(base) as usize;
                if matches(src, cand, ip0) {
                    // An entry at or past where the search resumes would point forward.
                    if step <= 4 {
                        table[hash1] = base + ip1 as u32;
                    }
                    (at, from, known, current) = (ip0, cand, 4, ip0);
                    break;
                }
                entry = table[hash1];
                hash0 = hash1;
                hash1 = hash::<N, MLS>(src, ip2);
                ip0 = ip1;
                ip1 = ip2;
                ip2 = ip0 + step;
                ip3 = ip1 + step;
                if ip2 >= next_step {
                    step += 1;
                    next_step += STEP_INCR;
                }
                if ip3 >= ilimit {
                    break 'search;
                }
            }
            if known == 4 {
                // Back over literals that match too.
                while at > anchor && from > 0 && src[at - 1] == src[from - 1] {
                    at -= 1;
                    from -= 1;
                    known += 1;
                }
            }
            let len = known + count(src, at + known, from + known, end);
            self.lits.extend_from_slice(&src[anchor..at]);
            self.store((at - anchor) as u32, at - from, len);
            ip0 = at + len;
            anchor = ip0;
            if ip0 > ilimit {
                continue;
            }
            for at in [current + 2, ip0 - 2] {
                table[hash::<N, MLS>(src, at)] = base + at as u32;
            }
            // The offset before the last one, right away.
            while ip0 <= ilimit {
                let rep1 = self.reps[1] as usize;
                if rep1 > ip0 || read32(src, ip0) != read32(src, ip0 - rep1) {
                    break;
                }
                let l = 4 + count(src, ip0 + 4, ip0 + 4 - rep1, end);
                table[hash::<N, MLS>(src, ip0)] = base + ip0 as u32;
                self.store(0, rep1, l);
                ip0 += l;
                anchor = ip0;
            }
        }
        self.lits.extend_from_slice(&src[anchor..end]);
        end - anchor
    }

    /// [`Matcher::store`]'s coding of the offset, on this block's repeat offsets.
    #[inline(always)]
    fn store(&mut self, lit_len: u32, offset: usize, match_len: usize) {
        super::store(&mut self.reps, lit_len, offset, match_len, self.seqs);
    }
}
