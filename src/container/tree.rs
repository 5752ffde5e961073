//! What a store lists ([`Entry`]) and what each entry is ([`EntryInfo`]): every node of
//! an EmbedStore or a DictStore; for a TreeStore, python-blosc2's `TreeStore.keys()`:
//! groups implicit in key prefixes (their attrs the vlmeta of a `<group>/__vlmeta__`
//! node, hidden), leaves, and object roots (CTables: registered in the embed store's
//! vlmeta `_object_registry`, or, when that is empty, found by a `<root>/_meta` node
//! whose vlmeta says `kind: "ctable"`), whose internal nodes are hidden.

use std::borrow::ToOwned;
use std::collections::BTreeSet;
use std::string::String;
use std::vec::Vec;

use serde::Serialize;

use super::{Container, ContainerError, Kind, Location};
use crate::report::{Report, Vlmeta, VlmetaReport};
use crate::value::Value;

/// Where python-blosc2 keeps a group's attrs: `<group>/__vlmeta__` (root: `/__vlmeta__`).
pub const VLMETA_LEAF: &str = "__vlmeta__";

/// One entry of a store's listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Its key.
    pub key: String,
    /// Where its frame lives ([`Location::Implicit`] for groups and object roots).
    pub location: Location,
    /// What it stands for.
    #[serde(skip)]
    pub role: Role,
}

/// What an entry stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// A node with a frame of its own.
    Leaf,
    /// A TreeStore group; `attrs` is the key of its `__vlmeta__` node, when it has one.
    Group {
        /// The node holding its attrs.
        attrs: Option<String>,
    },
    /// An object made of the nodes under its key (`kind` from the registry: `ctable`).
    Object {
        /// The registered kind.
        kind: String,
    },
}

/// What an entry is: its kind, what names it further (a `b2o` marker, a CTable's
/// manifest), its attrs (a group's or a CTable's), and its frame's report when it has
/// a frame.
#[derive(Debug, Clone, Serialize)]
pub struct EntryInfo {
    /// What python-blosc2 opens it as.
    pub kind: Kind,
    /// The `b2o` marker, or a CTable's `_meta` vlmeta (`kind`, `version`, `schema`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<Value>,
    /// A group's attrs (its `__vlmeta__` node's vlmeta) or a CTable's (its `_vlmeta`
    /// node's vlmeta); a frame's own attrs are its report's `vlmeta`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attrs: Option<Vlmeta>,
    /// The frame's report (nodes with a frame).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
}

/// Every node as an entry (EmbedStore, DictStore, CTable).
pub(crate) fn raw_entries(c: &Container) -> Vec<Entry> {
    c.nodes()
        .map(|n| Entry {
            key: n.key,
            location: n.location,
            role: Role::Leaf,
        })
        .collect()
}

/// The value of vlmetalayer `name` of node `key`, when it reads.
fn node_vlmeta(c: &Container, key: &str, name: &str) -> Option<Value> {
    c.node_info(key).ok()?.vlmeta(name).cloned()
}

/// Whether the store's root is a CTable (`/_meta` says `kind: "ctable"`): python's
/// `blosc2.open` then returns the CTable.
pub(crate) fn root_ctable(c: &Container) -> bool {
    c.nodes.contains_key("/_meta")
        && node_vlmeta(c, "/_meta", "kind")
            .as_ref()
            .and_then(Value::as_str)
            == Some("ctable")
}

/// The object roots and their kinds: the registry, else CTable manifests found.
fn object_roots(c: &Container) -> Vec<(String, String)> {
    let registry = c
        .embed
        .as_ref()
        .and_then(|e| e.info.vlmeta("_object_registry").cloned());
    if let Some(Value::Map(pairs)) = registry
        && !pairs.is_empty()
    {
        return pairs
            .iter()
            .filter_map(|(k, v)| {
                let kind = v.get("kind").and_then(Value::as_str).unwrap_or("object");
                Some((k.as_str()?.to_owned(), kind.to_owned()))
            })
            .collect();
    }
    c.nodes
        .keys()
        .filter_map(|k| k.strip_suffix("/_meta"))
        .filter(|root| !root.is_empty())
        .filter(|root| {
            let meta = [root, "/_meta"].concat();
            node_vlmeta(c, &meta, "kind")
                .as_ref()
                .and_then(Value::as_str)
                == Some("ctable")
        })
        .map(|root| (root.to_owned(), "ctable".to_owned()))
        .collect()
}

