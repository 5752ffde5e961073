//! The blocks of a compressed chunk (`blosc_d` and `pipeline_backward` in C-Blosc2's
//! `blosc/blosc2.c`): each block's streams are decompressed, then the filters are undone
//! from the last slot to the first, as C-Blosc2 3.x does.

use alloc::vec::Vec;

use super::cursor::Cursor;
use super::dest::Dest;
use super::error::{ChunkError, ChunkErrorKind};
use super::header::{ChunkHeader, FLAG_DONT_SPLIT};
use super::pipeline::{streams_into_dest, unfilter};
use super::scratch::{self, grow_zeroed, Buffers};
use crate::blosc::{Codec, Filter};
use crate::codec;

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
pub(super) struct Streams<'a> {
    codec: Codec,
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    dict: Option<&'a [u8]>,
    /// Where the dictionary's bytes start in the chunk, for its errors.
    dict_at: usize,
    zstd: Option<codec::zstd::Zstd>,
}

impl<'a> Streams<'a> {
    /// The streams of a chunk with `header`; `dict` is its dictionary, whose size field
    /// is at `dict_size_at`.
    pub(super) fn new(header: &ChunkHeader, dict: Option<&'a [u8]>, dict_size_at: usize) -> Self {
        Streams {
            codec: header.codec,
            dict,
            dict_at: dict_size_at + INT32_LEN,
            zstd: None,
        }
    }
}

/// Whether the chunk's blocks go through a filter to undo (not when instrumented: C
/// then skips the pipeline; truncation of precision needs no undoing).
pub(super) fn is_filtered(header: &ChunkHeader) -> bool {
    header.blosc2_flags & BLOSC2_INSTR_CODEC == 0
        && header
            .filters
            .iter()
            .any(|(f, _)| !matches!(f, Filter::None | Filter::TruncPrec))
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

    /// Where block `start .. start + len` goes, for a step that writes it whole: a
    /// grown vector is appended to (it holds the blocks before, decoded in order).
    pub(super) fn dest(&mut self, start: usize, len: usize) -> Dest<'_> {
        match self {
            Output::Grown { vec, nbytes } => Dest::Append {
                vec,
                start,
                room: *nbytes,
            },
            Output::Given(s) => Dest::Slice(&mut s[start..start + len]),
        }
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
        if !zeros {
            fill_repeated(all, value);
        }
    }
}

/// `value` repeated over `dest` (a multiple of its length; nothing when it is empty).
pub(super) fn fill_repeated(dest: &mut [u8], value: &[u8]) {
    match value {
        [] => {}
        [byte] => dest.fill(*byte),
        _ => {
            for element in dest.chunks_exact_mut(value.len()) {
                element.copy_from_slice(value);
            }
        }
    }
}

/// The blocks of a compressed chunk: bstarts (checked whole by the caller), then each
/// block's streams, into `out`. `dict` is the chunk's dictionary section, when it has
/// one. With `wanted`, only the blocks it picks are decoded (and checked), and the
/// first block too, aside, when delta needs it as the reference of a later one.
pub(super) fn decode_blocks(
    header: &ChunkHeader,
    data: &[u8],
    dict: Option<&[u8]>,
    out: &mut Output<'_>,
    wanted: Option<&dyn Fn(usize) -> bool>,
) -> Result<(), ChunkError> {
    let nbytes = header.nbytes as usize;
    let blocksize = header.blocksize as usize;
    let nblocks = nbytes.div_ceil(blocksize);
    let leftover = nbytes % blocksize;
    let bstarts_end = header.len() + nblocks * INT32_LEN;
    let mut chunk = Chunk {
        header,
        data,
        streams: Streams::new(header, dict, bstarts_end),
        filtered: is_filtered(header),
        bstarts_end,
    };
    let is_wanted = |block| wanted.is_none_or(|w| w(block));
    let block_len = |block| {
        if block + 1 == nblocks && leftover > 0 {
            leftover
        } else {
            blocksize
        }
    };
    let mut bufs = scratch::take();
    // Delta XORs every later block with the first one's decoded bytes: decoded aside
    // when it is not wanted itself.
    let delta = chunk.filtered && header.filters.iter().any(|(f, _)| *f == Filter::Delta);
    let mut first = Vec::new();
    if delta && !is_wanted(0) && (1..nblocks).any(is_wanted) {
        first = alloc::vec![0; block_len(0)];
        let dest = &mut Dest::Slice(&mut first);
        chunk.decode_block(0, block_len(0), None, dest, &mut bufs)?;
    }
    for block in (0..nblocks).filter(|&block| is_wanted(block)) {
        let bsize = block_len(block);
        if !delta {
            let dest = &mut out.dest(block * blocksize, bsize);
            chunk.decode_block(block, bsize, None, dest, &mut bufs)?;
            continue;
        }
        let (done, block_out) = out.block(block * blocksize, bsize);
        let reference = match block {
            0 => None,
            _ if first.is_empty() => Some(&done[..blocksize]),
            _ => Some(&first[..]),
        };
        let dest = &mut Dest::Slice(block_out);
        chunk.decode_block(block, bsize, reference, dest, &mut bufs)?;
    }
    scratch::keep(bufs);
    Ok(())
}

