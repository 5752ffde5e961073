//! The frame trailer and its variable-length metalayers (`vlmeta`), read as C-Blosc2's
//! `frame_get_vlmetalayers` / `get_vlmeta_from_trailer` (`blosc/frame.c`) read them, and
//! as strictly as the header.
//!
//! ```text
//! trailer = 0x94                         fixarray of 4
//!           version                      positive fixint (1; 0 before 2.0.0-beta.3)
//!           0x93                         fixarray of 3: the vlmetalayers
//!             0xcd idx_size              uint16: bytes from the 0xcd to the end of the index
//!             0xde n                     map16 of n <= 8192 entries:
//!               0xa0+len name 0xd2 off     fixstr name -> int32 offset (in the trailer) of
//!             0xdc n                     array16 of n contents, in index order:
//!               0xc6 len chunk             bin32: a Blosc2 chunk (see `crate::chunk`)
//!           0xce trailer_len             uint32: the trailer's length
//!           0xd8 type fingerprint[16]    fixext 16 (type 0: no fingerprint)
//! ```
//!
//! The trailer is found from the frame's end: its length is in the 25 last bytes of the
//! frame (`frame_len - 25`); it starts at `frame_len - trailer_len`, or right after the
//! header when the frame holds no data (`nbytes == 0`), as C's `get_trailer_offset`.
//! Only the header, those 25 bytes and the trailer are read, never the data.

use std::io::{self, Read, Seek, SeekFrom};
use std::string::{String, ToString};
use std::vec::Vec;

use super::{FrameError, FrameErrorKind, FrameFile, FrameHeader, FrameInfo, FIXED_HEADER_LEN};
use crate::chunk;
use crate::error::{ErrorKind, Expected};
use crate::marker::{
    ARRAY16, BIN32, FIXARRAY, FIXEXT16, FIXSTR, INT32, MAP16, PFIX_MAX, UINT16, UINT32,
};
use crate::read::Reader;

/// The shortest trailer, and the bytes C reads at the frame's end (`FRAME_TRAILER_MINLEN`).
pub const TRAILER_MIN_LEN: u32 = 25;
/// The most vlmetalayers a trailer holds (`BLOSC2_MAX_VLMETALAYERS`).
pub const MAX_VLMETALAYERS: u16 = 8 * 1024;
/// From the `0xce` of the trailer length to the trailer's end: 0xce, u32, 0xd8, type, 16.
const TAIL_LEN: u32 = 23;
/// Offset of the `0xce` marker in the 25 last bytes of a frame (`FRAME_TRAILER_LEN_OFFSET`).
const TAIL_IN_LAST: usize = (TRAILER_MIN_LEN - TAIL_LEN) as usize;
/// A chunk that starts before this offset cannot be preceded by a header (C's check).
const MIN_TRAILER_OFFSET: u64 = chunk::EXTENDED_HEADER_LEN as u64;
/// Where the vlmetalayer index size sits in the trailer; idx_size counts from here.
const IDX_START: usize = 3;
/// Fingerprint bytes after the fixext 16's type byte.
const FINGERPRINT_LEN: usize = 16;

/// A variable-length metalayer: its name and its content, a Blosc2 chunk.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VlMetalayer {
    /// Its name (UTF-8, at most 31 bytes).
    pub name: String,
    /// Offset from the start of the frame of its `0xc6` marker; the chunk starts 5
    /// bytes later.
    pub offset: u64,
    /// The stored chunk (compressed or not): decode it with [`VlMetalayer::decode`].
    pub content: Vec<u8>,
}

impl VlMetalayer {
    /// Offset from the start of the frame of the chunk's first byte.
    pub fn content_offset(&self) -> u64 {
        self.offset.saturating_add(5)
    }

