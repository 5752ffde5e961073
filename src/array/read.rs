//! Reading a resolved selection into a caller's buffer: the chunks it touches, decoded
//! in parallel (one scratch chunk per thread, nothing else allocated per chunk), each
//! copying its share into the output.
//!
//! Threads share the output through slabs: the output positions of one chunk along the
//! first axis the result keeps form one contiguous stretch of it, which no chunk of
//! another position along that axis writes. Each slab has its lock; the chunks are
//! handed out with that axis varying fastest, so threads mostly hold different slabs.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::vec::Vec;

use super::error::ArrayError;
use super::grid::{Grid, Span};
use super::plan::{out_strides, ChunkPlan, Sink, Source};
use super::resolve::Resolved;
use super::source::{Fetched, Frame};
use crate::chunk;
use crate::frame::{special_pattern, FrameError, FrameErrorKind};

/// What a read needs of an array.
pub(crate) struct Reader<'a> {
    pub(crate) frame: &'a Frame,
    pub(crate) grid: &'a Grid,
    pub(crate) itemsize: usize,
    pub(crate) threads: usize,
}

/// One thread's buffers, kept from chunk to chunk.
#[derive(Default)]
struct Scratch {
    /// The chunk's stored bytes.
    raw: Vec<u8>,
    /// The chunk decoded.
    chunk: Vec<u8>,
    /// The element a chunk that is not stored repeats.
    element: Vec<u8>,
    plan: ChunkPlan,
    spans: Vec<Span>,
    coords: Vec<u64>,
}

/// The chunks a selection touches, in the order they are handed out.
struct Work<'s> {
    /// Per axis, the chunks touched and the positions each holds.
    spans: Vec<Vec<Span>>,
    /// The axis whose spans index the slabs (the first kept one), if any.
    slab_axis: Option<usize>,
    strides: &'s [usize],
    count: usize,
}

impl Work<'_> {
    /// The spans (one per axis) of work item `item`, and its slab.
    fn item(&self, mut item: usize, spans: &mut Vec<Span>) -> usize {
        spans.clear();
        spans.extend(self.spans.iter().map(|s| s[0]));
        let mut slab = 0;
        if let Some(p) = self.slab_axis {
            let n = self.spans[p].len();
            slab = item % n;
            spans[p] = self.spans[p][slab];
            item /= n;
        }
        for d in (0..self.spans.len()).rev() {
            if Some(d) == self.slab_axis {
                continue;
            }
            let n = self.spans[d].len();
            spans[d] = self.spans[d][item % n];
            item /= n;
        }
        slab
    }

    /// The output element where slab `j` starts.
    fn slab_start(&self, j: usize) -> usize {
        match self.slab_axis {
            Some(p) => self.spans[p][j].first as usize * self.strides[p],
            None => 0,
        }
    }
}

