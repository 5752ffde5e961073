//! What a frame holds, by its metalayers, in the order python-blosc2's `from_cframe`
//! tries them (`b2embed`, `listarray`, `batcharray`, `vlarray`, `b2o`, then an array
//! metalayer, else a plain SChunk); and the stores, by the marker metalayer of their
//! `embed.b2e` (`b2remote_store`, `b2embed`, `b2dict`, `b2tree`).

use std::borrow::ToOwned;
use std::string::String;

use serde::Serialize;

use crate::frame::FrameHeader;
use crate::value::Value;

/// What a file, a frame or a node is, named as python-blosc2 names the class it opens
/// it as ([`Kind::name`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// An n-dimensional array (`b2nd` or `caterva` metalayer).
    NDArray,
    /// A plain super-chunk.
    SChunk,
    /// An `EmbedStore` (`b2embed`): frames concatenated in one SChunk's data.
    EmbedStore,
    /// A `DictStore` (`b2dict`): `.b2d` directory or `.b2z` zip.
    DictStore,
    /// A `TreeStore` (`b2tree`): a DictStore whose keys form groups.
    TreeStore,
    /// A `RemoteStore` artifact (`b2remote_store`): recognised, not read further.
    RemoteStore,
    /// A `CTable`: a TreeStore (or a subtree) whose `_meta` says `kind: "ctable"`.
    CTable,
    /// A group of a TreeStore: a key prefix of other keys.
    Group,
    /// A `ListArray` (`listarray`, over a BatchArray or an ObjectArray).
    ListArray,
    /// A `BatchArray` (`batcharray`): variable-length batches.
    BatchArray,
    /// An `ObjectArray` (`vlarray`): one msgpack object per chunk.
    ObjectArray,
    /// A `b2o` object carrier: an NDArray with no data whose vlmeta `b2o` holds the
    /// object; the marker's `kind` (`lazyexpr`, `lazyudf`, `remote_array`, `c2array`).
    B2Object(String),
    /// A `Proxy` cache (`proxy-source` metalayer: the source it caches).
    Proxy,
    /// A LazyArray saved by python-blosc2 3.x (`LazyArray` metalayer, vlmeta
    /// `_LazyArray`).
    LazyArray,
}

impl Kind {
    /// The name python-blosc2 gives what it opens: its class name (`"NDArray"`,
    /// `"EmbedStore"`, `"LazyExpr"` for a `b2o` of kind `lazyexpr`, ...), `"group"` for
    /// a TreeStore group.
    ///
    /// ```
    /// use b2nd_meta::container::Kind;
    ///
    /// assert_eq!(Kind::B2Object("lazyudf".into()).name(), "LazyUDF");
    /// assert_eq!(Kind::ObjectArray.name(), "ObjectArray");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            Kind::NDArray => "NDArray",
            Kind::SChunk => "SChunk",
            Kind::EmbedStore => "EmbedStore",
            Kind::DictStore => "DictStore",
            Kind::TreeStore => "TreeStore",
            Kind::RemoteStore => "RemoteStore",
            Kind::CTable => "CTable",
            Kind::Group => "group",
            Kind::ListArray => "ListArray",
            Kind::BatchArray => "BatchArray",
            Kind::ObjectArray => "ObjectArray",
            Kind::B2Object(kind) => match kind.as_str() {
                "lazyexpr" => "LazyExpr",
                "lazyudf" => "LazyUDF",
                "remote_array" | "c2array" => "C2Array",
                _ => "b2o",
            },
            Kind::Proxy => "Proxy",
            Kind::LazyArray => "LazyExpr",
        }
    }

    /// What a frame holds, by its metalayers, as `blosc2.from_cframe` decides (then
    /// `proxy-source`, which `blosc2.open` also knows).
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/frame/contiguous.b2nd");
    /// let frame = b2nd_meta::frame::open(path)?;
    /// assert_eq!(b2nd_meta::container::Kind::of_frame(&frame.header).name(), "NDArray");
    /// # Ok::<(), b2nd_meta::frame::FrameError>(())
    /// ```
    pub fn of_frame(header: &FrameHeader) -> Kind {
        let has = |name: &str| header.metalayer(name).is_some();
        if has("b2embed") {
            Kind::EmbedStore
        } else if has("listarray") {
            Kind::ListArray
        } else if has("batcharray") {
            Kind::BatchArray
        } else if has("vlarray") {
            Kind::ObjectArray
        } else if let Some(m) = header.metalayer("b2o") {
            // python: marker.get("kind", "b2o") when the marker is a dict.
            let kind = Value::from_msgpack(&m.content)
                .ok()
                .and_then(|v| v.get("kind").and_then(Value::as_str).map(ToOwned::to_owned))
                .unwrap_or_else(|| "b2o".to_owned());
            Kind::B2Object(kind)
        } else if has("proxy-source") {
            // blosc2.open's process_opened_object checks it first; from_cframe never.
            Kind::Proxy
        } else if has("LazyArray") {
            Kind::LazyArray
        } else if header.array_metalayer().is_some() {
            Kind::NDArray
        } else {
            Kind::SChunk
        }
    }

    /// The metalayers that name a kind further (the first present is a node's
    /// `detail`): `b2o` (the object), `proxy-source` (the source a Proxy caches),
    /// `ctable_varlen_scalar` (the CTable column a BatchArray or ObjectArray backs).
    pub const DETAIL_METALAYERS: [&'static str; 3] =
        ["b2o", "proxy-source", "ctable_varlen_scalar"];

    /// The store a frame marks (an `embed.b2e`, or a `.b2e` file), by the marker
    /// metalayer python-blosc2's `_open_special_store` looks for first.
    pub fn store_marker(header: &FrameHeader) -> Option<Kind> {
        let has = |name: &str| header.metalayer(name).is_some();
        if has("b2remote_store") {
            Some(Kind::RemoteStore)
        } else if has("b2embed") {
            Some(Kind::EmbedStore)
        } else if has("b2dict") {
            Some(Kind::DictStore)
        } else if has("b2tree") {
            Some(Kind::TreeStore)
        } else {
            None
        }
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
