//! [`Report`]: everything `show` prints about one frame, and the facts of its header.

use std::path::Path;

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::frame::{FrameError, FrameFile, Trailer};
use serde::Serialize;

use super::array::ArrayReport;
use super::metalayers::Metalayers;
use super::options::Options;
use super::pipeline::Pipeline;
use super::vlmeta::Vlmeta;

/// Everything `show` prints about one frame.
#[derive(Serialize)]
pub struct Report<'f> {
    /// The path as given, as text; bytes that are not UTF-8 become U+FFFD.
    pub path: String,
    /// The path's bytes as lowercase hex, only when the path is not UTF-8 (Unix), so
    /// that the exact name can be recovered; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_bytes_hex: Option<String>,
    /// The facts of the fixed header.
    pub frame: FrameReport,
    /// Every metalayer, in header order.
    pub metalayers: Metalayers<'f>,
    /// Every vlmetalayer (the trailer's), in trailer order; empty when the trailer
    /// cannot be read.
    pub vlmeta: Vlmeta,
    /// Why the trailer cannot be read (`"<message> at byte N"`); absent when it can.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vlmeta_error: Option<String>,
    /// The array, when its metalayer (`b2nd`, else `caterva`) decodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub array: Option<ArrayReport>,
}

/// The facts of a frame's fixed header, and of the file that holds it.
#[derive(Serialize)]
pub struct FrameReport {
    /// `"contiguous"` or `"sparse"`.
    pub kind: String,
    /// Bytes of the header.
    pub header_len: u32,
    /// Bytes of the frame (for a sparse frame, of `chunks.b2frame`) the header declares.
    pub frame_len: u64,
    /// Bytes of the file holding the header, on disk.
    pub file_len: u64,
    /// Whether that file is shorter than `frame_len`.
    pub truncated: bool,
    /// Bytes per item.
    pub typesize: u32,
    /// Bytes per block (as stored; C-Blosc2 does not check its sign).
    pub blocksize: i32,
    /// Bytes per chunk (0: variable; as stored, caterva writes -1 for an empty array).
    pub chunksize: i32,
    /// Uncompressed bytes (as stored).
    pub nbytes: i64,
    /// Compressed bytes (as stored).
    pub cbytes: i64,
    /// The codec's name (`"zstd"`, ...).
    pub codec: String,
    /// The codec's id.
    pub codec_code: u8,
    /// The compression level.
    pub clevel: u8,
    /// The filters, split mode and dictionary, the chunk count and compression ratio:
    /// flattened into this object, after `clevel`.
    #[serde(flatten)]
    pub pipeline: Pipeline,
    /// The metalayer names, in header order.
    pub metalayer_names: Vec<String>,
    /// What the header holds that C-Blosc2 does not check but would not write, as
    /// `"<what> at byte N"`; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl<'f> Report<'f> {
    /// The report on `frame` (read from `path`, as given) and its `trailer` (or why it
    /// does not read), raw contents as `options` says, vlmeta values decoded within
    /// `budget`.
    pub fn of(
        path: &Path,
        frame: &'f FrameFile,
        trailer: Result<&Trailer, &FrameError>,
        options: Options,
        budget: &DecodeBudget,
    ) -> Report<'f> {
        let info = &frame.header.info;
        let (metalayers, array) = Metalayers::of(frame, options);
        let (vlmeta, vlmeta_error) = Vlmeta::of_trailer(trailer, options, budget);
        Report {
            path: path.to_string_lossy().into_owned(),
            path_bytes_hex: path_bytes_hex(path),
            frame: FrameReport {
                kind: info.kind.to_string(),
                header_len: info.header_len,
                frame_len: info.frame_len,
                file_len: frame.file_len,
                truncated: frame.is_truncated(),
                typesize: info.typesize,
                blocksize: info.blocksize,
                chunksize: info.chunksize,
                nbytes: info.nbytes,
                cbytes: info.cbytes,
                codec: info.codec.name().to_owned(),
                // A frame header's codec always has an id (only chunks have reserved formats).
                codec_code: info.codec.id().unwrap_or_default(),
                clevel: info.clevel,
                pipeline: Pipeline::of(info),
                metalayer_names: frame.header.names().map(ToOwned::to_owned).collect(),
                notes: info.notes.iter().map(ToString::to_string).collect(),
            },
            metalayers,
            vlmeta,
            vlmeta_error,
            array,
        }
    }
}

/// The path's bytes as hex when they are not UTF-8; `None` when they are.
fn path_bytes_hex(path: &Path) -> Option<String> {
    if path.to_str().is_some() {
        return None;
    }
    let bytes = path.as_os_str().as_encoded_bytes();
    Some(b2nd_meta::hex::encode(bytes))
}
