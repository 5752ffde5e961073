//! The chunk header: 16 bytes (Blosc1), or 32 with Blosc2's extension, little-endian,
//! read as C-Blosc2's `read_chunk_header` (`blosc/blosc2.c`) reads it, and as strictly.

use super::cursor::Cursor;
use super::error::{ChunkError, ChunkErrorKind};
use crate::blosc::{Codec, Filter, Special, MAX_FILTERS};

/// Length of the Blosc1 header (`BLOSC_MIN_HEADER_LENGTH`).
pub const MIN_HEADER_LEN: usize = 16;
/// Length of the Blosc2 extended header (`BLOSC_EXTENDED_HEADER_LENGTH`).
pub const EXTENDED_HEADER_LEN: usize = 32;
/// The newest chunk format version (`BLOSC2_VERSION_FORMAT`, variable-length blocks);
/// newer ones are read as it, unless `blosc2_flags2` holds features it does not know.
pub const MAX_VERSION: u8 = 6;
/// The largest block C-Blosc2 accepts (`BLOSC2_MAXBLOCKSIZE`).
pub const MAX_BLOCKSIZE: i32 = 536_866_816;
/// The largest buffer a chunk can hold (`BLOSC2_MAX_BUFFERSIZE`).
pub const MAX_BUFFERSIZE: i32 = i32::MAX - EXTENDED_HEADER_LEN as i32;
/// Length of a block start, a stream's `csize` and the dictionary's size (`int32_t`).
pub(super) const INT32_LEN: usize = 4;
/// `BLOSC2_SPECIAL_ZERO` in `blosc2_flags` bits 4..6 (the other specials: 2 to 4).
pub(super) const SPECIAL_ZERO: u8 = 1;
/// Bit 0 of the token after a stream's negative `csize`: a run of one byte.
pub(super) const TOKEN_RUN: u8 = 0x01;
/// The largest dictionary C-Blosc2 reads (`BLOSC2_MAXDICTSIZE`).
pub(super) const MAX_DICT_SIZE: i32 = 128 << 10;
/// `flags` bit 0: byte-shuffle (with bit 2: the header is extended).
pub const FLAG_SHUFFLE: u8 = 0x01;
/// `flags` bit 1: the blocks are stored as they are (`BLOSC_MEMCPYED`).
pub const FLAG_MEMCPYED: u8 = 0x02;
/// `flags` bit 2: bit-shuffle (with bit 0: the header is extended).
pub const FLAG_BITSHUFFLE: u8 = 0x04;
/// `flags` bit 3: delta filter (Blosc1 header).
pub const FLAG_DELTA: u8 = 0x08;
/// `flags` bit 4: each block is one stream, not split by byte of the type.
pub const FLAG_DONT_SPLIT: u8 = 0x10;
/// `flags` bits 5..7: the codec's format code.
pub const CODEC_SHIFT: u8 = 5;
/// `blosc2_flags` bit 0: a dictionary follows the bstarts (`BLOSC2_USEDICT`).
pub const BLOSC2_USEDICT: u8 = 0x01;
/// `blosc2_flags` bit 3: a lazy chunk (only meaningful inside a frame in memory).
pub const BLOSC2_LAZY: u8 = 0x08;
/// `blosc2_flags` bits 4..6: the special value of the whole chunk.
pub const SPECIAL_SHIFT: u8 = 4;
/// Mask of the special value after shifting (`BLOSC2_SPECIAL_MASK`).
pub const SPECIAL_MASK: u8 = 0x07;
/// `blosc2_flags2` bit 0: variable-length blocks (`BLOSC2_VL_BLOCKS`).
pub const BLOSC2_VL_BLOCKS: u8 = 0x01;

/// Byte offsets of the header fields (`BLOSC2_CHUNK_*` in `blosc2.h`).
pub(super) mod at {
    pub const FLAGS: usize = 2;
    pub const NBYTES: usize = 4;
    pub const CBYTES: usize = 12;
    pub const FILTERS: usize = 16;
    pub const FILTERS_META: usize = 24;
    pub const BLOSC2_FLAGS: usize = 31;
}