    /// The chunk's uncompressed bytes (msgpack, as python-blosc2 wrote them).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// for vl in &trailer.vlmetalayers {
    ///     let msgpack = vl.decode()?;
    ///     assert!(!msgpack.is_empty());
    /// }
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn decode(&self) -> Result<Vec<u8>, FrameError> {
        chunk::decode(&self.content).map_err(|source| {
            let content_offset = self.content_offset();
            let at = source.offset().map(|o| content_offset.saturating_add(o));
            let kind = FrameErrorKind::VlmetaChunk {
                name: self.name.clone(),
                content_offset,
                source,
            };
            match at {
                Some(at) => FrameError::at(at, kind),
                None => FrameError::new(kind),
            }
        })
    }
}

/// A parsed trailer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Trailer {
    /// Offset of the trailer from the start of the frame.
    pub offset: u64,
    /// Its length (the uint32 near its end).
    pub len: u32,
    /// The trailer format version (byte 1).
    pub version: u8,
    /// The variable-length metalayers, in index order.
    pub vlmetalayers: Vec<VlMetalayer>,
    /// The fingerprint type (0: none) and its 16 bytes.
    pub fingerprint: (u8, [u8; FINGERPRINT_LEN]),
}

impl Trailer {
    /// The vlmetalayer called `name`, if any.
    pub fn vlmetalayer(&self, name: &str) -> Option<&VlMetalayer> {
        self.vlmetalayers.iter().find(|m| m.name == name)
    }

    /// The vlmetalayer names, in index order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.vlmetalayers.iter().map(|m| m.name.as_str())
    }
}

/// Where the trailer starts and how long it is, from the header and the frame's 25
/// last bytes (`last`, read at `frame_len - 25`), with C-Blosc2's checks.
fn locate(info: &FrameInfo, last: &[u8]) -> Result<(u64, u32), FrameError> {
    let frame_len = info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let mut r = Reader::new(last);
    r.advance(TAIL_IN_LAST);
    expect(
        &mut r,
        UINT32,
        "uint32 (0xce) before the trailer length",
        last_at,
    )?;
    let len = r
        .be_u32(Expected::Described("the trailer length"))
        .map_err(|e| reader_error(e, last_at))?;
    let len_at = last_at + TAIL_IN_LAST as u64 + 1;
    let max = frame_len.saturating_sub(FIXED_HEADER_LEN as u64);
    if len < TRAILER_MIN_LEN || i32::try_from(len).is_err() || u64::from(len) > max {
        return Err(FrameError::at(
            len_at,
            FrameErrorKind::InvalidField {
                field: "trailer length",
                value: i128::from(len),
                reason: "expected from 25 to frame_len - 87",
            },
        ));
    }
    let offset = if info.nbytes > 0 {
        frame_len - u64::from(len)
    } else {
        u64::from(info.header_len)
    };
    if offset < MIN_TRAILER_OFFSET || offset + u64::from(len) > frame_len {
        return Err(FrameError::at(
            len_at,
            FrameErrorKind::InvalidField {
                field: "trailer length",
                value: i128::from(len),
                reason: "the trailer would not fit between the header and frame_len",
            },
        ));
    }
    Ok((offset, len))
}

/// Parses the trailer of a frame held whole in memory (`frame` starts at the frame's
/// first byte; for a sparse frame, `chunks.b2frame`), after its `header`.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd"))?;
/// let header = b2nd_meta::frame::parse_header(&bytes)?;
/// let trailer = b2nd_meta::frame::parse_trailer(&bytes, &header)?;
/// assert_eq!(trailer.offset + u64::from(trailer.len), header.info.frame_len);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_trailer(frame: &[u8], header: &FrameHeader) -> Result<Trailer, FrameError> {
    let frame_len = header.info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = slice(
        frame,
        last_at,
        u64::from(TRAILER_MIN_LEN),
        "the trailer length (the frame's 25 last bytes)",
    )?;
    let (offset, len) = locate(&header.info, last)?;
    let bytes = slice(frame, offset, u64::from(len), "the trailer")?;
    parse_trailer_bytes(bytes, offset)
}

