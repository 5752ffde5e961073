//! The model of a frame header: the facts of its fixed part and its metalayers.

use std::fmt;
use std::string::String;
use std::vec::Vec;

use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};

/// Length of the fixed part of a frame header (`FRAME_HEADER_MINLEN` in C);
/// the metalayer section starts at this offset.
pub const FIXED_HEADER_LEN: usize = 87;

/// Maximum number of fixed-length metalayers (`BLOSC2_MAX_METALAYERS`).
pub const MAX_METALAYERS: usize = 16;

/// Maximum length in bytes of a metalayer name (`BLOSC2_METALAYER_NAME_MAXLEN`).
pub const METALAYER_NAME_MAXLEN: usize = 31;

/// Highest frame format version understood (`BLOSC2_VERSION_FRAME_FORMAT`
/// of C-Blosc2 3.x). Versions 1 (2.0.0-beta2), 2 (2.0.0-rc1 and later) and 3
/// (variable-length blocks / variable-size chunks) share the header layout.
pub const MAX_FRAME_FORMAT_VERSION: u8 = 3;

/// Name of the file holding the header inside a sparse-frame directory.
pub const SPARSE_HEADER_FILE: &str = "chunks.b2frame";

/// The most bytes of a content [`open`](super::open) keeps in memory (1 MiB): 16
/// metalayers stay under 17 MiB whatever their lengths.
pub const CONTENT_CAP: usize = 1 << 20;

/// Bytes between a metalayer's offset (its bin32 marker) and its content.
pub(crate) const CONTENT_PREFIX_LEN: u64 = 5;

/// Whether a frame is one contiguous file or a sparse directory.
///
/// ```
/// assert_eq!(b2nd_meta::frame::FrameKind::Sparse.to_string(), "sparse");
/// ```
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

/// The facts stored in the fixed 87-byte part of a frame header.
///
/// Values are kept as C-Blosc2 reads them (sizes signed); what C refuses is refused,
/// what C does not check is read and, when unusual, listed in [`FrameInfo::notes`].
///
/// ```
/// let bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/contiguous.b2nd"
/// ));
/// let info = b2nd_meta::frame::parse_header(bytes)?.info;
/// assert_eq!((info.version, info.typesize), (2, 4));
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
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
    /// Frame format version (low nibble of the general flags), 0 to 3 (C-Blosc2
    /// writes 1 to 3; it refuses above 3 and does not check 0).
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
    /// Raw byte 77: the codec code C writes for a user or plugin codec (read when the
    /// low nibble of byte 27 is 6).
    pub udcodec: u8,
    /// Codec meta (byte 78).
    pub codec_meta: u8,
    /// Raw other flags (byte 28).
    pub other_flags: u8,
    /// Split mode, `(other_flags & 3) + 1`: 1 always, 2 never, 3 auto,
    /// 4 forward-compatible.
    pub splitmode: SplitMode,
    /// Raw other flags 2 (byte 85).
    pub other_flags2: u8,
    /// Whether chunks were compressed with a dictionary (bit 0 of byte 85).
    pub use_dict: bool,
    /// Uncompressed size of the data (byte 30). C-Blosc2 checks it only when positive.
    pub nbytes: i64,
    /// Compressed size of the data (byte 39); refused when negative with data and a
    /// fixed chunksize, as C-Blosc2 refuses it.
    pub cbytes: i64,
    /// Size of an item in bytes (byte 48), at least 1.
    pub typesize: u32,
    /// Block size in bytes (byte 53); 0 when it varies. Not checked by C-Blosc2.
    pub blocksize: i32,
    /// Chunk size in bytes (byte 58); 0 when chunks vary in size. Negative only
    /// without data (caterva 0.7.3 writes -1 for an empty array).
    pub chunksize: i32,
    /// Number of compression threads recorded (byte 63).
    pub nthreads_comp: i16,
    /// Number of decompression threads recorded (byte 66).
    pub nthreads_decomp: i16,
    /// Whether the trailer holds variable-length metalayers (byte 68).
    pub has_vlmetalayers: bool,
    /// Number of filter slots recorded (byte 70), at most 6.
    pub nfilters: u8,
    /// The filters (bytes 71..77; each [`Filter::id`] is the byte).
    pub filters: [Filter; MAX_FILTERS],
    /// Filter metas (bytes 79..85).
    pub filters_meta: [u8; MAX_FILTERS],
    /// Whether the metalayer contents sit where C-Blosc2 writes them: back to back after
    /// the index, in index order, ending at `header_len`. Only then are they rewritten
    /// in place (a content C reads elsewhere may overlap the index or another content).
    pub contents_as_c_writes: bool,
    /// What the header holds that C-Blosc2 would not write but does not check either
    /// (a wrong marker byte, version 0, a negative size, ...), in header order: read and
    /// reported, never refused.
    pub notes: Vec<HeaderNote>,
}

