//! The BloscLZ compressor, following `blosclz_compress` in C-Blosc2's `blosc/blosclz.c`
//! step for step, so that its streams (and so its ratios) are C's: a FastLZ-style LZ77
//! with one hash table of 4-byte sequences, literal runs of up to 32 bytes, matches
//! `len - 2` long at distances up to 8191 (near) or 73725 (far).
//!
//! Before compressing, an "entropy probe" estimates the ratio on part of the block
//! (the last 1/8 to all of it, by level, at most the hash table's size) and gives up
//! when it is below the level's threshold: such blocks are then stored as they are.
//!
//! Positions are indices; the hash table holds positions (0 for an empty slot, as in C,
//! where it compares with the block's first bytes).

use alloc::vec::Vec;

use crate::codec::{grow, FIRST_ROOM, SLACK};

/// Longest literal run of one control byte.
const MAX_COPY: u32 = 32;
/// Farthest near match (13 bits).
const MAX_DISTANCE: usize = 8191;
/// Farthest match plus one (`65535 + MAX_DISTANCE - 1`).
const MAX_FARDISTANCE: usize = 65535 + MAX_DISTANCE - 1;
/// Largest hash table, bits.
const HASH_LOG: u32 = 14;
/// Bytes a match is shortened by before its length is encoded (`ipshift`).
const IPSHIFT: usize = 4;
/// Shortest match encoded (`minlen`).
const MINLEN: usize = 4;
/// The hash table's bits by level.
const HASHLOG_BY_LEVEL: [u32; 10] = [0, HASH_LOG - 2, HASH_LOG - 1, 14, 14, 14, 14, 14, 14, 14];
/// The least estimated ratio worth compressing, by level.
const MIN_RATIO_BY_LEVEL: [f64; 10] = [0.0, 2.0, 1.5, 1.2, 1.2, 1.2, 1.2, 1.15, 1.1, 1.0];

fn read_u32(src: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&src[at..at + 4]);
    u32::from_le_bytes(b)
}

#[inline(always)]
fn hash(seq: u32, hashlog: u32) -> usize {
    (seq.wrapping_mul(2_654_435_761) >> (32 - hashlog)) as usize
}

/// Where the match or run at `ip` (compared with `r`) ends, as C's `get_run_or_match`
/// returns it: one past the first differing byte, or `bound` if none differs before it.
fn match_end(src: &[u8], ip: usize, r: usize, bound: usize) -> usize {
    if ip >= bound {
        return ip;
    }
    let n = crate::codec::equal_prefix(&src[ip..bound], &src[r..]);
    if ip + n < bound {
        ip + n + 1
    } else {
        bound
    }
}

/// The probe's estimate of the ratio of `src` (C's `get_cratio`).
fn probe_ratio(src: &[u8], hashlog: u32, htab: &mut [u32]) -> f64 {
    // A table size known at compile time drops the bounds checks of the table.
    match hashlog {
        12 => probe_ratio_in::<12>(src, htab),
        13 => probe_ratio_in::<13>(src, htab),
        _ => probe_ratio_in::<HASH_LOG>(src, htab),
    }
}

