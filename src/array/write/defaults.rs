//! The chunk and block shapes python-blosc2 4.14.1 chooses for a new array when it is
//! given none (`compute_chunks_blocks`, `compute_partition`, `get_chunksize` in
//! `blosc2/core.py`, `nearest_divisor` in `blosc2_ext.pyx`), for the codecs and filters
//! this crate writes (the ZFP, NDLZ, NDCELL and NDMEAN ones go through C's tuner instead).
//!
//! python sizes blocks and chunks by the machine's caches (py-cpuinfo's sizes): the
//! same shape gets other chunks on another machine, so the caches are a parameter.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt::{self, Display};

/// The largest block (`blosc2.MAX_BLOCKSIZE`).
const MAX_BLOCKSIZE: u64 = crate::chunk::MAX_BLOCKSIZE as u64;
/// The largest chunk (`blosc2.MAX_BUFFERSIZE`).
const MAX_BUFFERSIZE: u64 = crate::chunk::MAX_BUFFERSIZE as u64;

/// What python-blosc2 knows of the machine: its kind and cache sizes in bytes (`None`
/// where py-cpuinfo reports none, or not a number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caches {
    /// The processor family the block heuristic is tuned for.
    pub platform: Platform,
    /// `l1_data_cache_size`.
    pub l1_data: Option<u64>,
    /// `l2_cache_size`.
    pub l2: Option<u64>,
    /// `l3_cache_size`.
    pub l3: Option<u64>,
}

/// The processor family of [`Caches`] (`platform.machine()` / `platform.system()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// `x86_64` (Intel and AMD).
    X86_64,
    /// Apple silicon (macOS on arm).
    AppleArm,
    /// Anything else (Linux on arm, ...).
    Other,
}

/// Shapes python-blosc2 refuses (its `ValueError`s). Its `Debug` is its message, on one
/// line (as `main` prints it).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DefaultsError {
    /// Chunks or blocks of another number of dimensions than the shape.
    Dimensions {
        /// "chunks" or "blocks".
        what: &'static str,
        /// Their number of dimensions.
        found: usize,
        /// The shape's.
        expected: usize,
    },
    /// A chunk or block dimension of 0 where the shape's is not.
    Zero {
        /// "chunks" or "blocks".
        what: &'static str,
        /// The axis.
        axis: usize,
    },
    /// A block dimension larger than the chunk's.
    BlockOverChunk {
        /// The axis.
        axis: usize,
    },
    /// A block of more than `MAX_BLOCKSIZE` bytes.
    BlockTooLarge {
        /// Its bytes.
        blocksize: u64,
    },
    /// Chunks given with a 0 dimension, or an item size of 0.
    Empty,
}

impl Display for DefaultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefaultsError::Dimensions {
                what,
                found,
                expected,
            } => write!(
                f,
                "{what} should have as many dimensions as the shape ({expected}), found {found}"
            ),
            DefaultsError::Zero { what, axis } => {
                write!(
                    f,
                    "{what} cannot be 0 on axis {axis}, where the shape is not"
                )
            }
            DefaultsError::BlockOverChunk { axis } => {
                write!(f, "blocks cannot be greater than chunks (axis {axis})")
            }
            DefaultsError::BlockTooLarge { blocksize } => write!(
                f,
                "a block of {blocksize} bytes exceeds the largest, {MAX_BLOCKSIZE}"
            ),
            DefaultsError::Empty => f.write_str("zero-sized partitions are not supported"),
        }
    }
}

impl core::error::Error for DefaultsError {}

crate::located::debug_as_display!(DefaultsError);

fn check(what: &'static str, dims: &[u64], shape: &[u64]) -> Result<(), DefaultsError> {
    if dims.len() != shape.len() {
        return Err(DefaultsError::Dimensions {
            what,
            found: dims.len(),
            expected: shape.len(),
        });
    }
    match dims.iter().zip(shape).position(|(&d, &s)| d == 0 && s != 0) {
        Some(axis) => Err(DefaultsError::Zero { what, axis }),
        None => Ok(()),
    }
}