/// The header of a Blosc2 chunk, as C-Blosc2 reads it.
///
/// ```
/// // A memcpyed chunk of the 4 bytes 81 a1 61 01 (python-blosc2's {"a": 1}).
/// let mut chunk = vec![5, 1, 7, 1, 4, 0, 0, 0, 4, 0, 0, 0, 36, 0, 0, 0];
/// chunk.extend([0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
/// chunk.extend([0x81, 0xa1, 0x61, 0x01]);
/// let header = b2nd_meta::chunk::ChunkHeader::parse(&chunk)?;
/// assert_eq!((header.nbytes, header.cbytes, header.memcpyed()), (4, 36, true));
/// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkHeader {
    /// Chunk format version (byte 0).
    pub version: u8,
    /// Version of the codec's format (byte 1).
    pub versionlz: u8,
    /// Flags and codec (byte 2).
    pub flags: u8,
    /// Size of the element type (byte 3), at least 1.
    pub typesize: u8,
    /// Uncompressed size (bytes 4..8).
    pub nbytes: u32,
    /// Block size (bytes 8..12), capped at `nbytes` as C does; with variable-length
    /// blocks, the number of blocks.
    pub blocksize: u32,
    /// Size of the chunk, header included (bytes 12..16).
    pub cbytes: u32,
    /// The filter pipeline and its meta bytes (all none for a Blosc1 header but the
    /// filters its flags name).
    pub filters: [(Filter, u8); MAX_FILTERS],
    /// The codec.
    pub codec: Codec,
    /// `blosc2_flags` (byte 31 of an extended header; 0 otherwise).
    pub blosc2_flags: u8,
    /// `blosc2_flags2` (byte 30 of an extended header; 0 otherwise).
    pub blosc2_flags2: u8,
    /// Whether the header is the 32-byte extended one.
    pub extended: bool,
}

impl ChunkHeader {
    /// Reads and checks the header at the start of `chunk`.
    ///
    /// ```
    /// // A header of version 7 whose blosc2_flags2 has a feature C-Blosc2 3.3.5 lacks.
    /// let mut chunk = vec![7, 1, 5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 32, 0, 0, 0];
    /// chunk.extend([0; 14]);
    /// chunk.extend([0x02, 0]);
    /// let err = b2nd_meta::chunk::ChunkHeader::parse(&chunk).unwrap_err();
    /// assert_eq!(err.offset(), Some(0));
    /// chunk[30] = 0; // without it, version 7 is read as 6
    /// assert_eq!(b2nd_meta::chunk::ChunkHeader::parse(&chunk)?.version, 7);
    /// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
    /// ```
    pub fn parse(chunk: &[u8]) -> Result<Self, ChunkError> {
        let mut r = Cursor::new(chunk);
        // Any version byte is read (C-Blosc2 3.3.5's `read_chunk_header` checks none but
        // the future versions below); 2 changes how bitshuffle was applied, 3 the sixth
        // filter slot.
        let version = r.byte("the chunk format version (byte 0)")?;
        let versionlz = r.byte("versionlz (byte 1)")?;
        let flags = r.byte("flags (byte 2)")?;
        let typesize = r.byte("typesize (byte 3)")?;
        let nbytes = r.le_i32("nbytes (int32, little-endian)")?;
        let blocksize = r.le_i32("blocksize (int32, little-endian)")?;
        let cbytes_at = r.position();
        let cbytes = r.le_i32("cbytes (int32, little-endian)")?;
        let field = |offset, field, expected, found: i32| {
            ChunkError::at(
                offset,
                ChunkErrorKind::InvalidField {
                    field,
                    expected,
                    found: i64::from(found),
                },
            )
        };
        if typesize == 0 {
            return Err(field(3, "typesize", "at least 1", 0));
        }
        if !(0..=MAX_BUFFERSIZE).contains(&nbytes) {
            return Err(field(at::NBYTES, "nbytes", "from 0 to 2147483615", nbytes));
        }
        if !(1..=MAX_BLOCKSIZE).contains(&blocksize) {
            return Err(field(8, "blocksize", "from 1 to 536866816", blocksize));
        }
        let extended = flags & (FLAG_SHUFFLE | FLAG_BITSHUFFLE) == FLAG_SHUFFLE | FLAG_BITSHUFFLE;
        let header_len = if extended {
            EXTENDED_HEADER_LEN
        } else {
            MIN_HEADER_LEN
        };
        if cbytes < header_len as i32 {
            let expected = if extended {
                "at least 32 (the extended header)"
            } else {
                "at least 16 (the header)"
            };
            return Err(field(cbytes_at, "cbytes", expected, cbytes));
        }
        let mut filters = [(Filter::None, 0u8); MAX_FILTERS];
        let (mut blosc2_flags, mut blosc2_flags2, mut udcodec) = (0, 0, 0);
        if extended {
            let ids: [u8; MAX_FILTERS] = r.array("the filters (bytes 16..22)")?;
            udcodec = r.byte("the user-defined codec (byte 22)")?;
            let _compcode_meta = r.byte("compcode_meta (byte 23)")?;
            let metas: [u8; MAX_FILTERS] = r.array("the filters' meta (bytes 24..30)")?;
            blosc2_flags2 = r.byte("blosc2_flags2 (byte 30)")?;
            blosc2_flags = r.byte("blosc2_flags (byte 31)")?;
            // C: "Version from future with unsupported chunk features"
            // (BLOSC2_ERROR_VERSION_SUPPORT): a version above 6 is read only when
            // blosc2_flags2 holds no other feature than variable-length blocks.
            if version > MAX_VERSION && blosc2_flags2 & !BLOSC2_VL_BLOCKS != 0 {
                return Err(ChunkError::at(
                    0,
                    ChunkErrorKind::UnsupportedVersion {
                        found: version,
                        max: MAX_VERSION,
                        flags2: blosc2_flags2,
                    },
                ));
            }
            // C: "VL-block chunks cannot be memcpyed" (BLOSC2_ERROR_INVALID_HEADER).
            if blosc2_flags2 & BLOSC2_VL_BLOCKS != 0 && flags & FLAG_MEMCPYED != 0 {
                return Err(ChunkError::at(
                    2,
                    ChunkErrorKind::InvalidField {
                        field: "flags",
                        expected: "without memcpyed (bit 1) with variable-length blocks",
                        found: i64::from(flags),
                    },
                ));
            }
            for (slot, (id, meta)) in filters.iter_mut().zip(ids.iter().zip(metas)) {
                *slot = (Filter::from_id(*id), meta);
            }
            // The alpha format left the sixth slot uninitialised.
            if version == 3 {
                filters[MAX_FILTERS - 1] = (Filter::None, 0);
            }
        } else {
            if flags & FLAG_SHUFFLE != 0 {
                filters[MAX_FILTERS - 1].0 = Filter::Shuffle;
            }
            if flags & FLAG_BITSHUFFLE != 0 {
                filters[MAX_FILTERS - 1].0 = Filter::BitShuffle;
            }
            if flags & FLAG_DELTA != 0 {
                filters[MAX_FILTERS - 2].0 = Filter::Delta;
            }
        }
        let header = ChunkHeader {
            version,
            versionlz,
            flags,
            typesize,
            nbytes: nbytes as u32,
            // C caps the block at nbytes, but not the block count of variable-length
            // blocks.
            blocksize: if blosc2_flags2 & BLOSC2_VL_BLOCKS == 0 && nbytes > 0 && blocksize > nbytes
            {
                nbytes as u32
            } else {
                blocksize as u32
            },
            cbytes: cbytes as u32,
            filters,
            codec: Codec::from_format(flags >> CODEC_SHIFT, udcodec),
            blosc2_flags,
            blosc2_flags2,
            extended,
        };
        header.check_special()?;
        if header.memcpyed() && nbytes + header_len as i32 != cbytes {
            return Err(field(
                cbytes_at,
                "cbytes",
                "nbytes + the header's length (a memcpyed chunk)",
                cbytes,
            ));
        }
        Ok(header)
    }

