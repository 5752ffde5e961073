//! Bit-unshuffle with a vector unit (`crate::simd`), in one pass over the block.
//!
//! The block holds `8 * typesize` bit rows of `n / 8` bytes (`super::bitshuffle`
//! describes them): bit `b` of byte `c` of row `8j + k` is bit `k` of byte `j` of
//! element `8c + b`. For a tile of `W` columns (a vector of each row) and each byte `j`:
//! the 8 vectors of rows `8j .. 8j + 8` are bit-transposed across registers, byte lane
//! by byte lane (three swaps of 4, 2 and 1-bit blocks between pairs of registers, the
//! network of Hacker's Delight 7-3 laid across registers rather than inside a word), so
//! that vector `b` holds byte `j` of the elements `8c + b`; an 8-way zip
//! (`vector_unshuffle::transpose`) puts them in element order; then the byte-unshuffle
//! of the `typesize` rows of the tile (`8 * W` elements, in L1) writes the output. C
//! makes two passes over the block (a byte transposition, then `movemask`s).

use fearless_simd::prelude::*;

use super::vector_unshuffle::{rows_to_elements, transpose};

/// The widest element done here: the tile (`8 * W` elements of it) stays in L1.
pub(crate) const MAX_TYPESIZE: usize = 16;
/// The widest vector, in bytes (AVX-512).
const MAX_W: usize = 64;

/// Bytes of output of one tile at most.
pub(crate) const MAX_TILE: usize = MAX_TYPESIZE * 8 * MAX_W;

/// Undoes bitshuffle for the `W` columns from `col` (a vector width) of `src`
/// (`8 * typesize` bit rows of `row_len` bytes, `typesize` at most [`MAX_TYPESIZE`]):
/// the elements `8 * col ..` into `out` (`8 * W * typesize` bytes).
#[inline(always)]
pub(crate) fn bit_tile<S: Simd>(
    simd: S,
    typesize: usize,
    src: &[u8],
    row_len: usize,
    col: usize,
    out: &mut [u8],
) {
    let w = S::u8s::LEN;
    let tile_len = 8 * w;
    let mut tile = super::Line([0; MAX_TILE]);
    let tile = &mut tile.0[..typesize * tile_len];
    // Byte `j` of the tile's elements, in row `j` of the tile (or straight out).
    for j in 0..typesize {
        let mut v = [S::u8s::splat(simd, 0); 8];
        for (k, v) in v.iter_mut().enumerate() {
            let row = (8 * j + k) * row_len + col;
            *v = S::u8s::from_slice(simd, &src[row..row + w]);
        }
        let v = transpose::<S, 8>(transpose_bits::<S>(simd, v));
        let to = if typesize == 1 {
            &mut *out
        } else {
            &mut tile[j * tile_len..(j + 1) * tile_len]
        };
        for (o, v) in to.chunks_exact_mut(w).zip(v) {
            v.store_slice(o);
        }
    }
    let tile = &*tile;
    match typesize {
        1 => {}
        2 => _ = rows_to_elements::<S, 2>(simd, &rows_of(tile), out),
        4 => _ = rows_to_elements::<S, 4>(simd, &rows_of(tile), out),
        8 => _ = rows_to_elements::<S, 8>(simd, &rows_of(tile), out),
        16 => _ = rows_to_elements::<S, 16>(simd, &rows_of(tile), out),
        _ => {
            for (j, row) in tile.chunks_exact(tile_len).enumerate() {
                for (element, &byte) in out.chunks_exact_mut(typesize).zip(row) {
                    element[j] = byte;
                }
            }
        }
    }
}

/// The `N` rows of `tile`.
#[inline(always)]
fn rows_of<const N: usize>(tile: &[u8]) -> [&[u8]; N] {
    let len = tile.len() / N;
    core::array::from_fn(|j| &tile[j * len..(j + 1) * len])
}

