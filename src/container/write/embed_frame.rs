//! The empty EmbedStore every new DictStore and TreeStore holds as `embed.b2e`, as
//! python-blosc2 4.14.1 writes it (`EmbedStore.__init__`): a contiguous SChunk without
//! chunks (typesize 1, 8 KiB chunks, zstd level 5 with shuffle, the store's marker
//! metalayer `b2dict` or `b2tree` = `{"version": 1}`), its vlmeta `estore_metadata` =
//! `{"embed_map": {}, "current_offset": 0}`; and the empty SChunk a TreeStore keeps its
//! vlmeta in (python's `blosc2.SChunk()`: 16 MiB chunks, no metalayer).

use std::string::String;
use std::vec::Vec;

use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};
use crate::frame::build::{NewHeader, Sizes};
use crate::frame::FrameError;
use crate::frame::FrameKind;
use crate::value::Value;
use crate::vlmeta::{new_trailer, VlmetaChange};

/// The chunk size python's `EmbedStore` gives its SChunk.
const CHUNKSIZE: i32 = 8192;
/// The chunk size of python's `blosc2.SChunk()`.
const SCHUNK_CHUNKSIZE: i32 = 16 << 20;

fn str(s: &str) -> Value {
    Value::Str(s.into())
}

/// The bytes of an empty `embed.b2e` marked `marker` (`b2dict` or `b2tree`).
pub(crate) fn empty_embed(marker: &str) -> Result<Vec<u8>, FrameError> {
    let version = Value::Map(std::vec![(str("version"), Value::Int(1))]);
    let map = Value::Map(std::vec![
        (str("embed_map"), Value::Map(Vec::new())),
        (str("current_offset"), Value::Int(0)),
    ]);
    empty_schunk(
        std::vec![(String::from(marker), version_bytes(&version)?)],
        CHUNKSIZE,
        &[VlmetaChange::set_value("estore_metadata", &map)?],
    )
}

/// The bytes of python's `blosc2.SChunk()` holding the vlmeta `changes` set.
pub(crate) fn empty_vlmeta_schunk(changes: &[VlmetaChange]) -> Result<Vec<u8>, FrameError> {
    empty_schunk(Vec::new(), SCHUNK_CHUNKSIZE, changes)
}

/// An SChunk without chunks (typesize 1, zstd level 5 with shuffle: python's
/// `CParams()`) of `chunksize`, with `metalayers` and the vlmeta `changes` set.
fn empty_schunk(
    metalayers: Vec<(String, Vec<u8>)>,
    chunksize: i32,
    changes: &[VlmetaChange],
) -> Result<Vec<u8>, FrameError> {
    let mut filters = [(Filter::None, 0); MAX_FILTERS];
    filters[MAX_FILTERS - 1] = (Filter::Shuffle, 0);
    let header = NewHeader {
        kind: FrameKind::Contiguous,
        codec: Codec::Zstd,
        clevel: 5,
        splitmode: SplitMode::Auto,
        typesize: 1,
        blocksize: 0,
        chunksize,
        nthreads: 1,
        filters,
        metalayers,
    };
    let trailer = new_trailer(changes)?;
    let mut sizes = Sizes {
        has_vlmeta: trailer.1,
        ..Sizes::default()
    };
    // The header's length does not depend on the sizes it holds.
    let header_len = header.to_bytes(&sizes)?.len() as u64;
    sizes.frame_len = header_len + trailer.0.len() as u64;
    let mut frame = header.to_bytes(&sizes)?;
    frame.extend_from_slice(&trailer.0);
    Ok(frame)
}

fn version_bytes(version: &Value) -> Result<Vec<u8>, FrameError> {
    VlmetaChange::set_value("version", version).map(|change| match change {
        VlmetaChange::Set { msgpack, .. } => msgpack,
        VlmetaChange::Delete { .. } => Vec::new(),
    })
}
