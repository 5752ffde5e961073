//! [`ArrayWriter`]: a new array's elements in C order, taken as they come and compressed
//! a row of chunks at a time, in parallel.
//!
//! A row of chunks (the chunks at one position of the chunk grid's first axis) covers a
//! stretch of the input in C order, so the writer holds at most one row begun between
//! calls; while a call runs, the pipeline (`pipeline`) holds a few rows and chunks in
//! flight, a bounded number. Each chunk is laid out and compressed as C-Blosc2 does it
//! (`gather`).

use std::io::Read;
use std::path::Path;
use std::string::ToString;
use std::vec::Vec;

use super::layout::Layout;
use super::options::NewArray;
use super::pipeline::{row_bytes, Feed, Run};
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::array::Element;
use crate::dtype::{ByteOrder, Dtype};
use crate::frame::writer::{FrameWriter, WriteOptions};
use crate::frame::ChunkLocation;
use crate::io::ReadAt;

/// A new array being written: give it the elements' bytes in C order
/// ([`ArrayWriter::write`], [`ArrayWriter::write_typed`], [`ArrayWriter::write_from`]),
/// in pieces of any size, then [`ArrayWriter::finish`] it. Dropped unfinished, it
/// leaves nothing behind.
///
/// ```
/// use b2nd_meta::array::{write::NewArray, Array, Selection};
///
/// let path = std::env::temp_dir().join(format!("b2nd-meta-writer-doc-{}.b2nd", std::process::id()));
/// let mut writer = NewArray::new(&[1000, 30], "<i4")?.chunks(&[100, 30]).overwrite(true).create(&path)?;
/// for row in 0..1000i32 {
///     let values: Vec<i32> = (0..30).map(|j| row * 30 + j).collect();
///     writer.write_typed(&values)?;
/// }
/// writer.finish()?;
/// let column: Vec<i32> = Array::open(&path)?.read(&"::100, 0".parse()?)?;
/// assert_eq!(column, (0..10).map(|k| k * 3000).collect::<Vec<i32>>());
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ArrayWriter {
    layout: Layout,
    output: FrameWriter,
    threads: usize,
    /// Input not yet compressed: the first bytes of the rows from `next_row` on.
    pending: Vec<u8>,
    next_row: u64,
    received: u128,
    locations: Vec<ChunkLocation>,
    /// A batch failed: the writer stores nothing more.
    failed: bool,
}

impl NewArray {
    /// Starts writing the array at `path`; its data follows through the writer, in C
    /// order ([`ArrayWriter::write`]), and [`ArrayWriter::finish`] puts it in place.
    pub fn create(&self, path: impl AsRef<Path>) -> Result<ArrayWriter, ArrayError> {
        ArrayWriter::create(self, path.as_ref())
    }

    /// Writes the array at `path` from all of its elements' bytes, in C order, in the
    /// dtype's byte order.
    pub fn write(&self, path: impl AsRef<Path>, data: &[u8]) -> Result<(), ArrayError> {
        let mut writer = self.create(path)?;
        writer.write(data)?;
        writer.finish()
    }

    /// Writes the array at `path` from all of its elements, in C order, converted to
    /// the dtype's byte order; `T` must read the dtype ([`Element::accepts`]).
    pub fn write_typed<T: Element>(
        &self,
        path: impl AsRef<Path>,
        values: &[T],
    ) -> Result<(), ArrayError> {
        if !T::accepts(&self.dtype) {
            return Err(type_mismatch::<T>(&self.dtype));
        }
        let mut writer = self.create(path)?;
        writer.write_typed(values)?;
        writer.finish()
    }
}

fn type_mismatch<T: Element>(dtype: &Dtype) -> ArrayError {
    ArrayError::new(ArrayErrorKind::TypeMismatch {
        requested: T::NAME,
        dtype: dtype.to_string(),
    })
}

impl ArrayWriter {
    pub(crate) fn create(params: &NewArray, path: &Path) -> Result<ArrayWriter, ArrayError> {
        let layout = Layout::new(params).map_err(|e| e.in_file(path))?;
        let options = WriteOptions {
            overwrite: params.overwrite,
            steps: params.steps.clone(),
            locking: params.locking,
            input: params.input.clone(),
        };
        let output = FrameWriter::create(path, &layout.header, &options)?;
        let threads = params.threads.max(1);
        Ok(ArrayWriter {
            threads,
            pending: Vec::new(),
            next_row: 0,
            received: 0,
            locations: Vec::with_capacity(layout.nchunks.min(1 << 20) as usize),
            failed: false,
            output,
            layout,
        })
    }

    fn too_much(&self, more: usize) -> Result<(), ArrayError> {
        let found = self.received + more as u128;
        if found > self.layout.nbytes {
            return Err(ArrayError::new(ArrayErrorKind::DataLength {
                expected: self.layout.nbytes,
                found,
            }));
        }
        Ok(())
    }

