//! An EmbedStore: an SChunk of bytes (marked `b2embed`, or `b2dict`/`b2tree` as the
//! `embed.b2e` of a store) whose data is whole serialized frames back to back; its
//! vlmeta `estore_metadata` = `{"embed_map": {key: {"offset", "length"} |
//! {"urlbase", "path"}}, "current_offset"}` says where each is (python-blosc2's
//! `embed_store.py`). A node's frame is read through the store's chunk index,
//! decoding only the chunks its header and trailer lie in, each once for all the nodes,
//! within the container's decode budget.

use std::format;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::sync::{Arc, Mutex, OnceLock};
use std::vec::Vec;

use super::embedded::{Embedded, StoreData};
use super::error::{ContainerError, ContainerErrorKind};
use super::node::{full, How, Location, NodeInfo};
use crate::chunk::DecodeBudget;
use crate::frame::{DataReader, FrameHeader};
use crate::io::{SharedSource, Window};
use crate::value::Value;

/// One entry of the embed map: a key, and where its frame is (or why the entry is not
/// what python-blosc2 writes).
pub(crate) type MapEntry = (String, Result<Location, String>);

/// An EmbedStore's frame: its header, its map, and its data on demand (its own
/// [`NodeInfo`] goes to the container).
pub(crate) struct Embed {
    src: SharedSource,
    /// Where the store's frame starts in `src`, and its length.
    start: u64,
    len: u64,
    pub(crate) label: PathBuf,
    pub(crate) header: FrameHeader,
    /// The map, in stored order; `Err` (the container's note) when `estore_metadata`
    /// is not a map holding an `embed_map` map, or is past the decode budget.
    pub(crate) map: Result<Vec<MapEntry>, String>,
    data: OnceLock<Result<StoreData, String>>,
    /// What its data's decodes are spent from (the container's).
    budget: DecodeBudget,
}

fn entry_location(value: &Value) -> Result<Location, String> {
    let int = |name: &str| -> Result<u64, String> {
        match value.get(name) {
            Some(Value::Int(i)) if *i >= 0 => Ok(*i as u64),
            Some(Value::UInt(u)) => Ok(*u),
            Some(other) => Err(format!(
                "{name:?} is {other:?}, expected a non-negative integer"
            )),
            None => Err(format!("no {name:?}")),
        }
    };
    if let Some(urlbase) = value.get("urlbase") {
        let path = value.get("path").and_then(Value::as_str);
        return match (urlbase.as_str(), path) {
            (Some(urlbase), Some(path)) => Ok(Location::Remote {
                urlbase: urlbase.to_string(),
                path: path.to_string(),
            }),
            _ => Err("a remote entry needs \"urlbase\" and \"path\" strings".into()),
        };
    }
    if !matches!(value, Value::Map(_)) {
        return Err(format!("expected a map, found {value:?}"));
    }
    Ok(Location::Embedded {
        offset: int("offset")?,
        length: int("length")?,
    })
}

/// The map from the `estore_metadata` value.
fn parse_map(metadata: Option<&Value>) -> Result<Vec<MapEntry>, String> {
    // python's _load_metadata: no estore_metadata, an empty store.
    let Some(metadata) = metadata else {
        return Ok(Vec::new());
    };
    let Some(Value::Map(pairs)) = metadata.get("embed_map") else {
        return Err("no \"embed_map\" map in it".into());
    };
    pairs
        .iter()
        .map(|(k, v)| match k.as_str() {
            Some(key) => Ok((
                key.to_string(),
                entry_location(v).map_err(|e| format!("embed map entry: {e}")),
            )),
            None => Err(format!("a key that is not a string: {k:?}")),
        })
        .collect()
}

/// The map from the store's own frame: its vlmeta `estore_metadata`, decoded within
/// `budget`; or the note saying why there is none.
fn map_of(info: &NodeInfo, budget: &DecodeBudget) -> Result<Vec<MapEntry>, String> {
    let not_pythons = |reason| ContainerErrorKind::EmbedMap { reason }.to_string();
    let trailer = match &info.trailer {
        Ok(trailer) => trailer,
        Err(e) => {
            return Err(not_pythons(format!(
                "the store's vlmeta does not read: {e}"
            )))
        }
    };
    match trailer
        .vlmetalayer("estore_metadata")
        .map(|vl| vl.value_within(budget))
    {
        // Not the file's fault: this call's budget.
        Some(Err(e)) if e.kind().is_over_budget() => {
            Err(format!("embed map (vlmeta estore_metadata) not read: {e}"))
        }
        Some(Err(e)) => Err(not_pythons(format!("estore_metadata does not decode: {e}"))),
        Some(Ok(value)) => parse_map(Some(&value)).map_err(not_pythons),
        None => parse_map(None).map_err(not_pythons),
    }
}

impl Embed {
    /// Reads the store frame at `[start, start + len)` of `src`: its header and trailer.
    pub(crate) fn open(
        src: SharedSource,
        start: u64,
        len: u64,
        label: &Path,
        budget: &DecodeBudget,
    ) -> Result<(Embed, NodeInfo), ContainerError> {
        let window: SharedSource = Arc::new(Window::new(Arc::clone(&src), start, len));
        let info = full(window, len, label).map_err(|e| ContainerError::frame(e, start))?;
        Ok((Embed::of(src, start, len, &info, budget), info))
    }

    /// The store whose frame, at `[start, start + len)` of `src`, was read as `info`;
    /// its map and data decoded within `budget`.
    pub(crate) fn of(
        src: SharedSource,
        start: u64,
        len: u64,
        info: &NodeInfo,
        budget: &DecodeBudget,
    ) -> Embed {
        Embed {
            src,
            start,
            len,
            label: info.frame.header_path.clone(),
            header: info.frame.header.clone(),
            map: map_of(info, budget),
            data: OnceLock::new(),
            budget: budget.clone(),
        }
    }

    /// Reads the frame of the node `key` at `[offset, offset + length)` of the data.
    pub(crate) fn describe_node<T>(
        &self,
        key: &str,
        offset: u64,
        length: u64,
        how: How<T>,
    ) -> Result<T, ContainerError> {
        let data = self.data.get_or_init(|| {
            let window = Window::new(Arc::clone(&self.src), self.start, self.len);
            DataReader::within(window, &self.header, self.budget.clone())
                .map(|data| Arc::new(Mutex::new(data)))
                .map_err(|e| ContainerError::frame(e, self.start).to_string())
        });
        let data = data.as_ref().map_err(|reason| {
            ContainerError::new(ContainerErrorKind::EmbedData {
                reason: reason.clone(),
            })
        })?;
        let available = data.lock().map(|d| d.nbytes()).map_err(|_| {
            ContainerError::new(ContainerErrorKind::EmbedData {
                reason: "its data reader failed before".into(),
            })
        })?;
        if offset.checked_add(length).is_none_or(|end| end > available) {
            return Err(ContainerError::new(ContainerErrorKind::NodeOutside {
                key: key.to_string(),
                offset,
                length,
                available,
            }));
        }
        let label = PathBuf::from(format!("{}#{key}", self.label.display()));
        let node: SharedSource = Arc::new(Embedded::new(Arc::clone(data), offset, length));
        how(node, length, &label).map_err(|e| ContainerError::frame(e, offset))
    }
}
