//! Bit-unshuffle (`bitunshuffle` in C-Blosc2's `blosc/shuffle.c`, the transposition of
//! `bitshuffle-generic.c`).
//!
//! A block of `n` elements of `typesize` bytes, `n` a multiple of 8, is stored as
//! `8 * typesize` rows of `n / 8` bytes: row `8 * j + k` holds bit `k` (least significant
//! first) of byte `j` of every element, element `i` in bit `i % 8` of the row's byte
//! `i / 8`. Format-3+ chunks bitshuffle the largest such prefix of the block and copy the
//! rest; format-2 chunks bitshuffle whole blocks of a multiple of 8 elements only.
//!
//! Each group of 8 elements and byte `j` is one 8x8 bit-matrix transposition: the 8
//! bytes `row[8j + k][col]`, `k = 0..8`, read as one `u64`, transposed, give byte `j` of
//! the 8 elements.

use alloc::vec::Vec;

/// The chunk format whose blocks are bitshuffled only when whole.
const FORMAT_WHOLE_BLOCKS: u8 = 2;

/// Undoes bitshuffle from `src` into `dst` (same length); `scratch` holds the
/// bit-transposed bytes in between.
pub(in crate::chunk) fn unshuffle(
    typesize: usize,
    format_version: u8,
    src: &[u8],
    scratch: &mut Vec<u8>,
    dst: &mut [u8],
) {
    let typesize = typesize.max(1);
    let len = shuffled_len(typesize, format_version, src.len());
    scratch.resize(len, 0);
    transpose_bits(typesize, &src[..len], scratch);
    super::unshuffle(typesize, scratch, &mut dst[..len]);
    dst[len..].copy_from_slice(&src[len..]);
}

/// How many bytes of a block of `len` are bitshuffled: whole groups of 8 elements (all
/// of the block or nothing in format 2).
fn shuffled_len(typesize: usize, format_version: u8, len: usize) -> usize {
    let mut n = len / typesize;
    if format_version == FORMAT_WHOLE_BLOCKS {
        if !n.is_multiple_of(8) {
            n = 0;
        }
    } else {
        n -= n % 8;
    }
    n * typesize
}

/// Bit-transposes each group of 8 rows of `src` into byte rows in `bytes` (byte `j` of
/// every element, in order): what is left is a byte-unshuffle.
fn transpose_bits(typesize: usize, src: &[u8], bytes: &mut [u8]) {
    let row_len = src.len() / typesize / 8;
    if row_len == 0 {
        return;
    }
    for (rows, out) in src
        .chunks_exact(8 * row_len)
        .zip(bytes.chunks_exact_mut(8 * row_len))
    {
        transpose_group(rows, out, row_len);
    }
}

/// Transposes the 8x8 bit matrix held in `x` (byte `k` is row `k`, bit `b` column `b`):
/// byte `b` of the result holds bit `b` of every input byte, byte `k` in bit `k`.
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    // Hacker's Delight 7-3: swap 1x1, then 2x2, then 4x4 blocks.
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^= t ^ (t << 28);
    x
}

/// Eight bit rows of `row_len` bytes (bit `k` of one byte of every element) into
/// `8 * row_len` bytes, one per element: the byte transposition of the unshuffle gathers
/// each column's 8 row bytes into a word, then an 8x8 bit transposition of each word (a
/// plain loop on `u64`s, which the compiler vectorises).
fn transpose_group(rows: &[u8], out: &mut [u8], row_len: usize) {
    super::transpose::rows_to_elements::<8>(rows, out, row_len);
    let (words, _) = out.as_chunks_mut::<8>();
    for word in words {
        *word = transpose8(u64::from_le_bytes(*word)).to_le_bytes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The definition, one bit at a time.
    fn plain(typesize: usize, src: &[u8]) -> Vec<u8> {
        let n = (src.len() / typesize) / 8 * 8;
        let row_len = n / 8;
        let mut out = src.to_vec();
        for i in 0..n {
            for j in 0..typesize {
                let mut v = 0u8;
                for k in 0..8 {
                    let stored = src[(8 * j + k) * row_len + i / 8];
                    v |= ((stored >> (i % 8)) & 1) << k;
                }
                out[i * typesize + j] = v;
            }
        }
        out
    }

    /// (typesize, chunk format, stored, unshuffled): row `8j + k` holds bit `k` of byte
    /// `j` of every element, element `i` in bit `i % 8` of byte `i / 8`.
    #[test]
    fn by_hand() {
        let mut two_rows = [0u8; 16];
        two_rows[8] = 0x08; // byte 1, bit 0 of element 3
        let mut element_3 = [0u8; 16];
        element_3[7] = 0x01;
        let cases: [(usize, u8, &[u8], &[u8]); 8] = [
            (
                1,
                5,
                &[0, 0, 0, 0, 0, 0, 0, 1],
                &[0x80, 0, 0, 0, 0, 0, 0, 0],
            ),
            (1, 5, &[2, 0, 0, 0, 0, 0, 0, 0], &[0, 1, 0, 0, 0, 0, 0, 0]),
            (1, 5, &[0xff, 0, 0xff, 0, 0, 0, 0, 0], &[5; 8]),
            (2, 5, &two_rows, &element_3),
            // 16 elements: two bytes per row, element 9 in bit 1 of each row's byte 1.
            (
                1,
                5,
                &[0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                &[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            ),
            // Past the last group of 8 elements: copied (format 3 and later) ...
            (
                1,
                5,
                &[2, 0, 0, 0, 0, 0, 0, 0, 7, 9],
                &[0, 1, 0, 0, 0, 0, 0, 0, 7, 9],
            ),
            // ... or, in format 2, the whole block unless it is whole groups.
            (
                1,
                2,
                &[2, 0, 0, 0, 0, 0, 0, 0, 7, 9],
                &[2, 0, 0, 0, 0, 0, 0, 0, 7, 9],
            ),
            (1, 2, &[2, 0, 0, 0, 0, 0, 0, 0], &[0, 1, 0, 0, 0, 0, 0, 0]),
        ];
        for (i, (typesize, format, src, expected)) in cases.into_iter().enumerate() {
            let mut dst = vec![0; src.len()];
            unshuffle(typesize, format, src, &mut Vec::new(), &mut dst);
            assert_eq!(dst, expected, "case {i}");
        }
    }

    #[test]
    fn matches_the_definition() {
        for typesize in 1..=17 {
            for len in [0, 5, 8, 64, 100, 129, 1000, 4096 + 7] {
                let src: Vec<u8> = (0..len).map(|i| (i * 131 + i / 3) as u8).collect();
                let mut dst = vec![0; len];
                unshuffle(typesize, 3, &src, &mut Vec::new(), &mut dst);
                assert_eq!(dst, plain(typesize, &src), "{typesize} {len}");
            }
        }
    }
}
