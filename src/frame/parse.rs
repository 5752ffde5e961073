//! Parsing a frame header from a slice: the fixed part here, the metalayer index and
//! contents in `index`, over the crate's one reader ([`crate::read::Reader`]) and the marker
//! constants of [`crate::marker`].

use super::error::{FrameError, FrameErrorKind};
use super::fields::{invalid, Bound, Fields};
use super::header::{
    Codec, FrameHeader, FrameInfo, FrameKind, FIXED_HEADER_LEN, MAX_FILTERS,
    MAX_FRAME_FORMAT_VERSION,
};
use super::index::parse_metalayers;
use crate::marker::{FALSE, FIXARRAY, FIXEXT16, FIXSTR, INT16, INT32, INT64, TRUE, UINT64};
use crate::read::Reader;

const MAGIC: [u8; 8] = *b"b2frame\0";

// Byte offsets, from C-Blosc2 `blosc/frame.h`.
pub(crate) const OFF_MAGIC: usize = 2;
pub(crate) const OFF_HEADER_LEN: usize = 11;
pub(crate) const OFF_FRAME_LEN: usize = 16;
pub(crate) const OFF_FLAGS: usize = 25;
pub(crate) const OFF_FRAME_TYPE: usize = 26;
pub(crate) const OFF_FILTER_PIPELINE: usize = 70;

const GENERAL_FLAG_VERSION_MASK: u8 = 0x0f;
const GENERAL_FLAG_OFFSETS_64BIT: u8 = 0x10;
const GENERAL_FLAG_VARIABLE_CHUNKS: u8 = 0x40;
const GENERAL_FLAG_VL_BLOCKS: u8 = 0x80;
const CODEC_NIBBLE_UDCODEC: u8 = 6;
const OTHER_FLAGS2_USE_DICT: u8 = 0x01;

/// The header starts with a fixarray of 14 elements.
const HEADER_ARRAY: u8 = FIXARRAY + 14;
/// The magic is a fixstr of 8 bytes.
const MAGIC_STR: u8 = FIXSTR + 8;
/// The four flag bytes are a fixstr of 4 bytes.
const FLAGS_STR: u8 = FIXSTR + 4;

/// A marker, then an int32 of at least `min`.
fn int32_at_least(
    c: &mut Fields<'_>,
    marker_desc: &'static str,
    field: &'static str,
    min: i32,
    reason: &'static str,
) -> Result<u32, FrameError> {
    c.marker(INT32, marker_desc)?;
    let at = c.pos();
    let v = c.read(Reader::be_i32, field)?;
    if v < min {
        return Err(invalid(at, field, v, reason));
    }
    u32::try_from(v).map_err(|_| invalid(at, field, v, reason))
}

/// A marker, then a non-negative int64.
fn non_negative_i64(
    c: &mut Fields<'_>,
    marker_desc: &'static str,
    field: &'static str,
) -> Result<u64, FrameError> {
    c.marker(INT64, marker_desc)?;
    let at = c.pos();
    let v = c.read(Reader::be_i64, field)?;
    u64::try_from(v).map_err(|_| invalid(at, field, v, "negative"))
}