/// The entries of `c`: a TreeStore's keys() view, every node otherwise.
pub(crate) fn entries(c: &Container) -> Vec<Entry> {
    if c.kind != Kind::TreeStore {
        return raw_entries(c);
    }
    let roots = object_roots(c);
    let internal = |k: &str| {
        roots
            .iter()
            .any(|(r, _)| k != r && k.starts_with(r.as_str()) && k[r.len()..].starts_with('/'))
    };
    let mut keys: BTreeSet<String> = c
        .nodes
        .keys()
        .map(|k| {
            match k
                .strip_suffix(VLMETA_LEAF)
                .and_then(|g| g.strip_suffix('/'))
            {
                Some(group) => group.to_owned(),
                None => k.clone(),
            }
        })
        .filter(|k| !k.is_empty() && !internal(k))
        .collect();
    keys.extend(roots.iter().map(|(r, _)| r.clone()));
    let mut structural = BTreeSet::new();
    for key in &keys {
        let mut at = 0;
        while let Some(i) = key.get(at + 1..).and_then(|rest| rest.find('/')) {
            let prefix = &key[..at + 1 + i];
            if !keys.contains(prefix) {
                structural.insert(prefix.to_owned());
            }
            at += 1 + i;
        }
    }
    keys.extend(structural);
    keys.into_iter()
        .map(|key| {
            if let Some((_, kind)) = roots.iter().find(|(r, _)| *r == key) {
                return Entry {
                    key,
                    location: Location::Implicit,
                    role: Role::Object { kind: kind.clone() },
                };
            }
            if let Some(location) = c.nodes.get(&key) {
                return Entry {
                    key,
                    location: location.clone(),
                    role: Role::Leaf,
                };
            }
            let carrier = [key.as_str(), "/", VLMETA_LEAF].concat();
            let attrs = c.nodes.contains_key(&carrier).then_some(carrier);
            Entry {
                key,
                location: Location::Implicit,
                role: Role::Group { attrs },
            }
        })
        .collect()
}

/// The vlmeta of node `key`, as its report holds it.
fn attrs_of(c: &Container, key: &str) -> Result<Vlmeta, ContainerError> {
    Ok(c.node_info(key)?.report.vlmeta)
}

pub(crate) fn entry_info(c: &Container, entry: &Entry) -> Result<EntryInfo, ContainerError> {
    match &entry.role {
        Role::Leaf => {
            let info = c.read_node(&entry.key, &entry.location)?;
            Ok(EntryInfo {
                kind: info.kind,
                detail: info.detail,
                attrs: None,
                report: Some(info.report),
            })
        }
        Role::Group { attrs } => Ok(EntryInfo {
            kind: Kind::Group,
            detail: None,
            attrs: attrs.as_deref().map(|k| attrs_of(c, k)).transpose()?,
            report: None,
        }),
        Role::Object { kind } => {
            let root = entry.key.as_str();
            let meta = c.node_info(&[root, "/_meta"].concat())?.report.vlmeta;
            let detail = Value::Map(
                meta.0
                    .into_iter()
                    .filter_map(|(name, v)| match v {
                        VlmetaReport::Value(v) => Some((Value::Str(name), v)),
                        VlmetaReport::Raw(_) => None,
                    })
                    .collect(),
            );
            let user = [root, "/_vlmeta"].concat();
            let attrs = match c.nodes.contains_key(&user) {
                true => Some(attrs_of(c, &user)?),
                false => None,
            };
            Ok(EntryInfo {
                kind: if kind == "ctable" {
                    Kind::CTable
                } else {
                    Kind::B2Object(kind.clone())
                },
                detail: Some(detail),
                attrs,
                report: None,
            })
        }
    }
}
