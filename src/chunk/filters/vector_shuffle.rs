//! Byte-shuffle of 2, 4, 8 and 16-byte elements with a vector unit (`crate::simd`), the
//! inverse of `vector_unshuffle`: `N` vectors of elements loaded (`N * W` bytes, `W`
//! elements), split in registers, even bytes from odd ones, `log2(N)` times (each split
//! of all pairs takes the elements' bytes one bit of their index further apart), and
//! the `N` vectors, one of each byte row, stored in their rows. The elements after the
//! last whole vector width go through `forward`'s plain loops. The bit-shuffle
//! ([`elements_to_bit_rows`]) goes on from the byte rows to the bit rows.

#[cfg(feature = "simd")]
use fearless_simd::prelude::*;

use crate::simd::{Kernel, Unit};

/// Byte-shuffles the first elements of `src` (`N` bytes each) in whole vector widths
/// of `unit` into the `N` rows of `n` bytes of `dst` (byte `j` of element `i` at
/// `j * n + i`); returns how many were done, 0 with the plain loops.
pub(crate) fn elements_to_rows<const N: usize>(
    unit: Unit,
    src: &[u8],
    dst: &mut [u8],
    n: usize,
) -> usize {
    unit.run(Split::<N> { src, dst, n })
}

/// The split of [`elements_to_rows`] as a [`Kernel`].
// Without the `simd` feature only the plain path (nothing done) is built.
#[cfg_attr(not(feature = "simd"), allow(dead_code))]
struct Split<'a, const N: usize> {
    src: &'a [u8],
    dst: &'a mut [u8],
    n: usize,
}

impl<const N: usize> Kernel for Split<'_, N> {
    type Output = usize;

    #[cfg(feature = "simd")]
    #[inline(always)]
    fn wide<S: Simd>(self, simd: S) -> usize {
        split::<S, N>(simd, self.src, self.dst, self.n)
    }

    fn plain(self) -> usize {
        0
    }
}

/// [`elements_to_rows`] with the unit's vectors.
#[cfg(feature = "simd")]
#[inline(always)]
fn split<S: Simd, const N: usize>(simd: S, src: &[u8], dst: &mut [u8], n: usize) -> usize {
    let w = S::u8s::LEN;
    let done = n / w * w;
    for (i, elements) in src[..done * N].chunks_exact(N * w).enumerate() {
        let v = core::array::from_fn(|k| S::u8s::from_slice(simd, &elements[k * w..][..w]));
        for (j, row) in unzip::<S, N>(v).iter().enumerate() {
            row.store_slice(&mut dst[j * n + i * w..][..w]);
        }
    }
    done
}

/// `N` vectors of `N`-byte elements (`W` of them) as their `N` byte rows: each level
/// splits every pair into its even and odd bytes, `log2(N)` levels.
#[cfg(feature = "simd")]
#[inline(always)]
fn unzip<S: Simd, const N: usize>(mut v: [S::u8s; N]) -> [S::u8s; N] {
    let mut level = 1;
    while level < N {
        let mut next = v;
        for k in 0..N / 2 {
            (next[k], next[k + N / 2]) = v[2 * k].deinterleave(v[2 * k + 1]);
        }
        v = next;
        level *= 2;
    }
    v
}

/// Bit-shuffles the first elements of `src` (`N` bytes each, `n` of them, a multiple
/// of 8) in tiles of `8 * W` (`W` a vector width of `unit`) into the `8 * N` bit rows of
/// `n / 8` bytes of `dst` (bit `b` of byte `c` of row `8j + k` is bit `k` of byte `j` of
/// element `8c + b`); returns how many were done, 0 with the plain loops. Per tile: its
/// byte rows (`unzip`), each row's 8 vectors split by element index modulo 8 (`unzip`
/// again: vector `b`, lane `c` holds element `8c + b`), their bits transposed across the
/// 8 registers (`vector_bitunshuffle`'s network, its own inverse), stored in 8 rows.
/// With AVX-512, `gfni_bitshuffle` instead (GFNI's transposition, unpacks), its rows
/// put together in `scratch`.
pub(crate) fn elements_to_bit_rows<const N: usize>(
    unit: Unit,
    src: &[u8],
    scratch: &mut alloc::vec::Vec<u8>,
    dst: &mut [u8],
    n: usize,
) -> usize {
    unit.run(BitSplit::<N> {
        src,
        scratch,
        dst,
        n,
    })
}