/// The chunk and block shapes python-blosc2 4.14.1 gives an array of `shape` and
/// `itemsize`-byte items on a machine with `caches`, completing the ones given.
///
/// ```
/// use b2nd_meta::array::write::{chunks_and_blocks, Caches, Platform};
/// // This machine's caches, as python-blosc2 reads them.
/// let caches = Caches {
///     platform: Platform::X86_64,
///     l1_data: Some(48 << 10),
///     l2: Some(2 << 20),
///     l3: Some(300 << 20),
/// };
/// let (chunks, blocks) = chunks_and_blocks(&[1000, 1000], 8, None, None, &caches)?;
/// assert_eq!((chunks, blocks), (vec![1000, 1000], vec![20, 1000]));
/// # Ok::<(), b2nd_meta::array::write::DefaultsError>(())
/// ```
pub fn chunks_and_blocks(
    shape: &[u64],
    itemsize: u64,
    chunks: Option<&[u64]>,
    blocks: Option<&[u64]>,
    caches: &Caches,
) -> Result<(Vec<u64>, Vec<u64>), DefaultsError> {
    if shape.contains(&0) && chunks.is_none() && blocks.is_none() {
        return Ok((shape.to_vec(), shape.to_vec()));
    }
    if itemsize == 0 {
        return Err(DefaultsError::Empty);
    }
    if let Some(b) = blocks {
        check("blocks", b, shape)?;
    }
    if let Some(c) = chunks {
        check("chunks", c, shape)?;
    }
    if let (Some(c), Some(b)) = (chunks, blocks) {
        if let Some(axis) = b.iter().zip(c).position(|(b, c)| b > c) {
            return Err(DefaultsError::BlockOverChunk { axis });
        }
        return Ok((c.to_vec(), b.to_vec()));
    }
    let blocksize = match blocks {
        Some(b) => b.iter().product::<u64>() * itemsize,
        None => default_blocksize(itemsize, caches),
    };
    if blocksize > MAX_BLOCKSIZE {
        return Err(DefaultsError::BlockTooLarge { blocksize });
    }
    // python recomputes the blocks from their size even when it was given them.
    let blocks = partition(blocksize / itemsize, chunks.unwrap_or(shape), None)?;
    if let Some(c) = chunks {
        return Ok((c.to_vec(), blocks));
    }
    let blocksize = blocks.iter().product::<u64>() * itemsize;
    let mut chunksize = chunksize(blocksize, caches);
    chunksize = chunksize / blocksize * blocksize;
    let chunks = partition(chunksize / itemsize, shape, Some(&blocks))?;
    // Each chunk dimension a multiple of the block's, but not beyond the shape.
    let chunks = shape
        .iter()
        .zip(&chunks)
        .zip(&blocks)
        .map(|((&s, &c), &b)| s.min(c.div_ceil(b) * b))
        .collect();
    Ok((chunks, blocks))
}

/// The block size when none is given: 32 KiB, at least a share of the caches
/// (`x86_64`: a quarter of L2, or 4 L1s when L2 has 2 MiB or more; Apple silicon and
/// others: one L1), at least one item.
fn default_blocksize(itemsize: u64, caches: &Caches) -> u64 {
    let mut blocksize = 32 << 10;
    let min = match caches.platform {
        Platform::X86_64 => match (caches.l1_data, caches.l2) {
            (Some(l1), Some(l2)) if l2 >= 2 << 20 => l1 * 4,
            (_, Some(l2)) => l2 / 4,
            _ => blocksize,
        },
        Platform::AppleArm | Platform::Other => caches.l1_data.unwrap_or(blocksize),
    };
    blocksize = blocksize.max(min);
    blocksize.max(itemsize)
}

/// `get_chunksize` with python's reduction factor 4: 32 blocks (below 64 MiB), or a
/// quarter of L3 when it is larger than L2, at least a quarter of L2 and 4 MiB.
fn chunksize(blocksize: u64, caches: &Caches) -> u64 {
    const REDUCTION: u64 = 4;
    let mut chunksize = blocksize;
    if blocksize * 32 < 1 << 26 {
        chunksize = blocksize * 32;
    }
    if let Some(l3) = caches.l3.filter(|&l3| l3 > 0) {
        if caches.l2.is_some_and(|l2| l3 > l2) {
            chunksize = l3;
        }
        chunksize /= REDUCTION;
    }
    if let Some(l2) = caches.l2.filter(|&l2| l2 > chunksize) {
        chunksize = match caches.platform {
            Platform::AppleArm => l2,
            _ => (l2 / REDUCTION).max(chunksize),
        };
    }
    chunksize.clamp(4 << 20, MAX_BUFFERSIZE).max(blocksize)
}

/// `compute_partition`: `nitems` spread over the axes from the last, each axis at most
/// its size (at least `minpart`'s), snapped to a divisor of the size where one is near.
fn partition(
    nitems: u64,
    maxshape: &[u64],
    minpart: Option<&[u64]>,
) -> Result<Vec<u64>, DefaultsError> {
    if maxshape.contains(&0) || nitems == 0 {
        return Err(DefaultsError::Empty);
    }
    let mut left = nitems;
    let mut out = vec![1; maxshape.len()];
    for axis in (0..maxshape.len()).rev() {
        if left <= 1 {
            break;
        }
        let size = maxshape[axis];
        let min = minpart.map_or(1, |m| m[axis]);
        let mut rsize = size.max(min);
        if rsize <= left {
            if !size.is_multiple_of(rsize) {
                rsize = nearest_divisor(size, rsize, false);
            }
        } else {
            rsize = left.max(min);
            let snapped = if size.is_multiple_of(rsize) {
                rsize
            } else {
                nearest_divisor(size, rsize, true)
            };
            if rsize / 2 < snapped && snapped < rsize * 2 {
                rsize = snapped;
            }
        }
        out[axis] = rsize;
        left /= rsize;
    }
    Ok(out)
}

/// The divisor of `a` closest to `b` (`nearest_divisor`): above 100,000 or `strict`, the
/// first one at or below `b`; else the closest of all, the smaller on a tie.
fn nearest_divisor(a: u64, b: u64, strict: bool) -> u64 {
    if a > 100_000 || strict {
        return (1..=b).rev().find(|&i| a.is_multiple_of(i)).unwrap_or(1);
    }
    let mut closest = 1;
    let mut min_diff = a;
    let mut i = 1;
    while i * i <= a {
        if a.is_multiple_of(i) {
            for d in [i, a / i] {
                if d.abs_diff(b) < min_diff {
                    min_diff = d.abs_diff(b);
                    closest = d;
                }
            }
        }
        i += 1;
    }
    closest
}
