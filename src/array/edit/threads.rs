//! One chunk decoded on several threads: an edit decodes and compresses whole chunks
//! (python's default chunks are 64 MiB), which C-Blosc2 does on `nthreads` threads.

use std::vec::Vec;

use crate::chunk::{self, ChunkError, ChunkHeader, DecodeBudget};

/// `raw` decoded as [`chunk::decode`] does, its blocks shared among up to `threads`
/// threads, each decoding a run of whole blocks into its own part of the output.
/// Chunks of one block, of variable-length blocks, or not of `nbytes`, are decoded on
/// the caller's thread (the budget's checks apply as they are).
pub(super) fn decode(
    raw: &[u8],
    nbytes: usize,
    threads: usize,
    budget: &DecodeBudget,
) -> Result<Vec<u8>, ChunkError> {
    let header = match ChunkHeader::parse(raw) {
        Ok(h) => h,
        Err(_) => return chunk::decode(raw, budget),
    };
    let blocks = header.nblocks();
    let fixed = header.block_span(0).is_some();
    if threads <= 1 || blocks < 2 || !fixed || header.nbytes as usize != nbytes {
        return chunk::decode(raw, budget);
    }
    let per = blocks.div_ceil(threads.min(blocks));
    let mut out = std::vec![0u8; nbytes];
    let mut parts = Vec::new();
    let mut rest: &mut [u8] = &mut out;
    let mut first = 0;
    while first < blocks {
        let end = (first + per).min(blocks);
        let span = |b: usize| header.block_span(b).unwrap_or(0..0);
        let len = span(end - 1).end - span(first).start;
        let (part, tail) = core::mem::take(&mut rest).split_at_mut(len);
        parts.push((first..end, part));
        rest = tail;
        first = end;
    }
    let results: Vec<Result<usize, ChunkError>> = std::thread::scope(|s| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|(range, part)| {
                s.spawn(move || {
                    let want = part.len();
                    chunk::decode_range_into(raw, range, |_| true, part).map(|n| n.min(want))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(r) => r,
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    for r in results {
        r?;
    }
    Ok(out)
}
