//! Byte-unshuffle of 2, 4, 8 and 16-byte elements with a vector unit (`crate::simd`):
//! `N` rows of `n` bytes into `n` elements of `N` bytes, as many vector widths of
//! elements as the rows hold whole; the plain loops of `super::transpose` do the rest.
//!
//! One vector of each row is loaded (`W` bytes: 64 with AVX-512, 32 with AVX2, 16 with
//! SSE4.2 and NEON), then zipped in registers, adjacent rows into byte pairs, pairs into
//! quads and so on (C-Blosc2's `unshuffle*_avx2` chains the same unpacks), and the `N`
//! vectors stored: `N * W` bytes of output per step, one pass. With AVX-512 VBMI each
//! zip is one two-source byte permutation across the whole register.

use fearless_simd::prelude::*;
use fearless_simd::{u16x8, u32x4, u64x2, u8x16};

/// Transposes the `N` rows (of equal length) into elements of `N` bytes in `dst`
/// (element `i` is byte `i` of every row, in order), for the first elements in whole
/// vector widths: returns how many were done. `N` is 2, 4, 8 or 16.
#[inline(always)]
pub(crate) fn rows_to_elements<S: Simd, const N: usize>(
    simd: S,
    rows: &[&[u8]; N],
    dst: &mut [u8],
) -> usize {
    let w = S::u8s::LEN;
    let done = rows[0].len() / w * w;
    for (i, out) in dst[..done * N].chunks_exact_mut(N * w).enumerate() {
        let at = i * w;
        let mut v = [S::u8s::splat(simd, 0); N];
        for (v, row) in v.iter_mut().zip(rows) {
            *v = S::u8s::from_slice(simd, &row[at..at + w]);
        }
        let v = transpose::<S, N>(v);
        for (o, v) in out.chunks_exact_mut(w).zip(v) {
            v.store_slice(o);
        }
    }
    done
}

/// [`rows_to_elements`] into an output `W - LEAD` bytes short of a multiple of the
/// width (`LEAD` 16, 32 or 48, below `W`): each vector stored on a line is the end of one
/// transposed vector and the start of the next (`slide`), so no store straddles two
/// lines; the first `LEAD` bytes and the last `W - LEAD` go through a small buffer.
#[inline(always)]
pub(crate) fn rows_to_elements_slid<S: Simd, const N: usize, const LEAD: usize>(
    simd: S,
    rows: &[&[u8]; N],
    dst: &mut [u8],
) -> usize {
    let w = S::u8s::LEN;
    let steps = rows[0].len() / w;
    if steps == 0 {
        return 0;
    }
    let total = steps * w * N;
    let (head, rest) = dst[..total].split_at_mut(LEAD);
    let (body, tail) = rest.split_at_mut(total - w);
    let (first, body) = body.split_at_mut((N - 1) * w);
    let mut bytes = [0u8; 64];
    let v = transposed::<S, N>(simd, rows, 0);
    v[0].store_slice(&mut bytes[..w]);
    head.copy_from_slice(&bytes[..LEAD]);
    for (o, j) in first.chunks_exact_mut(w).zip(1..N) {
        v[j - 1].slide::<LEAD>(v[j]).store_slice(o);
    }
    let mut last = v[N - 1];
    for (i, out) in body.chunks_exact_mut(N * w).enumerate() {
        let v = transposed::<S, N>(simd, rows, (i + 1) * w);
        let mut o = out.chunks_exact_mut(w);
        for (o, (j, &x)) in (&mut o).zip(v.iter().enumerate()) {
            let before = if j == 0 { last } else { v[j - 1] };
            before.slide::<LEAD>(x).store_slice(o);
        }
        last = v[N - 1];
    }
    last.store_slice(&mut bytes[..w]);
    tail.copy_from_slice(&bytes[LEAD..w]);
    steps * w
}

/// The `N` rows' vectors at `at`, transposed.
#[inline(always)]
fn transposed<S: Simd, const N: usize>(simd: S, rows: &[&[u8]; N], at: usize) -> [S::u8s; N] {
    let w = S::u8s::LEN;
    let mut v = [S::u8s::splat(simd, 0); N];
    for (v, row) in v.iter_mut().zip(rows) {
        *v = S::u8s::from_slice(simd, &row[at..at + w]);
    }
    transpose::<S, N>(v)
}

/// The `N` vectors (row `j` in `v[j]`) as `N * W` bytes of elements, in order across
/// the returned vectors: a zip of adjacent rows into byte pairs, of pairs into quads, and
/// so on, `log2(N)` levels.
#[inline(always)]
pub(crate) fn transpose<S: Simd, const N: usize>(v: [S::u8s; N]) -> [S::u8s; N] {
    // One instance per level (its zip width a constant): a loop over the levels was not
    // unrolled for 16 rows, which left the vectors in memory, copied and reloaded at
    // each zip (16-byte elements unshuffled 14 times slower than 8-byte ones).
    let v = if N > 1 { level::<S, N, 1>(v) } else { v };
    let v = if N > 2 { level::<S, N, 2>(v) } else { v };
    let v = if N > 4 { level::<S, N, 4>(v) } else { v };
    if N > 8 {
        level::<S, N, 8>(v)
    } else {
        v
    }
}

