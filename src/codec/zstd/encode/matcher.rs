//! Finding the matches of a block: libzstd's fast strategy (one hash table, greedy,
//! skipping faster through data that does not match) and its greedy / lazy / lazy2
//! strategies over its row-based match finder, or a hash chain for windows of 16 KiB
//! and less (`lib/compress/zstd_fast.c`, `zstd_lazy.c`), each first trying the last
//! offset one byte ahead and, after a match, the one before it.
//!
//! Offsets are kept as the decoder keeps them (three repeat offsets, starting 1, 4, 8),
//! and each sequence is coded with a repeat code when its offset is one.

use alloc::vec;
use alloc::vec::Vec;

use super::literals::Literals;
use super::sequences::Sequence;

mod fast;
mod row;
mod runs;

/// What the level sets (`ZSTD_compressionParameters`, less the window).
#[derive(Debug, Clone, Copy)]
pub(super) struct Params {
    pub hash_log: u32,
    /// 0: the fast strategy, no chain.
    pub chain_log: u32,
    /// Chain links followed per search (`1 << searchLog`).
    pub attempts: u32,
    pub min_match: usize,
    /// 0 greedy, 1 lazy, 2 lazy2 (chain strategies only).
    pub lazy: u8,
    /// Entries per row of the row-based match finder as a log (4 to 6), 0 for a hash
    /// chain; `hash_log` is then the log of all rows' entries.
    pub row_log: u32,
}

/// Bytes at the end of the input no match starts in (`HASH_READ_SIZE`).
const TAIL: usize = 8;
/// Skip acceleration: one more byte per `1 << SEARCH_STRENGTH` literals in a row.
const SEARCH_STRENGTH: u32 = 8;
/// Beyond this step, the positions skipped are not put in the tables
/// (`kLazySkippingStep`: data that does not match is not worth indexing).
const LAZY_SKIPPING_STEP: usize = 8;

#[inline(always)]
fn read32(src: &[u8], at: usize) -> u32 {
    let (b, _) = src[at..].split_first_chunk::<4>().unwrap_or((&[0; 4], &[]));
    u32::from_le_bytes(*b)
}

#[inline(always)]
fn read64(src: &[u8], at: usize) -> u64 {
    let (b, _) = src[at..].split_first_chunk::<8>().unwrap_or((&[0; 8], &[]));
    u64::from_le_bytes(*b)
}

/// How many bytes from `a` and `b` (`a` later) are equal, up to `end` for `a`.
#[inline(always)]
fn count(src: &[u8], a: usize, b: usize, end: usize) -> usize {
    crate::codec::equal_prefix(&src[a..end], &src[b..])
}

fn highbit(v: u32) -> i64 {
    i64::from(31 - v.leading_zeros())
}

/// The hash and chain tables, kept between the frames one thread compresses (as
/// libzstd keeps its context's): an entry is a position plus the `base` of its frame, so
/// that entries of earlier frames (below the current base) read as empty and the
/// tables need no clearing per frame.
struct Tables {
    hash: Vec<u32>,
    chain: Vec<u32>,
    tags: Vec<u8>,
    /// What the next frame's positions start at (0 is never a valid entry).
    next_base: u32,
}

std::thread_local! {
    static KEPT: core::cell::RefCell<Option<Tables>> = const { core::cell::RefCell::new(None) };
}

/// The match finder's tables and the repeat offsets, kept across the blocks of a frame.
pub(super) struct Matcher {
    p: Params,
    hash: Vec<u32>,
    chain: Vec<u32>,
    /// The row-based match finder's tags, one a `hash` entry.
    tags: Vec<u8>,
    /// Added to positions in the tables.
    base: usize,
    next_base: u32,
    /// Positions below this are in the tables (chain strategies).
    next_to_update: usize,
    /// Skipping fast through literals: the positions stepped over are not indexed.
    skipping: bool,
    /// What the row-based match finder compares tags with.
    tag_unit: row::TagUnit,
    pub reps: [u32; 3],
}

