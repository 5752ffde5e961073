//! [`ArrayRw`]: an array changed in place, as python-blosc2 changes a stored array:
//! `arr[sel] = x` ([`ArrayRw::write`]), `arr.resize(shape)` ([`ArrayRw::resize`]) and
//! growing along an axis with new values ([`ArrayRw::append`]).
//!
//! Each call is one commit of the chunks it changes, under C-Blosc2's lock: the chunks
//! it touches are decoded, changed and compressed again with the frame's own parameters,
//! stored where the old frame does not look, and put in place in one step (the frame's
//! in-place edit: a crash leaves the old array or the new one). Filters, user metalayers
//! and vlmeta stay as they are. Cells a resize adds read as zeros, always: a chunk that
//! a resize cuts or grows into is rewritten with every cell outside the kept region
//! zeroed (C-Blosc2 leaves a shrunk chunk's tail, which python then shows again when it
//! grows). A chunk that becomes all zeros is stored as C's special zero chunk.

mod broadcast;
mod chunks;
mod composed;
mod cut;
mod partial;
mod threads;

use std::path::{Path, PathBuf};
use std::string::ToString;
use std::vec::Vec;

use self::broadcast::{Broadcast, Given};
use self::chunks::Chunks;
use self::composed::{Composed, Run};
use super::element::Element;
use super::error::{ArrayError, ArrayErrorKind};
use super::geometry::{each_chunk, resolve, ChunkPlan, Grid, Selection, Span};
use super::handle::{layout_of, Array};
use crate::dtype::{ByteOrder, Dtype};
use crate::frame::edit::FrameEdit;
use crate::frame::{Locking, Source};
use crate::io::{ReadAt, Steps};

/// An array opened for changing its values in place ([`Array::open_rw`]).
///
/// ```
/// use b2nd_meta::array::{Array, Selection};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-rw-doc-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path)?;
///
/// let mut a = Array::open_rw(&path)?;
/// let before: Vec<i32> = a.array().read(&Selection::all())?;
/// a.write(&"2:5".parse()?, &[-1i32, -2, -3])?;      // arr[2:5] = [-1, -2, -3]
/// a.write(&"::10".parse()?, &[7i32])?;              // arr[::10] = 7
/// a.resize(&[31])?;                                 // two more cells, zeros
/// let all: Vec<i32> = a.array().read(&Selection::all())?;
/// assert_eq!(all[..6], [7, before[1], -1, -2, -3, before[5]]);
/// assert_eq!((all[10], all[20]), (7, 7));
/// assert_eq!(all[29..], [0, 0]);
/// a.append(0, &[40i32, 41])?;
/// let tail: Vec<i32> = a.array().read(&"29:".parse()?)?;
/// assert_eq!(tail, [0, 0, 40, 41]);
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ArrayRw {
    path: PathBuf,
    locking: Locking,
    steps: Steps,
    array: Array,
}

impl Array {
    /// Opens the array at `source` (a contiguous frame's file or a sparse frame's
    /// directory) for changing its values, under the source's locking.
    pub fn open_rw(source: impl Into<Source>) -> Result<ArrayRw, ArrayError> {
        let source = source.into();
        let Some(path) = source.as_path().map(Path::to_path_buf) else {
            let why = "an array in memory (open a path)";
            let kind = crate::frame::FrameErrorKind::NotEditable { why };
            return Err(crate::frame::FrameError::new(kind).into());
        };
        let array = Array::open(source.clone())?;
        Ok(ArrayRw {
            path,
            locking: source.locking,
            steps: Steps::of_process(),
            array,
        })
    }
}

/// What one commit changes: the new shape (a resize), and values written.
struct Change<'a> {
    shape: Option<&'a [u64]>,
    write: Option<(&'a Selection, Given<'a>, &'a [u64])>,
}

impl ArrayRw {
    /// The array as the last call left it (reads go through it).
    pub fn array(&self) -> &Array {
        &self.array
    }

    /// `arr[sel] = values`: `values` in C order, as many as the selection takes, or
    /// one (set everywhere). `T` must read the array's dtype ([`Element::accepts`]).
    pub fn write<T: Element>(&mut self, sel: &Selection, values: &[T]) -> Result<(), ArrayError> {
        let shape = match values.len() {
            1 => Vec::new(),
            n => std::vec![n as u64],
        };
        let taken = self.array.shape_of(sel)?;
        let shape = match taken.iter().product::<u64>() == values.len() as u64 {
            true => taken,
            false => shape,
        };
        self.write_shaped(sel, values, &shape)
    }

    /// `arr[sel] = values` where `values` (in C order) has `shape`, broadcast to the
    /// selection's as numpy broadcasts an assignment.
    pub fn write_shaped<T: Element>(
        &mut self,
        sel: &Selection,
        values: &[T],
        shape: &[u64],
    ) -> Result<(), ArrayError> {
        let bytes = self.typed_bytes(values)?;
        self.write_bytes(sel, &bytes, shape)
    }

