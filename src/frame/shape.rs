//! Why a shape change is refused ([`ShapeChangeRefusal`]).

use std::fmt;

use crate::meta::validate::Invalid;

/// Why [`set_shape`](super::set_shape) refused a new shape.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeChangeRefusal {
    /// The number of dimensions would change, and with it the metalayer's length.
    Ndim {
        /// Dimensions now.
        from: usize,
        /// Dimensions asked for.
        to: usize,
    },
    /// A length in the new shape is above `i64::MAX`, the metalayer's largest.
    TooLong {
        /// The axis.
        axis: usize,
        /// The length asked for.
        len: u64,
    },
    /// The number of chunks along an axis would change: the chunks and the chunk
    /// offsets index would have to be rewritten, which this crate does not do.
    ChunkGrid {
        /// The axis.
        axis: usize,
        /// Chunks along it now.
        from: i64,
        /// Chunks along it with the new shape.
        to: i64,
    },
    /// The new shape breaks C-Blosc2's rules.
    Invalid(Invalid),
}

impl std::error::Error for ShapeChangeRefusal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ShapeChangeRefusal::Invalid(invalid) => Some(invalid),
            _ => None,
        }
    }
}

impl fmt::Display for ShapeChangeRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeChangeRefusal::Ndim { from, to } => write!(
                f,
                "the array has {from} dimensions, the new shape {to}; \
                 that would change the metalayer's length"
            ),
            ShapeChangeRefusal::ChunkGrid { axis, from, to } => write!(
                f,
                "axis {axis} would go from {from} to {to} chunks, but the chunks on disk are \
                 not rewritten; only changes within the same chunk grid are possible"
            ),
            ShapeChangeRefusal::TooLong { axis, len } => write!(
                f,
                "the new length of axis {axis} is {len}; lengths are at most i64::MAX \
                 ({}), what the metalayer stores",
                i64::MAX
            ),
            ShapeChangeRefusal::Invalid(invalid) => write!(f, "invalid new shape: {invalid}"),
        }
    }
}