impl Matcher {
    /// A matcher for a frame of `len` bytes, with the thread's tables when they fit.
    pub(super) fn new(p: Params, len: usize) -> Self {
        let chain_len = if p.chain_log > 0 && p.row_log == 0 {
            1 << p.chain_log
        } else {
            0
        };
        // The row tables are always `ROW_ENTRIES` long (`hash_log` at most 14).
        let (hash_len, tags_len) = if p.row_log > 0 {
            (row::ROW_ENTRIES, row::ROW_ENTRIES)
        } else {
            (1 << p.hash_log, 0)
        };
        let kept = KEPT.with(|k| k.borrow_mut().take()).filter(|t| {
            t.hash.len() == hash_len
                && t.chain.len() == chain_len
                && t.tags.len() == tags_len
                && u64::from(t.next_base) + len as u64 + 1 < u64::from(u32::MAX)
        });
        let tables = kept.unwrap_or_else(|| Tables {
            hash: vec![0; hash_len],
            chain: vec![0; chain_len],
            tags: vec![0; tags_len],
            next_base: 1,
        });
        Matcher {
            p,
            hash: tables.hash,
            chain: tables.chain,
            tags: tables.tags,
            base: tables.next_base as usize,
            next_base: tables.next_base + len as u32 + 1,
            next_to_update: 0,
            skipping: false,
            tag_unit: row::tag_unit(),
            reps: [1, 4, 8],
        }
    }

    #[inline(always)]
    fn hash_at(&self, src: &[u8], at: usize) -> usize {
        let bytes = self.p.min_match.clamp(4, 8) as u32;
        let v = read64(src, at) << (64 - 8 * bytes);
        (v.wrapping_mul(0xcf1b_bcdc_b7a5_6463) >> (64 - self.p.hash_log)) as usize
    }

    /// Appends the sequences of `src[start..end]` (earlier bytes are the window) and
    /// their literals; returns the literals after the last sequence's match start.
    pub(super) fn block(
        &mut self,
        src: &[u8],
        start: usize,
        end: usize,
        seqs: &mut Vec<Sequence>,
        lits: &mut Literals,
    ) -> usize {
        if self.p.chain_log == 0 {
            return self.fast_block(src, start, end, seqs, lits);
        }
        // One loop per row size and hashed length, as libzstd compiles one for each.
        match (self.p.row_log, self.p.min_match) {
            (0, _) => self.lazy_block::<0, 0>(src, start, end, seqs, lits),
            (4, ..=4) => self.lazy_block::<4, 4>(src, start, end, seqs, lits),
            (4, 5) => self.lazy_block::<4, 5>(src, start, end, seqs, lits),
            (4, _) => self.lazy_block::<4, 6>(src, start, end, seqs, lits),
            (5, ..=4) => self.lazy_block::<5, 4>(src, start, end, seqs, lits),
            (5, 5) => self.lazy_block::<5, 5>(src, start, end, seqs, lits),
            (5, _) => self.lazy_block::<5, 6>(src, start, end, seqs, lits),
            (_, ..=4) => self.lazy_block::<6, 4>(src, start, end, seqs, lits),
            (_, 5) => self.lazy_block::<6, 5>(src, start, end, seqs, lits),
            (_, _) => self.lazy_block::<6, 6>(src, start, end, seqs, lits),
        }
    }

