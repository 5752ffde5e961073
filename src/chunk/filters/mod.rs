//! The byte filters undone on each block: byte-unshuffle (`unshuffle` in C-Blosc2's
//! `blosc/shuffle-generic.c`), delta (`delta_decoder`, `blosc/delta.c`) and bytedelta
//! (`bytedelta_backward`, `plugins/filters/bytedelta/bytedelta.c` of C-Blosc2 3.x).
//!
//! Written as plain loops over fixed-size arrays so that the compiler vectorises them;
//! every index is in bounds by construction (slices of exactly the lengths used). The
//! unshuffle of 2, 4, 8 and 16-byte elements is the zip transposition of
//! [`transpose`].

pub(super) mod bitshuffle;
#[cfg(feature = "std")]
pub(crate) mod forward;
mod transpose;
#[cfg(feature = "simd")]
mod vector_bitunshuffle;
#[cfg(feature = "std")]
mod vector_shuffle;
#[cfg(feature = "simd")]
mod vector_unshuffle;

use crate::chunk::dest::Dest;
use crate::simd::{Kernel, Unit};

/// Bytes of a linear congruential generator: the vector filters' tests' input.
#[cfg(all(test, feature = "std"))]
fn noise(len: usize, seed: u32) -> alloc::vec::Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (x >> 16) as u8
        })
        .collect()
}
use transpose::elements_of_rows;