/// The 8x8 bit matrix of each byte lane across `v` transposed: bit `b` of lane `c` of
/// `v[k]` becomes bit `k` of lane `c` of `v[b]`.
#[inline(always)]
pub(super) fn transpose_bits<S: Simd>(simd: S, v: [S::u8s; 8]) -> [S::u8s; 8] {
    let mut r = [S::u64s::splat(simd, 0); 8];
    for (r, v) in r.iter_mut().zip(v) {
        *r = v.bitcast();
    }
    // Swap the off-diagonal blocks of `size` bits between registers `size` apart; the
    // masks keep each swap inside its byte. Written out: a loop here is not unrolled.
    const ONES: u64 = 0x5555_5555_5555_5555;
    const TWOS: u64 = 0x3333_3333_3333_3333;
    const FOURS: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    swap::<S, 1, ONES>(&mut r, 0);
    swap::<S, 1, ONES>(&mut r, 2);
    swap::<S, 1, ONES>(&mut r, 4);
    swap::<S, 1, ONES>(&mut r, 6);
    swap::<S, 2, TWOS>(&mut r, 0);
    swap::<S, 2, TWOS>(&mut r, 1);
    swap::<S, 2, TWOS>(&mut r, 4);
    swap::<S, 2, TWOS>(&mut r, 5);
    swap::<S, 4, FOURS>(&mut r, 0);
    swap::<S, 4, FOURS>(&mut r, 1);
    swap::<S, 4, FOURS>(&mut r, 2);
    swap::<S, 4, FOURS>(&mut r, 3);
    let mut out = v;
    for (o, r) in out.iter_mut().zip(r) {
        *o = r.bitcast();
    }
    out
}

/// Swaps the `SIZE`-bit blocks under `MASK` of `r[k]` shifted down by `SIZE` with those of
/// `r[k + SIZE]`.
#[inline(always)]
fn swap<S: Simd, const SIZE: u32, const MASK: u64>(r: &mut [S::u64s; 8], k: usize) {
    let (a, b) = (r[k], r[k + SIZE as usize]);
    let t = ((a >> SIZE) ^ b) & MASK;
    r[k + SIZE as usize] = b ^ t;
    r[k] = a ^ (t << SIZE);
}

/// Every vector unit against the plain loops.
#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use proptest::collection::vec as bytes;
    use proptest::prelude::*;

    use super::super::bitshuffle::unshuffle_to;
    use crate::chunk::dest::Dest;
    use crate::simd::Unit;

    /// Every unit of this CPU bit-unshuffles `src` as the plain loops do (chunk formats
    /// 2 and 3: whole blocks only, or the largest prefix of whole groups of 8), into a
    /// slice and appended to a vector.
    fn check(typesize: usize, src: &[u8]) {
        for format in [2, 3] {
            let mut plain = vec![0; src.len()];
            let dest = &mut Dest::Slice(&mut plain);
            unshuffle_to(Unit::Plain, typesize, format, src, &mut Vec::new(), dest);
            for unit in Unit::all() {
                let len = src.len();
                // Outputs on a cache line, 16 bytes into one, and at an odd address.
                for skew in [0, 16, 1] {
                    let mut lines = vec![0xa5; len + 128];
                    let at = lines.as_ptr().addr().next_multiple_of(64) - lines.as_ptr().addr();
                    let out = &mut lines[at + skew..at + skew + len];
                    let dest = &mut Dest::Slice(out);
                    unshuffle_to(unit, typesize, format, src, &mut Vec::new(), dest);
                    let out = &lines[at + skew..at + skew + len];
                    assert_eq!(
                        out, plain,
                        "{unit:?}, {typesize}, {len} bytes, {format}, {skew}"
                    );
                }
                let mut appended = vec![7; 3];
                let dest = &mut Dest::Append {
                    vec: &mut appended,
                    start: 3,
                    room: 3 + len,
                };
                unshuffle_to(unit, typesize, format, src, &mut Vec::new(), dest);
                assert_eq!(
                    appended[3..],
                    plain,
                    "{unit:?} appending, {typesize}, {len}, {format}"
                );
            }
        }
    }

    #[test]
    fn every_typesize_and_odd_lengths_as_the_plain_loops() {
        for typesize in 1..=17 {
            for elements in [
                0,
                8,
                9,
                511,
                512,
                520,
                1024 + 8,
                1024 + 15,
                2048 + 64 * 8 + 3,
                // Batches of tiles (`gfni_bitunshuffle`), the last one short.
                2 * 4096 + 1024 + 8,
            ] {
                for extra in [0, typesize / 2] {
                    let len = elements * typesize + extra;
                    let src: Vec<u8> = (0..len).map(|i| (i * 131 + i / 7) as u8).collect();
                    check(typesize, &src);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn random_blocks_as_the_plain_loops(
            typesize in 1usize..=17,
            src in bytes(any::<u8>(), 0..24_000),
        ) {
            check(typesize, &src);
        }
    }
}
