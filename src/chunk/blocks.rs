//! The blocks of a compressed chunk (`blosc_d` and `pipeline_backward` in C-Blosc2's
//! `blosc/blosc2.c`): each block's streams are decompressed, then the filters are undone
//! from the last slot to the first, as C-Blosc2 3.x does.

use alloc::vec::Vec;

use super::error::{ChunkError, ChunkErrorKind};
use super::filters;
use super::header::{ChunkCodec, ChunkHeader, Filter, FLAG_DONT_SPLIT, MAX_FILTERS};
use crate::error::Expected;
use crate::msgpack::read::Reader;

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
    codec: ChunkCodec,
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    dict: Option<&'a [u8]>,
    #[cfg(feature = "std")]
    zstd: Option<super::zstd::Zstd>,
}

/// The blocks of a compressed chunk: bstarts (checked whole by the caller), then each
/// block's streams. `dict` is the chunk's dictionary section, when it has one.
pub(super) fn decode_blocks(
    header: &ChunkHeader,
    data: &[u8],
    dict: Option<&[u8]>,
) -> Result<Vec<u8>, ChunkError> {
    let nbytes = header.nbytes as usize;
    let blocksize = header.blocksize as usize;
    let nblocks = nbytes.div_ceil(blocksize);
    let leftover = nbytes % blocksize;
    let bstarts_end = header.len() + nblocks * INT32_LEN;
    let mut streams = Streams {
        codec: header.codec,
        dict,
        #[cfg(feature = "std")]
        zstd: None,
    };
    // An instrumented chunk holds the codec's output unfiltered (C skips the pipeline).
    let instrumented = header.blosc2_flags & BLOSC2_INSTR_CODEC != 0;
    let filtered = !instrumented
        && header
            .filters
            .iter()
            .any(|(f, _)| !matches!(f, Filter::None | Filter::TruncPrec));
    // Never more than the input holds up front; the rest grows as blocks decode.
    let mut out = Vec::with_capacity(nbytes.min(data.len().saturating_mul(32)));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let dont_split = header.flags & FLAG_DONT_SPLIT != 0;
    let mut bstarts = Reader::new(data);
    bstarts.seek(header.len(), Expected::Described("bstarts"))?;
    for block in 0..nblocks {
        let at = bstarts.position();
        let start = bstarts.le_i32(Expected::Described("a block start (bstarts)"))?;
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
        let block_start = out.len();
        // Without filters the streams go straight to the output.
        let target = if filtered {
            // Every byte is overwritten by the streams: no zero-filling after the first.
            grow_zeroed(&mut a, bsize);
            &mut a
        } else {
            grow_zeroed(&mut out, block_start + bsize);
            &mut out
        };
        let dest = &mut target[if filtered { 0 } else { block_start }..];
        let mut r = Reader::new(data);
        r.seek(start as usize, Expected::Described("a block"))?;
        for stream in dest.chunks_exact_mut(neblock) {
            read_stream(&mut r, &mut streams, stream)?;
        }
        if filtered {
            unfilter(header, &mut out, &mut a, &mut b)?;
        }
    }
    Ok(out)
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
    r: &mut Reader<'_>,
    streams: &mut Streams<'_>,
    dest: &mut [u8],
) -> Result<(), ChunkError> {
    let at = r.position();
    let csize = r.le_i32(Expected::Described(
        "a stream's csize (int32, little-endian)",
    ))?;
    match csize {
        0 => dest.fill(0),
        c if c < 0 => {
            let token = r.byte(Expected::Described("a stream's token"))?;
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
            let src = r.bytes(c as usize, Expected::Described("a compressed stream"))?;
            if src.len() == dest.len() {
                dest.copy_from_slice(src);
            } else {
                decompress(streams, src, dest).map_err(|kind| match kind {
                    ChunkErrorKind::CodecNotDecoded { .. } => ChunkError::at(AT_FLAGS, kind),
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
        #[cfg(feature = "std")]
        ChunkCodec::Zstd => {
            let zstd = match &mut streams.zstd {
                Some(zstd) => zstd,
                none => none.insert(super::zstd::Zstd::new(streams.dict)?),
            };
            zstd.decompress(src, dest)
        }
        #[cfg(feature = "std")]
        ChunkCodec::Lz4 => super::codecs::lz4(src, streams.dict, dest),
        #[cfg(feature = "std")]
        ChunkCodec::Zlib => super::codecs::zlib(src, dest),
        ChunkCodec::BloscLz => super::blosclz::decompress(src, dest),
        other => Err(ChunkErrorKind::CodecNotDecoded { codec: other }),
    }
}

/// Undoes the filter pipeline on the block held in `a`, last slot first, and appends
/// the result to `out`. Delta XORs against the first block's decoded bytes (`out`'s
/// start), or, in the first block, against the element before it, in place (C-Blosc2
/// 3.x; 2.x read a stale buffer when delta was not the last filter undone).
fn unfilter(
    header: &ChunkHeader,
    out: &mut Vec<u8>,
    a: &mut Vec<u8>,
    b: &mut Vec<u8>,
) -> Result<(), ChunkError> {
    let typesize = usize::from(header.typesize);
    let block_start = out.len();
    // The last filter undone appends to `out`; the others go from `a` to `b` and back.
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
            Filter::Shuffle if is_last => filters::unshuffle_append(size, a, out),
            Filter::Shuffle => {
                b.resize(a.len(), 0);
                filters::unshuffle(size, a, b);
                core::mem::swap(a, b);
            }
            Filter::BitShuffle if is_last => {
                super::bitshuffle::unshuffle_append(typesize, header.version, a, b, out);
            }
            Filter::BitShuffle => {
                let mut moved = Vec::with_capacity(a.len());
                super::bitshuffle::unshuffle_append(typesize, header.version, a, b, &mut moved);
                *a = moved;
            }
            Filter::Delta if is_last => {
                out.extend_from_slice(a);
                let (done, block) = out.split_at_mut(block_start);
                let reference = if block_start == 0 { None } else { Some(&*done) };
                filters::undelta(typesize, reference, block);
            }
            Filter::Delta => {
                let reference = if block_start == 0 {
                    None
                } else {
                    Some(&out[..])
                };
                filters::undelta(typesize, reference, a);
            }
            Filter::ByteDelta => {
                b.resize(a.len(), 0);
                filters::unbytedelta(size, a, b);
                if is_last {
                    out.extend_from_slice(b);
                } else {
                    core::mem::swap(a, b);
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
