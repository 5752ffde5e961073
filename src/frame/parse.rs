//! Parsing a frame header from a slice: the fixed part here, the metalayer index and
//! contents in `index`, over the crate's one reader ([`crate::wire::read::Reader`]) and the marker
//! constants of [`crate::wire::marker`].

use super::error::{FrameError, FrameErrorKind};
use super::fields::{invalid, Bound, Fields};
use std::format;
use std::string::String;
use std::vec::Vec;

use super::header::{FrameInfo, FrameKind, HeaderNote, FIXED_HEADER_LEN, MAX_FRAME_FORMAT_VERSION};
use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};
use crate::wire::marker::{FALSE, FIXARRAY, FIXEXT16, FIXSTR, INT16, INT32, INT64, TRUE, UINT64};
use crate::wire::read::Reader;
use crate::wire::Found;

pub(super) const MAGIC: [u8; 8] = *b"b2frame\0";

/// Whether `buf` holds the magic where a frame has it (the test C-Blosc2 makes first).
pub(crate) fn starts_with_magic(buf: &[u8]) -> bool {
    buf.get(OFF_MAGIC..OFF_MAGIC + MAGIC.len()) == Some(&MAGIC[..])
}

// Byte offsets, from C-Blosc2 `blosc/frame.h`.
pub(crate) const OFF_MAGIC: usize = 2;
pub(crate) const OFF_HEADER_LEN: usize = 11;
pub(crate) const OFF_FRAME_LEN: usize = 16;
pub(crate) const OFF_FLAGS: usize = 25;
pub(crate) const OFF_FRAME_TYPE: usize = 26;
pub(crate) const OFF_FILTER_PIPELINE: usize = 70;
pub(super) const OFF_NBYTES: usize = 30;
pub(super) const OFF_CBYTES: usize = 39;
pub(super) const OFF_TYPESIZE: usize = 48;
pub(super) const OFF_BLOCKSIZE: usize = 53;
pub(super) const OFF_CHUNKSIZE: usize = 58;

const GENERAL_FLAG_VERSION_MASK: u8 = 0x0f;
pub(super) const GENERAL_FLAG_OFFSETS_64BIT: u8 = 0x10;
pub(super) const GENERAL_FLAG_VARIABLE_CHUNKS: u8 = 0x40;
pub(super) const GENERAL_FLAG_VL_BLOCKS: u8 = 0x80;
pub(super) const CODEC_NIBBLE_UDCODEC: u8 = 6;
pub(super) const OTHER_FLAGS2_USE_DICT: u8 = 0x01;

/// The header starts with a fixarray of 14 elements.
pub(super) const HEADER_ARRAY: u8 = FIXARRAY + 14;
/// The magic is a fixstr of 8 bytes.
pub(super) const MAGIC_STR: u8 = FIXSTR + 8;
/// The four flag bytes are a fixstr of 4 bytes.
pub(super) const FLAGS_STR: u8 = FIXSTR + 4;

/// What the parser saw that C-Blosc2 does not check, kept for [`FrameInfo::notes`].
struct Notes(Vec<HeaderNote>);

impl Notes {
    /// Reads a marker byte; a wrong one is noted, not refused (C never reads it).
    fn marker(
        &mut self,
        c: &mut Fields<'_>,
        marker: u8,
        what: &'static str,
    ) -> Result<(), FrameError> {
        let at = c.pos();
        let found = c.byte(what)?;
        if found != marker {
            self.0.push(HeaderNote {
                offset: at as u64,
                note: format!("expected {what}, found {}", Found(found)),
            });
        }
        Ok(())
    }

    fn push(&mut self, offset: usize, note: String) {
        self.0.push(HeaderNote {
            offset: offset as u64,
            note,
        });
    }
}