    /// The greedy / lazy / lazy2 strategies' [`block`](Matcher::block) over a hash
    /// chain (`ROW` 0) or rows of `1 << ROW` entries hashing `MLS` bytes.
    fn lazy_block<const ROW: u32, const MLS: u32>(
        &mut self,
        src: &[u8],
        start: usize,
        end: usize,
        seqs: &mut Vec<Sequence>,
        lits: &mut Literals,
    ) -> usize {
        // The row finder stops 8 bytes earlier, as libzstd's (its hash cache reads ahead).
        let limit = end.saturating_sub(if ROW > 0 { TAIL + 8 } else { TAIL });
        let mut anchor = start;
        let mut ip = start + usize::from(start == 0);
        self.skipping = false;
        while ip < limit {
            let (mut mstart, mut len, mut offset) = (ip + 1, 0usize, 0usize);
            let rep0 = self.reps[0] as usize;
            if rep0 <= ip + 1 && read32(src, ip + 1 - rep0) == read32(src, ip + 1) {
                len = 4 + count(src, ip + 5, ip + 5 - rep0, end);
                offset = rep0;
            }
            if len == 0 || self.p.lazy > 0 {
                let (l2, o2) = self.find::<ROW, MLS>(src, ip, end);
                if l2 > len {
                    (mstart, len, offset) = (ip, l2, o2);
                }
            }
            if len < 4 {
                let step = ((ip - anchor) >> SEARCH_STRENGTH) + 1;
                ip += step;
                self.skipping = step > LAZY_SKIPPING_STEP;
                continue;
            }
            if self.p.lazy > 0 {
                (mstart, len, offset) = self.lazier::<ROW, MLS>(src, ip, end, mstart, len, offset);
            }
            // Back over literals that match too.
            while mstart > anchor && mstart > offset && src[mstart - 1] == src[mstart - 1 - offset]
            {
                mstart -= 1;
                len += 1;
            }
            lits.push(src, anchor, mstart);
            self.store((mstart - anchor) as u32, offset, len, seqs);
            self.skipping = false;
            ip = mstart + len;
            anchor = ip;
            // The offset before the last one, right away.
            while ip < limit {
                let rep1 = self.reps[1] as usize;
                if rep1 > ip || read32(src, ip) != read32(src, ip - rep1) {
                    break;
                }
                let l = 4 + count(src, ip + 4, ip + 4 - rep1, end);
                self.store(0, rep1, l, seqs);
                ip += l;
                anchor = ip;
            }
        }
        lits.push(src, anchor, end);
        end - anchor
    }

    /// Looks one (lazy) or two (lazy2) bytes further for a better match, as libzstd
    /// weighs them: length against the offset's cost.
    fn lazier<const ROW: u32, const MLS: u32>(
        &mut self,
        src: &[u8],
        mut ip: usize,
        end: usize,
        mut mstart: usize,
        mut len: usize,
        mut offset: usize,
    ) -> (usize, usize, usize) {
        let limit = end.saturating_sub(if ROW > 0 { TAIL + 8 } else { TAIL });
        let off_cost = |o: usize, reps: &[u32; 3]| {
            if o == reps[0] as usize {
                0
            } else {
                highbit(o as u32 + 3)
            }
        };
        let mut depth = 0;
        while ip < limit {
            ip += 1;
            depth += 1;
            let bonus = if depth == 1 { 4 } else { 7 };
            let rep0 = self.reps[0] as usize;
            if rep0 <= ip && read32(src, ip) == read32(src, ip - rep0) {
                let l = 4 + count(src, ip + 4, ip + 4 - rep0, end);
                let gain2 = l as i64 * if depth == 1 { 3 } else { 4 };
                let gain1 =
                    len as i64 * if depth == 1 { 3 } else { 4 } - off_cost(offset, &self.reps) + 1;
                if gain2 > gain1 {
                    (mstart, len, offset) = (ip, l, rep0);
                }
            }
            let (l2, o2) = self.find::<ROW, MLS>(src, ip, end);
            let gain2 = l2 as i64 * 4 - highbit(o2 as u32 + 3);
            let gain1 = len as i64 * 4 - off_cost(offset, &self.reps) + bonus;
            if l2 >= 4 && gain2 > gain1 {
                (mstart, len, offset) = (ip, l2, o2);
                depth = 0;
                continue;
            }
            if depth >= usize::from(self.p.lazy) {
                break;
            }
        }
        (mstart, len, offset)
    }

    /// The longest match at `ip` (length, offset), 0 if none of at least 4 bytes.
    #[inline(always)]
    fn find<const ROW: u32, const MLS: u32>(
        &mut self,
        src: &[u8],
        ip: usize,
        end: usize,
    ) -> (usize, usize) {
        if ROW > 0 {
            self.row_search::<ROW, MLS>(src, ip, end)
        } else {
            self.search(src, ip, end)
        }
    }

