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

use super::entry::{Entry, EntryInfo, Role};
use super::error::ContainerError;
use super::kind::Kind;
use super::node::Location;
use super::opened::Container;
use crate::frame::VlMetalayer;
use crate::value::Value;

/// Where python-blosc2 keeps a group's attrs: `<group>/__vlmeta__` (root: `/__vlmeta__`).
pub const VLMETA_LEAF: &str = "__vlmeta__";

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
    c.node_info(key).ok()?.vlmeta_within(name, &c.budget)
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
        .info
        .as_ref()
        .and_then(|i| i.vlmeta_within("_object_registry", &c.budget));
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

/// The vlmetalayers of node `key` (none when its trailer does not read).
fn attrs_of(c: &Container, key: &str) -> Result<Vec<VlMetalayer>, ContainerError> {
    Ok(c.node_info(key)?
        .trailer
        .map(|t| t.vlmetalayers)
        .unwrap_or_default())
}

impl Container {
    /// What an entry is: a node's frame read, a group's attrs, a CTable's schema.
    pub fn entry_info(&self, entry: &Entry) -> Result<EntryInfo, ContainerError> {
        let c = self;

        match &entry.role {
            Role::Leaf => {
                let info = c.read_node(&entry.key, &entry.location)?;
                Ok(EntryInfo {
                    kind: info.kind.clone(),
                    detail: info.detail.clone(),
                    attrs: None,
                    node: Some(info),
                })
            }
            Role::Group { attrs } => Ok(EntryInfo {
                kind: Kind::Group,
                detail: None,
                attrs: attrs.as_deref().map(|k| attrs_of(c, k)).transpose()?,
                node: None,
            }),
            Role::Object { kind } => {
                let root = entry.key.as_str();
                let meta = attrs_of(c, &[root, "/_meta"].concat())?;
                let detail = Value::Map(
                    meta.iter()
                        .filter_map(|vl| {
                            let value = vl.value_within(&c.budget).ok()?;
                            Some((Value::Str(vl.name.clone()), value))
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
                    node: None,
                })
            }
        }
    }
}
