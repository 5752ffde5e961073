//! The writer's pipeline: the caller's thread takes the input a row of chunks at a time
//! (from the caller's bytes, or read into a buffer), `workers` threads each compress the
//! next chunk, and one more thread stores the chunks in order, all at the same time, so
//! the reading and the writing of the file overlap the compression. From a source read
//! at offsets (a file), a row that is one chunk is read by the thread compressing it,
//! into that thread's own buffer: the reading is shared between the threads too.
//!
//! Memory stays bounded, whatever the input's length: input rows come from a pool of
//! `workers + 1` buffers (or are each worker's one buffer), compressed chunks from one
//! of `workers + 1` buffers, each handed back when its row is compressed or its chunk
//! stored (`pool`). A worker takes its
//! output buffer before it takes a chunk, and chunks are taken in order, so the chunk
//! the storing thread waits for is always being compressed: no wait closes a circle.
//! Buffers kept from chunk to chunk also have their pages mapped already, where new
//! ones fault in every page they are written (a fifth of the time, measured).

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::vec::Vec;

use super::gather::{self, compress_chunk, FromSource, Scratch};
use super::layout::Layout;
use super::output::Output;
use super::pool::Pool;
use crate::array::error::ArrayError;
use crate::blosc::Special;
use crate::frame::ChunkLocation;
use crate::io::{read_full_at, ReadAt};

/// Where the input comes from.
pub(super) enum Feed<'a> {
    /// The caller's bytes: whole rows are compressed where they are.
    Bytes(&'a [u8]),
    /// A reader, up to the array's end.
    Reader(&'a mut dyn Read),
    /// A source read at offsets, from this one on, up to the array's end.
    At(&'a (dyn ReadAt + Sync), u64),
}

/// What a run did: whole rows stored, bytes taken from the feed, and the row begun
/// and not complete (a buffer to go on filling).
pub(super) struct Ran {
    pub rows: u64,
    pub taken: u128,
    pub pending: Vec<u8>,
}

/// The bytes of row `row` of chunks in the input (0 past the last).
pub(super) fn row_bytes(layout: &Layout, row: u64) -> usize {
    if row >= layout.rows {
        return 0;
    }
    let (start, end) = layout.row_span(row);
    (u128::from(end - start) * layout.row_items() * layout.itemsize as u128) as usize
}

/// A row of chunks' input.
enum Row<'a> {
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
struct Job<'a> {
    n: u64,
    row: Arc<Row<'a>>,
    base: usize,
}

/// A compressed chunk for the storing thread: its bytes, or zeros.
type Done = (u64, Result<Option<Vec<u8>>, ArrayError>);

/// The writer's parts a run uses.
pub(super) struct Run<'a> {
    pub layout: &'a Layout,
    pub threads: usize,
    pub output: &'a mut Output,
    pub locations: &'a mut Vec<ChunkLocation>,
}

impl Run<'_> {
    /// Compresses and stores the rows from `first_row` on: `pending` (a row begun)
    /// completed from `feed`, then the feed's whole rows; a last row not complete is
    /// returned to go on with.
    pub(super) fn run<'d>(
        self,
        first_row: u64,
        pending: Vec<u8>,
        feed: Feed<'d>,
    ) -> (Ran, Result<(), ArrayError>) {
        let layout = self.layout;
        let cpr = layout.chunks_per_row;
        let workers = workers_for(self.threads, chunks_fed(layout, first_row, &pending, &feed));
        let per_chunk = self.threads.div_ceil(workers);
        let inputs = Pool::new(workers + 1);
        let outputs = Pool::new(workers + 1);
        let stop = AtomicBool::new(false);
        let (jobs_in, jobs_out) = sync_channel::<Job<'d>>(workers * cpr.min(64) as usize);
        // Held by the compressing threads alone: should they all end, the feeder stops.
        let jobs_out = Arc::new(Mutex::new(jobs_out));
        let (done_in, done_out) = channel::<Done>();
        let output = self.output;
        let locations = self.locations;
        std::thread::scope(|s| {
            let store = s.spawn(|| {
                store(
                    output,
                    locations,
                    first_row * cpr,
                    done_out,
                    &outputs,
                    &stop,
                )
            });
            for _ in 0..workers {
                let done_in = done_in.clone();
                let jobs_out = Arc::clone(&jobs_out);
                let (inputs, outputs, stop) = (&inputs, &outputs, &stop);
                s.spawn(move || {
                    compress(layout, per_chunk, &jobs_out, done_in, inputs, outputs, stop)
                });
            }
            drop(done_in);
            drop(jobs_out);
            let mut feeder = Feeder {
                layout,
                row: first_row,
                taken: 0,
                jobs: jobs_in,
                inputs: &inputs,
                stop: &stop,
            };
            let (pending, fed) = feeder.feed(pending, feed);
            let (rows, taken) = (feeder.row - first_row, feeder.taken);
            drop(feeder);
            let stored = store
                .join()
                .unwrap_or_else(|_| Err(ArrayError::layout("the storing thread panicked".into())));
            let ran = Ran {
                rows,
                taken,
                pending,
            };
            (ran, fed.and(stored))
        })
    }
}

