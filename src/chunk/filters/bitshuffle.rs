//! Bit-unshuffle (`bitunshuffle` in C-Blosc2's `blosc/shuffle.c`, the transposition of
//! `bitshuffle-generic.c`).
//!
//! A block of `n` elements of `typesize` bytes, `n` a multiple of 8, is stored as
//! `8 * typesize` rows of `n / 8` bytes: row `8 * j + k` holds bit `k` (least significant
//! first) of byte `j` of every element, element `i` in bit `i % 8` of the row's byte
//! `i / 8`. Format-3+ chunks bitshuffle the largest such prefix of the block and copy the
//! rest; format-2 chunks bitshuffle whole blocks of a multiple of 8 elements only.
//!
//! Each group of 8 elements and byte `j` is one 8x8 bit-matrix transposition: the 8
//! bytes `row[8j + k][col]`, `k = 0..8`, read as one `u64`, transposed, give byte `j` of
//! the 8 elements.

use alloc::vec::Vec;

#[cfg(feature = "std")]
use super::shuffle::{shuffle, shuffle_tile, TILE_BYTES};
#[cfg(feature = "std")]
use super::vector_shuffle::elements_to_bit_rows;
use crate::chunk::dest::Dest;
use crate::simd::{Kernel, Unit};

/// The chunk format whose blocks are bitshuffled only when whole.
const FORMAT_WHOLE_BLOCKS: u8 = 2;

/// Undoes bitshuffle from `src` into `dest` on `unit`; `scratch` holds the
/// bit-transposed bytes in between (plain loops).
pub(in crate::chunk) fn unshuffle_to(
    unit: Unit,
    typesize: usize,
    format_version: u8,
    src: &[u8],
    scratch: &mut Vec<u8>,
    dest: &mut Dest<'_>,
) {
    let typesize = typesize.max(1);
    let len = shuffled_len(typesize, format_version, src.len());
    let (src, rest) = src.split_at(len);
    unit.run(BitRows {
        unit,
        typesize,
        src,
        scratch,
        dest,
    });
    dest.put(len, rest);
}

/// The bit-unshuffle of whole groups of 8 elements, as a [`Kernel`].
struct BitRows<'a, 'd> {
    unit: Unit,
    typesize: usize,
    src: &'a [u8],
    scratch: &'a mut Vec<u8>,
    dest: &'a mut Dest<'d>,
}

impl Kernel for BitRows<'_, '_> {
    type Output = ();

    /// The columns in whole vector widths with the unit's vectors, a tile at a time in
    /// one pass (`super::vector_bitunshuffle`), the others a word at a time.
    #[cfg(feature = "simd")]
    #[inline(always)]
    fn wide<S: fearless_simd::Simd>(self, simd: S) {
        use super::vector_bitunshuffle::{bit_tile, MAX_TILE, MAX_TYPESIZE};
        use fearless_simd::SimdBase;
        let typesize = self.typesize;
        if typesize > MAX_TYPESIZE {
            return self.plain();
        }
        let row_len = self.src.len() / typesize / 8;
        let w = S::u8s::LEN;
        let tile = 8 * w * typesize;
        let mut buf = super::Line([0; MAX_TILE]);
        let done = row_len / w * w;
        // With AVX-512, 4-byte elements by GFNI (`super::gfni_bitunshuffle`).
        #[cfg(target_arch = "x86_64")]
        let first = match simd.level() {
            fearless_simd::Level::Avx512(t) if typesize == 4 => {
                let (src, scratch, out) = (self.src, &mut *self.scratch, &mut *self.dest);
                let tiles = done / w;
                super::gfni_bitunshuffle::columns(t, src, row_len, tiles, scratch, out, &mut buf.0);
                done
            }
            _ => 0,
        };
        #[cfg(not(target_arch = "x86_64"))]
        let first = 0;
        for col in (first..done).step_by(w) {
            let out = self.dest.window(8 * col * typesize, tile, &mut buf.0, w);
            bit_tile(simd, typesize, self.src, row_len, col, out);
            self.dest.commit(8 * col * typesize, &buf.0[..tile], w);
        }
        let rest = 8 * (row_len - done) * typesize;
        let out = self.dest.window(8 * done * typesize, rest, &mut buf.0, w);
        last_columns(typesize, self.src, row_len, done, out);
        self.dest.commit(8 * done * typesize, &buf.0[..rest], w);
    }

    fn plain(self) {
        self.scratch.resize(self.src.len(), 0);
        transpose_bits(self.typesize, self.src, self.scratch);
        super::shuffle::unshuffle_to(self.unit, self.typesize, self.scratch, self.dest);
    }
}

