//! How a [`StoreWriter`] change reaches the files: a store made, a `.b2z` rewritten
//! whole, a `.b2d`'s member files and `embed.b2e` each staged and renamed in turn, a
//! `.b2e` rewritten whole; and the lock taken for the whole change.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use super::embed_frame::empty_embed;
use super::estore::{Change, OldEmbed};
use super::files::{copy_into, io_in, parent_of, refused, Layout, NodeFile};
use super::keys::check_tree_place;
use super::zip_out::ZipOut;
use super::StoreWriter;
use crate::container::store::EMBED_NAME;
use crate::container::{ContainerError, Location};
use crate::frame::lock::{lock_frame, open_locked, FrameLock};
use crate::frame::{FrameKind, Locking, Source};
use crate::io::{ReadAt, SharedSource, Staging, Window};

/// A new file at `path` (inside a staging directory), open for writing.
fn new_file(path: &Path, steps: &crate::io::Steps) -> std::io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    steps.open(&options, path)
}

/// A member put: its name, its source and length.
pub(super) type Add<'a> = Option<(&'a str, &'a dyn ReadAt, u64)>;

impl StoreWriter {
    /// The frame file of the store's EmbedStore (`None` in a zip).
    fn embed_file(&self) -> Option<PathBuf> {
        match self.layout {
            Layout::Zip => None,
            Layout::Dir => Some(self.path.join(EMBED_NAME)),
            Layout::Embed => Some(self.path.clone()),
        }
    }

    /// C-Blosc2's frame lock of the store's EmbedStore, when the protocol is in use
    /// (python's whole-store lock; a zip has none).
    pub(super) fn lock(&self) -> Result<Option<FrameLock>, ContainerError> {
        match self.embed_file() {
            None => Ok(None),
            Some(file) => lock_frame(&file, FrameKind::Contiguous, true, self.locking)
                .map_err(|e| ContainerError::frame(e, 0)),
        }
    }

    /// Where node `key` is now: its member (relative path), and whether the embed map
    /// holds it; in a TreeStore, a key where no leaf may be is refused.
    pub(super) fn where_is(&self, key: &str) -> Result<(Option<String>, bool), ContainerError> {
        // Read without the lock, which this change holds already (a second `flock` of
        // the sidecar, on another open file, would wait for this one).
        let opened = crate::container::open(Source::path(&self.path).locking(Locking::NEVER))?;
        let nodes: Vec<(String, Location)> = opened.nodes().map(|n| (n.key, n.location)).collect();
        let in_embed = self.embed()?.holds(key);
        if self.layout == Layout::Embed {
            return Ok((None, in_embed));
        }
        if self.tree {
            check_tree_place(key, nodes.iter().map(|(k, _)| k.as_str()))?;
        }
        let Some((_, location)) = nodes.iter().find(|(k, _)| k == key) else {
            return Ok((None, in_embed));
        };
        let member = match location {
            Location::ZipMember { name, .. } => Some(name.clone()),
            Location::External { path } => {
                let rel = path.strip_prefix(&self.path).unwrap_or(path);
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                Some(parts.join("/"))
            }
            Location::Invalid { reason } if !in_embed => {
                return Err(refused(std::format!(
                    "node {key:?} is not one this replaces or removes: {reason}"
                ))
                .in_file(&self.path))
            }
            _ => None,
        };
        Ok((member, in_embed))
    }

    /// In a TreeStore, refuses a key of the SChunks python keeps vlmeta in
    /// (`.../__vlmeta__`), as python refuses it: they change through
    /// [`StoreWriter::update_store_vlmeta`].
    pub(super) fn check_not_vlmeta(&self, key: &str) -> Result<(), ContainerError> {
        match self.tree && key.ends_with("/__vlmeta__") {
            true => Err(refused(std::format!(
                "{key:?} holds the TreeStore's vlmeta, which python does not give as a node; change it with update_store_vlmeta"
            ))
            .in_file(&self.path)),
            false => Ok(()),
        }
    }