/// One level of [`transpose`]: vectors holding units of `GROUP` bytes (one from each of
/// `GROUP` rows) of consecutive elements, two such groups zipped into one.
// (No closures here: one not inlined would be compiled without the unit's features.)
#[inline(always)]
fn level<S: Simd, const N: usize, const GROUP: usize>(v: [S::u8s; N]) -> [S::u8s; N] {
    let mut next = v;
    for (out, next) in next.iter_mut().enumerate() {
        let (k, x, high) = (out / (2 * GROUP), out % (2 * GROUP) / 2, out % 2 == 1);
        let (a, b) = (v[2 * k * GROUP + x], v[(2 * k + 1) * GROUP + x]);
        *next = zip::<S>(a, b, GROUP, high);
    }
    next
}

/// The low (or high) halves of `a` and `b` interleaved in units of `unit` bytes.
#[inline(always)]
fn zip<S: Simd>(a: S::u8s, b: S::u8s, unit: usize, high: bool) -> S::u8s {
    #[inline(always)]
    fn halves<V: SimdBase<S> + SimdInt<S>, S: Simd>(a: V, b: V, high: bool) -> V {
        if high {
            a.zip_high(b)
        } else {
            a.zip_low(b)
        }
    }
    match unit {
        1 => halves(a, b, high),
        2 => halves(a.bitcast::<S::u16s>(), b.bitcast(), high).bitcast(),
        4 => halves(a.bitcast::<S::u32s>(), b.bitcast(), high).bitcast(),
        _ => halves(a.bitcast::<S::u64s>(), b.bitcast(), high).bitcast(),
    }
}

/// [`rows_to_elements`] with vectors of 16 bytes whatever the unit's width, for an
/// output not on 16 bytes (where [`rows_to_elements_slid`] does not apply).
#[inline(always)]
pub(crate) fn rows_to_elements_16<S: Simd, const N: usize>(
    simd: S,
    rows: &[&[u8]; N],
    dst: &mut [u8],
) -> usize {
    const W: usize = 16;
    let done = rows[0].len() / W * W;
    for (i, out) in dst[..done * N].chunks_exact_mut(N * W).enumerate() {
        let at = i * W;
        let mut v = [u8x16::splat(simd, 0); N];
        for (v, row) in v.iter_mut().zip(rows) {
            *v = u8x16::from_slice(simd, &row[at..at + W]);
        }
        let mut group = 1;
        while group < N {
            let mut next = v;
            for (out, next) in next.iter_mut().enumerate() {
                let (k, x, high) = (out / (2 * group), out % (2 * group) / 2, out % 2 == 1);
                let (a, b) = (v[2 * k * group + x], v[(2 * k + 1) * group + x]);
                *next = match group {
                    1 => halves(a, b, high),
                    2 => halves(a.bitcast::<u16x8<S>>(), b.bitcast(), high).bitcast(),
                    4 => halves(a.bitcast::<u32x4<S>>(), b.bitcast(), high).bitcast(),
                    _ => halves(a.bitcast::<u64x2<S>>(), b.bitcast(), high).bitcast(),
                };
            }
            v = next;
            group *= 2;
        }
        for (o, v) in out.chunks_exact_mut(W).zip(v) {
            v.store_slice(o);
        }
    }
    done
}

/// The low (or high) halves of `a` and `b` interleaved in their lanes.
#[inline(always)]
fn halves<V: SimdBase<S> + SimdInt<S>, S: Simd>(a: V, b: V, high: bool) -> V {
    if high {
        a.zip_high(b)
    } else {
        a.zip_low(b)
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use proptest::collection::vec as bytes;
    use proptest::prelude::*;

    use super::super::noise;
    use super::super::shuffle::unshuffle_to;
    use crate::chunk::dest::Dest;
    use crate::simd::Unit;

    /// Every unit of this CPU unshuffles `src` as the plain loops do, into a slice and
    /// appended to a vector.
    fn check(typesize: usize, src: &[u8]) {
        let mut plain = vec![0; src.len()];
        unshuffle_to(Unit::Plain, typesize, src, &mut Dest::Slice(&mut plain));
        for unit in Unit::all() {
            let len = src.len();
            // Outputs on a cache line, 16, 32 and 48 bytes into one, and at an odd address.
            for skew in [0, 16, 32, 48, 1] {
                let mut lines = vec![0xa5; len + 128];
                let at = lines.as_ptr().addr().next_multiple_of(64) - lines.as_ptr().addr();
                let out = &mut lines[at + skew..at + skew + len];
                unshuffle_to(unit, typesize, src, &mut Dest::Slice(out));
                assert_eq!(
                    out, plain,
                    "{unit:?}, typesize {typesize}, {len} bytes, {skew}"
                );
            }
            let mut appended = vec![7; 3];
            let dest = &mut Dest::Append {
                vec: &mut appended,
                start: 3,
                room: 3 + len,
            };
            unshuffle_to(unit, typesize, src, dest);
            assert_eq!(
                appended[3..],
                plain,
                "{unit:?} appending, {typesize}, {len}"
            );
        }
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
