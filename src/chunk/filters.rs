//! The byte filters undone on each block: byte-unshuffle (`unshuffle` in C-Blosc2's
//! `blosc/shuffle-generic.c`), delta (`delta_decoder`, `blosc/delta.c`) and bytedelta
//! (`bytedelta_backward`, `plugins/filters/bytedelta/bytedelta.c` of C-Blosc2 3.x).
//!
//! Written as plain loops over fixed-size arrays so that the compiler vectorises them;
//! every index is in bounds by construction (slices of exactly the lengths used).

use alloc::vec::Vec;

/// Byte-unshuffle `src` into `dst` (same length): byte `j` of element `i` was stored at
/// `j * n + i`, `n` the number of whole elements; the bytes past the last whole element
/// are copied as they are.
pub(super) fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let n = src.len() / typesize.max(1);
    if typesize <= 1 || n == 0 {
        dst.copy_from_slice(src);
        return;
    }
    let whole = n * typesize;
    let (body, tail) = dst.split_at_mut(whole);
    unshuffle_any(typesize, &src[..whole], body, n);
    tail.copy_from_slice(&src[whole..]);
}

/// [`unshuffle`] appending to `out` (no zero-filling pass over the destination).
pub(super) fn unshuffle_append(typesize: usize, src: &[u8], out: &mut Vec<u8>) {
    let n = src.len() / typesize.max(1);
    let whole = n * typesize;
    match typesize {
        _ if typesize <= 1 || n == 0 => out.extend_from_slice(src),
        2 => unshuffle_fixed::<2>(&src[..whole], out, n),
        4 => unshuffle_fixed::<4>(&src[..whole], out, n),
        8 => unshuffle_fixed::<8>(&src[..whole], out, n),
        16 => unshuffle_fixed::<16>(&src[..whole], out, n),
        _ => {
            let start = out.len();
            out.resize(start + whole, 0);
            unshuffle_any(typesize, &src[..whole], &mut out[start..], n);
        }
    }
    if n > 0 && typesize > 1 {
        out.extend_from_slice(&src[whole..]);
    }
}

/// Groups of 8 elements transposed into a stack buffer before one append: an append per
/// group (its capacity check and length update) cost a third of the time at typesize 4.
const BATCH_GROUPS: usize = 16;

/// Unshuffle of `N`-byte elements (`N` 2, 4, 8 or 16), appended to `out`: each group
/// of 8 elements is a transposition of `N` rows of 8 bytes, done on `u64` words.
fn unshuffle_fixed<const N: usize>(src: &[u8], out: &mut Vec<u8>, n: usize) {
    let rows: [&[u8]; N] = core::array::from_fn(|j| &src[j * n..(j + 1) * n]);
    let groups = n / 8;
    out.reserve(n * N);
    let mut batch = [0u8; BATCH_GROUPS * 8 * 16];
    let mut g = 0;
    while g < groups {
        let take = BATCH_GROUPS.min(groups - g);
        let filled = &mut batch[..take * 8 * N];
        for (k, elements) in filled.chunks_exact_mut(8 * N).enumerate() {
            unshuffle_group::<N>(&rows, g + k, elements);
        }
        out.extend_from_slice(filled);
        g += take;
    }
    for at in groups * 8..n {
        let element: [u8; N] = rows.map(|row| row[at]);
        out.extend_from_slice(&element);
    }
}

/// Elements `8 * g .. 8 * g + 8` of `rows` (byte `j` of each in row `j`) into `dst`
/// (`8 * N` bytes).
#[inline(always)]
fn unshuffle_group<const N: usize>(rows: &[&[u8]; N], g: usize, dst: &mut [u8]) {
    let words: [u64; N] = core::array::from_fn(|j| {
        let bytes: [u8; 8] = rows[j][8 * g..8 * g + 8].try_into().unwrap_or([0; 8]);
        u64::from_le_bytes(bytes)
    });
    match N {
        2 => {
            let element = interleave2(words[0], words[1]);
            put_words(dst, &element);
        }
        4 => {
            let mut x = [words[0], words[1], words[2], words[3]];
            transpose_stage(&mut x, 0, 1, 8, 0x00ff_00ff_00ff_00ff);
            transpose_stage(&mut x, 2, 3, 8, 0x00ff_00ff_00ff_00ff);
            transpose_stage(&mut x, 0, 2, 16, 0x0000_ffff_0000_ffff);
            transpose_stage(&mut x, 1, 3, 16, 0x0000_ffff_0000_ffff);
            // Low halves are elements 0..4, high halves 4..8.
            const LOW: u64 = 0xffff_ffff;
            let words = [
                (x[0] & LOW) | (x[1] << 32),
                (x[2] & LOW) | (x[3] << 32),
                (x[0] >> 32) | (x[1] & !LOW),
                (x[2] >> 32) | (x[3] & !LOW),
            ];
            put_words(dst, &words);
        }
        _ => {
            // 8 or 16: one or two 8x8 byte transpositions; element `b` is word `b` of
            // each half.
            let halves = N / 8;
            let mut t = [[0u64; 8]; 2];
            for (h, half) in t.iter_mut().enumerate().take(halves) {
                half.copy_from_slice(&words[8 * h..8 * h + 8]);
                transpose8x8(half);
            }
            for (b, element) in dst.chunks_exact_mut(N).enumerate() {
                for (h, part) in element.chunks_exact_mut(8).enumerate() {
                    part.copy_from_slice(&t[h][b].to_le_bytes());
                }
            }
        }
    }
}

