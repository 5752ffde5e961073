//! libzstd's fast strategy as `ZSTD_compressBlock_fast_noDict_generic` (zstd 1.5,
//! `lib/compress/zstd_fast.c`) runs it: two positions in flight, the hash of the next
//! computed while the current one's candidate is loaded, the last offset tried once per
//! pair (two bytes ahead), and the step growing by one every 128 bytes without a match.
//! A candidate whose first 4 bytes match is taken (the hash covers `min_match` bytes).

use alloc::vec::Vec;

use super::{count, read32, read64, Matcher, Sequence, SEARCH_STRENGTH, TAIL};

/// Bytes searched before the step grows by one (`kStepIncr`).
const STEP_INCR: usize = 1 << (SEARCH_STRENGTH - 1);
/// The first step (`stepSize` for a target length of 0).
const STEP_START: usize = 2;

/// Where the search found a match: its start, where it is copied from, and bytes of it
/// already known to match.
struct Found {
    at: usize,
    from: usize,
    known: usize,
    /// The position whose table entry was written last (`current0`).
    current: usize,
}

impl Matcher {
    /// The position of the entry at `h` if it is of this frame and before `ip`.
    #[inline(always)]
    fn candidate(&self, h: usize, ip: usize) -> Option<usize> {
        let cand = (self.hash[h] as usize).wrapping_sub(self.base);
        (cand < ip).then_some(cand)
    }

    #[inline(always)]
    fn put(&mut self, h: usize, at: usize) {
        self.hash[h] = (self.base + at) as u32;
    }

    /// The hash of the `MLS` bytes at `at` (`ZSTD_hashPtr`), with the byte count a
    /// constant: one loop per count, as libzstd compiles one per `mls`.
    #[inline(always)]
    fn hash_of<const MLS: u32>(&self, src: &[u8], at: usize) -> usize {
        let v = read64(src, at) << (64 - 8 * MLS);
        (v.wrapping_mul(0xcf1b_bcdc_b7a5_6463) >> (64 - self.p.hash_log)) as usize
    }

    /// The fast strategy's [`block`](Matcher::block).
    pub(super) fn fast_block(
        &mut self,
        src: &[u8],
        start: usize,
        end: usize,
        seqs: &mut Vec<Sequence>,
        lits: &mut Vec<u8>,
    ) -> usize {
        match self.p.min_match {
            ..=5 => self.fast_block_with::<5>(src, start, end, seqs, lits),
            6 => self.fast_block_with::<6>(src, start, end, seqs, lits),
            _ => self.fast_block_with::<7>(src, start, end, seqs, lits),
        }
    }

    /// [`fast_block`](Matcher::fast_block) hashing `MLS` bytes.
    fn fast_block_with<const MLS: u32>(
        &mut self,
        src: &[u8],
        start: usize,
        end: usize,
        seqs: &mut Vec<Sequence>,
        lits: &mut Vec<u8>,
    ) -> usize {
        let ilimit = end.saturating_sub(TAIL);
        let mut anchor = start;
        let mut ip0 = start + usize::from(start == 0);
        while let Some(found) = self.search_fast::<MLS>(src, ip0, ilimit) {
            let Found {
                mut at,
                mut from,
                mut known,
                current,
            } = found;
            if known == 4 {
                // Back over literals that match too.
                while at > anchor && from > 0 && src[at - 1] == src[from - 1] {
                    at -= 1;
                    from -= 1;
                    known += 1;
                }
            }
            let len = known + count(src, at + known, from + known, end);
            lits.extend_from_slice(&src[anchor..at]);
            self.store((at - anchor) as u32, at - from, len, seqs);
            ip0 = at + len;
            anchor = ip0;
            if ip0 > ilimit {
                continue;
            }
            for at in [current + 2, ip0 - 2] {
                let h = self.hash_of::<MLS>(src, at);
                self.put(h, at);
            }
            // The offset before the last one, right away.
            while ip0 <= ilimit {
                let rep1 = self.reps[1] as usize;
                if rep1 > ip0 || read32(src, ip0) != read32(src, ip0 - rep1) {
                    break;
                }
                let l = 4 + count(src, ip0 + 4, ip0 + 4 - rep1, end);
                let h = self.hash_of::<MLS>(src, ip0);
                self.put(h, ip0);
                self.store(0, rep1, l, seqs);
                ip0 += l;
                anchor = ip0;
            }
        }
        lits.extend_from_slice(&src[anchor..end]);
        end - anchor
    }

    /// Searches from `ip0` (C's loop from `_start` to a match), or `None` at `ilimit`.
    #[inline(always)]
    fn search_fast<const MLS: u32>(
        &mut self,
        src: &[u8],
        mut ip0: usize,
        ilimit: usize,
    ) -> Option<Found> {
        let mut step = STEP_START;
        let mut next_step = ip0 + STEP_INCR;
        let mut ip1 = ip0 + 1;
        let mut ip2 = ip0 + step;
        let mut ip3 = ip2 + 1;
        if ip3 >= ilimit {
            return None;
        }
        let mut hash0 = self.hash_of::<MLS>(src, ip0);
        let mut hash1 = self.hash_of::<MLS>(src, ip1);
        let mut cand = self.candidate(hash0, ip0);
        loop {
            let current = ip0;
            self.put(hash0, ip0);
            // The last offset, two bytes ahead.
            let rep = self.reps[0] as usize;
            if rep < ip2 && read32(src, ip2) == read32(src, ip2 - rep) {
                self.put(hash1, ip1);
                let back = usize::from(src[ip2 - 1] == src[ip2 - 1 - rep]);
                let at = ip2 - back;
                return Some(Found {
                    at,
                    from: at - rep,
                    known: 4 + back,
                    current,
                });
            }
            if let Some(c) = cand.filter(|&c| read32(src, c) == read32(src, ip0)) {
                self.put(hash1, ip1);
                return Some(Found {
                    at: ip0,
                    from: c,
                    known: 4,
                    current,
                });
            }
            cand = self.candidate(hash1, ip1);
            hash0 = hash1;
            hash1 = self.hash_of::<MLS>(src, ip2);
            ip0 = ip1;
            ip1 = ip2;
            ip2 = ip3;
            let current = ip0;
            self.put(hash0, ip0);
            if let Some(c) = cand.filter(|&c| read32(src, c) == read32(src, ip0)) {
                // An entry at or past where the search resumes would point forward.
                if step <= 4 {
                    self.put(hash1, ip1);
                }
                return Some(Found {
                    at: ip0,
                    from: c,
                    known: 4,
                    current,
                });
            }
            cand = self.candidate(hash1, ip1);
            hash0 = hash1;
            hash1 = self.hash_of::<MLS>(src, ip2);
            ip0 = ip1;
            ip1 = ip2;
            ip2 = ip0 + step;
            ip3 = ip1 + step;
            if ip2 >= next_step {
                step += 1;
                next_step += STEP_INCR;
            }
            if ip3 >= ilimit {
                return None;
            }
        }
    }
}
