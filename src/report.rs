//! What `b2nd-meta show` prints about a frame, as data: a [`Report`] is
//! `#[derive(Serialize)]`, so library users get the same facts, in the same JSON shape
//! (with `serde_json`), as the command line.
//!
//! ```
//! use b2nd_meta::report::{MetalayerReport, Report};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
//! let report = Report::of_path(path)?;
//! assert_eq!(report.frame.kind, "contiguous");
//! assert_eq!(report.frame.metalayer_names[..2], ["b2nd", "user"]);
//! assert!(matches!(report.metalayers.get("b2nd"), Some(MetalayerReport::Decoded(_))));
//! let array = report.array.as_ref().unwrap();
//! assert_eq!(array.metalayer, "b2nd");
//! assert!(array.problems.is_empty());
//! # Ok::<(), b2nd_meta::frame::FrameError>(())
//! ```

use std::borrow::ToOwned;
use std::boxed::Box;
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

mod hex;
mod pipeline;
#[cfg(test)]
mod tests;
mod vlmeta;
pub use hex::Hex;
pub use pipeline::Pipeline;
pub use vlmeta::{RawVlmeta, Vlmeta, VlmetaReport};

use crate::dtype::{Dtype, DtypeError};
use crate::frame::{self, check_array_with, FrameError, FrameFile};
use crate::meta::{Meta, DTYPE_FORMAT_NUMPY};

/// The largest user metalayer a report decodes (16 MiB): larger ones are shown as
/// bytes, so that decoding stays within `show`'s memory bound.
const DECODE_CAP: u32 = 16 << 20;

/// Everything `show` prints about one frame. Serialized, the keys come in this order:
/// `path`, (`path_bytes_hex`), `frame`, `metalayers`, `vlmeta`, (`vlmeta_error`), (`array`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The path as given, as text; bytes that are not UTF-8 become U+FFFD.
    pub path: String,
    /// The path's bytes as lowercase hex, only when the path is not UTF-8 (Unix), so
    /// that the exact name can be recovered; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_bytes_hex: Option<String>,
    /// The facts of the fixed header.
    pub frame: FrameReport,
    /// Every metalayer, in header order.
    pub metalayers: Metalayers,
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
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// The codec's code.
    pub codec_code: u8,
    /// The compression level.
    pub clevel: u8,
    /// The filters, split mode and dictionary, the chunk count and compression ratio:
    /// flattened into this object, after `clevel`.
    #[serde(flatten)]
    pub pipeline: Pipeline,
    /// The metalayer names, in header order.
    pub metalayer_names: Vec<String>,
    /// What the header holds that C-Blosc2 does not check but would not write
    /// ([`frame::FrameInfo::notes`]), as `"<what> at byte N"`; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// One metalayer: decoded when it is the array's (`b2nd`, else `caterva`), otherwise
/// its raw bytes.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum MetalayerReport {
    /// The array's metalayer, decoded (serialized as `decode` prints it).
    Decoded(Box<Meta>),
    /// Any other metalayer (user data), or the array's when it does not decode.
    Raw(RawContent),
}

/// A metalayer's raw content, with why it did not decode when it should have.
///
/// A user metalayer (any but `b2nd`/`caterva`) also gets its msgpack `value`, in the
/// JSON mapping of [`crate::value`] (python-blosc2's tuples, complex, sets and NumPy
/// arrays decoded), or an `error` when its content is not one msgpack value.
#[derive(Debug, Clone, Serialize)]
pub struct RawContent {
    /// The content as a msgpack value (user metalayers that decode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<crate::value::Value>,
    /// The content, serialized as lowercase hex: all of it, or its first
    /// [`Options::hex_limit`] bytes.
    pub raw_hex: Hex,
    /// The content's full length, present only when `raw_hex` holds a prefix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_len: Option<u64>,
    /// Why the array's metalayer does not decode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether this is the array's metalayer, which did not decode: as
    /// [`frame::FrameHeader::is_array_metalayer`] decides, so that no reader of the
    /// report decides by name (not serialized: the JSON's `array` names the array's
    /// metalayer when it decodes).
    #[serde(skip)]
    pub array: bool,
}

