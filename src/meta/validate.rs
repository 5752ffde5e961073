//! What the values of a metalayer mean: semantic checks, separate from decoding.
//!
//! Decoding accepts any well-formed bytes (a negative shape is still an int64); these
//! checks judge whether C-Blosc2 could use them. [`check`] mirrors C-Blosc2 3.3, whose
//! readers crashed on inputs these rules refuse (c-blosc2 #740, #778, #795);
//! [`check_blocks_within_chunks`] is python-blosc2's stricter rule, offered separately.
//!
//! ```
//! use b2nd_meta::validate::{self, Problem};
//!
//! // c-blosc2 #795: a blockshape whose product wraps a 32-bit integer to 0.
//! let err = validate::check(&[65536, 65536], &[65536, 65536], &[65536, 65536], None).unwrap_err();
//! assert!(err.problems().contains(&Problem::ChunkItemsOverflow { axis: 1 }));
//! assert!(err.problems().contains(&Problem::BlockItemsOverflow { axis: 1 }));
//! ```

use alloc::vec::Vec;
use core::fmt;

/// Which of the three shapes a problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `shape`.
    Shape,
    /// `chunkshape`.
    Chunkshape,
    /// `blockshape`.
    Blockshape,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Shape::Shape => "shape",
            Shape::Chunkshape => "chunkshape",
            Shape::Blockshape => "blockshape",
        })
    }
}

/// One reason why C-Blosc2 could not use these values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Problem {
    /// shape, chunkshape and blockshape have different lengths.
    DimensionMismatch {
        /// Entries in shape.
        shape: usize,
        /// Entries in chunkshape.
        chunkshape: usize,
        /// Entries in blockshape.
        blockshape: usize,
    },
    /// More than 16 dimensions.
    TooManyDimensions {
        /// The number of dimensions.
        ndim: usize,
    },
    /// An entry is negative.
    Negative {
        /// Which shape.
        of: Shape,
        /// Which axis.
        axis: usize,
        /// The value.
        value: i64,
    },
    /// An axis of non-zero length has a zero chunk length (c-blosc2 #778).
    ZeroChunk {
        /// Which axis.
        axis: usize,
    },
    /// A zero block length where the chunk length or the axis length is not zero
    /// (c-blosc2 #740, #778).
    ZeroBlock {
        /// Which axis.
        axis: usize,
    },
    /// The number of items (product of shape) exceeds `i64::MAX`; `axis` is where the
    /// running product overflowed.
    ItemsOverflow {
        /// Which axis.
        axis: usize,
    },
    /// The items in a chunk (product of chunkshape) exceed `i32::MAX` (c-blosc2 #795).
    ChunkItemsOverflow {
        /// Which axis.
        axis: usize,
    },
    /// The items in a block (product of blockshape) exceed `i32::MAX` (c-blosc2 #795).
    BlockItemsOverflow {
        /// Which axis.
        axis: usize,
    },
    /// A block's size in bytes (items times typesize) exceeds `i32::MAX`.
    BlockBytesOverflow {
        /// Items in a block.
        block_items: i64,
        /// Bytes per item.
        typesize: u64,
    },
    /// A block is longer than its chunk along an axis (python-blosc2's rule; see
    /// [`check_blocks_within_chunks`]).
    BlockLargerThanChunk {
        /// Which axis.
        axis: usize,
        /// The block length.
        block: i32,
        /// The chunk length.
        chunk: i32,
    },
    /// The dtype's itemsize differs from the frame's typesize.
    ItemsizeMismatch {
        /// The dtype's itemsize.
        itemsize: u64,
        /// The frame's typesize.
        typesize: u64,
    },
}

