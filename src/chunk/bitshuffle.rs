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

/// The chunk format whose blocks are bitshuffled only when whole.
const FORMAT_WHOLE_BLOCKS: u8 = 2;

/// Undoes bitshuffle from `src` into `dst` (same length).
pub(super) fn unshuffle(typesize: usize, format_version: u8, src: &[u8], dst: &mut [u8]) {
    let typesize = typesize.max(1);
    let mut n = src.len() / typesize;
    if format_version == FORMAT_WHOLE_BLOCKS {
        if !n.is_multiple_of(8) {
            n = 0;
        }
    } else {
        n -= n % 8;
    }
    let len = n * typesize;
    dst[len..].copy_from_slice(&src[len..]);
    if n == 0 {
        return;
    }
    let row_len = n / 8;
    let (src, dst) = (&src[..len], &mut dst[..len]);
    match typesize {
        1 => transpose_rows::<1>(src, dst, row_len),
        2 => transpose_rows::<2>(src, dst, row_len),
        4 => transpose_rows::<4>(src, dst, row_len),
        8 => transpose_rows::<8>(src, dst, row_len),
        16 => transpose_rows::<16>(src, dst, row_len),
        _ => transpose_any(typesize, src, dst, row_len),
    }
}

/// Transposes the 8x8 bit matrix held in `x` (byte `k` is row `k`, bit `b` column `b`):
/// byte `b` of the result holds bit `b` of every input byte, byte `k` in bit `k`.
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    // Hacker's Delight 7-3, for this bit order (swap 1x1, 2x2, then 4x4 blocks).
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^= t ^ (t << 28);
    x
}

/// Elements of `T` bytes: for each column (8 elements) and each byte `j`, gather the 8
/// row bytes, transpose them, scatter them to byte `j` of the 8 elements.
fn transpose_rows<const T: usize>(src: &[u8], dst: &mut [u8], row_len: usize) {
    let rows: [[&[u8]; 8]; T] = core::array::from_fn(|j| {
        core::array::from_fn(|k| &src[(8 * j + k) * row_len..(8 * j + k + 1) * row_len])
    });
    let (groups, _) = dst.as_chunks_mut::<T>();
    for (col, group) in groups.chunks_exact_mut(8).enumerate() {
        let mut bytes = [[0u8; 8]; T];
        for (j, out) in bytes.iter_mut().enumerate() {
            let gathered: [u8; 8] = core::array::from_fn(|k| rows[j][k][col]);
            *out = transpose8(u64::from_le_bytes(gathered)).to_le_bytes();
        }
        for (b, element) in group.iter_mut().enumerate() {
            for (j, byte) in element.iter_mut().enumerate() {
                *byte = bytes[j][b];
            }
        }
    }
}

/// Any other element size, one byte position at a time.
fn transpose_any(typesize: usize, src: &[u8], dst: &mut [u8], row_len: usize) {
    for j in 0..typesize {
        let rows: [&[u8]; 8] =
            core::array::from_fn(|k| &src[(8 * j + k) * row_len..(8 * j + k + 1) * row_len]);
        for (col, group) in dst.chunks_exact_mut(8 * typesize).enumerate() {
            let gathered: [u8; 8] = core::array::from_fn(|k| rows[k][col]);
            let out = transpose8(u64::from_le_bytes(gathered)).to_le_bytes();
            for (element, &b) in group.chunks_exact_mut(typesize).zip(out.iter()) {
                element[j] = b;
            }
        }
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

    #[test]
    fn matches_the_definition() {
        for typesize in 1..=17 {
            for len in [0, 5, 8, 64, 100, 129, 1000, 4096 + 7] {
                let src: Vec<u8> = (0..len).map(|i| (i * 131 + i / 3) as u8).collect();
                let mut dst = vec![0; len];
                unshuffle(typesize, 3, &src, &mut dst);
                assert_eq!(dst, plain(typesize, &src), "{typesize} {len}");
            }
        }
    }
}
