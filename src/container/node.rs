//! A node of a store ([`Node`]: its key and where it lives) and what its frame says
//! ([`NodeInfo`]: the same report `show` gives for a frame file, and its [`Kind`]).

use std::io::{Read, Seek};
use std::path::{Path, PathBuf};
use std::string::String;

use serde::Serialize;

use super::Kind;
use crate::frame::{self, FrameError, FrameFile, FrameHeader, CONTENT_CAP};
use crate::io::Positional;
use crate::io::Prefetch;
use crate::report::{Options, Report};
use crate::value::Value;

/// Where a node's frame lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "in", rename_all = "snake_case")]
pub enum Location {
    /// In the store's EmbedStore: bytes `[offset, offset + length)` of its data.
    Embedded {
        /// Where the frame starts in the embed store's (decompressed) data.
        offset: u64,
        /// Its length.
        length: u64,
    },
    /// A file of its own under a `.b2d` directory.
    External {
        /// The file.
        path: PathBuf,
    },
    /// A member of a `.b2z` zip, read in place.
    ZipMember {
        /// The member's name.
        name: String,
        /// Where its data starts in the zip (local header offset + 30 + name length
        /// + extra length).
        offset: u64,
        /// Its stored length.
        length: u64,
    },
    /// A reference to a remote array (`{"urlbase", "path"}` in the embed map).
    Remote {
        /// The server.
        urlbase: String,
        /// The array's path there.
        path: String,
    },
    /// Nowhere: a TreeStore group, or a CTable root (object made of other nodes).
    Implicit,
    /// An embed map entry that is not what python-blosc2 writes.
    Invalid {
        /// What is wrong with it.
        reason: String,
    },
}

/// A node of a store: its key and where its frame is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Node {
    /// Its key, as python-blosc2 lists it (`"/dir/name"`).
    pub key: String,
    /// Where it lives.
    pub location: Location,
}

/// What one frame says: its kind and the report `show` prints for a frame file.
#[derive(Debug, Clone, Serialize)]
pub struct NodeInfo {
    /// What python-blosc2 would open it as.
    pub kind: Kind,
    /// The `b2o` marker, a CTable's schema, ...: what names the kind further.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Value>,
    /// Header facts, metalayers, vlmeta, array and problems.
    #[serde(flatten)]
    pub report: Report,
}

impl NodeInfo {
    /// The header the report was made from is not kept; this is its vlmetalayer
    /// `name` as a value, when it decoded.
    pub fn vlmeta(&self, name: &str) -> Option<&Value> {
        match self.report.vlmeta.get(name) {
            Some(crate::report::VlmetaReport::Value(v)) => Some(v),
            _ => None,
        }
    }
}

/// A `Read + Seek` behind a `&mut dyn`: how a node is read does not depend on where.
pub(crate) trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

/// How a node is read: its header alone, or all `show` reports.
pub(crate) type How<T> = fn(&mut dyn ReadSeek, u64, &Path) -> Result<T, FrameError>;

/// The full read: header, trailer, report.
pub(crate) fn full(
    reader: &mut dyn ReadSeek,
    len: u64,
    label: &Path,
) -> Result<NodeInfo, FrameError> {
    describe(&mut &mut *reader, len, label).map(|(_, info)| info)
}

/// The header alone (one read of the node's first KiB, when the header fits).
pub(crate) fn header_only(
    reader: &mut dyn ReadSeek,
    len: u64,
    _label: &Path,
) -> Result<FrameHeader, FrameError> {
    let mut reader = Prefetch::new(reader, len);
    frame::read_staged(
        &mut Positional {
            file: &mut reader,
            len,
        },
        CONTENT_CAP,
    )
}

/// Reads the header and the trailer of the frame `reader` holds (`len` bytes from its
/// position 0), and nothing else; `label` names it in the report.
pub(crate) fn describe<R: Read + Seek>(
    reader: &mut R,
    len: u64,
    label: &Path,
) -> Result<(FrameHeader, NodeInfo), FrameError> {
    let mut reader = Prefetch::new(reader, len);
    let header = frame::read_staged(
        &mut Positional {
            file: &mut reader,
            len,
        },
        CONTENT_CAP,
    )?;
    let trailer = frame::read_trailer(&mut reader, &header);
    let file = FrameFile {
        header_path: label.to_path_buf(),
        header,
        file_len: len,
        // Not a file of its own: its trailer is the one read above, never from a path.
        trailer_cache: Default::default(),
    };
    let report = Report::of_frame_and_trailer(label, &file, trailer, Options::SHOW);
    let kind = Kind::of_frame(&file.header);
    let detail = Kind::DETAIL_METALAYERS
        .iter()
        .find_map(|name| file.header.metalayer(name))
        .and_then(|m| Value::from_msgpack(&m.content).ok());
    let info = NodeInfo {
        kind,
        detail,
        report,
    };
    Ok((file.header, info))
}
