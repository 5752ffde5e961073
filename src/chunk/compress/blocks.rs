//! The blocks of a compressed chunk (`serial_blosc` and `blosc_c` in C-Blosc2's
//! `blosc/blosc2.c`): block starts, then per block the filter pipeline and its streams,
//! each held to what is left of the chunk's budget of `nbytes + 32` bytes.

use alloc::vec::Vec;

use super::input::Input;
use super::{CParams, CompressError};
use crate::blosc::{Codec, Filter};
use crate::chunk::filters::{bitshuffle, bytedelta, delta, shuffle, trunc_prec};
use crate::chunk::header::{INT32_LEN, TOKEN_RUN};

/// How the chunk's blocks are laid out.
pub(super) struct Geometry {
    pub typesize: usize,
    pub blocksize: usize,
    pub nblocks: usize,
    /// Whole blocks are split into `typesize` streams.
    pub split: bool,
    /// The most bytes the chunk may take (`destsize`: `nbytes` plus the header).
    pub destsize: usize,
}

/// What became of the blocks.
pub(super) enum Outcome {
    /// The streams are written after the block starts.
    Compressed,
    /// Every stream is a run of zeros: the chunk is the zeros special chunk.
    Zeros,
    /// The streams do not fit the budget: the chunk is stored as it is.
    DoesNotFit,
}

impl Geometry {
    /// Block `j` of a chunk of `nbytes`: where it starts, its size, its streams (a
    /// leftover block is one stream).
    pub fn block(&self, j: usize, nbytes: usize) -> (usize, usize, usize) {
        let start = j * self.blocksize;
        let bsize = self.blocksize.min(nbytes - start);
        let split = self.split && bsize == self.blocksize;
        (start, bsize, if split { self.typesize } else { 1 })
    }
}

/// Compresses the blocks of `src` after the header in `out` (block starts, then
/// streams).
pub(super) fn compress_blocks<I: Input + ?Sized>(
    src: &I,
    params: &CParams,
    g: &Geometry,
    out: &mut Vec<u8>,
) -> Result<Outcome, I::Error> {
    let bstarts_at = out.len();
    out.resize(bstarts_at + INT32_LEN * g.nblocks, 0);
    blocks_from(src, params, g, out, bstarts_at, 0)
}

/// Compresses blocks `first..` after what `out` holds, each stream held to what is left
/// of `destsize`, as `serial_blosc` does.
pub(super) fn blocks_from<I: Input + ?Sized>(
    src: &I,
    params: &CParams,
    g: &Geometry,
    out: &mut Vec<u8>,
    bstarts_at: usize,
    first: usize,
) -> Result<Outcome, I::Error> {
    let mut scratch = Scratch::<I::Buffer>::default();
    let mut kept = I::Buffer::default();
    let reference = first_block(src, params, g, &mut kept)?;
    for j in first..g.nblocks {
        set_bstart(out, bstarts_at, j);
        let (filtered, bsize, nstreams) =
            filtered_block(src, params, g, j, reference, &mut scratch)?;
        for stream in filtered.chunks_exact(bsize / nstreams) {
            if !put_stream(params, stream, g.destsize, out) {
                return Ok(Outcome::DoesNotFit);
            }
        }
    }
    Ok(outcome(g, src.len(), out, bstarts_at))
}

/// The chunk's first block as given, which DELTA XORs the later blocks with (`None`
/// without DELTA or with one block): borrowed, or read into `kept`.
pub(super) fn first_block<'a, I: Input + ?Sized>(
    src: &'a I,
    params: &CParams,
    g: &Geometry,
    kept: &'a mut I::Buffer,
) -> Result<Option<&'a [u8]>, I::Error> {
    let delta = params.filters.iter().any(|(f, _)| *f == Filter::Delta);
    if !delta || g.nblocks < 2 {
        return Ok(None);
    }
    src.bytes(0, g.blocksize.min(src.len()), kept).map(Some)
}

/// Block `j` alone: its streams as `blocks_from` writes them when each stream's budget
/// is its own length (`maxout` = `neblock`), as it is while `destsize` is far.
pub(super) fn block_alone<I: Input + ?Sized>(
    src: &I,
    params: &CParams,
    g: &Geometry,
    j: usize,
    reference: Option<&[u8]>,
    scratch: &mut Scratch<I::Buffer>,
) -> Result<Vec<u8>, I::Error> {
    let (filtered, bsize, nstreams) = filtered_block(src, params, g, j, reference, scratch)?;
    let mut out = Vec::with_capacity(bsize + INT32_LEN * nstreams);
    for stream in filtered.chunks_exact(bsize / nstreams) {
        // No budget but the stream's own: every stream fits, as itself at worst.
        put_stream(params, stream, usize::MAX, &mut out);
    }
    Ok(out)
}

