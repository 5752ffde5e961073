//! The writer's threads past the caller's: those compressing chunks (each the next
//! chunk of the rows the caller's thread sends, read by the thread itself when it is
//! one stretch of a file) and the one storing them in order. A panic on any of them
//! (a caller's source, or a bug) stops the run without leaving a thread waiting for
//! another: it is kept for the caller's thread to resume once all have ended.

use std::any::Any;
use std::boxed::Box;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::vec::Vec;

use super::gather::{self, compress_chunk, FromSource, Scratch};
use super::layout::Layout;
use super::pool::Pool;
use crate::array::error::ArrayError;
use crate::blosc::Special;
use crate::frame::writer::FrameWriter;
use crate::frame::ChunkLocation;
use crate::io::{read_full_at, ReadAt};

/// A row of chunks' input.
pub(super) enum Row<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
    /// `len` bytes at `offset` of the source, read by the thread compressing them.
    At {
        source: &'a (dyn ReadAt + Sync),
        offset: u64,
        len: usize,
    },
}

/// One chunk to compress: its number, its row's input and the row's first element.
pub(super) struct Job<'a> {
    pub n: u64,
    pub row: Arc<Row<'a>>,
    pub base: usize,
}

/// A compressed chunk for the storing thread: its bytes, or zeros.
pub(super) type Done = (u64, Result<Option<Vec<u8>>, ArrayError>);

/// What the compressing threads share.
#[derive(Clone, Copy)]
pub(super) struct Threads<'p> {
    pub inputs: &'p Pool,
    pub outputs: &'p Pool,
    pub stop: &'p AtomicBool,
    pub panicked: &'p Mutex<Option<Box<dyn Any + Send>>>,
}

/// Keeps the first panic of a run's threads.
pub(super) fn keep_first(slot: &Mutex<Option<Box<dyn Any + Send>>>, panic: Box<dyn Any + Send>) {
    slot.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert(panic);
}

/// A compressing thread: the next chunk, until there are none.
pub(super) fn compress(
    layout: &Layout,
    per_chunk: usize,
    jobs: &Mutex<Receiver<Job<'_>>>,
    done: Sender<Done>,
    t: Threads<'_>,
) {
    let mut scratch = Scratch::default();
    let mut input = Vec::new();
    loop {
        let mut out = t.outputs.take();
        let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = job else {
            t.outputs.put(out);
            return;
        };
        let result = match t.stop.load(Ordering::Relaxed) {
            // Stopped: the chunk is dropped, its buffers handed back.
            true => Ok(None),
            false => {
                let compressed = catch_unwind(AssertUnwindSafe(|| {
                    compress_job(layout, per_chunk, &job, &mut scratch, &mut input, &mut out)
                }))
                .unwrap_or_else(|panic| {
                    keep_first(t.panicked, panic);
                    Err(ArrayError::layout("a compressing thread panicked".into()))
                });
                match compressed {
                    Ok(false) => Ok(Some(core::mem::take(&mut out))),
                    Ok(true) => Ok(None),
                    Err(e) => Err(e),
                }
            }
        };
        if let Some(Row::Owned(bytes)) = Arc::into_inner(job.row) {
            t.inputs.put(bytes);
        }
        if !matches!(result, Ok(Some(_))) {
            t.outputs.put(out);
        }
        if done.send((job.n, result)).is_err() {
            return;
        }
    }
}

/// Chunk `job` compressed into `out`: true when it is the zeros special chunk.
fn compress_job(
    layout: &Layout,
    per_chunk: usize,
    job: &Job<'_>,
    scratch: &mut Scratch,
    input: &mut Vec<u8>,
    out: &mut Vec<u8>,
) -> Result<bool, ArrayError> {
    let stretch = match &*job.row {
        Row::At { .. } => gather::stretch_at(layout, job.n, job.base, scratch),
        _ => None,
    };
    match (&*job.row, stretch) {
        // One stretch of the file: read a block at a time as it is compressed.
        (&Row::At { source, offset, .. }, Some(at)) => {
            let chunk = FromSource {
                source,
                offset: offset + at as u64,
                len: layout.chunk_nbytes,
            };
            gather::compress(layout, &chunk, per_chunk, out)
        }
        (row, _) => slab(row, input).and_then(|slab| {
            compress_chunk(layout, slab, job.n, job.base, per_chunk, scratch, out)
        }),
    }
}

/// A row's input: its bytes, or those read into `input`.
fn slab<'r>(row: &'r Row<'_>, input: &'r mut Vec<u8>) -> Result<&'r [u8], ArrayError> {
    match *row {
        Row::Borrowed(bytes) => Ok(bytes),
        Row::Owned(ref bytes) => Ok(bytes),
        Row::At {
            source,
            offset,
            len,
        } => read_row(source, offset, len, input),
    }
}

/// Reads `len` bytes at `offset` of `source` into `input`, all of them or an error.
fn read_row<'i>(
    source: &(dyn ReadAt + Sync),
    offset: u64,
    len: usize,
    input: &'i mut Vec<u8>,
) -> Result<&'i [u8], ArrayError> {
    // Kept from row to row: zeroed (and its pages mapped) once.
    if input.len() < len {
        input.resize(len, 0);
    }
    let row = &mut input[..len];
    if read_full_at(source, row, offset)? < len {
        return Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into());
    }
    Ok(row)
}

/// The storing thread: chunks in order from `first` on, each buffer handed back once
/// stored; after a failure, the rest are dropped.
pub(super) fn store(
    output: &mut FrameWriter,
    locations: &mut Vec<ChunkLocation>,
    first: u64,
    done: Receiver<Done>,
    outputs: &Pool,
    stop: &AtomicBool,
) -> Result<(), ArrayError> {
    let mut next = first;
    let mut waiting = BTreeMap::new();
    let mut failed = None;
    for (n, result) in done {
        waiting.insert(n, result);
        while let Some(result) = waiting.remove(&next) {
            next += 1;
            let stored = match result {
                Ok(Some(bytes)) => {
                    let at = match failed {
                        None => output
                            .put(&bytes)
                            .and_then(|at| output.settle().map(|()| Some(at)))
                            .map_err(ArrayError::from),
                        Some(_) => Ok(None),
                    };
                    outputs.put(bytes);
                    at
                }
                Ok(None) => Ok(Some(ChunkLocation::Special(Special::Zero))),
                Err(e) => Err(e),
            };
            match stored {
                Ok(Some(location)) if failed.is_none() => locations.push(location),
                Ok(_) => {}
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failed.get_or_insert(e);
                }
            }
        }
    }
    // A chunk dropped after a stop leaves a gap: what is waiting is dropped too.
    for (_, result) in waiting {
        if let Ok(Some(bytes)) = result {
            outputs.put(bytes);
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
