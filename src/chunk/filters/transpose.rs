//! Byte transposition by zips: `N` rows of `n` bytes (`N` a power of two) into `n`
//! elements of `N` bytes, byte `j` of element `i` from row `j`.
//!
//! The transposition is a zip of adjacent rows into byte pairs, then a zip of those
//! pairs, as C-Blosc2's SSE2 unshuffle chains `unpacklo`/`unpackhi` of 8, 16 and 32 bits.
//! Written as one plain loop per zip, each of which the compiler turns into those same
//! unpacks (safe Rust, no intrinsics): a fused loop, or a zip of more than two rows of
//! bytes, is not vectorised, while a zip of 4 or 8 rows of pairs is. The zips run on
//! tiles of [`TILE`] elements, so that the pairs stay in L1.

/// Elements per tile: `16 * TILE` bytes per intermediate buffer at most (4 KiB).
const TILE: usize = 256;
/// The widest element transposed here.
const MAX_N: usize = 16;

/// Zips `a` and `b`, units of `W` bytes, into `out`: `a0 b0 a1 b1 ...`. The lengths are
/// multiples of 16: 16 bytes of each make 32 of `out` (in this form the compiler loads
/// whole vectors and unpacks both halves, a tenth faster than unit by unit).
#[inline(always)]
fn zip<const W: usize>(a: &[u8], b: &[u8], out: &mut [u8]) {
    let (a, _) = a.as_chunks::<16>();
    let (b, _) = b.as_chunks::<16>();
    let (out, _) = out.as_chunks_mut::<32>();
    for ((o, a), b) in out.iter_mut().zip(a).zip(b) {
        for i in 0..16 / W {
            for k in 0..W {
                o[2 * W * i + k] = a[W * i + k];
                o[2 * W * i + W + k] = b[W * i + k];
            }
        }
    }
}

/// Zips the `K` segments of `from` (each `from.len() / K` bytes), units of 2 bytes, into
/// `out`: unit `i` of every segment, in order, then unit `i + 1`. With `K` 4 or 8 the
/// compiler makes one pass of 16- and 32-bit unpacks of it, where with bytes it does not.
#[inline(always)]
fn zip_pairs_of<const K: usize>(from: &[u8], out: &mut [u8]) {
    let seg = from.len() / K;
    let segs: [&[[u8; 2]]; K] =
        core::array::from_fn(|k| from[k * seg..(k + 1) * seg].as_chunks::<2>().0);
    let (out, _) = out.as_chunks_mut::<2>();
    let (out, _) = out.as_chunks_mut::<K>();
    if K == 4 {
        for ((((o, a), b), c), d) in out
            .iter_mut()
            .zip(segs[0])
            .zip(segs[1])
            .zip(segs[2])
            .zip(segs[3])
        {
            o[..4].copy_from_slice(&[*a, *b, *c, *d]);
        }
    } else {
        let len = out.len();
        let segs: [&[[u8; 2]]; K] = core::array::from_fn(|k| &segs[k][..len]);
        for (i, o) in out.iter_mut().enumerate() {
            *o = core::array::from_fn(|k| segs[k][i]);
        }
    }
}

/// Transposes the `N` rows of `n` bytes in `src` (`N * n` bytes) into `dst` (as many):
/// element `i` of `dst` is byte `i` of every row, in order. `N` is 2, 4, 8 or 16.
pub(super) fn rows_to_elements<const N: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let rows: [&[u8]; N] = core::array::from_fn(|j| &src[j * n..(j + 1) * n]);
    elements_of_rows(&rows, dst, n);
}

/// [`rows_to_elements`] of `N` rows of `n` bytes wherever each is.
pub(super) fn elements_of_rows<const N: usize>(rows: &[&[u8]; N], dst: &mut [u8], n: usize) {
    let (body, tail) = dst[..N * n].split_at_mut(n / TILE * TILE * N);
    let mut scratch = Scratch::new();
    for (t, out) in body.chunks_exact_mut(N * TILE).enumerate() {
        tile::<N>(rows, t * TILE, &mut scratch, out);
    }
    last_elements(rows, n / TILE * TILE, tail);
}

/// The tile of byte pairs in between.
struct Scratch {
    pairs: [u8; MAX_N * TILE],
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            pairs: [0; MAX_N * TILE],
        }
    }
}

/// Elements `at .. at + TILE` of `rows` into `out` (`N * TILE` bytes): a zip of byte
/// pairs, then (for 4 bytes) a zip of those pairs or (for 8 and 16) one zip of all of
/// them.
#[inline(always)]
fn tile<const N: usize>(rows: &[&[u8]; N], at: usize, scratch: &mut Scratch, out: &mut [u8]) {
    let pairs = if N == 2 {
        &mut *out
    } else {
        &mut scratch.pairs[..N * TILE]
    };
    for (k, pair) in pairs.chunks_exact_mut(2 * TILE).enumerate() {
        let (a, b) = (&rows[2 * k][at..at + TILE], &rows[2 * k + 1][at..at + TILE]);
        zip::<1>(a, b, pair);
    }
    let pairs = &scratch.pairs[..N * TILE];
    match N {
        2 => {}
        4 => {
            let (a, b) = pairs.split_at(2 * TILE);
            zip::<2>(a, b, out);
        }
        8 => zip_pairs_of::<4>(pairs, out),
        _ => zip_pairs_of::<8>(pairs, out),
    }
}

/// Elements `done ..` of `rows` into `out`, one byte at a time (fewer than a tile).
pub(super) fn last_elements<const N: usize>(rows: &[&[u8]; N], done: usize, out: &mut [u8]) {
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

    /// `N` rows of `n` bytes become `n` elements of `N` bytes, by hand.
    #[test]
    fn by_hand() {
        let mut out = [0u8; 6];
        rows_to_elements::<2>(&[1, 2, 3, 4, 5, 6], &mut out, 3);
        assert_eq!(out, [1, 4, 2, 5, 3, 6]);
        let mut out = [0u8; 8];
        rows_to_elements::<4>(&[1, 2, 3, 4, 5, 6, 7, 8], &mut out, 2);
        assert_eq!(out, [1, 3, 5, 7, 2, 4, 6, 8]);
        let mut out = [0u8; 8];
        rows_to_elements::<8>(&[1, 2, 3, 4, 5, 6, 7, 8], &mut out, 1);
        assert_eq!(out, [1, 2, 3, 4, 5, 6, 7, 8]);
        let src: Vec<u8> = (0..32).collect();
        let mut out = [0u8; 32];
        rows_to_elements::<16>(&src, &mut out, 2);
        // Row j is [2j, 2j + 1]: the evens, then the odds.
        let expected: Vec<u8> = (0..32).step_by(2).chain((1..32).step_by(2)).collect();
        assert_eq!(out[..], expected[..]);
        let mut out = [0u8; 0];
        rows_to_elements::<4>(&[], &mut out, 0);
    }

    #[test]
    fn matches_the_definition() {
        check::<2>();
        check::<4>();
        check::<8>();
        check::<16>();
    }
}
