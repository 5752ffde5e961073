//! Read (and rewrite in place) the fixed metalayers stored in the header of a
//! Blosc2 frame, without touching the compressed data.
//!
//! A Blosc2 *frame* (what python-blosc2 writes as `.b2nd`/`.b2frame`) starts
//! with a msgpack-encoded header. The first 87 bytes have a fixed layout; the
//! fixed-length *metalayers* (`b2nd`, `caterva`, user ones) follow, and the
//! header ends right after the last metalayer content. A *sparse* frame is a
//! directory whose header lives in its `chunks.b2frame` file (the chunks live
//! in `NNNNNNNN.chunk` files); that header has the same structure.
//!
//! The layout below is the one written by `new_header_frame()` in C-Blosc2's
//! `blosc/frame.c` (offsets from `blosc/frame.h`; big-endian integers):
//!
//! | bytes    | content                                                        |
//! |----------|----------------------------------------------------------------|
//! | 0        | `0x9e` msgpack fixarray of 14 elements                          |
//! | 1..10    | `0xa8` fixstr of 8 bytes, magic `b"b2frame\0"`                  |
//! | 10..15   | `0xd2` + `header_len` (int32)                                   |
//! | 15..24   | `0xcf` + `frame_len` (uint64; C reads it as `int64_t`)          |
//! | 24       | `0xa4` fixstr of 4 bytes holding the four flag bytes:           |
//! | 25       | general flags: bits 0-3 frame format version, bit 4 64-bit chunk offsets, bit 6 variable-size chunks, bit 7 variable-length blocks |
//! | 26       | frame type: 0 contiguous, 1 sparse (directory)                  |
//! | 27       | codec flags: bits 0-3 codec code (6 = user/registered codec, real code at byte 77), bits 4-7 clevel |
//! | 28       | other flags: bits 0-1 `splitmode - 1`                           |
//! | 29..38   | `0xd3` + uncompressed size `nbytes` (int64)                     |
//! | 38..47   | `0xd3` + compressed size `cbytes` (int64)                       |
//! | 47..52   | `0xd2` + `typesize` (int32)                                     |
//! | 52..57   | `0xd2` + `blocksize` (int32)                                    |
//! | 57..62   | `0xd2` + `chunksize` (int32, 0 = variable)                      |
//! | 62..65   | `0xd1` + compression threads (int16)                            |
//! | 65..68   | `0xd1` + decompression threads (int16)                          |
//! | 68       | `0xc2`/`0xc3` msgpack bool: has variable-length metalayers      |
//! | 69       | `0xd8` msgpack fixext 16, whose type byte (70) is the number of filters (at most 6) |
//! | 71..77   | filter codes (6)                                                |
//! | 77       | codec code (always written; authoritative when byte 27 says 6)  |
//! | 78       | codec meta                                                      |
//! | 79..85   | filter metas (6)                                                |
//! | 85       | other flags 2: bit 0 `use_dict`                                 |
//! | 86       | unused (0)                                                      |
//! | 87       | `0x93` fixarray of 3: the metalayer section                     |
//! | 88..91   | `0xcd` + index size (uint16) = end of the index - 87            |
//! | 91..94   | `0xde` + N (uint16, map16): the index                           |
//! |          | N × (fixstr name of at most 31 bytes, `0xd2` + int32 offset)     |
//! |          | `0xdc` + N (uint16, array16): the contents                      |
//! |          | N × (`0xc6` + int32 length + bytes)                             |
//!
//! Each offset counts from the start of the frame and points at the `0xc6` of
//! its content; the content bytes start 5 bytes later. There are at most 16
//! metalayers.
//!
//! Parsing is strict and total: every marker and every bound is checked, all
//! arithmetic is checked, nothing is ever read outside the declared header, no
//! allocation is sized from a length field beyond what the input actually
//! holds, and every failure is a [`FrameError`] naming the byte offset, what
//! was expected and what was found. Beyond C-Blosc2's own checks this module
//! also requires that the index size, both metalayer counts, the offsets and
//! `header_len` all agree with the byte layout C writes (contents stored in
//! index order, back to back, ending exactly at `header_len`), that names are
//! unique UTF-8 without NUL bytes, and that sizes are not negative.
//!
//! # Example
//!
//! Build a minimal contiguous-frame header by hand, with one metalayer `"m"`
//! holding the three bytes `01 02 03`, and read it back:
//!
//! ```
//! use b2nd_meta::frame::{parse_header, FrameKind};
//!
//! let mut h: Vec<u8> = vec![0x9e, 0xa8];
//! h.extend_from_slice(b"b2frame\0");
//! h.push(0xd2);
//! h.extend_from_slice(&112i32.to_be_bytes()); // header_len
//! h.push(0xcf);
//! h.extend_from_slice(&112u64.to_be_bytes()); // frame_len (header only)
//! h.extend_from_slice(&[0xa4, 0x12, 0x00, 0x15, 0x03]); // flags: v2, contiguous, zstd clevel 1
//! h.push(0xd3);
//! h.extend_from_slice(&0i64.to_be_bytes()); // nbytes
//! h.push(0xd3);
//! h.extend_from_slice(&0i64.to_be_bytes()); // cbytes
//! for v in [8i32, 0, 0] {
//!     h.push(0xd2);
//!     h.extend_from_slice(&v.to_be_bytes()); // typesize, blocksize, chunksize
//! }
//! h.extend_from_slice(&[0xd1, 0, 1, 0xd1, 0, 1, 0xc2]); // threads, no vlmetalayers
//! h.extend_from_slice(&[0xd8, 6, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
//! assert_eq!(h.len(), 87);
//! h.extend_from_slice(&[0x93, 0xcd, 0, 14, 0xde, 0, 1]); // index of 1 entry
//! h.extend_from_slice(&[0xa1, b'm', 0xd2, 0, 0, 0, 104]); // "m" at offset 104
//! h.extend_from_slice(&[0xdc, 0, 1]); // 1 content
//! h.extend_from_slice(&[0xc6, 0, 0, 0, 3, 1, 2, 3]);
//! assert_eq!(h.len(), 112);
//!
//! let header = parse_header(&h)?;
//! assert_eq!(header.info.kind, FrameKind::Contiguous);
//! assert_eq!(header.info.codec.name(), "zstd");
//! assert_eq!(header.info.clevel, 1);
//! assert_eq!(header.info.typesize, 8);
//! let m = header.metalayer("m").unwrap();
//! assert_eq!((m.offset, m.content.as_slice()), (104, &[1u8, 2, 3][..]));
//! # Ok::<(), b2nd_meta::frame::FrameError>(())
//! ```

