//! Bit-unshuffle of 4-byte elements with AVX-512 and GFNI: `gfni_bitshuffle`'s
//! steps undone in reverse order, a tile of 512 elements (64 columns of each bit row)
//! at a time. Each register is put together from 16-byte quarters of four rows (as
//! the forward stored them), the unpacks are undone by two-register byte permutations
//! (even bytes, odd bytes; the last also turns each quadword's rows back to front, as
//! GFNI counts its matrix's rows from the top), one `vgf2p8affineqb` transposes each
//! quadword back into 8 elements' byte, one `vpermb` puts the bytes in element order.
//! The rows of a batch of tiles are first copied into L1, a row at a time. 75 to 44 us a MiB on 32 KiB blocks, 90 to 42 on 128 KiB ones
//! (C: 76 and 112). The same for 8-byte elements (16 registers a group) was no faster
//! than `vector_bitunshuffle`'s pass.

use core::arch::x86_64::*;

use alloc::vec::Vec;

use fearless_simd::{kernel, u8x16, u8x64, Avx512, SimdBase, SimdFrom};

use super::gfni_bitshuffle::{index, BATCH_BYTES, BITS};
use crate::chunk::dest::Dest;

/// Undoes a byte unpack (`unpacklo_epi8(a, b)`, `unpackhi_epi8(a, b)` into `lo`, `hi`):
/// `a` takes the even bytes of each 16 of `lo`, then of `hi`; [`ODD`] `b` the odd ones.
const EVEN: [u8; 64] = index!(|l| (l & 48) + 2 * (l & 7) + 64 * ((l >> 3) & 1));
const ODD: [u8; 64] = index!(|l| (l & 48) + 2 * (l & 7) + 64 * ((l >> 3) & 1) + 1);
/// [`EVEN`] and [`ODD`] with each quadword back to front.
const EVEN_BACK: [u8; 64] = index!(|l| EVEN[l ^ 7]);
const ODD_BACK: [u8; 64] = index!(|l| ODD[l ^ 7]);
/// Element order from lanes `i0 i1 i2 i3 j0 j1` (4-byte elements).
const SCATTER4: [u8; 64] = index!(|l| (l >> 2) | ((l & 3) << 4));

/// The register whose quarter `k` is the 16 bytes of row `row(k)` (rows of `row_len`
/// bytes in `src`) at column `at`.
macro_rules! gather_quarters {
    ($t:expr, $src:expr, $row_len:expr, $at:expr, $row:expr) => {{
        // Written out (no closure: one not inlined is a call per quarter).
        let (a, b, c, d) = ($row(0), $row(1), $row(2), $row(3));
        let quarter = |r: usize| {
            let at = r * $row_len + $at;
            __m128i::from(u8x16::from_slice($t, &$src[at..at + 16]))
        };
        let v = _mm512_castsi128_si512(quarter(a));
        let v = _mm512_inserti32x4::<1>(v, quarter(b));
        let v = _mm512_inserti32x4::<2>(v, quarter(c));
        _mm512_inserti32x4::<3>(v, quarter(d))
    }};
}

/// Undoes one unpack level over registers `s` and `s + d` of `v`.
macro_rules! unzip {
    ($v:ident, $d:expr, $even:expr, $odd:expr) => {{
        for s in 0..$v.len() {
            if s & $d == 0 {
                let (lo, hi) = ($v[s], $v[s + $d]);
                $v[s] = _mm512_permutex2var_epi8(lo, $even, hi);
                $v[s + $d] = _mm512_permutex2var_epi8(lo, $odd, hi);
            }
        }
    }};
}

/// Loads a byte index.
macro_rules! table {
    ($t:expr, $table:expr) => {
        __m512i::from(u8x64::simd_from($t, $table))
    };
}

kernel!(
    /// 4-byte elements: the tile at column `col` of the 32 rows of `src` into `out`
    /// (2 KiB), per group of 8 registers (`gfni_bitshuffle`'s `rows4` backwards).
    #[inline(always)]
    fn tile4(t: Avx512, src: &[u8], row_len: usize, col: usize, out: &mut [u8]) {
        let (even, odd) = (table!(t, EVEN), table!(t, ODD));
        let (even_back, odd_back) = (table!(t, EVEN_BACK), table!(t, ODD_BACK));
        let scatter = table!(t, SCATTER4);
        let bits = _mm512_set1_epi64(BITS);
        for g in 0..4 {
            let mut v = [_mm512_setzero_si512(); 8];
            for (s, v) in v.iter_mut().enumerate() {
                let beta = (s >> 2) + 2 * (s & 1) + 2 * (s & 2);
                *v = gather_quarters!(t, src, row_len, col + 16 * g, |k: usize| 8 * k + beta);
            }
            unzip!(v, 4, even, odd);
            unzip!(v, 1, even, odd);
            unzip!(v, 2, even, odd);
            unzip!(v, 4, even_back, odd_back);
            for (s, v) in v.into_iter().enumerate() {
                let v = _mm512_gf2p8affine_epi64_epi8::<0>(bits, v);
                let v = _mm512_permutexvar_epi8(scatter, v);
                let at = 64 * (8 * g + s);
                u8x64::simd_from(t, v).store_slice(&mut out[at..at + 64]);
            }
        }
    }
);

/// The first `tiles` tiles (64 columns each) of the 32 bit rows of `row_len` bytes in
/// `src` into `dest` (`buf` where it is not on a line), a batch of tiles at a time:
/// the batch's rows first copied into L1 (`scratch`, `stride` bytes each), a row at a
/// time, since each group of registers reads a quarter of each row's line, and a
/// tile's rows share a cache set when `row_len` is a multiple of 4 KiB.
#[inline(always)]
pub(super) fn columns(
    t: Avx512,
    src: &[u8],
    row_len: usize,
    tiles: usize,
    scratch: &mut Vec<u8>,
    dest: &mut Dest<'_>,
    buf: &mut [u8],
) {
    const TILE_BYTES: usize = 2048;
    let most = BATCH_BYTES / TILE_BYTES;
    let stride = 64 * most;
    scratch.resize(BATCH_BYTES + 64, 0);
    let at = scratch.as_ptr().align_offset(64).min(64);
    let rows = &mut scratch[at..at + BATCH_BYTES];
    for first in (0..tiles).step_by(most) {
        let k = most.min(tiles - first);
        for (r, row) in rows.chunks_exact_mut(stride).take(32).enumerate() {
            let from = &src[r * row_len + 64 * first..][..64 * k];
            for (to, from) in row.chunks_exact_mut(64).zip(from.chunks_exact(64)) {
                u8x64::from_slice(t, from).store_slice(to);
            }
        }
        for tt in 0..k {
            let col = 64 * (first + tt);
            let out = dest.window(32 * col, TILE_BYTES, buf, 64);
            tile4(t, rows, stride, 64 * tt, out);
            dest.commit(32 * col, &buf[..TILE_BYTES], 64);
        }
    }
}