impl Problem {
    /// The axis the problem is about, if it is about one.
    pub fn axis(&self) -> Option<usize> {
        match *self {
            Problem::Negative { axis, .. }
            | Problem::ZeroChunk { axis }
            | Problem::ZeroBlock { axis }
            | Problem::ItemsOverflow { axis }
            | Problem::ChunkItemsOverflow { axis }
            | Problem::BlockItemsOverflow { axis }
            | Problem::BlockLargerThanChunk { axis, .. } => Some(axis),
            _ => None,
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::DimensionMismatch {
                shape,
                chunkshape,
                blockshape,
            } => write!(
                f,
                "shape, chunkshape and blockshape have {shape}, {chunkshape} and {blockshape} entries; expected one per axis"
            ),
            Problem::TooManyDimensions { ndim } => {
                write!(
                    f,
                    "{ndim} dimensions; expected at most {}",
                    crate::meta::layout::MAX_DIM
                )
            }
            Problem::Negative { of, axis, value } => {
                write!(f, "axis {axis}: {of} is {value}; expected >= 0")
            }
            Problem::ZeroChunk { axis } => {
                write!(f, "axis {axis}: chunkshape is 0 but the axis is not empty")
            }
            Problem::ZeroBlock { axis } => write!(
                f,
                "axis {axis}: blockshape is 0 but the chunk or the axis is not empty"
            ),
            Problem::ItemsOverflow { axis } => {
                write!(f, "axis {axis}: the number of items exceeds i64::MAX")
            }
            Problem::ChunkItemsOverflow { axis } => {
                write!(f, "axis {axis}: the items in a chunk exceed i32::MAX")
            }
            Problem::BlockItemsOverflow { axis } => {
                write!(f, "axis {axis}: the items in a block exceed i32::MAX")
            }
            Problem::BlockBytesOverflow {
                block_items,
                typesize,
            } => write!(
                f,
                "a block of {block_items} items of {typesize} bytes exceeds i32::MAX bytes"
            ),
            Problem::BlockLargerThanChunk { axis, block, chunk } => write!(
                f,
                "axis {axis}: blockshape {block} exceeds chunkshape {chunk}"
            ),
            Problem::ItemsizeMismatch { itemsize, typesize } => write!(
                f,
                "the dtype's itemsize is {itemsize} but the frame's typesize is {typesize}"
            ),
        }
    }
}

/// The problems found, all of them, in the order of the axes. Its `Debug` is its message
/// on one line (as `main` prints it); the alternate form (`{:#?}`) lists the problems.
#[derive(Clone, PartialEq, Eq)]
pub struct Invalid {
    problems: Vec<Problem>,
}

impl Invalid {
    /// Each problem found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            fmt::Display::fmt(problem, f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match f.alternate() {
            true => f
                .debug_struct("Invalid")
                .field("problems", &self.problems)
                .finish(),
            false => fmt::Display::fmt(self, f),
        }
    }
}

impl core::error::Error for Invalid {}

fn verdict(problems: Vec<Problem>) -> Result<(), Invalid> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Invalid { problems })
    }
}

/// C-Blosc2 3.3's rules: all entries >= 0; a non-empty axis needs a non-zero chunk and
/// block; a zero block only with a zero chunk; no overflow of the number of items
/// (int64), of the items in a chunk or a block (int32), or, given `typesize`, of a
/// block's bytes (int32).
///
/// ```
/// use b2nd_meta::validate::{check, Problem};
///
/// assert!(check(&[10, 7], &[4, 4], &[2, 2], Some(8)).is_ok());
/// assert!(check(&[0], &[0], &[0], None).is_ok()); // an empty axis may have empty chunks
///
/// let err = check(&[10], &[0], &[0], None).unwrap_err(); // c-blosc2 #778
/// assert_eq!(err.problems(), [Problem::ZeroChunk { axis: 0 }, Problem::ZeroBlock { axis: 0 }]);
/// ```
pub fn check(
    shape: &[i64],
    chunkshape: &[i32],
    blockshape: &[i32],
    typesize: Option<u64>,
) -> Result<(), Invalid> {
    let mut problems = Vec::new();
    let ndim = shape.len();
    if chunkshape.len() != ndim || blockshape.len() != ndim {
        problems.push(Problem::DimensionMismatch {
            shape: ndim,
            chunkshape: chunkshape.len(),
            blockshape: blockshape.len(),
        });
        return verdict(problems);
    }
    if ndim > crate::meta::layout::MAX_DIM {
        problems.push(Problem::TooManyDimensions { ndim });
    }
    // Running products, as C computes them; `None` once overflowed (reported once).
    let mut items = Some(1i64);
    let mut chunk_items = Some(1i32);
    let mut block_items = Some(1i32);
    for axis in 0..ndim {
        let (s, c, b) = (shape[axis], chunkshape[axis], blockshape[axis]);
        for (of, value) in [
            (Shape::Shape, s),
            (Shape::Chunkshape, c.into()),
            (Shape::Blockshape, b.into()),
        ] {
            if value < 0 {
                problems.push(Problem::Negative { of, axis, value });
            }
        }
        if s != 0 && c == 0 {
            problems.push(Problem::ZeroChunk { axis });
        }
        if b == 0 && (c != 0 || s != 0) {
            problems.push(Problem::ZeroBlock { axis });
        }
        if let Some(p) = items {
            items = p.checked_mul(s);
            if items.is_none() {
                problems.push(Problem::ItemsOverflow { axis });
            }
        }
        if let Some(p) = chunk_items {
            chunk_items = p.checked_mul(c);
            if chunk_items.is_none() {
                problems.push(Problem::ChunkItemsOverflow { axis });
            }
        }
        if let Some(p) = block_items {
            block_items = p.checked_mul(b);
            if block_items.is_none() {
                problems.push(Problem::BlockItemsOverflow { axis });
            }
        }
    }
    if let (Some(block_items), Some(typesize)) = (block_items, typesize) {
        let bytes = u64::try_from(block_items)
            .ok()
            .and_then(|n| n.checked_mul(typesize));
        if bytes.is_none_or(|bytes| bytes > i32::MAX as u64) && block_items > 0 {
            problems.push(Problem::BlockBytesOverflow {
                block_items: block_items.into(),
                typesize,
            });
        }
    }
    verdict(problems)
}

