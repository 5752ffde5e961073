//! The filters applied to each block before its streams are compressed (`pipeline_forward`
//! in C-Blosc2's `blosc/blosc2.c`): byte-shuffle (`shuffle`, `blosc/shuffle-generic.c`),
//! bit-shuffle (`blosc2_bitshuffle`, `blosc/shuffle.c`), delta (`delta_encoder`,
//! `blosc/delta.c`), truncation of precision (`truncate_precision`, `blosc/trunc-prec.c`)
//! and bytedelta (`bytedelta_forward`, `plugins/filters/bytedelta/bytedelta.c`).
//!
//! Each is the exact inverse of the decoder's undoing in `super` (and of C's), tested
//! as such below. Bytes past the last whole element are copied as they are (where C's
//! delta and truncation leave them unwritten, we keep the input's).

use super::bitshuffle::transpose8;
use super::delta_width;
use super::vector_shuffle::{elements_to_bit_rows, elements_to_rows};
use crate::simd::Unit;

/// Byte-shuffle `src` into `dst` (same length): byte `j` of element `i` goes to
/// `j * n + i`, `n` the number of whole elements; the rest is copied as it is.
pub(crate) fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    shuffle_on(Unit::detected(), typesize, src, dst);
}

/// [`shuffle`] on `unit`: its vectors for the whole vector widths of 2, 4, 8 and
/// 16-byte elements (`vector_shuffle`), the plain loops for the rest.
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
const TILE_BYTES: usize = 4096;

/// Shuffle of `N`-byte elements (`N` 2, 4, 8 or 16), a tile at a time: the tile's
/// elements are split into their first and second halves, then those into theirs, down
/// to bytes (`log2 N` passes over the tile in L1, each a loop the compiler vectorises:
/// the halves of a 2W-byte unit are its low and high W bytes as an integer), and each of
/// the `N` byte rows of the tile is copied to its row of `dst`. The elements after the
/// last whole tile go byte by byte.
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
fn shuffle_tile<'a, const N: usize>(
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
fn split_u16(from: &[u8], lo: &mut [u8], hi: &mut [u8]) {
    let (units, _) = from.as_chunks::<2>();
    for ((u, l), h) in units.iter().zip(lo).zip(hi) {
        let v = u16::from_le_bytes(*u);
        *l = v as u8;
        *h = (v >> 8) as u8;
    }
}

/// Bit-shuffle `src` into `dst` (same length): of the largest multiple of 8 elements,
/// row `8 * j + k` (of `n / 8` bytes) holds bit `k` of byte `j` of every element,
/// element `i` in bit `i % 8` of the row's byte `i / 8`; the rest is copied as it is.
/// `scratch` holds the byte-shuffled elements in between.
pub(crate) fn bitshuffle(
    typesize: usize,
    src: &[u8],
    scratch: &mut alloc::vec::Vec<u8>,
    dst: &mut [u8],
) {
    bitshuffle_with(Unit::detected(), typesize, src, scratch, dst);
}

/// [`bitshuffle`] on `unit`: its vectors for tiles of 1, 2, 4, 8 and 16-byte elements
/// (`vector_shuffle`), the plain loops for the rest.
pub(super) fn bitshuffle_with(
    unit: Unit,
    typesize: usize,
    src: &[u8],
    scratch: &mut alloc::vec::Vec<u8>,
    dst: &mut [u8],
) {
    let typesize = typesize.max(1);
    let n = src.len() / typesize / 8 * 8;
    let len = n * typesize;
    match typesize {
        1 => bitshuffle_on::<1>(unit, &src[..len], &mut dst[..len], n),
        2 => bitshuffle_on::<2>(unit, &src[..len], &mut dst[..len], n),
        4 => bitshuffle_on::<4>(unit, &src[..len], &mut dst[..len], n),
        8 => bitshuffle_on::<8>(unit, &src[..len], &mut dst[..len], n),
        16 => bitshuffle_on::<16>(unit, &src[..len], &mut dst[..len], n),
        _ => {
            scratch.resize(len, 0);
            shuffle(typesize, &src[..len], scratch);
            if n > 0 {
                // Byte row j (n bytes) becomes bit rows 8j..8j+8 (n / 8 bytes each):
                // each 8 bytes bit-transposed in place, then byte k of word g goes to
                // bit row k at g, a byte-shuffle of 8-byte elements.
                let (words, _) = scratch.as_chunks_mut::<8>();
                for w in words {
                    *w = transpose8(u64::from_le_bytes(*w)).to_le_bytes();
                }
                for (bytes, bits) in scratch.chunks_exact(n).zip(dst[..len].chunks_exact_mut(n)) {
                    shuffle(8, bytes, bits);
                }
            }
        }
    }
    dst[len..].copy_from_slice(&src[len..]);
}