use std::borrow::ToOwned;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;

/// Length of the fixed part of a frame header (`FRAME_HEADER_MINLEN` in C);
/// the metalayer section starts at this offset.
pub const FIXED_HEADER_LEN: usize = 87;

/// Maximum number of fixed-length metalayers (`BLOSC2_MAX_METALAYERS`).
pub const MAX_METALAYERS: usize = 16;

/// Maximum length in bytes of a metalayer name (`BLOSC2_METALAYER_NAME_MAXLEN`).
pub const METALAYER_NAME_MAXLEN: usize = 31;

/// Maximum number of filters in the pipeline (`BLOSC2_MAX_FILTERS`).
pub const MAX_FILTERS: usize = 6;

/// Highest frame format version understood (`BLOSC2_VERSION_FRAME_FORMAT`
/// of C-Blosc2 3.x). Versions 1 (2.0.0-beta2), 2 (2.0.0-rc1 and later) and 3
/// (variable-length blocks / variable-size chunks) share the header layout.
pub const MAX_FRAME_FORMAT_VERSION: u8 = 3;

/// Name of the file holding the header inside a sparse-frame directory.
pub const SPARSE_HEADER_FILE: &str = "chunks.b2frame";

/// Bytes between a metalayer's offset (its `0xc6` marker) and its content.
const CONTENT_PREFIX_LEN: u64 = 5;

const MAGIC: [u8; 8] = *b"b2frame\0";

// Byte offsets, from C-Blosc2 `blosc/frame.h`.
const OFF_MAGIC: usize = 2;
const OFF_HEADER_LEN: usize = 11;
const OFF_FRAME_LEN: usize = 16;
const OFF_FLAGS: usize = 25;
const OFF_FRAME_TYPE: usize = 26;
const OFF_NBYTES: usize = 30;
const OFF_CBYTES: usize = 39;
const OFF_TYPESIZE: usize = 48;
const OFF_BLOCKSIZE: usize = 53;
const OFF_CHUNKSIZE: usize = 58;
const OFF_FILTER_PIPELINE: usize = 70;
const OFF_IDX_SIZE: usize = 89;

const GENERAL_FLAG_VERSION_MASK: u8 = 0x0f;
const GENERAL_FLAG_OFFSETS_64BIT: u8 = 0x10;
const GENERAL_FLAG_VARIABLE_CHUNKS: u8 = 0x40;
const GENERAL_FLAG_VL_BLOCKS: u8 = 0x80;
const CODEC_NIBBLE_UDCODEC: u8 = 6;
const OTHER_FLAGS2_USE_DICT: u8 = 0x01;

/// Whether a frame is one contiguous file or a sparse directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameKind {
    /// A contiguous frame (frame type 0): header, chunks and trailer in one file.
    Contiguous,
    /// A sparse frame (frame type 1): a directory with `chunks.b2frame` and
    /// one `NNNNNNNN.chunk` file per chunk.
    Sparse,
}

impl fmt::Display for FrameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FrameKind::Contiguous => "contiguous",
            FrameKind::Sparse => "sparse",
        })
    }
}

/// The default codec of a frame, as a Blosc2 codec code.
///
/// ```
/// use b2nd_meta::frame::Codec;
/// assert_eq!(Codec { code: 5 }.name(), "zstd");
/// assert_eq!(Codec { code: 3 }.name(), "unknown");
/// assert_eq!(Codec { code: 35 }.to_string(), "zfp_rate (35)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Codec {
    /// The codec code: 0-31 are Blosc-defined, 32-159 globally registered
    /// plugins, 160-255 user-defined.
    pub code: u8,
}

impl Codec {
    /// The name python-blosc2 uses (lower-cased) for a known code, else
    /// `"unknown"`.
    pub fn name(self) -> &'static str {
        match self.code {
            0 => "blosclz",
            1 => "lz4",
            2 => "lz4hc",
            4 => "zlib",
            5 => "zstd",
            32 => "ndlz",
            33 => "zfp_acc",
            34 => "zfp_prec",
            35 => "zfp_rate",
            36 => "openhtj2k",
            37 => "grok",
            38 => "openzl",
            39 => "j2k",
            40 => "htj2k",
            _ => "unknown",
        }
    }
}

impl fmt::Display for Codec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.code)
    }
}