impl Reader<'_> {
    /// Reads `sel` into `out` (its whole length, as `sink` lays elements out).
    pub(crate) fn read<S: Sink>(
        &self,
        sel: &Resolved,
        sink: &S,
        out: &mut [S::Item],
    ) -> Result<(), ArrayError> {
        if sel.len() == 0 {
            return Ok(());
        }
        let strides = out_strides(sel);
        let spans: Vec<Vec<Span>> = (0..self.grid.ndim())
            .map(|d| self.grid.spans(d, &sel.axes[d]))
            .collect();
        let count = spans.iter().map(Vec::len).product();
        let work = Work {
            slab_axis: sel.axes.iter().position(|a| a.kept),
            spans,
            strides: &strides,
            count,
        };
        let slabs = split_slabs(&work, sink.width(), out);
        let next = AtomicUsize::new(0);
        let failed = AtomicBool::new(false);
        let threads = self.threads.clamp(1, count.max(1));
        let run = || {
            let chunk = |item, scratch: &mut Scratch| {
                self.one_chunk(sel, sink, &work, &slabs, item, scratch)
            };
            worker(work.count, &next, &failed, chunk)
        };
        let mut errors: Vec<(usize, ArrayError)> = Vec::new();
        if threads == 1 {
            errors.extend(run().err());
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (1..threads).map(|_| s.spawn(run)).collect();
                errors.extend(run().err());
                for h in handles {
                    match h.join() {
                        Ok(r) => errors.extend(r.err()),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
            });
        }
        // The first chunk's error, whichever thread met it.
        match errors.into_iter().min_by_key(|(item, _)| *item) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    fn one_chunk<S: Sink>(
        &self,
        sel: &Resolved,
        sink: &S,
        work: &Work<'_>,
        slabs: &[Mutex<&mut [S::Item]>],
        item: usize,
        scratch: &mut Scratch,
    ) -> Result<(), ArrayError> {
        let slab = work.item(item, &mut scratch.spans);
        scratch.coords.clear();
        scratch.coords.extend(scratch.spans.iter().map(|s| s.chunk));
        let n = self.grid.chunk_number(&scratch.coords);
        scratch
            .plan
            .fill(self.grid, sel, work.strides, &scratch.spans);
        let source = match self.frame.fetch(n, &mut scratch.raw)? {
            Fetched::Special(special) => {
                let typesize = self.frame.header.info.typesize;
                let pattern = special_pattern(special, typesize).ok_or_else(|| {
                    let kind = FrameErrorKind::InvalidField {
                        field: "typesize",
                        value: i128::from(typesize),
                        reason: "NaN chunks need a typesize of 4 or 8",
                    };
                    FrameError::at(47, kind)
                })?;
                scratch.element.clear();
                scratch
                    .element
                    .extend(pattern.iter().copied().cycle().take(self.itemsize));
                Source::Repeat(&scratch.element)
            }
            Fetched::Stored => {
                let base = work.slab_start(slab);
                if let Some(at) = scratch.plan.whole_chunk(self.grid).filter(|_| S::DIRECT) {
                    // The chunk is a stretch of the output as it is stored: decoded there.
                    let mut dst = slabs[slab].lock().unwrap_or_else(|p| p.into_inner());
                    let start = (at - base) * self.itemsize;
                    let nbytes = self.grid.chunk_items * self.itemsize;
                    let dst =
                        S::as_bytes(&mut dst[..]).and_then(|d| d.get_mut(start..start + nbytes));
                    if let Some(dst) = dst {
                        return self.decode(n, &scratch.raw, dst);
                    }
                }
                let nbytes = self.grid.chunk_items * self.itemsize;
                if scratch.chunk.len() != nbytes {
                    scratch.chunk = std::vec![0; nbytes];
                }
                self.decode(n, &scratch.raw, &mut scratch.chunk)?;
                Source::Bytes(&scratch.chunk)
            }
        };
        let base = work.slab_start(slab);
        let mut dst = slabs[slab].lock().unwrap_or_else(|p| p.into_inner());
        scratch
            .plan
            .copy(sink, source, self.itemsize, &mut dst, base);
        Ok(())
    }

    /// Decodes chunk `n` (its stored bytes `raw`) into `chunk`, which must come out
    /// whole (`extchunknitems` elements).
    ///
    /// The whole chunk is decoded. Once the chunk decoder decodes chosen blocks, this
    /// call is the one to switch: the blocks needed are `ChunkPlan::block_mask` of the
    /// chunk's plan (what [`Array::touched`](super::Array::touched) reports).
    fn decode(&self, n: u64, raw: &[u8], chunk: &mut [u8]) -> Result<(), ArrayError> {
        let written = chunk::decode_into(raw, chunk).map_err(|e| self.frame.chunk_error(n, e))?;
        if written != chunk.len() {
            return Err(self.frame.nbytes_error(n, written, chunk.len()).into());
        }
        Ok(())
    }
}

/// One thread's share: the next chunk item not yet taken (of `count`), by `chunk`, until
/// none is left or a thread has failed; the item that failed here and why.
fn worker(
    count: usize,
    next: &AtomicUsize,
    failed: &AtomicBool,
    chunk: impl Fn(usize, &mut Scratch) -> Result<(), ArrayError>,
) -> Result<(), (usize, ArrayError)> {
    let mut scratch = Scratch::default();
    loop {
        let item = next.fetch_add(1, Ordering::Relaxed);
        if item >= count || failed.load(Ordering::Relaxed) {
            return Ok(());
        }
        if let Err(e) = chunk(item, &mut scratch) {
            failed.store(true, Ordering::Relaxed);
            return Err((item, e));
        }
    }
}

/// The output cut into one slab per span of the slab axis (the whole of it when the
/// result keeps no axis).
fn split_slabs<'o, T>(work: &Work<'_>, width: usize, out: &'o mut [T]) -> Vec<Mutex<&'o mut [T]>> {
    let Some(p) = work.slab_axis else {
        return std::vec![Mutex::new(out)];
    };
    let mut slabs = Vec::with_capacity(work.spans[p].len());
    let mut rest = out;
    let mut at = 0;
    for span in &work.spans[p] {
        let start = span.first as usize * work.strides[p] * width;
        let end = (span.last as usize + 1) * work.strides[p] * width;
        let (_, tail) = core::mem::take(&mut rest).split_at_mut(start - at);
        let (slab, tail) = tail.split_at_mut(end - start);
        slabs.push(Mutex::new(slab));
        rest = tail;
        at = end;
    }
    slabs
}