/// The chunks a run will compress (at most): the rows the caller's bytes complete, or
/// all rows left for a reader.
fn chunks_fed(layout: &Layout, first_row: u64, pending: &[u8], feed: &Feed<'_>) -> u64 {
    let mut rows = layout.rows - first_row;
    if let Feed::Bytes(data) = feed {
        let mut bytes = pending.len() + data.len();
        rows = (first_row..layout.rows)
            .take_while(|&r| {
                let need = row_bytes(layout, r);
                let whole = bytes >= need;
                bytes = bytes.saturating_sub(need);
                whole
            })
            .count() as u64;
    }
    rows.saturating_mul(layout.chunks_per_row)
}

/// Threads compressing chunks: one a thread while there are chunks enough, the spare
/// threads on each chunk's blocks when there are fewer.
fn workers_for(threads: usize, chunks: u64) -> usize {
    threads.clamp(1, chunks.clamp(1, usize::MAX as u64) as usize)
}

/// The caller's thread: rows into jobs, in order.
struct Feeder<'d, 'p> {
    layout: &'p Layout,
    row: u64,
    taken: u128,
    jobs: std::sync::mpsc::SyncSender<Job<'d>>,
    inputs: &'p Pool,
    stop: &'p AtomicBool,
}

impl<'d> Feeder<'d, '_> {
    /// Sends the rows of `pending` then `feed`; returns the last row begun.
    fn feed(&mut self, mut pending: Vec<u8>, feed: Feed<'d>) -> (Vec<u8>, Result<(), ArrayError>) {
        match feed {
            Feed::Bytes(mut data) => {
                while !data.is_empty() && !self.stop.load(Ordering::Relaxed) {
                    let need = row_bytes(self.layout, self.row);
                    if pending.is_empty() && data.len() >= need {
                        let (row, rest) = data.split_at(need);
                        self.send(Row::Borrowed(row));
                        self.taken += need as u128;
                        data = rest;
                        continue;
                    }
                    let take = (need - pending.len()).min(data.len());
                    pending.extend_from_slice(&data[..take]);
                    self.taken += take as u128;
                    data = &data[take..];
                    if pending.len() == need {
                        self.send(Row::Owned(pending));
                        pending = self.inputs.take();
                        pending.clear();
                    }
                }
                (pending, Ok(()))
            }
            Feed::Reader(reader) => loop {
                let need = row_bytes(self.layout, self.row);
                if need == 0 || self.stop.load(Ordering::Relaxed) {
                    return (pending, Ok(()));
                }
                let want = need - pending.len();
                // read_to_end fills the spare capacity: the row is never zeroed first.
                pending.reserve_exact(want);
                let read = reader.take(want as u64).read_to_end(&mut pending);
                let n = match read {
                    Ok(n) => n,
                    Err(e) => return (pending, Err(e.into())),
                };
                self.taken += n as u128;
                if pending.len() < need {
                    return (pending, Ok(()));
                }
                self.send(Row::Owned(pending));
                pending = self.inputs.take();
                pending.clear();
            },
            Feed::At(source, offset) => {
                let fed = self.feed_at(&mut pending, source, offset);
                (pending, fed)
            }
        }
    }

    /// Sends the rows of `pending` then of `source` from `offset` on: each row that is
    /// one chunk to be read by the thread compressing it, others read here.
    fn feed_at(
        &mut self,
        pending: &mut Vec<u8>,
        source: &'d (dyn ReadAt + Sync),
        offset: u64,
    ) -> Result<(), ArrayError> {
        let left: u128 = (self.row..self.layout.rows)
            .map(|r| row_bytes(self.layout, r) as u128)
            .sum::<u128>()
            - pending.len() as u128;
        let mut at = offset;
        // Rows are read only as far as the source goes: the rest waits, begun.
        let end = offset.saturating_add(left.min(u128::from(u64::MAX)) as u64);
        let mut available = source.size_up_to(end)?.saturating_sub(offset);
        loop {
            let need = row_bytes(self.layout, self.row);
            if need == 0 || self.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let want = need - pending.len();
            if self.layout.chunks_per_row == 1 && pending.is_empty() && available >= want as u64 {
                self.send(Row::At {
                    source,
                    offset: at,
                    len: want,
                });
            } else {
                let start = pending.len();
                let n = want.min(available.min(usize::MAX as u64) as usize);
                pending.resize(start + n, 0);
                let got = read_full_at(source, &mut pending[start..], at)?;
                pending.truncate(start + got);
                if got < want {
                    self.taken += got as u128;
                    return Ok(());
                }
                let row = core::mem::replace(pending, self.inputs.take());
                pending.clear();
                self.send(Row::Owned(row));
            }
            self.taken += want as u128;
            at += want as u64;
            available -= want as u64;
        }
    }

    /// Sends the chunks of the next row.
    fn send(&mut self, row: Row<'d>) {
        let layout = self.layout;
        let base = (u128::from(layout.row_span(self.row).0) * layout.row_items()) as usize;
        let row = Arc::new(row);
        let cpr = layout.chunks_per_row;
        for n in self.row * cpr..(self.row + 1) * cpr {
            let job = Job {
                n,
                row: Arc::clone(&row),
                base,
            };
            if self.jobs.send(job).is_err() {
                break;
            }
        }
        self.row += 1;
    }
}

