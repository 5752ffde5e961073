//! Bit-shuffle of 1, 2, 4, 8 and 16-byte elements with AVX-512 and GFNI (which
//! `fearless_simd`'s AVX-512 level includes), the intrinsics called inside its
//! `kernel!` (no `unsafe` here): tiles of 512 elements, 64 bytes of each bit row.
//!
//! Each step moves bits of the position of a bit of the tile between the three places
//! a bit has: its bit in a byte, its byte in a register (lane), its register. An input
//! register of `N`-byte elements holds element bits `i0 ..` and byte bits `j ..` in its
//! lane; a row of the output holds in its lane the column `c = i >> 3` (bits `i3 ..
//! i8`), in each byte's bits `i0 i1 i2`, and the row (`8 j + k`, `k` the bit `β` of the
//! input byte) is the register. So: a byte permutation (`vpermb`) puts the 8 elements
//! of a group and one byte of each in a quadword (backwards: GFNI counts its matrix's
//! rows from the top); one `vgf2p8affineqb` with that quadword as its matrix transposes
//! it (bit `β` of the 8 bytes into byte `β`); then unpacks of pairs of registers (one
//! cheap instruction each, where a two-register byte permutation costs 2.5 of them)
//! each take a register bit into the bottom of the lane and the lane's top bit (of its
//! 16 bytes) out to the register, until the lane's bottom four are `i3 .. i6`; the 16
//! bytes of each quarter of a register are then a piece of one row, put in the rows of
//! a batch of tiles in L1, copied out a row at a time (`batches`). C makes three passes
//! over the block (`bitshuffle-avx512.c`: a byte transposition, eight `movemask`s of
//! each 64 bytes, a transposition of the bit rows): on 128 KiB blocks of 4-byte
//! elements this takes 28-30 µs a MiB where C takes 65 (and the generic vector pass
//! before it 68 to 118, the more the colder its output).

use core::arch::x86_64::*;

use fearless_simd::{kernel, u8x16, u8x64, Avx512, SimdBase, SimdFrom};

/// Elements per tile: 64 bytes of each of their bit rows.
pub(super) const TILE: usize = 512;

/// Bit-shuffles the first elements of `src` (`N` bytes each, `n` of them, a multiple of
/// 8) in tiles of [`TILE`] into the `8 * N` bit rows of `n / 8` bytes of `dst`; returns
/// how many were done (0 for other `N`).
#[inline(always)]
pub(super) fn bit_rows<const N: usize>(
    t: Avx512,
    src: &[u8],
    buf: &mut [u8; BATCH_BYTES],
    dst: &mut [u8],
    n: usize,
) -> usize {
    let tiles = n / TILE;
    match N {
        1 => rows1(t, src, buf, dst, n / 8, tiles),
        2 => rows2(t, src, buf, dst, n / 8, tiles),
        4 => rows4(t, src, buf, dst, n / 8, tiles),
        8 => rows8(t, src, buf, dst, n / 8, tiles),
        16 => rows16(t, src, buf, dst, n / 8, tiles),
        _ => return 0,
    }
    tiles * TILE
}

/// The GFNI matrix operand's source: byte `i` selects bit `i`, so that byte `β` of the
/// product is bit `β` of the 8 rows (row 7 - `b` of the matrix in bit `b`).
pub(super) const BITS: i64 = 0x8040_2010_0804_0201_u64 as i64;

/// A `vpermb` index: lane `l` takes byte `at`.
macro_rules! index {
    (|$l:ident| $at:expr) => {{
        let mut t = [0u8; 64];
        let mut $l = 0;
        while $l < 64 {
            t[$l] = ($at) as u8;
            $l += 1;
        }
        t
    }};
}
pub(super) use index;

/// The element of a group of 8 a quadword's byte `l % 8` takes: backwards.
const fn back(l: usize) -> usize {
    7 - (l & 7)
}