    /// [`find`](Matcher::find) over the hash chain.
    #[inline(always)]
    fn search(&mut self, src: &[u8], ip: usize, end: usize) -> (usize, usize) {
        let chain_mask = (1usize << self.p.chain_log) - 1;
        if self.skipping {
            self.next_to_update = self.next_to_update.max(ip);
        }
        while self.next_to_update < ip {
            let at = self.next_to_update;
            let h = self.hash_at(src, at);
            self.chain[at & chain_mask] = self.hash[h];
            self.hash[h] = (self.base + at) as u32;
            self.next_to_update += 1;
        }
        let h = self.hash_at(src, ip);
        let mut entry = self.hash[h] as usize;
        self.chain[ip & chain_mask] = entry as u32;
        self.hash[h] = (self.base + ip) as u32;
        self.next_to_update = ip + 1;
        let lowest = ip.saturating_sub(chain_mask);
        let (mut best, mut best_off) = (0, 0);
        // ip in a run of one byte (levels 13 and up): candidates in runs jump.
        let ip_run = if self.p.attempts >= 256 && ip + 4 < end {
            1 + count(src, ip + 1, ip, end)
        } else {
            0
        };
        for _ in 0..self.p.attempts {
            if entry < self.base + lowest || entry >= self.base + ip {
                break;
            }
            let mut cand = entry - self.base;
            let mut link = cand;
            if ip_run >= runs::MIN_RUN
                && read32(src, cand) == read32(src, ip)
                && let Some((c, start)) = runs::run_candidate(src, cand, ip, ip_run, lowest)
            {
                (cand, link) = (c, start);
            }
            // Only a candidate that beats the best so far at its last byte is counted.
            if ip + best < end && src[cand + best] == src[ip + best] {
                let l = count(src, ip, cand, end);
                if l > best {
                    best = l;
                    best_off = ip - cand;
                    if ip + l == end {
                        break;
                    }
                }
            }
            entry = self.chain[link & chain_mask] as usize;
        }
        if best >= self.p.min_match.max(4) {
            (best, best_off)
        } else {
            (0, 0)
        }
    }

    /// Gives the tables back to the thread for its next frame.
    pub(super) fn keep(self) {
        let tables = Tables {
            hash: self.hash,
            chain: self.chain,
            tags: self.tags,
            next_base: self.next_base,
        };
        KEPT.with(|k| *k.borrow_mut() = Some(tables));
    }

    /// Records a sequence (see [`store`]).
    fn store(&mut self, lit_len: u32, offset: usize, match_len: usize, seqs: &mut Vec<Sequence>) {
        store(&mut self.reps, lit_len, offset, match_len, seqs);
    }
}

/// Records a sequence, coding its offset as the decoder will read it, and updates the
/// repeat offsets `reps` as the decoder will.
#[inline(always)]
fn store(
    reps: &mut [u32; 3],
    lit_len: u32,
    offset: usize,
    match_len: usize,
    seqs: &mut Vec<Sequence>,
) {
    let offset = offset as u32;
    let r = *reps;
    // Most offsets are new: one test of all four candidates (`&`, not `&&`, so that it
    // is one branch) skips the match below.
    let (off_base, next) = if (offset != r[0])
        & (offset != r[1])
        & (offset != r[2])
        & (offset.wrapping_add(1) != r[0])
    {
        (offset + 3, [offset, r[0], r[1]])
    } else {
        match (lit_len > 0, offset) {
            (true, o) if o == r[0] => (1, r),
            (true, o) if o == r[1] => (2, [r[1], r[0], r[2]]),
            (true, o) if o == r[2] => (3, [r[2], r[0], r[1]]),
            (false, o) if o == r[1] => (1, [r[1], r[0], r[2]]),
            (false, o) if o == r[2] => (2, [r[2], r[0], r[1]]),
            (false, o) if r[0] > 1 && o == r[0] - 1 => (3, [o, r[0], r[1]]),
            (_, o) => (o + 3, [o, r[0], r[1]]),
        }
    };
    *reps = next;
    seqs.push(Sequence {
        lit_len,
        match_len: match_len as u32,
        off_base,
    });
}
