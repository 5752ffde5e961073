//! `show` on stores, bundles and the object kinds: the container's own record, then one
//! JSON line per entry with its `"key"`; `--human` draws a tree (key, kind, shape,
//! dtype, chunks) with attrs indented; `show PATH --key KEY` shows one node.

use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};

use b2nd_meta::container::{self, Container, Entry, EntryInfo, Kind, NodeInfo};
use b2nd_meta::report::{MetalayerReport, Vlmeta, VlmetaReport};
use serde::Serialize;

use crate::{emit, emit_json, human, report, Fatal};

/// Whether `show` hands `path` to this module: a store or bundle, or a frame of a kind
/// python-blosc2 names (everything but a plain NDArray or SChunk, which `show` prints as
/// it always has). `None` when it does not open as a container at all.
pub fn open(path: &Path) -> Option<Container> {
    // A frame of a plain array or SChunk stays with show's frame path, decided from its
    // header alone (no second read of its trailer).
    if let Ok(frame) = b2nd_meta::frame::open(path) {
        let kind = Kind::of_frame(&frame.header);
        if matches!(kind, Kind::NDArray | Kind::SChunk) {
            return None;
        }
    }
    let c = container::open(path).ok()?;
    (!matches!(c.kind, Kind::NDArray | Kind::SChunk)).then_some(c)
}

/// `show PATH --key KEY...`: the nodes `keys` of the one store or bundle `paths` holds,
/// one line each; `Ok(false)` when PATH is not a store or a key is not in it (each said
/// on stderr).
pub fn show_keys(
    out: &mut impl Write,
    paths: &[PathBuf],
    keys: &[String],
    human: bool,
) -> Result<bool, Fatal> {
    let [path] = paths else {
        return Err(crate::fatal(
            "show",
            format!(
                "--key names a node of one store or bundle: expected one PATH, found {}",
                paths.len()
            ),
        ));
    };
    let context = path.to_string_lossy().into_owned();
    let c = match container::open(path) {
        Ok(c) if is_store(&c.kind) => c,
        Ok(c) => {
            report(
                &context,
                &format!(
                    "this {} holds no nodes: --key names a node of a store or bundle \
                     (.b2e, .b2d, .b2z)",
                    c.kind.name()
                ),
            );
            return Ok(false);
        }
        Err(e) => {
            report(&context, &e.to_string());
            return Ok(false);
        }
    };
    let mut all_ok = true;
    for key in keys {
        all_ok &= show(out, path, &c, Some(key), human)?;
    }
    Ok(all_ok)
}

/// After `path` failed to show following the store `store`: when `path` looks like one
/// of its keys, says how to show it (`show STORE KEY` is not a form: `path` is a path).
pub fn hint_key(store: &Path, path: &Path) {
    let key = path.to_string_lossy();
    if key.starts_with('/') && !path.exists() {
        report(
            &key,
            &format!(
                "to show the node {key} of {}, run: b2nd-meta show {} --key {key}",
                store.display(),
                store.display()
            ),
        );
    }
}

/// The container's own record: what it is, how many entries, what was left out, and
/// its own frame (a store's EmbedStore).
#[derive(Serialize)]
struct Record<'a> {
    path: String,
    kind: &'a Kind,
    #[serde(skip_serializing_if = "Option::is_none")]
    entries: Option<usize>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<b2nd_meta::value::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    frame: Option<&'a NodeInfo>,
}

/// One entry's line: its key and location, then what it is, or why it does not read.
#[derive(Serialize)]
struct Line<'a> {
    key: &'a str,
    location: &'a container::Location,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    info: Option<&'a EntryInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

fn is_store(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::EmbedStore | Kind::DictStore | Kind::TreeStore | Kind::CTable | Kind::RemoteStore
    )
}

/// Shows `c` (or its node `key`); `Ok(false)` when any entry did not read (each one
/// also said on stderr).
pub fn show(
    out: &mut impl Write,
    path: &Path,
    c: &Container,
    key: Option<&str>,
    human: bool,
) -> Result<bool, Fatal> {
    let context = path.to_string_lossy().into_owned();
    if let Some(key) = key {
        let Some(entry) = c.find(key) else {
            report(
                &context,
                &format!("no node {key:?} in this {}", c.kind.name()),
            );
            return Ok(false);
        };
        let one = std::slice::from_ref(&entry);
        return show_entries(out, &context, c, one, human, None);
    }
    if !is_store(&c.kind) {
        // A single frame of a kind python names: its report, with the kind.
        let Some(info) = &c.info else {
            return Ok(true);
        };
        if human {
            let mut s = format!("{context}: {}", kind_line(&info.kind, info.detail.as_ref()));
            s.push('\n');
            s.push_str(&human::render(&info.report));
            emit(out, &s)?;
        } else {
            emit_json(out, info)?;
        }
        return Ok(true);
    }
    let detail = (c.kind == Kind::CTable)
        .then(|| c.node_info("/_meta").ok())
        .flatten()
        .map(|m| vlmeta_value(&m.report.vlmeta));
    if human {
        let mut s = format!(
            "{context}: {}, {} entries",
            c.kind.name(),
            c.entries().len()
        );
        if let Some(info) = c.info.as_ref() {
            let f = &info.report.frame;
            let _ = write!(
                s,
                " (its embed store: {} bytes in {} chunks, {})",
                f.nbytes,
                info_chunks(f.nbytes, f.chunksize),
                f.codec
            );
        }
        if let Some(root) = c.find("/__vlmeta__")
            && let Ok(info) = c.node_info(&root.key)
        {
            push_attrs(&mut s, &info.report.vlmeta, 1);
        }
        if let Some(detail) = &detail {
            let _ = write!(s, "\n  manifest: {}", json(detail));
        }
        for note in &c.notes {
            let _ = write!(s, "\n  note: {note}");
        }
        emit(out, &s)?;
    } else {
        emit_json(
            out,
            &Record {
                path: context.clone(),
                kind: &c.kind,
                entries: Some(c.entries().len()),
                notes: &c.notes,
                detail,
                frame: c.info.as_ref(),
            },
        )?;
    }
    let tree = (c.kind == Kind::TreeStore).then_some(1);
    show_entries(out, &context, c, c.entries(), human, tree)
}

