//! The blocks of a compressed chunk (`blosc_d` and `pipeline_backward` in C-Blosc2's
//! `blosc/blosc2.c`): each block's streams are decompressed, then the filters are undone
//! from the last slot to the first, as C-Blosc2 3.x does.

use alloc::vec::Vec;

use super::cursor::Cursor;
use super::error::{ChunkError, ChunkErrorKind};
use super::filters;
use super::header::{ChunkHeader, FLAG_DONT_SPLIT};
use crate::blosc::{Codec, Filter, MAX_FILTERS};

/// Length of a block start or a stream's `csize` (`int32_t`).
const INT32_LEN: usize = 4;
/// The largest byte a run (negative `csize`) can repeat.
const MAX_RUN_BYTE: i32 = 255;
/// Bit 0 of the token after a negative `csize`: a run of one byte.
const TOKEN_RUN: u8 = 0x01;
/// `blosc2_flags` bit 7: the streams hold instrumentation, not filtered data
/// (`BLOSC2_INSTR_CODEC`).
const BLOSC2_INSTR_CODEC: u8 = 0x80;
/// Offset of `flags`, named in codec errors.
const AT_FLAGS: usize = 2;

/// What a chunk's streams are decoded with: the codec, its dictionary and its state.
struct Streams<'a> {
    codec: Codec,
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    dict: Option<&'a [u8]>,
    /// Where the dictionary's bytes start in the chunk, for its errors.
    dict_at: usize,
    zstd: Option<crate::codec::zstd::Zstd>,
}

/// Where a chunk's bytes go: a vector grown block by block, or the caller's slice of
/// exactly `nbytes`. The vector starts with what the input justifies (the caller's
/// reservation); a block that does not fit grows it to the chunk's `nbytes` at once (at
/// most the caller's limit), so that no block is copied by a reallocation.
pub(super) enum Output<'a> {
    Grown { vec: &'a mut Vec<u8>, nbytes: usize },
    Given(&'a mut [u8]),
}

impl Output<'_> {
    /// The bytes before `start` (decoded already), and the `len` bytes from `start`.
    pub(super) fn block(&mut self, start: usize, len: usize) -> (&[u8], &mut [u8]) {
        let all = match self {
            Output::Grown { vec, nbytes } => {
                if start + len > vec.capacity() && !vec.is_empty() {
                    let more = (*nbytes).max(start + len) - vec.len();
                    vec.reserve_exact(more);
                }
                grow_zeroed(vec, start + len);
                &mut vec[..]
            }
            Output::Given(s) => &mut s[..],
        };
        let (done, rest) = all.split_at_mut(start);
        (done, &mut rest[..len])
    }

    /// `bytes` as the whole output.
    pub(super) fn put(&mut self, bytes: &[u8]) {
        match self {
            Output::Grown { vec, .. } => vec.extend_from_slice(bytes),
            Output::Given(s) => s[..bytes.len()].copy_from_slice(bytes),
        }
    }

    /// `value` repeated over the first `len` bytes (a multiple of its length).
    pub(super) fn repeat(&mut self, value: &[u8], len: usize) {
        // A grown vector of zeros is a fresh zeroed allocation already.
        let zeros = value.iter().all(|&b| b == 0) && matches!(self, Output::Grown { .. });
        let (_, all) = self.block(0, len);
        if !zeros && !value.is_empty() {
            for element in all.chunks_exact_mut(value.len()) {
                element.copy_from_slice(value);
            }
        }
    }
}

