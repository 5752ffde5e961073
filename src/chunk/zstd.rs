//! Zstandard streams, decoded by ruzstd (pure Rust), one zstd block at a time so that
//! a stream never produces much more than the block it belongs to.

use alloc::string::ToString;

use ruzstd::decoding::{BlockDecodingStrategy, Dictionary, FrameDecoder};

use super::error::ChunkErrorKind;
use super::header::ChunkCodec;

/// The zstd frame magic number, little-endian.
const MAGIC: u32 = 0xfd2f_b528;
/// The magic number of a formatted zstd dictionary.
const DICT_MAGIC: [u8; 4] = [0x37, 0xa4, 0x30, 0xec];
/// The most a zstd block decompresses to (128 KiB).
const MAX_BLOCK_LEN: u64 = 128 << 10;
/// Frame header descriptor: bit 5, single segment (the window is the content size).
const SINGLE_SEGMENT: u8 = 0x20;
/// The smallest window exponent (`windowLog` 10).
const MIN_WINDOW_LOG: u32 = 10;

/// The window size, the content size and the header length a zstd frame declares
/// (RFC 8878, 3.1.1.1), or `None` when the bytes are not the start of a zstd frame.
fn frame_sizes(src: &[u8]) -> Option<(u64, Option<u64>, usize)> {
    let (magic, rest) = src.split_first_chunk::<4>()?;
    if u32::from_le_bytes(*magic) != MAGIC {
        return None;
    }
    let (&descriptor, rest) = rest.split_first()?;
    let single = descriptor & SINGLE_SEGMENT != 0;
    let (window, rest) = if single {
        (None, rest)
    } else {
        let (&wd, rest) = rest.split_first()?;
        let exponent = u32::from(wd >> 3);
        let base = 1u64 << (MIN_WINDOW_LOG + exponent);
        (Some(base + (base / 8) * u64::from(wd & 0x07)), rest)
    };
    let did_len = match descriptor & 0x03 {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 4,
    };
    let fcs = rest.get(did_len..)?;
    let (content, fcs_len) = match descriptor >> 6 {
        0 if !single => (None, 0),
        0 => (Some(u64::from(*fcs.first()?)), 1),
        1 => (
            Some(u64::from(u16::from_le_bytes(*fcs.first_chunk::<2>()?)) + 256),
            2,
        ),
        2 => (
            Some(u64::from(u32::from_le_bytes(*fcs.first_chunk::<4>()?))),
            4,
        ),
        _ => (Some(u64::from_le_bytes(*fcs.first_chunk::<8>()?)), 8),
    };
    let header_len = src.len() - fcs.len() + fcs_len;
    // A single-segment frame's window is its content.
    Some((window.or(content)?, content, header_len))
}

/// A zstd decoder kept for all the streams of a chunk, with the chunk's dictionary.
pub(super) struct Zstd {
    decoder: FrameDecoder,
    /// The id of the chunk's formatted dictionary, when it has one.
    dict: Option<u32>,
}

impl Zstd {
    /// A decoder for the chunk's streams; `dict` is the chunk's dictionary section.
    /// A dictionary without zstd's magic number is raw content, which C-Blosc2 never
    /// writes: frames are then decoded without it, and refused if they reach into it.
    pub(super) fn new(dict: Option<&[u8]>) -> Result<Self, ChunkErrorKind> {
        let mut decoder = FrameDecoder::new();
        let mut id = None;
        if let Some(raw) = dict.filter(|raw| raw.starts_with(&DICT_MAGIC) && raw.len() >= 8) {
            let dict = decode_dict(raw)?;
            id = Some(dict.id);
            decoder
                .add_dict(dict)
                .map_err(|e| codec_error(e.to_string()))?;
        }
        Ok(Zstd { decoder, dict: id })
    }

