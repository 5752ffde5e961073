//! With the `ndarray` feature: a selection's values as an `ndarray::ArrayD`, and a new
//! array written from an `ndarray` array.

use std::format;
use std::vec::Vec;

use std::path::Path;

use ndarray::{ArrayBase, ArrayD, Data, Dimension, IxDyn};

use super::element::Element;
use super::error::{ArrayError, ArrayErrorKind};
use super::handle::Array;
use super::write::NewArray;
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

impl NewArray {
    /// Writes the array at `path` from `values`, an `ndarray` array of any layout (a
    /// transposed or sliced view too), in its logical C order, converted to the dtype's
    /// byte order, as [`NewArray::write_typed`] writes a slice: the counterpart of
    /// [`Array::read_ndarray`]. `values` must have the new array's shape, and `T` read
    /// its dtype.
    ///
    /// ```
    /// use b2nd_meta::array::write::NewArray;
    /// use b2nd_meta::array::{Array, Selection};
    ///
    /// let path = std::env::temp_dir().join(format!("b2nd-meta-nd-doc-{}.b2nd", std::process::id()));
    /// let x = ndarray::Array::from_shape_fn((3, 4), |(i, j)| (10 * i + j) as i32);
    /// // The transpose, a 4x3 view whose memory is not in C order.
    /// NewArray::new(&[4, 3], "<i4")?.overwrite(true).write_ndarray(&path, &x.t())?;
    /// let back = Array::open(&path)?.read_ndarray::<i32>(&Selection::all())?;
    /// assert_eq!(back, x.t().into_dyn());
    ///
    /// // Another shape is refused.
    /// assert!(NewArray::new(&[3, 4], "<i4")?.overwrite(true).write_ndarray(&path, &x.t()).is_err());
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_ndarray<T, S, D>(
        &self,
        path: impl AsRef<Path>,
        values: &ArrayBase<S, D>,
    ) -> Result<(), ArrayError>
    where
        T: Element,
        S: Data<Elem = T>,
        D: Dimension,
    {
        let same = values.ndim() == self.shape.len()
            && values
                .shape()
                .iter()
                .zip(&self.shape)
                .all(|(&n, &m)| n as u64 == m);
        if !same {
            return Err(ArrayError::new(ArrayErrorKind::Unwritable {
                what: "the ndarray's shape",
                expected: "the new array's shape",
                found: format!("{:?} for {:?}", values.shape(), self.shape),
            }));
        }
        let values = values.as_standard_layout();
        match values.as_slice() {
            Some(values) => self.write_typed(path, values),
            // Unreachable: a standard layout is one slice in C order.
            None => self.write_typed(path, &values.iter().copied().collect::<Vec<T>>()),
        }
    }
}