/// python-blosc2's stricter rule: along every axis the block is no longer than the chunk.
///
/// ```
/// use b2nd_meta::validate::{check_blocks_within_chunks, Problem};
///
/// assert!(check_blocks_within_chunks(&[4, 4], &[2, 4]).is_ok());
/// let err = check_blocks_within_chunks(&[4, 4], &[2, 5]).unwrap_err();
/// assert_eq!(err.problems(), [Problem::BlockLargerThanChunk { axis: 1, block: 5, chunk: 4 }]);
/// ```
pub fn check_blocks_within_chunks(chunkshape: &[i32], blockshape: &[i32]) -> Result<(), Invalid> {
    let problems = chunkshape
        .iter()
        .zip(blockshape)
        .enumerate()
        .filter(|(_, (c, b))| b > c)
        .map(|(axis, (&chunk, &block))| Problem::BlockLargerThanChunk { axis, block, chunk })
        .collect();
    verdict(problems)
}

/// Checks the dtype's itemsize against a frame's typesize, and the block's bytes
/// against `i32::MAX`, adding to C-Blosc2's rules: `dtype` is parsed as a NumPy dtype
/// when `dtype_format` is 0; a dtype that does not parse is not judged here.
pub(crate) fn check_with_dtype(
    shape: &[i64],
    chunkshape: &[i32],
    blockshape: &[i32],
    dtype: Option<(u8, &str)>,
    typesize: Option<u64>,
) -> Result<(), Invalid> {
    let itemsize = dtype
        .and_then(|(format, dtype)| crate::meta::dtype_format::parse(format, dtype))
        .and_then(Result::ok)
        .map(|d| d.itemsize());
    check_with_itemsize(shape, chunkshape, blockshape, itemsize, typesize)
}

/// [`check_with_dtype`] for a dtype already parsed: `itemsize` is its itemsize (`None`
/// when there is none, it does not parse or it has another format).
pub(crate) fn check_with_itemsize(
    shape: &[i64],
    chunkshape: &[i32],
    blockshape: &[i32],
    itemsize: Option<u64>,
    typesize: Option<u64>,
) -> Result<(), Invalid> {
    let mut problems = match check(shape, chunkshape, blockshape, typesize.or(itemsize)) {
        Ok(()) => Vec::new(),
        Err(invalid) => invalid.problems,
    };
    if let (Some(itemsize), Some(typesize)) = (itemsize, typesize)
        && itemsize != typesize
    {
        problems.push(Problem::ItemsizeMismatch { itemsize, typesize });
    }
    verdict(problems)
}