    /// Whether `node` goes inside the EmbedStore.
    pub(super) fn embeds(&self, node: &NodeFile) -> bool {
        self.layout == Layout::Embed || (self.threshold > 0 && node.nbytes < self.threshold)
    }

    /// The store's EmbedStore as it is now.
    pub(super) fn embed(&self) -> Result<OldEmbed, ContainerError> {
        let path = &self.path;
        let io = io_in(path);
        let file = match self.embed_file() {
            Some(file) => file,
            None => {
                let zip = File::open(path).map_err(&io)?;
                let shared: SharedSource = Arc::new(zip);
                let members =
                    crate::container::zip::members(&shared).map_err(|e| e.in_file(path))?;
                let Some((_, member)) = members.into_iter().find(|(n, _)| n == EMBED_NAME) else {
                    return Err(refused(
                        "the zip has no embed.b2e: python-blosc2 would not open it",
                    )
                    .in_file(path));
                };
                let m = member.map_err(|e| e.in_file(path))?;
                let window: SharedSource = Arc::new(Window::new(shared, m.offset, m.length));
                return OldEmbed::read(window).map_err(|e| e.in_file(path));
            }
        };
        let opened = File::open(&file).map_err(io_in(&file))?;
        OldEmbed::read(Arc::new(opened)).map_err(|e| e.in_file(&file))
    }

