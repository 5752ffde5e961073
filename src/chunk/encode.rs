//! Compressing bytes into one Blosc2 chunk of `typesize` 1, as the contents of
//! variable-length metalayers are stored: LZ4 blocks (lz4_flex's block format, the
//! `LZ4_compress_default` stream C-Blosc2 decodes with `LZ4_decompress_safe`), or a
//! memcpyed chunk when compression does not pay.
//!
//! Why LZ4: it is already a dependency (for decoding), its safe encoder is
//! `forbid(unsafe_code)`, and every C-Blosc2 since 2.0 and every python-blosc2 decodes
//! it; python's own choice (zstd) would need an encoder we do not have. vlmeta values
//! are small and read whole, so ratio matters less than being decodable everywhere.
//!
//! Layout (C-Blosc2's `README_CHUNK_FORMAT.rst`): a 32-byte extended header, then
//! either the bytes themselves (memcpyed) or one `int32` block start per block and,
//! per block, one stream (`int32` csize + LZ4 block; `DONT_SPLIT`, as `typesize` is 1).

use alloc::vec::Vec;

use super::header::{
    EXTENDED_HEADER_LEN, FLAG_BITSHUFFLE, FLAG_DONT_SPLIT, FLAG_MEMCPYED, FLAG_SHUFFLE,
};

/// Bytes per block: small enough that a reader's buffer stays small, large enough that
/// LZ4 finds the repeats of a large map.
pub const ENCODE_BLOCKSIZE: usize = 256 * 1024;
/// The largest input one chunk holds (`BLOSC2_MAX_BUFFERSIZE`).
pub const MAX_ENCODE_NBYTES: usize = i32::MAX as usize - EXTENDED_HEADER_LEN;

/// Chunk format version written (`BLOSC2_VERSION_FORMAT_STABLE`, what 2.x writes).
const VERSION: u8 = 5;
/// `BLOSC_LZ4_FORMAT` in the flags' codec bits, and the compcode byte.
const LZ4_FORMAT: u8 = 1;
/// `BLOSC_LZ4_VERSION_FORMAT`.
const LZ4_VERSION: u8 = 1;
/// Bits 0 and 2 together: the header is the 32-byte extended one.
const EXTENDED: u8 = FLAG_SHUFFLE | FLAG_BITSHUFFLE;

/// The input is too large for one chunk. Its `Debug` is its message (as `main` prints
/// it).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TooLargeForChunk {
    /// The input's length.
    pub nbytes: usize,
}

impl core::fmt::Display for TooLargeForChunk {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} bytes do not fit one Blosc2 chunk (at most {MAX_ENCODE_NBYTES})",
            self.nbytes
        )
    }
}

impl core::error::Error for TooLargeForChunk {}

crate::located::debug_as_display!(TooLargeForChunk);

/// Compresses `data` into one Blosc2 chunk (`typesize` 1, no filters): LZ4 blocks, or
/// the bytes as they are when LZ4 does not make the chunk smaller.
///
/// ```
/// use b2nd_meta::chunk::{decode, encode};
///
/// let data = b"abcabcabcabcabcabcabcabcabcabcabcabc".repeat(100);
/// let chunk = encode(&data)?;
/// assert!(chunk.len() < data.len());
/// assert_eq!(decode(&chunk)?, data);
/// // Short or random bytes are stored as they are (a memcpyed chunk).
/// assert_eq!(encode(b"\x81\xa1a\x01")?.len(), 32 + 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode(data: &[u8]) -> Result<Vec<u8>, TooLargeForChunk> {
    let nbytes = data.len();
    if nbytes > MAX_ENCODE_NBYTES {
        return Err(TooLargeForChunk { nbytes });
    }
    let blocksize = nbytes.clamp(1, ENCODE_BLOCKSIZE);
    let memcpyed_len = EXTENDED_HEADER_LEN + nbytes;
    let nblocks = nbytes.div_ceil(blocksize);
    let mut out = header(0, nbytes, blocksize);
    let bstarts_at = out.len();
    out.resize(bstarts_at + 4 * nblocks, 0);
    for (i, block) in data.chunks(blocksize).enumerate() {
        let compressed = lz4_flex::block::compress(block);
        // A stream as long as its block would read as stored; such a chunk is memcpyed.
        if compressed.len() >= block.len() || out.len() + 4 + compressed.len() >= memcpyed_len {
            return Ok(memcpyed(data, blocksize));
        }
        let start = out.len() as i32;
        let slot = bstarts_at + 4 * i;
        out[slot..slot + 4].copy_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&(compressed.len() as i32).to_le_bytes());
        out.extend_from_slice(&compressed);
    }
    if nbytes == 0 {
        return Ok(memcpyed(data, blocksize));
    }
    let cbytes = out.len() as u32;
    out[12..16].copy_from_slice(&cbytes.to_le_bytes());
    Ok(out)
}

/// The bytes as they are after the header (`BLOSC_MEMCPYED`).
fn memcpyed(data: &[u8], blocksize: usize) -> Vec<u8> {
    let mut out = header(FLAG_MEMCPYED, data.len(), blocksize);
    out.extend_from_slice(data);
    let cbytes = out.len() as u32;
    out[12..16].copy_from_slice(&cbytes.to_le_bytes());
    out
}

/// The 32-byte extended header; cbytes (bytes 12..16) is filled in by the caller.
fn header(flags: u8, nbytes: usize, blocksize: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(EXTENDED_HEADER_LEN + nbytes.min(1 << 20));
    h.extend_from_slice(&[
        VERSION,
        LZ4_VERSION,
        EXTENDED | FLAG_DONT_SPLIT | flags | (LZ4_FORMAT << 5),
        1,
    ]);
    h.extend_from_slice(&(nbytes as u32).to_le_bytes());
    h.extend_from_slice(&(blocksize as u32).to_le_bytes());
    h.extend_from_slice(&[0; 4]);
    // Filters (none), compcode, compcode meta, filter metas, flags2, blosc2 flags.
    h.extend_from_slice(&[0, 0, 0, 0, 0, 0, LZ4_FORMAT, 0]);
    h.extend_from_slice(&[0; 8]);
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::{decode, ChunkHeader};

    #[test]
    fn round_trips_through_our_decoder() {
        let mut seed = 1u32;
        let mut noise = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as u8
        };
        let random: Vec<u8> = (0..70_000).map(|_| noise()).collect();
        let repeats = b"key".repeat(300_000);
        for data in [
            &b""[..],
            b"\xc0",
            &random,
            &repeats,
            &random[..ENCODE_BLOCKSIZE.min(70_000)],
        ] {
            let chunk = encode(data).unwrap();
            let h = ChunkHeader::parse(&chunk).unwrap();
            assert_eq!(h.cbytes as usize, chunk.len());
            assert_eq!(decode(&chunk).unwrap(), data);
        }
        // Repeats compress, over several blocks with a short last one.
        assert!(encode(&repeats).unwrap().len() < repeats.len() / 10);
        assert!(ChunkHeader::parse(&encode(&random).unwrap())
            .unwrap()
            .memcpyed());
    }
}
