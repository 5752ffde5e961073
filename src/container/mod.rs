//! Every file python-blosc2 4.x keeps arrays in: say what it is, and list the nodes
//! inside stores and bundles, reading only their index and each node's header and
//! trailer, never their data.
//!
//! [`open`] takes a path (a frame file, a sparse frame's directory, a `.b2e`
//! EmbedStore, a `.b2d` directory or a `.b2z` zip of a DictStore or a TreeStore);
//! [`open_bytes`] and [`open_source`] take a frame or a zip in memory or at a byte
//! range of a [`ReadAt`]. Stores are recognised as python-blosc2's `blosc2.open` does:
//! by the marker metalayer of their EmbedStore (`b2remote_store`, `b2embed`, `b2dict`,
//! `b2tree`), the marker winning over the suffix; a single frame by its metalayers in
//! `from_cframe`'s order ([`Kind::of_frame`]).
//!
//! ```
//! use b2nd_meta::container::{self, Kind};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/dict.b2z");
//! let store = container::open(path)?;
//! assert_eq!(store.kind, Kind::DictStore);
//! let keys: Vec<_> = store.entries().iter().map(|e| e.key.as_str()).collect();
//! assert_eq!(keys, ["/batches", "/dir1/big", "/dir1/dir2/sc", "/objs", "/tiny"]);
//! let big = store.entry_info(&store.entries()[1])?;
//! assert_eq!(big.kind, Kind::NDArray);
//! assert_eq!(big.report.as_ref().unwrap().array.as_ref().unwrap().dtype.str, "<i8");
//! # Ok::<(), container::ContainerError>(())
//! ```

mod embed;
mod embedded;
mod error;
mod kind;
mod node;
mod store;
mod tree;
mod zip;

use std::borrow::ToOwned;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::sync::Arc;
use std::vec::Vec;

pub use crate::io::ReadAt;
pub use error::{ContainerError, ContainerErrorKind};
pub use kind::Kind;
pub use node::{Location, Node, NodeInfo};
pub use store::{EMBED_NAME, LEAF_SUFFIXES};
pub use tree::{Entry, EntryInfo, Role};

use crate::io::Window;
use embed::Embed;
// The array reader (src/array) reads a node's frame through these.
pub(crate) use node::ReadSeek;
use store::Found;

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
    pub(crate) src: Option<Arc<dyn ReadAt + Send + Sync>>,
    embed: Option<Embed>,
    /// Every node, by key (DictStore's view: TreeStore groups are not nodes).
    nodes: BTreeMap<String, Location>,
    entries: Vec<Entry>,
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

/// Opens the file or directory at `path` and says what it is.
pub fn open(path: impl AsRef<Path>) -> Result<Container, ContainerError> {
    let path = path.as_ref();
    let md = fs::metadata(path).map_err(|e| ContainerError::io(e).in_file(path))?;
    if md.is_dir() {
        return open_dir(path);
    }
    if !md.is_file() {
        // A FIFO or a device: refused before anything is opened, as frame::open does.
        return match crate::frame::open(path) {
            Err(e) => Err(ContainerError::frame(e, 0)),
            Ok(_) => Err(not_regular(path)),
        };
    }
    let file = fs::File::open(path).map_err(|e| ContainerError::io(e).in_file(path))?;
    let suffix_b2e = path.to_string_lossy().ends_with(".b2e");
    open_source(Arc::new(file), path, !suffix_b2e).map_err(|e| e.in_file(path))
}

/// Opens a frame or a zip held in memory.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/objectarray.b2f"))?;
/// let c = b2nd_meta::container::open_bytes(&bytes)?;
/// assert_eq!(c.kind.name(), "ObjectArray");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn open_bytes(bytes: &[u8]) -> Result<Container, ContainerError> {
    open_source(Arc::new(bytes.to_vec()), Path::new("<bytes>"), true)
}

