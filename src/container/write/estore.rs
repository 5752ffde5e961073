//! An EmbedStore's frame written anew with one change, as python-blosc2 4.14.1's
//! `EmbedStore` (`embed_store.py`) leaves it: the data an SChunk of bytes in chunks of
//! its `chunksize` (8 KiB) but the last, each node's frame appended at the end of the
//! data (`store[offset:offset + len] = frame`, the last partial chunk filled first), its
//! vlmeta `estore_metadata` = `{"embed_map": {key: {"offset", "length"}},
//! "current_offset"}`. A node removed leaves the map, its bytes stay where they are,
//! unreachable, as python leaves them (a replaced one: removed, then appended).
//!
//! The full chunks are copied as they are (not recompressed), the last partial one is
//! decoded and compressed again with the new bytes, with the store's own parameters
//! (its header's codec, level, filters, block size). The frame is written at an offset
//! of a file (a staging file, or a zip member's place in a staging zip): the caller
//! puts it in place.

use std::format;
use std::fs::File;
use std::string::String;
use std::vec::Vec;

use super::estore_data::Data;
use super::files::refused;
use crate::blosc::MAX_FILTERS;
use crate::chunk::{self, CParams, ChunkHeader, EXTENDED_HEADER_LEN};
use crate::container::ContainerError;
use crate::frame::build::{NewHeader, Sizes};
use crate::frame::{
    read_staged, read_trailer, ChunkIndex, ChunkLocation, DataReader, FrameError, FrameHeader,
    FrameKind, CONTENT_CAP,
};
use crate::io::{read_exact_at, read_vec_at, ReadAt, SharedSource, Steps};
use crate::value::Value;
use crate::vlmeta::{changed_trailer, VlmetaChange};

/// The vlmetalayer holding the map.
pub(crate) const METADATA: &str = "estore_metadata";
/// The vlmetalayer a locked python DictStore bumps (`_bump_store_tick`).
const TICK: &str = "dstore_tick";
/// The largest chunksize a store's data is rewritten with (python's is 8 KiB): a
/// chunk's bytes are held whole while it is compressed.
const MAX_CHUNKSIZE: u64 = 64 << 20;
/// Bytes of a node's frame read at a time.
const READ_BLOCK: usize = 1 << 20;

/// What one rewrite changes.
#[derive(Default)]
pub(crate) struct Change<'a> {
    /// A key whose entry goes.
    pub(crate) remove: Option<&'a str>,
    /// A node appended: its key and its frame (`len` bytes of the source from 0).
    pub(crate) add: Option<(&'a str, &'a dyn ReadAt, u64)>,
    /// A reference put: its key, and the remote array's `urlbase` and `path` (python's
    /// entry for a `C2Array`).
    pub(crate) reference: Option<(&'a str, &'a str, &'a str)>,
    /// Changes to the store's own vlmeta (`estore_metadata` is this module's).
    pub(crate) vlmeta: &'a [VlmetaChange],
    /// Whether the vlmetalayer `dstore_tick` goes up by one, as a locked python
    /// DictStore bumps it for a change other handles would not see otherwise.
    pub(crate) bump_tick: bool,
}

impl Change<'_> {
    /// Whether the store changes at all.
    pub(crate) fn changes(&self) -> bool {
        self.remove.is_some()
            || self.add.is_some()
            || self.reference.is_some()
            || !self.vlmeta.is_empty()
            || self.bump_tick
    }
}

/// An EmbedStore's frame as read for a change.
pub(crate) struct OldEmbed {
    src: SharedSource,
    header: FrameHeader,
    index: ChunkIndex,
    /// The trailer's vlmetalayers (name, stored chunk), in order.
    entries: Vec<(String, Vec<u8>)>,
    /// The map's pairs, in stored order, kept as they are.
    map: Vec<(Value, Value)>,
    current_offset: Value,
}

fn not_pythons(why: impl core::fmt::Display) -> ContainerError {
    refused(format!(
        "the EmbedStore is not one python-blosc2 writes, so it is not rewritten here: {why}"
    ))
}

fn frame_err(e: FrameError) -> ContainerError {
    ContainerError::frame(e, 0)
}

