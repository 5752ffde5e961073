//! A chunk rebuilt from another block by block: the blocks that stay as they were keep
//! their stored streams, byte for byte; only the others are decoded, changed and
//! compressed. Cutting an array's edge changes the blocks holding cut cells, not the
//! chunk's 64 MiB.
//!
//! Each block is compressed alone, as [`compress`](super::compress) compresses it while
//! the chunk's budget is far (the streams of a block depend on nothing but its bytes,
//! the parameters and, with DELTA, the chunk's first block): the result is the chunk
//! `compress` writes for the same bytes, as long as the budget stays far. Where it would
//! not be (a chunk that does not compress well, or stored as it is), and where the old
//! chunk's blocks are not `params`' own, there is no splice: the caller compresses the
//! whole chunk.

use alloc::vec::Vec;

use super::blocks::{self, block_alone, Geometry, Outcome, Scratch};
use super::input::Input;
use super::{CParams, CompressError, MAX_TYPESIZE};
use crate::blosc::Filter;
use crate::chunk::decode::{decode_range_into, Parts};
use crate::chunk::header::{
    at, ChunkHeader, BLOSC2_LAZY, BLOSC2_USEDICT, EXTENDED_HEADER_LEN, FLAG_DONT_SPLIT, INT32_LEN,
};
use crate::chunk::ChunkError;

/// What becomes of one block of a spliced chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Its stored streams are copied as they are.
    Keep,
    /// It becomes zeros (not decoded).
    Zeros,
    /// It is decoded, changed, and compressed again.
    Change,
    /// Its new bytes are given whole (not decoded), then compressed.
    Put,
}

/// What [`splice`] made.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Spliced {
    /// The new chunk.
    Chunk(Vec<u8>),
    /// Every stream is a run of zeros: the chunk is all zeros (C's zero special chunk).
    Zeros,
    /// No splice: the whole chunk is to be compressed (see the module's doc).
    Whole,
}

/// One block's bytes, at `start` of a chunk of `len`: the only bytes
/// [`block_alone`] reads.
struct OneBlock<'a> {
    len: usize,
    start: usize,
    block: &'a [u8],
}

impl Input for OneBlock<'_> {
    type Error = CompressError;
    type Buffer = ();

    fn len(&self) -> usize {
        self.len
    }

    fn bytes<'a>(&'a self, at: usize, len: usize, _: &'a mut ()) -> Result<&'a [u8], Self::Error> {
        match at == self.start && len == self.block.len() {
            true => Ok(self.block),
            false => Err(CompressError::TooLarge { nbytes: len }),
        }
    }
}