/// [`probe_ratio`] with a table of `1 << HASHLOG` cells.
fn probe_ratio_in<const HASHLOG: u32>(src: &[u8], htab: &mut [u32]) -> f64 {
    let hashlog = HASHLOG;
    let limit = src.len().min(1 << hashlog);
    let src = &src[..limit];
    let htab = &mut htab[..1 << hashlog];
    htab.fill(0);
    let bound = limit.saturating_sub(1);
    let ip_limit = limit.saturating_sub(12);
    let mut ip = 0usize;
    let mut oc: i64 = 5;
    let mut copy: u32 = 4;
    let literal = |ip: &mut usize, anchor: usize, copy: &mut u32, oc: &mut i64| {
        *oc += 1;
        *ip = anchor + 1;
        *copy += 1;
        if *copy == MAX_COPY {
            *copy = 0;
            *oc += 1;
        }
    };
    while ip < ip_limit {
        let anchor = ip;
        let seq = read_u32(src, ip);
        let h = hash(seq, hashlog);
        let r = htab[h] as usize;
        htab[h] = anchor as u32;
        // `r < anchor` first (as C's `distance == 0` test, for positions).
        if r >= anchor || anchor - r >= MAX_FARDISTANCE || read_u32(src, r) != seq {
            literal(&mut ip, anchor, &mut copy, &mut oc);
            continue;
        }
        let distance = anchor - r;
        ip = match_end(src, anchor + 4, r + 4, bound) - IPSHIFT;
        let len = ip - anchor;
        if ip < anchor || len < MINLEN {
            literal(&mut ip, anchor, &mut copy, &mut oc);
            continue;
        }
        if copy == 0 {
            oc -= 1;
        }
        copy = 0;
        if len >= 7 {
            oc += ((len - 7) / 255) as i64 + 1;
        }
        oc += if distance - 1 < MAX_DISTANCE { 2 } else { 4 };
        let seq = read_u32(src, ip);
        htab[hash(seq, hashlog)] = ip as u32;
        ip += 2;
        oc += 1;
    }
    ip as f64 / oc as f64
}

/// Appends the BloscLZ stream of `src` at level `clevel` (1 to 9) to `out` and returns
/// true, or returns false when C would give up: the probe's ratio is too low, `src` is
/// shorter than 16 bytes, or the stream does not fit `maxout` bytes (C's checks, which
/// keep a byte or two of margin). What was appended is then left for the caller to drop.
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    // The thread's table, cleared where used (as C's on its stack): a new one per
    // stream was a third memset of 64 KiB.
    let mut htab = TABLE.with(|t| t.take());
    htab.resize(1 << HASH_LOG, 0);
    let fits = compress_with(clevel, src, maxout, out, &mut htab);
    TABLE.with(|t| t.replace(htab));
    fits
}

std::thread_local! {
    static TABLE: core::cell::Cell<Vec<u32>> = const { core::cell::Cell::new(Vec::new()) };
}

/// [`compress`] with a hash table of `1 << HASH_LOG` cells (any contents).
fn compress_with(
    clevel: u8,
    src: &[u8],
    maxout: usize,
    out: &mut Vec<u8>,
    htab: &mut [u32],
) -> bool {
    let clevel = usize::from(clevel.clamp(1, 9));
    let hashlog = HASHLOG_BY_LEVEL[clevel];
    let length = src.len();
    let maxlen = match clevel {
        0 | 1 => length / 8,
        2 | 3 => length / 4,
        4..=6 => length / 2,
        _ => length,
    };
    if probe_ratio(&src[length - maxlen..], hashlog, htab) < MIN_RATIO_BY_LEVEL[clevel] {
        return false;
    }
    if length < 16 || maxout < 66 {
        return false;
    }
    let base = out.len();
    let written = encode_into(clevel, hashlog, src, maxout, base, out, htab);
    out.truncate(base + written.unwrap_or(0));
    written.is_some()
}

