//! The `vlmeta` part of a [`Report`](super::Report): the frame's variable-length
//! metalayers (its trailer), each decoded to its msgpack value, or kept as raw bytes
//! with why it does not decode.

use std::string::{String, ToString};
use std::vec::Vec;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::{Hex, Options};
use crate::frame::{FrameError, Trailer, VlMetalayer};
use crate::value::Value;

/// One vlmetalayer: its value, or its stored chunk with why it does not decode.
///
/// ```
/// use b2nd_meta::report::{Report, VlmetaReport};
/// use b2nd_meta::value::Value;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/values/blosc2-4.14.1/vlmeta_small.b2nd");
/// let report = Report::of_path(path)?;
/// // python: arr.vlmeta["int"] = 42
/// assert!(matches!(report.vlmeta.get("int"), Some(VlmetaReport::Value(Value::Int(42)))));
/// assert_eq!(report.vlmeta_error, None);
/// # Ok::<(), b2nd_meta::frame::FrameError>(())
/// ```
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum VlmetaReport {
    /// The value, in the JSON mapping of [`crate::value`].
    Value(Value),
    /// A chunk that does not decode (a codec or filter not supported, a declared size
    /// over the decoder's limit, not msgpack).
    Raw(RawVlmeta),
}

/// A vlmetalayer's stored chunk that does not decode: `{"raw_hex", ("raw_len"), "error"}`.
#[derive(Debug, Clone, Serialize)]
pub struct RawVlmeta {
    /// The stored chunk as lowercase hex: all of it, or its first
    /// [`Options::hex_limit`] bytes.
    pub raw_hex: Hex,
    /// The chunk's full length, present only when `raw_hex` holds a prefix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_len: Option<u64>,
    /// Why it does not decode.
    pub error: String,
}

/// The vlmetalayers by name, in trailer order (a JSON object whose keys keep that order).
#[derive(Debug, Clone, Default)]
pub struct Vlmeta(pub Vec<(String, VlmetaReport)>);

impl Vlmeta {
    /// The vlmetalayer called `name`.
    pub fn get(&self, name: &str) -> Option<&VlmetaReport> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, m)| m)
    }

    /// The vlmetalayers of a trailer, or (empty, why) when it cannot be read.
    pub(super) fn of_trailer(
        trailer: Result<Trailer, FrameError>,
        options: Options,
    ) -> (Vlmeta, Option<String>) {
        match trailer {
            Ok(trailer) => {
                let layers = trailer
                    .vlmetalayers
                    .iter()
                    .map(|vl| (vl.name.clone(), VlmetaReport::of(vl, options)));
                (Vlmeta(layers.collect()), None)
            }
            Err(e) => (Vlmeta::default(), Some(e.to_string())),
        }
    }
}

impl VlmetaReport {
    /// The report on one vlmetalayer; its chunk is decoded within the decoder's limit
    /// ([`crate::chunk::DEFAULT_MAX_NBYTES`]), so memory stays bounded.
    fn of(vl: &VlMetalayer, options: Options) -> VlmetaReport {
        match vl.value() {
            Ok(value) => VlmetaReport::Value(value),
            Err(e) => {
                let len = vl.content.len();
                let (raw_hex, raw_len) = match options.hex_limit {
                    Some(limit) if len > limit => (
                        Hex::Bytes(vl.content.get(..limit).unwrap_or(&vl.content).to_vec()),
                        Some(len as u64),
                    ),
                    _ => (Hex::Bytes(vl.content.clone()), None),
                };
                VlmetaReport::Raw(RawVlmeta {
                    raw_hex,
                    raw_len,
                    error: e.to_string(),
                })
            }
        }
    }
}

impl Serialize for Vlmeta {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, layer) in &self.0 {
            map.serialize_entry(name, layer)?;
        }
        map.end()
    }
}
