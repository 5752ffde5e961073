//! What a store lists ([`Entry`]: a key, where it lives, what it stands for) and what an
//! entry is once read ([`EntryInfo`]).

use std::string::String;
use std::vec::Vec;

use serde::Serialize;

use super::kind::Kind;
use super::node::{Location, NodeInfo};
use crate::frame::{ArrayInfo, VlMetalayer};
use crate::value::Value;

/// One entry of a store's listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Its key.
    pub key: String,
    /// Where its frame lives ([`Location::Implicit`] for groups and object roots).
    pub location: Location,
    /// What it stands for.
    #[serde(skip)]
    pub role: Role,
}

/// What an entry stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// A node with a frame of its own.
    Leaf,
    /// A TreeStore group; `attrs` is the key of its `__vlmeta__` node, when it has one.
    Group {
        /// The node holding its attrs.
        attrs: Option<String>,
    },
    /// An object made of the nodes under its key (`kind` from the registry: `ctable`).
    Object {
        /// The registered kind.
        kind: String,
    },
}

/// What an entry is: its kind, what names it further (a `b2o` marker, a CTable's
/// manifest), its attrs (a group's or a CTable's), and its frame when it has one (with
/// the array it holds: shape, chunks, blocks, dtype).
///
/// ```
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/dict.b2z");
/// let store = b2nd_meta::container::open(path)?;
/// let big = store.entry_info(&store.entries()[1])?;
/// let array = big.array().unwrap();
/// assert_eq!((array.dtype_str().as_str(), array.shape().len()), ("<i8", 1));
/// # Ok::<(), b2nd_meta::container::ContainerError>(())
/// ```
#[derive(Debug)]
pub struct EntryInfo {
    /// What python-blosc2 opens it as.
    pub kind: Kind,
    /// The `b2o` marker, or a CTable's `_meta` vlmeta (`kind`, `version`, `schema`).
    pub detail: Option<Value>,
    /// A group's attrs (the vlmetalayers of its `__vlmeta__` node) or a CTable's (of its
    /// `_vlmeta` node), none when that node's trailer does not read; a frame's own attrs
    /// are its trailer's.
    pub attrs: Option<Vec<VlMetalayer>>,
    /// The node's frame (entries with a frame).
    pub node: Option<NodeInfo>,
}

impl EntryInfo {
    /// The array the entry's frame holds, when it holds one whose metalayer decodes.
    pub fn array(&self) -> Option<&ArrayInfo> {
        self.node.as_ref()?.array.as_ref()
    }
}
