//! A Caterva2 dataset whose `/api/fetch` serves no byte ranges (one it computes, or
//! holds inside a container: a 416 with `Accept-Ranges: none`), read as python-blosc2's
//! `C2Array` reads it: its metadata from `/api/info/PATH`, each chunk whole from
//! `/api/chunk/PATH?nchunk=N`. The array is opened as a sparse frame held in memory,
//! its header made from the metadata (the `b2nd` metalayer, the chunk and block sizes)
//! and its index naming chunk `N` file `N`, whose objects are the server's chunks
//! ([`Caterva2Chunks`]): each chunk's own header says how it decodes, so the values
//! are the chunks the server stores, decoded as any sparse frame's.

use std::format;
use std::string::{String, ToString};
use std::sync::Arc;
use std::vec::Vec;

use serde_json::Value;

use super::error::ArrayError;
use super::source::Frame;
use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};
use crate::dtype::Dtype;
use crate::frame::build::{offsets_chunk, NewHeader, Sizes};
use crate::frame::{self, ChunkLocation, FrameKind, StoredChunks, CONTENT_CAP};
use crate::io::{SharedSource, Storage};
use crate::meta::MetaB2ndV1;
use crate::remote::{Caterva2Chunks, Remote};

/// The dataset `remote` names, read by `/api/info` and `/api/chunk`.
pub(crate) fn open(remote: &Arc<Remote>) -> Result<Frame, ArrayError> {
    let io = |e: std::io::Error| ArrayError::from(frame::FrameError::io(None)(e));
    let info = remote.caterva2("info", "").map_err(io)?;
    let info: Value = serde_json::from_slice(&info)
        .map_err(|e| ArrayError::layout(format!("/api/info is not JSON: {e}")))?;
    let bytes = sparse_frame(&info)?;
    let header = frame::read_staged(&bytes[..], CONTENT_CAP)?;
    let objects: Arc<dyn Storage> = Arc::new(Caterva2Chunks::new(Arc::clone(remote)));
    let source: SharedSource = Arc::new(bytes);
    let chunks = StoredChunks::new(source, &header, Some(objects), None)?;
    Ok(Frame { header, chunks })
}

/// `/api/info`'s `key` (in `schunk`, in its `cparams`, as `path` says).
fn field<'v>(info: &'v Value, path: &[&str]) -> Result<&'v Value, ArrayError> {
    path.iter()
        .try_fold(info, |v, key| v.get(key))
        .ok_or_else(|| ArrayError::layout(format!("/api/info has no {}", path.join("."))))
}

/// An integer of `/api/info` that fits `T`.
fn int<T: TryFrom<i64>>(info: &Value, path: &[&str]) -> Result<T, ArrayError> {
    let v = field(info, path)?;
    v.as_i64()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| ArrayError::layout(format!("/api/info's {} is {v}", path.join("."))))
}

/// A list of integers of `/api/info` that fit `T`.
fn ints<T: TryFrom<i64>>(info: &Value, key: &str) -> Result<Vec<T>, ArrayError> {
    let v = field(info, &[key])?;
    let bad = || ArrayError::layout(format!("/api/info's {key} is {v}"));
    v.as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|n| n.as_i64().and_then(|n| T::try_from(n).ok()).ok_or_else(bad))
        .collect()
}

/// The sparse frame's `chunks.b2frame` (header, index, trailer) of the dataset
/// `/api/info` describes.
fn sparse_frame(info: &Value) -> Result<Vec<u8>, ArrayError> {
    let shape: Vec<i64> = ints(info, "shape")?;
    let chunks: Vec<i32> = ints(info, "chunks")?;
    let blocks: Vec<i32> = ints(info, "blocks")?;
    let dtype = field(info, &["dtype"])?
        .as_str()
        .ok_or_else(|| ArrayError::layout("/api/info's dtype is not a string".to_string()))?;
    // NumPy's name ("float64") or type string, as the metalayer holds it ("<f8").
    let dtype = Dtype::parse(dtype)
        .map_err(|e| ArrayError::layout(format!("/api/info's dtype {dtype:?}: {e}")))?;
    let meta = MetaB2ndV1::new(shape, chunks, blocks, dtype.to_string().as_str())
        .encode_to_vec()
        .map_err(|e| ArrayError::layout(format!("the b2nd metalayer does not encode: {e}")))?;
    let cparams = ["schunk", "cparams"];
    let param = |key: &'static str| [cparams[0], cparams[1], key];
    let filter_ids: Vec<u8> = ints(field(info, &cparams)?, "filters")?;
    let filter_metas: Vec<u8> = ints(field(info, &cparams)?, "filters_meta")?;
    let mut filters = [(Filter::None, 0); MAX_FILTERS];
    for (slot, (id, meta)) in filters.iter_mut().zip(filter_ids.iter().zip(&filter_metas)) {
        *slot = (Filter::from_id(*id), *meta);
    }
    let header = NewHeader {
        kind: FrameKind::Sparse,
        codec: Codec::from_id(int(info, &param("codec"))?),
        clevel: int(info, &param("clevel"))?,
        splitmode: SplitMode::from_id(int(info, &param("splitmode"))?),
        typesize: int(info, &param("typesize"))?,
        blocksize: int(info, &param("blocksize"))?,
        chunksize: int(info, &["schunk", "chunksize"])?,
        nthreads: 1,
        filters,
        metalayers: std::vec![(String::from("b2nd"), meta)],
    };
    let nchunks: u64 = int(info, &["schunk", "nchunks"])?;
    let mut sizes = Sizes {
        nbytes: int(info, &["schunk", "nbytes"])?,
        // The chunks' numbers are below it, as C requires of a sparse frame's.
        cbytes: int::<i64>(info, &["schunk", "cbytes"])?.max(nchunks as i64 + 32),
        frame_len: 0,
        has_vlmeta: false,
    };
    let header_len = header.to_bytes(&sizes)?.len() as u64;
    let locations: Vec<ChunkLocation> = (0..nchunks).map(ChunkLocation::File).collect();
    let index = offsets_chunk(&locations, header_len)?;
    let (trailer, _) = crate::vlmeta::new_trailer(&[])?;
    sizes.frame_len = header_len + (index.len() + trailer.len()) as u64;
    let mut bytes = header.to_bytes(&sizes)?;
    bytes.extend_from_slice(&index);
    bytes.extend_from_slice(&trailer);
    Ok(bytes)
}
