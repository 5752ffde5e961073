//! The vlmeta (attributes) of a store's nodes and of the store itself, changed where
//! python-blosc2 4.14.1 keeps them: a node's in its frame's trailer (python's
//! `node = store[key]; node.vlmeta[name] = value`), rewritten in place in a `.b2d`'s
//! member file, copied with a new trailer into a `.b2z` rewritten whole or into the
//! EmbedStore; a TreeStore's (`tstore.vlmeta`) in the vlmeta of the SChunk python
//! keeps at `/__vlmeta__` (made as python makes it when missing: `blosc2.SChunk()`, a
//! `.b2f` member, or inside `embed.b2e` under a threshold); an EmbedStore's in its own
//! frame's vlmeta (python's `estore._store.vlmeta`, `estore_metadata` being its map).
//! A DictStore has none in python-blosc2 4.14.1: refused.

use std::fs::File;
use std::sync::Arc;

use super::embed_frame::empty_vlmeta_schunk;
use super::estore::{Change, METADATA};
use super::files::{io_in, refused, Layout};
use super::vlmeta_copy::Patched;
use super::StoreWriter;
use crate::container::store::EMBED_NAME;
use crate::container::{ContainerError, ContainerErrorKind, Location};
use crate::frame::{FrameError, Locking, Source};
use crate::io::{ReadAt, SharedSource, Window};
use crate::vlmeta::{update_with_steps, VlmetaChange, VlmetaOptions};

/// The key of the SChunk a TreeStore keeps its vlmeta in.
pub const TREE_VLMETA_KEY: &str = "/__vlmeta__";

/// The frame's source itself (a [`How`](crate::container::node) reading nothing).
fn source_of(
    src: SharedSource,
    _len: u64,
    _label: &std::path::Path,
) -> Result<SharedSource, FrameError> {
    Ok(src)
}

