//! A new frame's header and its chunk index, as C-Blosc2 3.3 writes them
//! (`new_header_frame` and `frame_append_chunk` in `blosc/frame.c`): the one place that
//! writes a whole header (the reader is `parse` and `index`, whose offsets and markers
//! these are) and an offsets chunk (read by `chunks`).

use std::string::String;
use std::vec::Vec;

use super::chunks::ChunkLocation;
use super::error::{FrameError, FrameErrorKind};
use super::header::{FrameKind, FIXED_HEADER_LEN, MAX_METALAYERS, METALAYER_NAME_MAXLEN};
use super::index::{OFF_IDX_SIZE, SECTION_ARRAY};
use super::parse::{
    CODEC_NIBBLE_UDCODEC, FLAGS_STR, GENERAL_FLAG_OFFSETS_64BIT, GENERAL_FLAG_VARIABLE_CHUNKS,
    HEADER_ARRAY, MAGIC, MAGIC_STR, OFF_FILTER_PIPELINE, OFF_HEADER_LEN,
};
use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};
use crate::chunk::{self, CParams};
use crate::wire::marker::{
    ARRAY16, BIN32, FALSE, FIXEXT16, FIXSTR, INT16, INT32, INT64, MAP16, TRUE, UINT16, UINT64,
};

/// The frame format version C writes for chunks of one size
/// (`BLOSC2_VERSION_FRAME_FORMAT_RC1`).
const FRAME_FORMAT_VERSION: u8 = 2;
/// The version C writes for variable-size chunks, which an array without elements has
/// (chunksize 0: `BLOSC2_VERSION_FRAME_FORMAT_VL_BLOCKS`).
const FRAME_FORMAT_VERSION_VARIABLE: u8 = 3;
/// The first codec id C stores as a user codec in the flags (`BLOSC_LAST_CODEC`).
const LAST_CODEC: u8 = 6;

/// What a new frame's header says: its kind, the compression parameters its chunks were
/// written with, and its metalayers (name, content), in order.
#[derive(Debug, Clone)]
pub(crate) struct NewHeader {
    pub(crate) kind: FrameKind,
    pub(crate) codec: Codec,
    pub(crate) clevel: u8,
    pub(crate) splitmode: SplitMode,
    pub(crate) typesize: u32,
    pub(crate) blocksize: i32,
    pub(crate) chunksize: i32,
    /// The thread counts C records (its contexts'); readers choose their own.
    pub(crate) nthreads: i16,
    pub(crate) filters: [(Filter, u8); MAX_FILTERS],
    pub(crate) metalayers: Vec<(String, Vec<u8>)>,
}

/// The sizes a header holds, known once the data is written.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Sizes {
    pub(crate) nbytes: i64,
    pub(crate) cbytes: i64,
    pub(crate) frame_len: u64,
    pub(crate) has_vlmeta: bool,
}

fn refused(kind: FrameErrorKind) -> FrameError {
    FrameError::new(kind)
}

impl NewHeader {
    /// Refuses what `blosc2_meta_add` refuses: more than 16 metalayers, a name longer than
    /// 31 bytes, empty, with a NUL, or given twice, a content of 2 GiB or more.
    pub(crate) fn check(&self) -> Result<(), FrameError> {
        if self.metalayers.len() > MAX_METALAYERS {
            return Err(refused(FrameErrorKind::TooManyMetalayers {
                count: self.metalayers.len().min(u16::MAX as usize) as u16,
            }));
        }
        for (i, (name, content)) in self.metalayers.iter().enumerate() {
            if name.len() > METALAYER_NAME_MAXLEN {
                return Err(refused(FrameErrorKind::NameTooLong {
                    len: name.len() as u64,
                }));
            }
            if name.is_empty() || name.contains('\0') {
                return Err(refused(FrameErrorKind::InvalidName {
                    reason: "a metalayer name must be 1 to 31 bytes without NUL",
                }));
            }
            if self.metalayers[..i].iter().any(|(n, _)| n == name) {
                return Err(refused(FrameErrorKind::DuplicateName {
                    name: name.clone(),
                }));
            }
            if i32::try_from(content.len()).is_err() {
                return Err(refused(FrameErrorKind::MetalayerTooLarge {
                    name: name.clone(),
                    len: content.len() as u64,
                }));
            }
        }
        Ok(())
    }

