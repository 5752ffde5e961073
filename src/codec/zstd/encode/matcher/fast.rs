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

use super::super::literals::Literals;
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

/// Marks the path that calls it as rare (`core::hint::cold_path`, stable only since
/// Rust 1.95); inlined, it leaves no call.
#[cold]
fn cold() {}

/// Whether the candidate `cand` (valid when before `ip`) has the 4 bytes at `ip`, `here`:
/// the bytes are read at `cand` or, past `ip2` (whose 9 bytes are in `win`), at `ip2`,
/// so that the read needs no bounds test, and the validity is tested only when they
/// are equal (`ZSTD_match4Found_cmov`): a test of validity first would be a branch that
/// data matching here and there makes unpredictable. The cold path keeps LLVM from
/// merging the two tests into one branch on validity.
#[inline(always)]
fn matches(win: &[u8], cand: u32, ip: u32, ip2: usize, here: u32) -> bool {
    let at = cand as usize;
    let there = read32(win, core::hint::select_unpredictable(at < ip2, at, ip2));
    if here == there {
        cold();
        return cand < ip;
    }
    false
}

/// The `K` bytes at `at`.
#[inline(always)]
fn bytes<const K: usize>(src: &[u8], at: usize) -> &[u8; K] {
    src[at..at + K].try_into().unwrap_or(&[0; K])
}

/// The 4 bytes at `at` of `b`.
#[inline(always)]
fn u32_at<const K: usize>(b: &[u8; K], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or_default())
}

/// The hash of the `MLS` bytes at `at` (`ZSTD_hashPtr`), `N` entries.
#[inline(always)]
fn hash<const N: usize, const MLS: u32>(src: &[u8], at: usize) -> usize {
    hash_of::<N, MLS, 8>(bytes::<8>(src, at), 0)
}

/// [`hash`] of the bytes at `at` of `b`.
#[inline(always)]
fn hash_of<const N: usize, const MLS: u32, const K: usize>(b: &[u8; K], at: usize) -> usize {
    let v = u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or_default());
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
        lits: &mut Literals,
    ) -> usize {
        let src = &src[..end];
        let base = self.base as u32;
        let table = self.hash.as_mut_slice();
        let reps = &mut self.reps;
        // The (hash log, bytes hashed) of the levels of the fast strategy.
        match (self.p.hash_log, self.p.min_match) {
            (13, 6) => block::<{ 1 << 13 }, 6>(table, src, start, base, reps, seqs, lits),
            (14, 6) => block::<{ 1 << 14 }, 6>(table, src, start, base, reps, seqs, lits),
            (14, 7) => block::<{ 1 << 14 }, 7>(table, src, start, base, reps, seqs, lits),
            (15, 5) => block::<{ 1 << 15 }, 5>(table, src, start, base, reps, seqs, lits),
            p => unreachable!("no fast strategy of (hash log, min match) {p:?}"),
        }
    }
}