/// The blocks of a compressed chunk: bstarts (checked whole by the caller), then each
/// block's streams, into `out`. `dict` is the chunk's dictionary section, when it has
/// one.
pub(super) fn decode_blocks(
    header: &ChunkHeader,
    data: &[u8],
    dict: Option<&[u8]>,
    out: &mut Output<'_>,
) -> Result<(), ChunkError> {
    let nbytes = header.nbytes as usize;
    let blocksize = header.blocksize as usize;
    let nblocks = nbytes.div_ceil(blocksize);
    let leftover = nbytes % blocksize;
    let bstarts_end = header.len() + nblocks * INT32_LEN;
    let mut streams = Streams {
        codec: header.codec,
        dict,
        dict_at: bstarts_end + INT32_LEN,
        zstd: None,
    };
    // An instrumented chunk holds the codec's output unfiltered (C skips the pipeline).
    let instrumented = header.blosc2_flags & BLOSC2_INSTR_CODEC != 0;
    let filtered = !instrumented
        && header
            .filters
            .iter()
            .any(|(f, _)| !matches!(f, Filter::None | Filter::TruncPrec));
    let (mut a, mut b) = scratch::take();
    let dont_split = header.flags & FLAG_DONT_SPLIT != 0;
    let mut bstarts = Cursor::at(data, header.len(), "bstarts")?;
    for block in 0..nblocks {
        let at = bstarts.position();
        let start = bstarts.le_i32("a block start (bstarts)")?;
        if start <= 0 || start as usize >= data.len() {
            return Err(ChunkError::at(
                at,
                ChunkErrorKind::BadBlockStart {
                    block: block as u64,
                    found: i64::from(start),
                    min: bstarts_end as u64,
                    cbytes: data.len() as u64,
                },
            ));
        }
        let last = block + 1 == nblocks && leftover > 0;
        let bsize = if last { leftover } else { blocksize };
        let nstreams = if !dont_split && !last {
            usize::from(header.typesize)
        } else {
            1
        };
        let neblock = bsize / nstreams;
        if neblock == 0 || neblock * nstreams != bsize {
            return Err(ChunkError::at(
                8,
                ChunkErrorKind::InvalidField {
                    field: "blocksize",
                    expected: "a multiple of typesize when blocks are split",
                    found: header.blocksize as i64,
                },
            ));
        }
        let (done, block_out) = out.block(block * blocksize, bsize);
        // Without filters the streams go straight to the output.
        let dest = if filtered {
            // Every byte is overwritten by the streams: no zero-filling after the first.
            scratch::fit(&mut a, bsize);
            &mut a[..]
        } else {
            &mut *block_out
        };
        let mut r = Cursor::at(data, start as usize, "a block")?;
        for stream in dest.chunks_exact_mut(neblock) {
            read_stream(&mut r, &mut streams, stream)?;
        }
        if filtered {
            unfilter(header, done, block_out, &mut a, &mut b)?;
        }
    }
    scratch::keep(a, b);
    Ok(())
}

/// The two block buffers of a chunk (the streams' output and the filters' other side),
/// kept between the chunks one thread decodes (with `std`), as C-Blosc2 keeps its
/// context's: the next chunk's blocks then cost no allocation and no zero-filling. Their
/// bytes are never read before the streams or a filter overwrite them whole.
mod scratch {
    use alloc::vec::Vec;

    /// The largest buffer kept between chunks, per thread.
    #[cfg(feature = "std")]
    const KEEP: usize = 2 << 20;

    #[cfg(feature = "std")]
    std::thread_local! {
        static KEPT: core::cell::Cell<(Vec<u8>, Vec<u8>)> =
            const { core::cell::Cell::new((Vec::new(), Vec::new())) };
    }

    pub(super) fn take() -> (Vec<u8>, Vec<u8>) {
        #[cfg(feature = "std")]
        return KEPT.take();
        #[cfg(not(feature = "std"))]
        (Vec::new(), Vec::new())
    }

    pub(super) fn keep(a: Vec<u8>, b: Vec<u8>) {
        #[cfg(feature = "std")]
        if a.capacity() <= KEEP && b.capacity() <= KEEP {
            KEPT.set((a, b));
        }
        #[cfg(not(feature = "std"))]
        drop((a, b));
    }

    /// `v` at `len` bytes, whose old bytes are not needed: shortened, grown by zeros
    /// within its capacity, or, beyond it, [`super::grow_zeroed`]'s fresh allocation.
    pub(super) fn fit(v: &mut Vec<u8>, len: usize) {
        if v.capacity() < len {
            // Its bytes are not needed: emptied, it gets the fresh allocation.
            v.clear();
        }
        super::grow_zeroed(v, len);
    }
}

/// Grows `v` to `len` bytes, the new ones zero. An empty vector gets a fresh zeroed
/// allocation (calloc: fresh pages are zero already), so a block that a hostile header
/// makes large costs nothing until its streams write it, where `resize` would write
/// every byte first.
fn grow_zeroed(v: &mut Vec<u8>, len: usize) {
    if v.is_empty() && v.capacity() < len {
        *v = alloc::vec![0; len];
    } else {
        v.resize(len, 0);
    }
}

