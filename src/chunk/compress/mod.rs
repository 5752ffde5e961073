//! Compressing bytes into one Blosc2 chunk, as C-Blosc2 3.x's `blosc2_compress_ctx`
//! writes it (`blosc/blosc2.c`): the 32-byte extended header, block starts, and per block
//! the filter pipeline then one stream per byte of the type (split) or one per block,
//! each a run of one byte, the codec's output, or the bytes as they are. A chunk whose
//! streams are all zeros is the zeros special chunk; one that compression does not make
//! smaller than its input plus the header is stored as it is (memcpyed).
//!
//! The decisions are C's, step for step, so that the chunk has C's layout: the block
//! size ([`CParams`]'s automatic one is `blosc_stune_next_blocksize`), the split
//! (`split_block`), the header's flags (`write_compression_header`), the output budget
//! of `nbytes + 32` each stream is held to (`blosc_c`), the fallbacks.

mod blocks;
mod error;
mod input;
mod params;
mod splice;
mod threads;

use alloc::vec::Vec;

pub use error::CompressError;
pub(crate) use input::Input;
pub use params::CParams;
pub(crate) use splice::{splice, Fate, Spliced};

use super::header::{
    at, CODEC_SHIFT, EXTENDED_HEADER_LEN, FLAG_BITSHUFFLE, FLAG_DELTA, FLAG_DONT_SPLIT,
    FLAG_MEMCPYED, FLAG_SHUFFLE, MAX_BUFFERSIZE, SPECIAL_SHIFT, SPECIAL_ZERO,
};
use crate::blosc::Filter;
use params::MIN_BUFFERSIZE;

/// Chunk format version written (`BLOSC2_VERSION_FORMAT_STABLE`).
const VERSION: u8 = 5;
/// The codec's format version (`BLOSC_*_VERSION_FORMAT`: 1 for every codec).
const CODEC_VERSION: u8 = 1;
/// The largest type the chunk is split by; larger ones are compressed as bytes
/// (`BLOSC_MAX_TYPESIZE`).
const MAX_TYPESIZE: usize = 255;

/// Compresses `src` into one Blosc2 chunk with `params`, byte for byte as C-Blosc2 3.x's
/// `blosc2_compress_ctx` does with one thread (given the same codec output).
///
/// ```
/// use b2nd_meta::blosc::Codec;
/// use b2nd_meta::chunk::{self, CParams};
///
/// let values: Vec<u8> = (0..10_000u32).flat_map(|i| (i / 3).to_le_bytes()).collect();
/// let params = CParams { codec: Codec::BloscLz, typesize: 4, ..CParams::default() };
/// let compressed = chunk::compress(&values, &params)?;
/// assert!(compressed.len() < values.len() / 10);
/// assert_eq!(chunk::decode(&compressed, &chunk::DecodeBudget::default())?, values);
/// // All zeros: the zeros special chunk, a header alone.
/// assert_eq!(chunk::compress(&[0; 4000], &params)?.len(), 32);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compress(src: &[u8], params: &CParams) -> Result<Vec<u8>, CompressError> {
    compress_threads(src, params, 1)
}

/// Compresses `src` as [`compress`] does, the chunk's blocks on up to `threads` threads
/// (0 and 1 both mean the caller's thread alone), to the same bytes.
///
/// ```
/// use b2nd_meta::blosc::Codec;
/// use b2nd_meta::chunk::{self, CParams};
///
/// let values: Vec<u8> = (0..1_000_000u32).flat_map(|i| (i / 3).to_le_bytes()).collect();
/// let params = CParams { codec: Codec::Lz4, typesize: 4, blocksize: 64 << 10, ..CParams::default() };
/// let on_four = chunk::compress_threads(&values, &params, 4)?;
/// assert_eq!(on_four, chunk::compress(&values, &params)?);
/// assert_eq!(chunk::decode(&on_four, &chunk::DecodeBudget::default())?, values);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compress_threads(
    src: &[u8],
    params: &CParams,
    threads: usize,
) -> Result<Vec<u8>, CompressError> {
    let mut out = Vec::new();
    compress_into::<[u8]>(src, params, threads, &mut out)?;
    Ok(out)
}

