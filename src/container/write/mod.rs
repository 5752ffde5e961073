//! [`StoreWriter`]: DictStores and TreeStores made and changed as python-blosc2 4.14.1
//! makes them, so that it opens them as its own: a `.b2z` zip or a `.b2d` directory
//! holding `embed.b2e` (an EmbedStore, empty when made here) and one `.b2nd` member
//! per node, named after its key (`/dir/a` is `dir/a.b2nd`). python-blosc2's default
//! `threshold` (0) keeps every node as such a member: so does this.
//!
//! Every change goes through the crate's one write path, so that a crash leaves the old
//! store or the new one: a `.b2z` is written whole to a staging file beside it (its
//! members copied as they are, the new node copied from its `.b2nd` file, not
//! recompressed, `embed.b2e` last as python puts it) and renamed over it; a `.b2d`
//! changes one member file at a time, each staged and renamed, and is made as a
//! staging directory renamed onto its path.
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

mod embed_frame;
mod files;
mod keys;
mod zip_out;

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use super::error::{ContainerError, ContainerErrorKind};
use super::kind::Kind;
use super::node::Location;
use super::store::EMBED_NAME;
use crate::io::{SharedSource, Staging, Steps};
use files::{
    copy_into, io_in, layout_of_suffix, open_frame, parent_of, refused, write_new_file, Layout,
};
use keys::{check_key, check_tree_place};
use zip_out::ZipOut;

/// A DictStore or TreeStore (`.b2z` or `.b2d`) open for changes: nodes put, replaced
/// and removed. Each call reads the store as it is then, so that what another writer
/// did in between (python-blosc2, between two calls) is kept.
#[derive(Debug)]
pub struct StoreWriter {
    path: PathBuf,
    layout: Layout,
    tree: bool,
    steps: Steps,
}