/// One stream, filling `dest`.
fn read_stream(
    r: &mut Cursor<'_>,
    streams: &mut Streams<'_>,
    dest: &mut [u8],
) -> Result<(), ChunkError> {
    let at = r.position();
    let csize = r.le_i32("a stream's csize (int32, little-endian)")?;
    match csize {
        0 => dest.fill(0),
        c if c < 0 => {
            let token = r.byte("a stream's token")?;
            if token & TOKEN_RUN == 0 {
                return Err(ChunkError::at(
                    at + INT32_LEN,
                    ChunkErrorKind::BadToken { csize: c, token },
                ));
            }
            if c < -MAX_RUN_BYTE {
                return Err(ChunkError::at(
                    at,
                    ChunkErrorKind::InvalidField {
                        field: "csize",
                        expected: "from -255 to -1 for a run of a byte",
                        found: i64::from(c),
                    },
                ));
            }
            dest.fill(c.unsigned_abs() as u8);
        }
        c => {
            let src = r.bytes(c as usize, "a compressed stream")?;
            if src.len() == dest.len() {
                dest.copy_from_slice(src);
            } else {
                let dict_at = streams.dict_at;
                decompress(streams, src, dest).map_err(|kind| match kind {
                    ChunkErrorKind::CodecNotDecoded { .. } => ChunkError::at(AT_FLAGS, kind),
                    ChunkErrorKind::ZstdHeader {
                        field: "dictionary",
                        frame_offset,
                        ..
                    } => ChunkError::at(dict_at + frame_offset as usize, kind),
                    ChunkErrorKind::ZstdHeader { frame_offset, .. }
                    | ChunkErrorKind::Lz4 {
                        stream_offset: frame_offset,
                        ..
                    } => ChunkError::at(at + INT32_LEN + frame_offset as usize, kind),
                    kind => ChunkError::at(at + INT32_LEN, kind),
                })?;
            }
        }
    }
    Ok(())
}

/// Decompresses `src` into `dest`, which it must fill exactly.
fn decompress(
    streams: &mut Streams<'_>,
    src: &[u8],
    dest: &mut [u8],
) -> Result<(), ChunkErrorKind> {
    match streams.codec {
        Codec::Zstd => {
            let zstd = match &mut streams.zstd {
                Some(zstd) => zstd,
                none => none.insert(crate::codec::zstd::Zstd::new(streams.dict)?),
            };
            zstd.decompress(src, dest)
        }
        Codec::Lz4 | Codec::Lz4Hc => crate::codec::lz4::decompress_block(src, streams.dict, dest),
        #[cfg(feature = "std")]
        Codec::Zlib => crate::codec::zlib::zlib(src, dest),
        Codec::BloscLz => crate::codec::blosclz::decompress(src, dest),
        other => Err(ChunkErrorKind::CodecNotDecoded { codec: other }),
    }
}

/// Undoes the filter pipeline on the block held in `a`, last slot first, the last filter
/// undone writing `block_out`. Delta XORs against the first block's decoded bytes (the
/// start of `done`), or, in the first block (`done` empty), against the element before
/// it, in place (C-Blosc2 3.x; 2.x read a stale buffer when delta was not the last
/// filter undone).
fn unfilter(
    header: &ChunkHeader,
    done: &[u8],
    block_out: &mut [u8],
    a: &mut Vec<u8>,
    b: &mut Vec<u8>,
) -> Result<(), ChunkError> {
    let typesize = usize::from(header.typesize);
    let reference = if done.is_empty() { None } else { Some(done) };
    // The last filter undone writes `block_out`; the others go from `a` to `b` and back.
    let last = (0..MAX_FILTERS)
        .find(|&slot| !matches!(header.filters[slot].0, Filter::None | Filter::TruncPrec));
    for slot in (0..MAX_FILTERS).rev() {
        let (filter, meta) = header.filters[slot];
        let is_last = Some(slot) == last;
        // Meta 0 means the header's typesize (for bytedelta, the super-chunk's).
        let size = if meta == 0 {
            typesize
        } else {
            usize::from(meta)
        };
        match filter {
            Filter::Shuffle | Filter::ByteDelta => {
                let to = if is_last {
                    &mut *block_out
                } else {
                    b.resize(a.len(), 0);
                    &mut b[..]
                };
                if filter == Filter::Shuffle {
                    filters::unshuffle(size, a, to);
                } else {
                    filters::unbytedelta(size, a, to);
                }
                if !is_last {
                    core::mem::swap(a, b);
                }
            }
            // `b` holds the bit-transposed bytes in between.
            Filter::BitShuffle if is_last => {
                filters::bitshuffle::unshuffle(typesize, header.version, a, b, block_out);
            }
            Filter::BitShuffle => {
                let mut moved = alloc::vec![0; a.len()];
                filters::bitshuffle::unshuffle(typesize, header.version, a, b, &mut moved);
                *a = moved;
            }
            Filter::Delta => {
                if is_last {
                    block_out.copy_from_slice(a);
                    filters::undelta(typesize, reference, block_out);
                } else {
                    filters::undelta(typesize, reference, a);
                }
            }
            Filter::None | Filter::TruncPrec => {}
            other => {
                return Err(ChunkError::at(
                    header.filter_offset(slot),
                    ChunkErrorKind::FilterNotDecoded { filter: other },
                ));
            }
        }
    }
    Ok(())
}
