//! The writer's pipeline: the caller's thread takes the input a row of chunks at a time
//! (from the caller's bytes, or read into a buffer), `workers` threads each compress the
//! next chunk, and one more thread stores the chunks in order, all at the same time, so
//! the reading and the writing of the file overlap the compression. From a source read
//! at offsets (a file), a row that is one chunk is read by the thread compressing it: a
//! block (or 64 KiB) at a time as it is compressed when the chunk is one stretch of the
//! file (no buffer of a chunk's size, its blocks still in cache when compressed), else
//! whole into that thread's own buffer (`workers`).
//!
//! Memory stays bounded, whatever the input's length: input rows come from a pool of
//! `workers + 1` buffers (or are each worker's one buffer), compressed chunks from one
//! of `workers + 1` buffers, each handed back when its row is compressed or its chunk
//! stored (`pool`). A worker takes its output buffer before it takes a chunk, and chunks are taken in order, so the chunk
//! the storing thread waits for is always being compressed: no wait closes a circle.
//! Buffers kept from chunk to chunk also have their pages mapped already, where new
//! ones fault in every page they are written (a fifth of the time, measured).

use std::io::Read;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::vec::Vec;

use super::layout::Layout;
use super::pool::Pool;
use super::workers::{compress, keep_first, store, Done, Job, Row, Threads};
use crate::array::error::ArrayError;
use crate::frame::writer::FrameWriter;
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

/// The writer's parts a run uses.
pub(super) struct Run<'a> {
    pub layout: &'a Layout,
    pub threads: usize,
    pub output: &'a mut FrameWriter,
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
        // A thread's panic (a caller's source, or a bug): the run stops and the caller
        // gets the panic once every thread has ended, as on one thread.
        let panicked = Mutex::new(None);
        let (jobs_in, jobs_out) = sync_channel::<Job<'d>>(workers * cpr.min(64) as usize);
        // Held by the compressing threads alone: should they all end, the feeder stops.
        let jobs_out = Arc::new(Mutex::new(jobs_out));
        let (done_in, done_out) = channel::<Done>();
        let output = self.output;
        let locations = self.locations;
        let ran = std::thread::scope(|s| {
            let store = s.spawn(|| {
                let stored = catch_unwind(AssertUnwindSafe(|| {
                    store(
                        output,
                        locations,
                        first_row * cpr,
                        done_out,
                        &outputs,
                        &stop,
                    )
                }));
                stored.unwrap_or_else(|panic| {
                    // No buffer comes back, no chunk is taken: nothing may wait for them.
                    stop.store(true, Ordering::Relaxed);
                    outputs.close();
                    keep_first(&panicked, panic);
                    Err(ArrayError::layout("the storing thread panicked".into()))
                })
            });
            for _ in 0..workers {
                let done_in = done_in.clone();
                let jobs_out = Arc::clone(&jobs_out);
                let threads = Threads {
                    inputs: &inputs,
                    outputs: &outputs,
                    stop: &stop,
                    panicked: &panicked,
                };
                s.spawn(move || compress(layout, per_chunk, &jobs_out, done_in, threads));
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
        });
        if let Some(panic) = panicked
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            resume_unwind(panic);
        }
        ran
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
