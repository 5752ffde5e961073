//! Bit-unshuffle (`bitunshuffle` in C-Blosc2's `blosc/shuffle.c`, the transposition of
//! `bitshuffle-generic.c`).
//!
//! A block of `n` elements of `typesize` bytes, `n` a multiple of 8, is stored as
//! `8 * typesize` rows of `n / 8` bytes: row `8 * j + k` holds bit `k` (least significant
//! first) of byte `j` of every element, element `i` in bit `i % 8` of the row's byte
//! `i / 8`. Format-3+ chunks bitshuffle the largest such prefix of the block and copy the
//! rest; format-2 chunks bitshuffle whole blocks of a multiple of 8 elements only.

/// The chunk format whose blocks are bitshuffled only when whole.
const FORMAT_WHOLE_BLOCKS: u8 = 2;

/// Undoes bitshuffle on `block` in place.
pub(super) fn unshuffle(typesize: usize, format_version: u8, block: &mut [u8]) {
    let typesize = typesize.max(1);
    let mut n = block.len() / typesize;
    if format_version == FORMAT_WHOLE_BLOCKS {
        if !n.is_multiple_of(8) {
            return;
        }
    } else {
        n -= n % 8;
    }
    if n == 0 {
        return;
    }
    let len = n * typesize;
    let Some(shuffled) = block.get(..len).map(<[u8]>::to_vec) else {
        return;
    };
    let row_len = n / 8;
    for (i, element) in block.chunks_exact_mut(typesize).take(n).enumerate() {
        let (col, bit) = (i / 8, i % 8);
        for (j, byte) in element.iter_mut().enumerate() {
            let mut value = 0u8;
            for k in 0..8 {
                let stored = shuffled
                    .get((8 * j + k) * row_len + col)
                    .copied()
                    .unwrap_or(0);
                value |= ((stored >> bit) & 1) << k;
            }
            *byte = value;
        }
    }
}