/// The facts stored in the fixed 87-byte part of a frame header.
///
/// On disk most sizes are signed msgpack integers; the parser rejects negative
/// values, so they are exposed unsigned.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FrameInfo {
    /// Length of the whole header, metalayers included (byte 11).
    pub header_len: u32,
    /// Declared length of the frame (byte 16). For a contiguous frame this is
    /// the length of the file; for a sparse frame, the length of
    /// `chunks.b2frame` (header, chunk-offsets index and trailer), the chunk
    /// files not included.
    pub frame_len: u64,
    /// Raw general flags (byte 25).
    pub general_flags: u8,
    /// Frame format version (low nibble of the general flags), 1 to 3.
    pub version: u8,
    /// Chunk offsets are 64-bit (bit 4 of the general flags; C always sets it).
    pub offsets_64bit: bool,
    /// The frame has chunks of variable size (bit 6 of the general flags).
    pub variable_chunks: bool,
    /// The chunks use variable-length blocks (bit 7 of the general flags).
    pub vl_blocks: bool,
    /// Contiguous or sparse (byte 26).
    pub kind: FrameKind,
    /// Raw codec flags (byte 27).
    pub codec_flags: u8,
    /// Default codec (low nibble of byte 27, or byte 77 when that nibble is 6).
    pub codec: Codec,
    /// Default compression level (high nibble of byte 27).
    pub clevel: u8,
    /// Codec meta (byte 78).
    pub codec_meta: u8,
    /// Raw other flags (byte 28).
    pub other_flags: u8,
    /// Split mode, `(other_flags & 3) + 1`: 1 always, 2 never, 3 auto,
    /// 4 forward-compatible.
    pub splitmode: u8,
    /// Raw other flags 2 (byte 85).
    pub other_flags2: u8,
    /// Whether chunks were compressed with a dictionary (bit 0 of byte 85).
    pub use_dict: bool,
    /// Uncompressed size of the data (byte 30).
    pub nbytes: u64,
    /// Compressed size of the data (byte 39).
    pub cbytes: u64,
    /// Size of an item in bytes (byte 48), at least 1.
    pub typesize: u32,
    /// Block size in bytes (byte 53); 0 when it varies.
    pub blocksize: u32,
    /// Chunk size in bytes (byte 58); 0 when chunks vary in size.
    pub chunksize: u32,
    /// Number of compression threads recorded (byte 63).
    pub nthreads_comp: i16,
    /// Number of decompression threads recorded (byte 66).
    pub nthreads_decomp: i16,
    /// Whether the trailer holds variable-length metalayers (byte 68).
    pub has_vlmetalayers: bool,
    /// Number of filter slots recorded (byte 70), at most 6.
    pub nfilters: u8,
    /// Filter codes (bytes 71..77).
    pub filters: [u8; MAX_FILTERS],
    /// Filter metas (bytes 79..85).
    pub filters_meta: [u8; MAX_FILTERS],
}

/// One fixed-length metalayer, as stored in the frame header.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Metalayer {
    /// Its name (UTF-8, at most 31 bytes, no NUL).
    pub name: String,
    /// Offset from the start of the frame of its `0xc6` marker; the content
    /// starts 5 bytes later (see [`Metalayer::content_offset`]).
    pub offset: u64,
    /// Its content bytes (usually msgpack).
    pub content: Vec<u8>,
}

impl Metalayer {
    /// Offset from the start of the frame of the first content byte.
    pub fn content_offset(&self) -> u64 {
        // Cannot overflow: offset < header_len <= i32::MAX.
        self.offset.saturating_add(CONTENT_PREFIX_LEN)
    }
}

/// A parsed frame header: the fixed facts and the metalayers in header order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FrameHeader {
    /// The fixed part.
    pub info: FrameInfo,
    /// The fixed-length metalayers, in header order.
    pub metalayers: Vec<Metalayer>,
}

impl FrameHeader {
    /// Parse a header from a buffer; same as [`parse_header`].
    pub fn parse(buf: &[u8]) -> Result<Self, FrameError> {
        parse_header(buf)
    }

    /// Read a header from a reader; same as [`read_header`].
    pub fn read_from<R: Read>(reader: R) -> Result<Self, FrameError> {
        read_header(reader)
    }

    /// The metalayer called `name`, if any.
    ///
    /// ```
    /// let bytes = include_bytes!(concat!(
    ///     env!("CARGO_MANIFEST_DIR"),
    ///     "/tests/data/frame/contiguous.b2nd"
    /// ));
    /// let header = b2nd_meta::frame::parse_header(bytes)?;
    /// assert!(header.metalayer("b2nd").is_some());
    /// assert!(header.metalayer("caterva").is_none());
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn metalayer(&self, name: &str) -> Option<&Metalayer> {
        self.metalayers.iter().find(|m| m.name == name)
    }

    /// The metalayer names, in header order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.metalayers.iter().map(|m| m.name.as_str())
    }
}

/// A header read from a file or a sparse-frame directory by [`open`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameFile {
    /// The file the header was read from (the frame file itself, or the
    /// `chunks.b2frame` inside a sparse-frame directory).
    pub header_path: PathBuf,
    /// The parsed header.
    pub header: FrameHeader,
    /// Length of `header_path` on disk.
    pub file_len: u64,
}

impl FrameFile {
    /// Whether `header_path` is shorter than the declared `frame_len`, i.e. the
    /// data, the chunk-offsets index or the trailer is cut off.
    ///
    /// For a sparse frame `frame_len` covers `chunks.b2frame` only (C-Blosc2
    /// reads the trailer at `frame_len - 25` inside that file), so this compares
    /// that file; missing or short `.chunk` files are not detected, as that
    /// would need the chunk-offsets index, i.e. reading past the header.
    pub fn is_truncated(&self) -> bool {
        self.file_len < self.header.info.frame_len
    }

    /// How many bytes are missing from `header_path` (0 when not truncated).
    pub fn missing_bytes(&self) -> u64 {
        self.header.info.frame_len.saturating_sub(self.file_len)
    }
}

