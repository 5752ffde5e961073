//! The blocks of a compressed chunk (`blosc_d` and `pipeline_backward` in C-Blosc2's
//! `blosc/blosc2.c`): each block's streams are decompressed, then the filters are undone
//! from the last slot to the first, as C-Blosc2 3.x does.

use alloc::vec::Vec;

use super::output::{Output, Stored, Want};
use super::pipeline::{only_shuffle, streams_into_dest, unfilter};
use super::scratch::{self, Buffers};
use crate::blosc::{Codec, Filter};
use crate::chunk::cursor::Cursor;
use crate::chunk::dest::Dest;
use crate::chunk::error::{ChunkError, ChunkErrorKind};
use crate::chunk::filters;
use crate::chunk::header::{at, ChunkHeader, FLAG_DONT_SPLIT, INT32_LEN, TOKEN_RUN};
use crate::codec;
use crate::simd::Unit;

/// The most streams a block is split into (a byte-shuffle's rows, 16-byte elements).
const MAX_ROWS: usize = 16;
/// The largest byte a run (negative `csize`) can repeat.
const MAX_RUN_BYTE: i32 = 255;
/// `blosc2_flags` bit 7: the streams hold instrumentation, not filtered data
/// (`BLOSC2_INSTR_CODEC`).
const BLOSC2_INSTR_CODEC: u8 = 0x80;

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

/// The blocks of a compressed chunk that `want` asks for: bstarts (in `data`, checked
/// whole by the caller), then each block's streams (in `data` too, or each block's own
/// bytes: `stored`), into `out`. `dict` is the chunk's dictionary section, when it has
/// one. The first block is decoded aside when delta needs it as the reference of a
/// later one and `out` does not get it.
pub(super) fn decode_blocks(
    header: &ChunkHeader,
    data: &[u8],
    stored: Stored<'_, '_>,
    dict: Option<&[u8]>,
    out: &mut Output<'_>,
    want: &Want<'_>,
) -> Result<(), ChunkError> {
    let nbytes = header.nbytes as usize;
    let blocksize = header.blocksize as usize;
    let nblocks = nbytes.div_ceil(blocksize);
    let leftover = nbytes % blocksize;
    let bstarts_end = header.len() + nblocks * INT32_LEN;
    let mut chunk = Chunk {
        header,
        data,
        stored,
        streams: Streams::new(header, dict, bstarts_end),
        filtered: is_filtered(header),
        bstarts_end,
    };
    let block_len = |block| {
        if block + 1 == nblocks && leftover > 0 {
            leftover
        } else {
            blocksize
        }
    };
    let mut bufs = scratch::take();
    // Delta XORs every later block with the first one's decoded bytes: decoded aside
    // when the output does not get it.
    let first_in_out = want.range.start == 0 && want.wants(0);
    let delta = needs_first(header, want, nblocks);
    let mut first = Vec::new();
    if delta && !first_in_out {
        first = alloc::vec![0; block_len(0)];
        let dest = &mut Dest::Slice(&mut first);
        chunk.decode_block(0, block_len(0), None, dest, &mut bufs)?;
    }
    for block in want.blocks(nblocks).filter(|&block| want.wants(block)) {
        let bsize = block_len(block);
        if !delta {
            let dest = &mut out.dest(block * blocksize, bsize);
            chunk.decode_block(block, bsize, None, dest, &mut bufs)?;
            continue;
        }
        let (done, block_out) = out.block(block * blocksize, bsize);
        let reference = match block {
            0 => None,
            // The output holds the chunk from its start.
            _ if first_in_out => Some(&done[..blocksize]),
            _ => Some(&first[..]),
        };
        let dest = &mut Dest::Slice(block_out);
        chunk.decode_block(block, bsize, reference, dest, &mut bufs)?;
    }
    scratch::keep(bufs);
    Ok(())
}

/// Whether the blocks `want` asks for (of `nblocks`) need the first block decoded
/// (delta's reference): a later block is asked for and delta is undone.
pub(super) fn needs_first(header: &ChunkHeader, want: &Want<'_>, nblocks: usize) -> bool {
    is_filtered(header)
        && header.filters.iter().any(|(f, _)| *f == Filter::Delta)
        && want.blocks(nblocks).any(|b| b > 0 && want.wants(b))
}

/// What every block of one chunk is decoded with.
struct Chunk<'a, 'f, 's> {
    header: &'a ChunkHeader,
    data: &'a [u8],
    stored: Stored<'f, 's>,
    streams: Streams<'a>,
    /// Whether a filter is undone (else the streams go straight to the output).
    filtered: bool,
    bstarts_end: usize,
}