/// Appends the sequences of `src[start..]` (earlier bytes are the window) and their
/// literals; returns the literals after the last sequence's match start. `base` is
/// added to positions in the table. The buffers are arguments of their own, which the
/// compiler knows nothing else points into: their lengths stay in registers across the
/// writes of the search.
#[inline(never)]
fn block<const N: usize, const MLS: u32>(
    table: &mut [u32],
    src: &[u8],
    start: usize,
    base: u32,
    reps_out: &mut [u32; 3],
    seqs: &mut Vec<Sequence>,
    lits: &mut Literals,
) -> usize {
    let Ok(table) = <&mut [u32; N]>::try_from(table) else {
        unreachable!("a fast table of {N} entries")
    };
    let end = src.len();
    // `ilimit + TAIL` being the length, the reads after a match (at most 8 bytes at a
    // position up to `ilimit`) need no bounds tests.
    let Some(ilimit) = end.checked_sub(TAIL) else {
        lits.push(src, start, end);
        return end - start;
    };
    // A read of 9 bytes at ip2 fits in `win` exactly while `ip2 + 1 < ilimit`: the
    // search's end is its reads' bounds test, and every other read of the search is
    // below ip2 (positions are u32s, so that the compiler sees no wrap).
    let win = &src[..(ilimit + TAIL - 1).min(end)];
    let mut reps = *reps_out;
    let mut anchor = start;
    let mut ip0 = start + usize::from(start == 0);
    'search: loop {
        // C's loop from `_start` to a match, on `p` (its `ip0`; `ip1` is the next
        // position) and `d` (`ip2 - ip0`; `ip3` is `ip2 + 1`).
        let mut p = ip0 as u32;
        let mut d = STEP_START as u32;
        let mut step = STEP_START as u32;
        let mut next_step = p + STEP_INCR as u32;
        if ip0 + STEP_START + 1 >= ilimit {
            break;
        }
        // The 9 bytes at ip0 and ip1, read with one bounds test.
        let Some(b0) = win
            .get(ip0..ip0 + 9)
            .and_then(|b| <&[u8; 9]>::try_from(b).ok())
        else {
            break;
        };
        let hash0 = hash_of::<N, MLS, 9>(b0, 0);
        let mut hash1 = hash_of::<N, MLS, 9>(b0, 1);
        // The bytes at ip0 and ip1 (then the first 8 of those at ip2 and ip3).
        let mut a = u64::from_le_bytes(*bytes::<8>(b0, 0));
        let mut entry = table[hash0];
        // Each entry is replaced as soon as it is loaded: no hash of ip0 is kept.
        table[hash0] = base + p;
        let rep = reps[0] as usize;
        // `rep_hit`: the match is at the last offset (stored as repeat code 1).
        let (mut at, mut from, mut known, current, rep_hit);
        loop {
            let pz = p as usize;
            let ip2 = pz + d as usize;
            // The bytes read at ip2 and ip3.
            let Some(b) = win
                .get(ip2..ip2 + 9)
                .and_then(|b| <&[u8; 9]>::try_from(b).ok())
            else {
                break 'search;
            };
            // The last offset, two bytes ahead.
            if rep < ip2 && u32_at(b, 0) == read32(win, ip2 - rep) {
                table[hash1] = base + p + 1;
                let back = usize::from(src[ip2 - 1] == src[ip2 - 1 - rep]);
                at = ip2 - back;
                from = at - rep;
                known = 4 + back;
                current = pz;
                rep_hit = true;
                break;
            }
            let cand = entry.wrapping_sub(base);
            if matches(win, cand, p, ip2, a as u32) {
                table[hash1] = base + p + 1;
                (at, from, known, current, rep_hit) = (pz, cand as usize, 4, pz, false);
                break;
            }
            entry = table[hash1];
            // ip0 = p + 1, ip1 = ip2, ip2 = ip3.
            table[hash1] = base + p + 1;
            hash1 = hash_of::<N, MLS, 9>(b, 0);
            let cand = entry.wrapping_sub(base);
            if matches(win, cand, p + 1, ip2, (a >> 8) as u32) {
                // An entry at or past where the search resumes would point forward.
                if step <= 4 {
                    table[hash1] = base + ip2 as u32;
                }
                (at, from, known, current, rep_hit) = (pz + 1, cand as usize, 4, pz + 1, false);
                break;
            }
            entry = table[hash1];
            table[hash1] = base + ip2 as u32;
            hash1 = hash_of::<N, MLS, 9>(b, 1);
            a = u64::from_le_bytes(*bytes::<8>(b, 0));
            // ip0 = ip2, ip1 = ip3, and the next ip2 a step on.
            p += d;
            d = step;
            if p + step >= next_step {
                step += 1;
                next_step += STEP_INCR as u32;
            }
        }
        if !rep_hit {
            // Back over literals that match too (two bounds tests, not two a byte).
            let back = src[anchor..at]
                .iter()
                .rev()
                .zip(src[..from].iter().rev())
                .take_while(|(x, y)| x == y)
                .count();
            at -= back;
            from -= back;
            known += back;
        }
        let len = known + count(src, at + known, from + known, end);
        lits.push(src, anchor, at);
        let lit_len = (at - anchor) as u32;
        if rep_hit {
            // Literals before it (at > ip0 >= anchor): repeat code 1, offsets unchanged.
            seqs.push(Sequence {
                lit_len,
                match_len: len as u32,
                off_base: 1,
            });
        } else {
            super::store(&mut reps, lit_len, at - from, len, seqs);
        }
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
            let rep1 = reps[1] as usize;
            if rep1 > ip0 || read32(src, ip0) != read32(src, ip0 - rep1) {
                break;
            }
            let l = 4 + count(src, ip0 + 4, ip0 + 4 - rep1, end);
            table[hash::<N, MLS>(src, ip0)] = base + ip0 as u32;
            // No literals, the second offset: repeat code 1, the first two swapped.
            reps.swap(0, 1);
            seqs.push(Sequence {
                lit_len: 0,
                match_len: l as u32,
                off_base: 1,
            });
            ip0 += l;
            anchor = ip0;
        }
    }
    *reps_out = reps;
    lits.push(src, anchor, end);
    end - anchor
}
