//! With the `ndarray` feature: a selection's values as an `ndarray::ArrayD`.

use std::format;
use std::vec::Vec;

use ndarray::{ArrayD, IxDyn};

use super::element::Element;
use super::error::ArrayError;
use super::handle::Array;
use super::Selection;

impl Array {
    /// Reads `sel` as [`Array::read`] does, into an `ndarray::ArrayD<T>` of the result's
    /// shape (numpy's shape of `arr[sel]`).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim3_f4.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let plane = array.read_ndarray::<f32>(&"2, ::2".parse()?)?;
    /// assert_eq!(plane.shape(), [3, 5]);
    /// let all = array.read_ndarray::<f32>(&b2nd_meta::array::Selection::all())?;
    /// assert_eq!(plane[[1, 4]].to_bits(), all[[2, 2, 4]].to_bits());
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn read_ndarray<T: Element>(&self, sel: &Selection) -> Result<ArrayD<T>, ArrayError> {
        let values = self.read::<T>(sel)?;
        // Every axis is at most the element count, which fits in memory.
        let shape: Vec<usize> = self.shape_of(sel)?.iter().map(|&n| n as usize).collect();
        ArrayD::from_shape_vec(IxDyn(&shape), values)
            .map_err(|e| ArrayError::layout(format!("the result as an ndarray: {e}")))
    }
}
