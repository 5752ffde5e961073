//! The blocks of one chunk compressed on several threads, to the bytes one thread
//! writes (C-Blosc2's `parallel_blosc` compresses a chunk's blocks on its threads too).
//!
//! One thread holds each stream to what is left of the chunk's budget (`destsize`), so
//! a stream's `maxout` depends on the streams before it. Here each block is compressed
//! alone with every stream's `maxout` its own length, then the blocks are put in order.
//! A block whose every stream ends at least its length before `destsize` got the same
//! `maxout` one thread gives it, so the same bytes (a codec's output depends on `maxout`
//! only through whether it fits). From the first block that comes closer, the budget
//! can decide (a codec may give up on a smaller `maxout`, BloscLZ below 66 bytes): those
//! blocks are compressed again as one thread does, from there on. A chunk that compresses
//! well never gets close; one that does not, only in its last blocks.

use alloc::vec::Vec;
use core::sync::atomic::{AtomicUsize, Ordering};

use super::blocks::{self, Geometry, Outcome, Scratch};
use super::input::Input;
use super::CParams;
use crate::chunk::header::INT32_LEN;

/// Compresses the blocks of `src` after the header in `out` on `threads` threads, to
/// the bytes [`blocks::compress_blocks`] writes.
pub(super) fn compress_blocks<I: Input + ?Sized>(
    src: &I,
    params: &CParams,
    g: &Geometry,
    out: &mut Vec<u8>,
    threads: usize,
) -> Result<Outcome, I::Error> {
    let mut kept = I::Buffer::default();
    let reference = blocks::first_block(src, params, g, &mut kept)?;
    let bstarts_at = out.len();
    out.resize(bstarts_at + INT32_LEN * g.nblocks, 0);
    let next = AtomicUsize::new(0);
    let work = || {
        let mut scratch = Scratch::<I::Buffer>::default();
        let mut done = Vec::new();
        loop {
            let j = next.fetch_add(1, Ordering::Relaxed);
            if j >= g.nblocks {
                return done;
            }
            done.push((
                j,
                blocks::block_alone(src, params, g, j, reference, &mut scratch),
            ));
        }
    };
    let mut all = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut all = work();
        for handle in handles {
            match handle.join() {
                Ok(done) => all.extend(done),
                // A panic is a bug: it goes on as it would on one thread.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    });
    all.sort_unstable_by_key(|(j, _)| *j);
    for (j, streams) in all {
        let streams = streams?;
        let (_, bsize, nstreams) = g.block(j, src.len());
        if out.len() + streams.len() + bsize / nstreams > g.destsize {
            return blocks::blocks_from(src, params, g, out, bstarts_at, j);
        }
        blocks::set_bstart(out, bstarts_at, j);
        blocks::append(out, &streams);
    }
    Ok(blocks::outcome(g, src.len(), out, bstarts_at))
}