impl Chunk<'_, '_, '_> {
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
        // `data` is the chunk up to its cbytes, or (read in parts) up to its streams.
        let cbytes = header.cbytes as usize;
        if start <= 0 || start as usize >= cbytes {
            return Err(ChunkError::at(
                at,
                ChunkErrorKind::BadBlockStart {
                    block: block as u64,
                    found: i64::from(start),
                    min: self.bstarts_end as u64,
                    cbytes: cbytes as u64,
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
        let mut r = match self.stored {
            Stored::Chunk => Cursor::at(self.data, start as usize, "a block")?,
            Stored::Parts(stored) => block_bytes(header, block, start as usize, stored)?,
        };
        if self.filtered
            && split
            && filters::shuffle::unshuffles_rows(nstreams)
            && only_shuffle(header)
        {
            // The unshuffle reads the streams stored as they are where they are, not
            // from a copy (C copies them first).
            let [streams_buf, .., zeros_buf] = bufs;
            let buf = scratch::line(streams_buf, bsize);
            let mut rows: [Row<'_>; MAX_ROWS] = [Row::Written; MAX_ROWS];
            for (row, stream) in rows.iter_mut().zip(buf.chunks_exact_mut(neblock)) {
                *row = read_stream(&mut r, &mut self.streams, stream, true)?;
            }
            let (buf, zeros) = (&*buf, scratch::zeros(zeros_buf, neblock));
            let rows: [&[u8]; MAX_ROWS] = core::array::from_fn(|j| match rows[j] {
                Row::Stored(bytes) => bytes,
                Row::Zeros => zeros,
                Row::Written => buf.get(j * neblock..(j + 1) * neblock).unwrap_or_default(),
            });
            filters::shuffle::unshuffle_rows(Unit::detected(), &rows[..nstreams], dest);
            return Ok(());
        }
        let typesize = usize::from(header.typesize);
        if self.filtered
            && !split
            && matches!(self.streams.codec, Codec::Lz4 | Codec::Lz4Hc)
            && filters::shuffle::unshuffles_rows(typesize)
            && bsize.is_multiple_of(typesize)
            && only_shuffle(header)
        {
            // The block's first literals (a float's noisy low bytes, shuffled) are left
            // where they are in the chunk for the rows they hold whole.
            let row = bsize / typesize;
            let buf = scratch::line(&mut bufs[0], bsize);
            let lead = read_lz4_stream(&mut r, &mut self.streams, buf, row)?;
            let rows: [&[u8]; MAX_ROWS] = core::array::from_fn(|j| {
                let at = j * row..(j + 1) * row;
                lead.get(at.clone()).or(buf.get(at)).unwrap_or_default()
            });
            filters::shuffle::unshuffle_rows(Unit::detected(), &rows[..typesize], dest);
            return Ok(());
        }
        let streams_out = if self.filtered && !streams_into_dest(header) {
            // Every byte is overwritten by the streams: no zero-filling after the first.
            scratch::line(&mut bufs[0], bsize)
        } else {
            dest.whole(0, bsize)
        };
        for stream in streams_out.chunks_exact_mut(neblock) {
            read_stream(&mut r, &mut self.streams, stream, false)?;
        }
        if self.filtered {
            unfilter(header, reference, dest, bsize, bufs)?;
        }
        Ok(())
    }
}

/// A cursor over block `block`'s own stored bytes (from `start`, its bstarts entry), as
/// C-Blosc2 reads a block of a chunk on disk: their length (to the next block's start)
/// at least 1 and at most `blocksize + 4 * typesize` (`blosc_d`'s bound for a lazy
/// block).
fn block_bytes<'a>(
    header: &ChunkHeader,
    block: usize,
    start: usize,
    stored: &dyn Fn(usize) -> Option<&'a [u8]>,
) -> Result<Cursor<'a>, ChunkError> {
    let bytes = stored(block).unwrap_or_default();
    let max = header.blocksize as usize + 4 * usize::from(header.typesize);
    if bytes.is_empty() || bytes.len() > max {
        return Err(ChunkError::at(
            header.len() + block * INT32_LEN,
            ChunkErrorKind::InvalidField {
                field: "a block's stored length (to the next block's start)",
                expected: "from 1 to blocksize + 4 x typesize (a block read on its own)",
                found: bytes.len() as i64,
            },
        ));
    }
    Ok(Cursor::block(bytes, start))
}

/// Where a stream's bytes are: written to its place, or (read in place) stored as they
/// are in the chunk, or zeros.
#[derive(Clone, Copy)]
enum Row<'a> {
    Written,
    Stored(&'a [u8]),
    Zeros,
}

/// One stream, filling `dest`; or, with `in_place`, a stream stored as it is (as long
/// as `dest`) or of zeros said so, `dest` left alone.
fn read_stream<'a>(
    r: &mut Cursor<'a>,
    streams: &mut Streams<'_>,
    dest: &mut [u8],
    in_place: bool,
) -> Result<Row<'a>, ChunkError> {
    let at = r.position();
    let csize = r.le_i32("a stream's csize (int32, little-endian)")?;
    match csize {
        0 if in_place => return Ok(Row::Zeros),
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
            let readable = r.rest();
            let src = r.bytes(c as usize, "a compressed stream")?;
            if in_place && src.len() == dest.len() {
                return Ok(Row::Stored(src));
            }
            stream_into(streams, (src, readable), at + INT32_LEN, dest)?;
        }
    }
    Ok(Row::Written)
}

