//! [`ArrayWriter`]: a new array's elements in C order, taken as they come and compressed
//! a batch of chunk rows at a time, in parallel.
//!
//! A row of chunks (the chunks at one position of the chunk grid's first axis) covers a
//! stretch of the input in C order, so the writer holds at most one batch of rows: as
//! many as give every thread a chunk. Each chunk is laid out as C-Blosc2 lays it out
//! (blocks in C order, padding zeroed; `grid` and `plan` are the one place of that
//! layout) unless the input already is that layout (python's default blocks), then
//! compressed ([`chunk::compress`], C-Blosc2's `blosc2_compress_ctx`); an all-zero chunk
//! is C's zeros special chunk, which the frame indexes without storing, as python does.

use std::io::Read;
use std::path::Path;
use std::string::ToString;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::vec::Vec;

use super::layout::Layout;
use super::options::NewArray;
use super::output::Output;
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::array::Element;
use crate::blosc::Special;
use crate::chunk::{self, ChunkHeader};
use crate::dtype::{ByteOrder, Dtype};
use crate::frame::ChunkLocation;

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
    output: Output,
    threads: usize,
    /// Input not yet compressed: the first bytes of the rows from `next_row` on.
    pending: Vec<u8>,
    next_row: u64,
    received: u128,
    /// Rows compressed together.
    batch_rows: u64,
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

/// One compressed chunk, or a chunk of zeros not stored.
enum Compressed {
    Stored(Vec<u8>),
    Zeros,
}

/// One thread's buffers, kept from chunk to chunk.
#[derive(Default)]
struct Scratch {
    coords: Vec<u64>,
    chunk: Vec<u8>,
}

/// Lays a chunk out in `chunk` from the stretches `Grid::chunk_runs` gives, merging
/// adjacent ones; a chunk that is one stretch of the input, in its order, is not
/// copied.
struct Gather<'a> {
    slab: &'a [u8],
    base: usize,
    itemsize: usize,
    chunk: &'a mut Vec<u8>,
    nbytes: usize,
    padded: bool,
    started: bool,
    pending: Option<(usize, usize, usize)>,
}

impl Gather<'_> {
    fn copy(&mut self, (at, in_chunk, len): (usize, usize, usize)) {
        if !self.started {
            self.chunk.resize(self.nbytes, 0);
            if self.padded {
                self.chunk.fill(0);
            }
            self.started = true;
        }
        let size = self.itemsize;
        let from = &self.slab[(at - self.base) * size..][..len * size];
        self.chunk[in_chunk * size..][..len * size].copy_from_slice(from);
    }

    fn run(&mut self, at: usize, in_chunk: usize, len: usize) {
        match self.pending {
            Some((a, i, l)) if a + l == at && i + l == in_chunk => {
                self.pending = Some((a, i, l + len));
            }
            Some(previous) => {
                self.copy(previous);
                self.pending = Some((at, in_chunk, len));
            }
            None => self.pending = Some((at, in_chunk, len)),
        }
    }
}

