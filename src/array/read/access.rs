//! [`Array`]'s reads: a selection's shape, its values into a caller's buffer or a new
//! vector (raw bytes or typed), row by row, and which chunks and blocks it touches.

use std::string::ToString;
use std::vec::Vec;

use super::reader::Reader;
use super::sink::{Raw, Sink, Typed};
use crate::array::element::Element;
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::array::geometry::{resolve, touched, Resolved, Selection, Touched};
use crate::array::handle::Array;

/// About the most bytes [`Array::read_rows`] reads at once.
const ROWS_CAP: usize = 16 << 20;

impl Array {
    /// The shape of the result of `sel` (numpy's: integers drop their axis, `None` adds
    /// one of length 1).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim3_f4.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// assert_eq!(array.shape(), [7, 6, 5]);
    /// assert_eq!(array.shape_of(&"1, None, ::2, -100:100".parse()?)?, [1, 3, 5]);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn shape_of(&self, sel: &Selection) -> Result<Vec<u64>, ArrayError> {
        Ok(resolve(sel, self.shape())?.shape)
    }

    /// Reads `sel` into `out`, in C order, each element's bytes as stored (the file's
    /// byte order): `out` must hold exactly the selection (its element count times
    /// [`Array::itemsize`] bytes). Nothing is allocated but each thread's scratch.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/dtype_S5.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let mut out = [0u8; 2 * 5];
    /// array.read_into(&"0, 1:3".parse()?, &mut out)?;
    /// assert!(array.read_into(&"0, 1:4".parse()?, &mut out).is_err());
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn read_into(&self, sel: &Selection, out: &mut [u8]) -> Result<(), ArrayError> {
        let resolved = self.prepare(sel)?;
        let sink = Raw {
            itemsize: self.itemsize,
        };
        self.read_resolved(&resolved, &sink, out)
    }

    /// [`Array::read_into`] a new vector.
    pub fn read_bytes(&self, sel: &Selection) -> Result<Vec<u8>, ArrayError> {
        let resolved = self.prepare(sel)?;
        let mut out = allocate(self.nbytes(&resolved)?, 0u8)?;
        let sink = Raw {
            itemsize: self.itemsize,
        };
        self.read_resolved(&resolved, &sink, &mut out)?;
        Ok(out)
    }

    /// Reads `sel` into `out` as values of `T`, converted from the file's byte order;
    /// `out` must hold exactly the selection's elements. A `T` the dtype is not (see
    /// [`Element`]) is refused, naming both.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/dtype_be_f8.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let mut out = [0f64; 5];
    /// array.read_typed_into(&"3".parse()?, &mut out)?;
    /// let err = array.read_typed_into(&"3".parse()?, &mut [0f32; 5]).unwrap_err();
    /// assert_eq!(err.to_string(), format!("{}: expected a dtype f32 can hold, found >f8", array.label().display()));
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn read_typed_into<T: Element>(
        &self,
        sel: &Selection,
        out: &mut [T],
    ) -> Result<(), ArrayError> {
        let sink = self.typed::<T>()?;
        let resolved = self.prepare(sel)?;
        self.read_resolved(&resolved, &sink, out)
    }

    /// [`Array::read_typed_into`] a new vector.
    pub fn read<T: Element>(&self, sel: &Selection) -> Result<Vec<T>, ArrayError> {
        let sink = self.typed::<T>()?;
        let resolved = self.prepare(sel)?;
        self.nbytes(&resolved)?;
        let mut out = allocate(resolved.len() as usize, T::default())?;
        self.read_resolved(&resolved, &sink, &mut out)?;
        Ok(out)
    }

    /// Reads `sel` in pieces along the result's first axis, each given to `row` in
    /// order (C order, bytes as stored): about 16 MiB of the result each, cut where the
    /// array axis it comes from crosses a block (no block is decoded twice; a piece is
    /// larger when one block's share is), each read on [`Array::threads`] threads.
    /// Memory holds one piece and each thread's scratch.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim2_u2.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let mut pieces = Vec::new();
    /// array.read_rows(&b2nd_meta::array::Selection::all(), |bytes| {
    ///     pieces.push(bytes.len());
    ///     Ok::<(), b2nd_meta::array::ArrayError>(())
    /// })?;
    /// assert_eq!(pieces, [13 * 11 * 2]);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn read_rows<E: From<ArrayError>>(
        &self,
        sel: &Selection,
        row: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        self.read_rows_sized(sel, ROWS_CAP, row)
    }

    /// [`Array::read_rows`] in pieces of about `cap` bytes (at least one block's share,
    /// or one position along the result's first axis).
    ///
    /// ```
    /// // 13x11 in chunks of 5x4 and blocks of 2x3: a piece per block along axis 0.
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim2_u2.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let mut rows = Vec::new();
    /// array.read_rows_sized(&b2nd_meta::array::Selection::all(), 1, |bytes| {
    ///     rows.push(bytes.len() / (11 * 2));
    ///     Ok::<(), b2nd_meta::array::ArrayError>(())
    /// })?;
    /// assert_eq!(rows, [2, 2, 1, 2, 2, 1, 2, 1]);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn read_rows_sized<E: From<ArrayError>>(
        &self,
        sel: &Selection,
        cap: usize,
        mut row: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let resolved = self.prepare(sel)?;
        let sink = Raw {
            itemsize: self.itemsize,
        };
        let Some(p) = resolved.axes.iter().position(|a| a.kept) else {
            let mut out = allocate(self.nbytes(&resolved)?, 0u8)?;
            self.read_resolved(&resolved, &sink, &mut out)?;
            return row(&out);
        };
        // Bytes per position along the row axis.
        let unit = self.nbytes(&resolved)? / (resolved.axes[p].count as usize).max(1);
        let rows = (cap / unit.max(1)).max(1) as u64;
        let mut buf: Vec<u8> = Vec::new();
        for part in self.grid.rows(&resolved, p, rows) {
            let len = self.nbytes(&part)?;
            if buf.len() < len {
                // Every byte of a piece is written by the read: no zeroing per piece.
                buf.try_reserve_exact(len - buf.len())
                    .map_err(|_| too_large(len))?;
                buf.resize(len, 0);
            }
            self.read_resolved(&part, &sink, &mut buf[..len])?;
            row(&buf[..len])?;
        }
        Ok(())
    }

    /// The chunks `sel` touches and, in each, the blocks it needs: what a read of it
    /// decodes (C-Blosc2's block mask, before a filter adds the blocks it refers to).
    ///
    /// ```
    /// // 13x11, chunks 5x4, blocks 2x3: chunk (0, 0) holds 3x2 blocks.
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim2_u2.b2nd");
    /// let array = b2nd_meta::array::Array::open(path)?;
    /// let touched = array.touched(&"1:3, 0".parse()?)?;
    /// assert_eq!(touched.len(), 1);
    /// assert_eq!(touched[0].chunk, 0);
    /// assert_eq!(touched[0].blocks, [true, false, true, false, false, false]);
    /// # Ok::<(), b2nd_meta::array::ArrayError>(())
    /// ```
    pub fn touched(&self, sel: &Selection) -> Result<Vec<Touched>, ArrayError> {
        Ok(touched(&self.grid, &resolve(sel, self.shape())?))
    }

    /// `sel` resolved against the shape, refused when it needs a chunk the frame's index
    /// lacks (before anything is allocated for it).
    fn prepare(&self, sel: &Selection) -> Result<Resolved, ArrayError> {
        let resolved = resolve(sel, self.shape())?;
        if let Some(last) = self.grid.last_chunk(&resolved) {
            self.frame
                .location(last)
                .map_err(|e| ArrayError::from(e).in_file(self.label()))?;
        }
        Ok(resolved)
    }

    /// The conversion to `T`, or the mismatch naming both.
    fn typed<T: Element>(&self) -> Result<Typed<T>, ArrayError> {
        Typed::of(self.dtype()).ok_or_else(|| {
            let kind = ArrayErrorKind::TypeMismatch {
                requested: T::NAME,
                dtype: self.dtype().to_string(),
            };
            ArrayError::new(kind).in_file(self.label())
        })
    }

    /// The bytes of the result of `sel`, when this machine addresses them.
    fn nbytes(&self, sel: &Resolved) -> Result<usize, ArrayError> {
        let nbytes = sel.len() * self.itemsize as u128;
        usize::try_from(nbytes)
            .ok()
            .filter(|&n| n <= isize::MAX as usize)
            .ok_or_else(|| ArrayError::new(ArrayErrorKind::TooLarge { nbytes }))
    }

    fn read_resolved<S: Sink>(
        &self,
        sel: &Resolved,
        sink: &S,
        out: &mut [S::Item],
    ) -> Result<(), ArrayError> {
        let expected = sel.len() * sink.width() as u128;
        if expected != out.len() as u128 {
            return Err(ArrayError::new(ArrayErrorKind::BufferLength {
                expected: u64::try_from(expected).unwrap_or(u64::MAX),
                found: out.len() as u64,
            }));
        }
        let reader = Reader {
            frame: &self.frame,
            grid: &self.grid,
            itemsize: self.itemsize,
            threads: self.threads(),
        };
        reader
            .read(sel, sink, out)
            .map_err(|e| e.in_file(self.label()))
    }
}

/// The error for an output of `nbytes` this machine cannot allocate.
fn too_large(nbytes: usize) -> ArrayError {
    ArrayError::new(ArrayErrorKind::TooLarge {
        nbytes: nbytes as u128,
    })
}

/// A vector of `len` copies of `value`, or an error when it cannot be allocated.
fn allocate<T: Clone>(len: usize, value: T) -> Result<Vec<T>, ArrayError> {
    let mut out = Vec::new();
    out.try_reserve_exact(len)
        .map_err(|_| too_large(len.saturating_mul(core::mem::size_of::<T>())))?;
    out.resize(len, value);
    Ok(out)
}