/// Columns `done ..` of the `8 * typesize` bit rows of `row_len` bytes in `src` (the
/// elements from `8 * done`) into `out`, one word at a time.
#[cfg_attr(not(feature = "simd"), allow(dead_code))]
fn last_columns(typesize: usize, src: &[u8], row_len: usize, done: usize, out: &mut [u8]) {
    for c in done..row_len {
        for j in 0..typesize {
            let word: [u8; 8] = core::array::from_fn(|k| src[(8 * j + k) * row_len + c]);
            let bytes = transpose8(u64::from_le_bytes(word)).to_le_bytes();
            for (b, byte) in bytes.into_iter().enumerate() {
                out[(8 * (c - done) + b) * typesize + j] = byte;
            }
        }
    }
}

/// How many bytes of a block of `len` are bitshuffled: whole groups of 8 elements (all
/// of the block or nothing in format 2).
fn shuffled_len(typesize: usize, format_version: u8, len: usize) -> usize {
    let mut n = len / typesize;
    if format_version == FORMAT_WHOLE_BLOCKS {
        if !n.is_multiple_of(8) {
            n = 0;
        }
    } else {
        n -= n % 8;
    }
    n * typesize
}

/// Bit-transposes each group of 8 rows of `src` into byte rows in `bytes` (byte `j` of
/// every element, in order): what is left is a byte-unshuffle.
fn transpose_bits(typesize: usize, src: &[u8], bytes: &mut [u8]) {
    let row_len = src.len() / typesize / 8;
    if row_len == 0 {
        return;
    }
    for (rows, out) in src
        .chunks_exact(8 * row_len)
        .zip(bytes.chunks_exact_mut(8 * row_len))
    {
        transpose_group(rows, out, row_len);
    }
}

/// Transposes the 8x8 bit matrix held in `x` (byte `k` is row `k`, bit `b` column `b`):
/// byte `b` of the result holds bit `b` of every input byte, byte `k` in bit `k`. Its
/// own inverse: the bit-shuffle uses it too.
#[inline(always)]
pub(super) fn transpose8(mut x: u64) -> u64 {
    // Hacker's Delight 7-3: swap 1x1, then 2x2, then 4x4 blocks.
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^= t ^ (t << 28);
    x
}

/// Eight bit rows of `row_len` bytes (bit `k` of one byte of every element) into
/// `8 * row_len` bytes, one per element: the byte transposition of the unshuffle gathers
/// each column's 8 row bytes into a word, then an 8x8 bit transposition of each word (a
/// plain loop on `u64`s, which the compiler vectorises).
fn transpose_group(rows: &[u8], out: &mut [u8], row_len: usize) {
    super::transpose::rows_to_elements::<8>(rows, out, row_len);
    let (words, _) = out.as_chunks_mut::<8>();
    for word in words {
        *word = transpose8(u64::from_le_bytes(*word)).to_le_bytes();
    }
}

/// Bit-shuffle `src` into `dst` (same length): of the largest multiple of 8 elements,
/// row `8 * j + k` (of `n / 8` bytes) holds bit `k` of byte `j` of every element,
/// element `i` in bit `i % 8` of the row's byte `i / 8`; the rest is copied as it is.
/// `scratch` holds the byte-shuffled elements in between.
#[cfg(feature = "std")]
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
#[cfg(feature = "std")]
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
        1 => bitshuffle_on::<1>(unit, &src[..len], scratch, &mut dst[..len], n),
        2 => bitshuffle_on::<2>(unit, &src[..len], scratch, &mut dst[..len], n),
        4 => bitshuffle_on::<4>(unit, &src[..len], scratch, &mut dst[..len], n),
        8 => bitshuffle_on::<8>(unit, &src[..len], scratch, &mut dst[..len], n),
        16 => bitshuffle_on::<16>(unit, &src[..len], scratch, &mut dst[..len], n),
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
/// vectors (`vector_shuffle`, `scratch` its rows in between), the rest with the plain
/// loops.
#[cfg(feature = "std")]
fn bitshuffle_on<const N: usize>(
    unit: Unit,
    src: &[u8],
    scratch: &mut alloc::vec::Vec<u8>,
    dst: &mut [u8],
    n: usize,
) {
    let done = elements_to_bit_rows::<N>(unit, src, scratch, dst, n);
    if done < n {
        bitshuffle_n::<N>(src, dst, n, done);
    }
}