/// Parse the fixed 87-byte part. Reads are bounded by `buf`.
pub(crate) fn parse_fixed(buf: &[u8]) -> Result<FrameInfo, FrameError> {
    let mut c = Fields {
        r: Reader::new(buf),
        bound: Bound::Input,
    };
    c.marker(
        HEADER_ARRAY,
        "0x9e (msgpack fixarray of 14) at the start of a frame",
    )?;
    c.marker(
        MAGIC_STR,
        "0xa8 (msgpack fixstr of 8) before the magic \"b2frame\\0\"",
    )?;
    for (i, &expected) in MAGIC.iter().enumerate() {
        let found = c.byte("the magic \"b2frame\\0\"")?;
        if found != expected {
            return Err(FrameError::at(
                (OFF_MAGIC + i) as u64,
                FrameErrorKind::BadMagic { expected, found },
            ));
        }
    }

    c.marker(INT32, "0xd2 (msgpack int32) before header_len")?;
    let header_len = c.read(Reader::be_i32, "header_len")?;
    c.marker(UINT64, "0xcf (msgpack uint64) before frame_len")?;
    let frame_len = c.read(Reader::be_u64, "frame_len")?;
    let header_len = match u32::try_from(header_len) {
        Ok(h) if h as usize >= FIXED_HEADER_LEN => h,
        _ => {
            return Err(invalid(
                OFF_HEADER_LEN,
                "header_len",
                header_len,
                "smaller than the 87-byte fixed part of the header",
            ))
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

    c.marker(FLAGS_STR, "0xa4 (msgpack fixstr of 4) before the flags")?;
    let general_flags = c.byte("general flags")?;
    let version = general_flags & GENERAL_FLAG_VERSION_MASK;
    if version == 0 || version > MAX_FRAME_FORMAT_VERSION {
        return Err(FrameError::at(
            OFF_FLAGS as u64,
            FrameErrorKind::UnsupportedVersion { version },
        ));
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
            ))
        }
    };
    let codec_flags = c.byte("codec flags")?;
    let other_flags = c.byte("other flags")?;

    let nbytes = non_negative_i64(&mut c, "0xd3 (msgpack int64) before nbytes", "nbytes")?;
    let cbytes = non_negative_i64(&mut c, "0xd3 (msgpack int64) before cbytes", "cbytes")?;
    let typesize = int32_at_least(
        &mut c,
        "0xd2 (msgpack int32) before typesize",
        "typesize",
        1,
        "must be at least 1",
    )?;
    let blocksize = int32_at_least(
        &mut c,
        "0xd2 (msgpack int32) before blocksize",
        "blocksize",
        0,
        "negative",
    )?;
    let chunksize = int32_at_least(
        &mut c,
        "0xd2 (msgpack int32) before chunksize",
        "chunksize",
        0,
        "negative",
    )?;
    c.marker(INT16, "0xd1 (msgpack int16) before the compression threads")?;
    let nthreads_comp = c.read(Reader::be_i16, "compression threads")?;
    c.marker(
        INT16,
        "0xd1 (msgpack int16) before the decompression threads",
    )?;
    let nthreads_decomp = c.read(Reader::be_i16, "decompression threads")?;

    let at = c.pos();
    let has_vlmetalayers = match c.byte("has_vlmetalayers")? {
        FALSE => false,
        TRUE => true,
        found => {
            return Err(FrameError::at(
                at as u64,
                FrameErrorKind::BadMarker {
                    expected: "0xc2 or 0xc3 (msgpack bool) for has_vlmetalayers",
                    found,
                },
            ))
        }
    };
    c.marker(
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
        codec: Codec { code },
        clevel: codec_flags >> 4,
        codec_meta,
        other_flags,
        splitmode: (other_flags & 0x03) + 1,
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
        filters,
        filters_meta,
    })
}

/// Parse a frame header from a buffer holding at least the whole header (it
/// may hold the whole frame; bytes past `header_len` are ignored).
///
/// ```
/// use b2nd_meta::frame::{parse_header, FrameKind};
///
/// let bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/contiguous.b2nd"
/// ));
/// let header = parse_header(bytes)?;
/// assert_eq!(header.info.kind, FrameKind::Contiguous);
/// assert_eq!(header.info.codec.name(), "lz4");
/// assert_eq!(header.info.clevel, 5);
/// assert_eq!(header.info.typesize, 4);
/// assert_eq!(header.names().collect::<Vec<_>>(), ["b2nd"]);
///
/// // Any prefix shorter than the header is an error, never a panic.
/// assert!(parse_header(&bytes[..100]).is_err());
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn parse_header(buf: &[u8]) -> Result<FrameHeader, FrameError> {
    let info = parse_fixed(buf)?;
    let header = buf.get(..info.header_len as usize).ok_or_else(|| {
        FrameError::at(
            0,
            FrameErrorKind::Truncated {
                what: "the header (header_len at byte 11)",
                end: u64::from(info.header_len),
                available: buf.len() as u64,
            },
        )
    })?;
    let metalayers = parse_metalayers(header, info.header_len)?;
    Ok(FrameHeader { info, metalayers })
}