/// Reads the trailer of the frame that starts at the reader's position 0, after its
/// `header`: two seeks and two reads (25 bytes, then the trailer), whatever the size
/// of the data between.
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let mut file = std::fs::File::open(path)?;
/// let header = b2nd_meta::frame::read_header(&mut file)?;
/// let trailer = b2nd_meta::frame::read_trailer(&mut file, &header)?;
/// assert_eq!(trailer.version, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_trailer<R: Read + Seek>(
    mut reader: R,
    header: &FrameHeader,
) -> Result<Trailer, FrameError> {
    let frame_len = header.info.frame_len;
    let last_at = frame_len.saturating_sub(u64::from(TRAILER_MIN_LEN));
    let last = read_at(
        &mut reader,
        last_at,
        TRAILER_MIN_LEN,
        "the trailer length (the frame's 25 last bytes)",
    )?;
    let (offset, len) = locate(&header.info, &last)?;
    let bytes = read_at(&mut reader, offset, len, "the trailer")?;
    parse_trailer_bytes(&bytes, offset)
}

fn slice<'a>(
    frame: &'a [u8],
    at: u64,
    len: u64,
    what: &'static str,
) -> Result<&'a [u8], FrameError> {
    let end = at.saturating_add(len);
    usize::try_from(at)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(a, e)| frame.get(a..e))
        .ok_or(FrameError::at(
            at,
            FrameErrorKind::Truncated {
                what,
                end,
                available: frame.len() as u64,
            },
        ))
}

fn read_at<R: Read + Seek>(
    reader: &mut R,
    at: u64,
    len: u32,
    what: &'static str,
) -> Result<Vec<u8>, FrameError> {
    let io_err = |source: io::Error| FrameError::io(None)(source);
    reader.seek(SeekFrom::Start(at)).map_err(io_err)?;
    // Grows only as bytes arrive: a trailer length the file does not hold costs nothing.
    let mut out = Vec::new();
    reader
        .by_ref()
        .take(u64::from(len))
        .read_to_end(&mut out)
        .map_err(io_err)?;
    if out.len() < len as usize {
        return Err(FrameError::at(
            at,
            FrameErrorKind::Truncated {
                what,
                end: at + u64::from(len),
                available: at + out.len() as u64,
            },
        ));
    }
    Ok(out)
}

/// A reader error (the input ends) as a frame error, `base` bytes into the frame.
fn reader_error(e: crate::Error, base: u64) -> FrameError {
    let at = base + e.offset().unwrap_or(0) as u64;
    match e.kind() {
        ErrorKind::UnexpectedEnd {
            expected,
            input_len,
            needed,
        } => FrameError::at(
            at,
            FrameErrorKind::Truncated {
                what: match expected {
                    Expected::Described(what) => what,
                    _ => "the trailer",
                },

                end: base + (*input_len + *needed) as u64,
                available: base + *input_len as u64,
            },
        ),
        _ => FrameError::at(
            at,
            FrameErrorKind::InvalidField {
                field: "trailer",
                value: 0,
                reason: "unexpected value",
            },
        ),
    }
}

/// Consumes `marker`, or reports what is there instead.
fn expect(
    r: &mut Reader<'_>,
    marker: u8,
    expected: &'static str,
    base: u64,
) -> Result<(), FrameError> {
    let at = r.position();
    let found = r
        .byte(Expected::Described(expected))
        .map_err(|e| reader_error(e, base))?;
    if found != marker {
        return Err(FrameError::at(
            base + at as u64,
            FrameErrorKind::BadMarker { expected, found },
        ));
    }
    Ok(())
}