/// Everything that can go wrong reading or rewriting a frame header.
///
/// Offsets are byte offsets from the start of the frame (for a sparse frame,
/// from the start of `chunks.b2frame`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrameError {
    /// An I/O error, with the path involved when there is one.
    #[error("I/O error{}: {source}", .path.as_ref().map(|p| std::format!(" on {}", p.display())).unwrap_or_default())]
    Io {
        /// The file or directory involved, if any.
        path: Option<PathBuf>,
        /// The underlying error.
        source: io::Error,
    },
    /// The input ends before the header does.
    #[error("input truncated: {what} at byte {offset} needs {end} bytes of input, but only {available} are available")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where it starts.
        offset: u64,
        /// The input length it needs.
        end: u64,
        /// The input length available.
        available: u64,
    },
    /// A byte of the magic `b"b2frame\0"` is wrong: not a Blosc2 frame.
    #[error("not a Blosc2 frame: byte {offset} should be {expected:#04x} of the magic \"b2frame\\0\", found {found:#04x}")]
    BadMagic {
        /// Where.
        offset: u64,
        /// The magic byte expected.
        expected: u8,
        /// The byte found.
        found: u8,
    },
    /// A msgpack marker byte is wrong.
    #[error("byte {offset}: expected {expected}, found {found:#04x}")]
    BadMarker {
        /// Where.
        offset: u64,
        /// What was expected there.
        expected: &'static str,
        /// The byte found.
        found: u8,
    },
    /// A field holds a value that is out of range.
    #[error("byte {offset}: invalid {field} {value}: {reason}")]
    InvalidField {
        /// Where the field starts (its value, after the marker).
        offset: u64,
        /// Which field.
        field: &'static str,
        /// The value found.
        value: i128,
        /// What was expected.
        reason: &'static str,
    },
    /// The frame format version is not one this module understands.
    #[error("byte {offset}: unsupported frame format version {version} (expected 1 to {max})", max = MAX_FRAME_FORMAT_VERSION)]
    UnsupportedVersion {
        /// Where (byte 25).
        offset: u64,
        /// The version found.
        version: u8,
    },
    /// Something would extend past the end of the header.
    #[error("byte {offset}: {what} would extend to byte {end}, past the end of the header (header_len {header_len})")]
    OutOfHeader {
        /// What was being read.
        what: &'static str,
        /// Where it starts.
        offset: u64,
        /// Where it would end.
        end: u64,
        /// The declared header length.
        header_len: u32,
    },
    /// More than 16 metalayers.
    #[error("byte {offset}: {count} metalayers declared, at most {max} allowed", max = MAX_METALAYERS)]
    TooManyMetalayers {
        /// Where the count is.
        offset: u64,
        /// The count found.
        count: u16,
    },
    /// The index size does not match the index.
    #[error("byte {offset}: metalayer index size is {declared}, but the index spans {actual} bytes from byte 87")]
    IndexSizeMismatch {
        /// Where the size is (byte 89).
        offset: u64,
        /// The size found.
        declared: u16,
        /// The size of the index actually parsed.
        actual: u64,
    },
    /// The index and the contents array disagree on the number of metalayers.
    #[error("byte {offset}: the contents array holds {contents} metalayers, but the index holds {index}")]
    MetalayerCountMismatch {
        /// Where the contents count is.
        offset: u64,
        /// Count in the index (map16).
        index: u16,
        /// Count in the contents (array16).
        contents: u16,
    },
    /// A metalayer name is longer than 31 bytes (stored as str8/16/32).
    #[error("byte {offset}: metalayer name of {len} bytes, at most {max} allowed", max = METALAYER_NAME_MAXLEN)]
    NameTooLong {
        /// Where the name marker is.
        offset: u64,
        /// The declared length.
        len: u64,
    },
    /// A metalayer name is not valid (not UTF-8, or contains NUL).
    #[error("byte {offset}: invalid metalayer name: {reason}")]
    InvalidName {
        /// Where the name bytes start.
        offset: u64,
        /// Why.
        reason: &'static str,
    },
    /// Two metalayers have the same name.
    #[error("byte {offset}: duplicate metalayer name {name:?}")]
    DuplicateName {
        /// Where the second one is.
        offset: u64,
        /// The name.
        name: String,
    },
    /// A metalayer offset is negative or does not point inside the header.
    #[error("byte {offset}: metalayer {name:?} has offset {value}, outside the header (header_len {header_len})")]
    OffsetOutsideHeader {
        /// Where the offset field is.
        offset: u64,
        /// The metalayer.
        name: String,
        /// The offset found.
        value: i32,
        /// The declared header length.
        header_len: u32,
    },
    /// A metalayer offset does not point at its content in the contents array.
    #[error("byte {offset}: metalayer {name:?} has offset {value}, but its content (0xc6) is at byte {actual}")]
    OffsetMismatch {
        /// Where the offset field is.
        offset: u64,
        /// The metalayer.
        name: String,
        /// The offset found.
        value: i32,
        /// Where its content actually is.
        actual: u64,
    },
    /// `header_len` does not match the end of the metalayer section.
    #[error(
        "byte 11: header_len is {header_len}, but the metalayer section ends at byte {section_end}"
    )]
    HeaderLenMismatch {
        /// The declared header length.
        header_len: u32,
        /// Where the metalayer section ends.
        section_end: u64,
    },
    /// The frame type does not match the path (a file must hold a contiguous
    /// frame; a directory's `chunks.b2frame` a sparse one).
    #[error("{}: byte 26 says a {found} frame, expected a {expected} one", .path.display())]
    WrongKind {
        /// The header file.
        path: PathBuf,
        /// The kind the path implies.
        expected: FrameKind,
        /// The kind the header declares.
        found: FrameKind,
    },
    /// No metalayer has this name.
    #[error("no metalayer named {name:?}")]
    UnknownMetalayer {
        /// The name asked for.
        name: String,
    },
    /// The frame has neither a `b2nd` nor a `caterva` metalayer: not an n-dimensional array.
    #[error("no b2nd or caterva metalayer: the frame does not hold an n-dimensional array")]
    NoArrayMetalayer,
    /// The array metalayer does not decode. The source's offset counts from the start
    /// of the content, which starts at `content_offset` in the frame.
    #[error("metalayer {name:?}, whose content starts at frame byte {content_offset}: {source} of the content")]
    Metalayer {
        /// The metalayer.
        name: String,
        /// Where its content starts, from the start of the frame.
        content_offset: u64,
        /// Why it does not decode.
        source: crate::Error,
    },
    /// A shape change that cannot be written in place.
    #[error("cannot set the shape in place: {reason}")]
    ShapeChange {
        /// Why not.
        reason: ShapeChangeRefusal,
    },
    /// The new content does not have the length of the existing one.
    #[error("metalayer {name:?} holds {expected} bytes; new content of {found} bytes refused (only same-length rewrites are possible in place)")]
    ContentLengthMismatch {
        /// The metalayer.
        name: String,
        /// Its current length.
        expected: usize,
        /// The new content's length.
        found: usize,
    },
}

mod array;
pub use array::{set_shape, set_shape_in_buffer, Regrid, ShapeChangeRefusal, ARRAY_METALAYERS};