/// Parse the fixed 87-byte part, refusing what C-Blosc2's `blosc2_schunk_from_buffer`
/// and `get_header_info` refuse, and noting what C does not check. Reads are bounded
/// by `buf`.
pub(crate) fn parse_fixed(buf: &[u8]) -> Result<FrameInfo, FrameError> {
    // The magic first (C: memcmp of 8 bytes at byte 2), over the bytes there are, so
    // that a short file that is no frame says so.
    for (i, &expected) in MAGIC.iter().enumerate() {
        match buf.get(OFF_MAGIC + i) {
            Some(&found) if found != expected => {
                return Err(FrameError::at(
                    (OFF_MAGIC + i) as u64,
                    FrameErrorKind::BadMagic { expected, found },
                ));
            }
            _ => {}
        }
    }
    let mut c = Fields::new(buf, Bound::Input, 0);
    // C refuses a buffer shorter than the fixed part before reading anything.
    c.read(
        |r, e| r.bytes(FIXED_HEADER_LEN, e),
        "the 87-byte fixed part of the header",
    )?;
    c.r = Reader::new(buf);
    let mut notes = Notes(Vec::new());
    notes.marker(
        &mut c,
        HEADER_ARRAY,
        "0x9e (msgpack fixarray of 14) at the start of a frame",
    )?;
    notes.marker(
        &mut c,
        MAGIC_STR,
        "0xa8 (msgpack fixstr of 8) before the magic \"b2frame\\0\"",
    )?;
    c.read(|r, e| r.bytes(MAGIC.len(), e), "the magic")?;

    notes.marker(&mut c, INT32, "0xd2 (msgpack int32) before header_len")?;
    let header_len = c.read(Reader::be_i32, "header_len")?;
    notes.marker(&mut c, UINT64, "0xcf (msgpack uint64) before frame_len")?;
    // C reads frame_len as an int64_t: above i64::MAX it is negative, below header_len.
    let frame_len = c.read(Reader::be_u64, "frame_len")?;
    let header_len = match u32::try_from(header_len) {
        Ok(h) if h as usize >= FIXED_HEADER_LEN => h,
        _ => {
            return Err(invalid(
                OFF_HEADER_LEN,
                "header_len",
                header_len,
                "smaller than the 87-byte fixed part of the header",
            ));
        }
    };
    if i64::try_from(frame_len).is_err() {
        return Err(invalid(
            OFF_FRAME_LEN,
            "frame_len",
            frame_len,
            "larger than i64::MAX (C reads it as int64_t)",
        ));
    }
    if u64::from(header_len) > frame_len {
        return Err(invalid(
            OFF_HEADER_LEN,
            "header_len",
            header_len,
            "larger than frame_len",
        ));
    }

    notes.marker(
        &mut c,
        FLAGS_STR,
        "0xa4 (msgpack fixstr of 4) before the flags",
    )?;
    let general_flags = c.byte("general flags")?;
    let version = general_flags & GENERAL_FLAG_VERSION_MASK;
    if version > MAX_FRAME_FORMAT_VERSION {
        return Err(FrameError::at(
            OFF_FLAGS as u64,
            FrameErrorKind::UnsupportedVersion { version },
        ));
    }
    if version == 0 {
        notes.push(
            OFF_FLAGS,
            "frame format version 0 (C-Blosc2 writes 1 to 3; it does not check)".into(),
        );
    }
    let frame_type = c.byte("frame type")?;
    let kind = match frame_type {
        0 => FrameKind::Contiguous,
        1 => FrameKind::Sparse,
        t => {
            return Err(invalid(
                OFF_FRAME_TYPE,
                "frame type",
                t,
                "neither 0 (contiguous) nor 1 (sparse)",
            ));
        }
    };
    let codec_flags = c.byte("codec flags")?;
    let other_flags = c.byte("other flags")?;

    notes.marker(&mut c, INT64, "0xd3 (msgpack int64) before nbytes")?;
    let nbytes = c.read(Reader::be_i64, "nbytes")?;
    notes.marker(&mut c, INT64, "0xd3 (msgpack int64) before cbytes")?;
    let cbytes = c.read(Reader::be_i64, "cbytes")?;
    notes.marker(&mut c, INT32, "0xd2 (msgpack int32) before typesize")?;
    let typesize = c.read(Reader::be_i32, "typesize")?;
    let typesize = match u32::try_from(typesize) {
        Ok(t) if t >= 1 => t,
        _ => {
            return Err(invalid(
                OFF_TYPESIZE,
                "typesize",
                typesize,
                "must be at least 1",
            ));
        }
    };
    notes.marker(&mut c, INT32, "0xd2 (msgpack int32) before blocksize")?;
    let blocksize = c.read(Reader::be_i32, "blocksize")?;
    notes.marker(&mut c, INT32, "0xd2 (msgpack int32) before chunksize")?;
    let chunksize = c.read(Reader::be_i32, "chunksize")?;
    check_sizes(nbytes, cbytes, chunksize)?;
    for (value, offset, field) in [
        (nbytes, OFF_NBYTES, "nbytes"),
        (cbytes, OFF_CBYTES, "cbytes"),
        (i64::from(blocksize), OFF_BLOCKSIZE, "blocksize"),
        (i64::from(chunksize), OFF_CHUNKSIZE, "chunksize"),
    ] {
        if value < 0 {
            notes.push(offset, format!("negative {field} {value}"));
        }
    }
    notes.marker(
        &mut c,
        INT16,
        "0xd1 (msgpack int16) before the compression threads",
    )?;
    let nthreads_comp = c.read(Reader::be_i16, "compression threads")?;
    notes.marker(
        &mut c,
        INT16,
        "0xd1 (msgpack int16) before the decompression threads",
    )?;
    let nthreads_decomp = c.read(Reader::be_i16, "decompression threads")?;

    let at = c.pos();
    let vl_byte = c.byte("has_vlmetalayers")?;
    let has_vlmetalayers = vl_byte == TRUE;
    if vl_byte != TRUE && vl_byte != FALSE {
        notes.push(
            at,
            format!(
                "expected 0xc2 or 0xc3 (msgpack bool) for has_vlmetalayers, found {}",
                Found(vl_byte)
            ),
        );
    }
    notes.marker(
        &mut c,
        FIXEXT16,
        "0xd8 (msgpack fixext 16) before the filter pipeline",
    )?;
    let nfilters = c.byte("number of filters")?;
    if usize::from(nfilters) > MAX_FILTERS {
        return Err(invalid(
            OFF_FILTER_PIPELINE,
            "number of filters",
            nfilters,
            "more than 6",
        ));
    }
    let filters: [u8; MAX_FILTERS] = c.read(Reader::array, "filter codes")?;
    let udcodec = c.byte("codec code")?;
    let codec_meta = c.byte("codec meta")?;
    let filters_meta: [u8; MAX_FILTERS] = c.read(Reader::array, "filter metas")?;
    let other_flags2 = c.byte("other flags 2")?;
    let _reserved = c.byte("reserved byte")?;

    let nibble = codec_flags & 0x0f;
    let code = if nibble == CODEC_NIBBLE_UDCODEC {
        udcodec
    } else {
        nibble
    };

    Ok(FrameInfo {
        header_len,
        frame_len,
        general_flags,
        version,
        offsets_64bit: general_flags & GENERAL_FLAG_OFFSETS_64BIT != 0,
        variable_chunks: general_flags & GENERAL_FLAG_VARIABLE_CHUNKS != 0,
        vl_blocks: general_flags & GENERAL_FLAG_VL_BLOCKS != 0,
        kind,
        codec_flags,
        codec: Codec::from_id(code),
        udcodec,
        clevel: codec_flags >> 4,
        codec_meta,
        other_flags,
        splitmode: SplitMode::from_id((other_flags & 0x03) + 1),
        other_flags2,
        use_dict: other_flags2 & OTHER_FLAGS2_USE_DICT != 0,
        nbytes,
        cbytes,
        typesize,
        blocksize,
        chunksize,
        nthreads_comp,
        nthreads_decomp,
        has_vlmetalayers,
        nfilters,
        filters: filters.map(Filter::from_id),
        filters_meta,
        contents_as_c_writes: true,
        notes: notes.0,
    })
}

