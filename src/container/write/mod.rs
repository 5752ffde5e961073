//! [`StoreWriter`]: stores made and changed as python-blosc2 4.14.1 makes them, so that
//! it opens them as its own. A DictStore or TreeStore is a `.b2z` zip or a `.b2d`
//! directory holding `embed.b2e` (an EmbedStore) and one `.b2nd` member per node,
//! named after its key (`/dir/a` is `dir/a.b2nd`); a node of fewer bytes than the
//! store's threshold ([`StoreWriter::with_threshold`], python's `threshold`, 0 by
//! default: none) goes inside `embed.b2e` instead. An EmbedStore (`.b2e`) is one frame
//! holding every node's frame in its data (`estore.rs`).
//!
//! Every change goes through the crate's one write path, so that a crash leaves the old
//! store or the new one: a `.b2z` is written whole to a staging file beside it (its
//! members copied as they are, the new node copied from its `.b2nd` file, not
//! recompressed, `embed.b2e` last as python puts it) and renamed over it; a `.b2e`, and
//! the `embed.b2e` of a `.b2d`, is written whole to a staging file and renamed; a
//! `.b2d` changes one file at a time, each staged and renamed, in the order that shows
//! python the old node or the new one in between (an external leaf wins over an
//! embedded node of the same key), and is made as a staging directory renamed onto its
//! path.
//!
//! Locks: python-blosc2 takes C-Blosc2's frame lock (`.b2lock`) of a `.b2e`, and of a
//! `.b2d`'s `embed.b2e` for the whole store, when locking is on (`locking=True`,
//! `BLOSC_LOCKING`); a `.b2z` it never locks. Each change here takes the same lock for
//! its whole run, when [`Locking`] says to take part ([`Locking::AUTO`] by default: when
//! `BLOSC_LOCKING` asks, or the sidecar exists), and in a locked `.b2d` bumps the
//! `dstore_tick` vlmetalayer of `embed.b2e` as python does, so that locked handles
//! elsewhere see the change.
//!
//! ```
//! use b2nd_meta::container::{self, StoreWriter};
//!
//! let dir = std::env::temp_dir().join(format!("b2nd-meta-doc-store-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let store = dir.join("made.b2z");
//! let _ = std::fs::remove_file(&store);
//! let frame = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
//! let writer = StoreWriter::create(&store, false)?;
//! writer.put("/dir1/big", frame)?;
//! writer.put("/small", frame)?;
//! writer.remove("/small")?;
//! let opened = container::open(&store)?;
//! let keys: Vec<_> = opened.entries().iter().map(|e| e.key.as_str()).collect();
//! assert_eq!(keys, ["/dir1/big"]);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod apply;
mod embed_frame;
mod estore;
mod estore_data;
mod files;
mod keys;
mod vlmeta_copy;
mod vlmeta_ops;
mod zip_out;

use std::fs;
use std::path::{Path, PathBuf};

use super::error::{ContainerError, ContainerErrorKind};
use super::kind::Kind;
use crate::frame::Locking;
use crate::io::Steps;
use estore::Change;
use files::{io_in, layout_of_suffix, open_node, refused, Layout, NodeFile};
use keys::check_key;
pub use vlmeta_ops::TREE_VLMETA_KEY;

