//! Byte-shuffle: byte `j` of element `i` of a block stored at `j * n + i`, `n` the
//! number of whole elements, the rest as it is (`shuffle` and `unshuffle` in C-Blosc2's
//! `blosc/shuffle-generic.c`). Undone on every block of a chunk that has it (in place of
//! a copy, straight from a split block's streams: [`unshuffle_rows`]); applied, with
//! `std`, to each block [`chunk::compress`](crate::chunk::compress) writes. The vector
//! kernels are `vector_shuffle` (forward) and `vector_unshuffle` (inverse); the plain
//! loops of 2, 4, 8 and 16-byte elements are the zip transposition of `transpose`.

use super::transpose::elements_of_rows;
#[cfg(feature = "std")]
use super::vector_shuffle::elements_to_rows;
use crate::chunk::dest::Dest;
use crate::simd::{Kernel, Unit};

/// Byte-shuffle `src` into `dst` (same length): byte `j` of element `i` goes to
/// `j * n + i`, `n` the number of whole elements; the rest is copied as it is.
#[cfg(feature = "std")]
pub(crate) fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    shuffle_on(Unit::detected(), typesize, src, dst);
}

/// [`shuffle`] on `unit`: its vectors for the whole vector widths of 2, 4, 8 and
/// 16-byte elements (`vector_shuffle`), the plain loops for the rest.
#[cfg(feature = "std")]
pub(super) fn shuffle_on(unit: Unit, typesize: usize, src: &[u8], dst: &mut [u8]) {
    let n = src.len() / typesize.max(1);
    if typesize <= 1 || n == 0 {
        dst.copy_from_slice(src);
        return;
    }
    let whole = n * typesize;
    match typesize {
        2 => vector_then_plain::<2>(unit, &src[..whole], &mut dst[..whole], n),
        4 => vector_then_plain::<4>(unit, &src[..whole], &mut dst[..whole], n),
        8 => vector_then_plain::<8>(unit, &src[..whole], &mut dst[..whole], n),
        16 => vector_then_plain::<16>(unit, &src[..whole], &mut dst[..whole], n),
        _ => {
            for (j, row) in dst[..whole].chunks_exact_mut(n).enumerate() {
                for (b, element) in row.iter_mut().zip(src.chunks_exact(typesize)) {
                    *b = element[j];
                }
            }
        }
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

/// The first elements with `unit`'s vectors, then the plain loops: byte by byte for the
/// few left after vector widths, by tiles when the unit has no vectors.
#[cfg(feature = "std")]
fn vector_then_plain<const N: usize>(unit: Unit, src: &[u8], dst: &mut [u8], n: usize) {
    let done = elements_to_rows::<N>(unit, src, dst, n);
    if done == 0 {
        return shuffle_n::<N>(src, dst, n);
    }
    for i in done..n {
        for j in 0..N {
            dst[j * n + i] = src[i * N + j];
        }
    }
}

/// Bytes of the tile a shuffle transposes before copying its rows out: rows a power of
/// two apart in `dst` share cache sets, so each gets one longer copy per tile rather
/// than many short writes.
#[cfg(feature = "std")]
pub(super) const TILE_BYTES: usize = 4096;

/// Shuffle of `N`-byte elements (`N` 2, 4, 8 or 16), a tile at a time: the tile's
/// elements are split into their first and second halves, then those into theirs, down
/// to bytes (`log2 N` passes over the tile in L1, each a loop the compiler vectorises:
/// the halves of a 2W-byte unit are its low and high W bytes as an integer), and each of
/// the `N` byte rows of the tile is copied to its row of `dst`. The elements after the
/// last whole tile go byte by byte.
#[cfg(feature = "std")]
fn shuffle_n<const N: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let t = TILE_BYTES / N;
    let mut a = [0u8; TILE_BYTES];
    let mut b = [0u8; TILE_BYTES];
    let tiles = n / t;
    for (k, tile) in src[..tiles * TILE_BYTES]
        .chunks_exact(TILE_BYTES)
        .enumerate()
    {
        let rows = shuffle_tile::<N>(tile, t, &mut a, &mut b);
        for (j, row) in rows.chunks_exact(t).enumerate() {
            dst[j * n + k * t..j * n + (k + 1) * t].copy_from_slice(row);
        }
    }
    for i in tiles * t..n {
        for j in 0..N {
            dst[j * n + i] = src[i * N + j];
        }
    }
}

/// The `t` elements of `tile` (`N` bytes each, `t * N` at most [`TILE_BYTES`]) split
/// into their `N` byte rows of `t` bytes, one after the other, by halving passes
/// alternately into `a` and `b`; returns the rows (in `a` after an odd number of
/// passes, `N` 2 or 8; in `b` after an even one).
#[cfg(feature = "std")]
pub(super) fn shuffle_tile<'a, const N: usize>(
    tile: &[u8],
    t: usize,
    a: &'a mut [u8; TILE_BYTES],
    b: &'a mut [u8; TILE_BYTES],
) -> &'a [u8] {
    let len = t * N;
    let (a, b) = (&mut a[..len], &mut b[..len]);
    // Each pass a loop of its own, so that each is vectorised for its unit.
    match N {
        2 => {
            halve::<1>(tile, a, t);
            a
        }
        4 => {
            halve::<2>(tile, a, t);
            halve::<1>(a, b, t);
            b
        }
        8 => {
            halve::<4>(tile, a, t);
            halve::<2>(a, b, t);
            halve::<1>(b, a, t);
            a
        }
        _ => {
            halve::<8>(tile, a, t);
            halve::<4>(a, b, t);
            halve::<2>(b, a, t);
            halve::<1>(a, b, t);
            b
        }
    }
}

