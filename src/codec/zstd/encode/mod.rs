//! Zstandard frames, our own compressor (pure safe Rust), for the levels C-Blosc2 asks
//! libzstd for: blosc level `l` below 9 is zstd level `2l - 1` (8 is 20), 9 is 22
//! (`zstd_wrap_compress` in `blosc/blosc2.c`).
//!
//! A frame is one segment with its content size and no checksum, as
//! `ZSTD_compressCCtx` writes it, of blocks of at most 128 KiB: each compressed (a
//! literals section and a sequences section), or stored raw when that is not smaller,
//! or one byte repeated. The match finder follows the strategy libzstd's level table
//! gives for the input's size (`clevels.h`): fast for levels 1 and 2, greedy, lazy and
//! lazy2 over a hash chain above; levels beyond 12 (btopt and up) search like lazy2
//! with more attempts.

mod bits;
mod fse;
mod huffman;
mod literals;
mod matcher;
mod sequences;

use alloc::vec::Vec;

use literals::Literals;
use matcher::{Matcher, Params};

const MAGIC: u32 = 0xfd2f_b528;
/// The largest block (`ZSTD_BLOCKSIZE_MAX`).
const BLOCK_MAX: usize = 128 << 10;
/// Block types.
const RAW: u32 = 0;
const RLE: u32 = 1;
const COMPRESSED: u32 = 2;

std::thread_local! {
    /// A block's sequences and literals, kept between the frames one thread compresses
    /// (their room made once, not grown again per frame).
    static BUFFERS: core::cell::RefCell<(Vec<Sequence>, Literals)> =
        const { core::cell::RefCell::new((Vec::new(), Literals::new())) };
}

/// The zstd level C-Blosc2 uses for a blosc level.
fn zstd_level(clevel: u8) -> u32 {
    match clevel {
        0..=7 => (u32::from(clevel) * 2).saturating_sub(1).max(1),
        8 => 20,
        _ => 22,
    }
}

/// The match finder's parameters of libzstd's level table for inputs of `len` bytes
/// (the table for 16 KiB or less, 128 KiB or less, 256 KiB or less, or larger), as
/// `ZSTD_adjustCParams` fits them to the input: greedy, lazy and lazy2 over rows of
/// `1 << searchLog` entries (16 to 64) for windows above 16 KiB
/// (`ZSTD_resolveRowMatchFinderMode`), over a hash chain below.
fn params(level: u32, len: usize) -> Params {
    let p = |hash_log, chain_log, search_log: u32, min_match, lazy| Params {
        hash_log,
        chain_log,
        attempts: 1 << search_log,
        min_match,
        lazy,
        row_log: 0,
    };
    let small = len <= 128 << 10;
    let medium = len <= 256 << 10;
    // Levels 3 to 12 by size: (hashLog, chainLog, searchLog, minMatch, strategy: 2
    // dfast, 3 greedy, 4 lazy, 5 lazy2, 6 btlazy2), windowLog 14 for the first.
    let row = match level {
        3..=12 => {
            let table: [[Row; 10]; 4] = [
                [
                    (15, 14, 2, 4, 2),
                    (14, 14, 4, 4, 3),
                    (14, 14, 3, 4, 4),
                    (14, 14, 4, 4, 5),
                    (14, 14, 6, 4, 5),
                    (14, 14, 8, 4, 5),
                    (14, 15, 5, 4, 6),
                    (14, 15, 9, 4, 6),
                    (14, 15, 3, 4, 7),
                    (14, 15, 4, 3, 7),
                ],
                [
                    (16, 15, 2, 5, 2),
                    (17, 17, 2, 4, 2),
                    (17, 16, 3, 4, 3),
                    (17, 16, 3, 4, 4),
                    (17, 16, 3, 4, 5),
                    (17, 16, 4, 4, 5),
                    (17, 16, 5, 4, 5),
                    (17, 16, 6, 4, 5),
                    (17, 17, 5, 4, 6),
                    (17, 18, 7, 4, 6),
                ],
                [
                    (16, 16, 1, 4, 2),
                    (17, 16, 3, 5, 3),
                    (18, 17, 5, 5, 3),
                    (19, 18, 3, 5, 4),
                    (19, 18, 4, 4, 4),
                    (19, 18, 4, 4, 5),
                    (19, 18, 5, 4, 5),
                    (19, 18, 6, 4, 5),
                    (19, 18, 5, 4, 6),
                    (19, 19, 7, 4, 6),
                ],
                [
                    (17, 16, 1, 5, 2),
                    (18, 18, 1, 5, 2),
                    (19, 18, 3, 5, 3),
                    (19, 18, 3, 5, 4),
                    (20, 19, 4, 5, 4),
                    (20, 19, 4, 5, 5),
                    (21, 20, 4, 5, 5),
                    (22, 21, 5, 5, 5),
                    (22, 21, 6, 5, 5),
                    (23, 22, 6, 5, 5),
                ],
            ];
            let class = if len <= 16 << 10 {
                0
            } else if small {
                1
            } else if medium {
                2
            } else {
                3
            };
            Some(table[class][level as usize - 3])
        }
        _ => None,
    };
    match row {
        Some((hash_log, chain_log, search_log, min_match, strategy @ 3..=5)) => {
            // The window: the table's, down to the input's size (at least 2^10).
            let src_log = usize::BITS - len.saturating_sub(1).leading_zeros();
            let window_log = class_window(len).min(src_log).max(10);
            let mut q = p(
                hash_log.min(window_log + 1),
                chain_log.min(window_log),
                search_log,
                min_match,
                strategy - 3,
            );
            if window_log > 14 {
                q.row_log = search_log.clamp(4, 6);
                q.attempts = 1 << search_log.min(q.row_log);
                q.hash_log = q.hash_log.max(q.row_log);
                // At most 2^14 entries (C's up to 2^19, 2.5 MiB of rows): without the
                // prefetching safe Rust lacks, rows out of the cache cost more than
                // the matches they keep find (bitshuffle f64ramp at 2^19 1.8x C's
                // time, 1.15x at 2^16; zstd5 at 2^15 2-9% faster than at 2^16, at
                // 2^14 2-7% faster again, its tags in the L1 cache; sizes 1.000-1.004x
                // C's to 1.000-1.022x).
                q.hash_log = q.hash_log.min(14);
            }
            q
        }
        // dfast (two hash tables in libzstd): greedy over a chain with two links.
        Some((_, _, _, _, 2)) => p(16, 16, 1, 5, 0),
        Some(_) => p(17, 17, 6, 4, 2),
        None => match level {
            1 if small => p(13, 0, 0, 6, 0),
            1 if medium => p(14, 0, 0, 6, 0),
            1 => p(14, 0, 0, 7, 0),
            2 => p(15, 0, 0, 5, 0),
            13..=19 => p(18, 18, 8, 4, 2),
            // Levels 20 and 22 (blosc 8 and 9, whose blocks are a whole 1 MiB chunk
            // and more): a window of 1 MiB as libzstd's (its chain of 2^25 and up covers
            // the block), 512 links per search as its `searchLog` 9.
            _ => p(20, 20, 9, 4, 2),
        },
    }
}

