//! [`Selection`]: numpy's basic indexing, as written inside python's brackets
//! (`arr[2:8, ::3]`) or built in Rust, before it meets an array's shape.

use core::fmt;
use core::ops::{Range, RangeFrom, RangeFull, RangeTo};
use std::vec::Vec;

/// One item of a [`Selection`]: what python accepts between two commas of a basic index.
///
/// ```
/// use b2nd_meta::array::Index;
///
/// assert_eq!(Index::from(-1), Index::Int(-1));
/// assert_eq!(Index::from(2..8), Index::Slice { start: Some(2), stop: Some(8), step: None });
/// assert_eq!(Index::from(..), Index::full());
/// assert_eq!(Index::slice(None, None, Some(-1)).to_string(), "::-1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Index {
    /// One position of an axis (negative counts from the end); the axis is dropped.
    Int(i64),
    /// `start:stop:step`, each part optional; bounds outside the axis are clipped as
    /// python's `slice.indices` clips them, a step of 0 is refused.
    Slice {
        /// First position (default: the start, or the end for a negative step).
        start: Option<i64>,
        /// Position not reached (default: past the end, or before the start).
        stop: Option<i64>,
        /// Distance between positions (default 1; negative runs backwards).
        step: Option<i64>,
    },
    /// `...`: as many `:` as the axes not otherwise indexed.
    Ellipsis,
    /// `None` (`np.newaxis`): a new axis of length 1.
    NewAxis,
}

impl Index {
    /// `start:stop:step`.
    pub const fn slice(start: Option<i64>, stop: Option<i64>, step: Option<i64>) -> Index {
        Index::Slice { start, stop, step }
    }

    /// `:`, the whole axis.
    pub const fn full() -> Index {
        Index::slice(None, None, None)
    }
}

impl From<i64> for Index {
    fn from(i: i64) -> Index {
        Index::Int(i)
    }
}

impl From<Range<i64>> for Index {
    fn from(r: Range<i64>) -> Index {
        Index::slice(Some(r.start), Some(r.end), None)
    }
}

impl From<RangeFrom<i64>> for Index {
    fn from(r: RangeFrom<i64>) -> Index {
        Index::slice(Some(r.start), None, None)
    }
}

impl From<RangeTo<i64>> for Index {
    fn from(r: RangeTo<i64>) -> Index {
        Index::slice(None, Some(r.end), None)
    }
}

impl From<RangeFull> for Index {
    fn from(_: RangeFull) -> Index {
        Index::full()
    }
}

impl fmt::Display for Index {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |f: &mut fmt::Formatter<'_>, v: Option<i64>| match v {
            Some(v) => write!(f, "{v}"),
            None => Ok(()),
        };
        match *self {
            Index::Int(i) => write!(f, "{i}"),
            Index::Slice { start, stop, step } => {
                part(f, start)?;
                f.write_str(":")?;
                part(f, stop)?;
                if let Some(step) = step {
                    write!(f, ":{step}")?;
                }
                Ok(())
            }
            Index::Ellipsis => f.write_str("..."),
            Index::NewAxis => f.write_str("None"),
        }
    }
}

/// A basic numpy index: the items between python's brackets, in order. An empty
/// selection (`()`) and `...` both select the whole array.
///
/// Parsed from python's syntax ([`Selection::parse`], or `str::parse`) and printed back
/// in it; built from Rust with [`Selection::new`] or from an array of items.
///
/// ```
/// use b2nd_meta::array::{Index, Selection};
///
/// let sel: Selection = "2:8, ::3".parse()?;
/// assert_eq!(sel, Selection::from([Index::from(2..8), Index::slice(None, None, Some(3))]));
/// assert_eq!(sel.to_string(), "2:8, ::3");
/// assert_eq!(Selection::parse("..., 0")?.items(), [Index::Ellipsis, Index::Int(0)]);
/// # Ok::<(), b2nd_meta::array::ArrayError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Selection {
    items: Vec<Index>,
}

impl Selection {
    /// The selection of these items, in order.
    pub fn new(items: impl IntoIterator<Item = Index>) -> Selection {
        Selection {
            items: items.into_iter().collect(),
        }
    }

    /// The whole array (`...`).
    ///
    /// ```
    /// assert_eq!(b2nd_meta::array::Selection::all().to_string(), "...");
    /// ```
    pub fn all() -> Selection {
        Selection::new([Index::Ellipsis])
    }

    /// The items, in order.
    pub fn items(&self) -> &[Index] {
        &self.items
    }

    /// This selection with `item` appended.
    ///
    /// ```
    /// use b2nd_meta::array::{Index, Selection};
    /// assert_eq!(Selection::default().and(5).and(..).to_string(), "5, :");
    /// ```
    pub fn and(mut self, item: impl Into<Index>) -> Selection {
        self.items.push(item.into());
        self
    }
}

impl<const N: usize> From<[Index; N]> for Selection {
    fn from(items: [Index; N]) -> Selection {
        Selection::new(items)
    }
}

impl From<Vec<Index>> for Selection {
    fn from(items: Vec<Index>) -> Selection {
        Selection { items }
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.items.is_empty() {
            return f.write_str("()");
        }
        for (i, item) in self.items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    }
}
