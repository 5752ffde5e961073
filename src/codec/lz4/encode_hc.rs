//! LZ4HC: LZ4 blocks searched harder. Levels 3 to 8 are LZ4 1.10's own loop
//! (`super::hash_chain`: C's blocks). The others are our own compressor: a hash chain
//! over the last 64 KiB (4-byte hashes) followed for up to `1 << (level - 1)`
//! candidates, as LZ4HC's level 9 searches (`k_clTable` of `lz4hc.c`, without its
//! pattern analysis; levels 1 and 2, LZ4 1.10's "mid" strategy, get 2 and 4), each match
//! put off while the next position has a longer one (lazy matching). C-Blosc2 passes
//! its level as LZ4HC's.
//!
//! The block obeys LZ4's end rules: no match starts in the last 12 bytes, the last 5
//! are literals.

use alloc::vec;
use alloc::vec::Vec;

use super::encode::count;

// DISTANCE_MAX is also the chain's span.
use super::{DISTANCE_MAX, LASTLITERALS, MFLIMIT, MINMATCH, ML_MASK, RUN_MASK};
const HASH_LOG: u32 = 15;

/// The 4 bytes at `at`, zeros past the end: a branch to the cold padded read rather
/// than a conditional move on the load's address (the chain walk's candidates are
/// always whole).
#[inline(always)]
fn read32(src: &[u8], at: usize) -> u32 {
    match src.get(at..).and_then(<[u8]>::first_chunk::<4>) {
        Some(b) => u32::from_le_bytes(*b),
        None => read32_padded(src, at),
    }
}

#[cold]
#[inline(never)]
fn read32_padded(src: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    let rest = src.get(at..).unwrap_or_default();
    let n = rest.len().min(4);
    b[..n].copy_from_slice(&rest[..n]);
    u32::from_le_bytes(b)
}

#[inline(always)]
fn hash(src: &[u8], at: usize) -> usize {
    (read32(src, at).wrapping_mul(2_654_435_761) >> (32 - HASH_LOG)) as usize
}

/// The hash chain: the latest position of each hash (plus one; 0 for none), and for
/// each position of the last 64 KiB the distance back to the previous one of its hash.
struct Chain {
    head: Vec<u32>,
    back: Vec<u16>,
    next: usize,
    attempts: u32,
}

impl Chain {
    #[inline(always)]
    fn insert_up_to(&mut self, src: &[u8], ip: usize) {
        while self.next < ip {
            let at = self.next;
            let h = hash(src, at);
            let previous = self.head[h] as usize;
            let delta = if previous == 0 {
                0
            } else {
                (at + 1 - previous).min(DISTANCE_MAX)
            };
            self.back[at & DISTANCE_MAX] = delta as u16;
            self.head[h] = (at + 1) as u32;
            self.next += 1;
        }
    }

    /// The longest match at `ip` ending by `limit`: (length, offset), length 0 if none.
    ///
    /// In a run of one byte every position of the run hashes alike and the chain only
    /// steps back one byte at a time; so from a candidate in such a run the search jumps
    /// to the run's start, and also tries the position as far into that run as `ip` is
    /// into its own (a repeated pattern of runs matches there), as LZ4HC's pattern
    /// analysis does.
    fn find(&mut self, src: &[u8], ip: usize, limit: usize) -> (usize, usize) {
        self.insert_up_to(src, ip);
        let (mut best, mut offset) = (0, 0);
        let mut cand = self.head[hash(src, ip)] as usize;
        if cand == 0 {
            return (0, 0);
        }
        cand -= 1;
        let seq = read32(src, ip);
        let run = seq == u32::from_ne_bytes([seq as u8; 4]);
        let lowest = ip.saturating_sub(DISTANCE_MAX);
        let run_start = |mut at: usize| {
            while at > lowest && src[at - 1] == seq as u8 {
                at -= 1;
            }
            at
        };
        let into_run = if run { ip - run_start(ip) } else { 0 };
        // A candidate is counted only when it beats the best so far at its last byte.
        #[inline(always)]
        fn consider(
            src: &[u8],
            ip: usize,
            limit: usize,
            seq: u32,
            cand: usize,
            best: &mut usize,
            offset: &mut usize,
        ) {
            if ip + *best < limit
                && src[cand + *best] == src[ip + *best]
                && read32(src, cand) == seq
            {
                let l = count(src, ip, cand, limit);
                if l > *best {
                    *best = l;
                    *offset = ip - cand;
                }
            }
        }
        for _ in 0..self.attempts {
            if cand >= ip || cand < lowest {
                break;
            }
            consider(src, ip, limit, seq, cand, &mut best, &mut offset);
            if ip + best == limit {
                break;
            }
            if run && read32(src, cand) == seq {
                cand = run_start(cand);
                if cand + into_run < ip {
                    consider(src, ip, limit, seq, cand + into_run, &mut best, &mut offset);
                }
            }
            let delta = usize::from(self.back[cand & DISTANCE_MAX]);
            if delta == 0 || delta > cand {
                break;
            }
            cand -= delta;
        }
        if best >= MINMATCH {
            (best, offset)
        } else {
            (0, 0)
        }
    }
}

/// Appends the LZ4 block of `src` searched at LZ4HC level `clevel` to `out` and returns
/// true, or false when it is longer than `maxout` bytes.
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    if (3..=8).contains(&clevel) {
        // C's own loop: C's blocks.
        return super::hash_chain::compress(1 << (clevel - 1), src, maxout, out);
    }
    let base = out.len();
    let attempts = match clevel {
        0..=1 => 2,
        2 => 4,
        l => 1 << (l.min(9) - 1),
    };
    let len = src.len();
    let mut anchor = 0;
    if len > MFLIMIT {
        let mut chain = Chain {
            head: vec![0; 1 << HASH_LOG],
            back: vec![0; DISTANCE_MAX + 1],
            next: 0,
            attempts,
        };
        let last_start = len - MFLIMIT;
        let limit = len - LASTLITERALS;
        let mut ip = 0;
        while ip <= last_start {
            let (mut l, mut o) = chain.find(src, ip, limit);
            if l == 0 {
                ip += 1;
                continue;
            }
            // Put the match off while the next position has a longer one.
            while ip < last_start {
                let (l2, o2) = chain.find(src, ip + 1, limit);
                if l2 <= l {
                    break;
                }
                ip += 1;
                (l, o) = (l2, o2);
            }
            put_sequence(out, &src[anchor..ip], o, l);
            if out.len() - base > maxout {
                return false;
            }
            ip += l;
            anchor = ip;
        }
    }
    let last = &src[anchor..];
    out.push((last.len().min(RUN_MASK) as u8) << 4);
    if last.len() >= RUN_MASK {
        push_length(out, last.len() - RUN_MASK);
    }
    out.extend_from_slice(last);
    out.len() - base <= maxout
}

/// One sequence: token, literal length, literals, offset, match length.
fn put_sequence(out: &mut Vec<u8>, literals: &[u8], offset: usize, match_len: usize) {
    let code = match_len - MINMATCH;
    out.push((literals.len().min(RUN_MASK) as u8) << 4 | code.min(ML_MASK) as u8);
    if literals.len() >= RUN_MASK {
        push_length(out, literals.len() - RUN_MASK);
    }
    out.extend_from_slice(literals);
    out.extend_from_slice(&(offset as u16).to_le_bytes());
    if code >= ML_MASK {
        push_length(out, code - ML_MASK);
    }
}

fn push_length(out: &mut Vec<u8>, mut len: usize) {
    while len >= 255 {
        out.push(255);
        len -= 255;
    }
    out.push(len as u8);
}