/// 1-byte elements: each 16 bytes' quadwords reversed (lanes `i0 i1 i2 i3 i4 i5`).
const GATHER1: [u8; 64] = index!(|l| (l & !7) | back(l));
/// After the transposition (lanes `β0 β1 β2 i3 i4 i5`), to `i3 i4 i5 β0 β1 β2`.
const SPREAD1: [u8; 64] = index!(|l| (l >> 3) | ((l & 7) << 3));
/// 2-byte elements (lanes `j0 i0 .. i4`) to `i0 i1 i2 i3 i4 j0`.
const GATHER2: [u8; 64] = index!(|l| 2 * (back(l) | (l & 0x18)) + (l >> 5));
/// After the transposition (`β0 β1 β2 i3 i4 j0`), to `i3 i4 β0 β1 β2 j0`.
const SPREAD2: [u8; 64] = index!(|l| ((l >> 2) & 7) | ((l & 3) << 3) | (l & 32));
/// 4-byte elements (lanes `j0 j1 i0 .. i3`) to `i0 i1 i2 i3 j0 j1`.
const GATHER4: [u8; 64] = index!(|l| 4 * (back(l) | (l & 8)) + (l >> 4));
/// 8-byte elements (lanes `j0 j1 j2 i0 i1 i2`) to `i0 i1 i2 j0 j1 j2`.
const GATHER8: [u8; 64] = index!(|l| 8 * back(l) + (l >> 3));
/// 16-byte elements, two registers (`j0 .. j3 i0 i1`, then `i2`) to `i0 i1 i2 j0 j1
/// j2`, bytes 0 to 7; [`GATHER16_HIGH`] bytes 8 to 15.
const GATHER16: [u8; 64] = index!(|l| 16 * back(l) + (l >> 3));
const GATHER16_HIGH: [u8; 64] = index!(|l| 16 * back(l) + (l >> 3) + 8);

/// Stores the four 16-byte quarters of `v` in rows `row(q)` (`q` the quarter) of a
/// batch's rows `out` (`stride` bytes each) at byte `at`.
macro_rules! store_quarters {
    ($t:expr, $v:expr, $out:expr, $stride:expr, $at:expr, $row:expr) => {{
        let v = $v;
        let q = [
            _mm512_castsi512_si128(v),
            _mm512_extracti32x4_epi32::<1>(v),
            _mm512_extracti32x4_epi32::<2>(v),
            _mm512_extracti32x4_epi32::<3>(v),
        ];
        for (k, q) in q.into_iter().enumerate() {
            let at = $stride * $row(k) + $at;
            u8x16::simd_from($t, q).store_slice(&mut $out[at..at + 16]);
        }
    }};
}

/// Bytes of the rows of a batch of tiles, in L1.
pub(super) const BATCH_BYTES: usize = 16 << 10;

/// The tiles of `N`-byte elements of `src`, `body` run on each (`tile` its bytes) with
/// `out` (`buf`) the rows of its batch (`stride` bytes each) and `at` the tile's column in
/// them; each batch's rows then copied to `dst` (rows of `row_len`), whole cache lines
/// of a row one after the other. Written straight from the registers, the quarters of
/// a line come from four groups of registers, and each tile's lines lie in one cache
/// set when rows are a multiple of 4 KiB apart (128 KiB blocks of 4-byte elements):
/// the stores miss and evict each other (2.5 times the time).
macro_rules! batches {
    (
        $t:ident, $n:expr, $src:ident, $buf:ident, $dst:ident, $row_len:ident, $tiles:ident,
        |$tile:ident, $out:ident, $stride:ident, $at:ident| $body:block
    ) => {{
        const K: usize = BATCH_BYTES / (512 * $n);
        let $stride = 64 * K;
        for first in (0..$tiles).step_by(K) {
            let k = K.min($tiles - first);
            for tt in 0..k {
                let $tile = &$src[(first + tt) * $n * TILE..][..$n * TILE];
                let $out = &mut *$buf;
                let $at = 64 * tt;
                $body
            }
            for (r, row) in $buf.chunks_exact($stride).enumerate() {
                let at = r * $row_len + 64 * first;
                let lines = $dst[at..at + 64 * k].chunks_exact_mut(64);
                for (line, from) in lines.zip(row.chunks_exact(64)) {
                    u8x64::from_slice($t, from).store_slice(line);
                }
            }
        }
    }};
}

/// Register `r` of `src` (its 64 bytes from `64 * r`).
macro_rules! load {
    ($t:expr, $src:expr, $r:expr) => {{
        let at = 64 * $r;
        __m512i::from(u8x64::from_slice($t, &$src[at..at + 64]))
    }};
}

/// One unpack level over registers `s` and `s + d` of `v` (`s` without bit `d`): the
/// register bit `d` into the bottom of each element group of `width` bytes, the lane's
/// top bit (of 16 bytes) out to register bit `d`.
macro_rules! unpack {
    ($v:ident, $d:expr, $lo:ident, $hi:ident) => {{
        for s in 0..$v.len() {
            if s & $d == 0 {
                let (a, b) = ($v[s], $v[s + $d]);
                $v[s] = $lo(a, b);
                $v[s + $d] = $hi(a, b);
            }
        }
    }};
}