    /// The header's bytes: the 87-byte fixed part, then the metalayer section (index,
    /// then contents back to back), as `new_header_frame` lays them out.
    pub(crate) fn to_bytes(&self, sizes: &Sizes) -> Result<Vec<u8>, FrameError> {
        self.check()?;
        let mut h = Vec::with_capacity(FIXED_HEADER_LEN + 256);
        h.extend_from_slice(&[HEADER_ARRAY, MAGIC_STR]);
        h.extend_from_slice(&MAGIC);
        h.push(INT32);
        h.extend_from_slice(&[0; 4]); // header_len, set below
        h.push(UINT64);
        h.extend_from_slice(&sizes.frame_len.to_be_bytes());
        let codec_id = self.codec.id().unwrap_or(0);
        let codec_nibble = if codec_id >= LAST_CODEC {
            CODEC_NIBBLE_UDCODEC
        } else {
            codec_id
        };
        let general_flags = match self.chunksize {
            0 => FRAME_FORMAT_VERSION_VARIABLE | GENERAL_FLAG_VARIABLE_CHUNKS,
            _ => FRAME_FORMAT_VERSION,
        } | GENERAL_FLAG_OFFSETS_64BIT;
        h.extend_from_slice(&[
            FLAGS_STR,
            general_flags,
            match self.kind {
                FrameKind::Contiguous => 0,
                FrameKind::Sparse => 1,
            },
            codec_nibble | (self.clevel << 4),
            self.splitmode.id() - 1,
        ]);
        for v in [sizes.nbytes, sizes.cbytes] {
            h.push(INT64);
            h.extend_from_slice(&v.to_be_bytes());
        }
        for v in [self.typesize as i32, self.blocksize, self.chunksize] {
            h.push(INT32);
            h.extend_from_slice(&v.to_be_bytes());
        }
        for _ in 0..2 {
            h.push(INT16);
            h.extend_from_slice(&self.nthreads.to_be_bytes());
        }
        h.push(if sizes.has_vlmeta { TRUE } else { FALSE });
        h.extend_from_slice(&[FIXEXT16, MAX_FILTERS as u8]);
        debug_assert_eq!(h.len(), OFF_FILTER_PIPELINE + 1);
        h.extend(self.filters.iter().map(|(f, _)| f.id()));
        h.extend_from_slice(&[codec_id, 0]);
        h.extend(self.filters.iter().map(|(_, meta)| *meta));
        h.extend_from_slice(&[0, 0]); // other flags 2 (no dictionary), reserved
        debug_assert_eq!(h.len(), FIXED_HEADER_LEN);
        self.metalayer_section(&mut h);
        let header_len = h.len() as u32;
        h[OFF_HEADER_LEN..OFF_HEADER_LEN + 4].copy_from_slice(&header_len.to_be_bytes());
        Ok(h)
    }

    fn metalayer_section(&self, h: &mut Vec<u8>) {
        let n = self.metalayers.len() as u16;
        h.extend_from_slice(&[SECTION_ARRAY, UINT16, 0, 0, MAP16]);
        h.extend_from_slice(&n.to_be_bytes());
        let mut offset_at = Vec::with_capacity(self.metalayers.len());
        for (name, _) in &self.metalayers {
            h.push(FIXSTR + name.len() as u8);
            h.extend_from_slice(name.as_bytes());
            h.push(INT32);
            offset_at.push(h.len());
            h.extend_from_slice(&[0; 4]);
        }
        // From the section's fixarray to the end of the index.
        let index_size = (h.len() - FIXED_HEADER_LEN) as u16;
        h[OFF_IDX_SIZE..OFF_IDX_SIZE + 2].copy_from_slice(&index_size.to_be_bytes());
        h.push(ARRAY16);
        h.extend_from_slice(&n.to_be_bytes());
        for ((_, content), at) in self.metalayers.iter().zip(offset_at) {
            let here = h.len() as i32;
            h[at..at + 4].copy_from_slice(&here.to_be_bytes());
            h.push(BIN32);
            h.extend_from_slice(&(content.len() as u32).to_be_bytes());
            h.extend_from_slice(content);
        }
    }
}

/// The offsets chunk of `locations` for a frame whose header is `header_len` bytes:
/// little-endian int64 entries compressed as `frame_append_chunk` compresses them
/// (BloscLZ at level 5, byte-shuffle, 8-byte items, 16 KiB blocks, never split); more
/// chunks than an int32 count of bytes indexes are refused, as C refuses them.
pub(crate) fn offsets_chunk(
    locations: &[ChunkLocation],
    header_len: u64,
) -> Result<Vec<u8>, FrameError> {
    let entries: Vec<u8> = locations
        .iter()
        .flat_map(|l| l.entry(header_len).to_le_bytes())
        .collect();
    let mut filters = [(Filter::None, 0); MAX_FILTERS];
    filters[MAX_FILTERS - 1] = (Filter::Shuffle, 0);
    let params = CParams {
        codec: Codec::BloscLz,
        clevel: 5,
        typesize: 8,
        blocksize: 16 << 10,
        splitmode: SplitMode::Never,
        filters,
    };
    chunk::compress(&entries, &params).map_err(|_| {
        FrameError::new(FrameErrorKind::InvalidField {
            field: "number of chunks",
            value: locations.len() as i128,
            reason: "more chunks than an offsets chunk can index (8 bytes each, under 2 GiB)",
        })
    })
}