/// [`compress_threads`] into `out` (cleared first), from a slice or from an input read a
/// block at a time: a buffer kept from chunk to chunk has its memory mapped already,
/// where a new one faults in every page it writes, and a chunk read a block at a time
/// needs no buffer of its size at all.
pub(crate) fn compress_into<I: Input + ?Sized>(
    src: &I,
    params: &CParams,
    threads: usize,
    out: &mut Vec<u8>,
) -> Result<(), I::Error> {
    let nbytes = src.len();
    if nbytes > MAX_BUFFERSIZE as usize {
        return Err(CompressError::TooLarge { nbytes }.into());
    }
    params.check()?;
    let blocksize = params.blocksize_for(nbytes);
    // C caps the type after choosing the block size by it.
    let typesize = if params.typesize > MAX_TYPESIZE {
        1
    } else {
        params.typesize
    };
    let nblocks = nbytes.div_ceil(blocksize);
    let destsize = nbytes + EXTENDED_HEADER_LEN;
    let mut memcpyed = params.clevel == 0
        || nbytes < MIN_BUFFERSIZE
        || EXTENDED_HEADER_LEN + 4 * nblocks > destsize;
    let mut flags = FLAG_SHUFFLE | FLAG_BITSHUFFLE;
    if !memcpyed {
        let has = |f| params.filters.iter().any(|(g, _)| *g == f);
        if has(Filter::Delta) {
            flags |= FLAG_DELTA;
        }
        if !params.splits(typesize, blocksize) {
            flags |= FLAG_DONT_SPLIT;
        }
        flags |= params.codec.format().unwrap_or(0) << CODEC_SHIFT;
    }
    // The header names the user's block size when one was given, capped at nbytes.
    let header_blocksize = match params.blocksize {
        0 => blocksize,
        given if nbytes > 0 => given.min(nbytes),
        given => given,
    };
    // Untouched capacity costs no memory: the output never moves as it grows.
    out.clear();
    out.reserve(destsize);
    out.extend_from_slice(&[VERSION, CODEC_VERSION, flags, typesize as u8]);
    out.extend_from_slice(&(nbytes as u32).to_le_bytes());
    out.extend_from_slice(&(header_blocksize as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    for (filter, _) in &params.filters {
        out.push(filter.id());
    }
    out.extend_from_slice(&[params.codec.id().unwrap_or(0), 0]);
    for (_, meta) in &params.filters {
        out.push(*meta);
    }
    out.extend_from_slice(&[0, 0]);
    if !memcpyed {
        let geometry = blocks::Geometry {
            typesize,
            blocksize,
            nblocks,
            split: flags & FLAG_DONT_SPLIT == 0,
            destsize,
        };
        let outcome = match threads.min(nblocks) {
            0 | 1 => blocks::compress_blocks(src, params, &geometry, out)?,
            threads => threads::compress_blocks(src, params, &geometry, out, threads)?,
        };
        match outcome {
            blocks::Outcome::Zeros => {
                out.truncate(EXTENDED_HEADER_LEN);
                out[at::BLOSC2_FLAGS] |= SPECIAL_ZERO << SPECIAL_SHIFT;
            }
            blocks::Outcome::Compressed => {}
            blocks::Outcome::DoesNotFit => memcpyed = true,
        }
    }
    if memcpyed {
        out.truncate(EXTENDED_HEADER_LEN);
        out[at::FLAGS] |= FLAG_MEMCPYED;
        let mut buf = I::Buffer::default();
        let piece = blocksize.max(1);
        for at in (0..nbytes).step_by(piece) {
            blocks::append(out, src.bytes(at, piece.min(nbytes - at), &mut buf)?);
        }
    }
    let cbytes = out.len() as u32;
    out[at::CBYTES..at::CBYTES + 4].copy_from_slice(&cbytes.to_le_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::{compress, CParams};
    use crate::blosc::{Codec, Filter, SplitMode};
    use crate::chunk::{decode, DecodeBudget};

    /// Runs, a motif, a slow ramp, noise: what each codec's paths see.
    fn samples() -> Vec<Vec<u8>> {
        let mut rng = crate::test_rng::XorShift::new(99);
        let mut noise = move || rng.next_u64() as u8;
        let mut mixed = Vec::new();
        for i in 0..150_000usize {
            mixed.push(match (i / 5000) % 5 {
                0 => 0,
                1 => b"motif of sixteen"[i % 16],
                2 => (i / 300) as u8,
                3 => noise(),
                _ => noise() % 4,
            });
        }
        let noise_only: Vec<u8> = (0..70_000).map(|_| noise()).collect();
        alloc::vec![
            mixed,
            noise_only,
            b"short but repeated repeated repeated".to_vec()
        ]
    }

    #[test]
    fn every_codec_and_level_round_trips_through_our_decoder() {
        for codec in [
            Codec::BloscLz,
            Codec::Lz4,
            Codec::Lz4Hc,
            Codec::Zlib,
            Codec::Zstd,
        ] {
            for clevel in 1..=9 {
                for data in samples() {
                    let params = CParams {
                        codec,
                        clevel,
                        typesize: 1,
                        blocksize: 0,
                        splitmode: SplitMode::Never,
                        filters: [(Filter::None, 0); 6],
                    };
                    let chunk = compress(&data, &params).unwrap();
                    let back = decode(&chunk, &DecodeBudget::default()).unwrap();
                    assert_eq!(back, data, "{codec:?} {clevel}");
                }
            }
        }
    }
}
