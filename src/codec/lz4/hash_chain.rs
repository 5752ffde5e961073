//! LZ4HC's `lz4hc` strategy as LZ4 1.10.0 runs it (`LZ4HC_compress_hashChain` and
//! `LZ4HC_InsertAndGetWiderMatch` of `lib/lz4hc.c`, the LZ4 C-Blosc2 3.3 bundles), for
//! levels 3 to 8: a hash chain over the last 64 KiB followed for `1 << (level - 1)`
//! candidates, each match weighed against a wider one starting in its last bytes
//! (up to three in flight), so that the blocks are C's. Positions in the tables are
//! C's indices: the position plus 64 KiB, 0 for none.

use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

use super::encode::count;
use super::{DISTANCE_MAX, LASTLITERALS, MFLIMIT, MINMATCH, ML_MASK, RUN_MASK};

/// C's index of the block's first byte (`LZ4HC_init_internal`'s starting offset).
const PREFIX: usize = 64 << 10;
const HASH_LOG: u32 = 15;
/// A match this long or shorter may be cut to make room for the next
/// (`OPTIMAL_ML`).
const OPTIMAL_ML: isize = (ML_MASK as isize - 1) + MINMATCH as isize;

/// The 4 bytes at `at`, zeros past the end (a cold branch).
#[inline(always)]
fn read32(src: &[u8], at: usize) -> u32 {
    // One test (`at + 4` within `src`) where `get(at..)` and then the first 4 make two.
    match src.get(at..at.wrapping_add(4)) {
        Some(b) => u32::from_le_bytes(b.try_into().unwrap_or_default()),
        None => padded::<4>(src, at) as u32,
    }
}

/// The 2 bytes at `at`, as [`read32`].
#[inline(always)]
fn read16(src: &[u8], at: usize) -> u16 {
    match src.get(at..at.wrapping_add(2)) {
        Some(b) => u16::from_le_bytes(b.try_into().unwrap_or_default()),
        None => padded::<2>(src, at) as u16,
    }
}

#[cold]
#[inline(never)]
fn padded<const N: usize>(src: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    let rest = src.get(at..).unwrap_or_default();
    let n = rest.len().min(N);
    b[..n].copy_from_slice(&rest[..n]);
    u64::from_le_bytes(b)
}

#[inline(always)]
fn hash(src: &[u8], at: usize) -> usize {
    (read32(src, at).wrapping_mul(2_654_435_761) >> (32 - HASH_LOG)) as usize
}

/// A match (`LZ4HC_match_t`): its offset, its length, and how many bytes it starts
/// before the position searched (0 or less).
#[derive(Clone, Copy)]
struct Match {
    off: usize,
    len: isize,
    back: isize,
}

const NO_MATCH: Match = Match {
    off: 0,
    len: 0,
    back: 0,
};

/// The hash table (C's indices) and the chain (distance back to the previous position
/// of the same hash, by index modulo 64 Ki), filled up to `next` (an index).
struct Tables {
    hash: Box<[u32; 1 << HASH_LOG]>,
    chain: Box<[u16; 1 << 16]>,
    next: usize,
}

impl Tables {
    /// `LZ4HC_Insert`: every position before `ip` in the tables.
    #[inline(always)]
    fn insert(&mut self, src: &[u8], ip: usize) {
        let target = ip + PREFIX;
        while self.next < target {
            let idx = self.next;
            let h = hash(src, idx - PREFIX);
            let delta = (idx - self.hash[h] as usize).min(DISTANCE_MAX);
            self.chain[idx & 0xffff] = delta as u16;
            self.hash[h] = idx as u32;
            self.next += 1;
        }
    }