impl OldEmbed {
    /// Reads the EmbedStore frame `src` holds from its byte 0: its header, chunk index,
    /// trailer and map.
    pub(crate) fn read(src: SharedSource) -> Result<OldEmbed, ContainerError> {
        let header = read_staged(&*src, CONTENT_CAP).map_err(frame_err)?;
        if header.info.kind != FrameKind::Contiguous {
            return Err(not_pythons("its frame is not contiguous"));
        }
        if let Some(m) = header
            .metalayers
            .iter()
            .find(|m| m.content.len() != m.content_len as usize)
        {
            return Err(not_pythons(format!(
                "its metalayer {:?} holds {} bytes",
                m.name, m.content_len
            )));
        }
        let index = ChunkIndex::read(&*src, &header).map_err(frame_err)?;
        let trailer = read_trailer(&*src, &header).map_err(frame_err)?;
        let metadata = match trailer.vlmetalayer(METADATA) {
            Some(vl) => Some(vl.value().map_err(frame_err)?),
            None => None,
        };
        let (map, current_offset) = match &metadata {
            // python's _load_metadata: none, an empty store.
            None => (Vec::new(), Value::Int(0)),
            Some(value) => match (value.get("embed_map"), value.get("current_offset")) {
                (Some(Value::Map(map)), Some(offset)) => (map.clone(), offset.clone()),
                _ => {
                    return Err(not_pythons(
                        "its estore_metadata is not a map holding embed_map and current_offset",
                    ))
                }
            },
        };
        if let Some((k, _)) = map.iter().find(|(k, _)| k.as_str().is_none()) {
            return Err(not_pythons(format!("its map holds the key {k:?}")));
        }
        let entries = trailer
            .vlmetalayers
            .into_iter()
            .map(|m| (m.name, m.content))
            .collect();
        Ok(OldEmbed {
            src,
            header,
            index,
            entries,
            map,
            current_offset,
        })
    }

    /// Whether the map holds `key`.
    pub(crate) fn holds(&self, key: &str) -> bool {
        self.map.iter().any(|(k, _)| k.as_str() == Some(key))
    }

    /// Writes the store with `change` into `out` from `base`; its length.
    pub(crate) fn write(
        &self,
        change: &Change<'_>,
        out: &File,
        base: u64,
        steps: &Steps,
    ) -> Result<u64, ContainerError> {
        let info = &self.header.info;
        let nbytes = u64::try_from(info.nbytes).unwrap_or(0);
        let chunksize = u64::try_from(info.chunksize).unwrap_or(0);
        if chunksize == 0 || chunksize > MAX_CHUNKSIZE {
            return Err(not_pythons(format!(
                "its chunksize is {} (python's is 8192)",
                info.chunksize
            )));
        }
        if info.typesize != 1 {
            return Err(not_pythons(format!(
                "its typesize is {} (python's is 1: bytes)",
                info.typesize
            )));
        }
        let full = nbytes / chunksize;
        if self.index.locations.len() as u64 != nbytes.div_ceil(chunksize) {
            return Err(not_pythons(format!(
                "{} chunks for {nbytes} bytes of data",
                self.index.locations.len()
            )));
        }
        let mut filters = [(crate::blosc::Filter::None, 0); MAX_FILTERS];
        for (slot, f) in filters.iter_mut().enumerate() {
            *f = (info.filters[slot], info.filters_meta[slot]);
        }
        let header = NewHeader {
            kind: FrameKind::Contiguous,
            codec: info.codec,
            clevel: info.clevel,
            splitmode: info.splitmode,
            typesize: info.typesize,
            blocksize: info.blocksize,
            chunksize: info.chunksize,
            nthreads: info.nthreads_comp,
            filters,
            metalayers: self
                .header
                .metalayers
                .iter()
                .map(|m| (m.name.clone(), m.content.clone()))
                .collect(),
        };
        let header_len = header.to_bytes(&Sizes::default()).map_err(frame_err)?.len() as u64;
        let params = CParams {
            codec: info.codec,
            clevel: info.clevel,
            typesize: 1,
            blocksize: usize::try_from(info.blocksize).unwrap_or(0),
            splitmode: info.splitmode,
            filters,
        };
        let mut data = Data::new(out, base, steps, header_len, params, chunksize as usize);
        // The full chunks as they are, then the partial one's bytes.
        let data_end = u64::from(info.header_len).saturating_add(info.cbytes.max(0) as u64);
        for (n, location) in self.index.locations.iter().take(full as usize).enumerate() {
            match *location {
                ChunkLocation::Offset(at) => {
                    let raw = self.stored_chunk(at, data_end, n, chunksize)?;
                    data.stored(&raw)?;
                }
                ChunkLocation::Special(special) => {
                    data.locations.push(ChunkLocation::Special(special));
                    data.nbytes += chunksize;
                }
                ChunkLocation::File(_) => return Err(not_pythons("a chunk in a file")),
            }
        }
        if nbytes > full * chunksize {
            let mut reader =
                DataReader::new(SharedSource::clone(&self.src), &self.header).map_err(frame_err)?;
            let rest = (nbytes - full * chunksize) as usize;
            let tail = reader
                .read_range(full * chunksize, rest)
                .map_err(frame_err)?;
            data.push(&tail)?;
        }
        let mut map: Vec<(Value, Value)> = self
            .map
            .iter()
            .filter(|(k, _)| {
                let k = k.as_str();
                k != change.remove
                    && k != change.add.map(|a| a.0)
                    && k != change.reference.map(|r| r.0)
            })
            .cloned()
            .collect();
        let mut current_offset = self.current_offset.clone();
        if let Some((key, file, len)) = change.add {
            let offset = data.nbytes;
            let io = |e| ContainerError::io(e);
            let mut block = std::vec![0u8; READ_BLOCK.min(len as usize)];
            let mut done = 0u64;
            while done < len {
                let n = (len - done).min(block.len() as u64) as usize;
                read_exact_at(file, &mut block[..n], done).map_err(io)?;
                data.push(&block[..n])?;
                done += n as u64;
            }
            let entry = Value::Map(std::vec![
                (Value::Str("offset".into()), int(offset)),
                (Value::Str("length".into()), int(len)),
            ]);
            map.push((Value::Str(key.into()), entry));
            current_offset = int(offset + len);
        }
        if let Some((key, urlbase, path)) = change.reference {
            let entry = Value::Map(std::vec![
                (Value::Str("urlbase".into()), Value::Str(urlbase.into())),
                (Value::Str("path".into()), Value::Str(path.into())),
            ]);
            map.push((Value::Str(key.into()), entry));
        }
        data.flush()?;
        let metadata = Value::Map(std::vec![
            (Value::Str("embed_map".into()), Value::Map(map)),
            (Value::Str("current_offset".into()), current_offset),
        ]);
        let mut changes =
            std::vec![VlmetaChange::set_value(METADATA, &metadata).map_err(frame_err)?];
        changes.extend_from_slice(change.vlmeta);
        if change.bump_tick {
            let tick = self.vlmeta_value(TICK).map_or(Ok(0), |v| match v {
                Value::Int(n) => Ok(n),
                other => Err(not_pythons(format!(
                    "its {TICK} is {other:?}, not an integer"
                ))),
            })?;
            let next = Value::Int(tick.saturating_add(1));
            changes.push(VlmetaChange::set_value(TICK, &next).map_err(frame_err)?);
        }
        let trailer = changed_trailer(self.entries.clone(), &changes).map_err(frame_err)?;
        data.finish(&header, header_len, &trailer)
    }