fn info_chunks(nbytes: i64, chunksize: i32) -> i64 {
    match chunksize {
        c if c > 0 => (nbytes + i64::from(c) - 1) / i64::from(c),
        _ => 0,
    }
}

fn show_entries(
    out: &mut impl Write,
    context: &str,
    c: &Container,
    entries: &[Entry],
    human: bool,
    tree: Option<usize>,
) -> Result<bool, Fatal> {
    let pipe = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::BrokenPipe => Fatal::BrokenPipe,
        _ => crate::fatal("stdout", e),
    };
    // One buffer for every line: a store's listing is one output, written in 64 KiB
    // writes rather than one write (and one buffer) per line.
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut ok = true;
    for entry in entries {
        let info = c.entry_info(entry);
        if let Err(e) = &info {
            report(context, &format!("node {:?}: {e}", entry.key));
            ok = false;
        }
        if human {
            writeln!(buffered, "{}", tree_line(entry, &info, tree)).map_err(pipe)?;
        } else {
            let line = Line {
                key: &entry.key,
                location: &entry.location,
                info: info.as_ref().ok(),
                error: info.as_ref().err().map(ToString::to_string),
            };
            serde_json::to_writer(&mut buffered, &line).map_err(|e| match e.io_error_kind() {
                Some(std::io::ErrorKind::BrokenPipe) => Fatal::BrokenPipe,
                _ => crate::fatal("stdout", e),
            })?;
            buffered.write_all(b"\n").map_err(pipe)?;
        }
    }
    buffered.flush().map_err(pipe)?;
    Ok(ok)
}

fn json(v: &impl Serialize) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The vlmeta that decoded, as one value (a map).
fn vlmeta_value(vlmeta: &Vlmeta) -> b2nd_meta::value::Value {
    use b2nd_meta::value::Value;
    Value::Map(
        vlmeta
            .0
            .iter()
            .filter_map(|(k, v)| match v {
                VlmetaReport::Value(v) => Some((Value::Str(k.clone()), v.clone())),
                VlmetaReport::Raw(_) => None,
            })
            .collect(),
    )
}

fn push_attrs(s: &mut String, vlmeta: &Vlmeta, depth: usize) {
    for (name, value) in &vlmeta.0 {
        let _ = write!(
            s,
            "\n{}attrs {name}: {}",
            "  ".repeat(depth + 1),
            json(value)
        );
    }
}

fn kind_line(kind: &Kind, detail: Option<&b2nd_meta::value::Value>) -> String {
    match (kind, detail) {
        (Kind::B2Object(_), Some(d)) => format!("{} {}", kind.name(), json(d)),
        _ => kind.name().to_owned(),
    }
}

/// One entry: in a TreeStore's tree (`tree`: the base depth) its last key component
/// indented by depth, elsewhere its whole key; its kind and, for an array, shape, dtype
/// and chunks; attrs indented below.
fn tree_line(
    entry: &Entry,
    info: &Result<EntryInfo, container::ContainerError>,
    tree: Option<usize>,
) -> String {
    let (depth, name) = match tree {
        Some(base) => (
            entry.key.matches('/').count().saturating_sub(1) + base,
            entry.key.rsplit('/').next().unwrap_or(&entry.key),
        ),
        None => (1, entry.key.as_str()),
    };
    let indent = "  ".repeat(depth);
    let mut s = format!("{indent}{name}");
    let info = match info {
        Ok(info) => info,
        Err(e) => {
            let _ = write!(s, "  error: {e}");
            return s;
        }
    };
    if info.kind == Kind::Group {
        s.push('/');
    }
    let _ = write!(s, "  {}", kind_line(&info.kind, info.detail.as_ref()));
    if let Some(report) = &info.report {
        if let Some(MetalayerReport::Decoded(meta)) = report
            .array
            .as_ref()
            .and_then(|a| report.metalayers.get(&a.metalayer))
        {
            let dtype = report.array.as_ref().map_or("", |a| a.dtype.str.as_str());
            let _ = write!(
                s,
                "  shape {:?}  dtype {dtype}  chunks {:?}",
                meta.shape(),
                meta.chunkshape()
            );
        } else {
            let f = &report.frame;
            let _ = write!(s, "  {} bytes, typesize {}", f.nbytes, f.typesize);
        }
        if !report.vlmeta.0.is_empty() && info.kind != Kind::Group {
            push_attrs(&mut s, &report.vlmeta, depth);
        }
    }
    if info.kind == Kind::CTable
        && let Some(schema) = info.detail.as_ref().and_then(|d| d.get("schema"))
    {
        let _ = write!(s, "\n{indent}    schema: {}", json(schema));
    }
    if let Some(attrs) = &info.attrs {
        push_attrs(&mut s, attrs, depth);
    }
    s
}
