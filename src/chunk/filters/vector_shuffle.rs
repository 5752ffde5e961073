//! Byte-shuffle of 2, 4, 8 and 16-byte elements with a vector unit (`crate::simd`), the
//! inverse of `vector_unshuffle`: `N` vectors of elements loaded (`N * W` bytes, `W`
//! elements), split in registers, even bytes from odd ones, `log2(N)` times (each split
//! of all pairs takes the elements' bytes one bit of their index further apart), and
//! the `N` vectors, one of each byte row, stored in their rows. The elements after the
//! last whole vector width go through `forward`'s plain loops.

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
        let w = S::u8s::LEN;
        let (n, dst) = (self.n, self.dst);
        let done = n / w * w;
        for (i, elements) in self.src[..done * N].chunks_exact(N * w).enumerate() {
            let mut v: [S::u8s; N] =
                core::array::from_fn(|k| S::u8s::from_slice(simd, &elements[k * w..][..w]));
            let mut level = 1;
            while level < N {
                let mut next = v;
                for k in 0..N / 2 {
                    (next[k], next[k + N / 2]) = v[2 * k].deinterleave(v[2 * k + 1]);
                }
                v = next;
                level *= 2;
            }
            for (j, row) in v.iter().enumerate() {
                row.store_slice(&mut dst[j * n + i * w..][..w]);
            }
        }
        done
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

    use super::super::forward::shuffle_on;
    use crate::simd::Unit;

    /// Every unit of this CPU shuffles `src` as the plain loops do.
    fn check(typesize: usize, src: &[u8]) {
        let mut plain = vec![0; src.len()];
        shuffle_on(Unit::Plain, typesize, src, &mut plain);
        for unit in Unit::all() {
            let mut out = vec![0xa5; src.len()];
            shuffle_on(unit, typesize, src, &mut out);
            assert_eq!(
                out,
                plain,
                "{unit:?}, typesize {typesize}, {} bytes",
                src.len()
            );
        }
    }

    /// Bytes of a linear congruential generator.
    fn noise(len: usize, seed: u32) -> Vec<u8> {
        let mut x = seed;
        (0..len)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (x >> 16) as u8
            })
            .collect()
    }

    #[test]
    fn every_typesize_and_odd_lengths_as_the_plain_loops() {
        for typesize in 1..=16 {
            for elements in [0, 1, 15, 63, 64, 65, 127, 129, 191, 1000, 4096 + 3] {
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
            src in bytes(any::<u8>(), 0..12_000),
        ) {
            check(typesize, &src);
        }
    }
}