kernel!(
    /// 1-byte elements: per 2 registers (`i6`; `i7 i8` the group), the quadwords
    /// reversed, transposed, spread (`i3 i4 i5 β0 β1 β2`), one level of quadword
    /// unpacks (`i6` in, `β0` out): quarter `β1 + 2 β2` of register `β0` holds columns
    /// `16 g ..` of row `β`.
    #[inline(always)]
    fn rows1(
        t: Avx512,
        src: &[u8],
        buf: &mut [u8; BATCH_BYTES],
        dst: &mut [u8],
        row_len: usize,
        tiles: usize,
    ) {
        let gather = __m512i::from(u8x64::simd_from(t, GATHER1));
        let spread = __m512i::from(u8x64::simd_from(t, SPREAD1));
        let bits = _mm512_set1_epi64(BITS);
        batches!(
            t,
            1,
            src,
            buf,
            dst,
            row_len,
            tiles,
            |tile, out, stride, at| {
                for g in 0..4 {
                    let mut v: [__m512i; 2] = core::array::from_fn(|s| {
                        let a = _mm512_shuffle_epi8(load!(t, tile, 2 * g + s), gather);
                        let a = _mm512_gf2p8affine_epi64_epi8::<0>(bits, a);
                        _mm512_permutexvar_epi8(spread, a)
                    });
                    unpack!(v, 1, _mm512_unpacklo_epi64, _mm512_unpackhi_epi64);
                    for (s, v) in v.into_iter().enumerate() {
                        store_quarters!(t, v, out, stride, at + 16 * g, |k: usize| s + 2 * k);
                    }
                }
            }
        );
    }
);

kernel!(
    /// 2-byte elements: per 4 registers (`i5 i6`; `i7 i8` the group) gathered,
    /// transposed, spread (`i3 i4 β0 β1 β2 j0`), a level of doubleword unpacks (`i5`
    /// in, `β1` out), one of quadwords (`i6` in, `β0` out): quarter `β2 + 2 j0` of
    /// register `β1 β0` holds columns `16 g ..` of row `8 j0 + β`.
    #[inline(always)]
    fn rows2(
        t: Avx512,
        src: &[u8],
        buf: &mut [u8; BATCH_BYTES],
        dst: &mut [u8],
        row_len: usize,
        tiles: usize,
    ) {
        let gather = __m512i::from(u8x64::simd_from(t, GATHER2));
        let spread = __m512i::from(u8x64::simd_from(t, SPREAD2));
        let bits = _mm512_set1_epi64(BITS);
        batches!(
            t,
            2,
            src,
            buf,
            dst,
            row_len,
            tiles,
            |tile, out, stride, at| {
                for g in 0..4 {
                    let mut v: [__m512i; 4] = core::array::from_fn(|s| {
                        let a = _mm512_permutexvar_epi8(gather, load!(t, tile, 4 * g + s));
                        let a = _mm512_gf2p8affine_epi64_epi8::<0>(bits, a);
                        _mm512_permutexvar_epi8(spread, a)
                    });
                    unpack!(v, 1, _mm512_unpacklo_epi32, _mm512_unpackhi_epi32);
                    unpack!(v, 2, _mm512_unpacklo_epi64, _mm512_unpackhi_epi64);
                    for (s, v) in v.into_iter().enumerate() {
                        let beta = 2 * (s & 1) + (s >> 1);
                        let row = |k: usize| 8 * (k >> 1) + beta + 4 * (k & 1);
                        store_quarters!(t, v, out, stride, at + 16 * g, row);
                    }
                }
            }
        );
    }
);