/// Bit-shuffle of `n` (a multiple of 8) `N`-byte elements: the first with `unit`'s
/// vectors (`vector_shuffle`), the rest with the plain loops.
fn bitshuffle_on<const N: usize>(unit: Unit, src: &[u8], dst: &mut [u8], n: usize) {
    let done = elements_to_bit_rows::<N>(unit, src, dst, n);
    bitshuffle_n::<N>(src, dst, n, done);
}

/// Bit-shuffle of `n` (a multiple of 8) `N`-byte elements from element `first` (a
/// multiple of 8) on, a tile at a time in L1: the tile's byte rows ([`shuffle_tile`]),
/// each 8 bytes of them bit-transposed, each row's 8-byte words split into their 8 bit
/// rows ([`shuffle_tile`] again), copied to their place in `dst` (bit row `8j + k`
/// holds `n / 8` bytes).
fn bitshuffle_n<const N: usize>(src: &[u8], dst: &mut [u8], n: usize, first: usize) {
    let t = TILE_BYTES / N;
    let stride = n / 8;
    let (mut a, mut b) = ([0u8; TILE_BYTES], [0u8; TILE_BYTES]);
    let (mut c, mut d) = ([0u8; TILE_BYTES], [0u8; TILE_BYTES]);
    for (k, tile) in src[first * N..].chunks(TILE_BYTES).enumerate() {
        let m = tile.len() / N;
        let mut rows = [0u8; TILE_BYTES];
        rows[..m * N].copy_from_slice(match N {
            1 => tile,
            _ => shuffle_tile::<N>(tile, m, &mut a, &mut b),
        });
        let (words, _) = rows[..m * N].as_chunks_mut::<8>();
        for w in words {
            *w = transpose8(u64::from_le_bytes(*w)).to_le_bytes();
        }
        let at = first / 8 + k * (t / 8);
        for (j, row) in rows[..m * N].chunks_exact(m).enumerate() {
            let bits = shuffle_tile::<8>(row, m / 8, &mut c, &mut d);
            for (kk, bit_row) in bits.chunks_exact(m / 8).enumerate() {
                let r = 8 * j + kk;
                dst[r * stride + at..][..m / 8].copy_from_slice(bit_row);
            }
        }
    }
}