    /// `arr[sel] = values` from raw bytes: `shape`'s elements in C order, in the array's
    /// dtype (byte order included), broadcast to the selection's shape.
    pub fn write_bytes(
        &mut self,
        sel: &Selection,
        bytes: &[u8],
        shape: &[u64],
    ) -> Result<(), ArrayError> {
        self.commit(Change {
            shape: None,
            write: Some((sel, Given::Bytes(bytes), shape)),
        })
    }

    /// [`ArrayRw::write_bytes`] with the values read from `source` at `offset` on (a
    /// file: an `.npy`'s data), a stretch at a time as they go into chunks: a large
    /// write is never held in memory whole. `shape`'s elements are read, broadcast.
    ///
    /// ```
    /// use b2nd_meta::array::{Array, Selection};
    ///
    /// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    /// let path = std::env::temp_dir().join(format!("b2nd-meta-rw-at-doc-{}.b2nd", std::process::id()));
    /// std::fs::copy(src, &path)?;
    ///
    /// // A 3-byte header, then three little-endian i32.
    /// let input: Vec<u8> = [0u8; 3].into_iter().chain([5i32, 6, 7].iter().flat_map(|v| v.to_le_bytes())).collect();
    /// let mut a = Array::open_rw(&path)?;
    /// a.write_from_at(&"1:4".parse()?, &input, 3, &[3])?;
    /// let head: Vec<i32> = a.array().read(&"1:4".parse()?)?;
    /// assert_eq!(head, [5, 6, 7]);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_from_at<S: ReadAt + Sync>(
        &mut self,
        sel: &Selection,
        source: &S,
        offset: u64,
        shape: &[u64],
    ) -> Result<(), ArrayError> {
        let len = self.values_len(shape)?;
        self.commit(Change {
            shape: None,
            write: Some((
                sel,
                Given::At {
                    source,
                    offset,
                    len,
                },
                shape,
            )),
        })
    }

    /// The bytes of `shape`'s elements, as long as the source holds them.
    fn values_len(&self, shape: &[u64]) -> Result<u64, ArrayError> {
        let count = shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d));
        count
            .and_then(|n| n.checked_mul(self.array.itemsize as u64))
            .ok_or_else(|| {
                ArrayError::selection(None, std::format!("values of shape {shape:?} are too many"))
            })
    }

    /// Changes the shape, any axis growing or shrinking past the chunk grid (python's
    /// `arr.resize`): cells it adds read as zeros.
    pub fn resize(&mut self, shape: &[u64]) -> Result<(), ArrayError> {
        self.commit(Change {
            shape: Some(shape),
            write: None,
        })
    }

    /// Grows the array along `axis` by `values` (in C order; the array's other axes,
    /// and as many rows along `axis` as they make), in one commit.
    pub fn append<T: Element>(&mut self, axis: usize, values: &[T]) -> Result<(), ArrayError> {
        let bytes = self.typed_bytes(values)?;
        self.append_bytes(axis, &bytes)
    }

    /// [`ArrayRw::append`] from raw bytes in the array's dtype.
    pub fn append_bytes(&mut self, axis: usize, bytes: &[u8]) -> Result<(), ArrayError> {
        self.append_given(axis, Given::Bytes(bytes))
    }

    /// [`ArrayRw::append_bytes`] with the `len` bytes of values read from `source` at
    /// `offset` on, a stretch at a time (never held in memory whole).
    ///
    /// ```
    /// use b2nd_meta::array::Array;
    ///
    /// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    /// let path = std::env::temp_dir().join(format!("b2nd-meta-append-at-doc-{}.b2nd", std::process::id()));
    /// std::fs::copy(src, &path)?;
    ///
    /// let input: Vec<u8> = [8i32, 9].iter().flat_map(|v| v.to_le_bytes()).collect();
    /// let mut a = Array::open_rw(&path)?;
    /// let n = a.array().shape()[0] as i64;
    /// a.append_from_at(0, &input, 0, 8)?;
    /// let tail: Vec<i32> = a.array().read(&format!("{n}:").parse()?)?;
    /// assert_eq!(tail, [8, 9]);
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn append_from_at<S: ReadAt + Sync>(
        &mut self,
        axis: usize,
        source: &S,
        offset: u64,
        len: u64,
    ) -> Result<(), ArrayError> {
        self.append_given(
            axis,
            Given::At {
                source,
                offset,
                len,
            },
        )
    }

    fn append_given(&mut self, axis: usize, values: Given<'_>) -> Result<(), ArrayError> {
        let shape = self.array.shape().to_vec();
        if axis >= shape.len() {
            return Err(ArrayError::layout(std::format!(
                "axis {axis} is out of bounds for an array of {} dimensions",
                shape.len()
            )));
        }
        let row: u64 = shape
            .iter()
            .enumerate()
            .filter(|(d, _)| *d != axis)
            .map(|(_, &n)| n)
            .product();
        let row_bytes = row.saturating_mul(self.array.itemsize as u64);
        let given = values.len();
        if row_bytes == 0 || !given.is_multiple_of(row_bytes) {
            return Err(ArrayError::new(ArrayErrorKind::BufferLength {
                expected: row_bytes,
                found: given,
            }));
        }
        let added = given / row_bytes;
        let mut grown = shape.clone();
        grown[axis] += added;
        let mut values_shape = shape;
        values_shape[axis] = added;
        let sel = Selection::new((0..grown.len()).map(|d| match d == axis {
            true => super::geometry::Index::from(grown[d] as i64 - added as i64..grown[d] as i64),
            false => super::geometry::Index::from(..),
        }));
        self.commit(Change {
            shape: Some(&grown),
            write: Some((&sel, values, &values_shape)),
        })
    }

    fn typed_bytes<T: Element>(&self, values: &[T]) -> Result<Vec<u8>, ArrayError> {
        let dtype: &Dtype = self.array.dtype();
        if !T::accepts(dtype) {
            return Err(ArrayError::new(ArrayErrorKind::TypeMismatch {
                requested: T::NAME,
                dtype: dtype.to_string(),
            }));
        }
        let big = dtype.byte_order() == ByteOrder::Big;
        let itemsize = self.array.itemsize;
        let mut bytes = std::vec![0u8; values.len() * itemsize];
        for (v, out) in values.iter().zip(bytes.chunks_exact_mut(itemsize)) {
            v.to_bytes(out, big);
        }
        Ok(bytes)
    }

    /// One commit: the frame opened under its locks, the change decided from what it
    /// holds now, the chunks changed, the new frame put in place; then read again.
    fn commit(&mut self, change: Change<'_>) -> Result<(), ArrayError> {
        let label = self.path.clone();
        let fail = |e: ArrayError| e.in_file(&label);
        let edit = FrameEdit::open(&self.path, self.locking, self.steps.clone())
            .map_err(|e| fail(e.into()))?;
        let (grid, _) = layout_of(&edit.header).map_err(fail)?;
        let mut chunks = Chunks::new(edit, &grid, self.array.threads()).map_err(fail)?;
        let grid = match change.shape {
            Some(shape) => chunks.resize(shape).map_err(fail)?,
            None => grid,
        };
        let values = match change.write {
            Some((sel, given, shape)) => {
                Some(write_into(&mut chunks, &grid, sel, given, shape).map_err(fail)?)
            }
            None => None,
        };
        chunks
            .commit(&grid, change.shape.is_some(), values.as_ref())
            .map_err(fail)?;
        let source = Source::path(&self.path).locking(self.locking);
        self.array = Array::open(source)?.with_threads(self.array.threads());
        Ok(())
    }
}

