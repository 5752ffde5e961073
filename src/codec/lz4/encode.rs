//! LZ4 blocks, our own compressor following `LZ4_compress_fast` of LZ4 1.10.0 (the one
//! C-Blosc2 3.3 bundles) step for step, so that its blocks are C's: one hash table of
//! positions (13-bit hashes of 4 bytes, 16-bit entries, below 64 KiB; 12-bit hashes of
//! 5 bytes above), a search that skips faster the longer it finds nothing (the more so
//! the higher the acceleration: C-Blosc2 passes `10 - clevel`), matches extended
//! backwards over the literals, and C's conservative checks of the output budget.
//!
//! The block is written into the bytes of `out` past its length, grown (zeroed) ahead
//! of what is written, in steps, at the points where C checks its budget: so that each
//! write is a store into a slice rather than a push, and literals are copied 16 bytes
//! at a time (C's wild copy) rather than by a call to `memcpy` each.

use alloc::vec::Vec;

use super::{DISTANCE_MAX, LASTLITERALS, MFLIMIT, MINMATCH, ML_MASK, RUN_MASK};
use crate::codec::{grow, FIRST_ROOM, SLACK};

/// Inputs below this use the 16-bit table (`LZ4_64Klimit`).
const LIMIT_64K: usize = (64 << 10) + MFLIMIT - 1;
/// `LZ4_HASHLOG` at the default `LZ4_MEMORY_USAGE` of 14.
const HASHLOG: u32 = 12;
/// Probes before the step grows by one (`LZ4_skipTrigger`).
const SKIP_TRIGGER: u32 = 6;

/// The 4 bytes at `at`: always whole where the compressor reads them (12 bytes before
/// the end at most); past the end, a branch to the cold padded read rather than a
/// conditional move on the load's address.
#[inline(always)]
fn read32(src: &[u8], at: usize) -> u32 {
    // One test (`at + 4` within `src`) where `get(at..)` and then the first 4 make two.
    match src.get(at..at.wrapping_add(4)) {
        Some(b) => u32::from_le_bytes(b.try_into().unwrap_or_default()),
        None => u32::from_le_bytes(padded(src, at)),
    }
}

/// The 8 bytes at `at`, as [`read32`].
#[inline(always)]
fn read64(src: &[u8], at: usize) -> u64 {
    match src.get(at..at.wrapping_add(8)) {
        Some(b) => u64::from_le_bytes(b.try_into().unwrap_or_default()),
        None => u64::from_le_bytes(padded(src, at)),
    }
}

/// The `N` bytes at `at`, zeros past the end.
#[cold]
#[inline(never)]
fn padded<const N: usize>(src: &[u8], at: usize) -> [u8; N] {
    let mut b = [0u8; N];
    let rest = src.get(at..).unwrap_or_default();
    let n = rest.len().min(N);
    b[..n].copy_from_slice(&rest[..n]);
    b
}

/// The table's hash of the bytes at `at`: 4 bytes into 13 bits for small inputs, else
/// 5 bytes into 12 (`LZ4_hashPosition` on a 64-bit machine).
#[inline(always)]
fn hash<const SMALL: bool>(src: &[u8], at: usize) -> usize {
    if SMALL {
        (read32(src, at).wrapping_mul(2_654_435_761) >> (32 - (HASHLOG + 1))) as usize
    } else {
        let v = read64(src, at);
        ((v << 24).wrapping_mul(889_523_592_379) >> (64 - HASHLOG)) as usize
    }
}

/// Equal bytes at `a` and `b` (`a` later), up to `limit` for `a` (`LZ4_count`), for
/// the HC matcher: `codec::equal_prefix`'s 32-byte steps, for its long matches.
#[inline(always)]
pub(super) fn count(src: &[u8], a: usize, b: usize, limit: usize) -> usize {
    crate::codec::equal_prefix(&src[a..limit], &src[b..])
}

/// [`count`] for the fast compressor: its matches mostly end in their first word, where
/// a first 32-byte compare fails and costs more (f32 sine, shuffled: 1.12 to 1.04 times
/// C's time), so that word first, as C; the longer ones on by [`count`]'s 32-byte steps
/// rather than C's words (12 words on average in f32 sine's: 6% fewer instructions).
/// Near the end of the block, words.
/// `head` is `src[..limit]`: its word at `a`, when whole, needs no other test.
#[inline(always)]
fn count_words(src: &[u8], head: &[u8], a: usize, b: usize, limit: usize) -> usize {
    // C's first word, before the loop's windows are set up: most matches end in it.
    if let Some(x) = head.get(a..a.wrapping_add(8)) {
        let x = u64::from_le_bytes(x.try_into().unwrap_or_default());
        let diff = x ^ read64(src, b);
        if diff != 0 {
            return (diff.trailing_zeros() / 8) as usize;
        }
        return 8 + count(src, a + 8, b + 8, limit);
    }
    count_rest(src, a, b, limit)
}