/// Parses the trailer's bytes; `base` is the trailer's offset in the frame.
fn parse_trailer_bytes(bytes: &[u8], base: u64) -> Result<Trailer, FrameError> {
    let len = bytes.len() as u32;
    let mut r = Reader::new(bytes);
    let at = |pos: usize| base + pos as u64;
    let re = |e| reader_error(e, base);
    expect(
        &mut r,
        FIXARRAY + 4,
        "fixarray of 4 (0x94) starting the trailer",
        base,
    )?;
    let version_at = r.position();
    let version = r
        .byte(Expected::Described("the trailer version"))
        .map_err(re)?;
    if version > PFIX_MAX {
        return Err(FrameError::at(
            at(version_at),
            FrameErrorKind::BadMarker {
                expected: "positive fixint (the trailer version)",
                found: version,
            },
        ));
    }
    expect(
        &mut r,
        FIXARRAY + 3,
        "fixarray of 3 (0x93) before the vlmetalayers",
        base,
    )?;
    expect(
        &mut r,
        UINT16,
        "uint16 (0xcd) before the vlmetalayer index size",
        base,
    )?;
    let idx_size_at = r.position();
    let idx_size = r
        .be_u16(Expected::Described("the vlmetalayer index size"))
        .map_err(re)?;
    expect(
        &mut r,
        MAP16,
        "map16 (0xde) starting the vlmetalayer index",
        base,
    )?;
    let count_at = r.position();
    let count = r
        .be_u16(Expected::Described("the number of vlmetalayers"))
        .map_err(re)?;
    if count > MAX_VLMETALAYERS {
        return Err(FrameError::at(
            at(count_at),
            FrameErrorKind::InvalidField {
                field: "number of vlmetalayers",
                value: i128::from(count),
                reason: "expected at most 8192",
            },
        ));
    }
    // Each index entry takes at least 6 bytes: nothing is reserved beyond what is there.
    let mut index: Vec<(String, usize, i32)> =
        Vec::with_capacity(usize::from(count).min(bytes.len() / 6));
    for _ in 0..count {
        let name_at = r.position();
        let m = r
            .byte(Expected::Described("a vlmetalayer name (fixstr)"))
            .map_err(re)?;
        if m & 0xe0 != FIXSTR {
            return Err(FrameError::at(
                at(name_at),
                FrameErrorKind::BadMarker {
                    expected: "fixstr (0xa0..=0xbf) for a vlmetalayer name",
                    found: m,
                },
            ));
        }
        let raw = r
            .bytes(
                usize::from(m & 0x1f),
                Expected::Described("a vlmetalayer name"),
            )
            .map_err(re)?;
        let name = core::str::from_utf8(raw).map_err(|_| {
            FrameError::at(
                at(name_at + 1),
                FrameErrorKind::InvalidName {
                    reason: "not UTF-8",
                },
            )
        })?;
        if name.contains('\0') {
            return Err(FrameError::at(
                at(name_at + 1),
                FrameErrorKind::InvalidName {
                    reason: "contains NUL",
                },
            ));
        }
        if index.iter().any(|(n, _, _)| n == name) {
            return Err(FrameError::at(
                at(name_at),
                FrameErrorKind::DuplicateName {
                    name: name.to_string(),
                },
            ));
        }
        expect(
            &mut r,
            INT32,
            "int32 (0xd2) before a vlmetalayer offset",
            base,
        )?;
        let off_at = r.position();
        let off = r
            .be_i32(Expected::Described("a vlmetalayer offset"))
            .map_err(re)?;
        index.push((name.to_string(), off_at, off));
    }
    let idx_end = r.position();
    if usize::from(idx_size) != idx_end - IDX_START {
        return Err(FrameError::at(
            at(idx_size_at),
            FrameErrorKind::InvalidField {
                field: "vlmetalayer index size",
                value: i128::from(idx_size),
                reason: "expected the bytes from the 0xcd to the end of the index",
            },
        ));
    }
    expect(
        &mut r,
        ARRAY16,
        "array16 (0xdc) before the vlmetalayer contents",
        base,
    )?;
    let contents_at = r.position();
    let contents = r
        .be_u16(Expected::Described("the number of vlmetalayer contents"))
        .map_err(re)?;
    if contents != count {
        return Err(FrameError::at(
            at(contents_at),
            FrameErrorKind::MetalayerCountMismatch {
                index: count,
                contents,
            },
        ));
    }
    let mut vlmetalayers = Vec::with_capacity(index.len());
    for (name, off_at, off) in index {
        let here = r.position();
        if off < 0 || off as usize != here {
            return Err(FrameError::at(
                at(off_at),
                FrameErrorKind::OffsetMismatch {
                    name,
                    value: off,
                    actual: at(here),
                },
            ));
        }
        expect(
            &mut r,
            BIN32,
            "bin32 (0xc6) for a vlmetalayer content",
            base,
        )?;
        let content_len_at = r.position();
        let content_len = r
            .be_i32(Expected::Described("a vlmetalayer content length"))
            .map_err(re)?;
        let content_len = usize::try_from(content_len).map_err(|_| {
            FrameError::at(
                at(content_len_at),
                FrameErrorKind::InvalidField {
                    field: "vlmetalayer content length",
                    value: i128::from(content_len),
                    reason: "expected at least 0",
                },
            )
        })?;
        let content = r
            .bytes(content_len, Expected::Described("a vlmetalayer content"))
            .map_err(re)?
            .to_vec();
        vlmetalayers.push(VlMetalayer {
            name,
            offset: at(here),
            content,
        });
    }
    let tail_at = r.position();
    if tail_at as u64 + u64::from(TAIL_LEN) != u64::from(len) {
        return Err(FrameError::at(
            at(tail_at),
            FrameErrorKind::InvalidField {
                field: "trailer length",
                value: i128::from(len),
                reason:
                    "expected the vlmetalayer contents to end 23 bytes before the trailer's end",
            },
        ));
    }
    expect(
        &mut r,
        UINT32,
        "uint32 (0xce) before the trailer length",
        base,
    )?;
    let len_at = r.position();
    let stored = r
        .be_u32(Expected::Described("the trailer length"))
        .map_err(re)?;
    if stored != len {
        return Err(FrameError::at(
            at(len_at),
            FrameErrorKind::InvalidField {
                field: "trailer length",
                value: i128::from(stored),
                reason: "expected the length read from the frame's end",
            },
        ));
    }
    expect(
        &mut r,
        FIXEXT16,
        "fixext 16 (0xd8) for the fingerprint",
        base,
    )?;
    let kind = r
        .byte(Expected::Described("the fingerprint type"))
        .map_err(re)?;
    let fp: [u8; FINGERPRINT_LEN] = r
        .array(Expected::Described("the fingerprint"))
        .map_err(re)?;
    Ok(Trailer {
        offset: base,
        len,
        version,
        vlmetalayers,
        fingerprint: (kind, fp),
    })
}

impl FrameFile {
    /// Reads the trailer of this frame from its file (two small reads at its end).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let trailer = b2nd_meta::frame::open(path)?.trailer()?;
    /// assert_eq!(trailer.version, 1);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn trailer(&self) -> Result<Trailer, FrameError> {
        let path = &self.header_path;
        let file = std::fs::File::open(path).map_err(FrameError::io(Some(path)))?;
        read_trailer(file, &self.header).map_err(|e| e.in_file(path))
    }

    /// The names of the frame's vlmetalayers, in index order.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let names = b2nd_meta::frame::open(path)?.vlmeta_names()?;
    /// assert!(names.iter().all(|n| !n.is_empty()));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn vlmeta_names(&self) -> Result<Vec<String>, FrameError> {
        Ok(self.trailer()?.names().map(str::to_string).collect())
    }

    /// The uncompressed content (msgpack) of the vlmetalayer `name`.
    pub fn vlmeta_bytes(&self, name: &str) -> Result<Vec<u8>, FrameError> {
        self.trailer()?
            .vlmetalayer(name)
            .ok_or_else(|| {
                FrameError::new(FrameErrorKind::UnknownVlmetalayer {
                    name: name.to_string(),
                })
            })?
            .decode()
    }
}