/// A store (`.b2z`, `.b2d`: a DictStore or TreeStore; `.b2e`: an EmbedStore) open for
/// changes: nodes put, replaced and removed, their vlmeta and the store's set. Each call
/// reads the store as it is then, so that what another writer did in between
/// (python-blosc2, between two calls) is kept.
///
/// A crash leaves the old store or the new one: a `.b2z`, a `.b2e` and a `.b2d`'s
/// `embed.b2e` are written whole beside themselves and renamed (members and full
/// chunks copied as they are); a `.b2d` changes one file at a time, in the order that
/// shows python the old node or the new one in between.
///
/// Locks: python-blosc2 takes C-Blosc2's frame lock (`.b2lock`) of a `.b2e`, and of a
/// `.b2d`'s `embed.b2e` for the whole store, when locking is on (`locking=True`,
/// `BLOSC_LOCKING`); a `.b2z` it never locks. Each change here takes the same lock for
/// its whole run when its [`Locking`] says to take part ([`Locking::AUTO`] by default:
/// when `BLOSC_LOCKING` asks, or the sidecar exists), and in a locked `.b2d` bumps the
/// `dstore_tick` vlmetalayer of `embed.b2e` as python does, so that locked handles
/// elsewhere see the change.
#[derive(Debug)]
pub struct StoreWriter {
    path: PathBuf,
    layout: Layout,
    tree: bool,
    steps: Steps,
    threshold: u64,
    locking: Locking,
}

impl StoreWriter {
    /// Makes an empty store at `path` (nothing may be there): a `.b2z` zip or a `.b2d`
    /// directory, a TreeStore when `tree`, a DictStore otherwise; or a `.b2e`
    /// EmbedStore (`tree` refused: it is flat), as its suffix says.
    ///
    /// ```
    /// use b2nd_meta::container::{self, Kind, StoreWriter};
    ///
    /// let dir = std::env::temp_dir().join(format!("b2nd-meta-doc-b2e-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let store = dir.join("nodes.b2e");
    /// let frame = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    /// let writer = StoreWriter::create(&store, false)?;
    /// writer.put("/a", frame)?;
    /// writer.put("/b", frame)?;
    /// writer.remove("/a")?;
    /// let opened = container::open(&store)?;
    /// assert_eq!(opened.kind, Kind::EmbedStore);
    /// assert_eq!(opened.entries()[0].key, "/b");
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn create(path: impl AsRef<Path>, tree: bool) -> Result<StoreWriter, ContainerError> {
        StoreWriter::create_with(path.as_ref(), tree, Steps::unlimited())
    }

    /// [`StoreWriter::create`] taking `steps` (crash tests stop them).
    #[doc(hidden)]
    pub fn create_with(
        path: &Path,
        tree: bool,
        steps: Steps,
    ) -> Result<StoreWriter, ContainerError> {
        StoreWriter::make(path, tree, steps, None, 0)
    }

    /// Makes a store at `path` (nothing may be there) holding one node, `key` from the
    /// contiguous NDArray frame file `frame`, in one step: a crash leaves no store or
    /// this one, never an empty one.
    pub fn create_with_node(
        path: impl AsRef<Path>,
        tree: bool,
        key: &str,
        frame: impl AsRef<Path>,
    ) -> Result<StoreWriter, ContainerError> {
        StoreWriter::create_with_node_steps(
            path.as_ref(),
            tree,
            key,
            frame.as_ref(),
            Steps::unlimited(),
            0,
        )
    }

    /// [`StoreWriter::create_with_node`] taking `steps` (crash tests stop them) and
    /// the store's threshold ([`StoreWriter::with_threshold`]), which the first node
    /// goes in by, in the same one step.
    #[doc(hidden)]
    pub fn create_with_node_steps(
        path: &Path,
        tree: bool,
        key: &str,
        frame: &Path,
        steps: Steps,
        threshold: u64,
    ) -> Result<StoreWriter, ContainerError> {
        check_key(key)?;
        let node = open_node(frame)?;
        StoreWriter::make(path, tree, steps, Some((key, &node)), threshold)
    }

    fn make(
        path: &Path,
        tree: bool,
        steps: Steps,
        first: Option<(&str, &NodeFile)>,
        threshold: u64,
    ) -> Result<StoreWriter, ContainerError> {
        let layout = layout_of_suffix(path)?;
        if path.symlink_metadata().is_ok() {
            return Err(
                refused("something is there already; open it with StoreWriter::open_rw")
                    .in_file(path),
            );
        }
        if tree && layout == Layout::Embed {
            return Err(
                refused("an EmbedStore (.b2e) is flat: a TreeStore is a .b2z or a .b2d")
                    .in_file(path),
            );
        }
        let writer = StoreWriter {
            path: path.to_path_buf(),
            layout,
            tree,
            steps,
            threshold,
            locking: Locking::AUTO,
        };
        let embedded = first.is_some_and(|(_, node)| writer.embeds(node));
        writer.make_here(first, embedded)?;
        Ok(writer)
    }