/// Opens the frame at bytes `[start, start + len)` of `src` (a frame inside another
/// file, as `blosc2.open(path, offset=...)` does).
pub fn open_range(
    src: Arc<dyn ReadAt + Send + Sync>,
    start: u64,
    len: u64,
    label: &Path,
) -> Result<Container, ContainerError> {
    let mut window = Window::new(Arc::clone(&src), start, len);
    let (header, info) =
        node::describe(&mut window, len, label).map_err(|e| ContainerError::frame(e, start))?;
    if Kind::store_marker(&header) == Some(Kind::EmbedStore) {
        let embed = Embed::open(src.clone(), start, len, label)?;
        return Ok(from_embed(
            label,
            Kind::EmbedStore,
            embed,
            Vec::new(),
            Some(src),
        ));
    }
    Ok(single(label, info))
}

/// Opens what `src` holds: a zip (when `zip_allowed` and it ends with a zip
/// directory) or a frame.
pub fn open_source(
    src: Arc<dyn ReadAt + Send + Sync>,
    label: &Path,
    zip_allowed: bool,
) -> Result<Container, ContainerError> {
    // A frame starts with its msgpack fixarray and the magic's fixstr; only what does
    // not is looked at as a zip (whose directory is at its end).
    let mut magic = [0u8; 2];
    let is_frame = src.read_at(&mut magic, 0).map_err(ContainerError::io)? == 2
        && magic
            == [
                crate::wire::marker::FIXARRAY + 14,
                crate::wire::marker::FIXSTR + 8,
            ];
    if zip_allowed && !is_frame && zip::is_zip(&src) {
        return open_zip(src, label);
    }
    let len = src.size().map_err(ContainerError::io)?;
    open_range(src, 0, len, label)
}

fn not_regular(path: &Path) -> ContainerError {
    ContainerError::io(std::io::Error::other("not a regular file")).in_file(path)
}

fn single(label: &Path, info: NodeInfo) -> Container {
    Container {
        path: label.to_path_buf(),
        kind: info.kind.clone(),
        info: Some(info),
        notes: Vec::new(),
        src: None,
        embed: None,
        nodes: BTreeMap::new(),
        entries: Vec::new(),
    }
}

/// The store kind a suffix implies, as python's `_store_from_extension`.
fn kind_by_suffix(path: &Path) -> Option<Kind> {
    let name = path.to_string_lossy();
    if name.ends_with(".b2d") {
        Some(Kind::DictStore)
    } else if name.ends_with(".b2z") {
        Some(Kind::TreeStore)
    } else if name.ends_with(".b2e") {
        Some(Kind::EmbedStore)
    } else {
        None
    }
}

fn open_zip(src: Arc<dyn ReadAt + Send + Sync>, label: &Path) -> Result<Container, ContainerError> {
    let members = zip::members(&src)?;
    let embed_member = members.iter().find(|(name, _)| name == EMBED_NAME);
    let embed = match embed_member {
        None => {
            return Err(ContainerError::new(ContainerErrorKind::Zip {
                reason: std::format!("no {EMBED_NAME} member: not a python-blosc2 store"),
            }));
        }
        Some((_, Err(e))) => {
            return Err(ContainerError::new(ContainerErrorKind::Zip {
                reason: std::format!("{EMBED_NAME}: {e}"),
            }));
        }
        Some((_, Ok(m))) if m.method != 0 => {
            return Err(ContainerError::new(ContainerErrorKind::Compressed {
                member: EMBED_NAME.to_owned(),
                method: m.method,
            }));
        }
        Some((_, Ok(m))) => {
            let embed_label = PathBuf::from(std::format!("{}#{EMBED_NAME}", label.display()));
            Embed::open(Arc::clone(&src), m.offset, m.length, &embed_label)?
        }
    };
    let found = store::zip_leaves(&src, &members);
    store_container(label, embed, found, Some(src))
}