/// `words` as little-endian bytes into `dst`, in order.
#[inline(always)]
fn put_words(dst: &mut [u8], words: &[u64]) {
    for (chunk, w) in dst.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
}

/// Swaps the `shift`-bit fields of word `hi` at even positions with those of word `lo`
/// at odd positions: one stage of a transposition network.
#[inline(always)]
fn transpose_stage(x: &mut [u64], lo: usize, hi: usize, shift: u32, mask: u64) {
    let t = ((x[lo] >> shift) ^ x[hi]) & mask;
    x[hi] ^= t;
    x[lo] ^= t << shift;
}

/// Transposes the 8x8 byte matrix `x` (word `k` is row `k`, byte `b` column `b`).
#[inline(always)]
pub(super) fn transpose8x8(x: &mut [u64; 8]) {
    for k in [0, 2, 4, 6] {
        transpose_stage(x, k, k + 1, 8, 0x00ff_00ff_00ff_00ff);
    }
    for k in [0, 1, 4, 5] {
        transpose_stage(x, k, k + 2, 16, 0x0000_ffff_0000_ffff);
    }
    for k in [0, 1, 2, 3] {
        transpose_stage(x, k, k + 4, 32, 0x0000_0000_ffff_ffff);
    }
}

/// Interleaves the bytes of `a` and `b`: the 16 bytes `a0 b0 a1 b1 ...` as two words.
#[inline(always)]
fn interleave2(a: u64, b: u64) -> [u64; 2] {
    fn spread(x: u32) -> u64 {
        let x = u64::from(x);
        let x = (x | (x << 16)) & 0x0000_ffff_0000_ffff;
        (x | (x << 8)) & 0x00ff_00ff_00ff_00ff
    }
    [
        spread(a as u32) | (spread(b as u32) << 8),
        spread((a >> 32) as u32) | (spread((b >> 32) as u32) << 8),
    ]
}

/// Unshuffle of any other element size.
fn unshuffle_any(typesize: usize, src: &[u8], dst: &mut [u8], n: usize) {
    for (j, row) in src.chunks_exact(n).enumerate() {
        for (element, &b) in dst.chunks_exact_mut(typesize).zip(row) {
            element[j] = b;
        }
    }
}

/// The element width delta works on: 1, 2, 4 or 8 bytes (8 for other multiples of 8,
/// else 1), as `delta_decoder` picks it.
pub(super) fn delta_width(typesize: usize) -> usize {
    match typesize {
        1 | 2 | 4 | 8 => typesize,
        t if t % 8 == 0 => 8,
        _ => 1,
    }
}

/// Undoes delta on `block` in place. The first block (`reference` is `None`) XORs each
/// whole element with the decoded one before it; later blocks XOR with the first block's
/// decoded bytes. Bytes past the last whole element stay as they are, as in C.
pub(super) fn undelta(typesize: usize, reference: Option<&[u8]>, block: &mut [u8]) {
    let width = delta_width(typesize);
    let len = block.len() - block.len() % width;
    let block = &mut block[..len];
    match reference {
        None => match width {
            1 => prefix_xor::<1>(block),
            2 => prefix_xor::<2>(block),
            4 => prefix_xor::<4>(block),
            _ => prefix_xor::<8>(block),
        },
        Some(first) => {
            for (byte, r) in block.iter_mut().zip(first) {
                *byte ^= r;
            }
        }
    }
}

/// Running XOR of `W`-byte elements: element `i` becomes the XOR of elements `0..=i`.
fn prefix_xor<const W: usize>(block: &mut [u8]) {
    let (elements, _) = block.as_chunks_mut::<W>();
    let mut previous = [0u8; W];
    for element in elements {
        for (b, p) in element.iter_mut().zip(previous.iter()) {
            *b ^= p;
        }
        previous = *element;
    }
}

/// Undoes bytedelta (filter 35) from `src` into `dst` (same length): the block holds
/// `typesize` channels of `len / typesize` bytes, each a running difference (mod 256)
/// of its own bytes; the bytes past the last whole element are copied as they are
/// (C-Blosc2 3.x; 2.x left them unwritten).
pub(super) fn unbytedelta(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let stream_len = src.len() / typesize.max(1);
    let whole = stream_len * typesize;
    if stream_len > 0 {
        for (s, d) in src[..whole]
            .chunks_exact(stream_len)
            .zip(dst[..whole].chunks_exact_mut(stream_len))
        {
            let mut acc = 0u8;
            for (o, &i) in d.iter_mut().zip(s) {
                acc = acc.wrapping_add(i);
                *o = acc;
            }
        }
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The definition, one byte at a time.
    fn unshuffle_plain(typesize: usize, src: &[u8]) -> Vec<u8> {
        let n = src.len() / typesize;
        let mut out = src.to_vec();
        for i in 0..n {
            for j in 0..typesize {
                out[i * typesize + j] = src[j * n + i];
            }
        }
        out
    }

    #[test]
    fn unshuffle_matches_the_definition() {
        for typesize in 1..=18 {
            for len in [0, 1, 7, 16, 31, 64, 257, 1000, 4099] {
                let src: Vec<u8> = (0..len).map(|i| (i * 7 + i / 5) as u8).collect();
                let mut dst = vec![0; len];
                unshuffle(typesize, &src, &mut dst);
                assert_eq!(dst, unshuffle_plain(typesize, &src), "{typesize} {len}");
                let mut appended = vec![7];
                unshuffle_append(typesize, &src, &mut appended);
                assert_eq!(appended[1..], dst, "{typesize} {len}");
            }
        }
    }
}