impl MetalayerReport {
    /// Whether this is the array's metalayer (decoded, or raw because it did not decode).
    pub fn is_array(&self) -> bool {
        match self {
            MetalayerReport::Decoded(_) => true,
            MetalayerReport::Raw(raw) => raw.array,
        }
    }
}

/// How much of the raw contents a report holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    /// At most this many bytes of each raw content go into `raw_hex` (with `raw_len`
    /// giving the full length); `None`: all of it.
    pub hex_limit: Option<usize>,
    /// Whether a content that goes in whole is read again from the file when
    /// serialized ([`Hex::File`]) rather than copied into the report.
    pub from_file: bool,
}

impl Options {
    /// What `b2nd-meta show` prints without `--full-hex`: the first 4096 bytes.
    pub const SHOW: Options = Options {
        hex_limit: Some(4096),
        from_file: false,
    };

    /// What `b2nd-meta show --full-hex` prints: every byte, streamed from the file.
    pub const FULL_HEX: Options = Options {
        hex_limit: None,
        from_file: true,
    };
}

/// The metalayers by name, in header order (a JSON object whose keys keep that order).
#[derive(Debug, Clone, Default)]
pub struct Metalayers(pub Vec<(String, MetalayerReport)>);

impl Metalayers {
    /// The metalayer called `name`.
    pub fn get(&self, name: &str) -> Option<&MetalayerReport> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, m)| m)
    }
}

impl Serialize for Metalayers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, layer) in &self.0 {
            map.serialize_entry(name, layer)?;
        }
        map.end()
    }
}

/// The array the frame holds, as its metalayer describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArrayReport {
    /// The metalayer describing it (`"b2nd"` or `"caterva"`).
    pub metalayer: String,
    /// Its dtype.
    pub dtype: DtypeReport,
    /// C-Blosc2's validation problems, with the frame's typesize, then where the
    /// metalayer and the frame header disagree ([`frame::check_array`]).
    pub problems: Vec<String>,
    /// python-blosc2's stricter rule: blocks must fit in chunks.
    pub blocks_within_chunks: Vec<String>,
    /// Bytes after the metalayer in its content (ignored, as C-Blosc2 does).
    pub trailing_bytes: u64,
}

/// The array's dtype: parsed (`str`, `kind`, `itemsize`, and `assumed` for caterva,
/// which stores none) or not understood (`str`, `error`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DtypeReport {
    /// The dtype as NumPy's `dtype.str` (parsed), or as stored (not understood).
    pub str: String,
    /// The kind's name, when parsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Bytes per item, when parsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub itemsize: Option<u64>,
    /// True when assumed from the typesize (a caterva metalayer has no dtype).
    #[serde(skip_serializing_if = "is_false")]
    pub assumed: bool,
    /// Why the dtype is not understood.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

// serde's skip_serializing_if passes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

impl Report {
    /// Opens the frame at `path` (see [`frame::open`]) and reports on it.
    pub fn of_path(path: impl AsRef<Path>) -> Result<Report, FrameError> {
        let path = path.as_ref();
        Ok(Report::of_frame(path, &frame::open(path)?))
    }

    /// Reports on a frame already opened from `path`, holding every raw content.
    pub fn of_frame(path: &Path, file: &FrameFile) -> Report {
        Report::of_frame_with(path, file, Options::default())
    }

    /// Reports on a frame already opened from `path`, raw contents as `options` says.
    ///
    /// ```
    /// use b2nd_meta::report::{MetalayerReport, Options, Report};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let file = b2nd_meta::frame::open(path)?;
    /// let report = Report::of_frame_with(path.as_ref(), &file, Options { hex_limit: Some(2), from_file: false });
    /// let Some(MetalayerReport::Raw(user)) = report.metalayers.get("user") else { panic!() };
    /// assert_eq!((user.raw_hex.to_string().as_str(), user.raw_len), ("81a6", Some(9)));
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn of_frame_with(path: &Path, file: &FrameFile, options: Options) -> Report {
        Report::of_frame_and_trailer(path, file, file.trailer(), options)
    }

