//! Reading a resolved selection into a caller's buffer: the pieces of the chunks it
//! touches ([`Pieces`]: runs of blocks), each read in parts (the chunk's header, block
//! starts and dictionary, then the stored bytes of the blocks it needs), decoded, and
//! copied into the output, on [`Reader::threads`] threads, each with its own scratch
//! kept from piece to piece (nothing else is allocated per piece).
//!
//! Threads share the output through its regions ([`Pieces::regions`]), each behind its
//! lock: a piece whose elements are stored in the output's order decodes straight into
//! its region (which no other piece writes), any other into its thread's buffer first.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::vec::Vec;

use super::sink::{copy, Sink, Source};
use crate::array::error::ArrayError;
use crate::array::geometry::{ChunkPlan, Grid, Piece, Pieces, Resolved};
use crate::array::source::Frame;
use crate::chunk::{self, Parts};
use crate::frame::{Chunk, FrameError, StoredChunk};

/// What a read needs of an array.
pub(crate) struct Reader<'a> {
    pub(crate) frame: &'a Frame,
    pub(crate) grid: &'a Grid,
    pub(crate) itemsize: usize,
    pub(crate) threads: usize,
}

/// One thread's buffers, kept from piece to piece.
#[derive(Default)]
struct Scratch {
    /// A chunk's header, block starts and dictionary.
    prefix: Vec<u8>,
    /// The stored bytes of the blocks a piece needs, and where each block's are.
    stored: Vec<u8>,
    places: Vec<(usize, core::ops::Range<usize>)>,
    /// A piece's decoded blocks (when not decoded into the output).
    decoded: Vec<u8>,
    /// A chunk decoded whole (one that cannot be read by blocks), and its number.
    whole: Option<(u64, Vec<u8>)>,
    /// The element a chunk that is not stored repeats.
    element: Vec<u8>,
    plan: ChunkPlan,
    mask: Vec<bool>,
    /// Another piece's plan and mask, and the blocks of a chunk all its pieces need.
    sibling_plan: ChunkPlan,
    sibling_mask: Vec<bool>,
}

/// What the workers share.
struct Shared<'s, 'o, S: Sink> {
    sel: &'s Resolved,
    sink: &'s S,
    strides: &'s [usize],
    pieces: &'s Pieces,
    regions: Vec<Mutex<&'o mut [S::Item]>>,
    next: AtomicUsize,
    failed: AtomicBool,
    /// The chunks cut into several pieces whose runs were hinted to the source.
    hinted: Mutex<BTreeSet<u64>>,
}

