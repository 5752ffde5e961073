//! Byte transposition by zips: `N` rows of `n` bytes (`N` a power of two) into `n`
//! elements of `N` bytes, byte `j` of element `i` from row `j`.
//!
//! The transposition is `log2(N)` zips of adjacent rows, each doubling the unit: bytes,
//! then pairs, then quads, as C-Blosc2's SSE2 unshuffle chains `unpacklo`/`unpackhi` of
//! 8, 16 and 32 bits. Written as one plain loop per zip, each of which the compiler turns
//! into those same unpacks (safe Rust, no intrinsics); a fused loop is not vectorised. The
//! zips run on tiles of [`TILE`] elements, so that the intermediate rows stay in L1.

/// Elements per tile: `16 * TILE` bytes per intermediate buffer at most (4 KiB).
const TILE: usize = 256;
/// The widest element transposed here.
const MAX_N: usize = 16;

/// Zips `a` and `b`, units of `W` bytes, into `out`: `a0 b0 a1 b1 ...`.
#[inline(always)]
fn zip<const W: usize>(a: &[u8], b: &[u8], out: &mut [u8]) {
    let (a, _) = a.as_chunks::<W>();
    let (b, _) = b.as_chunks::<W>();
    let (out, _) = out.as_chunks_mut::<W>();
    let (pairs, _) = out.as_chunks_mut::<2>();
    for ((pair, a), b) in pairs.iter_mut().zip(a).zip(b) {
        *pair = [*a, *b];
    }
}

/// One zip of every adjacent pair of the `from.len() / seg` segments of `from`, units of
/// `unit` bytes, into `to`.
#[inline(always)]
fn zip_pairs(unit: usize, from: &[u8], seg: usize, to: &mut [u8]) {
    for (pair, out) in from.chunks_exact(2 * seg).zip(to.chunks_exact_mut(2 * seg)) {
        let (a, b) = pair.split_at(seg);
        match unit {
            1 => zip::<1>(a, b, out),
            2 => zip::<2>(a, b, out),
            4 => zip::<4>(a, b, out),
            _ => zip::<8>(a, b, out),
        }
    }
}

/// Transposes the `N` rows of `n` bytes in `src` (`N * n` bytes) into `dst` (as many):
/// element `i` of `dst` is byte `i` of every row, in order. `N` is 2, 4, 8 or 16.
pub(super) fn rows_to_elements<const N: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let rows: [&[u8]; N] = core::array::from_fn(|j| &src[j * n..(j + 1) * n]);
    let (body, tail) = dst[..N * n].split_at_mut(n / TILE * TILE * N);
    let mut scratch = Scratch::new();
    for (t, out) in body.chunks_exact_mut(N * TILE).enumerate() {
        tile::<N>(&rows, t * TILE, &mut scratch, out);
    }
    last_elements(&rows, n / TILE * TILE, tail);
}

/// The two intermediate tiles.
struct Scratch {
    even: [u8; MAX_N * TILE],
    odd: [u8; MAX_N * TILE],
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            even: [0; MAX_N * TILE],
            odd: [0; MAX_N * TILE],
        }
    }
}

/// Elements `at .. at + TILE` of `rows` into `out` (`N * TILE` bytes).
#[inline(always)]
fn tile<const N: usize>(rows: &[&[u8]; N], at: usize, scratch: &mut Scratch, out: &mut [u8]) {
    let Scratch { even, odd } = scratch;
    // The first zip reads the rows in place.
    let first = if N == 2 {
        &mut *out
    } else {
        &mut even[..N * TILE]
    };
    for (k, pair) in first.chunks_exact_mut(2 * TILE).enumerate() {
        let (a, b) = (&rows[2 * k][at..at + TILE], &rows[2 * k + 1][at..at + TILE]);
        zip::<1>(a, b, pair);
    }
    // Then units of 2, 4, 8 bytes between the two tiles, the last into `out`.
    let mut unit = 2;
    let mut in_even = true;
    while unit < N {
        let (from, to) = if in_even {
            (&even[..N * TILE], &mut odd[..N * TILE])
        } else {
            (&odd[..N * TILE], &mut even[..N * TILE])
        };
        let to = if 2 * unit == N { &mut *out } else { to };
        zip_pairs(unit, from, unit * TILE, to);
        in_even = !in_even;
        unit *= 2;
    }
}

/// Elements `done ..` of `rows` into `out`, one byte at a time (fewer than a tile).
fn last_elements<const N: usize>(rows: &[&[u8]; N], done: usize, out: &mut [u8]) {
    for (i, element) in out.chunks_exact_mut(N).enumerate() {
        for (byte, row) in element.iter_mut().zip(rows) {
            *byte = row[done + i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The definition, one byte at a time.
    fn plain(n_rows: usize, src: &[u8]) -> Vec<u8> {
        let n = src.len() / n_rows;
        (0..n * n_rows)
            .map(|at| src[(at % n_rows) * n + at / n_rows])
            .collect()
    }

    fn check<const N: usize>() {
        for n in [0, 1, 15, 255, 256, 257, 511, 512, 1000, 4096 + 3] {
            let src: Vec<u8> = (0..N * n).map(|i| (i * 7 + i / 251) as u8).collect();
            let mut dst = vec![0xaa; N * n];
            rows_to_elements::<N>(&src, &mut dst, n);
            assert_eq!(dst, plain(N, &src), "N {N}, n {n}");
        }
    }

    #[test]
    fn matches_the_definition() {
        check::<2>();
        check::<4>();
        check::<8>();
        check::<16>();
    }
}