    /// Makes the store at its path, where nothing is: empty, or holding `first`
    /// (inside its EmbedStore when `embedded`).
    pub(super) fn make_here(
        &self,
        first: Option<(&str, &NodeFile)>,
        embedded: bool,
    ) -> Result<(), ContainerError> {
        let path = &self.path;
        let marker = match (self.layout, self.tree) {
            (Layout::Embed, _) => "b2embed",
            (_, true) => "b2tree",
            (_, false) => "b2dict",
        };
        let empty = empty_embed(marker).map_err(|e| ContainerError::frame(e, 0).in_file(path))?;
        let embedded = embedded || self.layout == Layout::Embed;
        let (change, member) = match first {
            Some((key, node)) if embedded => (
                Change {
                    add: Some((key, &node.file as &dyn ReadAt, node.len)),
                    ..Change::default()
                },
                None,
            ),
            Some((key, node)) => (
                Change::default(),
                Some((
                    std::format!("{}{}", &key[1..], node.suffix),
                    &node.file as &dyn ReadAt,
                    node.len,
                )),
            ),
            None => (Change::default(), None),
        };
        let embed = OldEmbed::read(Arc::new(empty))?;
        let io = io_in(path);
        let steps = &self.steps;
        match self.layout {
            Layout::Embed => {
                let staging = Staging::file(path, None, steps).map_err(&io)?;
                let out = staging.file_handle();
                let len = embed.write(&change, out, 0, steps)?;
                steps.set_len(out, len).map_err(&io)?;
                staging.commit().map_err(&io)?;
            }
            Layout::Zip => {
                let staging = Staging::file(path, None, steps).map_err(&io)?;
                let mut zip = ZipOut::new(staging.file_handle(), steps);
                if let Some((member, src, len)) = &member {
                    zip.member(member, *src, 0, *len, None).map_err(&io)?;
                }
                let at = zip.data_at(EMBED_NAME);
                let len = embed.write(&change, staging.file_handle(), at, steps)?;
                zip.written(EMBED_NAME, len).map_err(&io)?;
                let len = zip.finish().map_err(&io)?;
                steps.set_len(staging.file_handle(), len).map_err(&io)?;
                staging.commit().map_err(&io)?;
            }
            Layout::Dir => {
                let staging = Staging::dir(path, steps).map_err(&io)?;
                let file = new_file(&staging.path().join(EMBED_NAME), steps).map_err(&io)?;
                embed.write(&change, &file, 0, steps)?;
                steps.sync_all(&file).map_err(&io)?;
                if let Some((member, src, len)) = &member {
                    let mut at = staging.path().to_path_buf();
                    let parts: Vec<&str> = member.split('/').collect();
                    for part in &parts[..parts.len() - 1] {
                        at.push(part);
                        steps.create_dir(&at).map_err(&io)?;
                    }
                    let file = new_file(&staging.path().join(member), steps).map_err(&io)?;
                    copy_into(&file, src, *len, steps).map_err(&io)?;
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
        Ok(())
    }

    /// One change: the member `drop` removed, `add` put, `change` made to the
    /// EmbedStore (with `dstore_tick` bumped when `locked`, in a `.b2d`).
    pub(super) fn apply(
        &self,
        drop: Option<&str>,
        add: Add<'_>,
        mut change: Change<'_>,
        locked: bool,
    ) -> Result<(), ContainerError> {
        match self.layout {
            Layout::Zip => self.rewrite_zip(drop, add, &change),
            Layout::Embed => self.rewrite_embed(&self.path, &change),
            Layout::Dir => {
                // In this order a reader sees the old node or the new one at every
                // instant, as an external leaf wins over an embedded one.
                if let Some((name, src, len)) = add {
                    self.put_file(name, src, len)?;
                }
                change.bump_tick = locked;
                if change.changes() {
                    self.rewrite_embed(&self.path.join(EMBED_NAME), &change)?;
                }
                match drop {
                    Some(old) => self.remove_file(old),
                    None => Ok(()),
                }
            }
        }
    }

    /// Writes the EmbedStore frame file `target` anew with `change`, staged beside it
    /// and renamed over it, under this crate's own lock on it.
    fn rewrite_embed(&self, target: &Path, change: &Change<'_>) -> Result<(), ContainerError> {
        let io = io_in(target);
        let held = open_locked(target, true, &self.locking)
            .map_err(|e| ContainerError::frame(e, 0).in_file(target))?;
        let old = OldEmbed::read(Arc::new(held.try_clone().map_err(&io)?))
            .map_err(|e| e.in_file(target))?;
        let like = held.metadata().ok();
        let staging = Staging::file(target, like.as_ref(), &self.steps).map_err(&io)?;
        let out = staging.file_handle();
        let len = old
            .write(change, out, 0, &self.steps)
            .map_err(|e| e.in_file(target))?;
        self.steps.set_len(out, len).map_err(&io)?;
        staging.commit().map_err(&io)
    }

    /// Writes the zip anew: its members but `drop`, then `add` (name, source, length),
    /// `embed.b2e` last (with `change`, if any); staged beside it and renamed over it.
    fn rewrite_zip(
        &self,
        drop: Option<&str>,
        add: Add<'_>,
        change: &Change<'_>,
    ) -> Result<(), ContainerError> {
        let path = &self.path;
        let io = io_in(path);
        let old = File::open(path).map_err(&io)?;
        let md = old.metadata().map_err(&io)?;
        let shared: SharedSource = Arc::new(old.try_clone().map_err(&io)?);
        let members = crate::container::zip::members(&shared).map_err(|e| e.in_file(path))?;
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
        match change.changes() {
            false => zip
                .member(
                    EMBED_NAME,
                    &old,
                    embed.offset,
                    embed.length,
                    Some(embed.crc32),
                )
                .map_err(&io)?,
            true => {
                let window: SharedSource =
                    Arc::new(Window::new(shared, embed.offset, embed.length));
                let estore = OldEmbed::read(window).map_err(|e| e.in_file(path))?;
                let at = zip.data_at(EMBED_NAME);
                let len = estore
                    .write(change, staging.file_handle(), at, &self.steps)
                    .map_err(|e| e.in_file(path))?;
                zip.written(EMBED_NAME, len).map_err(&io)?;
            }
        }
        let len = zip.finish().map_err(&io)?;
        self.steps
            .set_len(staging.file_handle(), len)
            .map_err(&io)?;
        staging.commit().map_err(&io)
    }

    /// Puts member `rel` of a `.b2d`: its directories made, the file staged and renamed.
    fn put_file(&self, rel: &str, src: &dyn ReadAt, len: u64) -> Result<(), ContainerError> {
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
