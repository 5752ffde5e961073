//! Huffman literals as libzstd 1.5.6 reads them, for the checks ruzstd does not make:
//! the weights (`HUF_readStats`: FSE-coded ones decoded as `FSE_decompress_wksp` does,
//! at most 255 of them, weight 1 in pairs) and, for a single Huffman stream, that the
//! declared number of literals ends exactly at the stream's start
//! (`HUF_decompress1X1`, `BIT_endOfDStream`); ruzstd decodes until the bits run out.
//! Bounded work: a tree of at most 128 bytes, a single stream of at most 1023 literals.

/// The largest Huffman table log (`HUF_TABLELOG_MAX`).
const HUF_TABLELOG_MAX: u32 = 12;
/// The most weights an FSE-coded tree decodes to (`hwSize - 1`).
const MAX_WEIGHTS: usize = 255;
/// The largest FSE table log for Huffman weights.
const WEIGHTS_FSE_LOG: u32 = 6;

/// What libzstd found wrong: `(what was expected, what was found)`.
pub(super) type Refusal = (&'static str, u64);

/// A Huffman table as the lengths of its codes: `counts[w]` symbols of weight `w`.
#[derive(Clone, Copy)]
pub(super) struct Table {
    log: u32,
    counts: [u16; HUF_TABLELOG_MAX as usize + 1],
}

/// Bits of `src` counted from the least significant bit of its first byte; those
/// before the start read as zero (as libzstd's reversed bit reader yields them).
fn bits(src: &[u8], end: i64, n: u32) -> u32 {
    let mut v = 0u32;
    for i in 1..=i64::from(n) {
        let at = end - i;
        let bit = if at < 0 {
            0
        } else {
            (src[(at / 8) as usize] >> (at % 8)) & 1
        };
        v = v << 1 | u32::from(bit);
    }
    v
}

/// Reads a Huffman tree description; returns the table and the bytes it takes.
pub(super) fn read_tree(tree: &[u8]) -> Result<(Table, usize), Refusal> {
    let Some((&head, rest)) = tree.split_first() else {
        return Err(("a Huffman tree description", 0));
    };
    let mut weights = [0u8; MAX_WEIGHTS + 1];
    let (n, used) = if head >= 128 {
        let n = usize::from(head - 127);
        let packed = rest
            .get(..n.div_ceil(2))
            .ok_or(("weights within the literals", u64::from(head)))?;
        for (i, w) in weights.iter_mut().take(n).enumerate() {
            *w = if i % 2 == 0 {
                packed[i / 2] >> 4
            } else {
                packed[i / 2] & 15
            };
        }
        (n, 1 + n.div_ceil(2))
    } else {
        let src = rest
            .get(..usize::from(head))
            .ok_or(("FSE-coded weights within the literals", u64::from(head)))?;
        (fse_weights(src, &mut weights)?, 1 + usize::from(head))
    };
    let mut counts = [0u16; HUF_TABLELOG_MAX as usize + 1];
    let mut total = 0u32;
    for &w in &weights[..n] {
        if u32::from(w) > HUF_TABLELOG_MAX {
            return Err(("Huffman weights at most 12", u64::from(w)));
        }
        counts[usize::from(w)] += 1;
        total += (1 << w) >> 1;
    }
    if total == 0 {
        return Err(("a Huffman weight over 0", 0));
    }
    let log = 32 - total.leading_zeros();
    let rest = (1u32 << log) - total;
    if log > HUF_TABLELOG_MAX || !rest.is_power_of_two() {
        return Err((
            "Huffman weights summing to a power of two (with the implied last) at most 2^12",
            u64::from(total),
        ));
    }
    counts[rest.trailing_zeros() as usize + 1] += 1;
    if counts[1] < 2 || counts[1] % 2 != 0 {
        return Err((
            "an even number of Huffman weight 1, at least 2",
            u64::from(counts[1]),
        ));
    }
    Ok((Table { log, counts }, used))
}

/// Checks that a single Huffman stream holds exactly `count` literals: libzstd reads
/// that many codes and then wants the stream's bits used up, no more, no less.
pub(super) fn check_single_stream(table: &Table, stream: &[u8], count: u64) -> Result<(), Refusal> {
    let Some(&last) = stream.last().filter(|&&b| b != 0) else {
        return Err(("a Huffman stream ending in a byte with its end mark", 0));
    };
    // Bits left to read, after the padding and the end mark.
    let mut pos = stream.len() as i64 * 8 - i64::from(8 - (7 - last.leading_zeros()));
    // Where each weight's codes start among the table's `log`-bit prefixes (sorted by
    // weight, as HUF_readDTableX1 fills its table).
    let mut starts = [0u32; HUF_TABLELOG_MAX as usize + 2];
    for w in 1..=table.log as usize {
        starts[w + 1] = starts[w] + (u32::from(table.counts[w]) << (w - 1));
    }
    for read in 0..count {
        let x = bits(stream, pos, table.log);
        let w = (1..=table.log as usize)
            .rev()
            .find(|&w| starts[w] <= x && table.counts[w] > 0)
            .unwrap_or(1);
        pos -= i64::from(table.log + 1) - w as i64;
        if pos < 0 {
            // Found: the literal whose code passes the stream's start.
            return Err((
                "every literal's code within its single Huffman stream",
                read + 1,
            ));
        }
    }
    if pos != 0 {
        return Err((
            "no bits left in the single Huffman stream after its literals",
            pos as u64,
        ));
    }
    Ok(())
}

/// FSE-coded Huffman weights (`FSE_readNCount`, `FSE_buildDTable`, then the two
/// interleaved states of `FSE_decompress_usingDTable_generic`); returns how many.
fn fse_weights(src: &[u8], weights: &mut [u8; MAX_WEIGHTS + 1]) -> Result<usize, Refusal> {
    let mut norm = [0i16; 256];
    let (log, symbols, used) = read_ncount(src, &mut norm)?;
    let size = 1usize << log;
    // The table: symbols spread as libzstd does, "less than 1" ones at the top.
    let mut symbol = [0u8; 1 << WEIGHTS_FSE_LOG];
    let mut next = [0u16; 256];
    let mut high = size - 1;
    for (s, &count) in norm.iter().enumerate().take(symbols) {
        if count == -1 {
            symbol[high] = s as u8;
            high = high.wrapping_sub(1);
            next[s] = 1;
        } else {
            next[s] = count.max(0) as u16;
        }
    }
    let step = (size >> 1) + (size >> 3) + 3;
    let mut position = 0;
    for (s, &count) in norm.iter().enumerate().take(symbols) {
        for _ in 0..count.max(0) {
            symbol[position] = s as u8;
            position = (position + step) & (size - 1);
            while position > high {
                position = (position + step) & (size - 1);
            }
        }
    }
    if position != 0 {
        return Err((
            "an FSE table for the Huffman weights that fills",
            position as u64,
        ));
    }
    let mut state_bits = [0u8; 1 << WEIGHTS_FSE_LOG];
    let mut state_base = [0u16; 1 << WEIGHTS_FSE_LOG];
    for u in 0..size {
        let s = usize::from(symbol[u]);
        let n = next[s];
        next[s] += 1;
        let nb = log - (15 - n.leading_zeros());
        state_bits[u] = nb as u8;
        state_base[u] = ((u32::from(n) << nb) - size as u32) as u16;
    }
    let stream = &src[used.min(src.len())..];
    let Some(&last) = stream.last().filter(|&&b| b != 0) else {
        return Err(("FSE-coded weights ending in a byte with its end mark", 0));
    };
    let mut pos = stream.len() as i64 * 8 - i64::from(8 - (7 - last.leading_zeros()));
    let read = |n: u32, pos: &mut i64| {
        *pos -= i64::from(n);
        bits(stream, *pos + i64::from(n), n) as usize
    };
    let mut states = [read(log, &mut pos), read(log, &mut pos)];
    let mut n = 0;
    loop {
        for k in 0..2 {
            if n > MAX_WEIGHTS - 2 {
                // This weight and the other state's last one: at least n + 2.
                return Err(("at most 255 Huffman weights", n as u64 + 2));
            }
            let s = states[k];
            weights[n] = symbol[s];
            n += 1;
            states[k] = usize::from(state_base[s]) + read(u32::from(state_bits[s]), &mut pos);
            if pos < 0 {
                weights[n] = symbol[states[1 - k]];
                return Ok(n + 1);
            }
        }
    }
}

/// `FSE_readNCount` for at most 256 symbols and a table log of at most 6: the
/// normalized counts, the table log, how many symbols, the bytes used.
fn read_ncount(src: &[u8], norm: &mut [i16; 256]) -> Result<(u32, usize, usize), Refusal> {
    // Bits are read from the least significant of the first byte; past the end, zeros.
    let peek = |at: usize, n: u32| -> u32 {
        (0..n).fold(0, |v, i| {
            let b = at + i as usize;
            let bit = src.get(b / 8).map_or(0, |byte| (byte >> (b % 8)) & 1);
            v | u32::from(bit) << i
        })
    };
    let log = peek(0, 4) + 5;
    if log > WEIGHTS_FSE_LOG {
        return Err((
            "an FSE table log for the Huffman weights at most 6",
            u64::from(log),
        ));
    }
    let mut at = 4;
    let mut remaining = (1i32 << log) + 1;
    let mut threshold = 1i32 << log;
    let mut nb = log + 1;
    let mut charnum = 0usize;
    let mut previous0 = false;
    loop {
        if previous0 {
            loop {
                let repeat = peek(at, 2) as usize;
                at += 2;
                charnum += repeat;
                if repeat != 3 {
                    break;
                }
            }
            if charnum >= 256 {
                break;
            }
        }
        let max = (2 * threshold - 1) - remaining;
        let v = peek(at, nb) as i32;
        let mut count = if (v & (threshold - 1)) < max {
            at += nb as usize - 1;
            v & (threshold - 1)
        } else {
            at += nb as usize;
            let c = v & (2 * threshold - 1);
            if c >= threshold {
                c - max
            } else {
                c
            }
        };
        count -= 1;
        remaining -= count.abs();
        norm[charnum] = count as i16;
        charnum += 1;
        previous0 = count == 0;
        if remaining < threshold {
            if remaining <= 1 {
                break;
            }
            nb = 32 - (remaining as u32).leading_zeros();
            threshold = 1 << (nb - 1);
        }
        if charnum >= 256 {
            break;
        }
    }
    let used = at.div_ceil(8);
    if remaining != 1 || charnum > 256 || used > src.len() {
        return Err((
            "an FSE table description for the Huffman weights",
            used as u64,
        ));
    }
    Ok((log, charnum, used))
}