impl<S: Sink> Shared<'_, '_, S> {
    /// Whether piece `i` is the first of its chunk's pieces to ask, when its chunk is
    /// cut into several (whose runs the first then hints).
    fn first_of_chunk(&self, i: usize) -> bool {
        let list = &self.pieces.list;
        let chunk = list[i].chunk;
        let cut = (i > 0 && list[i - 1].chunk == chunk)
            || list.get(i + 1).is_some_and(|p| p.chunk == chunk);
        cut && {
            let mut hinted = self.hinted.lock().unwrap_or_else(|p| p.into_inner());
            hinted.insert(chunk)
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
        let strides = sel.out_strides();
        let spans = self.grid.selection_spans(sel);
        let pieces = Pieces::plan(
            self.grid,
            sel,
            &spans,
            &strides,
            self.threads,
            self.itemsize,
        );
        // Chunks read whole: a remote file fetches them, and their neighbours, at once.
        self.frame
            .chunks
            .will_read_whole(&pieces.whole, self.grid.nblocks());
        let shared = Shared {
            sel,
            sink,
            strides: &strides,
            pieces: &pieces,
            regions: split_regions(&pieces.regions, sink.width(), out),
            next: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
            hinted: Mutex::new(BTreeSet::new()),
        };
        let threads = self.threads.clamp(1, pieces.list.len().max(1));
        let run = || self.worker(&shared);
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
        // The first piece's error, whichever thread met it.
        match errors.into_iter().min_by_key(|(item, _)| *item) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    fn worker<S: Sink>(&self, shared: &Shared<'_, '_, S>) -> Result<(), (usize, ArrayError)> {
        let mut scratch = Scratch::default();
        loop {
            let i = shared.next.fetch_add(1, Ordering::Relaxed);
            if i >= shared.pieces.list.len() || shared.failed.load(Ordering::Relaxed) {
                return Ok(());
            }
            if let Err(e) = self.one_piece(shared, i, &mut scratch) {
                shared.failed.store(true, Ordering::Relaxed);
                return Err((i, e));
            }
        }
    }

    fn one_piece<S: Sink>(
        &self,
        shared: &Shared<'_, '_, S>,
        i: usize,
        scratch: &mut Scratch,
    ) -> Result<(), ArrayError> {
        let piece = &shared.pieces.list[i];
        let base = shared.pieces.regions[piece.region].start;
        let plan = &mut scratch.plan;
        plan.fill(
            self.grid,
            shared.sel,
            shared.strides,
            shared.pieces.spans(i),
        );
        let stored = match self.frame.chunks.chunk(piece.chunk)? {
            Chunk::Stored(stored) => stored,
            Chunk::Special(special) => {
                let pattern = self.frame.chunks.special_pattern(special)?;
                scratch.element.clear();
                scratch
                    .element
                    .extend(pattern.iter().copied().cycle().take(self.itemsize));
                let mut dst = lock(&shared.regions[piece.region]);
                copy(
                    plan,
                    shared.sink,
                    Source::Repeat(&scratch.element),
                    self.itemsize,
                    &mut dst,
                    base,
                );
                return Ok(());
            }
        };
        // The chunk's header and block starts: one read, exactly their bytes, when it
        // has the blocks the grid says (a dictionary, whose size follows, is a second
        // read either way).
        let guess = chunk::EXTENDED_HEADER_LEN + self.grid.nblocks() * 4;
        stored.read_prefix(&mut scratch.prefix, guess)?;
        let parts = Parts::new(&scratch.prefix).map_err(|e| stored.error(e))?;
        let chunk_nbytes = self.grid.chunk_items * self.itemsize;
        let header = parts.header();
        if header.nbytes as usize != chunk_nbytes {
            let reason = if (header.nbytes as usize) < chunk_nbytes {
                "fewer bytes than the array's chunks hold (extchunknitems x typesize)"
            } else {
                "more bytes than the array's chunks hold (extchunknitems x typesize)"
            };
            return Err(stored.nbytes_error(header.nbytes as usize, reason).into());
        }
        let by_blocks = !header.vl_blocks()
            && header.blocksize as usize == self.grid.block_items * self.itemsize;
        if !by_blocks {
            // Blocks that are not the array's: the chunk is decoded whole.
            let chunk = self.whole(&stored, piece, &mut scratch.whole, &scratch.prefix)?;
            let mut dst = lock(&shared.regions[piece.region]);
            let src = Source::Bytes {
                bytes: chunk,
                base: 0,
            };
            copy(
                &scratch.plan,
                shared.sink,
                src,
                self.itemsize,
                &mut dst,
                base,
            );
            return Ok(());
        }
        plan.block_mask(self.grid, &mut scratch.mask);
        let mask = &scratch.mask;
        let wanted = |b: usize| mask.get(b).copied().unwrap_or(false);
        let blocks = piece.blocks.clone();
        if !parts.is_whole() {
            if shared.first_of_chunk(i) {
                let sibling = (&mut scratch.sibling_plan, &mut scratch.sibling_mask);
                self.hint_runs(shared, i, &stored, &parts, sibling, &mut scratch.places);
            }
            let needed = parts.needed(blocks.clone(), wanted);
            stored.read_blocks(&parts, needed, &mut scratch.stored, &mut scratch.places)?;
        }
        let (bytes, places) = (&scratch.stored, &scratch.places);
        let stored_bytes = |b: usize| {
            let at = places.binary_search_by_key(&b, |(block, _)| *block).ok()?;
            bytes.get(places[at].1.clone())
        };
        let block_bytes = self.grid.block_items * self.itemsize;
        if let Some(at) = plan.direct(self.grid, &blocks).filter(|_| S::DIRECT) {
            let mut dst = lock(&shared.regions[piece.region]);
            let start = (at - base) * self.itemsize;
            let len = blocks.len() * block_bytes;
            if let Some(dst) = S::as_bytes(&mut dst[..]).and_then(|d| d.get_mut(start..start + len))
            {
                parts
                    .decode_into(blocks, wanted, stored_bytes, dst)
                    .map_err(|e| stored.error(e))?;
                return Ok(());
            }
        }
        let len = blocks.len() * block_bytes;
        if scratch.decoded.len() < len {
            // Every byte a piece's copy reads is decoded first: no zeroing per piece.
            scratch.decoded.resize(len, 0);
        }
        parts
            .decode_into(
                blocks.clone(),
                wanted,
                stored_bytes,
                &mut scratch.decoded[..len],
            )
            .map_err(|e| stored.error(e))?;
        let src = Source::Bytes {
            bytes: &scratch.decoded[..len],
            base: blocks.start * self.grid.block_items,
        };
        let mut dst = lock(&shared.regions[piece.region]);
        copy(plan, shared.sink, src, self.itemsize, &mut dst, base);
        Ok(())
    }

    /// When piece `i`'s chunk is cut into several pieces (read on several threads):
    /// tells the source the runs of blocks they all need that lie back to back in the
    /// chunk, so that a remote file fetches each run in one request, as one thread's
    /// read of them would be (`places`: scratch for the extents).
    fn hint_runs<S: Sink>(
        &self,
        shared: &Shared<'_, '_, S>,
        i: usize,
        stored: &StoredChunk<'_>,
        parts: &Parts<'_>,
        (plan, mask): (&mut ChunkPlan, &mut Vec<bool>),
        places: &mut Vec<(usize, core::ops::Range<usize>)>,
    ) {
        let list = &shared.pieces.list;
        let chunk = list[i].chunk;
        let first = (0..i)
            .rev()
            .take_while(|&j| list[j].chunk == chunk)
            .last()
            .unwrap_or(i);
        let end = (i..list.len())
            .take_while(|&j| list[j].chunk == chunk)
            .last()
            .unwrap_or(i)
            + 1;
        if end - first < 2 {
            return;
        }
        let mut union = std::vec![false; self.grid.nblocks()];
        for (j, sibling) in list.iter().enumerate().take(end).skip(first) {
            plan.fill(
                self.grid,
                shared.sel,
                shared.strides,
                shared.pieces.spans(j),
            );
            plan.block_mask(self.grid, mask);
            for b in sibling.blocks.clone() {
                if let (Some(u), Some(true)) = (union.get_mut(b), mask.get(b)) {
                    *u = true;
                }
            }
        }
        let wanted = |b: usize| union.get(b).copied().unwrap_or(false);
        places.clear();
        places.extend(
            parts
                .needed(0..union.len(), wanted)
                .filter_map(|b| Some((b, parts.extent(b)?))),
        );
        places.sort_by_key(|(_, e)| e.start);
        let mut k = 0;
        while k < places.len() {
            let (start, mut end) = (places[k].1.start, places[k].1.end);
            let from = k;
            k += 1;
            while k < places.len() && places[k].1.start == end {
                end = places[k].1.end;
                k += 1;
            }
            if k - from > 1 {
                stored.will_read(start..end);
            }
        }
    }

    /// Chunk `piece.chunk` decoded whole into `kept` (kept for the thread's next piece
    /// of it); `prefix` is its prefix, the whole chunk when it says so.
    fn whole<'k>(
        &self,
        stored: &StoredChunk<'_>,
        piece: &Piece,
        kept: &'k mut Option<(u64, Vec<u8>)>,
        prefix: &[u8],
    ) -> Result<&'k [u8], FrameError> {
        if !matches!(kept, Some((n, _)) if *n == piece.chunk) {
            let nbytes = self.grid.chunk_items * self.itemsize;
            let mut chunk = kept.take().map(|(_, v)| v).unwrap_or_default();
            chunk.resize(nbytes, 0);
            let mut raw = Vec::new();
            let all = if prefix.len() >= parts_cbytes(prefix) {
                prefix
            } else {
                stored.read_all(&mut raw)?;
                &raw[..]
            };
            chunk::decode_into(all, &mut chunk).map_err(|e| stored.error(e))?;
            *kept = Some((piece.chunk, chunk));
        }
        Ok(kept.as_ref().map(|(_, v)| &v[..]).unwrap_or_default())
    }
}

/// The `cbytes` of the chunk whose prefix is `prefix`.
fn parts_cbytes(prefix: &[u8]) -> usize {
    chunk::ChunkHeader::parse(prefix).map_or(usize::MAX, |h| h.cbytes as usize)
}

fn lock<'m, T>(m: &'m Mutex<T>) -> std::sync::MutexGuard<'m, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The output cut into its regions (`width` items per element).
fn split_regions<'o, T>(
    regions: &[core::ops::Range<usize>],
    width: usize,
    out: &'o mut [T],
) -> Vec<Mutex<&'o mut [T]>> {
    let mut cut = Vec::with_capacity(regions.len());
    let mut rest = out;
    let mut at = 0;
    for r in regions {
        let (_, tail) = core::mem::take(&mut rest).split_at_mut(r.start * width - at);
        let (region, tail) = tail.split_at_mut((r.end - r.start) * width);
        cut.push(Mutex::new(region));
        rest = tail;
        at = r.end * width;
    }
    cut
}
