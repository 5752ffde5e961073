//! The filters of a chunk's six slots, each in its own module with its forward (applied
//! to a block before its streams are compressed, `pipeline_forward` in C-Blosc2's
//! `blosc/blosc2.c`; with `std`) and its inverse (undone on a decoded block,
//! `pipeline_backward`): [`shuffle`], [`bitshuffle`], [`delta`], [`trunc_prec`] (no
//! inverse: nothing to undo) and [`bytedelta`]. Each forward is the exact inverse of
//! its undoing (and of C's), tested as such. Bytes past the last whole element are
//! copied as they are.
//!
//! Written as plain loops over fixed-size arrays so that the compiler vectorises them;
//! every index is in bounds by construction (slices of exactly the lengths used). The
//! vector kernels of shuffle and bitshuffle, chosen at run time with the `simd`
//! feature, are `vector_shuffle` (forward; the bit-shuffle with AVX-512 is
//! `gfni_bitshuffle`'s), `vector_unshuffle` and `vector_bitunshuffle` (inverses); the
//! plain (un)shuffle of 2, 4, 8 and 16-byte elements is the zip transposition of
//! `transpose`.

pub(super) mod bitshuffle;
pub(super) mod bytedelta;
pub(super) mod delta;
pub(super) mod shuffle;
#[cfg(feature = "std")]
pub(super) mod trunc_prec;

#[cfg(all(feature = "simd", target_arch = "x86_64"))]
mod gfni_bitshuffle;
#[cfg(all(feature = "simd", target_arch = "x86_64"))]
mod gfni_bitunshuffle;
#[cfg(feature = "simd")]
mod lane_plan;
mod transpose;
#[cfg(feature = "simd")]
mod vector_bitunshuffle;
#[cfg(feature = "std")]
mod vector_shuffle;
#[cfg(feature = "simd")]
mod vector_unshuffle;

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

/// Bytes that start a cache line (where a vector's output is written before it is
/// appended: its stores never straddle two lines).
#[cfg_attr(not(feature = "simd"), allow(dead_code))]
#[repr(align(64))]
pub(super) struct Line<const LEN: usize>(pub(super) [u8; LEN]);

/// Inputs of the filters' tests: bytes of a simple formula.
#[cfg(all(test, feature = "std"))]
fn sample(len: usize) -> alloc::vec::Vec<u8> {
    (0..len)
        .map(|i| (i * 7 + i / 5 + (i * i) % 13) as u8)
        .collect()
}

/// The lengths the filters' round trips are tested at.
#[cfg(all(test, feature = "std"))]
const LENS: [usize; 11] = [0, 1, 7, 16, 31, 64, 257, 1000, 4099, 9000, 70_001];