    /// [`Report::of_frame_with`] with the trailer already read (or why it cannot be):
    /// for a frame that is not a file of its own (a node of a store, a zip member),
    /// whose `header_path` only names it. Raw contents are never read again from
    /// there: give `options` with `from_file: false`.
    ///
    /// ```
    /// use b2nd_meta::report::{Options, Report};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/usermeta.b2nd");
    /// let file = b2nd_meta::frame::open(path)?;
    /// let report = Report::of_frame_and_trailer(path.as_ref(), &file, file.trailer(), Options::SHOW);
    /// assert_eq!(report.vlmeta_error, None);
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn of_frame_and_trailer(
        path: &Path,
        file: &FrameFile,
        trailer: Result<frame::Trailer, FrameError>,
        options: Options,
    ) -> Report {
        let info = &file.header.info;
        let header = &file.header;
        let raw =
            |m: &frame::Metalayer, value: Option<crate::value::Value>, error: Option<String>| {
                // `open` keeps at most CONTENT_CAP bytes of a content: the rest stays in
                // the file, and is streamed from there when all of it is asked for.
                let len = u64::from(m.content_len);
                let held = m.content.len() as u64 == len;
                let (raw_hex, raw_len) = match options.hex_limit {
                    Some(limit) if len > limit as u64 => (
                        Hex::Bytes(m.content.get(..limit).unwrap_or(&m.content).to_vec()),
                        Some(len),
                    ),
                    _ if held && !options.from_file => (Hex::Bytes(m.content.clone()), None),
                    _ => (
                        Hex::File {
                            path: file.header_path.clone(),
                            offset: m.content_offset(),
                            len,
                        },
                        None,
                    ),
                };
                MetalayerReport::Raw(RawContent {
                    value,
                    raw_hex,
                    raw_len,
                    error,
                    array: header.is_array_metalayer(m),
                })
            };
        // The array's metalayer, as `frame` decides it; every other metalayer (a
        // `caterva` beside a `b2nd` included) is user data.
        let mut array = None;
        let metalayers = header
            .metalayers
            .iter()
            .map(|m| {
                let layer = if header.is_array_metalayer(m) {
                    match header.array_meta_and_trailing_bytes() {
                        Ok((meta, trailing)) => {
                            // The dtype, parsed once for every check that needs it.
                            let parsed = meta.parsed_dtype();
                            let mut report = ArrayReport::of_parsed(
                                &m.name,
                                &meta,
                                &parsed,
                                usize::try_from(trailing).unwrap_or(usize::MAX),
                                info.typesize,
                            );
                            let mismatches = check_array_with(info, &meta, itemsize(&parsed));
                            report
                                .problems
                                .extend(mismatches.iter().map(ToString::to_string));
                            array = Some(report);
                            MetalayerReport::Decoded(Box::new(meta))
                        }
                        // The decoding error itself, offsets in the content.
                        Err(e) => match e.kind() {
                            frame::FrameErrorKind::Metalayer { source, .. } => {
                                raw(m, None, Some(source.to_string()))
                            }
                            _ => raw(m, None, Some(e.to_string())),
                        },
                    }
                } else {
                    // `open` kept at most CONTENT_CAP bytes of the content: the rest is
                    // read when the file holds all the header declares (a header claiming
                    // more than the file holds costs nothing) and the value is at most
                    // DECODE_CAP, so that `show` stays within 64 MB.
                    let whole;
                    let content = if m.content.len() < m.content_len as usize {
                        let end = m.content_offset() + u64::from(m.content_len);
                        let read = if end <= file.file_len && m.content_len <= DECODE_CAP {
                            file.read_content(&m.name, 0..u64::from(m.content_len)).ok()
                        } else {
                            None
                        };
                        let Some(bytes) = read else {
                            let note = std::format!(
                                "not decoded: {} bytes, more than the {} read into memory",
                                m.content_len,
                                m.content.len()
                            );
                            return (m.name.clone(), raw(m, None, Some(note)));
                        };
                        whole = bytes;
                        &whole
                    } else {
                        &m.content
                    };
                    match crate::value::Value::from_msgpack(content) {
                        Ok(value) => raw(m, Some(value), None),
                        Err(e) => raw(m, None, Some(std::format!("not one msgpack value: {e}"))),
                    }
                };
                (m.name.clone(), layer)
            })
            .collect();
        let (vlmeta, vlmeta_error) = Vlmeta::of_trailer(trailer, options);
        Report {
            path: path.to_string_lossy().into_owned(),
            path_bytes_hex: path_bytes_hex(path),
            frame: FrameReport {
                kind: info.kind.to_string(),
                header_len: info.header_len,
                frame_len: info.frame_len,
                file_len: file.file_len,
                truncated: file.is_truncated(),
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
                metalayer_names: file.header.names().map(ToOwned::to_owned).collect(),
                notes: info.notes.iter().map(ToString::to_string).collect(),
            },
            metalayers: Metalayers(metalayers),
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
    Some(Hex::Bytes(bytes.to_vec()).to_string())
}

impl ArrayReport {
    /// The report on the array `meta` describes, stored in metalayer `name` with
    /// `trailing_bytes` after it, in a frame of `typesize`.
    ///
    /// ```
    /// use b2nd_meta::{report::ArrayReport, Meta, MetaV0Caterva};
    ///
    /// let meta = Meta::from(MetaV0Caterva::default());
    /// let array = ArrayReport::of("caterva", &meta, 0, 4);
    /// assert_eq!((array.dtype.str.as_str(), array.dtype.assumed), ("|S4", true));
    /// ```
    pub fn of(name: &str, meta: &Meta, trailing_bytes: usize, typesize: u32) -> ArrayReport {
        ArrayReport::of_parsed(name, meta, &meta.parsed_dtype(), trailing_bytes, typesize)
    }

    /// [`ArrayReport::of`] with the dtype parsed once by the caller (`parsed`, as
    /// [`Meta::parsed_dtype`] gives it), for the checks that need its itemsize too.
    fn of_parsed(
        name: &str,
        meta: &Meta,
        parsed: &Option<Result<Dtype, DtypeError>>,
        trailing_bytes: usize,
        typesize: u32,
    ) -> ArrayReport {
        let stored = meta.dtype().unwrap_or_default().to_owned();
        // A caterva metalayer has no dtype: python-blosc2 assumes bytes of the typesize.
        let assumed = matches!(meta, Meta::V0Caterva(_)).then(|| Dtype::for_typesize(typesize));
        let effective = match (&assumed, parsed) {
            (Some(d), _) | (None, Some(Ok(d))) => Some(d),
            _ => None,
        };
        let dtype = match (effective, parsed) {
            (Some(d), _) => DtypeReport {
                str: d.to_string(),
                kind: Some(d.kind().name().to_owned()),
                itemsize: Some(d.itemsize()),
                assumed: assumed.is_some(),
                error: None,
            },
            (None, Some(Err(e))) => DtypeReport::unparsed(stored, e.to_string()),
            (None, _) => DtypeReport::unparsed(
                stored,
                std::format!(
                    "dtype_format {} is not NumPy's ({DTYPE_FORMAT_NUMPY}); the dtype is not interpreted",
                    meta.dtype_format().unwrap_or_default()
                ),
            ),
        };
        let strings = |r: Result<(), crate::meta::validate::Invalid>| -> Vec<String> {
            r.err()
                .map(|invalid| invalid.problems().iter().map(ToString::to_string).collect())
                .unwrap_or_default()
        };
        ArrayReport {
            metalayer: name.to_owned(),
            dtype,
            problems: strings(meta.validate_with_itemsize(u64::from(typesize), itemsize(parsed))),
            blocks_within_chunks: strings(meta.check_blocks_within_chunks()),
            trailing_bytes: trailing_bytes as u64,
        }
    }
}

/// The itemsize of a dtype that parsed.
fn itemsize(parsed: &Option<Result<Dtype, DtypeError>>) -> Option<u64> {
    parsed.as_ref()?.as_ref().ok().map(Dtype::itemsize)
}

impl DtypeReport {
    fn unparsed(str: String, error: String) -> DtypeReport {
        DtypeReport {
            str,
            kind: None,
            itemsize: None,
            assumed: false,
            error: Some(error),
        }
    }
}