impl ArrayWriter {
    pub(crate) fn create(params: &NewArray, path: &Path) -> Result<ArrayWriter, ArrayError> {
        let layout = Layout::new(params).map_err(|e| e.in_file(path))?;
        let output = Output::create(path, &layout.header, params.overwrite)?;
        let threads = params.threads.max(1);
        let cpr = layout.chunks_per_row.max(1);
        Ok(ArrayWriter {
            batch_rows: (threads as u64).div_ceil(cpr).max(1),
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

    /// The bytes of the input rows `first..first + n`.
    fn rows_bytes(&self, first: u64, n: u64) -> usize {
        let last = (first + n).min(self.layout.rows);
        if last <= first {
            return 0;
        }
        let (start, _) = self.layout.row_span(first);
        let (_, end) = self.layout.row_span(last - 1);
        (u128::from(end - start) * self.layout.row_items() * self.layout.itemsize as u128) as usize
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
    /// byte order), compressing and storing each batch of chunk rows it completes.
    pub fn write(&mut self, mut data: &[u8]) -> Result<(), ArrayError> {
        self.too_much(data.len())?;
        self.received += data.len() as u128;
        while !data.is_empty() {
            let need = self.rows_bytes(self.next_row, self.batch_rows);
            if self.pending.is_empty() && data.len() >= need {
                // Whole batches straight from the caller's bytes.
                let (batch, rest) = data.split_at(need);
                self.compress_rows(batch)?;
                data = rest;
                continue;
            }
            let take = (need - self.pending.len()).min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.pending.len() == need {
                let batch = core::mem::take(&mut self.pending);
                self.compress_rows(&batch)?;
                self.pending = batch;
                self.pending.clear();
            }
        }
        Ok(())
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
        let mut total = 0u64;
        loop {
            let left = self.layout.nbytes - self.received;
            if left == 0 {
                return Ok(total);
            }
            let need = self.rows_bytes(self.next_row, self.batch_rows);
            let start = self.pending.len();
            let want = (need - start).min(left.min(usize::MAX as u128) as usize);
            // read_to_end fills the spare capacity: the batch is never zeroed first.
            self.pending.reserve_exact(want);
            let n = reader
                .by_ref()
                .take(want as u64)
                .read_to_end(&mut self.pending)?;
            if n == 0 {
                return Ok(total);
            }
            total += n as u64;
            self.received += n as u128;
            if self.pending.len() == need {
                let batch = core::mem::take(&mut self.pending);
                self.compress_rows(&batch)?;
                self.pending = batch;
                self.pending.clear();
            }
        }
    }

    /// Compresses the chunks of the batch of rows from `next_row` whose input is
    /// `slab`, and stores them in order.
    fn compress_rows(&mut self, slab: &[u8]) -> Result<(), ArrayError> {
        if self.failed {
            return Err(ArrayError::layout(
                "an earlier write failed: the array is not written".into(),
            ));
        }
        self.failed = true;
        let rows = self.batch_rows.min(self.layout.rows - self.next_row);
        let cpr = self.layout.chunks_per_row;
        let first = self.next_row * cpr;
        let count = (rows * cpr) as usize;
        let base =
            (u128::from(self.layout.row_span(self.next_row).0) * self.layout.row_items()) as usize;
        let results = self.compress_chunks(slab, first, count, base);
        for result in results {
            let location = match result? {
                Compressed::Zeros => ChunkLocation::Special(Special::Zero),
                Compressed::Stored(bytes) => self.output.put(&bytes)?,
            };
            self.locations.push(location);
        }
        self.next_row += rows;
        self.failed = false;
        Ok(())
    }

    /// Chunks `first..first + count`, compressed on the writer's threads.
    fn compress_chunks(
        &self,
        slab: &[u8],
        first: u64,
        count: usize,
        base: usize,
    ) -> Vec<Result<Compressed, ArrayError>> {
        let next = AtomicUsize::new(0);
        let threads = self.threads.clamp(1, count.max(1));
        // Fewer chunks than threads (big chunks, the last batch): the spare threads
        // compress each chunk's blocks.
        let per_chunk = self.threads.div_ceil(threads);
        let work = || {
            let mut scratch = Scratch::default();
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    return done;
                }
                let n = first + i as u64;
                done.push((
                    i,
                    self.compress_chunk(slab, n, base, per_chunk, &mut scratch),
                ));
            }
        };
        let mut all: Vec<(usize, Result<Compressed, ArrayError>)> = if threads == 1 {
            work()
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
                let mut all = work();
                for h in handles {
                    match h.join() {
                        Ok(done) => all.extend(done),
                        Err(_) => all.push((
                            count,
                            Err(ArrayError::layout("a compressing thread panicked".into())),
                        )),
                    }
                }
                all
            })
        };
        all.sort_unstable_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    }

    /// Chunk `n`, laid out and compressed, its blocks on `threads` threads.
    fn compress_chunk(
        &self,
        slab: &[u8],
        n: u64,
        base: usize,
        threads: usize,
        scratch: &mut Scratch,
    ) -> Result<Compressed, ArrayError> {
        let grid = &self.layout.grid;
        let itemsize = self.layout.itemsize;
        let nbytes = self.layout.chunk_nbytes;
        let coords = &mut scratch.coords;
        coords.clear();
        let mut rest = n;
        for d in (0..grid.ndim()).rev() {
            let per = grid.chunks_per_axis[d];
            coords.push(rest % per);
            rest /= per;
        }
        coords.reverse();
        let covered: u64 = (0..grid.ndim())
            .map(|d| {
                let start = coords[d] * grid.chunkshape[d];
                grid.chunkshape[d].min(grid.shape[d] - start)
            })
            .product();
        let mut gather = Gather {
            slab,
            base,
            itemsize,
            chunk: &mut scratch.chunk,
            nbytes,
            padded: covered as usize != grid.chunk_items,
            started: false,
            pending: None,
        };
        grid.chunk_runs(coords, |at, in_chunk, len| gather.run(at, in_chunk, len));
        let direct = match gather.pending {
            Some((at, 0, len)) if !gather.started && len == grid.chunk_items => Some(at),
            Some(last) => {
                gather.copy(last);
                None
            }
            None => {
                gather.chunk.clear();
                gather.chunk.resize(nbytes, 0);
                None
            }
        };
        let src: &[u8] = match direct {
            Some(at) => &slab[(at - base) * itemsize..][..nbytes],
            None => &scratch.chunk[..nbytes],
        };
        let bytes = chunk::compress_threads(src, &self.layout.cparams, threads)
            .map_err(|e| ArrayError::new(ArrayErrorKind::Compress(e)))?;
        let zeros = ChunkHeader::parse(&bytes)
            .ok()
            .and_then(|h| h.special())
            .is_some_and(|s| s == Special::Zero);
        Ok(match zeros {
            true => Compressed::Zeros,
            false => Compressed::Stored(bytes),
        })
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
        self.output.finish(
            &self.layout.header,
            &self.locations,
            nbytes,
            &self.layout.trailer,
        )
    }
}