/// The stream of [`compress_with`] written into `out` from `base` (grown as it goes,
/// where C tests its budget: `crate::codec::grow`): its length, or `None` when it does
/// not fit `maxout`.
fn encode_into(
    clevel: usize,
    hashlog: u32,
    src: &[u8],
    maxout: usize,
    base: usize,
    out: &mut Vec<u8>,
    htab: &mut [u32],
) -> Option<usize> {
    let olimit = maxout;
    let length = src.len();
    let bound = length - 1;
    let ip_limit = length - 12;
    let htab = &mut htab[..1 << hashlog];
    htab.fill(0);
    grow(out, base, maxout.min(FIRST_ROOM), maxout);
    let mut d = &mut out[base..];
    macro_rules! room {
        ($op:expr, $n:expr) => {
            let need = $op + $n;
            if need + SLACK > d.len() {
                grow(out, base, need, maxout);
                d = &mut out[base..];
            }
        };
    }
    d[0] = (MAX_COPY - 1) as u8;
    d[1..5].copy_from_slice(&src[..4]);
    let mut op = 5usize;
    let mut ip = 4usize;
    let mut copy: u32 = 4;
    while ip < ip_limit {
        let anchor = ip;
        let seq = read_u32(src, ip);
        let h = hash(seq, hashlog);
        let r = htab[h] as usize;
        let distance = anchor - r;
        htab[h] = anchor as u32;
        let mut len = 0;
        let candidate = distance != 0 && distance < MAX_FARDISTANCE && read_u32(src, r) == seq;
        if candidate {
            ip = match_end(src, anchor + 4, r + 4, bound) - IPSHIFT;
            len = ip.wrapping_sub(anchor);
        }
        // Short matches (and short far ones) cost more to decode than they save.
        if !candidate || ip < anchor || len < MINLEN || (len <= 5 && distance > MAX_DISTANCE) {
            if op + 2 > olimit {
                return None;
            }
            room!(op, 2);
            d[op] = src[anchor];
            op += 1;
            ip = anchor + 1;
            copy += 1;
            if copy == MAX_COPY {
                copy = 0;
                d[op] = (MAX_COPY - 1) as u8;
                op += 1;
            }
            continue;
        }
        // Close the literal run: its count goes before its bytes, or drop the empty one.
        if copy > 0 {
            d[op - copy as usize - 1] = (copy - 1) as u8;
        } else {
            op -= 1;
        }
        copy = 0;
        let distance = distance - 1;
        // C tests its budget before each byte of the match; the last test is the
        // strictest.
        let need = match_len(len, distance);
        if op + need > olimit {
            return None;
        }
        room!(op, need + 1);
        op = put_match(d, op, len, distance);
        let seq = read_u32(src, ip);
        htab[hash(seq, hashlog)] = ip as u32;
        ip += 1;
        if clevel == 9 {
            // C's second hash: the three bytes after, shifted down (not a true sequence).
            htab[hash(seq >> 8, hashlog)] = ip as u32;
        }
        ip += 1;
        if op + 1 > olimit {
            return None;
        }
        d[op] = (MAX_COPY - 1) as u8;
        op += 1;
    }
    while ip <= bound {
        if op + 2 > olimit {
            return None;
        }
        room!(op, 2);
        d[op] = src[ip];
        op += 1;
        ip += 1;
        copy += 1;
        if copy == MAX_COPY {
            copy = 0;
            d[op] = (MAX_COPY - 1) as u8;
            op += 1;
        }
    }
    if copy > 0 {
        d[op - copy as usize - 1] = (copy - 1) as u8;
    } else {
        op -= 1;
    }
    // The first byte's bit 5 marks the stream as BloscLZ.
    d[0] |= 1 << 5;
    Some(op)
}

/// The bytes of a match of `len` (as C biases it) at `distance` (less one): its code,
/// any 255s and the rest of a long one, and one distance byte, or three when far.
fn match_len(len: usize, distance: usize) -> usize {
    let tail = if distance < MAX_DISTANCE { 2 } else { 4 };
    if len < 7 {
        tail
    } else {
        1 + (len - 7) / 255 + tail
    }
}

/// Writes one match (`len` as C biases it, `distance` less one), near or far, at `op`
/// (with the room for it, [`match_len`]); returns where it ends.
fn put_match(d: &mut [u8], mut op: usize, len: usize, distance: usize) -> usize {
    let (far, distance) = if distance < MAX_DISTANCE {
        (false, distance)
    } else {
        (true, distance - MAX_DISTANCE)
    };
    let high = if far { 31 } else { (distance >> 8) as u8 };
    if len < 7 {
        d[op] = ((len as u8) << 5) + high;
        op += 1;
    } else {
        d[op] = (7 << 5) + high;
        let full = (len - 7) / 255;
        if full > 0 {
            d[op + 1..op + 1 + full].fill(255);
        }
        d[op + 1 + full] = ((len - 7) % 255) as u8;
        op += full + 2;
    }
    if far {
        d[op..op + 3].copy_from_slice(&[255, (distance >> 8) as u8, distance as u8]);
        op + 3
    } else {
        d[op] = distance as u8;
        op + 1
    }
}