/// Block `j` read and through the filter pipeline: the filtered bytes, the block's size
/// and its number of streams.
fn filtered_block<'s, I: Input + ?Sized>(
    src: &'s I,
    params: &CParams,
    g: &Geometry,
    j: usize,
    reference: Option<&[u8]>,
    scratch: &'s mut Scratch<I::Buffer>,
) -> Result<(&'s [u8], usize, usize), I::Error> {
    let (start, bsize, nstreams) = g.block(j, src.len());
    let block = src.bytes(start, bsize, &mut scratch.input)?;
    let filtered = pipeline(
        params,
        g.typesize,
        block,
        start,
        reference,
        &mut scratch.filters,
    )?;
    Ok((filtered, bsize, nstreams))
}

/// Points block `j`'s start at the end of `out`.
pub(super) fn set_bstart(out: &mut [u8], bstarts_at: usize, j: usize) {
    let bstart = out.len() as u32;
    out[bstarts_at + INT32_LEN * j..][..INT32_LEN].copy_from_slice(&bstart.to_le_bytes());
}

/// Zeros when every stream is a run of zeros (every csize is 0 and nothing follows),
/// else Compressed.
pub(super) fn outcome(g: &Geometry, nbytes: usize, out: &[u8], bstarts_at: usize) -> Outcome {
    let nstreams: usize = (0..g.nblocks).map(|j| g.block(j, nbytes).2).sum();
    if out.len() == bstarts_at + INT32_LEN * (g.nblocks + nstreams) {
        return Outcome::Zeros;
    }
    Outcome::Compressed
}

/// Appends one stream (`csize`, then its bytes); false when it does not fit `destsize`.
fn put_stream(params: &CParams, stream: &[u8], destsize: usize, out: &mut Vec<u8>) -> bool {
    let csize_at = out.len();
    out.extend_from_slice(&[0; INT32_LEN]);
    let neblock = stream.len();
    let first = stream[0];
    if is_run(stream) {
        // A run: the byte negated in csize, and a token unless it is zero.
        if out.len() > destsize {
            return false;
        }
        out[csize_at..csize_at + INT32_LEN].copy_from_slice(&(-i32::from(first)).to_le_bytes());
        if first > 0 {
            out.push(TOKEN_RUN);
            if out.len() > destsize {
                return false;
            }
        }
        return true;
    }
    let mut maxout = neblock;
    if out.len() + maxout > destsize {
        maxout = destsize.saturating_sub(out.len());
        if maxout == 0 {
            return false;
        }
    }
    let compressed = encode(params.codec, params.clevel, stream, maxout, out);
    let mut cbytes = out.len() - csize_at - INT32_LEN;
    if !compressed || cbytes == neblock {
        // Not compressed at all: the bytes as they are, if they fit.
        out.truncate(csize_at + INT32_LEN);
        if out.len() + neblock > destsize {
            return false;
        }
        append(out, stream);
        cbytes = neblock;
    }
    out[csize_at..csize_at + INT32_LEN].copy_from_slice(&(cbytes as u32).to_le_bytes());
    true
}

/// The page whose offsets 4K aliasing compares.
const PAGE: usize = 4096;

/// Appends `bytes` to `out`. When the end of `out` lies 1 to 63 bytes past `bytes`
/// modulo a page, each load of a forward copy waits on the store before it (4K
/// aliasing: 64 KiB took 22 µs rather than 1.4, in a third of shuffled f64 ramp's
/// stored streams in blosclz): the bytes then go by a page at a time through a buffer
/// half a page from both.
pub(super) fn append(out: &mut Vec<u8>, bytes: &[u8]) {
    let end = out.as_ptr() as usize + out.len();
    let from = bytes.as_ptr() as usize;
    if !(1..64).contains(&(end.wrapping_sub(from) % PAGE)) {
        out.extend_from_slice(bytes);
        return;
    }
    bounced(out, bytes);
}

/// [`append`] through a buffer, out of line: its pages on the stack of every stream
/// were probed on every call.
#[cold]
#[inline(never)]
fn bounced(out: &mut Vec<u8>, bytes: &[u8]) {
    let mut bounce = [0u8; 2 * PAGE];
    let at = (bytes.as_ptr() as usize + PAGE / 2).wrapping_sub(bounce.as_ptr() as usize) % PAGE;
    for piece in bytes.chunks(PAGE) {
        let by = &mut bounce[at..at + piece.len()];
        by.copy_from_slice(piece);
        out.extend_from_slice(by);
    }
}

