//! Zstandard streams, decoded by ruzstd (pure Rust), one zstd block at a time so that
//! a stream never produces much more than the block it belongs to.

use alloc::string::ToString;
use alloc::vec::Vec;

use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};

use super::error::ChunkErrorKind;
use super::header::ChunkCodec;

/// The zstd frame magic number, little-endian.
const MAGIC: u32 = 0xfd2f_b528;
/// The most a zstd block decompresses to (128 KiB).
const MAX_BLOCK_LEN: u64 = 128 << 10;
/// Frame header descriptor: bit 5, single segment (the window is the content size).
const SINGLE_SEGMENT: u8 = 0x20;
/// The smallest window exponent (`windowLog` 10).
const MIN_WINDOW_LOG: u32 = 10;

/// The window size a zstd frame declares (RFC 8878, 3.1.1.1), or `None` when the bytes
/// are not the start of a zstd frame.
fn window_size(src: &[u8]) -> Option<u64> {
    let (magic, rest) = src.split_first_chunk::<4>()?;
    if u32::from_le_bytes(*magic) != MAGIC {
        return None;
    }
    let (&descriptor, rest) = rest.split_first()?;
    if descriptor & SINGLE_SEGMENT == 0 {
        let &wd = rest.first()?;
        let exponent = u32::from(wd >> 3);
        let base = 1u64 << (MIN_WINDOW_LOG + exponent);
        return Some(base + (base / 8) * u64::from(wd & 0x07));
    }
    let did_len = match descriptor & 0x03 {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 4,
    };
    let fcs = rest.get(did_len..)?;
    let size = match descriptor >> 6 {
        0 => u64::from(*fcs.first()?),
        1 => u64::from(u16::from_le_bytes(*fcs.first_chunk::<2>()?)) + 256,
        2 => u64::from(u32::from_le_bytes(*fcs.first_chunk::<4>()?)),
        _ => u64::from_le_bytes(*fcs.first_chunk::<8>()?),
    };
    Some(size)
}

/// Decompresses the zstd frame `src` into exactly `neblock` more bytes of `out`.
pub(super) fn decompress(
    src: &[u8],
    neblock: usize,
    out: &mut Vec<u8>,
) -> Result<(), ChunkErrorKind> {
    let codec_error = |message: alloc::string::String| ChunkErrorKind::Codec {
        codec: ChunkCodec::Zstd,
        message,
    };
    // The decoder keeps up to a window of output that cannot be collected yet; a
    // window far larger than the block would let a small stream fill memory first.
    let window = window_size(src).ok_or_else(|| codec_error("not a zstd frame".to_string()))?;
    let max_window = (neblock as u64)
        .saturating_mul(2)
        .saturating_add(MAX_BLOCK_LEN);
    if window > max_window {
        return Err(codec_error(alloc::format!(
            "a window of {window} bytes for a block of {neblock} bytes"
        )));
    }
    let start = out.len();
    let mut input = src;
    let mut decoder = FrameDecoder::new();
    decoder
        .init(&mut input)
        .map_err(|e| codec_error(e.to_string()))?;
    loop {
        let finished = decoder
            .decode_blocks(&mut input, BlockDecodingStrategy::UptoBlocks(1))
            .map_err(|e| codec_error(e.to_string()))?;
        // What the decoder holds plus what was collected: checked before collecting,
        // so that a stream longer than its block stops after one zstd block (128 KiB).
        let produced = out.len() - start + decoder.can_collect();
        if produced > neblock {
            return Err(ChunkErrorKind::StreamLength {
                expected: neblock as u64,
                found: produced as u64,
            });
        }
        if let Some(bytes) = decoder.collect() {
            out.extend_from_slice(&bytes);
        }
        if finished {
            break;
        }
    }
    let produced = out.len() - start;
    if produced != neblock {
        return Err(ChunkErrorKind::StreamLength {
            expected: neblock as u64,
            found: produced as u64,
        });
    }
    if !input.is_empty() {
        return Err(codec_error(alloc::format!(
            "{} byte(s) after the end of the zstd frame",
            input.len()
        )));
    }
    Ok(())
}