/// Delta of `src` into `dst` (same length), elements of [`delta_width`] bytes. The first
/// block (`reference` is `None`) XORs each element with the one before it (in `src`);
/// later blocks XOR with the chunk's first block as given (unfiltered), `reference`.
pub(crate) fn delta(typesize: usize, reference: Option<&[u8]>, src: &[u8], dst: &mut [u8]) {
    let width = delta_width(typesize);
    let whole = src.len() - src.len() % width;
    match reference {
        None => {
            let w = width.min(whole);
            dst[..w].copy_from_slice(&src[..w]);
            for i in width..whole {
                dst[i] = src[i] ^ src[i - width];
            }
        }
        Some(first) => {
            for ((d, s), r) in dst[..whole].iter_mut().zip(src).zip(first) {
                *d = s ^ r;
            }
        }
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

/// Why the truncation of precision refuses its parameters (C's `truncate_precision`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TruncError {
    /// Only 4- and 8-byte floats are truncated.
    Typesize,
    /// The meta byte (an `i8`) keeps or drops too many mantissa bits.
    Bits,
}

/// Zeroes the low mantissa bits of 4- or 8-byte floats: `prec_bits` (the meta byte as
/// an `i8`) kept when positive, `-prec_bits` dropped when negative.
pub(crate) fn trunc_prec(
    prec_bits: u8,
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TruncError> {
    let prec = i32::from(prec_bits as i8);
    let mantissa = match typesize {
        4 => 23,
        8 => 52,
        _ => return Err(TruncError::Typesize),
    };
    if prec.abs() > mantissa {
        return Err(TruncError::Bits);
    }
    let zeroed = if prec >= 0 { mantissa - prec } else { -prec };
    if zeroed >= mantissa {
        return Err(TruncError::Bits);
    }
    let mask = !((1u64 << zeroed) - 1);
    let whole = src.len() - src.len() % typesize;
    for (d, s) in dst[..whole]
        .chunks_exact_mut(typesize)
        .zip(src.chunks_exact(typesize))
    {
        let mut v = [0u8; 8];
        v[..typesize].copy_from_slice(s);
        let masked = (u64::from_le_bytes(v) & mask).to_le_bytes();
        d.copy_from_slice(&masked[..typesize]);
    }
    dst[whole..].copy_from_slice(&src[whole..]);
    Ok(())
}

/// Bytedelta (filter 35) of `src` into `dst`: the block as `typesize` channels of
/// `len / typesize` bytes, each replaced by the difference (mod 256) with the byte
/// before it in its channel; the rest is copied as it is.
pub(crate) fn bytedelta(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let stream_len = src.len() / typesize.max(1);
    let whole = stream_len * typesize;
    if stream_len > 0 {
        for (s, d) in src[..whole]
            .chunks_exact(stream_len)
            .zip(dst[..whole].chunks_exact_mut(stream_len))
        {
            let mut previous = 0u8;
            for (o, &i) in d.iter_mut().zip(s) {
                *o = i.wrapping_sub(previous);
                previous = i;
            }
        }
    }
    dst[whole..].copy_from_slice(&src[whole..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::dest::Dest;
    use crate::simd::Unit;
    use alloc::vec;
    use alloc::vec::Vec;

    fn sample(len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| (i * 7 + i / 5 + (i * i) % 13) as u8)
            .collect()
    }

    const LENS: [usize; 11] = [0, 1, 7, 16, 31, 64, 257, 1000, 4099, 9000, 70_001];

    #[test]
    fn shuffle_is_undone_by_unshuffle() {
        for typesize in 1..=18 {
            for len in LENS {
                let src = sample(len);
                let (mut mid, mut back) = (vec![0; len], vec![0; len]);
                shuffle(typesize, &src, &mut mid);
                for unit in Unit::all() {
                    super::super::unshuffle_to(unit, typesize, &mid, &mut Dest::Slice(&mut back));
                    assert_eq!(back, src, "{unit:?} {typesize} {len}");
                }
            }
        }
    }

    #[test]
    fn bitshuffle_is_undone_by_bitunshuffle() {
        for typesize in 1..=17 {
            for len in LENS {
                let src = sample(len);
                let (mut mid, mut back, mut scratch) = (vec![0; len], vec![0; len], Vec::new());
                bitshuffle(typesize, &src, &mut scratch, &mut mid);
                for unit in Unit::all() {
                    let dest = &mut Dest::Slice(&mut back);
                    super::super::bitshuffle::unshuffle_to(
                        unit,
                        typesize,
                        5,
                        &mid,
                        &mut scratch,
                        dest,
                    );
                    assert_eq!(back, src, "{unit:?} {typesize} {len}");
                }
            }
        }
    }

    #[test]
    fn delta_is_undone_by_undelta() {
        for typesize in 1..=17 {
            for len in LENS {
                let src = sample(len);
                let other = sample(len + 3)[3..].to_vec();
                let mut first = vec![0; len];
                delta(typesize, None, &src, &mut first);
                super::super::undelta(typesize, None, &mut first);
                assert_eq!(first, src, "{typesize} {len}");
                let mut later = vec![0; len];
                delta(typesize, Some(&other), &src, &mut later);
                super::super::undelta(typesize, Some(&other), &mut later);
                assert_eq!(later, src, "{typesize} {len}");
            }
        }
    }

    #[test]
    fn bytedelta_is_undone_by_unbytedelta() {
        for typesize in 1..=17 {
            for len in LENS {
                let src = sample(len);
                let (mut mid, mut back) = (vec![0; len], vec![0; len]);
                bytedelta(typesize, &src, &mut mid);
                super::super::unbytedelta(typesize, &mid, &mut back);
                assert_eq!(back, src, "{typesize} {len}");
            }
        }
    }

    #[test]
    fn trunc_prec_keeps_the_asked_bits() {
        let x = 1.0f64 + f64::EPSILON * 3.0;
        let mut out = [0u8; 8];
        trunc_prec(10, 8, &x.to_le_bytes(), &mut out).unwrap();
        assert_eq!(f64::from_le_bytes(out), 1.0);
        trunc_prec(-2i8 as u8, 8, &x.to_le_bytes(), &mut out).unwrap();
        assert_eq!(f64::from_le_bytes(out), 1.0);
        trunc_prec(-1i8 as u8, 8, &x.to_le_bytes(), &mut out).unwrap();
        assert_eq!(f64::from_le_bytes(out), 1.0 + f64::EPSILON * 2.0);
        assert_eq!(trunc_prec(53, 8, &[0; 8], &mut out), Err(TruncError::Bits));
        assert_eq!(trunc_prec(0, 8, &[0; 8], &mut out), Err(TruncError::Bits));
        assert_eq!(
            trunc_prec(3, 2, &[0; 8], &mut out),
            Err(TruncError::Typesize)
        );
    }
}