/// Whether every byte of `stream` is its first (C's `get_run`), 32 bytes at a time
/// (compared as vectors: 8 at a time, this was most of a very compressible chunk's
/// time outside its codec).
fn is_run(stream: &[u8]) -> bool {
    let pattern = [stream[0]; 32];
    let (blocks, rest) = stream.as_chunks::<32>();
    blocks.iter().all(|b| *b == pattern) && rest.iter().all(|&b| b == stream[0])
}

/// Appends `src` compressed with `codec` to `out` and returns true, or returns false
/// (with `out` as it was) when the codec's output would exceed `maxout` bytes.
fn encode(codec: Codec, clevel: u8, src: &[u8], maxout: usize, out: &mut Vec<u8>) -> bool {
    let before = out.len();
    let fits = match codec {
        Codec::BloscLz => crate::codec::blosclz::encode::compress(clevel, src, maxout, out),
        Codec::Lz4 => crate::codec::lz4::encode::compress(clevel, src, maxout, out),
        Codec::Lz4Hc => crate::codec::lz4::encode_hc::compress(clevel, src, maxout, out),
        Codec::Zlib => crate::codec::zlib::encode::compress(clevel, src, maxout, out),
        Codec::Zstd => crate::codec::zstd::encode::compress(clevel, src, maxout, out),
        // CParams::check refuses the others before anything is compressed.
        _ => false,
    };
    if !fits || out.len() - before > maxout {
        out.truncate(before);
        return false;
    }
    true
}

/// The buffers a thread keeps across the blocks of a chunk: the block read, when the
/// input is read, and what the filters write.
pub(super) struct Scratch<B> {
    input: B,
    filters: Filtered,
}

/// The most bytes of filter buffers a thread keeps between chunks.
const KEEP_AT_MOST: usize = 16 << 20;

std::thread_local! {
    /// The filters' buffers of the thread's last chunk, for its next: new ones per
    /// chunk were fresh pages (above malloc's mmap threshold) faulted in on every call.
    static KEPT: core::cell::Cell<Filtered> = core::cell::Cell::new(Filtered::default());
}

impl<B: Default> Default for Scratch<B> {
    fn default() -> Self {
        Scratch {
            input: B::default(),
            filters: KEPT.with(|k| k.take()),
        }
    }
}

impl<B> Drop for Scratch<B> {
    fn drop(&mut self) {
        let f = core::mem::take(&mut self.filters);
        if f.a.capacity() + f.b.capacity() + f.bits.capacity() <= KEEP_AT_MOST {
            KEPT.with(|k| k.set(f));
        }
    }
}

/// The buffers the filters write.
#[derive(Default)]
struct Filtered {
    a: Vec<u8>,
    b: Vec<u8>,
    bits: Vec<u8>,
}

/// Applies the filter pipeline, first slot first, to `block` (at `start` of the chunk),
/// and returns the filtered block (the block itself without filters). Delta XORs later
/// blocks with the chunk's first block as given (`reference`, C-Blosc2's `src`), the
/// first block with its own elements as they reach the filter.
fn pipeline<'a>(
    params: &CParams,
    typesize: usize,
    block: &'a [u8],
    start: usize,
    reference: Option<&[u8]>,
    scratch: &'a mut Filtered,
) -> Result<&'a [u8], CompressError> {
    let bsize = block.len();
    let mut filtered = false;
    for (slot, &(filter, meta)) in params.filters.iter().enumerate() {
        if filter == Filter::None {
            continue;
        }
        scratch.b.resize(bsize, 0);
        let input: &[u8] = if filtered { &scratch.a } else { block };
        let output = &mut scratch.b[..];
        let size = if meta == 0 {
            typesize
        } else {
            usize::from(meta)
        };
        match filter {
            Filter::Shuffle => shuffle::shuffle(size, input, output),
            Filter::BitShuffle => {
                bitshuffle::bitshuffle(typesize, input, &mut scratch.bits, output)
            }
            Filter::Delta => {
                let reference = match start {
                    0 => None,
                    _ => reference.map(|first| &first[..bsize]),
                };
                delta::delta(typesize, reference, input, output);
            }
            Filter::TruncPrec => {
                trunc_prec::trunc_prec(meta, typesize, input, output).map_err(|_| {
                    CompressError::TruncPrec {
                        slot,
                        meta,
                        typesize,
                    }
                })?
            }
            Filter::ByteDelta => bytedelta::bytedelta(size, input, output),
            // int_trunc (a plugin C-Blosc2 3.3.5 registers) is undone by the decoder only.
            Filter::None | Filter::IntTrunc | Filter::Other(_) => {
                return Err(CompressError::Filter { slot, filter });
            }
        }
        core::mem::swap(&mut scratch.a, &mut scratch.b);
        filtered = true;
    }
    Ok(if filtered { &scratch.a } else { block })
}