/// Bit-shuffle of `n` (a multiple of 8) `N`-byte elements from element `first` (a
/// multiple of 8) on, a tile at a time in L1: the tile's byte rows ([`shuffle_tile`]),
/// each 8 bytes of them bit-transposed, each row's 8-byte words split into their 8 bit
/// rows ([`shuffle_tile`] again), copied to their place in `dst` (bit row `8j + k`
/// holds `n / 8` bytes).
#[cfg(feature = "std")]
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

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "std")]
    use crate::chunk::filters::{sample, LENS};
    use alloc::vec;
    use alloc::vec::Vec;

    /// The definition, one bit at a time.
    fn plain(typesize: usize, src: &[u8]) -> Vec<u8> {
        let n = (src.len() / typesize) / 8 * 8;
        let row_len = n / 8;
        let mut out = src.to_vec();
        for i in 0..n {
            for j in 0..typesize {
                let mut v = 0u8;
                for k in 0..8 {
                    let stored = src[(8 * j + k) * row_len + i / 8];
                    v |= ((stored >> (i % 8)) & 1) << k;
                }
                out[i * typesize + j] = v;
            }
        }
        out
    }

    /// The bit-unshuffle of `src` into `dst` by every unit of this CPU, which agree.
    fn unshuffle(typesize: usize, format: u8, src: &[u8], tmp: &mut Vec<u8>, dst: &mut [u8]) {
        // The plain loops first.
        for (i, unit) in Unit::all().into_iter().enumerate() {
            let mut out = dst.to_vec();
            unshuffle_to(unit, typesize, format, src, tmp, &mut Dest::Slice(&mut out));
            if i == 0 {
                dst.copy_from_slice(&out);
            }
            assert_eq!(out, dst, "{unit:?}");
        }
    }

    /// (typesize, chunk format, stored, unshuffled): row `8j + k` holds bit `k` of byte
    /// `j` of every element, element `i` in bit `i % 8` of byte `i / 8`.
    #[test]
    fn by_hand() {
        let mut two_rows = [0u8; 16];
        two_rows[8] = 0x08; // byte 1, bit 0 of element 3
        let mut element_3 = [0u8; 16];
        element_3[7] = 0x01;
        let cases: [(usize, u8, &[u8], &[u8]); 8] = [
            (
                1,
                5,
                &[0, 0, 0, 0, 0, 0, 0, 1],
                &[0x80, 0, 0, 0, 0, 0, 0, 0],
            ),
            (1, 5, &[2, 0, 0, 0, 0, 0, 0, 0], &[0, 1, 0, 0, 0, 0, 0, 0]),
            (1, 5, &[0xff, 0, 0xff, 0, 0, 0, 0, 0], &[5; 8]),
            (2, 5, &two_rows, &element_3),
            // 16 elements: two bytes per row, element 9 in bit 1 of each row's byte 1.
            (
                1,
                5,
                &[0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                &[0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0],
            ),
            // Past the last group of 8 elements: copied (format 3 and later) ...
            (
                1,
                5,
                &[2, 0, 0, 0, 0, 0, 0, 0, 7, 9],
                &[0, 1, 0, 0, 0, 0, 0, 0, 7, 9],
            ),
            // ... or, in format 2, the whole block unless it is whole groups.
            (
                1,
                2,
                &[2, 0, 0, 0, 0, 0, 0, 0, 7, 9],
                &[2, 0, 0, 0, 0, 0, 0, 0, 7, 9],
            ),
            (1, 2, &[2, 0, 0, 0, 0, 0, 0, 0], &[0, 1, 0, 0, 0, 0, 0, 0]),
        ];
        for (i, (typesize, format, src, expected)) in cases.into_iter().enumerate() {
            let mut dst = vec![0; src.len()];
            unshuffle(typesize, format, src, &mut Vec::new(), &mut dst);
            assert_eq!(dst, expected, "case {i}");
        }
    }

    #[test]
    fn matches_the_definition() {
        for typesize in 1..=17 {
            for len in [
                0,
                5,
                8,
                64,
                100,
                129,
                1000,
                4096 + 7,
                8 * 64 * typesize + 13,
            ] {
                let src: Vec<u8> = (0..len).map(|i| (i * 131 + i / 3) as u8).collect();
                for unit in Unit::all() {
                    let mut dst = vec![0; len];
                    let dest = &mut Dest::Slice(&mut dst);
                    unshuffle_to(unit, typesize, 3, &src, &mut Vec::new(), dest);
                    assert_eq!(dst, plain(typesize, &src), "{unit:?} {typesize} {len}");
                }
            }
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn bitshuffle_is_undone_by_bitunshuffle() {
        for typesize in 1..=17 {
            for len in LENS {
                let src = sample(len);
                let (mut mid, mut back, mut scratch) = (vec![0; len], vec![0; len], Vec::new());
                bitshuffle(typesize, &src, &mut scratch, &mut mid);
                for unit in Unit::all() {
                    let dest = &mut Dest::Slice(&mut back);
                    unshuffle_to(unit, typesize, 5, &mid, &mut scratch, dest);
                    assert_eq!(back, src, "{unit:?} {typesize} {len}");
                }
            }
        }
    }
}