kernel!(
    /// 4-byte elements: per 8 registers (`i4 i5 i6`; `i7 i8` the group) gathered
    /// (`i0 i1 i2 i3 j0 j1`), transposed (`β0 β1 β2 i3 j0 j1`), four levels of byte
    /// unpacks taking in `i6 i5 i4 i3` and out `i3 β2 β1 β0`: quarter `j` of register
    /// `β1 β2 β0` holds columns `16 g ..` of row `8 j + β`.
    #[inline(always)]
    fn rows4(
        t: Avx512,
        src: &[u8],
        buf: &mut [u8; BATCH_BYTES],
        dst: &mut [u8],
        row_len: usize,
        tiles: usize,
    ) {
        let gather = __m512i::from(u8x64::simd_from(t, GATHER4));
        let bits = _mm512_set1_epi64(BITS);
        batches!(
            t,
            4,
            src,
            buf,
            dst,
            row_len,
            tiles,
            |tile, out, stride, at| {
                for g in 0..4 {
                    let mut v: [__m512i; 8] = core::array::from_fn(|s| {
                        let a = _mm512_permutexvar_epi8(gather, load!(t, tile, 8 * g + s));
                        _mm512_gf2p8affine_epi64_epi8::<0>(bits, a)
                    });
                    unpack!(v, 4, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
                    unpack!(v, 2, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
                    unpack!(v, 1, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
                    unpack!(v, 4, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
                    for (s, v) in v.into_iter().enumerate() {
                        let beta = (s >> 2) + 2 * (s & 1) + 2 * (s & 2);
                        store_quarters!(t, v, out, stride, at + 16 * g, |k: usize| 8 * k + beta);
                    }
                }
            }
        );
    }
);

/// 8-byte elements, 16 registers (`i3 i4 i5 i6`) of one group gathered and transposed
/// (`β0 β1 β2 j0 j1 j2`), through four levels of byte unpacks taking in `i6 i5 i4 i3`
/// and out `j0 β2 β1 β0`: quarter `k` of register `β j0` holds columns `at ..` of row
/// `8 (j0 + 2 k + high) + β`.
macro_rules! unpack_eight {
    ($t:expr, $v:ident, $out:expr, $stride:expr, $at:expr, $high:expr) => {{
        unpack!($v, 8, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
        unpack!($v, 4, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
        unpack!($v, 2, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
        unpack!($v, 1, _mm512_unpacklo_epi8, _mm512_unpackhi_epi8);
        for (s, v) in $v.into_iter().enumerate() {
            let row = |k: usize| 8 * ((s >> 3) + 2 * k + $high) + (s & 7);
            store_quarters!($t, v, $out, $stride, $at, row);
        }
    }};
}

kernel!(
    /// 8-byte elements: per 16 registers (`i3 .. i6`; `i7 i8` the group),
    /// [`unpack_eight`].
    #[inline(always)]
    fn rows8(
        t: Avx512,
        src: &[u8],
        buf: &mut [u8; BATCH_BYTES],
        dst: &mut [u8],
        row_len: usize,
        tiles: usize,
    ) {
        let gather = __m512i::from(u8x64::simd_from(t, GATHER8));
        let bits = _mm512_set1_epi64(BITS);
        batches!(
            t,
            8,
            src,
            buf,
            dst,
            row_len,
            tiles,
            |tile, out, stride, at| {
                for g in 0..4 {
                    let mut v: [__m512i; 16] = core::array::from_fn(|s| {
                        let a = _mm512_permutexvar_epi8(gather, load!(t, tile, 16 * g + s));
                        _mm512_gf2p8affine_epi64_epi8::<0>(bits, a)
                    });
                    unpack_eight!(t, v, out, stride, at + 16 * g, 0);
                }
            }
        );
    }
);

kernel!(
    /// 16-byte elements: per pair of registers (`i2`) the bytes 0 to 7, then 8 to 15,
    /// of their 8 elements gathered from both, as 8-byte elements are from one.
    #[inline(always)]
    fn rows16(
        t: Avx512,
        src: &[u8],
        buf: &mut [u8; BATCH_BYTES],
        dst: &mut [u8],
        row_len: usize,
        tiles: usize,
    ) {
        let gather = [
            __m512i::from(u8x64::simd_from(t, GATHER16)),
            __m512i::from(u8x64::simd_from(t, GATHER16_HIGH)),
        ];
        let bits = _mm512_set1_epi64(BITS);
        batches!(
            t,
            16,
            src,
            buf,
            dst,
            row_len,
            tiles,
            |tile, out, stride, at| {
                for g in 0..4 {
                    for (h, gather) in gather.into_iter().enumerate() {
                        let mut v: [__m512i; 16] = core::array::from_fn(|s| {
                            let r = 2 * (16 * g + s);
                            let (a, b) = (load!(t, tile, r), load!(t, tile, r + 1));
                            let a = _mm512_permutex2var_epi8(a, gather, b);
                            _mm512_gf2p8affine_epi64_epi8::<0>(bits, a)
                        });
                        unpack_eight!(t, v, out, stride, at + 16 * g, 8 * h);
                    }
                }
            }
        );
    }
);