impl StoreWriter {
    /// Makes an empty store at `path` (nothing may be there), a TreeStore when `tree`,
    /// a DictStore otherwise; a `.b2z` zip or a `.b2d` directory as its suffix says.
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
        StoreWriter::make(path, tree, steps, None)
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
        )
    }

    /// [`StoreWriter::create_with_node`] taking `steps` (crash tests stop them).
    #[doc(hidden)]
    pub fn create_with_node_steps(
        path: &Path,
        tree: bool,
        key: &str,
        frame: &Path,
        steps: Steps,
    ) -> Result<StoreWriter, ContainerError> {
        check_key(key)?;
        let (src, len) = open_frame(frame)?;
        let member = std::format!("{}.b2nd", &key[1..]);
        StoreWriter::make(path, tree, steps, Some((&member, &src, len)))
    }

    fn make(
        path: &Path,
        tree: bool,
        steps: Steps,
        first: Option<(&str, &File, u64)>,
    ) -> Result<StoreWriter, ContainerError> {
        let layout = layout_of_suffix(path)?;
        if path.symlink_metadata().is_ok() {
            return Err(
                refused("something is there already; open it with StoreWriter::open_rw")
                    .in_file(path),
            );
        }
        let marker = if tree { "b2tree" } else { "b2dict" };
        let embed = embed_frame::empty_embed(marker)
            .map_err(|e| ContainerError::frame(e, 0).in_file(path))?;
        let io = io_in(path);
        match layout {
            Layout::Zip => {
                let staging = Staging::file(path, None, &steps).map_err(&io)?;
                let mut zip = ZipOut::new(staging.file_handle(), &steps);
                if let Some((member, src, len)) = first {
                    zip.member(member, src, 0, len, None).map_err(&io)?;
                }
                zip.member(EMBED_NAME, &embed[..], 0, embed.len() as u64, None)
                    .map_err(&io)?;
                let len = zip.finish().map_err(&io)?;
                steps.set_len(staging.file_handle(), len).map_err(&io)?;
                staging.commit().map_err(&io)?;
            }
            Layout::Dir => {
                let staging = Staging::dir(path, &steps).map_err(&io)?;
                write_new_file(&staging.path().join(EMBED_NAME), &embed, &steps).map_err(&io)?;
                if let Some((member, src, len)) = first {
                    let mut at = staging.path().to_path_buf();
                    let parts: Vec<&str> = member.split('/').collect();
                    for part in &parts[..parts.len() - 1] {
                        at.push(part);
                        steps.create_dir(&at).map_err(&io)?;
                    }
                    let mut options = fs::OpenOptions::new();
                    options.write(true).create_new(true);
                    let file = steps
                        .open(&options, &staging.path().join(member))
                        .map_err(&io)?;
                    copy_into(&file, src, len, &steps).map_err(&io)?;
                    steps.sync_all(&file).map_err(&io)?;
                    // The new directories' entries, before the staging is renamed.
                    let mut dir = at;
                    while dir != staging.path() {
                        steps.sync_dir(&dir).map_err(&io)?;
                        dir.pop();
                    }
                }
                staging.commit().map_err(&io)?;
            }
        }
        Ok(StoreWriter {
            path: path.to_path_buf(),
            layout,
            tree,
            steps,
        })
    }

    /// Opens the DictStore or TreeStore at `path` for changes.
    pub fn open_rw(path: impl AsRef<Path>) -> Result<StoreWriter, ContainerError> {
        StoreWriter::open_rw_with(path.as_ref(), Steps::unlimited())
    }

    /// [`StoreWriter::open_rw`] taking `steps` (crash tests stop them).
    #[doc(hidden)]
    pub fn open_rw_with(path: &Path, steps: Steps) -> Result<StoreWriter, ContainerError> {
        let opened = super::open(path)?;
        let tree = match opened.kind {
            Kind::DictStore => false,
            Kind::TreeStore => true,
            ref other => {
                return Err(refused(std::format!(
                    "a {} is not a store this writes (DictStore, TreeStore: .b2z, .b2d)",
                    other.name()
                ))
                .in_file(path))
            }
        };
        let layout = match fs::metadata(path).map_err(io_in(path))?.is_dir() {
            true => Layout::Dir,
            false => Layout::Zip,
        };
        Ok(StoreWriter {
            path: path.to_path_buf(),
            layout,
            tree,
            steps,
        })
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

    /// Puts the NDArray of the contiguous frame file `frame` (a `.b2nd`) under `key`,
    /// its bytes copied as they are; a node under `key` is replaced. Keys are checked
    /// as python-blosc2 checks them (`/`-rooted, no `//`, no trailing `/`, none of
    /// `:`, NUL, tab, CR, LF); in a TreeStore a key naming a group, or under a leaf, is
    /// refused, as python refuses it.
    pub fn put(&self, key: &str, frame: impl AsRef<Path>) -> Result<(), ContainerError> {
        let frame = frame.as_ref();
        check_key(key)?;
        let (src, len) = open_frame(frame)?;
        let nodes = self.nodes()?;
        if self.tree {
            check_tree_place(key, nodes.iter().map(|(k, _)| k.as_str()))?;
        }
        let old = self.leaf_of(&nodes, key, true)?;
        let member = std::format!("{}.b2nd", &key[1..]);
        match self.layout {
            Layout::Zip => self.rewrite_zip(old.as_deref(), Some((&member, &src, len))),
            Layout::Dir => {
                self.put_file(&member, &src, len)?;
                match old {
                    Some(old) if old != member => self.remove_file(&old),
                    _ => Ok(()),
                }
            }
        }
    }

    /// Removes the node under `key`.
    pub fn remove(&self, key: &str) -> Result<(), ContainerError> {
        let nodes = self.nodes()?;
        let Some(old) = self.leaf_of(&nodes, key, false)? else {
            return Err(
                ContainerError::new(ContainerErrorKind::UnknownKey { key: key.into() })
                    .in_file(&self.path),
            );
        };
        match self.layout {
            Layout::Zip => self.rewrite_zip(Some(&old), None),
            Layout::Dir => self.remove_file(&old),
        }
    }

    /// Every node of the store as it is now.
    fn nodes(&self) -> Result<Vec<(String, Location)>, ContainerError> {
        let opened = super::open(&self.path)?;
        Ok(opened.nodes().map(|n| (n.key, n.location)).collect())
    }

    /// The member (relative path) holding the node `key`, if any; an embedded node or
    /// a reference is refused (not rewritten here).
    fn leaf_of(
        &self,
        nodes: &[(String, Location)],
        key: &str,
        replacing: bool,
    ) -> Result<Option<String>, ContainerError> {
        let Some((_, location)) = nodes.iter().find(|(k, _)| k == key) else {
            return Ok(None);
        };
        match location {
            Location::ZipMember { name, .. } => Ok(Some(name.clone())),
            Location::External { path } => {
                let rel = path.strip_prefix(&self.path).unwrap_or(path);
                let parts: Vec<String> =
                    rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                Ok(Some(parts.join("/")))
            }
            _ => Err(refused(std::format!(
                "node {key:?} lives inside embed.b2e, which is not rewritten here; {} it with python-blosc2",
                if replacing { "replace" } else { "remove" }
            ))
            .in_file(&self.path)),
        }
    }

    /// Writes the zip anew: its members but `drop`, then `add` (name, source, length),
    /// `embed.b2e` last; staged beside it and renamed over it.
    fn rewrite_zip(
        &self,
        drop: Option<&str>,
        add: Option<(&str, &File, u64)>,
    ) -> Result<(), ContainerError> {
        let path = &self.path;
        let io = io_in(path);
        let old = File::open(path).map_err(&io)?;
        let md = old.metadata().map_err(&io)?;
        let shared: SharedSource = Arc::new(old.try_clone().map_err(&io)?);
        let members = super::zip::members(&shared).map_err(|e| e.in_file(path))?;
        let mut kept = Vec::new();
        let mut embed = None;
        for (name, located) in members {
            let member = located.map_err(|e| e.in_file(path))?;
            if name == EMBED_NAME {
                embed = Some(member);
            } else if Some(name.as_str()) != drop && Some(name.as_str()) != add.map(|a| a.0) {
                kept.push(member);
            }
        }
        let Some(embed) = embed else {
            return Err(
                refused("the zip has no embed.b2e: python-blosc2 would not open it").in_file(path),
            );
        };
        let staging = Staging::file(path, Some(&md), &self.steps).map_err(&io)?;
        let mut zip = ZipOut::new(staging.file_handle(), &self.steps);
        for m in &kept {
            zip.member(&m.name, &old, m.offset, m.length, Some(m.crc32))
                .map_err(&io)?;
        }
        if let Some((name, src, len)) = add {
            zip.member(name, src, 0, len, None).map_err(&io)?;
        }
        zip.member(
            EMBED_NAME,
            &old,
            embed.offset,
            embed.length,
            Some(embed.crc32),
        )
        .map_err(&io)?;
        let len = zip.finish().map_err(&io)?;
        self.steps
            .set_len(staging.file_handle(), len)
            .map_err(&io)?;
        staging.commit().map_err(&io)
    }

    /// Puts member `rel` of a `.b2d`: its directories made, the file staged and renamed.
    fn put_file(&self, rel: &str, src: &File, len: u64) -> Result<(), ContainerError> {
        let target = self.path.join(rel);
        let io = io_in(&target);
        let mut dir = self.path.clone();
        let parts: Vec<&str> = rel.split('/').collect();
        for part in &parts[..parts.len() - 1] {
            dir.push(part);
            if !dir.is_dir() {
                self.steps.create_dir(&dir).map_err(&io)?;
                self.steps.sync_dir(&parent_of(&dir)).map_err(&io)?;
            }
        }
        let like = fs::metadata(&target).ok();
        let staging = Staging::file(&target, like.as_ref(), &self.steps).map_err(&io)?;
        copy_into(staging.file_handle(), src, len, &self.steps).map_err(&io)?;
        staging.commit().map_err(&io)
    }

    /// Removes member `rel` of a `.b2d` (its directories stay, as python leaves them).
    fn remove_file(&self, rel: &str) -> Result<(), ContainerError> {
        let target = self.path.join(rel);
        let io = io_in(&target);
        self.steps.remove_file(&target).map_err(&io)?;
        self.steps.sync_dir(&parent_of(&target)).map_err(&io)
    }
}