    /// Takes the next `data` bytes of the array's elements (in C order, in the dtype's
    /// byte order), compressing and storing each row of chunks they complete.
    pub fn write(&mut self, data: &[u8]) -> Result<(), ArrayError> {
        self.too_much(data.len())?;
        self.received += data.len() as u128;
        if self.pending.len() + data.len() < row_bytes(&self.layout, self.next_row) {
            // No row complete: nothing to compress yet.
            self.pending.extend_from_slice(data);
            return Ok(());
        }
        self.run(Feed::Bytes(data)).map(|_| ())
    }

    /// Takes the next elements, converted to the dtype's byte order; `T` must read the
    /// dtype ([`Element::accepts`]).
    pub fn write_typed<T: Element>(&mut self, values: &[T]) -> Result<(), ArrayError> {
        let dtype = &self.layout.dtype;
        if !T::accepts(dtype) {
            return Err(type_mismatch::<T>(dtype));
        }
        let big = dtype.byte_order() == ByteOrder::Big;
        let itemsize = self.layout.itemsize;
        let mut bytes = Vec::new();
        for piece in values.chunks((1 << 20) / itemsize.max(1) + 1) {
            bytes.clear();
            bytes.resize(piece.len() * itemsize, 0);
            for (v, out) in piece.iter().zip(bytes.chunks_exact_mut(itemsize)) {
                v.to_bytes(out, big);
            }
            self.write(&bytes)?;
        }
        Ok(())
    }

    /// Takes the next elements' bytes from `reader` until it ends or the array is
    /// complete; returns how many bytes were read.
    pub fn write_from<R: Read>(&mut self, mut reader: R) -> Result<u64, ArrayError> {
        let taken = self.run(Feed::Reader(&mut reader))?;
        self.received += taken;
        Ok(taken as u64)
    }

    /// Takes the next elements' bytes from `source` at `offset` on (a file, bytes in
    /// memory: any [`ReadAt`]), until it ends or the array is complete; returns how many
    /// bytes were read. Where a row of chunks is one chunk, the threads compressing the
    /// chunks read them too, each its own, at the same time: faster than
    /// [`ArrayWriter::write_from`] from a file.
    ///
    /// ```
    /// use b2nd_meta::array::{write::NewArray, Array, Selection};
    ///
    /// let path = std::env::temp_dir().join(format!("b2nd-meta-at-doc-{}.b2nd", std::process::id()));
    /// // A 10-byte header, then 1000 little-endian u16.
    /// let mut input = vec![0u8; 10];
    /// input.extend((0..1000u16).flat_map(|v| v.to_le_bytes()));
    /// let mut writer = NewArray::new(&[1000], "<u2")?.chunks(&[300]).overwrite(true).create(&path)?;
    /// assert_eq!(writer.write_from_at(&input, 10)?, 2000);
    /// writer.finish()?;
    /// let back: Vec<u16> = Array::open(&path)?.read(&Selection::all())?;
    /// assert_eq!(back, (0..1000).collect::<Vec<u16>>());
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_from_at<S: ReadAt + Sync>(
        &mut self,
        source: &S,
        offset: u64,
    ) -> Result<u64, ArrayError> {
        let taken = self.run(Feed::At(source, offset))?;
        self.received += taken;
        Ok(taken as u64)
    }

    /// Compresses and stores the rows `feed` completes, from `next_row` on (those begun
    /// in `pending` first); returns the bytes taken from `feed`.
    fn run(&mut self, feed: Feed<'_>) -> Result<u128, ArrayError> {
        if self.failed {
            return Err(ArrayError::layout(
                "an earlier write failed: the array is not written".into(),
            ));
        }
        let run = Run {
            layout: &self.layout,
            threads: self.threads,
            output: &mut self.output,
            locations: &mut self.locations,
        };
        let pending = core::mem::take(&mut self.pending);
        let (ran, result) = run.run(self.next_row, pending, feed);
        self.next_row += ran.rows;
        self.pending = ran.pending;
        self.failed = result.is_err();
        result.map(|()| ran.taken)
    }

    /// Stores the frame's chunk index, trailer and final header, and puts the frame at
    /// its path; refused, leaving nothing, unless every element was given.
    pub fn finish(self) -> Result<(), ArrayError> {
        if self.failed {
            return Err(ArrayError::layout(
                "an earlier write failed: the array is not written".into(),
            ));
        }
        if self.received != self.layout.nbytes {
            return Err(ArrayError::new(ArrayErrorKind::DataLength {
                expected: self.layout.nbytes,
                found: self.received,
            }));
        }
        let nbytes = self.layout.nchunks * self.layout.chunk_nbytes as u64;
        self.output
            .finish(
                &self.layout.header,
                &self.locations,
                nbytes,
                &self.layout.trailer,
            )
            .map_err(ArrayError::from)
    }
}
