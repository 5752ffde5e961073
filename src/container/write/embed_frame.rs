//! The empty EmbedStore every new DictStore and TreeStore holds as `embed.b2e`, as
//! python-blosc2 4.14.1 writes it (`EmbedStore.__init__`): a contiguous SChunk without
//! chunks (typesize 1, 8 KiB chunks, zstd level 5 with shuffle, the store's marker
//! metalayer `b2dict` or `b2tree` = `{"version": 1}`), its vlmeta `estore_metadata` =
//! `{"embed_map": {}, "current_offset": 0}`.

use std::string::String;
use std::vec::Vec;

use crate::blosc::{Codec, Filter, SplitMode, MAX_FILTERS};
use crate::frame::build::{NewHeader, Sizes};
use crate::frame::FrameError;
use crate::frame::FrameKind;
use crate::value::Value;
use crate::vlmeta::{new_trailer, VlmetaChange};

/// The chunk size python's `SChunk()` gets by default.
const CHUNKSIZE: i32 = 8192;

fn str(s: &str) -> Value {
    Value::Str(s.into())
}

/// The bytes of an empty `embed.b2e` marked `marker` (`b2dict` or `b2tree`).
pub(crate) fn empty_embed(marker: &str) -> Result<Vec<u8>, FrameError> {
    let version = Value::Map(std::vec![(str("version"), Value::Int(1))]);
    let mut filters = [(Filter::None, 0); MAX_FILTERS];
    filters[MAX_FILTERS - 1] = (Filter::Shuffle, 0);
    let header = NewHeader {
        kind: FrameKind::Contiguous,
        codec: Codec::Zstd,
        clevel: 5,
        splitmode: SplitMode::Auto,
        typesize: 1,
        blocksize: 0,
        chunksize: CHUNKSIZE,
        nthreads: 1,
        filters,
        metalayers: std::vec![(String::from(marker), version_bytes(&version)?)],
    };
    let map = Value::Map(std::vec![
        (str("embed_map"), Value::Map(Vec::new())),
        (str("current_offset"), Value::Int(0)),
    ]);
    let trailer = new_trailer(&[VlmetaChange::set_value("estore_metadata", &map)?])?;
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
