//! A node of a store ([`Node`]: its key and where it lives) and what its frame says
//! ([`NodeInfo`]: its [`Kind`], header, trailer and array).

use std::path::{Path, PathBuf};
use std::string::String;

use serde::Serialize;

use super::kind::Kind;
use crate::chunk::DecodeBudget;
use crate::frame::{
    read_staged, read_trailer, ArrayInfo, FrameError, FrameFile, FrameHeader, Trailer, CONTENT_CAP,
};
use crate::io::{Prefetch, SharedSource};
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

/// What one frame is: its kind, what names it further, its header (and where it was
/// read from), its trailer, and the array it holds.
#[derive(Debug)]
pub struct NodeInfo {
    /// What python-blosc2 would open it as.
    pub kind: Kind,
    /// The `b2o` marker, a CTable's schema, ...: what names the kind further.
    pub detail: Option<Value>,
    /// Its header, labelled with where it lives (`store.b2z#member`, or the file).
    pub frame: FrameFile,
    /// Its trailer (the vlmeta), or why it does not read.
    pub trailer: Result<Trailer, FrameError>,
    /// The array it holds (shape, chunks, blocks, dtype, checks), when its array
    /// metalayer decodes.
    pub array: Option<ArrayInfo>,
}

impl NodeInfo {
    /// What `frame` and its `trailer` make: the kind and detail python-blosc2 would see,
    /// and the array.
    pub(crate) fn of(frame: FrameFile, trailer: Result<Trailer, FrameError>) -> NodeInfo {
        let kind = Kind::of_frame(&frame.header);
        let detail = Kind::DETAIL_METALAYERS
            .iter()
            .find_map(|name| frame.header.metalayer(name))
            .and_then(|m| Value::from_msgpack(&m.content).ok());
        let array = frame.header.array_info().and_then(Result::ok);
        NodeInfo {
            kind,
            detail,
            frame,
            trailer,
            array,
        }
    }

    /// The value of its vlmetalayer `name`, when the trailer reads and the value decodes.
    pub fn vlmeta(&self, name: &str) -> Option<Value> {
        self.trailer.as_ref().ok()?.vlmetalayer(name)?.value().ok()
    }

    /// [`NodeInfo::vlmeta`] within `budget` (see
    /// [`VlMetalayer::value_within`](crate::frame::VlMetalayer::value_within)).
    pub fn vlmeta_within(&self, name: &str, budget: &DecodeBudget) -> Option<Value> {
        let vl = self.trailer.as_ref().ok()?.vlmetalayer(name)?;
        vl.value_within(budget).ok()
    }
}

/// How a node is read: its header alone, or its header and trailer.
pub(crate) type How<T> = fn(SharedSource, u64, &Path) -> Result<T, FrameError>;

/// The header and the trailer of the frame `src` holds (`len` bytes from its byte 0),
/// and nothing else: its first and last KiB read once each; `label` names it.
pub(crate) fn full(src: SharedSource, len: u64, label: &Path) -> Result<NodeInfo, FrameError> {
    let near = Prefetch::new(&*src, len);
    let header = read_staged(&near, CONTENT_CAP)?;
    let trailer = read_trailer(&near, &header);
    drop(near);
    let frame = FrameFile::new(label.to_path_buf(), header, len, src, None);
    Ok(NodeInfo::of(frame, trailer))
}

/// The header alone (one read of the node's first KiB, when the header fits).
pub(crate) fn header_only(
    src: SharedSource,
    len: u64,
    _label: &Path,
) -> Result<FrameHeader, FrameError> {
    read_staged(&Prefetch::new(&*src, len), CONTENT_CAP)
}