/// Byte-unshuffle `src` into `dest` (as long) on `unit`: byte `j` of element `i` was
/// stored at `j * n + i`, `n` the number of whole elements; the bytes past the last
/// whole element are copied as they are.
pub(super) fn unshuffle_to(unit: Unit, typesize: usize, src: &[u8], dest: &mut Dest<'_>) {
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
pub(super) fn unshuffles_rows(typesize: usize) -> bool {
    matches!(typesize, 2 | 4 | 8 | 16)
}

/// Byte-unshuffle of `rows` (one per byte of the element, 2, 4, 8 or 16 of them, of
/// equal length, wherever each is: a block's streams stored as they are, read in place)
/// into `dest`.
pub(super) fn unshuffle_rows(unit: Unit, rows: &[&[u8]], dest: &mut Dest<'_>) {
    match rows.len() {
        2 => rows_to_elements_on::<2>(unit, rows, dest),
        4 => rows_to_elements_on::<4>(unit, rows, dest),
        8 => rows_to_elements_on::<8>(unit, rows, dest),
        _ => rows_to_elements_on::<16>(unit, rows, dest),
    }
}

/// `transpose::elements_of_rows` on `unit`, into `dest`: with the unit's vectors
/// ([`vector_unshuffle`]) for whole vector widths of elements, in spans
/// of [`SPAN`] bytes (a vector's written in L1, then appended), the rest one byte at a
/// time.
fn rows_to_elements_on<const N: usize>(unit: Unit, rows: &[&[u8]], dest: &mut Dest<'_>) {
    let rows: [&[u8]; N] = core::array::from_fn(|j| rows[j]);
    let n = rows[0].len();
    unit.run(Rows::<N> { rows, n, dest });
}

/// Bytes that start a cache line (where a vector's output is written before it is
/// appended: its stores never straddle two lines).
#[cfg_attr(not(feature = "simd"), allow(dead_code))]
#[repr(align(64))]
pub(super) struct Line<const LEN: usize>(pub(super) [u8; LEN]);

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
        use transpose::last_elements;
        let (all, n) = (self.rows, self.n);
        let mut buf = Line([0; SPAN]);
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
                0 => vector_unshuffle::rows_to_elements::<S, N>(simd, &rows, out),
                16 => vector_unshuffle::rows_to_elements_slid::<S, N, 16>(simd, &rows, out),
                32 if w > 32 => {
                    vector_unshuffle::rows_to_elements_slid::<S, N, 32>(simd, &rows, out)
                }
                48 if w > 48 => {
                    vector_unshuffle::rows_to_elements_slid::<S, N, 48>(simd, &rows, out)
                }
                _ => vector_unshuffle::rows_to_elements_16::<S, N>(simd, &rows, out),
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
/// whole element with the decoded one before it; later blocks XOR with the chunk's
/// first decoded bytes (`reference`: the first block, or for variable-length blocks all
/// before this one). Bytes past the last whole element stay as they are, as in C.
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
        Some(first) if first.len() >= block.len() => {
            for (byte, r) in block.iter_mut().zip(first) {
                *byte ^= r;
            }
        }
        // A variable-length block longer than the bytes before it: C XORs element by
        // element with the chunk's start, reading on into the block as it rewrites it.
        Some(first) => {
            for e in (0..block.len()).step_by(width) {
                let mut r = [0u8; 8];
                for (k, r) in r[..width].iter_mut().enumerate() {
                    let i = e + k;
                    *r = if i < first.len() {
                        first[i]
                    } else {
                        block[i - first.len()]
                    };
                }
                for (byte, r) in block[e..e + width].iter_mut().zip(r) {
                    *byte ^= r;
                }
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

    /// (filter undone, element size, stored bytes, decoded): byte-unshuffle (byte j of
    /// element i stored at j * n + i) and bytedelta (each of the `typesize` channels a
    /// running sum mod 256); the bytes past the last whole element stay as they are.
    #[test]
    fn unshuffle_and_unbytedelta_by_hand() {
        type Undo = fn(usize, &[u8], &mut [u8]);
        let (shuffle, bytedelta): (Undo, Undo) = (unshuffle, unbytedelta);
        let cases: [(Undo, usize, &[u8], &[u8]); 12] = [
            (
                shuffle,
                4,
                &[1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12, 13],
                &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            ),
            (shuffle, 2, &[1, 3, 5, 2, 4, 6], &[1, 2, 3, 4, 5, 6]),
            (shuffle, 3, &[1, 4, 2, 5, 3, 6, 7], &[1, 2, 3, 4, 5, 6, 7]),
            (shuffle, 16, &[1, 2, 3], &[1, 2, 3]),
            (shuffle, 1, &[3, 2, 1], &[3, 2, 1]),
            (shuffle, 0, &[3, 2, 1], &[3, 2, 1]),
            (shuffle, 8, &[], &[]),
            (bytedelta, 1, &[1, 1, 1, 0xff], &[1, 2, 3, 2]),
            (bytedelta, 2, &[1, 1, 1, 5, 0xff, 2], &[1, 2, 3, 5, 4, 6]),
            (bytedelta, 2, &[1, 1, 7], &[1, 1, 7]),
            (bytedelta, 4, &[9, 8, 7], &[9, 8, 7]),
            (
                bytedelta,
                3,
                &[0x80, 0x80, 1, 1, 0xff, 0xff, 0xaa],
                &[0x80, 0, 1, 2, 0xff, 0xfe, 0xaa],
            ),
        ];
        for (i, (undo, typesize, src, expected)) in cases.into_iter().enumerate() {
            let mut dst = vec![0; src.len()];
            undo(typesize, src, &mut dst);
            assert_eq!(dst, expected, "case {i}");
        }
    }

    /// (typesize, first block's decoded bytes or none, stored, decoded): a running XOR
    /// of 1, 2, 4 or 8-byte elements in the first block, an XOR with the first block in
    /// the others; bytes past the last whole element stay.
    #[test]
    fn undelta_by_hand() {
        type Case<'a> = (usize, Option<&'a [u8]>, &'a [u8], &'a [u8]);
        let cases: [Case; 7] = [
            (1, None, &[1, 1, 1, 1], &[1, 0, 1, 0]),
            (
                2,
                None,
                &[1, 2, 3, 4, 5, 6, 0xff],
                &[1, 2, 2, 6, 7, 0, 0xff],
            ),
            (
                4,
                None,
                &[1, 0, 0, 0, 1, 0, 0, 0, 9],
                &[1, 0, 0, 0, 0, 0, 0, 0, 9],
            ),
            (
                16,
                None,
                &[1; 16],
                &[1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            // Other typesizes work on bytes.
            (3, None, &[1, 2, 4, 8], &[1, 3, 7, 15]),
            (1, Some(&[1, 0, 1, 0]), &[1, 2, 3, 4], &[0, 2, 2, 4]),
            (
                2,
                Some(&[0xf0, 0xf0]),
                &[0x0f, 0x0f, 0x0f],
                &[0xff, 0xff, 0x0f],
            ),
        ];
        for (i, (typesize, reference, src, expected)) in cases.into_iter().enumerate() {
            let mut block = src.to_vec();
            undelta(typesize, reference, &mut block);
            assert_eq!(block, expected, "case {i}");
        }
        assert_eq!(
            [1, 2, 3, 4, 5, 8, 16, 24, 12].map(delta_width),
            [1, 2, 1, 4, 1, 8, 8, 8, 1]
        );
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
}