/// `old`, a chunk of `params`' codec, filters and type size, rebuilt: block `j` as
/// `fate(j)` says, a changed block given to `change(j, bytes)` decoded (zeros for one
/// put) and compressed with `params` after. The old chunk's header is kept (its sizes but `cbytes`).
pub(crate) fn splice(
    old: &[u8],
    params: &CParams,
    fate: impl Fn(usize) -> Fate,
    mut change: impl FnMut(usize, &mut [u8]),
) -> Result<Spliced, ChunkError> {
    let parts = Parts::new(old)?;
    let header = parts.header();
    let Some(g) = geometry(header, params) else {
        return Ok(Spliced::Whole);
    };
    let nbytes = header.nbytes as usize;
    let delta = params.filters.iter().any(|(f, _)| *f == Filter::Delta);
    if delta && g.nblocks > 1 && fate(0) != Fate::Keep {
        // Every block's streams depend on the first one's bytes.
        return Ok(Spliced::Whole);
    }
    let mut reference = Vec::new();
    if delta && g.nblocks > 1 {
        reference.resize(g.blocksize.min(nbytes), 0);
        decode_range_into(old, 0..1, |_| true, &mut reference)?;
    }
    let reference = (!reference.is_empty()).then_some(reference.as_slice());
    let mut out = Vec::with_capacity(old.len());
    out.extend_from_slice(&old[..EXTENDED_HEADER_LEN]);
    let bstarts_at = out.len();
    out.resize(bstarts_at + INT32_LEN * g.nblocks, 0);
    let mut scratch = Scratch::<()>::default();
    let mut block = Vec::new();
    // Without DELTA a block of zeros compresses to the same streams wherever it is.
    let mut zero_streams: Option<(usize, Vec<u8>)> = None;
    for j in 0..g.nblocks {
        let (_, bsize, nstreams) = g.block(j, nbytes);
        let streams = match fate(j) {
            Fate::Keep => {
                let Some(extent) = parts.extent(j).filter(|e| e.end <= old.len()) else {
                    return Ok(Spliced::Whole);
                };
                blocks::set_bstart(&mut out, bstarts_at, j);
                blocks::append(&mut out, &old[extent]);
                continue;
            }
            Fate::Zeros if reference.is_none() => match &zero_streams {
                Some((size, streams)) if *size == bsize => streams.clone(),
                _ => {
                    block.clear();
                    block.resize(bsize, 0);
                    let Some(streams) = compress_block(params, &g, j, &block, None, &mut scratch)
                    else {
                        return Ok(Spliced::Whole);
                    };
                    zero_streams = Some((bsize, streams.clone()));
                    streams
                }
            },
            fate => {
                block.clear();
                block.resize(bsize, 0);
                if fate == Fate::Change {
                    decode_range_into(old, j..j + 1, |_| true, &mut block)?;
                }
                if fate != Fate::Zeros {
                    change(j, &mut block);
                }
                match compress_block(params, &g, j, &block, reference, &mut scratch) {
                    Some(streams) => streams,
                    None => return Ok(Spliced::Whole),
                }
            }
        };
        // A stream near the budget may come out otherwise on one thread.
        if out.len() + streams.len() + bsize / nstreams > g.destsize {
            return Ok(Spliced::Whole);
        }
        blocks::set_bstart(&mut out, bstarts_at, j);
        blocks::append(&mut out, &streams);
    }
    if out.len() > g.destsize {
        return Ok(Spliced::Whole);
    }
    if let Outcome::Zeros = blocks::outcome(&g, nbytes, &out, bstarts_at) {
        return Ok(Spliced::Zeros);
    }
    let cbytes = out.len() as u32;
    out[at::CBYTES..at::CBYTES + 4].copy_from_slice(&cbytes.to_le_bytes());
    Ok(Spliced::Chunk(out))
}

/// The blocks of the chunk `header` describes, when they are those `compress` writes
/// with `params` (extended header, not stored as they are, fixed blocks, no dictionary,
/// the same codec, filters and type size).
fn geometry(header: &ChunkHeader, params: &CParams) -> Option<Geometry> {
    let typesize = match params.typesize {
        t if t > MAX_TYPESIZE => 1,
        t => t,
    };
    let plain = header.extended
        && header.special().is_none()
        && !header.memcpyed()
        && !header.vl_blocks()
        && header.blosc2_flags & (BLOSC2_USEDICT | BLOSC2_LAZY) == 0;
    // LZ4HC writes LZ4's format: the header names the format.
    let same = header.codec.format().is_some()
        && header.codec.format() == params.codec.format()
        && header.filters == params.filters
        && usize::from(header.typesize) == typesize;
    let nbytes = header.nbytes as usize;
    let blocksize = header.blocksize as usize;
    if !plain || !same || nbytes == 0 || blocksize == 0 || blocksize > nbytes {
        return None;
    }
    Some(Geometry {
        typesize,
        blocksize,
        nblocks: nbytes.div_ceil(blocksize),
        split: header.flags & FLAG_DONT_SPLIT == 0,
        destsize: nbytes + EXTENDED_HEADER_LEN,
    })
}