impl StoreWriter {
    /// Applies `changes` to the vlmeta of node `key` (python's `store[key].vlmeta`),
    /// in order, as [`update_vlmeta`](crate::vlmeta::update_vlmeta) applies them, the
    /// node's data untouched, wherever it is (a member, inside `embed.b2e`, an
    /// EmbedStore's node). python keeps a change to an embedded node only in its
    /// in-memory copy; here it is written.
    ///
    /// ```
    /// use b2nd_meta::container::{self, StoreWriter};
    /// use b2nd_meta::value::Value;
    /// use b2nd_meta::vlmeta::VlmetaChange;
    ///
    /// let dir = std::env::temp_dir().join(format!("b2nd-meta-doc-nodevl-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let store = dir.join("s.b2z");
    /// let frame = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    /// let writer = StoreWriter::create_with_node(&store, false, "/a", frame)?;
    /// writer.update_node_vlmeta("/a", &[VlmetaChange::set("units", "m")?])?;
    /// let info = container::open(&store)?.node_info("/a")?;
    /// assert_eq!(info.vlmeta("units"), Some(Value::Str("m".into())));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn update_node_vlmeta(
        &self,
        key: &str,
        changes: &[VlmetaChange],
    ) -> Result<(), ContainerError> {
        let lock = self.lock()?;
        self.node_vlmeta(key, changes, lock.is_some())
    }

    /// Applies `changes` to the vlmeta of the store itself: a TreeStore's
    /// (`tstore.vlmeta`, kept in the SChunk at [`TREE_VLMETA_KEY`], made when missing)
    /// or an EmbedStore's (its frame's, `estore_metadata` refused: it is the map). A
    /// DictStore has no vlmeta of its own in python-blosc2 4.14.1: refused.
    ///
    /// ```
    /// use b2nd_meta::container::{self, StoreWriter};
    /// use b2nd_meta::value::Value;
    /// use b2nd_meta::vlmeta::VlmetaChange;
    ///
    /// let dir = std::env::temp_dir().join(format!("b2nd-meta-doc-storevl-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let store = dir.join("t.b2d");
    /// let writer = StoreWriter::create(&store, true)?;
    /// writer.update_store_vlmeta(&[VlmetaChange::set("author", "me")?])?;
    /// let info = container::open(&store)?.node_info("/__vlmeta__")?;
    /// assert_eq!(info.vlmeta("author"), Some(Value::Str("me".into())));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn update_store_vlmeta(&self, changes: &[VlmetaChange]) -> Result<(), ContainerError> {
        if self.layout == Layout::Embed {
            if changes.iter().any(|c| change_name(c) == METADATA) {
                return Err(refused(
                    "estore_metadata is the EmbedStore's map of its nodes: it is changed by put and remove",
                )
                .in_file(&self.path));
            }
            let lock = self.lock()?;
            let change = Change {
                vlmeta: changes,
                ..Change::default()
            };
            return self.apply(None, None, change, lock.is_some());
        }
        if !self.tree {
            return Err(refused(
                "a DictStore has no vlmeta of its own in python-blosc2 4.14.1 (a TreeStore keeps it at /__vlmeta__); set a node's",
            )
            .in_file(&self.path));
        }
        let lock = self.lock()?;
        let (member, in_embed) = self.where_is(TREE_VLMETA_KEY)?;
        if member.is_some() || in_embed {
            return self.node_vlmeta(TREE_VLMETA_KEY, changes, lock.is_some());
        }
        // As python makes it on the first write: an empty SChunk, a `.b2f` member
        // (its nbytes, 0, under any threshold but 0: embedded then).
        let schunk = empty_vlmeta_schunk(changes)
            .map_err(|e| ContainerError::frame(e, 0).in_file(&self.path))?;
        let len = schunk.len() as u64;
        let embed_it = self.threshold > 0;
        self.put_node(
            TREE_VLMETA_KEY,
            &schunk,
            len,
            ".b2f",
            embed_it,
            lock.is_some(),
        )
    }

    /// [`StoreWriter::update_node_vlmeta`] with the lock held (`locked`: taken).
    fn node_vlmeta(
        &self,
        key: &str,
        changes: &[VlmetaChange],
        locked: bool,
    ) -> Result<(), ContainerError> {
        let (member, in_embed) = self.where_is(key)?;
        match (self.layout, member) {
            (Layout::Dir, Some(rel)) => {
                let path = self.path.join(&rel);
                update_with_steps(&path, changes, VlmetaOptions::default(), &self.steps)
                    .map_err(|e| ContainerError::frame(e, 0).in_file(&path))?;
                Ok(())
            }
            (Layout::Zip, Some(rel)) => {
                let io = io_in(&self.path);
                let zip: SharedSource = Arc::new(File::open(&self.path).map_err(&io)?);
                let members =
                    crate::container::zip::members(&zip).map_err(|e| e.in_file(&self.path))?;
                let Some((_, Ok(m))) = members
                    .into_iter()
                    .find(|(n, _)| *n == rel && n != EMBED_NAME)
                else {
                    return Err(refused(std::format!("zip member {rel:?} does not read"))
                        .in_file(&self.path));
                };
                let window: SharedSource = Arc::new(Window::new(zip, m.offset, m.length));
                let patched = Patched::new(window, changes).map_err(|e| e.in_file(&self.path))?;
                let add: (&str, &dyn ReadAt, u64) = (&rel, &patched, patched.len());
                self.apply(None, Some(add), Change::default(), locked)
            }
            (_, None) if in_embed => {
                let opened =
                    crate::container::open(Source::path(&self.path).locking(Locking::NEVER))?;
                let location = opened
                    .nodes()
                    .find(|n| n.key == key)
                    .map(|n| n.location)
                    .unwrap_or(Location::Implicit);
                let src = opened.read_with(key, &location, source_of)?;
                let patched = Patched::new(src, changes).map_err(|e| e.in_file(&self.path))?;
                let change = Change {
                    remove: Some(key),
                    add: Some((key, &patched, patched.len())),
                    ..Change::default()
                };
                self.apply(None, None, change, locked)
            }
            _ => Err(
                ContainerError::new(ContainerErrorKind::UnknownKey { key: key.into() })
                    .in_file(&self.path),
            ),
        }
    }
}

fn change_name(change: &VlmetaChange) -> &str {
    match change {
        VlmetaChange::Set { name, .. } | VlmetaChange::Delete { name } => name,
    }
}