/// [`count_words`] within 8 bytes of `limit`.
#[inline(always)]
fn count_rest(src: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let x = &src[a..limit];
    let y = &src[b..][..x.len()];
    let (xw, _) = x.as_chunks::<8>();
    let (yw, _) = y.as_chunks::<8>();
    let mut n = 0;
    for (p, q) in xw.iter().zip(yw) {
        let diff = u64::from_le_bytes(*p) ^ u64::from_le_bytes(*q);
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + x[n..]
        .iter()
        .zip(&y[n..])
        .take_while(|(p, q)| p == q)
        .count()
}

/// Appends the LZ4 block of `src` at blosc level `clevel` (acceleration `10 - clevel`)
/// to `out` and returns true, or returns false when C would not fit it in `maxout`
/// bytes (`limitedOutput`).
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let acceleration = 10u32.saturating_sub(u32::from(clevel)).max(1);
    compress_fast(src, acceleration, maxout, out)
}

/// `LZ4_compress_fast` with `maxOutputSize` below the bound (blosc's budgets always are).
pub(crate) fn compress_fast(
    src: &[u8],
    acceleration: u32,
    maxout: usize,
    out: &mut Vec<u8>,
) -> bool {
    if src.len() < LIMIT_64K {
        compress_with::<true, u16, TABLE>(src, acceleration, maxout, out)
    } else {
        compress_with::<false, u32, { TABLE / 2 }>(src, acceleration, maxout, out)
    }
}

/// A cell of the hash table: a position in 16 bits for inputs below 64 KiB (half the
/// table to clear per stream, as C's `byU16` table), else in 32.
trait Cell: Copy {
    const ZERO: Self;
    fn at(self) -> usize;
    fn of(at: usize) -> Self;
}

impl Cell for u16 {
    const ZERO: Self = 0;
    fn at(self) -> usize {
        usize::from(self)
    }
    fn of(at: usize) -> Self {
        at as u16
    }
}

impl Cell for u32 {
    const ZERO: Self = 0;
    fn at(self) -> usize {
        self as usize
    }
    fn of(at: usize) -> Self {
        at as u32
    }
}

/// Cells of the hash table: 13 bits of hash for small inputs, 12 for the others.
const TABLE: usize = 1 << (HASHLOG + 1);

/// Copies `src[from..from + len]` to `d[op..]`, 16 bytes at a time when both slices
/// have the bytes past its end (at most 15) that the last copy takes.
#[inline(always)]
fn copy_literals(d: &mut [u8], op: usize, src: &[u8], from: usize, len: usize) {
    let whole = (len + 15) & !15;
    match (d.get_mut(op..op + whole), src.get(from..from + whole)) {
        (Some(to), Some(bytes)) => {
            let (to, _) = to.as_chunks_mut::<16>();
            let (bytes, _) = bytes.as_chunks::<16>();
            for (t, b) in to.iter_mut().zip(bytes) {
                *t = *b;
            }
        }
        _ => d[op..op + len].copy_from_slice(&src[from..from + len]),
    }
}

/// Writes the bytes of a length beyond its token's 15 at `op` (255s, then the rest)
/// and returns where they end.
#[inline(always)]
fn put_length(d: &mut [u8], op: usize, len: usize) -> usize {
    let full = len / 255;
    // Mostly none: no call to `memset` then (3,300 calls per MiB of shuffled f32 sine).
    if full > 0 {
        d[op..op + full].fill(255);
    }
    d[op + full] = (len % 255) as u8;
    op + full + 1
}

/// [`compress_fast`] for inputs below 64 KiB (`SMALL`: positions are their own
/// distances, the hash takes 4 bytes) or not, each its own loop with no test of which
/// per probe; the table of `CELLS` cells, its index masked to it (no bounds test; the
/// hashes are below it already).
fn compress_with<const SMALL: bool, C: Cell, const CELLS: usize>(
    src: &[u8],
    acceleration: u32,
    maxout: usize,
    out: &mut Vec<u8>,
) -> bool {
    let base = out.len();
    let written = encode_into::<SMALL, C, CELLS>(src, acceleration, maxout, base, out);
    out.truncate(base + written.unwrap_or(0));
    written.is_some()
}

