//! A store's listing, as `show` prints it: the container's own record and one line per
//! entry, as JSON (the entry's key and location, its kind, the array's shape, chunks,
//! blocks and dtype, then its frame's report) or as a tree for a terminal.

use std::fmt::Write as _;

use b2nd_meta::chunk::DecodeBudget;
use b2nd_meta::container::{Container, Entry, EntryInfo, Kind, Location, NodeInfo};
use b2nd_meta::frame::ArrayInfo;
use b2nd_meta::value::Value;
use serde::Serialize;

use super::human::printable;
use super::report::{Options, Report, Vlmeta};
use super::{count, human};

/// A frame of a store (or a file of a kind python names): its kind, what names it
/// further, then its report.
#[derive(Serialize)]
pub struct NodeJson<'a> {
    kind: &'a Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a Value>,
    #[serde(flatten)]
    report: Report<'a>,
}

impl<'a> NodeJson<'a> {
    pub fn of(info: &'a NodeInfo, budget: &DecodeBudget) -> NodeJson<'a> {
        NodeJson {
            kind: &info.kind,
            detail: info.detail.as_ref(),
            report: report(info, budget),
        }
    }
}

/// The report on a store's node (labelled with where it lives).
fn report<'a>(info: &'a NodeInfo, budget: &DecodeBudget) -> Report<'a> {
    let label = info.frame.header_path.as_path();
    Report::of(
        label,
        &info.frame,
        info.trailer.as_ref(),
        Options::SHOW,
        budget,
    )
}

/// The container's own record: what it is, how many entries, what was left out, and
/// its own frame (a store's EmbedStore).
#[derive(Serialize)]
pub struct Record<'a> {
    path: String,
    kind: &'a Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<usize>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    frame: Option<NodeJson<'a>>,
}

impl<'a> Record<'a> {
    pub fn of(path: String, c: &'a Container, detail: Option<Value>) -> Record<'a> {
        Record {
            path,
            kind: &c.kind,
            entries: Some(c.entries().len()),
            notes: &c.notes,
            detail,
            frame: c.info.as_ref().map(|info| NodeJson::of(info, c.budget())),
        }
    }
}

/// One entry's line: its key and location, then what it is, or why it does not read.
#[derive(Serialize)]
pub struct Line<'a> {
    key: &'a str,
    location: &'a Location,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    info: Option<EntryJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl<'a> Line<'a> {
    pub fn of(
        entry: &'a Entry,
        info: &'a Result<EntryInfo, impl ToString>,
        budget: &DecodeBudget,
    ) -> Line<'a> {
        Line {
            key: &entry.key,
            location: &entry.location,
            info: info.as_ref().ok().map(|info| EntryJson::of(info, budget)),
            error: info.as_ref().err().map(ToString::to_string),
        }
    }
}

/// What an entry is: its kind, detail and attrs, the array's shape, chunks, blocks and
/// dtype, then its frame's report.
#[derive(Serialize)]
struct EntryJson<'a> {
    kind: &'a Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attrs: Option<Vlmeta>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    array: Option<Shapes<'a>>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    report: Option<Report<'a>>,
}

impl<'a> EntryJson<'a> {
    fn of(info: &'a EntryInfo, budget: &DecodeBudget) -> EntryJson<'a> {
        EntryJson {
            kind: &info.kind,
            detail: info.detail.as_ref(),
            attrs: info
                .attrs
                .as_deref()
                .map(|a| Vlmeta::of(a, Options::SHOW, budget)),
            array: info.array().map(Shapes::of),
            report: info.node.as_ref().map(|node| report(node, budget)),
        }
    }
}

/// An array node's shape, chunks, blocks and dtype, named as python-blosc2 names them.
#[derive(Serialize)]
struct Shapes<'a> {
    shape: &'a [i64],
    chunks: &'a [i32],
    blocks: &'a [i32],
    dtype: String,
}

