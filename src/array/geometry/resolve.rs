//! A [`Selection`] met with a shape, as numpy resolves a basic index: per array axis
//! the positions taken (an arithmetic progression within the axis), and the shape of
//! the result.

use std::format;
use std::vec::Vec;

use super::selection::{Index, Selection};
use crate::array::error::ArrayError;

/// The positions one array axis contributes: `start`, `start + step`, ... (`count` of
/// them, every one inside the axis). `kept` is false for an integer index, whose axis
/// the result drops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AxisRange {
    pub(crate) start: u64,
    pub(crate) step: i64,
    pub(crate) count: u64,
    pub(crate) kept: bool,
}

impl AxisRange {
    /// The whole axis of length `len`.
    pub(crate) fn full(len: u64) -> AxisRange {
        AxisRange {
            start: 0,
            step: 1,
            count: len,
            kept: true,
        }
    }

    /// The `k`-th position (`k < count`).
    pub(crate) fn position(&self, k: u64) -> u64 {
        (i128::from(self.start) + i128::from(k) * i128::from(self.step)) as u64
    }
}

/// A selection resolved against a shape: one [`AxisRange`] per array axis, and the
/// shape of the result (kept axes in order, with the new axes of `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub(crate) axes: Vec<AxisRange>,
    pub(crate) shape: Vec<u64>,
}

impl Resolved {
    /// How many elements the result holds.
    pub(crate) fn len(&self) -> u128 {
        self.axes.iter().map(|a| u128::from(a.count)).product()
    }

    /// Elements between consecutive output positions of each array axis, the result in
    /// C order (0 for a dropped axis, which has one position).
    pub(crate) fn out_strides(&self) -> Vec<usize> {
        let mut strides = std::vec![0usize; self.axes.len()];
        let mut stride = 1usize;
        for (d, axis) in self.axes.iter().enumerate().rev() {
            if axis.kept {
                strides[d] = stride;
                stride = stride.saturating_mul(axis.count as usize);
            }
        }
        strides
    }
}

/// Resolves `sel` against `shape` as numpy does, with numpy's messages for what it
/// refuses.
pub(crate) fn resolve(sel: &Selection, shape: &[u64]) -> Result<Resolved, ArrayError> {
    let items = sel.items();
    let ndim = shape.len();
    let consumed = items
        .iter()
        .filter(|i| matches!(i, Index::Int(_) | Index::Slice { .. }))
        .count();
    if items.iter().filter(|i| **i == Index::Ellipsis).count() > 1 {
        return Err(ArrayError::selection(
            None,
            "an index can only have a single ellipsis ('...')".into(),
        ));
    }
    if consumed > ndim {
        return Err(ArrayError::selection(
            None,
            format!(
                "too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
            ),
        ));
    }
    let mut out = Resolved {
        axes: Vec::with_capacity(ndim),
        shape: Vec::with_capacity(ndim + items.len()),
    };
    let implicit = (!items.contains(&Index::Ellipsis)).then_some(Index::Ellipsis);
    for item in items.iter().chain(implicit.iter()) {
        let axis = out.axes.len();
        match *item {
            Index::Int(i) => out.axes.push(integer(i, axis, shape[axis])?),
            Index::Slice { start, stop, step } => {
                let range = slice(start, stop, step, axis, shape[axis])?;
                out.shape.push(range.count);
                out.axes.push(range);
            }
            Index::Ellipsis => {
                for &len in &shape[axis..axis + (ndim - consumed)] {
                    out.shape.push(len);
                    out.axes.push(AxisRange::full(len));
                }
            }
            Index::NewAxis => out.shape.push(1),
        }
    }
    Ok(out)
}

fn integer(i: i64, axis: usize, len: u64) -> Result<AxisRange, ArrayError> {
    let at = if i < 0 {
        i128::from(i) + i128::from(len)
    } else {
        i128::from(i)
    };
    if at < 0 || at >= i128::from(len) {
        return Err(ArrayError::selection(
            Some(axis),
            format!("index {i} is out of bounds for axis {axis} with size {len}"),
        ));
    }
    Ok(AxisRange {
        start: at as u64,
        step: 1,
        count: 1,
        kept: false,
    })
}

/// python's `slice(start, stop, step).indices(len)` and the count of positions
/// (CPython's `PySlice_AdjustIndices`).
fn slice(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    axis: usize,
    len: u64,
) -> Result<AxisRange, ArrayError> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(ArrayError::selection(
            Some(axis),
            format!("slice step cannot be zero (axis {axis})"),
        ));
    }
    let n = i128::from(len);
    let back = step < 0;
    let clip = |v: Option<i64>, default: i128| -> i128 {
        let Some(v) = v else { return default };
        let v = i128::from(v);
        if v < 0 {
            let v = v + n;
            if v < 0 {
                if back {
                    -1
                } else {
                    0
                }
            } else {
                v
            }
        } else if v >= n {
            if back {
                n - 1
            } else {
                n
            }
        } else {
            v
        }
    };
    let (first, end) = if back {
        (clip(start, n - 1), clip(stop, -1))
    } else {
        (clip(start, 0), clip(stop, n))
    };
    let s = i128::from(step);
    let count = match back {
        true if end < first => (first - end - 1) / -s + 1,
        false if first < end => (end - first - 1) / s + 1,
        _ => 0,
    };
    Ok(AxisRange {
        start: if count > 0 { first as u64 } else { 0 },
        step,
        count: count as u64,
        kept: true,
    })
}
