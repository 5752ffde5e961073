//! [`Shapes`]: an array's shape, chunkshape and blockshape in one integer type, `u64`,
//! for index arithmetic.

use super::any::Meta;
use super::dims::Dims;
use super::validate::{self, Invalid};

/// An array's shape, chunkshape and blockshape as `u64`, checked as C-Blosc2 checks
/// them: the one integer type for index arithmetic, as [`array::Array`]'s accessors
/// give them.
///
/// The metalayer stores the shape as int64 and the chunk and block shapes as int32, so
/// [`Meta::shape`] is a `&[i64]` and [`Meta::chunkshape`] a `&[i32]` (the bytes'
/// widths, which a rewrite in place keeps). [`Meta::shapes`] converts them once, after
/// [`Meta::validate`]'s checks (no negative length, a chunk and a block on every
/// non-empty axis, no overflow of the number of items), so that no index computation
/// casts.
///
/// ```
/// use b2nd_meta::{Meta, MetaB2ndV1};
///
/// let meta = Meta::from(MetaB2ndV1::new([10, 7], [4, 4], [2, 2], "<i4"));
/// let s = meta.shapes()?;
/// assert_eq!((&s.shape[..], &s.chunkshape[..], &s.blockshape[..]), (&[10, 7][..], &[4, 4][..], &[2, 2][..]));
///
/// // Chunks along each axis, without a cast.
/// let grid: Vec<u64> = s.shape.iter().zip(&s.chunkshape).map(|(n, c)| n.div_ceil(*c)).collect();
/// assert_eq!(grid, [3, 2]);
///
/// // What C-Blosc2 refuses is refused, with its reasons.
/// let err = Meta::from(MetaB2ndV1::new([-1], [4], [2], "<i4")).shapes().unwrap_err();
/// assert_eq!(err.to_string(), "axis 0: shape is -1; expected >= 0");
/// # Ok::<(), b2nd_meta::validate::Invalid>(())
/// ```
///
#[cfg_attr(
    feature = "std",
    doc = "",
    doc = "[`array::Array`]: crate::array::Array"
)]
#[cfg_attr(
    not(feature = "std"),
    doc = "",
    doc = "[`array::Array`]: https://docs.rs/b2nd-meta/latest/b2nd_meta/array/struct.Array.html"
)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shapes {
    /// Length of each axis.
    pub shape: Dims<u64>,
    /// Chunk length along each axis.
    pub chunkshape: Dims<u64>,
    /// Block length along each axis.
    pub blockshape: Dims<u64>,
}

impl Shapes {
    /// The three shapes as the metalayer stores them, checked and converted.
    pub fn new(shape: &[i64], chunkshape: &[i32], blockshape: &[i32]) -> Result<Shapes, Invalid> {
        validate::check(shape, chunkshape, blockshape, None)?;
        // Checked: every entry is non-negative, so each conversion is exact.
        let wide = |v: i64| u64::try_from(v).unwrap_or(0);
        Ok(Shapes {
            shape: shape.iter().map(|&v| wide(v)).collect(),
            chunkshape: chunkshape.iter().map(|&v| wide(v.into())).collect(),
            blockshape: blockshape.iter().map(|&v| wide(v.into())).collect(),
        })
    }

    /// Number of dimensions.
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
}

impl Meta {
    /// The shape, chunkshape and blockshape as `u64`, after C-Blosc2's checks: see
    /// [`Shapes`].
    pub fn shapes(&self) -> Result<Shapes, Invalid> {
        Shapes::new(self.shape(), self.chunkshape(), self.blockshape())
    }
}