/// One halving pass: each group of `t` units of `2 * HALF` bytes into the `t` low and
/// the `t` high halves.
#[inline(always)]
#[cfg(feature = "std")]
fn halve<const HALF: usize>(from: &[u8], into: &mut [u8], t: usize) {
    for (group, out) in from
        .chunks_exact(t * 2 * HALF)
        .zip(into.chunks_exact_mut(t * 2 * HALF))
    {
        let (lo, hi) = out.split_at_mut(t * HALF);
        match HALF {
            8 => split_u128(group, lo, hi),
            4 => split_u64(group, lo, hi),
            2 => split_u32(group, lo, hi),
            _ => split_u16(group, lo, hi),
        }
    }
}

/// 16-byte units into their low and high 8 bytes.
#[cfg(feature = "std")]
fn split_u128(from: &[u8], lo: &mut [u8], hi: &mut [u8]) {
    let (units, _) = from.as_chunks::<16>();
    let (lo, _) = lo.as_chunks_mut::<8>();
    let (hi, _) = hi.as_chunks_mut::<8>();
    for ((u, l), h) in units.iter().zip(lo).zip(hi) {
        let v = u128::from_le_bytes(*u);
        *l = (v as u64).to_le_bytes();
        *h = ((v >> 64) as u64).to_le_bytes();
    }
}

/// 8-byte units into their low and high 4 bytes.
#[cfg(feature = "std")]
fn split_u64(from: &[u8], lo: &mut [u8], hi: &mut [u8]) {
    let (units, _) = from.as_chunks::<8>();
    let (lo, _) = lo.as_chunks_mut::<4>();
    let (hi, _) = hi.as_chunks_mut::<4>();
    for ((u, l), h) in units.iter().zip(lo).zip(hi) {
        let v = u64::from_le_bytes(*u);
        *l = (v as u32).to_le_bytes();
        *h = ((v >> 32) as u32).to_le_bytes();
    }
}

/// 4-byte units into their low and high 2 bytes.
#[cfg(feature = "std")]
fn split_u32(from: &[u8], lo: &mut [u8], hi: &mut [u8]) {
    let (units, _) = from.as_chunks::<4>();
    let (lo, _) = lo.as_chunks_mut::<2>();
    let (hi, _) = hi.as_chunks_mut::<2>();
    for ((u, l), h) in units.iter().zip(lo).zip(hi) {
        let v = u32::from_le_bytes(*u);
        *l = (v as u16).to_le_bytes();
        *h = ((v >> 16) as u16).to_le_bytes();
    }
}