    /// The value of vlmetalayer `name`, when it is there and decodes.
    fn vlmeta_value(&self, name: &str) -> Option<Value> {
        let (_, stored) = self.entries.iter().find(|(n, _)| n == name)?;
        let bytes = chunk::decode(stored, &chunk::DecodeBudget::default()).ok()?;
        Value::from_msgpack(&bytes).ok()
    }

    /// The stored bytes of full chunk `n` at `at`, which must end by `data_end` and
    /// hold `chunksize` bytes.
    fn stored_chunk(
        &self,
        at: u64,
        data_end: u64,
        n: usize,
        chunksize: u64,
    ) -> Result<Vec<u8>, ContainerError> {
        let io = |e| ContainerError::io(e);
        let head_len = (EXTENDED_HEADER_LEN as u64).min(data_end.saturating_sub(at)) as usize;
        let mut head = [0u8; EXTENDED_HEADER_LEN];
        read_exact_at(&*self.src, &mut head[..head_len], at).map_err(io)?;
        let chunk = ChunkHeader::parse(&head[..head_len])
            .map_err(|e| not_pythons(format!("chunk {n}: {e}")))?;
        let cbytes = u64::from(chunk.cbytes);
        if u64::from(chunk.nbytes) != chunksize || at.saturating_add(cbytes) > data_end {
            return Err(not_pythons(format!(
                "chunk {n} holds {} bytes in {cbytes} at {at}, past the data or not a full chunk",
                chunk.nbytes
            )));
        }
        let raw = read_vec_at(&*self.src, at, cbytes as usize).map_err(io)?;
        if raw.len() as u64 != cbytes {
            return Err(not_pythons(format!("chunk {n} is cut short")));
        }
        Ok(raw)
    }
}

/// `n` as python's msgpack writes an int.
fn int(n: u64) -> Value {
    i64::try_from(n).map_or(Value::UInt(n), Value::Int)
}