/// C's checks of the sizes (`get_header_info`): with data (`nbytes > 0`), a negative
/// chunksize is refused, and with a fixed chunksize a negative cbytes or a chunk count
/// that does not cover nbytes or does not fit the offsets chunk. Without data nothing
/// is checked (caterva 0.7.3 writes chunksize -1 for an empty array).
fn check_sizes(nbytes: i64, cbytes: i64, chunksize: i32) -> Result<(), FrameError> {
    if nbytes <= 0 {
        return Ok(());
    }
    if chunksize < 0 {
        return Err(invalid(
            OFF_CHUNKSIZE,
            "chunksize",
            chunksize,
            "negative while nbytes > 0",
        ));
    }
    if chunksize == 0 {
        // C sizes the chunk count from the offsets chunk, past the header.
        return Ok(());
    }
    if cbytes < 0 {
        return Err(invalid(
            OFF_CBYTES,
            "cbytes",
            cbytes,
            "negative while nbytes > 0",
        ));
    }
    let chunksize = i64::from(chunksize);
    let nchunks = nbytes / chunksize + i64::from(nbytes % chunksize != 0);
    // blosc2_nchunks_to_offsets_nbytes: nchunks * 8 must fit an int32.
    if nchunks > i64::from(i32::MAX) / 8 {
        return Err(invalid(
            OFF_NBYTES,
            "nbytes",
            nbytes,
            "more chunks of chunksize than an offsets chunk can index",
        ));
    }
    Ok(())
}