fn open_dir(path: &Path) -> Result<Container, ContainerError> {
    let embed_path = path.join(EMBED_NAME);
    if !embed_path.exists() && path.join(crate::frame::SPARSE_HEADER_FILE).exists() {
        // A sparse frame.
        let frame = crate::frame::open(path).map_err(|e| ContainerError::frame(e, 0))?;
        let trailer = frame.trailer();
        let report = crate::report::Report::of_frame_and_trailer(
            path,
            &frame,
            trailer,
            crate::report::Options::SHOW,
        );
        let kind = Kind::of_frame(&frame.header);
        return Ok(single(
            path,
            NodeInfo {
                kind,
                detail: None,
                report,
            },
        ));
    }
    // python-blosc2 refuses a store directory without its embed store.
    let io = |e| ContainerError::io(e).in_file(&embed_path);
    if !fs::metadata(&embed_path).map_err(io)?.is_file() {
        return Err(not_regular(&embed_path));
    }
    let file = fs::File::open(&embed_path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let embed =
        Embed::open(Arc::new(file), 0, len, &embed_path).map_err(|e| e.in_file(&embed_path))?;
    let found = store::walk_dir(path)?;
    store_container(path, embed, found, None)
}

/// A DictStore or TreeStore from its EmbedStore and its leaves.
fn store_container(
    label: &Path,
    embed: Embed,
    found: Vec<Found>,
    src: Option<Arc<dyn ReadAt + Send + Sync>>,
) -> Result<Container, ContainerError> {
    let marker = Kind::store_marker(&embed.header);
    let mut notes = Vec::new();
    let mut leaves = Vec::new();
    for f in found {
        match f {
            Found::Leaf(key, location) => leaves.push((key, location)),
            Found::Skipped(note) => notes.push(note),
        }
    }
    let mut c = from_embed(label, Kind::DictStore, embed, notes, src);
    // An external leaf wins over an embedded node of the same key.
    for (key, location) in leaves {
        c.nodes.insert(key, location);
    }
    c.kind = match (marker, kind_by_suffix(label)) {
        (Some(Kind::EmbedStore), _) => {
            // python-blosc2 3.x marks the embed.b2e of every store `b2embed`; 4.x's
            // blosc2.open then takes the whole store for an EmbedStore and fails, its
            // DictStore and TreeStore classes read it. Nothing in it says which wrote
            // it but a TreeStore's attrs carriers (`__vlmeta__`).
            c.notes.push(
                "written by python-blosc2 3.x (its embed.b2e is marked b2embed): \
                 python-blosc2 4.x's blosc2.open refuses it, DictStore(path) and \
                 TreeStore(path) read it"
                    .into(),
            );
            if c.nodes.keys().any(|k| k.ends_with(tree::VLMETA_LEAF)) {
                Kind::TreeStore
            } else {
                Kind::DictStore
            }
        }
        (Some(k), _) => k,
        (None, Some(Kind::EmbedStore)) | (None, None) => Kind::DictStore,
        (None, Some(k)) => k,
    };
    c.entries = tree::entries(&c);
    if c.kind == Kind::TreeStore && tree::root_ctable(&c) {
        c.kind = Kind::CTable;
        c.entries = tree::raw_entries(&c);
    }
    Ok(c)
}

fn from_embed(
    label: &Path,
    kind: Kind,
    embed: Embed,
    mut notes: Vec<String>,
    src: Option<Arc<dyn ReadAt + Send + Sync>>,
) -> Container {
    let mut nodes = BTreeMap::new();
    match &embed.map {
        Ok(map) => {
            for (key, location) in map {
                let location = match location {
                    Ok(l) => l.clone(),
                    Err(reason) => Location::Invalid {
                        reason: reason.clone(),
                    },
                };
                nodes.insert(key.clone(), location);
            }
        }
        Err(reason) => notes.push(
            ContainerErrorKind::EmbedMap {
                reason: reason.clone(),
            }
            .to_string(),
        ),
    }
    let mut c = Container {
        path: label.to_path_buf(),
        kind,
        info: Some(embed.info.clone()),
        notes,
        src,
        embed: Some(embed),
        nodes,
        entries: Vec::new(),
    };
    c.entries = tree::raw_entries(&c);
    c
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

    fn read_node(&self, key: &str, location: &Location) -> Result<NodeInfo, ContainerError> {
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
            other => store::describe_leaf(self.src.as_ref(), key, other, &self.path, how),
        }
    }

    /// What an entry is: a node's frame read, a group's attrs, a CTable's schema.
    pub fn entry_info(&self, entry: &Entry) -> Result<EntryInfo, ContainerError> {
        tree::entry_info(self, entry)
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