/// 2-byte units into their low and high bytes.
#[cfg(feature = "std")]
fn split_u16(from: &[u8], lo: &mut [u8], hi: &mut [u8]) {
    let (units, _) = from.as_chunks::<2>();
    for ((u, l), h) in units.iter().zip(lo).zip(hi) {
        let v = u16::from_le_bytes(*u);
        *l = v as u8;
        *h = (v >> 8) as u8;
    }
}

/// Byte-unshuffle `src` into `dest` (as long) on `unit`: byte `j` of element `i` was
/// stored at `j * n + i`, `n` the number of whole elements; the bytes past the last
/// whole element are copied as they are.
pub(in crate::chunk) fn unshuffle_to(unit: Unit, typesize: usize, src: &[u8], dest: &mut Dest<'_>) {
    let n = src.len() / typesize.max(1);
    if typesize <= 1 || n == 0 {
        dest.put(0, src);
        return;
    }
    let whole = n * typesize;
    let rows = &src[..whole];
    match typesize {
        2 | 4 | 8 | 16 => {
            let rows: [&[u8]; 16] =
                core::array::from_fn(|j| rows.get(j * n..(j + 1) * n).unwrap_or(&[]));
            unshuffle_rows(unit, &rows[..typesize], dest);
        }
        _ => unshuffle_any(typesize, rows, dest.whole(0, whole), n),
    }
    dest.put(whole, &src[whole..]);
}

/// Whether [`unshuffle_rows`] takes elements of `typesize` bytes.
pub(in crate::chunk) fn unshuffles_rows(typesize: usize) -> bool {
    matches!(typesize, 2 | 4 | 8 | 16)
}

/// Byte-unshuffle of `rows` (one per byte of the element, 2, 4, 8 or 16 of them, of
/// equal length, wherever each is: a block's streams stored as they are, read in place)
/// into `dest`.
pub(in crate::chunk) fn unshuffle_rows(unit: Unit, rows: &[&[u8]], dest: &mut Dest<'_>) {
    match rows.len() {
        2 => rows_to_elements_on::<2>(unit, rows, dest),
        4 => rows_to_elements_on::<4>(unit, rows, dest),
        8 => rows_to_elements_on::<8>(unit, rows, dest),
        _ => rows_to_elements_on::<16>(unit, rows, dest),
    }
}

/// `transpose::elements_of_rows` on `unit`, into `dest`: with the unit's vectors
/// ([`vector_unshuffle`](super::vector_unshuffle)) for whole vector widths of elements, in spans
/// of [`SPAN`] bytes (a vector's written in L1, then appended), the rest one byte at a
/// time.
fn rows_to_elements_on<const N: usize>(unit: Unit, rows: &[&[u8]], dest: &mut Dest<'_>) {
    let rows: [&[u8]; N] = core::array::from_fn(|j| rows[j]);
    let n = rows[0].len();
    unit.run(Rows::<N> { rows, n, dest });
}

/// Bytes of output per span of the vector transposition.
#[cfg_attr(not(feature = "simd"), allow(dead_code))]
const SPAN: usize = 4096;

/// The transposition of `rows_to_elements_on` as a [`Kernel`].
struct Rows<'a, 'd, const N: usize> {
    rows: [&'a [u8]; N],
    n: usize,
    dest: &'a mut Dest<'d>,
}

impl<const N: usize> Kernel for Rows<'_, '_, N> {
    type Output = ();