impl FrameError {
    /// The byte offset in the frame where the problem is, when it is at one place:
    /// for a metalayer that does not decode, the frame offset of the offending byte.
    ///
    /// ```
    /// let err = b2nd_meta::frame::parse_header(b"not a frame").unwrap_err();
    /// assert_eq!(err.offset(), Some(0));
    /// ```
    pub fn offset(&self) -> Option<u64> {
        use FrameError::*;
        match self {
            Truncated { offset, .. }
            | BadMagic { offset, .. }
            | BadMarker { offset, .. }
            | InvalidField { offset, .. }
            | UnsupportedVersion { offset, .. }
            | OutOfHeader { offset, .. }
            | TooManyMetalayers { offset, .. }
            | IndexSizeMismatch { offset, .. }
            | MetalayerCountMismatch { offset, .. }
            | NameTooLong { offset, .. }
            | InvalidName { offset, .. }
            | DuplicateName { offset, .. }
            | OffsetOutsideHeader { offset, .. }
            | OffsetMismatch { offset, .. } => Some(*offset),
            HeaderLenMismatch { section_end, .. } => Some(*section_end),
            Metalayer {
                content_offset,
                source,
                ..
            } => source.offset().map(|o| content_offset.saturating_add(o)),
            Io { .. }
            | WrongKind { .. }
            | UnknownMetalayer { .. }
            | NoArrayMetalayer
            | ShapeChange { .. }
            | ContentLengthMismatch { .. } => None,
        }
    }

    fn io(path: Option<&Path>) -> impl FnOnce(io::Error) -> FrameError + '_ {
        move |source| FrameError::Io {
            path: path.map(Path::to_path_buf),
            source,
        }
    }
}

/// Where reads are allowed to go.
#[derive(Clone, Copy)]
enum Bound {
    /// Up to the end of the input (fixed part, before header_len is trusted).
    Input,
    /// Up to header_len (metalayer section).
    Header(u32),
}

/// A bounds-checked big-endian reader over a byte slice.
struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    bound: Bound,
}

