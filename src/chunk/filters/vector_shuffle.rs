//! Byte-shuffle of 2, 4, 8 and 16-byte elements with a vector unit (`crate::simd`), the
//! inverse of `vector_unshuffle`: `N` vectors of elements loaded (`N * W` bytes, `W`
//! elements), split in registers, even bytes from odd ones, `log2(N)` times (each split
//! of all pairs takes the elements' bytes one bit of their index further apart), and
//! the `N` vectors, one of each byte row, stored in their rows. The elements after the
//! last whole vector width go through `forward`'s plain loops. The bit-shuffle
//! ([`elements_to_bit_rows`]) goes on from the byte rows to the bit rows.

#[cfg(feature = "simd")]
use fearless_simd::prelude::*;

#[cfg(feature = "simd")]
use super::lane_plan::LanePlan;
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
        // 256-bit vectors (AVX2), 4 and 8-byte elements: lanes gathered once, then
        // lane-local steps (see `split_lanes`).
        if S::u8s::LEN == 32 && matches!(N, 4 | 8) {
            return split_lanes::<S, N>(simd, self.src, self.dst, self.n);
        }
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
    if done == 0 {
        return 0;
    }
    // The rows cut to `done` bytes, one length for all: a store's bounds check is then
    // the same for every row (one a vector width, not one a row).
    let mut rows = dst.chunks_exact_mut(n);
    let mut rows: [&mut [u8]; N] =
        core::array::from_fn(|_| &mut rows.next().expect("N rows of n bytes")[..done]);
    for (i, elements) in src[..done * N].chunks_exact(N * w).enumerate() {
        let at = i * w;
        let v = core::array::from_fn(|k| S::u8s::from_slice(simd, &elements[k * w..][..w]));
        for (row, out) in rows.iter_mut().zip(unzip::<S, N>(v)) {
            out.store_slice(&mut row[at..at + w]);
        }
    }
    done
}

/// [`split`] with 256-bit vectors, its deinterleaves (each crossing lanes twice) done
/// as C-Blosc2's `shuffle-avx2.c` does them: the 128-bit lanes of the `N` vectors
/// gathered once (lane 0 of every register the first 16 elements, lane 1 the last 16),
/// then `log2(N)` levels of lane-local byte shuffles, each pair of registers put in the
/// order [`LanePlan`] worked out and blended into two (half of each lane from each).
#[cfg(feature = "simd")]
#[inline(always)]
fn split_lanes<S: Simd, const N: usize>(simd: S, src: &[u8], dst: &mut [u8], n: usize) -> usize {
    use fearless_simd::{mask8x32, u8x32, SimdCombine, SimdSplit};
    let plan = &LanePlan::<N>::PLAN;
    let order = |o: &[u8; 32]| u8x32::from_slice(simd, o);
    let low_halves = mask8x32::simd_from(simd, core::array::from_fn(|i| -((i % 16 < 8) as i8)));
    let done = n / 32 * 32;
    if done == 0 {
        return 0;
    }
    let mut rows = dst.chunks_exact_mut(n);
    let mut rows: [&mut [u8]; N] =
        core::array::from_fn(|_| &mut rows.next().expect("N rows of n bytes")[..done]);
    for (i, elements) in src[..done * N].chunks_exact(N * 32).enumerate() {
        let at = i * 32;
        let v: [u8x32<S>; N] =
            core::array::from_fn(|k| u8x32::from_slice(simd, &elements[k * 32..][..32]));
        // Register 2k + h: half h of vectors k and k + N / 2.
        let mut x: [u8x32<S>; N] = core::array::from_fn(|m| {
            let (a, b) = (v[m / 2].split(), v[m / 2 + N / 2].split());
            match m % 2 {
                0 => a.0.combine(b.0),
                _ => a.1.combine(b.1),
            }
        });
        for level in &plan.levels[..N.trailing_zeros() as usize] {
            let mut next = x;
            for (p, [oa, ob]) in level[..N / 2].iter().enumerate() {
                let a = x[2 * p].swizzle_dyn_within_blocks(order(oa));
                let b = x[2 * p + 1].swizzle_dyn_within_blocks(order(ob));
                next[p] = low_halves.select(a, b);
                next[p + N / 2] = low_halves.select(b, a);
            }
            x = next;
        }
        for (row, (m, fix)) in rows.iter_mut().zip(&plan.rows) {
            let out = match fix {
                Some(o) => x[*m].swizzle_dyn_within_blocks(order(o)),
                None => x[*m],
            };
            out.store_slice(&mut row[at..at + 32]);
        }
    }
    done
}

/// `N` vectors of `N`-byte elements (`W` of them) as their `N` byte rows: each level
/// splits every pair into its even and odd bytes, `log2(N)` levels.
#[cfg(feature = "simd")]
#[inline(always)]
fn unzip<S: Simd, const N: usize>(mut v: [S::u8s; N]) -> [S::u8s; N] {
    // The levels written out, not a loop: the compiler left a loop of 16 vectors (spilt
    // to the stack) not unrolled.
    for level in [2, 4, 8, 16] {
        if level <= N {
            v = split_pairs::<S, N>(v);
        }
    }
    v
}

/// One level of [`unzip`]: pair `k` split into vectors `k` (even bytes) and `k + N / 2`.
#[cfg(feature = "simd")]
#[inline(always)]
fn split_pairs<S: Simd, const N: usize>(v: [S::u8s; N]) -> [S::u8s; N] {
    let mut next = v;
    for k in 0..N / 2 {
        (next[k], next[k + N / 2]) = v[2 * k].deinterleave(v[2 * k + 1]);
    }
    next
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