    /// C-Blosc2 3.3.5's `read_chunk_header` on special chunks: variable-length blocks
    /// have none; a repeated value's width is `cbytes - 32`, not typesize, and divides
    /// nbytes (at least one value); NaN and uninitialised chunks hold whole elements of
    /// typesize; zeros any number of bytes (C fills them with memset).
    fn check_special(&self) -> Result<(), ChunkError> {
        let raw = (self.blosc2_flags >> SPECIAL_SHIFT) & SPECIAL_MASK;
        let invalid = |offset, field, expected, found: i64| {
            Err(ChunkError::at(
                offset,
                ChunkErrorKind::InvalidField {
                    field,
                    expected,
                    found,
                },
            ))
        };
        let special = "special value (blosc2_flags bits 4..6)";
        match raw {
            0 => Ok(()),
            _ if self.blosc2_flags2 & BLOSC2_VL_BLOCKS != 0 => invalid(
                at::BLOSC2_FLAGS,
                special,
                "0 with variable-length blocks",
                i64::from(raw),
            ),
            // C refuses these after the header (`initialize_context_decompression`).
            5..=7 => invalid(at::BLOSC2_FLAGS, special, "from 0 to 4", i64::from(raw)),
            3 => {
                let width = self.cbytes - EXTENDED_HEADER_LEN as u32;
                if width == 0
                    || width > MAX_BLOCKSIZE as u32
                    || width > self.nbytes
                    || !self.nbytes.is_multiple_of(width)
                {
                    return invalid(
                        at::CBYTES,
                        "cbytes",
                        "32 + the width of the repeated value, a divisor of nbytes",
                        i64::from(self.cbytes),
                    );
                }
                Ok(())
            }
            1 => Ok(()),
            _ if !self.nbytes.is_multiple_of(u32::from(self.typesize)) => invalid(
                at::NBYTES,
                "nbytes",
                "a multiple of typesize",
                i64::from(self.nbytes),
            ),
            _ => Ok(()),
        }
    }

