//! Opening what a path or a source holds: a frame file (read once, under its lock), a
//! sparse frame, a `.b2e`, a `.b2d` directory or a `.b2z` zip.

use std::borrow::ToOwned;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::string::String;
use std::sync::Arc;
use std::vec::Vec;

use super::embed::Embed;
use super::error::{ContainerError, ContainerErrorKind};
use super::kind::Kind;
use super::node::{Location, NodeInfo};
use super::opened::Container;
use super::store::{self, Found, EMBED_NAME};
use super::{node, tree, zip};
use crate::chunk::DecodeBudget;
use crate::frame::{Locking, Reach, Source};
use crate::io::{read_full_at, DirStorage, ReadAt, SharedSource, Storage, Window};
use crate::wire::marker::{FIXARRAY, FIXSTR};

/// Opens what `source` holds and says what it is: a frame's file, a sparse frame's or
/// a store's directory, a bundle, or the same held in memory ([`Source::bytes`]).
///
/// What opening decodes (a store's embed map, the registry of a TreeStore's objects)
/// and everything later read from the container (its store's chunks, each decoded
/// once; the vlmeta values its listing reads) is spent from the source's budget
/// ([`Source::budget`]; [`DecodeBudget::default`] unless given, [`Container::budget`]).
/// Past it, a node or a value is an error saying so
/// ([`OverBudget`](crate::chunk::OverBudget)), never a decode. A frame file is read
/// under the source's [`Locking`](crate::frame::Locking).
///
/// ```
/// use b2nd_meta::chunk::DecodeBudget;
/// use b2nd_meta::frame::Source;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/dict.b2z");
/// let store = b2nd_meta::container::open(path)?;
/// assert_eq!(store.kind.name(), "DictStore");
/// // No budget at all: the embed map is not decoded, so no embedded node is listed.
/// let store = b2nd_meta::container::open(Source::path(path).budget(DecodeBudget::new(0)))?;
/// assert!(store.notes.iter().any(|n| n.contains("decode budget")));
/// // The same bytes in memory.
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/containers/blosc2-4.14.1/objectarray.b2f")).unwrap();
/// assert_eq!(b2nd_meta::container::open(Source::bytes(bytes))?.kind.name(), "ObjectArray");
/// # Ok::<(), b2nd_meta::container::ContainerError>(())
/// ```
pub fn open(source: impl Into<Source>) -> Result<Container, ContainerError> {
    let source = source.into();
    let budget = source.budget_or_default();
    let path = match source.reach() {
        Reach::Path(path) => path,
        Reach::Shared(src, label) => {
            return open_source_within(src, label, true, budget).map_err(|e| e.in_file(label));
        }
    };
    let md = fs::metadata(path).map_err(|e| ContainerError::io(e).in_file(path))?;
    if md.is_dir() {
        return open_dir(path, budget, source.locking);
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
    if suffix_b2e || starts_as_frame(&file).map_err(|e| ContainerError::io(e).in_file(path))? {
        // A frame file: read as frame::open reads it (under its lock, its frame type
        // checked), from the file opened here, its trailer under the same lock.
        let (frame, trailer) = crate::frame::open_file(path, Some(file), true, source.locking)
            .map_err(|e| ContainerError::frame(e, 0).in_file(path))?;
        let trailer = trailer.unwrap_or_else(|| frame.trailer());
        let src = frame.bytes();
        let len = frame.file_len;
        let info = NodeInfo::of(frame, trailer);
        return Ok(of_frame(path, info, src, 0, len, budget));
    }
    open_source_within(Arc::new(file), path, true, budget).map_err(|e| e.in_file(path))
}

/// Whether `src` starts as a frame does: its msgpack fixarray and the magic's fixstr
/// (only what does not is looked at as a zip, whose directory is at its end).
fn starts_as_frame<S: ReadAt + ?Sized>(src: &S) -> std::io::Result<bool> {
    let mut magic = [0u8; 2];
    Ok(read_full_at(src, &mut magic, 0)? == 2 && magic == [FIXARRAY + 14, FIXSTR + 8])
}

/// Opens the frame at bytes `[start, start + len)` of `src` (a frame inside another
/// file, as `blosc2.open(path, offset=...)` does).
pub fn open_range(
    src: SharedSource,
    start: u64,
    len: u64,
    label: &Path,
) -> Result<Container, ContainerError> {
    open_range_within(src, start, len, label, DecodeBudget::default())
}

fn open_range_within(
    src: SharedSource,
    start: u64,
    len: u64,
    label: &Path,
    budget: DecodeBudget,
) -> Result<Container, ContainerError> {
    let window: SharedSource = Arc::new(Window::new(Arc::clone(&src), start, len));
    let info = node::full(window, len, label).map_err(|e| ContainerError::frame(e, start))?;
    Ok(of_frame(label, info, src, start, len, budget))
}

/// The container a frame at `[start, start + len)` of `src` makes, read as `info`: an
/// EmbedStore (by its marker metalayer), or a single frame.
fn of_frame(
    label: &Path,
    info: NodeInfo,
    src: SharedSource,
    start: u64,
    len: u64,
    budget: DecodeBudget,
) -> Container {
    if Kind::store_marker(&info.frame.header) == Some(Kind::EmbedStore) {
        let embed = Embed::of(Arc::clone(&src), start, len, &info, &budget);
        let kind = Kind::EmbedStore;
        return from_embed(label, kind, embed, info, Vec::new(), Some(src), budget);
    }
    single(label, info, budget)
}

/// Opens what `src` holds: a zip (when `zip_allowed` and it ends with a zip
/// directory) or a frame.
pub fn open_source(
    src: SharedSource,
    label: &Path,
    zip_allowed: bool,
) -> Result<Container, ContainerError> {
    open_source_within(src, label, zip_allowed, DecodeBudget::default())
}

fn open_source_within(
    src: SharedSource,
    label: &Path,
    zip_allowed: bool,
    budget: DecodeBudget,
) -> Result<Container, ContainerError> {
    let is_frame = starts_as_frame(&*src).map_err(ContainerError::io)?;
    if zip_allowed && !is_frame && zip::is_zip(&src) {
        return open_zip(src, label, budget);
    }
    let len = src.size().map_err(ContainerError::io)?;
    open_range_within(src, 0, len, label, budget)
}

fn not_regular(path: &Path) -> ContainerError {
    ContainerError::io(std::io::Error::other("not a regular file")).in_file(path)
}

fn single(label: &Path, info: NodeInfo, budget: DecodeBudget) -> Container {
    Container {
        path: label.to_path_buf(),
        kind: info.kind.clone(),
        info: Some(info),
        notes: Vec::new(),
        src: None,
        objects: None,
        embed: None,
        nodes: BTreeMap::new(),
        entries: Vec::new(),
        budget,
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

fn open_zip(
    src: SharedSource,
    label: &Path,
    budget: DecodeBudget,
) -> Result<Container, ContainerError> {
    let members = zip::members(&src)?;
    let embed_member = members.iter().find(|(name, _)| name == EMBED_NAME);
    let (embed, info) = match embed_member {
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
            Embed::open(Arc::clone(&src), m.offset, m.length, &embed_label, &budget)?
        }
    };
    let found = store::zip_leaves(&src, &members);
    let objects: Arc<dyn Storage> = Arc::new(zip::ZipStorage::new(Arc::clone(&src), label)?);
    store_container(label, embed, info, found, Some(src), Some(objects), budget)
}

fn open_dir(
    path: &Path,
    budget: DecodeBudget,
    locking: Locking,
) -> Result<Container, ContainerError> {
    let embed_path = path.join(EMBED_NAME);
    if !embed_path.exists() && path.join(crate::frame::SPARSE_HEADER_FILE).exists() {
        // A sparse frame.
        let (frame, trailer) = crate::frame::open_with_trailer(Source::path(path).locking(locking))
            .map_err(|e| ContainerError::frame(e, 0))?;
        return Ok(single(path, NodeInfo::of(frame, trailer), budget));
    }
    // python-blosc2 refuses a store directory without its embed store.
    let io = |e| ContainerError::io(e).in_file(&embed_path);
    if !fs::metadata(&embed_path).map_err(io)?.is_file() {
        return Err(not_regular(&embed_path));
    }
    let file = fs::File::open(&embed_path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let (embed, info) = Embed::open(Arc::new(file), 0, len, &embed_path, &budget)
        .map_err(|e| e.in_file(&embed_path))?;
    let objects: Arc<dyn Storage> = Arc::new(DirStorage::new(path));
    let found = store::walk(&*objects)?;
    store_container(path, embed, info, found, None, Some(objects), budget)
}

/// A DictStore or TreeStore from its EmbedStore and its leaves.
fn store_container(
    label: &Path,
    embed: Embed,
    info: NodeInfo,
    found: Vec<Found>,
    src: Option<SharedSource>,
    objects: Option<Arc<dyn Storage>>,
    budget: DecodeBudget,
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
    let mut c = from_embed(label, Kind::DictStore, embed, info, notes, src, budget);
    c.objects = objects;
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
    info: NodeInfo,
    mut notes: Vec<String>,
    src: Option<SharedSource>,
    budget: DecodeBudget,
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
        Err(note) => notes.push(note.clone()),
    }
    let mut c = Container {
        path: label.to_path_buf(),
        kind,
        info: Some(info),
        notes,
        src,
        objects: None,
        embed: Some(embed),
        nodes,
        entries: Vec::new(),
        budget,
    };
    c.entries = tree::raw_entries(&c);
    c
}