impl<'a> Cursor<'a> {
    fn offset(&self) -> u64 {
        self.pos as u64
    }

    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], FrameError> {
        let start = self.pos;
        let slice = start
            .checked_add(n)
            .and_then(|e| Some((e, self.buf.get(start..e)?)));
        match slice {
            Some((e, s)) => {
                self.pos = e;
                Ok(s)
            }
            None => {
                let end = (start as u64).saturating_add(n as u64);
                Err(match self.bound {
                    Bound::Input => FrameError::Truncated {
                        what,
                        offset: start as u64,
                        end,
                        available: self.buf.len() as u64,
                    },
                    Bound::Header(header_len) => FrameError::OutOfHeader {
                        what,
                        offset: start as u64,
                        end,
                        header_len,
                    },
                })
            }
        }
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], FrameError> {
        let s = self.take(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Ok(out)
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, FrameError> {
        Ok(self.array::<1>(what)?[0])
    }

    fn marker(&mut self, expected: u8, desc: &'static str) -> Result<(), FrameError> {
        let offset = self.offset();
        let found = self.u8(desc)?;
        if found == expected {
            Ok(())
        } else {
            Err(FrameError::BadMarker {
                offset,
                expected: desc,
                found,
            })
        }
    }

    fn i16(&mut self, what: &'static str) -> Result<i16, FrameError> {
        Ok(i16::from_be_bytes(self.array(what)?))
    }

    fn u16(&mut self, what: &'static str) -> Result<u16, FrameError> {
        Ok(u16::from_be_bytes(self.array(what)?))
    }

    fn i32(&mut self, what: &'static str) -> Result<i32, FrameError> {
        Ok(i32::from_be_bytes(self.array(what)?))
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, FrameError> {
        Ok(u32::from_be_bytes(self.array(what)?))
    }

    fn i64(&mut self, what: &'static str) -> Result<i64, FrameError> {
        Ok(i64::from_be_bytes(self.array(what)?))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, FrameError> {
        Ok(u64::from_be_bytes(self.array(what)?))
    }
}

fn invalid(
    offset: usize,
    field: &'static str,
    value: impl Into<i128>,
    reason: &'static str,
) -> FrameError {
    FrameError::InvalidField {
        offset: offset as u64,
        field,
        value: value.into(),
        reason,
    }
}

/// A marker, then a non-negative int32.
fn non_negative_i32(
    c: &mut Cursor<'_>,
    marker_desc: &'static str,
    field: &'static str,
    min: i32,
    reason: &'static str,
) -> Result<u32, FrameError> {
    c.marker(0xd2, marker_desc)?;
    let at = c.pos;
    let v = c.i32(field)?;
    if v < min {
        return Err(invalid(at, field, v, reason));
    }
    u32::try_from(v).map_err(|_| invalid(at, field, v, reason))
}

/// A marker, then a non-negative int64.
fn non_negative_i64(
    c: &mut Cursor<'_>,
    marker_desc: &'static str,
    field: &'static str,
) -> Result<u64, FrameError> {
    c.marker(0xd3, marker_desc)?;
    let at = c.pos;
    let v = c.i64(field)?;
    u64::try_from(v).map_err(|_| invalid(at, field, v, "negative"))
}

/// Parse the fixed 87-byte part. Reads are bounded by `buf`.
fn parse_fixed(buf: &[u8]) -> Result<FrameInfo, FrameError> {
    let mut c = Cursor {
        buf,
        pos: 0,
        bound: Bound::Input,
    };
    c.marker(
        0x9e,
        "0x9e (msgpack fixarray of 14) at the start of a frame",
    )?;
    c.marker(
        0xa8,
        "0xa8 (msgpack fixstr of 8) before the magic \"b2frame\\0\"",
    )?;
    for (i, &expected) in MAGIC.iter().enumerate() {
        let found = c.u8("the magic \"b2frame\\0\"")?;
        if found != expected {
            return Err(FrameError::BadMagic {
                offset: (OFF_MAGIC + i) as u64,
                expected,
                found,
            });
        }
    }

    c.marker(0xd2, "0xd2 (msgpack int32) before header_len")?;
    let header_len = c.i32("header_len")?;
    c.marker(0xcf, "0xcf (msgpack uint64) before frame_len")?;
    let frame_len = c.u64("frame_len")?;
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

    c.marker(0xa4, "0xa4 (msgpack fixstr of 4) before the flags")?;
    let general_flags = c.u8("general flags")?;
    let version = general_flags & GENERAL_FLAG_VERSION_MASK;
    if version == 0 || version > MAX_FRAME_FORMAT_VERSION {
        return Err(FrameError::UnsupportedVersion {
            offset: OFF_FLAGS as u64,
            version,
        });
    }
    let frame_type = c.u8("frame type")?;
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
    let codec_flags = c.u8("codec flags")?;
    let other_flags = c.u8("other flags")?;

    let nbytes = non_negative_i64(&mut c, "0xd3 (msgpack int64) before nbytes", "nbytes")?;
    debug_assert_eq!(c.pos, OFF_NBYTES + 8);
    let cbytes = non_negative_i64(&mut c, "0xd3 (msgpack int64) before cbytes", "cbytes")?;
    debug_assert_eq!(c.pos, OFF_CBYTES + 8);
    let typesize = non_negative_i32(
        &mut c,
        "0xd2 (msgpack int32) before typesize",
        "typesize",
        1,
        "must be at least 1",
    )?;
    debug_assert_eq!(c.pos, OFF_TYPESIZE + 4);
    let blocksize = non_negative_i32(
        &mut c,
        "0xd2 (msgpack int32) before blocksize",
        "blocksize",
        0,
        "negative",
    )?;
    debug_assert_eq!(c.pos, OFF_BLOCKSIZE + 4);
    let chunksize = non_negative_i32(
        &mut c,
        "0xd2 (msgpack int32) before chunksize",
        "chunksize",
        0,
        "negative",
    )?;
    debug_assert_eq!(c.pos, OFF_CHUNKSIZE + 4);
    c.marker(0xd1, "0xd1 (msgpack int16) before the compression threads")?;
    let nthreads_comp = c.i16("compression threads")?;
    c.marker(
        0xd1,
        "0xd1 (msgpack int16) before the decompression threads",
    )?;
    let nthreads_decomp = c.i16("decompression threads")?;

    let at = c.offset();
    let has_vlmetalayers = match c.u8("has_vlmetalayers")? {
        0xc2 => false,
        0xc3 => true,
        found => {
            return Err(FrameError::BadMarker {
                offset: at,
                expected: "0xc2 or 0xc3 (msgpack bool) for has_vlmetalayers",
                found,
            })
        }
    };
    c.marker(0xd8, "0xd8 (msgpack fixext 16) before the filter pipeline")?;
    let nfilters = c.u8("number of filters")?;
    if usize::from(nfilters) > MAX_FILTERS {
        return Err(invalid(
            OFF_FILTER_PIPELINE,
            "number of filters",
            nfilters,
            "more than 6",
        ));
    }
    let filters: [u8; MAX_FILTERS] = c.array("filter codes")?;
    let udcodec = c.u8("codec code")?;
    let codec_meta = c.u8("codec meta")?;
    let filters_meta: [u8; MAX_FILTERS] = c.array("filter metas")?;
    let other_flags2 = c.u8("other flags 2")?;
    let _reserved = c.u8("reserved byte")?;
    debug_assert_eq!(c.pos, FIXED_HEADER_LEN);

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

struct IndexEntry {
    name: String,
    offset_at: usize,
    offset: i32,
}

/// Parse the metalayer section of `header` (exactly `header_len` bytes).
fn parse_metalayers(header: &[u8], header_len: u32) -> Result<Vec<Metalayer>, FrameError> {
    let mut c = Cursor {
        buf: header,
        pos: FIXED_HEADER_LEN,
        bound: Bound::Header(header_len),
    };
    c.marker(
        0x93,
        "0x93 (msgpack fixarray of 3) at the start of the metalayers",
    )?;
    c.marker(
        0xcd,
        "0xcd (msgpack uint16) before the metalayer index size",
    )?;
    let idx_size = c.u16("metalayer index size")?;
    c.marker(0xde, "0xde (msgpack map16) before the metalayer index")?;
    let count_at = c.pos;
    let n = c.u16("number of metalayers in the index")?;
    if usize::from(n) > MAX_METALAYERS {
        return Err(FrameError::TooManyMetalayers {
            offset: count_at as u64,
            count: n,
        });
    }

    let mut entries: Vec<IndexEntry> = Vec::with_capacity(usize::from(n));
    for _ in 0..n {
        let marker_at = c.pos;
        let marker = c.u8("metalayer name marker")?;
        let name_len = match marker {
            0xa0..=0xbf => usize::from(marker & 0x1f),
            0xd9 => {
                let len = c.u8("str8 length")?;
                return Err(not_fixstr(marker_at, marker, len.into()));
            }
            0xda => {
                let len = c.u16("str16 length")?;
                return Err(not_fixstr(marker_at, marker, len.into()));
            }
            0xdb => {
                let len = c.u32("str32 length")?;
                return Err(not_fixstr(marker_at, marker, len.into()));
            }
            found => {
                return Err(FrameError::BadMarker {
                    offset: marker_at as u64,
                    expected: "a msgpack fixstr marker (0xa0..=0xbf) for a metalayer name",
                    found,
                })
            }
        };
        let name_at = c.pos;
        let raw = c.take(name_len, "metalayer name")?;
        if raw.contains(&0) {
            return Err(FrameError::InvalidName {
                offset: name_at as u64,
                reason: "contains a NUL byte",
            });
        }
        let name = std::str::from_utf8(raw).map_err(|_| FrameError::InvalidName {
            offset: name_at as u64,
            reason: "not valid UTF-8",
        })?;
        if entries.iter().any(|e| e.name == name) {
            return Err(FrameError::DuplicateName {
                offset: marker_at as u64,
                name: name.to_owned(),
            });
        }
        c.marker(0xd2, "0xd2 (msgpack int32) before a metalayer offset")?;
        let offset_at = c.pos;
        let offset = c.i32("metalayer offset")?;
        if offset < 0 || offset as u32 >= header_len {
            return Err(FrameError::OffsetOutsideHeader {
                offset: offset_at as u64,
                name: name.to_owned(),
                value: offset,
                header_len,
            });
        }
        entries.push(IndexEntry {
            name: name.to_owned(),
            offset_at,
            offset,
        });
    }

    let index_span = c.pos.saturating_sub(FIXED_HEADER_LEN) as u64;
    if u64::from(idx_size) != index_span {
        return Err(FrameError::IndexSizeMismatch {
            offset: OFF_IDX_SIZE as u64,
            declared: idx_size,
            actual: index_span,
        });
    }

    c.marker(0xdc, "0xdc (msgpack array16) before the metalayer contents")?;
    let contents_at = c.pos;
    let m = c.u16("number of metalayer contents")?;
    if m != n {
        return Err(FrameError::MetalayerCountMismatch {
            offset: contents_at as u64,
            index: n,
            contents: m,
        });
    }

    let mut metalayers = Vec::with_capacity(entries.len());
    for e in entries {
        let at = c.pos;
        if i64::from(e.offset) != at as i64 {
            return Err(FrameError::OffsetMismatch {
                offset: e.offset_at as u64,
                name: e.name,
                value: e.offset,
                actual: at as u64,
            });
        }
        c.marker(0xc6, "0xc6 (msgpack bin32) before a metalayer content")?;
        let len_at = c.pos;
        let len = c.i32("metalayer content length")?;
        let len = usize::try_from(len)
            .map_err(|_| invalid(len_at, "metalayer content length", len, "negative"))?;
        let content = c.take(len, "metalayer content")?.to_vec();
        metalayers.push(Metalayer {
            name: e.name,
            offset: at as u64,
            content,
        });
    }

    if c.pos as u64 != u64::from(header_len) {
        return Err(FrameError::HeaderLenMismatch {
            header_len,
            section_end: c.pos as u64,
        });
    }
    Ok(metalayers)
}

/// A name in a str8/16/32 (C writes only fixstr names): too long if it is, otherwise
/// simply the wrong marker.
fn not_fixstr(offset: usize, marker: u8, len: u64) -> FrameError {
    if len > METALAYER_NAME_MAXLEN as u64 {
        FrameError::NameTooLong {
            offset: offset as u64,
            len,
        }
    } else {
        FrameError::BadMarker {
            offset: offset as u64,
            expected: "a msgpack fixstr marker (0xa0..=0xbf) for a metalayer name",
            found: marker,
        }
    }
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
    let header = buf
        .get(..info.header_len as usize)
        .ok_or(FrameError::Truncated {
            what: "the header (header_len at byte 11)",
            offset: 0,
            end: u64::from(info.header_len),
            available: buf.len() as u64,
        })?;
    let metalayers = parse_metalayers(header, info.header_len)?;
    Ok(FrameHeader { info, metalayers })
}

/// Read up to `buf.len()` bytes, stopping early only at end of input.
fn read_fully<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        let dst = buf.get_mut(got..).unwrap_or_default();
        match r.read(dst) {
            Ok(0) => break,
            Ok(k) if k <= dst.len() => got += k,
            Ok(_) => return Err(io::Error::other("reader returned more bytes than asked")),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Append up to `n` more bytes from `r` to `out`, growing `out` only as data
/// arrives (a bogus huge `n` costs nothing if the input is short).
fn read_up_to<R: Read>(r: &mut R, mut n: usize, out: &mut Vec<u8>) -> io::Result<()> {
    let mut chunk = [0u8; 8192];
    while n > 0 {
        let want = n.min(chunk.len());
        let got = read_fully(r, chunk.get_mut(..want).unwrap_or_default())?;
        out.extend_from_slice(chunk.get(..got).unwrap_or_default());
        n -= got;
        if got < want {
            break;
        }
    }
    Ok(())
}

/// Read a frame header from `reader`, positioned at the start of the frame.
///
/// Reads the 87-byte fixed part, then exactly `header_len - 87` more bytes,
/// and never more: the cost does not depend on the size of the data that
/// follows. Memory grows only with the bytes actually received, so a bogus
/// `header_len` on a short input is an error, not a large allocation.
///
/// ```
/// use std::io::Read;
/// use b2nd_meta::frame::read_header;
///
/// let bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/usermeta.b2nd"
/// ));
/// // A reader whose data goes on for a terabyte: only the header is read.
/// let mut reader = (&bytes[..]).chain(std::io::repeat(0).take(1 << 40));
/// let header = read_header(&mut reader)?;
/// assert_eq!(header.names().collect::<Vec<_>>(), ["b2nd", "user", &"m".repeat(31)]);
/// assert_eq!(header.metalayer("user").unwrap().content, b"\x81\xa6answer\x2a");
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn read_header<R: Read>(mut reader: R) -> Result<FrameHeader, FrameError> {
    let mut fixed = [0u8; FIXED_HEADER_LEN];
    let got = read_fully(&mut reader, &mut fixed).map_err(FrameError::io(None))?;
    let info = parse_fixed(fixed.get(..got).unwrap_or_default())?;
    let rest = (info.header_len as usize).saturating_sub(FIXED_HEADER_LEN);
    let mut buf = Vec::with_capacity(FIXED_HEADER_LEN);
    buf.extend_from_slice(&fixed);
    read_up_to(&mut reader, rest, &mut buf).map_err(FrameError::io(None))?;
    parse_header(&buf)
}

/// The file holding the header for `path`, and the frame kind it must hold.
fn locate(path: &Path) -> Result<(PathBuf, FrameKind), FrameError> {
    let md = fs::metadata(path).map_err(FrameError::io(Some(path)))?;
    if md.is_dir() {
        Ok((path.join(SPARSE_HEADER_FILE), FrameKind::Sparse))
    } else {
        Ok((path.to_path_buf(), FrameKind::Contiguous))
    }
}

fn check_kind(path: &Path, expected: FrameKind, header: &FrameHeader) -> Result<(), FrameError> {
    if header.info.kind == expected {
        Ok(())
    } else {
        Err(FrameError::WrongKind {
            path: path.to_path_buf(),
            expected,
            found: header.info.kind,
        })
    }
}

/// Read the header of the frame at `path`: a contiguous-frame file, or a
/// sparse-frame directory (its `chunks.b2frame` is read). Only the header is
/// read; the file length comes from its metadata.
///
/// The frame type in the header must match: a file must hold a contiguous
/// frame, a directory's `chunks.b2frame` a sparse one (as C-Blosc2 checks).
///
/// ```
/// use b2nd_meta::frame::{open, FrameKind};
///
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/sparse.b2nd");
/// let frame = open(dir)?;
/// assert_eq!(frame.header.info.kind, FrameKind::Sparse);
/// assert!(frame.header_path.ends_with("chunks.b2frame"));
/// assert_eq!(frame.header.info.codec.name(), "zstd");
/// assert!(!frame.is_truncated());
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<FrameFile, FrameError> {
    let (header_path, kind) = locate(path.as_ref())?;
    let io_err = FrameError::io(Some(&header_path));
    let mut file = fs::File::open(&header_path).map_err(io_err)?;
    let file_len = file
        .metadata()
        .map_err(FrameError::io(Some(&header_path)))?
        .len();
    let header = read_header(&mut file).map_err(|e| with_path(e, &header_path))?;
    check_kind(&header_path, kind, &header)?;
    Ok(FrameFile {
        header_path,
        header,
        file_len,
    })
}

fn with_path(e: FrameError, path: &Path) -> FrameError {
    match e {
        FrameError::Io { path: None, source } => FrameError::Io {
            path: Some(path.to_path_buf()),
            source,
        },
        other => other,
    }
}

/// Find `name` in `header` and check `new_len` against it.
fn target<'h>(
    header: &'h FrameHeader,
    name: &str,
    new_len: usize,
) -> Result<&'h Metalayer, FrameError> {
    let m = header
        .metalayer(name)
        .ok_or_else(|| FrameError::UnknownMetalayer {
            name: name.to_owned(),
        })?;
    if m.content.len() != new_len {
        return Err(FrameError::ContentLengthMismatch {
            name: name.to_owned(),
            expected: m.content.len(),
            found: new_len,
        });
    }
    Ok(m)
}

/// Overwrite the content of metalayer `name` in a frame held in memory.
///
/// Only same-length rewrites are possible. On any error (not a valid frame
/// header, unknown name, other length) `buf` is left untouched; on success
/// exactly the content bytes change.
///
/// ```
/// use b2nd_meta::frame::{parse_header, rewrite_metalayer_in_buffer, FrameError};
///
/// let mut bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/usermeta.b2nd"
/// ))
/// .to_vec();
/// rewrite_metalayer_in_buffer(&mut bytes, "user", b"\x81\xa6answer\x2b")?;
/// let header = parse_header(&bytes)?;
/// assert_eq!(header.metalayer("user").unwrap().content, b"\x81\xa6answer\x2b");
///
/// let err = rewrite_metalayer_in_buffer(&mut bytes, "user", b"short").unwrap_err();
/// assert!(matches!(err, FrameError::ContentLengthMismatch { .. }));
/// # Ok::<(), FrameError>(())
/// ```
pub fn rewrite_metalayer_in_buffer(
    buf: &mut [u8],
    name: &str,
    new_content: &[u8],
) -> Result<(), FrameError> {
    let header = parse_header(buf)?;
    let m = target(&header, name, new_content.len())?;
    let start = usize::try_from(m.content_offset()).ok();
    let dst = start
        .and_then(|s| Some(s..s.checked_add(new_content.len())?))
        .and_then(|r| buf.get_mut(r));
    match dst {
        Some(dst) => {
            dst.copy_from_slice(new_content);
            Ok(())
        }
        // Unreachable: parse_header checked the content lies in the header.
        None => Err(FrameError::OutOfHeader {
            what: "metalayer content",
            offset: m.content_offset(),
            end: m.content_offset().saturating_add(new_content.len() as u64),
            header_len: header.info.header_len,
        }),
    }
}

/// Overwrite, in place, the content of metalayer `name` in the frame at
/// `path` (a contiguous-frame file, or a sparse-frame directory whose
/// `chunks.b2frame` is rewritten).
///
/// The file is opened for reading and writing (never created or truncated),
/// its header parsed and validated; then exactly `new_content.len()` bytes are
/// written at the content offset, and the file is synced. Nothing else
/// changes. Refused, with the file left untouched: a path that does not hold a
/// valid frame header of the right kind, an unknown name, or content of
/// another length than the existing one.
///
/// ```
/// use b2nd_meta::frame::{open, rewrite_metalayer};
///
/// let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
/// let path = std::env::temp_dir().join(format!("b2nd-meta-doc-{}.b2nd", std::process::id()));
/// std::fs::copy(src, &path).unwrap();
///
/// rewrite_metalayer(&path, "user", b"\x81\xa6answer\x2b")?;
/// let frame = open(&path)?;
/// assert_eq!(frame.header.metalayer("user").unwrap().content, b"\x81\xa6answer\x2b");
/// assert!(rewrite_metalayer(&path, "nope", b"").is_err());
/// std::fs::remove_file(&path).unwrap();
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
pub fn rewrite_metalayer(
    path: impl AsRef<Path>,
    name: &str,
    new_content: &[u8],
) -> Result<(), FrameError> {
    let (header_path, kind) = locate(path.as_ref())?;
    let p = header_path.as_path();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(p)
        .map_err(FrameError::io(Some(p)))?;
    let header = read_header(&mut file).map_err(|e| with_path(e, p))?;
    check_kind(p, kind, &header)?;
    let m = target(&header, name, new_content.len())?;
    file.seek(SeekFrom::Start(m.content_offset()))
        .map_err(FrameError::io(Some(p)))?;
    file.write_all(new_content)
        .map_err(FrameError::io(Some(p)))?;
    file.flush().map_err(FrameError::io(Some(p)))?;
    file.sync_data().map_err(FrameError::io(Some(p)))?;
    Ok(())
}