    /// The width of a repeated value (`Special::Value`): the bytes after the header,
    /// `cbytes - 32`, as C-Blosc2 3.x derives it.
    pub(crate) fn value_width(&self) -> usize {
        self.cbytes as usize - self.len()
    }

    /// The header's length: 32 when extended, else 16.
    pub fn len(&self) -> usize {
        if self.extended {
            EXTENDED_HEADER_LEN
        } else {
            MIN_HEADER_LEN
        }
    }

    /// Always false: a header has 16 or 32 bytes.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// How many blocks the chunk has: `nbytes / blocksize`, rounded up (the last block
    /// holds the rest); with variable-length blocks, the count the header stores.
    ///
    /// ```
    /// // nbytes 10, blocksize 4: blocks of 4, 4 and 2 bytes.
    /// let mut chunk = vec![5, 1, 5, 1, 10, 0, 0, 0, 4, 0, 0, 0, 32, 0, 0, 0];
    /// chunk.extend([0; 15]);
    /// chunk.push(0x10); // zeros
    /// let header = b2nd_meta::chunk::ChunkHeader::parse(&chunk)?;
    /// assert_eq!(header.nblocks(), 3);
    /// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
    /// ```
    pub fn nblocks(&self) -> usize {
        if self.blosc2_flags2 & BLOSC2_VL_BLOCKS != 0 {
            return self.blocksize as usize;
        }
        (self.nbytes as usize).div_ceil(self.blocksize as usize)
    }

    /// Where block `block` lies in the decoded chunk: from `block * blocksize`, of
    /// `blocksize` bytes (the last block the rest). `None` past the last block, and for
    /// variable-length blocks, whose lengths are in the chunk's data.
    ///
    /// ```
    /// let mut chunk = vec![5, 1, 5, 1, 10, 0, 0, 0, 4, 0, 0, 0, 32, 0, 0, 0];
    /// chunk.extend([0; 15]);
    /// chunk.push(0x10);
    /// let header = b2nd_meta::chunk::ChunkHeader::parse(&chunk)?;
    /// assert_eq!(header.block_span(2), Some(8..10));
    /// assert_eq!(header.block_span(3), None);
    /// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
    /// ```
    pub fn block_span(&self, block: usize) -> Option<core::ops::Range<usize>> {
        if self.blosc2_flags2 & BLOSC2_VL_BLOCKS != 0 || block >= self.nblocks() {
            return None;
        }
        let start = block * self.blocksize as usize;
        Some(start..(start + self.blocksize as usize).min(self.nbytes as usize))
    }

    /// Every block's index and span (none for variable-length blocks).
    pub(crate) fn block_spans(
        &self,
    ) -> impl Iterator<Item = (usize, core::ops::Range<usize>)> + '_ {
        (0..self.nblocks()).map_while(|block| Some((block, self.block_span(block)?)))
    }

    /// Whether the chunk is made of variable-length blocks (C-Blosc2 3.x's VL-blocks,
    /// `blosc2_flags2` bit 0), whose lengths are in the chunk's data.
    ///
    /// ```
    /// let mut chunk = vec![5, 1, 5, 1, 10, 0, 0, 0, 4, 0, 0, 0, 32, 0, 0, 0];
    /// chunk.extend([0; 15]);
    /// chunk.push(0x10);
    /// assert!(!b2nd_meta::chunk::ChunkHeader::parse(&chunk)?.vl_blocks());
    /// # Ok::<(), b2nd_meta::chunk::ChunkError>(())
    /// ```
    pub fn vl_blocks(&self) -> bool {
        self.blosc2_flags2 & BLOSC2_VL_BLOCKS != 0
    }

    /// Whether the blocks are stored as they are.
    pub fn memcpyed(&self) -> bool {
        self.flags & FLAG_MEMCPYED != 0
    }

    /// The special value of the whole chunk, if any.
    pub fn special(&self) -> Option<Special> {
        if !self.extended {
            return None;
        }
        match (self.blosc2_flags >> SPECIAL_SHIFT) & SPECIAL_MASK {
            SPECIAL_ZERO => Some(Special::Zero),
            2 => Some(Special::Nan),
            3 => Some(Special::Value),
            4 => Some(Special::Uninit),
            _ => None,
        }
    }

    /// Offset of a filter slot's meta byte (an extended header's), for errors about it.
    pub(crate) fn filter_meta_offset(&self, slot: usize) -> usize {
        at::FILTERS_META + slot
    }

    /// Offset of the filter slots, for errors about a filter.
    pub(crate) fn filter_offset(&self, slot: usize) -> usize {
        if self.extended {
            at::FILTERS + slot
        } else {
            2
        }
    }
}