    /// `LZ4HC_InsertAndGetWiderMatch` without pattern analysis, chain swap or
    /// dictionary: the longest match at `ip` longer than `longest`, which may start up to
    /// `ip - low` bytes earlier, ending by `high`; `longest` itself if none is longer.
    #[inline(always)]
    fn wider(
        &mut self,
        src: &[u8],
        ip: usize,
        low: usize,
        high: usize,
        mut longest: isize,
        attempts: u32,
    ) -> Match {
        let ip_index = ip + PREFIX;
        let lowest = if PREFIX + DISTANCE_MAX + 1 > ip_index {
            PREFIX
        } else {
            ip_index - DISTANCE_MAX
        };
        let look_back = ip - low;
        let pattern = read32(src, ip);
        self.insert(src, ip);
        let mut m = self.hash[hash(src, ip)] as usize;
        let (mut off, mut back_best) = (0, 0);
        let mut left = attempts;
        // The last 2 bytes a candidate must match to be longer, read again only when
        // `longest` grows (not per candidate).
        // Its place in a candidate is `rel` past it (1 or more: `longest` is the match
        // that `ip` is taken from the end of, `look_back` shorter). The candidate and
        // `rel` in 32 bits, so that their sum plus 2 cannot overflow: one bounds test
        // per read rather than two.
        let mut tail = (longest - 1) as usize;
        let mut ends = read16(src, low + tail);
        let mut rel = tail.wrapping_sub(look_back) as u32;
        'walk: loop {
            // The candidates that fail the quick test, in a loop of their own: one
            // with the match path below spilled the next candidate to the stack and
            // read it back on every step of the walk.
            let (at, next) = loop {
                if m < lowest || left == 0 {
                    break 'walk;
                }
                left -= 1;
                let at = (m - PREFIX) as u32 as usize;
                // The next candidate's load issued before this one's tests, so that it
                // is not thrown away with them when their branch is mispredicted.
                let next = m - usize::from(self.chain[m & 0xffff]);
                if ends == read16(src, at + rel as usize) && read32(src, at) == pattern {
                    break (at, next);
                }
                m = next;
            };
            let back = if look_back > 0 {
                count_back(src, ip, at, low)
            } else {
                0
            };
            let len = (MINMATCH + count(src, ip + MINMATCH, at + MINMATCH, high)) as isize - back;
            if len > longest {
                longest = len;
                off = ip_index - m;
                back_best = back;
                tail = (longest - 1) as usize;
                ends = read16(src, low + tail);
                rel = tail.wrapping_sub(look_back) as u32;
            }
            m = next;
        }
        Match {
            off,
            len: longest,
            back: back_best,
        }
    }
}

/// A table of `N` zeros on the heap, of a type that says its length (no bounds test
/// for the indices masked to it).
fn zeros<T: Copy + Default, const N: usize>() -> Box<[T; N]> {
    match vec![T::default(); N].into_boxed_slice().try_into() {
        Ok(table) => table,
        Err(_) => unreachable!("a vector of N elements is N long"),
    }
}