/// The transposition of [`elements_to_bit_rows`] as a [`Kernel`].
// Without the `simd` feature only the plain path (nothing done) is built.
#[cfg_attr(not(feature = "simd"), allow(dead_code))]
struct BitSplit<'a, const N: usize> {
    src: &'a [u8],
    scratch: &'a mut alloc::vec::Vec<u8>,
    dst: &'a mut [u8],
    n: usize,
}

impl<const N: usize> Kernel for BitSplit<'_, N> {
    type Output = usize;

    #[cfg(feature = "simd")]
    #[inline(always)]
    fn wide<S: Simd>(self, simd: S) -> usize {
        use super::vector_bitunshuffle::{transpose_bits, MAX_TILE};
        #[cfg(target_arch = "x86_64")]
        if let fearless_simd::Level::Avx512(t) = simd.level() {
            use super::gfni_bitshuffle::{bit_rows, BATCH_BYTES};
            // The batch's rows on a cache line of `scratch` (kept from block to block:
            // no zeroing each time).
            self.scratch.resize(BATCH_BYTES + 64, 0);
            let at = self.scratch.as_ptr().align_offset(64).min(64);
            let rows = self.scratch[at..].first_chunk_mut().expect("resized");
            return bit_rows::<N>(t, self.src, rows, self.dst, self.n);
        }
        let w = S::u8s::LEN;
        let tile_len = 8 * w;
        let (n, dst) = (self.n, self.dst);
        let row_len = n / 8;
        let tiles = n / tile_len;
        let mut rows = super::Line([0; MAX_TILE]);
        let rows = &mut rows.0[..N * tile_len];
        for (t, elements) in self.src[..tiles * tile_len * N]
            .chunks_exact(tile_len * N)
            .enumerate()
        {
            match N {
                1 => rows.copy_from_slice(elements),
                _ => _ = split::<S, N>(simd, elements, rows, tile_len),
            }
            for (j, row) in rows.chunks_exact(tile_len).enumerate() {
                let v = core::array::from_fn(|k| S::u8s::from_slice(simd, &row[k * w..][..w]));
                let v = transpose_bits::<S>(simd, unzip::<S, 8>(v));
                for (k, v) in v.iter().enumerate() {
                    v.store_slice(&mut dst[(8 * j + k) * row_len + t * w..][..w]);
                }
            }
        }
        tiles * tile_len
    }

    fn plain(self) -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use proptest::collection::vec as bytes;
    use proptest::prelude::*;

    use super::super::bitshuffle::bitshuffle_with;
    use super::super::noise;
    use super::super::shuffle::shuffle_on;
    use crate::simd::Unit;

    /// Every unit of this CPU byte- and bit-shuffles `src` as the plain loops do.
    fn check(typesize: usize, src: &[u8]) {
        let len = src.len();
        let mut plain = vec![0; len];
        shuffle_on(Unit::Plain, typesize, src, &mut plain);
        let mut plain_bits = vec![0; len];
        bitshuffle_with(Unit::Plain, typesize, src, &mut Vec::new(), &mut plain_bits);
        for unit in Unit::all() {
            let mut out = vec![0xa5; len];
            shuffle_on(unit, typesize, src, &mut out);
            assert_eq!(out, plain, "{unit:?}, typesize {typesize}, {len} bytes");
            let mut bits = vec![0xa5; len];
            bitshuffle_with(unit, typesize, src, &mut Vec::new(), &mut bits);
            assert_eq!(
                bits, plain_bits,
                "{unit:?} bits, typesize {typesize}, {len} bytes"
            );
        }
    }

    #[test]
    fn every_typesize_and_odd_lengths_as_the_plain_loops() {
        for typesize in 1..=16 {
            for elements in [
                0,
                1,
                15,
                63,
                64,
                65,
                127,
                129,
                191,
                512,
                1000,
                4096 + 3,
                9000,
                // Several of `gfni_bitshuffle`'s batches of tiles, the last one short.
                3 * 4096 + 512 + 24,
            ] {
                for extra in [0, typesize / 2] {
                    check(
                        typesize,
                        &noise(elements * typesize + extra, elements as u32),
                    );
                }
            }
        }
    }

    proptest! {
        #[test]
        fn random_blocks_as_the_plain_loops(
            typesize in 1usize..=16,
            src in bytes(any::<u8>(), 0..40_000),
        ) {
            check(typesize, &src);
        }
    }
}