    /// Opens the store at `path` (a DictStore or TreeStore, an EmbedStore) for changes.
    pub fn open_rw(path: impl AsRef<Path>) -> Result<StoreWriter, ContainerError> {
        StoreWriter::open_rw_with(path.as_ref(), Steps::unlimited())
    }

    /// [`StoreWriter::open_rw`] taking `steps` (crash tests stop them).
    #[doc(hidden)]
    pub fn open_rw_with(path: &Path, steps: Steps) -> Result<StoreWriter, ContainerError> {
        let opened = super::open(path)?;
        let is_dir = fs::metadata(path).map_err(io_in(path))?.is_dir();
        let (layout, tree) = match (&opened.kind, is_dir) {
            (Kind::DictStore, true) => (Layout::Dir, false),
            (Kind::DictStore, false) => (Layout::Zip, false),
            (Kind::TreeStore, true) => (Layout::Dir, true),
            (Kind::TreeStore, false) => (Layout::Zip, true),
            (Kind::EmbedStore, false) => (Layout::Embed, false),
            (other, _) => {
                return Err(refused(std::format!(
                    "a {} is not a store this writes (DictStore, TreeStore: .b2z, .b2d; EmbedStore: .b2e)",
                    other.name()
                ))
                .in_file(path))
            }
        };
        Ok(StoreWriter {
            path: path.to_path_buf(),
            layout,
            tree,
            steps,
            threshold: 0,
            locking: Locking::AUTO,
        })
    }