    #[cfg(feature = "simd")]
    #[inline(always)]
    fn wide<S: fearless_simd::Simd>(self, simd: S) {
        use super::transpose::last_elements;
        let (all, n) = (self.rows, self.n);
        let mut buf = super::Line([0; SPAN]);
        let mut at = 0;
        while at < n {
            let len = (SPAN / N).min(n - at);
            let rows: [&[u8]; N] = core::array::from_fn(|j| &all[j][at..at + len]);
            let out = self.dest.window(at * N, len * N, &mut buf.0, 16);
            // The unit's full width, no store straddling two lines: where the output
            // is 16, 32 or 48 bytes off the width (large allocations start 16 bytes
            // into a line), each store joins two transposed vectors; 16 bytes where
            // it is not on 16.
            let w = <S::u8s as fearless_simd::SimdBase<S>>::LEN;
            let done = match (w - out.as_ptr().addr() % w) % w {
                0 => super::vector_unshuffle::rows_to_elements::<S, N>(simd, &rows, out),
                16 => super::vector_unshuffle::rows_to_elements_slid::<S, N, 16>(simd, &rows, out),
                32 if w > 32 => {
                    super::vector_unshuffle::rows_to_elements_slid::<S, N, 32>(simd, &rows, out)
                }
                48 if w > 48 => {
                    super::vector_unshuffle::rows_to_elements_slid::<S, N, 48>(simd, &rows, out)
                }
                _ => super::vector_unshuffle::rows_to_elements_16::<S, N>(simd, &rows, out),
            };
            last_elements(&rows, done, &mut out[done * N..]);
            self.dest.commit(at * N, &buf.0[..len * N], 16);
            at += len;
        }
    }

    fn plain(self) {
        elements_of_rows::<N>(&self.rows, self.dest.whole(0, N * self.n), self.n);
    }
}

/// Unshuffle of any other element size.
fn unshuffle_any(typesize: usize, src: &[u8], dst: &mut [u8], n: usize) {
    for (j, row) in src.chunks_exact(n).enumerate() {
        for (element, &b) in dst.chunks_exact_mut(typesize).zip(row) {
            element[j] = b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "std")]
    use crate::chunk::filters::{sample, LENS};
    use alloc::vec;
    use alloc::vec::Vec;

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

    /// The byte-unshuffle of `src` into `dst` by every unit of this CPU, which agree.
    fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
        // The plain loops first.
        for (i, unit) in Unit::all().into_iter().enumerate() {
            let mut out = dst.to_vec();
            unshuffle_to(unit, typesize, src, &mut Dest::Slice(&mut out));
            if i == 0 {
                dst.copy_from_slice(&out);
            }
            assert_eq!(out, dst, "{unit:?}");
        }
    }

    /// (element size, stored bytes, decoded): byte j of element i stored at j * n + i;
    /// the bytes past the last whole element stay as they are.
    #[test]
    fn unshuffle_by_hand() {
        let cases: [(usize, &[u8], &[u8]); 7] = [
            (
                4,
                &[1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12, 13],
                &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            ),
            (2, &[1, 3, 5, 2, 4, 6], &[1, 2, 3, 4, 5, 6]),
            (3, &[1, 4, 2, 5, 3, 6, 7], &[1, 2, 3, 4, 5, 6, 7]),
            (16, &[1, 2, 3], &[1, 2, 3]),
            (1, &[3, 2, 1], &[3, 2, 1]),
            (0, &[3, 2, 1], &[3, 2, 1]),
            (8, &[], &[]),
        ];
        for (i, (typesize, src, expected)) in cases.into_iter().enumerate() {
            let mut dst = vec![0; src.len()];
            unshuffle(typesize, src, &mut dst);
            assert_eq!(dst, expected, "case {i}");
        }
    }

    #[test]
    fn unshuffle_matches_the_definition() {
        for typesize in 1..=18 {
            for len in [0, 1, 7, 16, 31, 64, 257, 1000, 4099] {
                let src: Vec<u8> = (0..len).map(|i| (i * 7 + i / 5) as u8).collect();
                for unit in Unit::all() {
                    let mut dst = vec![0; len];
                    unshuffle_to(unit, typesize, &src, &mut Dest::Slice(&mut dst));
                    let expected = unshuffle_plain(typesize, &src);
                    assert_eq!(dst, expected, "{unit:?} {typesize} {len}");
                }
            }
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn shuffle_is_undone_by_unshuffle() {
        for typesize in 1..=18 {
            for len in LENS {
                let src = sample(len);
                let (mut mid, mut back) = (vec![0; len], vec![0; len]);
                shuffle(typesize, &src, &mut mid);
                for unit in Unit::all() {
                    unshuffle_to(unit, typesize, &mid, &mut Dest::Slice(&mut back));
                    assert_eq!(back, src, "{unit:?} {typesize} {len}");
                }
            }
        }
    }
}