    /// Decompresses the zstd frame `src` into `dest`, which it must fill exactly.
    pub(super) fn decompress(&mut self, src: &[u8], dest: &mut [u8]) -> Result<(), ChunkErrorKind> {
        let neblock = dest.len();
        // The decoder keeps up to a window of output that cannot be collected yet; a
        // window far larger than the block would let a small stream fill memory first.
        let (window, content, header_len) =
            frame_sizes(src).ok_or_else(|| codec_error("not a zstd frame".to_string()))?;
        // libzstd refuses a frame whose content differs from the size it declares.
        if content.is_some_and(|c| c != neblock as u64) {
            return Err(ChunkErrorKind::StreamLength {
                expected: neblock as u64,
                found: content.unwrap_or(0),
            });
        }
        let max_window = (neblock as u64)
            .saturating_mul(2)
            .saturating_add(MAX_BLOCK_LEN);
        if window > max_window {
            return Err(codec_error(alloc::format!(
                "a window of {window} bytes for a block of {neblock} bytes"
            )));
        }
        // What libzstd checks in the headers and ruzstd does not; a dictionary in
        // zstd's format brings tables a first block may repeat.
        super::zstd_check::check_frame(src, header_len, window, self.dict.is_some())?;
        let decoder = &mut self.decoder;
        let mut input = src;
        decoder
            .reset(&mut input)
            .map_err(|e| codec_error(e.to_string()))?;
        if let Some(id) = self.dict {
            // Frames without a dictionary id use the chunk's, as ZSTD_decompress_usingDDict.
            decoder
                .force_dict(id)
                .map_err(|e| codec_error(e.to_string()))?;
        }
        let mut produced = 0;
        loop {
            let finished = decoder
                .decode_blocks(&mut input, BlockDecodingStrategy::UptoBlocks(1))
                .map_err(|e| codec_error(e.to_string()))?;
            // What the decoder holds plus what was collected: checked before collecting,
            // so that a stream longer than its block stops after one zstd block (128 KiB).
            let ready = produced + decoder.can_collect();
            if ready > neblock {
                return Err(ChunkErrorKind::StreamLength {
                    expected: neblock as u64,
                    found: ready as u64,
                });
            }
            let mut rest = &mut dest[produced..];
            produced += decoder
                .collect_to_writer(&mut rest)
                .map_err(|e| codec_error(e.to_string()))?;
            if finished {
                break;
            }
        }
        // Flush what the end of the frame left.
        let ready = produced + decoder.can_collect();
        if ready > neblock {
            return Err(ChunkErrorKind::StreamLength {
                expected: neblock as u64,
                found: ready as u64,
            });
        }
        let mut rest = &mut dest[produced..];
        produced += decoder
            .collect_to_writer(&mut rest)
            .map_err(|e| codec_error(e.to_string()))?;
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
}

/// Repeat offsets after a dictionary's entropy tables (3 x u32).
const REPEAT_OFFSETS_LEN: usize = 12;

/// `Dictionary::decode_dict`, on a dictionary that may end early: ruzstd 0.8.3 slices
/// the three repeat offsets after the entropy tables unchecked (a panic on a cut
/// dictionary), so it reads a copy with 12 more zero bytes, where they always fit; the
/// dictionary is whole when those bytes all fall in its content, which then loses them.
/// libzstd's rules (`ZSTD_loadDEntropy`): the offsets present, each from 1 to the
/// content's size.
fn decode_dict(raw: &[u8]) -> Result<Dictionary, ChunkErrorKind> {
    let mut padded = alloc::vec::Vec::with_capacity(raw.len() + REPEAT_OFFSETS_LEN);
    padded.extend_from_slice(raw);
    padded.extend_from_slice(&[0; REPEAT_OFFSETS_LEN]);
    let mut dict = Dictionary::decode_dict(&padded).map_err(|e| ChunkErrorKind::Codec {
        codec: ChunkCodec::Zstd,
        message: alloc::format!("the dictionary does not decode: {e}"),
    })?;
    let Some(content) = dict.dict_content.len().checked_sub(REPEAT_OFFSETS_LEN) else {
        return Err(codec_error(alloc::format!(
            "the dictionary's {} bytes end before its 3 repeat offsets",
            raw.len()
        )));
    };
    dict.dict_content.truncate(content);
    if let Some(&rep) = dict
        .offset_hist
        .iter()
        .find(|&&rep| rep == 0 || rep as usize > content)
    {
        return Err(codec_error(alloc::format!(
            "expected dictionary repeat offsets from 1 to its content's {content} bytes, found {rep}"
        )));
    }
    Ok(dict)
}

fn codec_error(message: alloc::string::String) -> ChunkErrorKind {
    ChunkErrorKind::Codec {
        codec: ChunkCodec::Zstd,
        message,
    }
}