    /// The same writer putting a node whose array holds fewer than `bytes` bytes (its
    /// shape's product times its item size: python's `value.nbytes`) inside
    /// `embed.b2e`, as python-blosc2's `DictStore(..., threshold=bytes)` does; 0 (the
    /// default, python's): every node is a member of its own. An EmbedStore holds
    /// every node inside itself whatever this says.
    ///
    /// ```
    /// use b2nd_meta::container::{self, Location, StoreWriter};
    ///
    /// let dir = std::env::temp_dir().join(format!("b2nd-meta-doc-threshold-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let store = dir.join("s.b2z");
    /// let frame = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/arrays/blosc2-4.14.1/ndim1_i4.b2nd");
    /// StoreWriter::create(&store, false)?.with_threshold(1 << 20).put("/small", frame)?;
    /// let node = container::open(&store)?.nodes().next().unwrap();
    /// assert!(matches!(node.location, Location::Embedded { .. }));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_threshold(mut self, bytes: u64) -> StoreWriter {
        self.threshold = bytes;
        self
    }

    /// The same writer taking part in C-Blosc2's lock protocol as `locking` says
    /// ([`Locking::AUTO`] by default; see [`StoreWriter`]).
    pub fn with_locking(mut self, locking: Locking) -> StoreWriter {
        self.locking = locking;
        self
    }

    /// Refuses a key python-blosc2 refuses (see [`StoreWriter::put`]).
    ///
    /// ```
    /// use b2nd_meta::container::StoreWriter;
    /// assert!(StoreWriter::check_key("/dir/a").is_ok());
    /// assert!(StoreWriter::check_key("dir//a").is_err());
    /// ```
    pub fn check_key(key: &str) -> Result<(), ContainerError> {
        check_key(key)
    }

    /// Whether the store is a TreeStore.
    pub fn is_tree(&self) -> bool {
        self.tree
    }

    /// Puts the node of the contiguous frame file `frame` under `key`, its bytes copied
    /// as they are: an NDArray (a `.b2nd` member), an SChunk or an ObjectArray
    /// (`.b2f`), a BatchArray or a ListArray (`.b2b`), as python names them; a node under `key` is replaced, wherever it was
    /// (a member, inside `embed.b2e`, a remote reference). Keys are checked as
    /// python-blosc2 checks them (`/`-rooted, no `//`, no trailing `/`, none of `:`,
    /// NUL, tab, CR, LF); in a TreeStore a key naming a group, or under a leaf, is
    /// refused, as python refuses it.
    pub fn put(&self, key: &str, frame: impl AsRef<Path>) -> Result<(), ContainerError> {
        let frame = frame.as_ref();
        check_key(key)?;
        self.check_not_vlmeta(key)?;
        let node = open_node(frame)?;
        let embed_it = self.embeds(&node);
        let lock = self.lock()?;
        self.put_node(
            key,
            &node.file,
            node.len,
            node.suffix,
            embed_it,
            lock.is_some(),
        )
    }

    /// Puts under `key` a reference to the remote array `path` of the Caterva2 server
    /// `urlbase`, as python-blosc2 keeps a `C2Array` put in a store (always inside
    /// `embed.b2e`, an EmbedStore's map: `{"urlbase", "path"}`); what `key` held is
    /// replaced. Nothing is fetched: python opens the array when the node is read.
    ///
    /// ```
    /// use b2nd_meta::container::{self, Location, StoreWriter};
    ///
    /// let dir = std::env::temp_dir().join(format!("b2nd-meta-doc-ref-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let store = dir.join("refs.b2z");
    /// let writer = StoreWriter::create(&store, false)?;
    /// writer.put_reference("/remote", "https://cat2.cloud/demo", "@public/examples/ds-1d.b2nd")?;
    /// let node = container::open(&store)?.nodes().next().unwrap();
    /// assert!(matches!(node.location, Location::Remote { .. }));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn put_reference(
        &self,
        key: &str,
        urlbase: &str,
        path: &str,
    ) -> Result<(), ContainerError> {
        check_key(key)?;
        self.check_not_vlmeta(key)?;
        let lock = self.lock()?;
        let (member, in_embed) = self.where_is(key)?;
        let change = Change {
            remove: in_embed.then_some(key),
            reference: Some((key, urlbase, path)),
            ..Change::default()
        };
        self.apply(member.as_deref(), None, change, lock.is_some())
    }

    /// Puts the frame `src` (`len` bytes) under `key`: inside the EmbedStore when
    /// `embed_it`, a member of its own named with `suffix` otherwise; what `key` held
    /// is replaced, wherever it was. The store's lock is held (`locked`: taken).
    fn put_node(
        &self,
        key: &str,
        src: &dyn crate::io::ReadAt,
        len: u64,
        suffix: &str,
        embed_it: bool,
        locked: bool,
    ) -> Result<(), ContainerError> {
        let (member, in_embed) = self.where_is(key)?;
        let mut change = Change {
            remove: in_embed.then_some(key),
            ..Change::default()
        };
        if embed_it {
            change.add = Some((key, src, len));
            return self.apply(member.as_deref(), None, change, locked);
        }
        let name = std::format!("{}{suffix}", &key[1..]);
        let drop = member.filter(|m| *m != name);
        self.apply(drop.as_deref(), Some((&name, src, len)), change, locked)
    }

    /// Removes the node under `key`: its member and its entry in `embed.b2e` (python
    /// removes the member alone, which lets an embedded node of the same key, left by
    /// an older python, show again).
    pub fn remove(&self, key: &str) -> Result<(), ContainerError> {
        self.check_not_vlmeta(key)?;
        let lock = self.lock()?;
        let (member, in_embed) = self.where_is(key)?;
        if member.is_none() && !in_embed {
            return Err(
                ContainerError::new(ContainerErrorKind::UnknownKey { key: key.into() })
                    .in_file(&self.path),
            );
        }
        let change = Change {
            remove: in_embed.then_some(key),
            ..Change::default()
        };
        self.apply(member.as_deref(), None, change, lock.is_some())
    }
}