impl<'a> Shapes<'a> {
    fn of(array: &'a ArrayInfo) -> Shapes<'a> {
        Shapes {
            shape: array.shape(),
            chunks: array.chunks(),
            blocks: array.blocks(),
            dtype: array.dtype_str(),
        }
    }
}

/// A single frame of a kind python names, for a terminal: its kind, then its summary.
pub fn frame_text(context: &str, info: &NodeInfo, budget: &DecodeBudget) -> String {
    let context = printable(context);
    let mut s = format!("{context}: {}", kind_line(&info.kind, info.detail.as_ref()));
    s.push('\n');
    s.push_str(&human::render(&report(info, budget)));
    s
}

/// A store's first line for a terminal: what it is, its entries, its embed store, its
/// root attrs (`root`: the `/__vlmeta__` node), its manifest and notes.
pub fn store_text(
    context: &str,
    c: &Container,
    root: Option<&NodeInfo>,
    detail: Option<&Value>,
) -> String {
    let entries = c.entries().len() as u64;
    let mut s = format!(
        "{}: {}, {}",
        printable(context),
        c.kind.name(),
        count(entries, "entry", "entries")
    );
    if let Some(info) = c.info.as_ref() {
        let f = &info.frame.header.info;
        let _ = write!(
            s,
            " (its embed store: {} in {}, {})",
            human::plural(f.nbytes.max(0) as u64, "byte"),
            human::plural(chunks(f.nbytes, f.chunksize).max(0) as u64, "chunk"),
            f.codec.name()
        );
    }
    if let Some(Ok(trailer)) = root.map(|r| r.trailer.as_ref()) {
        let attrs = Vlmeta::of(&trailer.vlmetalayers, Options::SHOW, c.budget());
        push_attrs(&mut s, &attrs, 1);
    }
    if let Some(detail) = detail {
        let _ = write!(s, "\n  manifest: {}", json(detail));
    }
    for note in &c.notes {
        let _ = write!(s, "\n  note: {}", printable(note));
    }
    s
}

/// Chunks of `chunksize` in `nbytes`, rounded up (0 for chunks of variable size).
fn chunks(nbytes: i64, chunksize: i32) -> i64 {
    match chunksize {
        c if c > 0 => (nbytes + i64::from(c) - 1) / i64::from(c),
        _ => 0,
    }
}

fn json(v: &impl Serialize) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The vlmeta of `info` that decoded within `budget`, as one value (a map).
pub fn vlmeta_value(info: &NodeInfo, budget: &DecodeBudget) -> Value {
    let layers = info.trailer.as_ref().map(|t| t.vlmetalayers.as_slice());
    Value::Map(
        layers
            .unwrap_or_default()
            .iter()
            .filter_map(|vl| {
                let value = vl.value_within(budget).ok()?;
                Some((Value::Str(vl.name.clone()), value))
            })
            .collect(),
    )
}

fn push_attrs(s: &mut String, vlmeta: &Vlmeta, depth: usize) {
    for (name, value) in &vlmeta.0 {
        let _ = write!(
            s,
            "\n{}attrs {}: {}",
            "  ".repeat(depth + 1),
            printable(name),
            json(value)
        );
    }
}

fn kind_line(kind: &Kind, detail: Option<&Value>) -> String {
    match (kind, detail) {
        (Kind::B2Object(_), Some(d)) => format!("{} {}", kind.name(), json(d)),
        _ => kind.name().to_owned(),
    }
}

/// One entry: in a TreeStore's tree (`tree`: the base depth) its last key component
/// indented by depth, elsewhere its whole key; its kind and, for an array, shape, dtype
/// and chunks; attrs indented below.
pub fn tree_line(
    entry: &Entry,
    info: &Result<EntryInfo, impl std::fmt::Display>,
    tree: Option<usize>,
    budget: &DecodeBudget,
) -> String {
    let (depth, name) = match tree {
        Some(base) => (
            entry.key.matches('/').count().saturating_sub(1) + base,
            entry.key.rsplit('/').next().unwrap_or(&entry.key),
        ),
        None => (1, entry.key.as_str()),
    };
    let indent = "  ".repeat(depth);
    let mut s = format!("{indent}{}", printable(name));
    let info = match info {
        Ok(info) => info,
        Err(e) => {
            let _ = write!(s, "  error: {}", printable(&e.to_string()));
            return s;
        }
    };
    if info.kind == Kind::Group {
        s.push('/');
    }
    let _ = write!(s, "  {}", kind_line(&info.kind, info.detail.as_ref()));
    if let Some(node) = &info.node {
        match &node.array {
            Some(array) => {
                let _ = write!(
                    s,
                    "  shape {}  dtype {}  chunks {}",
                    human::tuple(array.shape()),
                    array.dtype_str(),
                    human::tuple(array.chunks())
                );
            }
            None => {
                let f = &node.frame.header.info;
                let nbytes = human::plural(f.nbytes.max(0) as u64, "byte");
                let _ = write!(s, "  {nbytes}, typesize {}", f.typesize);
            }
        }
        if let Ok(trailer) = &node.trailer
            && !trailer.vlmetalayers.is_empty()
            && info.kind != Kind::Group
        {
            let attrs = Vlmeta::of(&trailer.vlmetalayers, Options::SHOW, budget);
            push_attrs(&mut s, &attrs, depth);
        }
    }
    if info.kind == Kind::CTable
        && let Some(schema) = info.detail.as_ref().and_then(|d| d.get("schema"))
    {
        let _ = write!(s, "\n{indent}    schema: {}", json(schema));
    }
    if let Some(attrs) = &info.attrs {
        push_attrs(&mut s, &Vlmeta::of(attrs, Options::SHOW, budget), depth);
    }
    s
}