/// A compressing thread: the next chunk, until there are none.
fn compress(
    layout: &Layout,
    per_chunk: usize,
    jobs: &Mutex<Receiver<Job<'_>>>,
    done: Sender<Done>,
    inputs: &Pool,
    outputs: &Pool,
    stop: &AtomicBool,
) {
    let mut scratch = Scratch::default();
    let mut input = Vec::new();
    loop {
        let mut out = outputs.take();
        let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        let Ok(job) = job else {
            outputs.put(out);
            return;
        };
        let result = match stop.load(Ordering::Relaxed) {
            // Stopped: the chunk is dropped, its buffers handed back.
            true => Ok(None),
            false => {
                let stretch = match &*job.row {
                    Row::At { .. } => gather::stretch_at(layout, job.n, job.base, &mut scratch),
                    _ => None,
                };
                let compressed = match (&*job.row, stretch) {
                    // One stretch of the file: read a block at a time as it is compressed.
                    (&Row::At { source, offset, .. }, Some(at)) => {
                        let chunk = FromSource {
                            source,
                            offset: offset + at as u64,
                            len: layout.chunk_nbytes,
                        };
                        gather::compress(layout, &chunk, per_chunk, &mut out)
                    }
                    (row, _) => slab(row, &mut input).and_then(|slab| {
                        compress_chunk(
                            layout,
                            slab,
                            job.n,
                            job.base,
                            per_chunk,
                            &mut scratch,
                            &mut out,
                        )
                    }),
                };
                match compressed {
                    Ok(false) => Ok(Some(core::mem::take(&mut out))),
                    Ok(true) => Ok(None),
                    Err(e) => Err(e),
                }
            }
        };
        if let Some(Row::Owned(bytes)) = Arc::into_inner(job.row) {
            inputs.put(bytes);
        }
        if !matches!(result, Ok(Some(_))) {
            outputs.put(out);
        }
        if done.send((job.n, result)).is_err() {
            return;
        }
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
fn store(
    output: &mut Output,
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
                            .and_then(|at| output.settle().map(|()| Some(at))),
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
