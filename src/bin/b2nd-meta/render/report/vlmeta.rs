//! The `vlmeta` part of a [`Report`](super::Report): the frame's variable-length
//! metalayers (its trailer), each decoded to its msgpack value, or kept as raw bytes
//! with why it does not decode.

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::frame::{FrameError, Trailer, VlMetalayer};
use b2nd_meta::value::Value;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::hex::Hex;
use super::options::Options;

/// One vlmetalayer: its value, or its stored chunk with why it does not decode.
#[derive(Serialize)]
#[serde(untagged)]
pub enum VlmetaReport {
    /// The value, in the JSON mapping of `b2nd_meta::value`.
    Value(Value),
    /// A chunk that does not decode (a codec or filter not supported, a declared size
    /// over the decoder's limit or past the command's decode budget, not msgpack).
    Raw(RawVlmeta),
}

/// A vlmetalayer's stored chunk that does not decode: `{"raw_hex", ("raw_len"), "error"}`.
#[derive(Serialize)]
pub struct RawVlmeta {
    /// The stored chunk as lowercase hex: all of it, or its first
    /// [`Options::hex_limit`] bytes.
    pub raw_hex: Hex<'static>,
    /// The chunk's full length, present only when `raw_hex` holds a prefix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw_len: Option<u64>,
    /// Why it does not decode.
    pub error: String,
}

/// The vlmetalayers by name, in trailer order (a JSON object whose keys keep that order).
#[derive(Default)]
pub struct Vlmeta(pub Vec<(String, VlmetaReport)>);

impl Vlmeta {
    /// The vlmetalayers of a trailer, or (empty, why) when it cannot be read.
    pub fn of_trailer(
        trailer: Result<&Trailer, &FrameError>,
        options: Options,
        budget: &DecodeBudget,
    ) -> (Vlmeta, Option<String>) {
        match trailer {
            Ok(trailer) => (Vlmeta::of(&trailer.vlmetalayers, options, budget), None),
            Err(e) => (Vlmeta::default(), Some(e.to_string())),
        }
    }

    /// These vlmetalayers, their values decoded within `budget`; of a name held twice,
    /// the first, as python-blosc2's `vlmeta.getall()` (C's lookups take it).
    pub fn of(vlmetalayers: &[VlMetalayer], options: Options, budget: &DecodeBudget) -> Vlmeta {
        let mut seen = std::collections::BTreeSet::new();
        let layers = vlmetalayers
            .iter()
            .filter(|vl| seen.insert(vl.name.as_str()))
            .map(|vl| (vl.name.clone(), VlmetaReport::of(vl, options, budget)));
        Vlmeta(layers.collect())
    }
}

impl VlmetaReport {
    /// The report on one vlmetalayer; its chunk is decoded within the decoder's limit
    /// (`b2nd_meta::chunk::DEFAULT_MAX_NBYTES`) and the command's budget, so memory
    /// stays bounded whatever the trailer holds.
    fn of(vl: &VlMetalayer, options: Options, budget: &DecodeBudget) -> VlmetaReport {
        match vl.value_within(budget) {
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
                let hint = match e.kind().is_over_budget() {
                    true => " (show --budget BYTES decodes more)",
                    false => "",
                };
                VlmetaReport::Raw(RawVlmeta {
                    raw_hex,
                    raw_len,
                    error: format!("{e}{hint}"),
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