/// What every block of one chunk is decoded with.
struct Chunk<'a> {
    header: &'a ChunkHeader,
    data: &'a [u8],
    streams: Streams<'a>,
    /// Whether a filter is undone (else the streams go straight to the output).
    filtered: bool,
    bstarts_end: usize,
}

impl Chunk<'_> {
    /// Block `block`, of `bsize` bytes, into `dest`; `reference` is the first
    /// block's decoded bytes (delta's reference), `None` for the first block itself;
    /// `bufs` are the scratch buffers.
    fn decode_block(
        &mut self,
        block: usize,
        bsize: usize,
        reference: Option<&[u8]>,
        dest: &mut Dest<'_>,
        bufs: &mut Buffers,
    ) -> Result<(), ChunkError> {
        let header = self.header;
        let at = header.len() + block * INT32_LEN;
        let mut bstarts = Cursor::at(self.data, at, "bstarts")?;
        let start = bstarts.le_i32("a block start (bstarts)")?;
        if start <= 0 || start as usize >= self.data.len() {
            return Err(ChunkError::at(
                at,
                ChunkErrorKind::BadBlockStart {
                    block: block as u64,
                    found: i64::from(start),
                    min: self.bstarts_end as u64,
                    cbytes: self.data.len() as u64,
                },
            ));
        }
        // The leftover block is one stream, as are blocks not split by byte.
        let split = header.flags & FLAG_DONT_SPLIT == 0 && bsize == header.blocksize as usize;
        let nstreams = if split {
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
        let streams_out = if self.filtered && !streams_into_dest(header) {
            // Every byte is overwritten by the streams: no zero-filling after the first.
            scratch::line(&mut bufs[0], bsize)
        } else {
            dest.whole(0, bsize)
        };
        let mut r = Cursor::at(self.data, start as usize, "a block")?;
        for stream in streams_out.chunks_exact_mut(neblock) {
            read_stream(&mut r, &mut self.streams, stream)?;
        }
        if self.filtered {
            unfilter(header, reference, dest, bsize, bufs)?;
        }
        Ok(())
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
            stream_into(streams, src, at + INT32_LEN, dest)?;
        }
    }
    Ok(())
}

/// A stream's bytes `src` (at byte `src_at` of the chunk) into `dest`: stored as they
/// are when as long, else compressed; codec errors placed in the chunk.
pub(super) fn stream_into(
    streams: &mut Streams<'_>,
    src: &[u8],
    src_at: usize,
    dest: &mut [u8],
) -> Result<(), ChunkError> {
    if src.len() == dest.len() {
        dest.copy_from_slice(src);
        return Ok(());
    }
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
        } => ChunkError::at(src_at + frame_offset as usize, kind),
        kind => ChunkError::at(src_at, kind),
    })
}

/// Decompresses `src` into `dest`, which it must fill exactly (the one check of a
/// stream's length, whatever its codec).
fn decompress(
    streams: &mut Streams<'_>,
    src: &[u8],
    dest: &mut [u8],
) -> Result<(), ChunkErrorKind> {
    let written = match streams.codec {
        Codec::Zstd => {
            let zstd = match &mut streams.zstd {
                Some(zstd) => zstd,
                none => none.insert(codec::zstd::Zstd::new(streams.dict)?),
            };
            zstd.decompress(src, dest)?
        }
        Codec::Lz4 | Codec::Lz4Hc => codec::lz4::decompress_block(src, streams.dict, dest)?,
        #[cfg(feature = "std")]
        Codec::Zlib => codec::zlib::zlib(src, dest)?,
        Codec::BloscLz => codec::blosclz::decompress(src, dest)?,
        other => return Err(ChunkErrorKind::CodecNotDecoded { codec: other }),
    };
    match written == dest.len() {
        true => Ok(()),
        false => Err(ChunkErrorKind::StreamLength {
            expected: dest.len() as u64,
            found: written as u64,
        }),
    }
}