/// Something in a header that C-Blosc2 does not check but would not write: the header
/// is read as C reads it, and this says what is unusual, and where.
///
/// ```
/// let mut bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/contiguous.b2nd"
/// ))
/// .to_vec();
/// bytes[25] &= 0xf0; // frame format version 0
/// let info = b2nd_meta::frame::parse_header(&bytes)?.info;
/// assert_eq!(info.version, 0);
/// assert_eq!(info.notes[0].offset, 25);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HeaderNote {
    /// Where, from the start of the frame.
    pub offset: u64,
    /// What, in words.
    pub note: String,
}

impl fmt::Display for HeaderNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.note, self.offset)
    }
}

/// One fixed-length metalayer, as stored in the frame header.
///
/// ```
/// let bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/usermeta.b2nd"
/// ));
/// let header = b2nd_meta::frame::parse_header(bytes)?;
/// let user = header.metalayer("user").unwrap();
/// assert_eq!(user.content_offset(), user.offset + 5);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Metalayer {
    /// Its name (UTF-8, at most 31 bytes, no NUL).
    pub name: String,
    /// Offset from the start of the frame of its bin32 marker; the content
    /// starts 5 bytes later (see [`Metalayer::content_offset`]).
    pub offset: u64,
    /// The length of its content, in bytes.
    pub content_len: u32,
    /// Its content bytes (usually msgpack): all of them, except from [`open`], which
    /// keeps at most [`CONTENT_CAP`] bytes of each content (see
    /// [`FrameFile::read_content`] for the rest).
    ///
    /// [`open`]: super::open
    /// [`FrameFile::read_content`]: super::FrameFile::read_content
    pub content: Vec<u8>,
}

impl Metalayer {
    /// Offset from the start of the frame of the first content byte.
    ///
    /// ```
    /// let m = b2nd_meta::frame::Metalayer {
    ///     name: "m".into(),
    ///     offset: 104,
    ///     content_len: 1,
    ///     content: vec![1],
    /// };
    /// assert_eq!(m.content_offset(), 109);
    /// ```
    pub fn content_offset(&self) -> u64 {
        // Cannot overflow: offset < header_len <= i32::MAX.
        self.offset.saturating_add(CONTENT_PREFIX_LEN)
    }
}

/// A parsed frame header: the fixed facts and the metalayers in header order.
///
/// ```
/// let bytes = include_bytes!(concat!(
///     env!("CARGO_MANIFEST_DIR"),
///     "/tests/data/frame/contiguous.b2nd"
/// ));
/// let header = b2nd_meta::frame::parse_header(bytes)?;
/// assert_eq!(header.metalayers.len(), 1);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FrameHeader {
    /// The fixed part.
    pub info: FrameInfo,
    /// The fixed-length metalayers, in header order.
    pub metalayers: Vec<Metalayer>,
}

impl FrameHeader {
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
    ///
    /// ```
    /// let bytes = include_bytes!(concat!(
    ///     env!("CARGO_MANIFEST_DIR"),
    ///     "/tests/data/frame/contiguous.b2nd"
    /// ));
    /// let header = b2nd_meta::frame::parse_header(bytes)?;
    /// assert_eq!(header.names().collect::<Vec<_>>(), ["b2nd"]);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.metalayers.iter().map(|m| m.name.as_str())
    }
}