/// One LZ4 stream filling `dest`, its first literals left in the chunk for the whole
/// rows of `row` bytes they hold (`codec::lz4::decompress_block_rows`): those bytes,
/// which `dest` then lacks (none for a stream stored or filled otherwise).
fn read_lz4_stream<'a>(
    r: &mut Cursor<'a>,
    streams: &mut Streams<'_>,
    dest: &mut [u8],
    row: usize,
) -> Result<&'a [u8], ChunkError> {
    let at = r.position();
    match r
        .clone()
        .le_i32("a stream's csize (int32, little-endian)")?
    {
        c if c > 0 && c as usize != dest.len() => {
            r.le_i32("a stream's csize (int32, little-endian)")?;
            let src = r.bytes(c as usize, "a compressed stream")?;
            let src_at = at + INT32_LEN;
            let (written, lead) = codec::lz4::decompress_block_rows(src, streams.dict, dest, row)
                .map_err(|refusal| placed(streams, src_at, refusal.into()))?;
            if written != dest.len() {
                let expected = dest.len() as u64;
                let found = written as u64;
                let kind = ChunkErrorKind::StreamLength { expected, found };
                return Err(placed(streams, src_at, kind));
            }
            Ok(src.get(lead.at..lead.at + lead.len).unwrap_or_default())
        }
        _ => read_stream(r, streams, dest, false).map(|_| &[][..]),
    }
}

/// A stream's bytes `src` (at byte `src_at` of the chunk; `readable` starts with
/// them, and may go on) into `dest`: stored as they are when as long, else
/// compressed; codec errors placed in the chunk.
pub(super) fn stream_into(
    streams: &mut Streams<'_>,
    (src, readable): (&[u8], &[u8]),
    src_at: usize,
    dest: &mut [u8],
) -> Result<(), ChunkError> {
    if src.len() == dest.len() {
        dest.copy_from_slice(src);
        return Ok(());
    }
    decompress(streams, (src, readable), dest).map_err(|kind| placed(streams, src_at, kind))
}

/// A codec's error in the stream at byte `src_at` of the chunk, placed in the chunk.
fn placed(streams: &Streams<'_>, src_at: usize, kind: ChunkErrorKind) -> ChunkError {
    match kind {
        ChunkErrorKind::CodecNotDecoded { .. } => ChunkError::at(at::FLAGS, kind),
        ChunkErrorKind::ZstdHeader {
            field: "dictionary",
            frame_offset,
            ..
        } => ChunkError::at(streams.dict_at + frame_offset as usize, kind),
        ChunkErrorKind::ZstdHeader { frame_offset, .. }
        | ChunkErrorKind::Lz4 {
            stream_offset: frame_offset,
            ..
        } => ChunkError::at(src_at + frame_offset as usize, kind),
        kind => ChunkError::at(src_at, kind),
    }
}

/// Decompresses `src` into `dest`, which it must fill exactly (the one check of a
/// stream's length, whatever its codec).
fn decompress(
    streams: &mut Streams<'_>,
    (src, readable): (&[u8], &[u8]),
    dest: &mut [u8],
) -> Result<(), ChunkErrorKind> {
    let written = match streams.codec {
        Codec::Zstd => {
            let zstd = match &mut streams.zstd {
                Some(zstd) => zstd,
                none => none.insert(codec::zstd::Zstd::new(streams.dict)?),
            };
            zstd.decompress((src, readable), dest)?
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