/// The block of [`compress_with`] written into `out` from `base` (grown as it goes):
/// its length, or `None` when it does not fit `maxout`.
fn encode_into<const SMALL: bool, C: Cell, const CELLS: usize>(
    src: &[u8],
    acceleration: u32,
    maxout: usize,
    base: usize,
    out: &mut Vec<u8>,
) -> Option<usize> {
    let olimit = maxout;
    let len = src.len();
    let small = SMALL;
    let hash = |src: &[u8], at: usize| hash::<SMALL>(src, at) & (CELLS - 1);
    let mut table = [C::ZERO; CELLS];
    let mut anchor = 0usize;
    // `d` is the block's bytes in `out`, `op` where the next goes.
    grow(out, base, maxout.min(FIRST_ROOM), maxout);
    let mut d = &mut out[base..];
    let mut op = 0usize;
    // `budget!(upper, need)` is C's test of its budget for `need` more bytes (`None`
    // when they exceed `olimit`), and makes them writable (plus SLACK), growing `out`.
    // One comparison while `op + upper` (`upper` at least `need`, a bound without C's
    // division by 255) stays SLACK below the writable end (never past `olimit`: `out`
    // grows to `maxout + SLACK` at most); C's exact test past it.
    macro_rules! budget {
        ($upper:expr, $need:expr) => {
            if op + $upper + SLACK > d.len() {
                let need = $need;
                if op + need > olimit {
                    return None;
                }
                if op + need + SLACK > d.len() {
                    grow(out, base, op + need, maxout);
                    d = &mut out[base..];
                }
            }
        };
    }
    if len > MFLIMIT {
        let mflimit_plus_one = len - MFLIMIT + 1;
        let matchlimit = len - LASTLITERALS;
        let head = &src[..matchlimit];
        table[hash(src, 0)] = C::of(0);
        let mut ip = 1usize;
        let mut forward_h = hash(src, ip);
        'search: loop {
            // Find a match, probing further apart the longer none is found.
            let mut forward_ip = ip;
            let mut step = 1usize;
            let mut probes = acceleration << SKIP_TRIGGER;
            let mut m;
            // One probe; two per turn of the loop (the same probes, in the same order):
            // one per turn ran 1.04x to 1.12x C's time on f32 sine by where the loop fell
            // in its cache lines (builds differing in cold code only); two, 1.05-1.075x.
            macro_rules! probe {
                () => {
                    let h = forward_h;
                    let current = forward_ip;
                    m = table[h].at();
                    ip = forward_ip;
                    forward_ip += step;
                    step = (probes >> SKIP_TRIGGER) as usize;
                    probes += 1;
                    if forward_ip > mflimit_plus_one {
                        break 'search;
                    }
                    forward_h = hash(src, forward_ip);
                    table[h] = C::of(current);
                    if (small || m + DISTANCE_MAX >= current) && read32(src, m) == read32(src, ip) {
                        break;
                    }
                };
            }
            loop {
                probe!();
                probe!();
            }
            // Back over the literals while they match too.
            while ip > anchor && m > 0 && src[ip - 1] == src[m - 1] {
                ip -= 1;
                m -= 1;
            }
            let lit_len = ip - anchor;
            // `lit_len >> 7` is at least `lit_len / 255`.
            budget!(
                1 + lit_len + (2 + 1 + LASTLITERALS) + (lit_len >> 7),
                1 + lit_len + (2 + 1 + LASTLITERALS) + lit_len / 255
            );
            let mut token_at = op;
            d[token_at] = (lit_len.min(RUN_MASK) as u8) << 4;
            op += 1;
            if lit_len >= RUN_MASK {
                op = put_length(d, op, lit_len - RUN_MASK);
            }
            copy_literals(d, op, src, anchor, lit_len);
            op += lit_len;
            d[op..op + 2].copy_from_slice(&((ip - m) as u16).to_le_bytes());
            op += 2;
            // Then matches, each followed at once by any match at its end.
            loop {
                let match_code = count_words(src, head, ip + MINMATCH, m + MINMATCH, matchlimit);
                ip += match_code + MINMATCH;
                if match_code < ML_MASK {
                    // Most matches: C's `(match_code + 240) / 255` is 0.
                    budget!(1 + LASTLITERALS, 1 + LASTLITERALS);
                    d[token_at] += match_code as u8;
                } else {
                    let need = (1 + LASTLITERALS) + (match_code + 240) / 255;
                    budget!(need, need);
                    d[token_at] += ML_MASK as u8;
                    op = put_length(d, op, match_code - ML_MASK);
                }
                anchor = ip;
                if ip >= mflimit_plus_one {
                    break 'search;
                }
                table[hash(src, ip - 2)] = C::of(ip - 2);
                let h = hash(src, ip);
                m = table[h].at();
                table[h] = C::of(ip);
                // `m < ip` always holds (the table holds earlier positions): said, so
                // that the compiler drops the bounds tests of `m`'s reads.
                let near = m < ip && (small || m + DISTANCE_MAX >= ip);
                if !(near && read32(src, m) == read32(src, ip)) {
                    break;
                }
                // The next token (its match length added later) and offset, in one
                // store with one bounds test.
                token_at = op;
                let [lo, hi] = ((ip - m) as u16).to_le_bytes();
                d[op..op.wrapping_add(3)].copy_from_slice(&[0, lo, hi]);
                op += 3;
            }
            ip += 1;
            forward_h = hash(src, ip);
        }
    }
    let last_run = len - anchor;
    let need = last_run + 1 + (last_run + 255 - RUN_MASK) / 255;
    budget!(need, need);
    d[op] = (last_run.min(RUN_MASK) as u8) << 4;
    op += 1;
    if last_run >= RUN_MASK {
        op = put_length(d, op, last_run - RUN_MASK);
    }
    d[op..op + last_run].copy_from_slice(&src[anchor..]);
    Some(op + last_run)
}
