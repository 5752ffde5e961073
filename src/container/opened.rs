//! [`Container`]: what an opened file is, its own frame, and its nodes when it is a
//! store; each node read on demand, its header alone or with its trailer.

use std::borrow::ToOwned;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::string::String;
use std::vec::Vec;

use super::embed::Embed;
use super::entry::{Entry, Role};
use super::error::{ContainerError, ContainerErrorKind};
use super::kind::Kind;
use super::node::{self, Location, Node, NodeInfo};
use super::store;
use crate::chunk::DecodeBudget;
use crate::io::SharedSource;

/// An opened file: what it is, its own record, and its nodes when it is a store.
pub struct Container {
    /// The path (or label) it was opened from.
    pub path: PathBuf,
    /// What it is.
    pub kind: Kind,
    /// Its own frame's record: the frame itself, or a store's EmbedStore (`None` for a
    /// store without one).
    pub info: Option<NodeInfo>,
    /// What was noticed and left out: sidecars, compressed members, an embed map
    /// python-blosc2 would not read.
    pub notes: Vec<String>,
    /// The zip's bytes (a `.b2z`), which its members are read from.
    pub(crate) src: Option<SharedSource>,
    /// A store's objects: its directory (`.b2d`) or its zip's members (`.b2z`).
    pub(crate) objects: Option<std::sync::Arc<dyn crate::io::Storage>>,
    pub(super) embed: Option<Embed>,
    /// Every node, by key (DictStore's view: TreeStore groups are not nodes).
    pub(super) nodes: BTreeMap<String, Location>,
    pub(super) entries: Vec<Entry>,
    /// What every decode of the container and its nodes is spent from.
    pub(crate) budget: DecodeBudget,
}

impl core::fmt::Debug for Container {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Container")
            .field("path", &self.path)
            .field("kind", &self.kind)
            .field("nodes", &self.nodes.len())
            .finish()
    }
}

impl Container {
    /// Every node, by key, as a DictStore holds them (a TreeStore's groups are not
    /// nodes; its `__vlmeta__` carriers and object internals are): the key and where
    /// its frame lives.
    pub fn nodes(&self) -> impl Iterator<Item = Node> + '_ {
        self.nodes.iter().map(|(key, location)| Node {
            key: key.clone(),
            location: location.clone(),
        })
    }

    /// The decode budget the container was opened with, which everything decoded from
    /// it is spent from (its embed map, its store's chunks, the vlmeta values read
    /// to list it); share it to keep decoding within the same budget.
    ///
    /// ```
    /// use b2nd_meta::chunk::DecodeBudget;
    /// use b2nd_meta::frame::Source;
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/dict.b2z");
    /// let store = b2nd_meta::container::open(Source::path(path).budget(DecodeBudget::new(1 << 20)))?;
    /// let spent = store.budget().spent();
    /// assert!(spent > 0);
    /// store.entry_info(&store.entries()[0])?;
    /// assert!(store.budget().spent() > spent);
    /// # Ok::<(), b2nd_meta::container::ContainerError>(())
    /// ```
    pub fn budget(&self) -> &DecodeBudget {
        &self.budget
    }

    /// The entries python-blosc2's `keys()` lists, sorted: the nodes of an EmbedStore
    /// or a DictStore; a TreeStore's groups, leaves and object roots (CTables), its
    /// `__vlmeta__` carriers and object internals hidden; a CTable's own nodes.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The frame of node `key` (any node, hidden ones included), read: its header and
    /// trailer only.
    pub fn node_info(&self, key: &str) -> Result<NodeInfo, ContainerError> {
        let location = self.nodes.get(key).ok_or_else(|| {
            ContainerError::new(ContainerErrorKind::UnknownKey {
                key: key.to_owned(),
            })
        })?;
        self.read_node(key, location)
    }

    /// The header of node `key` alone: one read of its first KiB (for an embedded
    /// node, of the chunks holding it), enough for its shape, dtype and metalayers.
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/dict.b2z");
    /// let store = b2nd_meta::container::open(path)?;
    /// let header = store.node_header("/dir1/big")?;
    /// assert_eq!(header.array_metalayer().unwrap().name, "b2nd");
    /// # Ok::<(), b2nd_meta::container::ContainerError>(())
    /// ```
    pub fn node_header(&self, key: &str) -> Result<crate::frame::FrameHeader, ContainerError> {
        let location = self.nodes.get(key).ok_or_else(|| {
            ContainerError::new(ContainerErrorKind::UnknownKey {
                key: key.to_owned(),
            })
        })?;
        self.read_with(key, location, node::header_only)
    }

    pub(super) fn read_node(
        &self,
        key: &str,
        location: &Location,
    ) -> Result<NodeInfo, ContainerError> {
        self.read_with(key, location, node::full)
    }

    /// Reads the frame of node `key` at `location` with `how`.
    pub(crate) fn read_with<T>(
        &self,
        key: &str,
        location: &Location,
        how: node::How<T>,
    ) -> Result<T, ContainerError> {
        match location {
            Location::Embedded { offset, length } => match &self.embed {
                Some(embed) => embed.describe_node(key, *offset, *length, how),
                None => Err(ContainerError::new(ContainerErrorKind::UnknownKey {
                    key: key.to_owned(),
                })),
            },
            Location::Invalid { reason } => {
                Err(ContainerError::new(ContainerErrorKind::Unreadable {
                    key: key.to_owned(),
                    reason: reason.clone(),
                }))
            }
            other => store::describe_leaf(self.objects.as_deref(), key, other, &self.path, how),
        }
    }

    /// The entry or node `key`, wherever it is (a hidden node too).
    pub fn find(&self, key: &str) -> Option<Entry> {
        if let Some(e) = self.entries.iter().find(|e| e.key == key) {
            return Some(e.clone());
        }
        self.nodes.get(key).map(|location| Entry {
            key: key.to_owned(),
            location: location.clone(),
            role: Role::Leaf,
        })
    }
}
