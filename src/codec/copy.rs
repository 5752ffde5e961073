//! The copy of an LZ77 match (`len` bytes from `offset` back, overlapping what it
//! writes), shared by the LZ4 and BloscLZ decoders: constant-length moves, repeated
//! patterns for short offsets, doubling for long matches, so that a short match costs
//! no `memmove` call and a long one few copies.

/// For offsets below 16: the mask of their first `offset` bytes, the multiplier that
/// repeats them every `offset` bytes over 16, and the largest multiple of `offset` that
/// is at most 16.
const PATTERN: [(u128, u128, usize); 16] = {
    let mut t = [(0u128, 0u128, 16usize); 16];
    let mut offset = 1;
    while offset < 16 {
        let (mut repeat, mut at) = (0u128, 0);
        while at < 16 {
            repeat |= 1 << (8 * at);
            at += offset;
        }
        t[offset] = ((1 << (8 * offset)) - 1, repeat, 16 - 16 % offset);
        offset += 1;
    }
    t
};

/// Copies the match of `len` bytes `offset` back (1 or more) byte by byte in effect:
/// with fixed-size moves where 32 bytes of room remain after it, exactly otherwise.
#[inline(always)]
pub(crate) fn copy_match(dest: &mut [u8], op: usize, offset: usize, len: usize) {
    let end = op + len;
    let m = op - offset;
    if end + 32 <= dest.len() {
        if offset >= len && len > 32 {
            dest.copy_within(m..m + len, op);
        } else if offset >= 16 && len >= LONG {
            double(dest, m, op, end);
        } else if offset >= 16 {
            // Each 16-byte move reads bytes written before it.
            let (mut s, mut o) = (m, op);
            loop {
                dest.copy_within(s..s + 16, o);
                dest.copy_within(s + 16..s + 32, o + 16);
                s += 32;
                o += 32;
                if o >= end {
                    break;
                }
            }
        } else if offset == 1 && len >= 64 {
            let b = dest[m];
            dest[op..end].fill(b);
        } else {
            // The first `offset` bytes repeated over 16 (a product with 1s every
            // `offset` bytes, carry-free), stored every multiple of `offset` that fits 16.
            let w = u128::from_le_bytes(dest[m..m + 16].try_into().expect("16 bytes"));
            let (mask, repeat, step) = PATTERN[offset];
            let v = (w & mask).wrapping_mul(repeat).to_le_bytes();
            let mut o = op;
            loop {
                dest[o..o + 16].copy_from_slice(&v);
                dest[o + step..o + step + 16].copy_from_slice(&v);
                o += 2 * step;
                if o >= end {
                    break;
                }
            }
        }
    } else if offset >= len {
        dest.copy_within(m..m + len, op);
    } else {
        double(dest, m, op, end);
    }
}

/// Matches at least this long and 16 bytes back or more are copied by doubling.
const LONG: usize = 128;

/// The match from `m` to `op .. end` by doubling: the bytes from `m` repeat with the
/// match's period, and `o - m` stays a multiple of it, so that each copy reads only
/// bytes written before it, twice as many each time (few long copies, where a match of
/// thousands of bytes, a run of a shuffled counter, would take hundreds of short ones).
#[inline(always)]
fn double(dest: &mut [u8], m: usize, op: usize, end: usize) {
    let mut o = op;
    while o < end {
        let c = (o - m).min(end - o);
        dest.copy_within(m..m + c, o);
        o += c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn matches_repeat_their_offset() {
        for offset in 1..48 {
            for (len, room) in [4, 5, 16, 17, 40, 63, 64, 100, 128, 300, 1000]
                .iter()
                .flat_map(|&l| [(l, 0), (l, 40)])
            {
                let mut dest: Vec<u8> = (1..=offset as u8).collect();
                dest.resize(offset + len + room, 0);
                copy_match(&mut dest, offset, offset, len);
                let expected: Vec<u8> = (0..offset + len).map(|i| (i % offset) as u8 + 1).collect();
                assert_eq!(
                    dest[..offset + len],
                    expected,
                    "offset {offset}, length {len}"
                );
                if offset < 16 {
                    assert_eq!(PATTERN[offset].2 % offset, 0);
                }
            }
        }
    }
}