/// `LZ4HC_countBack`: minus the bytes equal before `ip` and `at`, down to `low` for
/// `ip` and the block's start for `at`; 8 bytes a step (the highest differing byte
/// ends the count), over windows cut once.
#[inline(always)]
fn count_back(src: &[u8], ip: usize, at: usize, low: usize) -> isize {
    let most = (ip - low).min(at);
    let x = &src[ip - most..ip];
    let y = &src[at - most..at];
    let (_, xw) = x.as_rchunks::<8>();
    let (_, yw) = y.as_rchunks::<8>();
    let mut n = 0;
    for (p, q) in xw.iter().rev().zip(yw.iter().rev()) {
        let diff = u64::from_le_bytes(*p) ^ u64::from_le_bytes(*q);
        if diff != 0 {
            return -((n + diff.leading_zeros() as usize / 8) as isize);
        }
        n += 8;
    }
    let n = n + x[..most - n]
        .iter()
        .rev()
        .zip(y[..most - n].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    -(n as isize)
}

/// Appends one sequence at `ip` (literals from `anchor`), as `LZ4HC_encodeSequence`
/// with `limitedOutput`: false when C's budget test fails (`out` is then dropped).
fn encode(
    out: &mut Vec<u8>,
    olimit: usize,
    src: &[u8],
    anchor: usize,
    ip: usize,
    m: Match,
) -> bool {
    let lit = ip - anchor;
    let token_at = out.len();
    if token_at + 1 + lit / 255 + lit + (2 + 1 + LASTLITERALS) > olimit {
        return false;
    }
    out.push(0);
    let mut token = (lit.min(RUN_MASK) as u8) << 4;
    if lit >= RUN_MASK {
        push_length(out, lit - RUN_MASK);
    }
    out.extend_from_slice(&src[anchor..ip]);
    out.extend_from_slice(&(m.off as u16).to_le_bytes());
    let code = m.len as usize - MINMATCH;
    if out.len() + code / 255 + (1 + LASTLITERALS) > olimit {
        return false;
    }
    token |= code.min(ML_MASK) as u8;
    if code >= ML_MASK {
        push_length(out, code - ML_MASK);
    }
    out[token_at] = token;
    true
}

fn push_length(out: &mut Vec<u8>, mut len: usize) {
    while len >= 255 {
        out.push(255);
        len -= 255;
    }
    out.push(len as u8);
}

/// Appends the LZ4 block of `src` compressed by LZ4HC's hash chain strategy following
/// `attempts` candidates (levels 3 to 8: 4 to 128) to `out` and returns true, or false
/// when C would not fit it in `maxout` bytes.
pub(super) fn compress(attempts: u32, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let olimit = out.len() + maxout;
    let len = src.len();
    let mut anchor = 0usize;
    if len > MFLIMIT {
        let mut t = Tables {
            hash: zeros(),
            chain: zeros(),
            next: PREFIX,
        };
        let mflimit = (len - MFLIMIT) as isize;
        let matchlimit = len - LASTLITERALS;
        let mut ip = 0isize;
        // The C loop's labels: `_Search2` (a match at `ip`, look for a wider one near
        // its end) and `_Search3` (two in flight, look for a third).
        enum Step {
            Search2,
            Search3,
        }
        'main: while ip <= mflimit {
            let mut m1 = t.wider(
                src,
                ip as usize,
                ip as usize,
                matchlimit,
                MINMATCH as isize - 1,
                attempts,
            );
            if m1.len < MINMATCH as isize {
                ip += 1;
                continue;
            }
            let (mut start0, mut m0) = (ip, m1);
            let (mut start2, mut m2, mut start3) = (0isize, NO_MATCH, 0isize);
            let mut step = Step::Search2;
            loop {
                match step {
                    Step::Search2 => {
                        if ip + m1.len <= mflimit {
                            start2 = ip + m1.len - 2;
                            m2 = t.wider(
                                src,
                                start2 as usize,
                                ip as usize,
                                matchlimit,
                                m1.len,
                                attempts,
                            );
                            start2 += m2.back;
                        } else {
                            m2 = NO_MATCH;
                        }
                        if m2.len <= m1.len {
                            if !encode(out, olimit, src, anchor, ip as usize, m1) {
                                return false;
                            }
                            ip += m1.len;
                            anchor = ip as usize;
                            continue 'main;
                        }
                        if start0 < ip && start2 < ip + m0.len {
                            ip = start0;
                            m1 = m0;
                        }
                        if start2 - ip < 3 {
                            ip = start2;
                            m1 = m2;
                            continue;
                        }
                        step = Step::Search3;
                    }
                    Step::Search3 => {
                        if start2 - ip < OPTIMAL_ML {
                            let mut new_ml = m1.len.min(OPTIMAL_ML);
                            if ip + new_ml > start2 + m2.len - MINMATCH as isize {
                                new_ml = start2 - ip + m2.len - MINMATCH as isize;
                            }
                            let correction = new_ml - (start2 - ip);
                            if correction > 0 {
                                start2 += correction;
                                m2.len -= correction;
                            }
                        }
                        let m3;
                        if start2 + m2.len <= mflimit {
                            start3 = start2 + m2.len - 3;
                            m3 = t.wider(
                                src,
                                start3 as usize,
                                start2 as usize,
                                matchlimit,
                                m2.len,
                                attempts,
                            );
                            start3 += m3.back;
                        } else {
                            m3 = NO_MATCH;
                        }
                        if m3.len <= m2.len {
                            // No better third: the first, cut at the second, then it.
                            if start2 < ip + m1.len {
                                m1.len = start2 - ip;
                            }
                            if !encode(out, olimit, src, anchor, ip as usize, m1) {
                                return false;
                            }
                            anchor = (ip + m1.len) as usize;
                            ip = start2;
                            if !encode(out, olimit, src, anchor, ip as usize, m2) {
                                return false;
                            }
                            ip += m2.len;
                            anchor = ip as usize;
                            continue 'main;
                        }
                        if start3 < ip + m1.len + 3 {
                            // No room for the second: drop it.
                            if start3 >= ip + m1.len {
                                if start2 < ip + m1.len {
                                    let correction = ip + m1.len - start2;
                                    start2 += correction;
                                    m2.len -= correction;
                                    if m2.len < MINMATCH as isize {
                                        start2 = start3;
                                        m2 = m3;
                                    }
                                }
                                if !encode(out, olimit, src, anchor, ip as usize, m1) {
                                    return false;
                                }
                                anchor = (ip + m1.len) as usize;
                                ip = start3;
                                m1 = m3;
                                start0 = start2;
                                m0 = m2;
                                step = Step::Search2;
                                continue;
                            }
                            start2 = start3;
                            m2 = m3;
                            continue;
                        }
                        // Three ascending matches: write the first, cut to make room.
                        if start2 < ip + m1.len {
                            if start2 - ip < OPTIMAL_ML {
                                if m1.len > OPTIMAL_ML {
                                    m1.len = OPTIMAL_ML;
                                }
                                if ip + m1.len > start2 + m2.len - MINMATCH as isize {
                                    m1.len = start2 - ip + m2.len - MINMATCH as isize;
                                }
                                let correction = m1.len - (start2 - ip);
                                if correction > 0 {
                                    start2 += correction;
                                    m2.len -= correction;
                                }
                            } else {
                                m1.len = start2 - ip;
                            }
                        }
                        if !encode(out, olimit, src, anchor, ip as usize, m1) {
                            return false;
                        }
                        anchor = (ip + m1.len) as usize;
                        ip = start2;
                        m1 = m2;
                        start2 = start3;
                        m2 = m3;
                    }
                }
            }
        }
    }
    let last = len - anchor;
    if out.len() + 1 + (last + 255 - RUN_MASK) / 255 + last > olimit {
        return false;
    }
    out.push((last.min(RUN_MASK) as u8) << 4);
    if last >= RUN_MASK {
        push_length(out, last - RUN_MASK);
    }
    out.extend_from_slice(&src[anchor..]);
    true
}