/// Whether the selection's positions `chosen` cover every cell of their chunk in the
/// array (unit steps, as many positions as the chunk has cells there): its old values
/// need not be decoded.
fn covers_chunk(grid: &Grid, resolved: &super::geometry::Resolved, chosen: &[Span]) -> bool {
    chosen.iter().enumerate().all(|(d, span)| {
        let size = grid.chunkshape[d];
        let start = span.chunk.saturating_mul(size);
        let cells = grid.shape[d].saturating_sub(start).min(size);
        let positions = span.last.saturating_sub(span.first) + 1;
        resolved.axes[d].step.unsigned_abs() == 1 && positions == cells
    })
}

/// Writes `bytes` (of `shape`, broadcast) into the chunks `sel` touches: a chunk it
/// covers, or one of zeros, is composed from the values at the commit (which the
/// returned values are for); the others are changed now.
fn write_into<'a>(
    chunks: &mut Chunks,
    grid: &Grid,
    sel: &Selection,
    given: Given<'a>,
    shape: &[u64],
) -> Result<Broadcast<'a>, ArrayError> {
    let resolved = resolve(sel, &grid.shape)?;
    let itemsize = chunks.itemsize();
    let values = Broadcast::new(shape, &resolved.shape, given, itemsize)?;
    let strides = resolved.out_strides();
    let spans = grid.selection_spans(&resolved);
    let mut touched: Vec<Vec<Span>> = Vec::new();
    each_chunk(&spans, |chosen| touched.push(chosen.to_vec()));
    let mut plan = ChunkPlan::default();
    let mut mask = Vec::new();
    for chosen in &touched {
        let coords: Vec<u64> = chosen.iter().map(|s| s.chunk).collect();
        let n = grid.chunk_number(&coords);
        plan.fill(grid, &resolved, &strides, chosen);
        let covers = covers_chunk(grid, &resolved, chosen);
        if covers || chunks.is_zeros(n)? {
            let mut runs = Vec::new();
            plan.each_run(|src, out, len| runs.push(Run { src, out, len }));
            if let Some(composed) = Composed::new(runs, grid.chunk_items) {
                chunks.compose(n, composed)?;
                continue;
            }
        }
        let chunk = match covers {
            true => chunks.overwrite(n)?,
            false => {
                plan.block_mask(grid, &mut mask);
                chunks.blocks_mut(n, &mask)?
            }
        };
        let mut copied = Ok(());
        plan.each_run(|src, out, len| {
            if copied.is_ok() {
                let dst = &mut chunk[src * itemsize..(src + len) * itemsize];
                copied = values.copy(out, len, dst);
            }
        });
        copied?;
    }
    Ok(values)
}