/// A row of libzstd's level table: hashLog, chainLog, searchLog, minMatch, strategy.
type Row = (u32, u32, u32, usize, u8);

/// The window log of libzstd's level table for inputs of `len` bytes, levels 3 to 12.
fn class_window(len: usize) -> u32 {
    match len {
        0..=16384 => 14,
        16385..=131_072 => 17,
        131_073..=262_144 => 18,
        _ => 22,
    }
}

/// Appends the zstd frame of `src` at blosc level `clevel` to `out` and returns true,
/// or returns false as soon as it is, or would be, longer than `maxout` bytes.
pub(crate) fn compress(clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let base = out.len();
    out.extend_from_slice(&MAGIC.to_le_bytes());
    let n = src.len() as u64;
    // Single segment (bit 5), the content size's field size in bits 6..7.
    match n {
        0..=255 => out.extend_from_slice(&[0x20, n as u8]),
        256..=65791 => {
            out.push(0x60);
            out.extend_from_slice(&((n - 256) as u16).to_le_bytes());
        }
        _ if n <= u64::from(u32::MAX) => {
            out.push(0xa0);
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        _ => {
            out.push(0xe0);
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
    let mut matcher = Matcher::new(params(zstd_level(clevel), src.len()), src.len());
    let (mut seqs, mut lits) = BUFFERS.with(|b| b.replace((Vec::new(), Literals::new())));
    let mut start = 0;
    loop {
        let end = (start + BLOCK_MAX).min(src.len());
        let last = end == src.len();
        let room = maxout.saturating_sub(out.len() - base);
        let fits = block(
            src,
            start,
            end,
            last,
            room,
            &mut matcher,
            &mut seqs,
            &mut lits,
            out,
        );
        if !fits || out.len() - base > maxout || last {
            matcher.keep();
            BUFFERS.with(|b| *b.borrow_mut() = (seqs, lits));
            return fits && out.len() - base <= maxout;
        }
        start = end;
    }
}

/// Appends one block of `src[start..end]`: compressed, raw or RLE, whichever is shortest;
/// returns false, with nothing appended, when it is raw and longer than `room` (the
/// frame will not fit: its bytes are not copied for nothing, as libzstd's output ends).
#[allow(clippy::too_many_arguments)]
fn block(
    src: &[u8],
    start: usize,
    end: usize,
    last: bool,
    room: usize,
    matcher: &mut Matcher,
    seqs: &mut Vec<Sequence>,
    lits: &mut Literals,
    out: &mut Vec<u8>,
) -> bool {
    let bytes = &src[start..end];
    let header = |kind: u32, size: usize| {
        let v = u32::from(last) | kind << 1 | (size as u32) << 3;
        [v as u8, (v >> 8) as u8, (v >> 16) as u8]
    };
    if bytes.len() > 1 && one_byte_repeated(bytes) {
        // The matcher still sees these bytes as the window of the next block.
        out.extend_from_slice(&header(RLE, bytes.len()));
        out.push(bytes[0]);
        return true;
    }
    let reps = matcher.reps;
    seqs.clear();
    lits.start(bytes.len());
    matcher.block(src, start, end, seqs, lits);
    let at = out.len();
    out.extend_from_slice(&[0; 3]);
    // libzstd's suspicion (`SUSPECT_UNCOMPRESSIBLE_LITERAL_RATIO`).
    let suspect = seqs.is_empty() || lits.as_slice().len() / seqs.len() >= 20;
    // Literals stored raw past the room are not copied (as libzstd's end there): the
    // block would be larger than raw, which does not fit either or is written instead.
    let fits = huffman::write_literals(lits.as_slice(), suspect, room.saturating_sub(3), out);
    if fits {
        sequences::write_sequences(seqs, out);
    }
    let size = out.len() - at - 3;
    if fits && size < bytes.len() {
        out[at..at + 3].copy_from_slice(&header(COMPRESSED, size));
    } else {
        out.truncate(at);
        if 3 + bytes.len() > room {
            return false;
        }
        // Raw: the decoder keeps its repeat offsets through it.
        matcher.reps = reps;
        out.extend_from_slice(&header(RAW, bytes.len()));
        out.extend_from_slice(bytes);
    }
    true
}

use sequences::Sequence;

/// Whether all of `bytes` (at least one) are its first byte: 64 bytes a step, as eight
/// words XORed with the byte repeated (a byte loop was a tenth of the time of
/// repetitive data).
fn one_byte_repeated(bytes: &[u8]) -> bool {
    let pattern = u64::from_ne_bytes([bytes[0]; 8]);
    let (groups, rest) = bytes.as_chunks::<64>();
    groups.iter().all(|g| {
        let (words, _) = g.as_chunks::<8>();
        words
            .iter()
            .fold(0, |d, w| d | (u64::from_ne_bytes(*w) ^ pattern))
            == 0
    }) && rest.iter().all(|&b| b == bytes[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(frame: &[u8], len: usize) -> Vec<u8> {
        let mut out = alloc::vec![0u8; len];
        let mut z = super::super::Zstd::new(None).unwrap();
        z.decompress((frame, frame), &mut out).unwrap();
        out
    }

    fn sample(len: usize, seed: u64) -> Vec<u8> {
        let mut rng = crate::test_rng::XorShift::new(seed);
        (0..len)
            .map(|i| {
                let x = rng.next_u64();
                match (i / 1000) % 5 {
                    0 => (i / 7) as u8,
                    1 => (x % 5) as u8,
                    2 => x as u8,
                    // Runs of one byte, long enough for the chain's run jumps.
                    3 => [0, 255][(i / 97) % 2],
                    _ => b"abcabcabdabcab"[i % 14],
                }
            })
            .collect()
    }

    #[test]
    fn one_byte_repeated_finds_any_other_byte() {
        for len in [1, 7, 63, 64, 65, 200, 4096] {
            let same = alloc::vec![9u8; len];
            assert!(one_byte_repeated(&same), "{len}");
            for at in [0, len / 2, len - 1].into_iter().filter(|&at| at > 0) {
                let mut other = same.clone();
                other[at] = 8;
                assert!(!one_byte_repeated(&other), "{len} {at}");
            }
        }
    }

    #[test]
    fn noise_is_stored_raw_or_does_not_fit() {
        // Literals sampled as incompressible: no Huffman code, and no copy past the room.
        let mut rng = crate::test_rng::XorShift::new(0x9e37_79b9_7f4a_7c15);
        let noise: Vec<u8> = (0..64 << 10)
            .map(|_| (rng.next_u64() >> 32) as u8)
            .collect();
        let mut out = Vec::new();
        assert!(!compress(5, &noise, noise.len(), &mut out));
        out.clear();
        assert!(compress(5, &noise, usize::MAX, &mut out));
        // The frame header (magic, descriptor, 2-byte size), a raw block's header.
        assert_eq!(out.len(), 7 + 3 + noise.len());
        assert_eq!(decode(&out, noise.len()), noise);
    }

    #[test]
    fn frames_round_trip_through_our_decoder() {
        for clevel in 1..=9 {
            for len in [0, 1, 5, 17, 100, 1000, 4096, 70_000, 200_000, 300_001] {
                let src = sample(len, len as u64 + u64::from(clevel));
                let mut out = Vec::new();
                assert!(compress(clevel, &src, usize::MAX, &mut out));
                assert_eq!(decode(&out, len), src, "clevel {clevel} len {len}");
            }
        }
    }
}