/// Block `j`'s streams, `block` its bytes (none where the filters refuse them: the
/// whole chunk's compression says why).
fn compress_block(
    params: &CParams,
    g: &Geometry,
    j: usize,
    block: &[u8],
    reference: Option<&[u8]>,
    scratch: &mut Scratch<()>,
) -> Option<Vec<u8>> {
    let (start, _, _) = g.block(j, g.destsize - EXTENDED_HEADER_LEN);
    let input = OneBlock {
        len: g.destsize - EXTENDED_HEADER_LEN,
        start,
        block,
    };
    block_alone(&input, params, g, j, reference, scratch).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blosc::{Codec, SplitMode};
    use crate::chunk::{compress, decode, DecodeBudget};

    fn params(codec: Codec, filters: &[(Filter, u8)]) -> CParams {
        let mut p = CParams {
            codec,
            clevel: 5,
            typesize: 4,
            blocksize: 4096,
            splitmode: SplitMode::Auto,
            ..CParams::default()
        };
        p.filters = [(Filter::None, 0); crate::blosc::MAX_FILTERS];
        for (slot, f) in filters.iter().enumerate() {
            p.filters[crate::blosc::MAX_FILTERS - filters.len() + slot] = *f;
        }
        p
    }

    /// 16 blocks of a ramp with noise.
    fn data() -> Vec<u8> {
        (0..16 * 1024u32)
            .flat_map(|i| (i / 3 + (i.wrapping_mul(2_654_435_761) >> 28)).to_le_bytes())
            .collect()
    }

    /// The spliced chunk equals the whole chunk compressed from the changed bytes.
    #[test]
    fn a_spliced_chunk_is_the_chunk_compress_writes_for_its_bytes() {
        let fates = |j: usize| match j % 4 {
            0 => Fate::Keep,
            1 => Fate::Zeros,
            2 => Fate::Change,
            _ if j == 7 => Fate::Put,
            _ => Fate::Keep,
        };
        for codec in [
            Codec::BloscLz,
            Codec::Lz4,
            Codec::Lz4Hc,
            Codec::Zstd,
            Codec::Zlib,
        ] {
            for filters in [
                &[(Filter::Shuffle, 0)][..],
                &[(Filter::BitShuffle, 0)],
                &[(Filter::Delta, 0), (Filter::Shuffle, 0)],
                &[],
            ] {
                let p = params(codec, filters);
                let src = data();
                let old = compress(&src, &p).unwrap();
                let mut want = src.clone();
                for (j, block) in want.chunks_mut(4096).enumerate() {
                    match fates(j) {
                        Fate::Zeros => block.fill(0),
                        Fate::Change => block[..7].fill(9),
                        Fate::Put => {
                            block.fill(0);
                            block[..7].fill(9);
                        }
                        Fate::Keep => {}
                    }
                }
                let spliced = splice(&old, &p, fates, |_, b| b[..7].fill(9)).unwrap();
                let case = (codec, filters);
                assert_eq!(
                    spliced,
                    Spliced::Chunk(compress(&want, &p).unwrap()),
                    "{case:?}"
                );
                let Spliced::Chunk(c) = spliced else {
                    unreachable!()
                };
                assert_eq!(
                    decode(&c, &DecodeBudget::default()).unwrap(),
                    want,
                    "{case:?}"
                );
            }
        }
    }

    #[test]
    fn what_cannot_be_spliced_is_compressed_whole() {
        let p = params(Codec::Lz4, &[(Filter::Shuffle, 0)]);
        let old = compress(&data(), &p).unwrap();
        let keep = |_| Fate::Keep;
        let other = params(Codec::Zstd, &[(Filter::Shuffle, 0)]);
        assert!(splice(&old, &other, keep, |_, _| ()).unwrap() == Spliced::Whole);
        let delta = params(Codec::Lz4, &[(Filter::Delta, 0), (Filter::Shuffle, 0)]);
        let old_delta = compress(&data(), &delta).unwrap();
        let first = |j| if j == 0 { Fate::Change } else { Fate::Keep };
        assert!(splice(&old_delta, &delta, first, |_, _| ()).unwrap() == Spliced::Whole);
        let noise = crate::test_rng::XorShift::new(0x9e37_79b9_7f4a_7c15).bytes(65536);
        let stored = compress(&noise, &p).unwrap();
        assert!(crate::chunk::ChunkHeader::parse(&stored)
            .unwrap()
            .memcpyed());
        let spliced = splice(&stored, &p, keep, |_, _| ()).unwrap();
        assert!(spliced == Spliced::Whole, "{spliced:?}");
        let zeros = |_| Fate::Zeros;
        assert!(splice(&old, &p, zeros, |_, _| ()).unwrap() == Spliced::Zeros);
    }
}
